//! Tests whose threads sit on several GPUs, checked without a GPU: which
//! roles each logical GPU's launch plays, what the kernel takes and skips,
//! and what the harness refuses.

use litmus_ptx::layout::{LOGICAL_GPU, MAX_GPUS};
use litmus_ptx::{self as ptx, Layout, PtxError};
use litmus_text as text;

fn parse(src: &str) -> litmus_core::ir::Test {
    text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("inline")))
}

/// MP with the reader on GPU 1, both in CTA 0 of their GPU.
const MP_TWO: &str = "PTX MP-two\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

/// IRIW over three GPUs: writers on GPU 0 and 2, readers on GPU 1 and 0.
const IRIW_THREE: &str = "PTX IRIW-three\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 2 | P2@cta 0,gpu 1 | P3@cta 1,gpu 0 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 | ld.relaxed.sys r0, x | ld.relaxed.sys r0, y ;\n | | ld.relaxed.sys r1, y | ld.relaxed.sys r1, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)\n";

#[test]
fn each_logical_gpu_plays_the_roles_placed_on_it() {
    let layout = Layout::of(&parse(MP_TWO)).unwrap();
    assert_eq!(layout.gpus, 2);
    assert!(layout.multi_gpu() && layout.has_start_flag());
    assert_eq!(layout.roles_on(0), vec![0]);
    assert_eq!(layout.roles_on(1), vec![1]);
    assert!(layout.roles_on(2).is_empty());
    // CTA 0 of GPU 0 and CTA 0 of GPU 1 are different CTAs.
    assert_ne!(layout.roles[0].cta_offset, layout.roles[1].cta_offset);
    assert_eq!(layout.ctas, 2);

    let layout = Layout::of(&parse(IRIW_THREE)).unwrap();
    assert_eq!(layout.gpus, 3);
    assert_eq!(layout.roles_on(0), vec![0, 3]);
    assert_eq!(layout.roles_on(1), vec![2]);
    assert_eq!(layout.roles_on(2), vec![1]);
    assert_eq!(
        layout.roles.iter().map(|r| r.gpu).collect::<Vec<_>>(),
        vec![0, 2, 1, 0]
    );
}

#[test]
fn a_test_on_one_gpu_takes_no_gpu_parameter_and_no_start_flag() {
    let mp = MP_TWO.replace("P1@cta 0,gpu 1", "P1@cta 1,gpu 0");
    let layout = Layout::of(&parse(&mp)).unwrap();
    assert_eq!(layout.gpus, 1);
    assert!(!layout.multi_gpu() && !layout.has_start_flag());
    let code = ptx::generate(&parse(&mp)).unwrap();
    assert!(!code.contains(LOGICAL_GPU) && !code.contains("p_go"));
    assert!(!code.contains("red.relaxed.sys"));
}

#[test]
fn the_kernel_skips_the_roles_of_other_gpus_and_waits_for_the_start_flag() {
    let code = ptx::generate(&parse(MP_TWO)).unwrap();
    let test_kernel = &code[..code.find(".entry litmus_classify").unwrap()];
    // Both launches take the start flag and its target, then the logical
    // GPU, then the start relay word of each launching GPU, and last the
    // knob words by value.
    assert!(
        test_kernel.contains(
            ".param .u64 p_go,\n\t.param .u64 p_go_target,\n\t.param .u64 p_gpu,\n\t.param .u64 p_relay0,\n\t.param .u64 p_relay1,\n\t.param .align 4 .b8 p_knobw["
        ),
        "{test_kernel}"
    );
    // The relay counts its launch in at both GPUs' words; every warp polls
    // its own GPU's word; and the roles' set-ups come before that wait, so
    // that only their bodies follow the start.
    let relay_reds = test_kernel
        .lines()
        .filter(|l| l.contains("red.relaxed.sys.global.add.u32"))
        .count();
    assert!(relay_reds >= 2, "{test_kernel}");
    let setup = test_kernel
        .find("set-up of role 1")
        .expect("role 1's set-up");
    let started = test_kernel.find("host_started").expect("the start wait");
    let body = test_kernel.find("// role 0:").expect("role 0's body");
    assert!(setup < started && started < body, "{test_kernel}");
    // Every role is gated by its GPU, in each of its three parts (set-up,
    // body, register stores): 2 roles × 3 gates on the register that holds
    // the launch's GPU.
    let lines: Vec<&str> = test_kernel.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("[p_gpu]"))
        .expect("p_gpu is loaded");
    let reg = lines[at + 1]
        .trim()
        .strip_prefix("cvt.u32.u64 ")
        .and_then(|r| r.split(',').next())
        .expect("p_gpu is narrowed to 32 bits");
    let gates_for = |g: u32| {
        lines
            .iter()
            .filter(|l| {
                l.contains("setp.ne.u32") && l.trim_end().ends_with(&format!("{reg}, {g};"))
            })
            .count()
    };
    assert_eq!((gates_for(0), gates_for(1)), (3, 3), "{test_kernel}");
    // The start flag is polled with a `.sys` load.
    assert!(test_kernel.contains("ld.relaxed.sys.global.u32"));
    // The spin barrier meets across GPUs at `.sys` scope.
    assert!(test_kernel.contains("red.relaxed.sys.global.add.u32"));
    assert!(!test_kernel.contains("red.relaxed.gpu.global.add.u32"));
    // The placement record's third word is the logical GPU.
    assert!(!test_kernel.contains("%warpid"));
    // The classifier runs on GPU 0 alone: it takes neither.
    let classify = &code[code.find(".entry litmus_classify").unwrap()..];
    assert!(!classify.contains("p_gpu") && !classify.contains("p_go"));
}

/// The CTA start: thread 0 of each CTA polls its CTA's copy of the flag,
/// one line (128 bytes) per copy, `ctaid mod copies`, the count read from
/// its knob word and kept inside the harness's buffer.
#[test]
fn the_cta_start_reads_its_ctas_copy_of_the_flag() {
    use litmus_ptx::layout::{START_FLAG_COPIES, START_FLAG_SPACING};
    let layout = Layout::of(&parse(MP_TWO)).unwrap();
    let code = ptx::generate(&parse(MP_TWO)).unwrap();
    let test_kernel = &code[..code.find(".entry litmus_classify").unwrap()];
    let start = test_kernel.find("cta_waiting").expect("the CTA start");
    let cta = &test_kernel[start..];
    let cta = &cta[..cta.find("bar.sync 0").expect("its barrier")];
    assert!(
        test_kernel.contains(&format!("[p_knobw+{}]", 4 * layout.gpu_flags_knob())),
        "{test_kernel}"
    );
    assert!(
        cta.contains(&format!(", {START_FLAG_COPIES};")) && cta.contains("rem.u32"),
        "{cta}"
    );
    assert!(
        cta.contains(&format!(", {};", START_FLAG_SPACING * 4)),
        "{cta}"
    );
    assert_eq!(START_FLAG_SPACING * 4, 128);
}

/// The paced start: its branch, the relay before it, the launch's `t0`
/// in an 8-byte knob word the kernel alone writes, and each CTA's wait on
/// `%globaltimer` after it.
#[test]
fn the_paced_start_takes_t0_once_a_launch_and_waits_ctaid_times_the_pace() {
    use litmus_ptx::layout::{knob, start_mode};
    let layout = Layout::of(&parse(MP_TWO)).unwrap();
    let t0 = layout.gpu_t0_knob();
    assert_eq!(t0 % 2, 0, "the t0 word is 8-byte aligned");
    assert!(t0 > layout.gpu_pace_knob() && t0 + 2 == layout.knob_words());
    let mode = [start_mode::RELAY, start_mode::CTA, start_mode::PACED];
    assert_eq!(mode, [0, 1, 2]);
    let code = ptx::generate(&parse(MP_TWO)).unwrap();
    let test_kernel = &code[..code.find(".entry litmus_classify").unwrap()];
    let label = |name: &str| {
        test_kernel
            .lines()
            .find(|l| l.starts_with(name) && l.ends_with(':'))
            .and_then(|l| test_kernel.find(l))
            .unwrap_or_else(|| panic!("no label {name}: {test_kernel}"))
    };
    let waiting = label("$L_paced_waiting");
    let paced = &test_kernel[label("$L_paced_start")..waiting];
    // Every thread of the CTA meets its thread 0 at the barrier.
    assert!(test_kernel[waiting..].lines().nth(1) == Some("\tbar.sync 0;"));
    // The relay counts the launch in, every CTA polls its GPU's word.
    assert!(paced.contains("red.relaxed.sys.global.add.u32"), "{paced}");
    assert!(
        paced.contains(&format!(", {};", knob::START_RELAY * 4)),
        "{paced}"
    );
    // t0: read, and claimed by compare-and-swap at its knob word.
    assert!(
        paced.contains(&format!(", {};", t0 * 4))
            && paced.contains("atom.relaxed.gpu.global.cas.b64"),
        "{paced}"
    );
    assert!(
        paced.contains("%globaltimer_lo") && paced.contains("sub.u32"),
        "{paced}"
    );
}

#[test]
fn what_the_harness_cannot_run_on_several_gpus_is_refused_with_the_reason() {
    let refused = |src: &str, needle: &str| {
        let e = Layout::of(&parse(src)).unwrap_err();
        assert!(matches!(e, PtxError::Unsupported(_)), "{e}");
        assert!(e.to_string().contains(needle), "{needle:?} not in: {e}");
    };
    refused(
        &MP_TWO.replace("gpu 1", &format!("gpu {MAX_GPUS}")),
        &format!("placed on GPU {MAX_GPUS}: the harness runs at most {MAX_GPUS} GPUs"),
    );
    let shared = "PTX shared-two\n{ shared x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.weak x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ;\nexists (P1:r0 == 1)\n";
    refused(shared, "shared memory in a test on several GPUs");
    // The highest GPU allowed still lays out.
    let last = MP_TWO.replace("gpu 1", &format!("gpu {}", MAX_GPUS - 1));
    assert_eq!(Layout::of(&parse(&last)).unwrap().gpus, MAX_GPUS);
}
