//! The generator over what the text front end reads (litmus-text's
//! `text_*` tests check the reading): herd7's GPU_PTX corpus, each file a
//! module; host threads and host memory, given their buffers or refused;
//! an mbarrier the harness could not drain, refused (`ptx_async.rs` has
//! the async proxy itself).

use std::path::PathBuf;

use litmus_core::ir::Test;
use litmus_ptx::{self as ptx, PtxError};
use litmus_text as text;

const MP: &str = "PTX mp-host\n{ host x=0; host y=0; g=0; }\n P0@cta 0,gpu 0      | P1@host          ;\n st.weak x, 1        | ld.acquire r0, y ;\n st.release.sys y, 1 | ld.weak r1, x    ;\n                     | fence.acq_rel.sys ;\n                     | atom.acq_rel.sys.exch r2, g, 1 ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)";

fn parse(src: &str) -> Test {
    text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("<src>")))
}

/// The `.litmus` files of litmus-text's GPU_PTX corpus folder `sub`.
fn gpu_ptx_files(sub: &str) -> Vec<(PathBuf, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../litmus-text/tests/data/gpu_ptx")
        .join(sub);
    let mut files: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "litmus"))
        .map(|p| {
            let src = std::fs::read_to_string(&p).unwrap();
            (p, src)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_file_of_the_gpu_ptx_corpus_has_a_module() {
    let mut files = gpu_ptx_files("");
    files.extend(gpu_ptx_files("asplos15"));
    // The corpus litmus-text's text_gpu_ptx.rs reads: a folder that
    // emptied would make this loop vacuous.
    assert!(files.len() >= 25, "{} files", files.len());
    for (path, src) in files {
        let name = path.display();
        let test = text::parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&name.to_string())));
        let code = ptx::generate(&test).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(code.contains(".entry litmus_test("), "{name}");
        assert!(code.contains(".entry litmus_classify("), "{name}");
    }
}

#[test]
fn the_ptx_generator_refuses_an_mbarrier_whose_phase_cannot_end() {
    // Initialised for two arrivals, reached by none: the kernel could not
    // tell when a bulk copy signalling it had landed before its CTA exits.
    let t = parse("PTX t\n{ g=1; h=0; shared s=0; shared::cluster b=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [b], 2 | fence.proxy.async ;\nexists (h == 0)");
    let e = ptx::generate(&t).unwrap_err().to_string();
    assert!(
        e.contains("mbarrier `b` is initialised for 2 arrivals and 0 arrive instructions reach it")
            && !e.contains('\n'),
        "{e}"
    );
}

#[test]
fn the_harness_refuses_a_host_thread_that_reaches_gpu_memory() {
    // MP's host thread exchanges `g`, which lives in GPU memory.
    let e = ptx::generate(&parse(MP)).unwrap_err();
    assert_eq!(
        e,
        PtxError::Unsupported(
            "host thread `P1` reaches `g`, which is not in host memory: the CPU cannot address GPU memory (declare it `host`)".into()
        )
    );
    let only_host = parse("PTX t\n{ host x=0; }\n P0@host ;\n st.relaxed x, 1 ;\nexists (x == 1)");
    assert!(
        matches!(ptx::generate(&only_host), Err(PtxError::Unsupported(why)) if why.starts_with("every thread runs on the host")),
        "{:?}",
        ptx::generate(&only_host)
    );
}

#[test]
fn host_memory_and_host_threads_get_their_buffers_and_no_gpu_role() {
    let mp = MP.replace("g=0", "host g=0");
    let code = ptx::generate(&parse(&mp)).unwrap();
    let (test_kernel, classify) = code.split_once(".entry litmus_classify").unwrap();
    // The test kernel takes the host buffer, the start flag and its
    // target, polls the flag with `.sys` loads, and plays only P0: the
    // host's acquire load and exchange have no PTX.
    assert!(test_kernel
        .contains(".param .u64 p_host,\n\t.param .u64 p_go,\n\t.param .u64 p_go_target,\n\t.param .align 4 .b8 p_knobw["));
    assert!(test_kernel.contains("ld.relaxed.sys.global.u32"));
    assert!(test_kernel.contains("st.release.sys.global.u32"));
    assert!(!test_kernel.contains("ld.acquire"));
    assert!(!test_kernel.contains("atom."));
    assert!(!test_kernel.contains("role 1"));
    // The classifier reads (and resets) host locations through the host
    // buffer, and the host thread's registers from the host's registers
    // buffer (P1's r0 and r1), the GPU role's from `p_regs`; it has no
    // start flag to wait on.
    assert!(classify.contains(
        ".param .u64 p_host,\n\t.param .u64 p_host_regs,\n\t.param .align 4 .b8 p_knobw["
    ));
    assert!(!test_kernel.contains("p_host_regs"));
    assert!(!classify.contains("p_go"));
    // Host memory alone: the buffer, no flag.
    let only_memory =
        parse("PTX t\n{ host x=0; }\n P0@cta 0,gpu 0 ;\n st.relaxed.sys x, 1 ;\nexists (x == 1)");
    let code = ptx::generate(&only_memory).unwrap();
    assert!(code.contains("p_host") && !code.contains("p_go"));
    let layout = ptx::Layout::of(&only_memory).unwrap();
    assert_eq!(layout.host_slots, vec![0]);
    assert!(!layout.has_host_roles());
}
