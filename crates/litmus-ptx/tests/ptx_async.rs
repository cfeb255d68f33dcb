//! The async proxy in the generated kernel, checked without a GPU: every
//! test of the catalogue's `tests/async` has a module for sm_90 with its
//! instructions in it, and an older target refuses it in one line; the
//! slots a bulk copy or an mbarrier gets (wide, aligned, one per
//! instance); and what the harness refuses to run, each in one line.
//! `ptx_codegen.rs` keeps the snapshots of three of the modules; the root
//! crate's `ptx_portability.rs` compiles them with a real ptxas.

use std::path::PathBuf;

use litmus_core::async_proxy::{AsyncOp, AsyncSpace};
use litmus_core::instr::InstrKind;
use litmus_core::ir::Test;
use litmus_ptx::isa::{self, Needs, PtxIsa, SmArch};
use litmus_ptx::{self as ptx, Layout, PtxError};
use litmus_text as text;

fn parse(src: &str) -> Test {
    text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("<src>")))
}

/// The `.litmus` files of the catalogue's `tests/async`, parsed.
fn async_files() -> Vec<(String, Test)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/async");
    let mut files: Vec<(String, Test)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "litmus"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let src = std::fs::read_to_string(&p).unwrap();
            (name, parse(&src))
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    // The catalogue has 21: a folder that emptied would make the loops
    // below vacuous.
    assert!(files.len() >= 21, "{} files", files.len());
    files
}

/// The test kernel's text (the module's first kernel), without comments.
fn test_kernel(module: &str) -> String {
    let start = module.find(".entry litmus_test(").expect("a test kernel");
    let end = module[start..]
        .find(".entry litmus_classify(")
        .expect("a classifier")
        + start;
    module[start..end]
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The PTX an async instruction must become somewhere in the kernel:
/// one line that starts with the first text (after its indentation) and
/// holds the second.
fn expected_ptx(op: &AsyncOp) -> (String, String) {
    match op {
        AsyncOp::BulkLoad { size, .. } => (
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r".into(),
            format!("], {}, [%r", size.value),
        ),
        AsyncOp::BulkStore { size, .. } => (
            "cp.async.bulk.global.shared::cta.bulk_group [%rd".into(),
            format!("], {};", size.value),
        ),
        AsyncOp::CommitGroup => ("cp.async.bulk.commit_group;".into(), String::new()),
        AsyncOp::WaitGroup { read, pending } => (
            format!(
                "cp.async.bulk.wait_group{} {};",
                if *read { ".read" } else { "" },
                pending.value
            ),
            String::new(),
        ),
        AsyncOp::MbarrierInit { count, .. } => (
            "mbarrier.init.shared::cta.b64 [%r".into(),
            format!("], {};", count.value),
        ),
        AsyncOp::MbarrierArrive {
            sem,
            scope,
            expect_tx,
            ..
        } => (
            format!(
                "mbarrier.arrive{}.{}.{}.shared::",
                if expect_tx.is_some() {
                    ".expect_tx"
                } else {
                    ""
                },
                sem.as_str(),
                scope.as_str()
            ),
            match expect_tx {
                Some(tx) => format!("], {};", tx.value),
                None => "];".into(),
            },
        ),
        AsyncOp::MbarrierTryWait { sem, scope, .. } => (
            format!(
                "mbarrier.try_wait.parity.{}.{}.shared::cta.b64 %p",
                sem.as_str(),
                scope.as_str()
            ),
            "], 0;".into(),
        ),
        AsyncOp::ProxyFence(AsyncSpace::All) => ("fence.proxy.async;".into(), String::new()),
        AsyncOp::ProxyFence(s) => (format!("fence.proxy.async.{};", s.as_str()), String::new()),
        AsyncOp::MbarrierInitFence => {
            ("fence.mbarrier_init.release.cluster;".into(), String::new())
        }
        AsyncOp::ProxyFenceOneWay(w) => (format!("{};", w.ptx()), String::new()),
    }
}

#[test]
fn every_async_test_has_a_module_for_sm_90_with_its_instructions() {
    for (name, test) in async_files() {
        let module = ptx::generate(&test).unwrap_or_else(|e| panic!("{name}: {e}"));
        let needs = Needs::of(&module);
        assert_eq!(needs.sm, SmArch::new(90), "{name}");
        assert!(needs.isa >= PtxIsa::new(8, 0), "{name}: {}", needs.isa);
        assert!(
            module.starts_with(&format!("// gpu-litmus: test `{}`", test.name)),
            "{name}"
        );
        assert!(module.contains(&isa::header(&needs)), "{name}");
        let kernel = test_kernel(&module);
        let ops = test
            .threads
            .iter()
            .flat_map(|t| &t.body)
            .filter_map(|i| match &i.kind {
                InstrKind::Async(op) => Some(op),
                _ => None,
            });
        for op in ops {
            let (head, tail) = expected_ptx(op);
            assert!(
                kernel
                    .lines()
                    .any(|l| l.trim_start().starts_with(&head) && l.contains(&tail)),
                "{name}: no `{head}...{tail}` for `{}`",
                op.head()
            );
        }
        // Every mbarrier is initialised once per instance, in the set-up:
        // not again where the test names `mbarrier.init`, which would race
        // with another thread's arrival.
        let layout = Layout::of(&test).unwrap();
        let barriers = layout
            .shared_locs
            .iter()
            .filter(|l| l.mbarrier.is_some())
            .count();
        assert_eq!(kernel.matches("mbarrier.init.").count(), barriers, "{name}");
        // The set-up hands the initial values to the async proxy before
        // the roles start; the drain, after them, waits for each barrier's
        // phase and each thread's bulk groups.
        let first_role = module.find("\t// role 0:").expect("a role");
        if !layout.shared_locs.is_empty() {
            let fence = module
                .find("\tfence.proxy.async.shared::cta;")
                .expect("the set-up's fence");
            assert!(fence < first_role, "{name}");
        }
        let drained = |what: &str| module.find(what).is_some_and(|at| at > first_role);
        assert_eq!(
            drained("mbarrier.test_wait.parity.acquire.cta.shared::cta.b64"),
            barriers > 0,
            "{name}"
        );
        assert_eq!(
            drained("// drain: this thread's bulk stores\n\tcp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group 0;"),
            layout.bulk_stores,
            "{name}"
        );
    }
}

#[test]
fn a_try_wait_writes_its_predicate_as_the_register_the_classifier_reads() {
    let test = async_files()
        .into_iter()
        .find(|(n, _)| n == "tma_load_wait_read")
        .unwrap()
        .1;
    let kernel = test_kernel(&ptx::generate(&test).unwrap());
    let wait = kernel
        .lines()
        .find(|l| l.contains("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64"))
        .unwrap();
    let p = wait
        .split_whitespace()
        .nth(1)
        .unwrap()
        .trim_end_matches(',');
    // r0 is the thread's first register, `%t0r0`; it is stored for the
    // classifier with the other registers of the outcome.
    assert!(
        kernel.contains(&format!("selp.u32 %t0r0, 1, 0, {p};")),
        "{kernel}"
    );
    assert!(kernel.contains("], %t0r0;"), "{kernel}");
}

#[test]
fn an_older_target_is_refused_in_one_line() {
    for (name, test) in async_files() {
        let module = ptx::generate(&test).unwrap();
        for arch in [80, 86, 89] {
            let e = isa::retarget(&module, SmArch::new(arch))
                .unwrap_err()
                .to_string();
            assert!(!e.contains('\n'), "{name}: {e}");
            assert!(
                e.ends_with(&format!("needs sm_90 and the module targets sm_{arch}")),
                "{name}: {e}"
            );
        }
        assert!(isa::retarget(&module, SmArch::new(90)).is_ok(), "{name}");
    }
}

#[test]
fn the_relaxed_mbarrier_forms_need_ptx_8_6() {
    // ptxas 12.4 (PTX 8.4) refuses them: the driver check says so in one
    // line rather than letting the JIT fail.
    let (_, test) = async_files()
        .into_iter()
        .find(|(n, _)| n == "tma_load_relaxed_wait_read")
        .unwrap();
    let needs = Needs::of(&ptx::generate(&test).unwrap());
    assert_eq!(needs.isa, PtxIsa::new(8, 6));
    let e = needs
        .fit(SmArch::new(90), "ptxas 12.4.131 reads", PtxIsa::new(8, 4))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "mbarrier.try_wait.relaxed needs PTX 8.6 and ptxas 12.4.131 reads 8.4"
    );
}

const TMA_LOAD: &str = "PTX tma\n{ g=1; shared s=0; shared b=0; }\n P0@cta 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [b], 1 ;\n mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 [b], 16 ;\n cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [g], 16, [b] ;\n mbarrier.try_wait.acquire.cta.shared::cta.b64 r0, [b] ;\n ld.weak r1, s ;\nexists (P0:r0 == 1 /\\ P0:r1 == 0)\n";

#[test]
fn bulk_copies_and_mbarriers_get_slots_of_their_own_size_and_alignment() {
    let test = parse(&TMA_LOAD.replace(", 16", ", 48"));
    let layout = Layout::of(&test).unwrap();
    let widths: Vec<(u32, Option<u32>)> = layout
        .shared_locs
        .iter()
        .map(|l| (l.bytes, l.mbarrier))
        .collect();
    // s: the 48 bytes the copy writes; b: one 8-byte mbarrier for one arrival.
    assert_eq!(widths, [(48, None), (8, Some(1))]);
    assert_eq!(layout.shared_align(), 16);
    // Every lane's slot of every location, for the widths the harness
    // launches: aligned to what its instructions need, inside the CTA's
    // shared memory, and apart from every other slot.
    for t in [32u32, 64, 128, 1024] {
        let mut slots = Vec::new();
        for (s, l) in layout.shared_locs.iter().enumerate() {
            for lane in 0..t {
                let start = t * layout.shared_offset(s) + lane * l.bytes;
                let align = if l.mbarrier.is_some() { 8 } else { 16 };
                assert_eq!(start % align, 0, "location {s}, lane {lane} of {t}");
                slots.push((start, start + l.bytes));
            }
        }
        slots.sort();
        assert!(slots.windows(2).all(|w| w[0].1 <= w[1].0), "overlap at {t}");
        assert_eq!(slots.last().unwrap().1, layout.shared_bytes(t));
    }
    // The global slot the copy reads spans 12 words, 16-byte aligned.
    assert_eq!(layout.bulk_words, 12);
    for (stride, fits) in [(1, false), (4, false), (12, true), (14, false), (16, true)] {
        assert_eq!(layout.stride_fits(stride), fits, "stride {stride}");
    }
    // A test without bulk copies of global memory takes any stride, and
    // its shared words stay words.
    let sb = parse("PTX sb\n{ shared x=0; shared y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n ld.weak r0, y | ld.weak r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n");
    let plain = Layout::of(&sb).unwrap();
    assert!(plain.stride_fits(1) && !plain.asynchronous);
    assert_eq!(
        (plain.shared_align(), plain.shared_bytes(64)),
        (4, 2 * 4 * 64)
    );
}

#[test]
fn a_cluster_shared_mbarrier_lives_in_the_cta_that_waits_on_it() {
    // The waiter in the cluster's second CTA: `try_wait` reaches its own
    // CTA's shared memory only, so the barrier lives there and the other
    // CTA arrives on it through `mapa` to rank 1.
    let src = "PTX t\n{ d=0; shared::cluster b=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n st.weak d, 1 | mbarrier.init.shared::cta.b64 [b], 1 ;\n mbarrier.arrive.release.cluster.shared::cluster.b64 _, [b] | mbarrier.try_wait.acquire.cluster.shared::cta.b64 r0, [b] ;\n  | ld.weak r1, d ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
    let test = parse(src);
    let layout = Layout::of(&test).unwrap();
    assert_eq!(layout.shared_locs[0].rank, 1);
    let kernel = test_kernel(&ptx::generate(&test).unwrap());
    assert!(kernel.contains("mapa.shared::cluster.u32"), "{kernel}");
    assert!(
        kernel
            .lines()
            .filter(|l| l.contains("mapa.shared::cluster.u32"))
            .all(|l| l.trim_end().ends_with(", 1;")),
        "{kernel}"
    );
    assert!(kernel.contains("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r"));
}

/// The refusal `src` gets, checked to be one line.
fn refusal(src: &str) -> String {
    match ptx::generate(&parse(src)) {
        Err(PtxError::Unsupported(why)) => {
            assert!(!why.contains('\n'), "{why}");
            why
        }
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn what_the_harness_cannot_drain_or_reach_is_refused_in_one_line() {
    // An arrival in a loop may run more than once, or not at all.
    let looped = TMA_LOAD.replace(
        " mbarrier.arrive.expect_tx",
        " L0: ;\n mbarrier.arrive.expect_tx",
    );
    let why = refusal(&looped);
    assert!(
        why.starts_with("`mbarrier.arrive.expect_tx.release.cta.shared::cluster.b64` in thread `P0` comes after a label or branch"),
        "{why}"
    );
    // Two arrivals asked for, one given: the phase never ends.
    let why = refusal(&TMA_LOAD.replace("[b], 1 ;", "[b], 2 ;"));
    assert!(
        why.starts_with(
            "mbarrier `b` is initialised for 2 arrivals and 1 arrive instructions reach it"
        ),
        "{why}"
    );
    // Waiters in two CTAs of a cluster on one cluster-shared barrier.
    let two = "PTX t\n{ d=0; shared::cluster b=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [b], 1 | mbarrier.arrive.release.cluster.shared::cluster.b64 _, [b] ;\n mbarrier.try_wait.acquire.cluster.shared::cta.b64 r0, [b] | mbarrier.try_wait.acquire.cluster.shared::cta.b64 r1, [b] ;\nexists (P0:r0 == 1 /\\ P1:r1 == 0)\n";
    let why = refusal(two);
    assert!(
        why.contains("by thread `P0` and as mbarrier.try_wait by thread `P1` in another CTA"),
        "{why}"
    );
    // A bulk load into this CTA signalling a barrier in the other one.
    let split = "PTX t\n{ g=1; shared s=0; shared::cluster b=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n mbarrier.init.shared::cta.b64 [b], 1 | cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [g], 16, [b] ;\n mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [b], 16 | ld.weak r1, s ;\n mbarrier.try_wait.acquire.cluster.shared::cta.b64 r0, [b] | ;\nexists (P0:r0 == 1 /\\ P1:r1 == 0)\n";
    let why = refusal(split);
    assert!(
        why.contains("writes `s` and signals `b` in different CTAs of the cluster"),
        "{why}"
    );
}
