//! The async proxy on real hardware (sm_90): every test of the
//! catalogue's `tests/async` runs with every instance counted once and its
//! placement held, under the default knobs and under the environment and
//! codegen knobs that move its slots and CTAs; the copies and barriers
//! work at all (each test's strong outcome shows); the values are the
//! test's own (no slot of another instance or location copied in); and
//! what the harness refuses is refused in one line. Whether an outcome is
//! one the model allows is the runner's question: `LITMUS_REQUIRE_GPU=1
//! cargo test --test catalogue_async` at the workspace's root.
//!
//! Without a GPU each test says in one line that it skipped (and fails
//! when `LITMUS_REQUIRE_GPU=1`).

mod gpu_support;

use std::path::PathBuf;

use gpu_support::{counted_run, hardware, parse};
use litmus_core::ir::Test;
use litmus_hw::{self as gpu, Addressing, CtaSpread, Environment, GpuError, Knobs, Lanes};
use litmus_hw::{LocLayout, PtxTarget};
use litmus_ptx as ptx;

fn knobs(launches: u64) -> Knobs {
    Knobs {
        launches: Some(launches),
        seed: 11,
        ..Knobs::default()
    }
}

/// The catalogue's async tests, each with its module: read and generated
/// without a GPU too, so that a test that cannot generate fails
/// everywhere.
fn async_tests() -> Vec<(String, Test, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/async");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "litmus"))
        .collect();
    files.sort();
    assert!(files.len() >= 21, "{} files", files.len());
    files
        .iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let test = parse(&std::fs::read_to_string(p).unwrap());
            let code = ptx::generate(&test).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, test, code)
        })
        .collect()
}

/// Instances a launch of `test` runs under `k`: a unit of a test with
/// clusters is a whole cluster, so a launch of the knobs' CTAs holds that
/// many CTAs over the cluster's size ([`gpu::HwResult::instances`]).
fn per_launch(test: &Test, k: &Knobs) -> u64 {
    let size = ptx::Layout::of(test).map_or(1, |l| l.cluster_size.max(1));
    k.instances() / u64::from(size)
}

/// Every value of every outcome is 0 or 1: each location of these tests
/// starts at 0 or 1 and is written 1, and each `try_wait` writes 0 or 1.
/// Anything else is a slot read or copied from elsewhere (another
/// instance's, padding, shared memory nobody initialised).
fn values_are_the_tests_own(what: &str, r: &gpu::HwResult) {
    for (values, count) in &r.histogram {
        assert!(
            values.iter().all(|v| *v <= 1),
            "{what}: impossible outcome {values:?} ({count} times)"
        );
    }
}

#[test]
fn async_tests_keep_every_instance_counted_their_placement_and_their_values() {
    let tests = async_tests();
    if !hardware() {
        return;
    }
    // The default knobs; an environment that shuffles and interleaves the
    // CTAs and stresses memory; the codegen and layout knobs that move
    // the slots (generic addressing, CTAs spread by lane, interleaved
    // global slots, permuted lanes, a wider stride); wide CTAs (more
    // shared memory a CTA) and a cap of CTAs per SM.
    let stressed = Knobs {
        spin: 200,
        stress_ctas: 64,
        stress_rounds: 32,
        env: Environment {
            stress_pct: 70,
            pre_stress: 16,
            pre_pct: 50,
            spin_pct: 50,
            shuffle_pct: 100,
            interleave_pct: 100,
            ..Environment::default()
        },
        ..knobs(8)
    };
    let moved = Knobs {
        addressing: Addressing::Generic,
        cta_spread: CtaSpread::ByLane,
        loc_layout: LocLayout::Interleaved,
        lanes: Lanes::Permuted,
        stride: 8,
        ..knobs(8)
    };
    let wide = Knobs {
        ctas: 128,
        threads: 1024,
        ctas_per_sm: 2,
        ..knobs(4)
    };
    for (name, test, code) in &tests {
        for k in [knobs(16), stressed.clone(), moved.clone(), wide.clone()] {
            let what = format!("{name} with {k}");
            let r = counted_run(test, code, &k, per_launch(test, &k), &what);
            values_are_the_tests_own(&what, &r);
            let placed =
                gpu::check_placement(test, code, &k).unwrap_or_else(|e| panic!("{what}: {e}"));
            println!(
                "{what}: {:?}, placement held on {} SMs",
                r.histogram, placed.sms
            );
        }
    }
}

#[test]
fn the_copies_and_barriers_work_each_test_shows_its_strong_outcome() {
    let tests = async_tests();
    if !hardware() {
        return;
    }
    // The outcome each of these tests shows when the copy lands, the wait
    // succeeds and everything is seen: if the harness's copies, barriers
    // or slots were wrong, it would not show (or show never).
    let strong: [(&str, &[u32]); 6] = [
        ("tma_load_wait_read", &[1, 1]),
        ("tma_store_fence", &[1]),
        ("tma_store_two_writers_bar_fence", &[1]),
        ("mp_bulk_store_wait", &[1, 1]),
        ("corr_tma_load_fence", &[1, 1, 1]),
        ("mbarrier_remote_arrive_cluster", &[1, 1]),
    ];
    for (want, outcome) in strong {
        let (_, test, code) = tests
            .iter()
            .find(|(n, ..)| n == want)
            .unwrap_or_else(|| panic!("no {want}"));
        let k = knobs(16);
        let r = counted_run(test, code, &k, per_launch(test, &k), want);
        let seen = r
            .histogram
            .iter()
            .find(|(v, _)| v.as_slice() == outcome)
            .map_or(0, |(_, c)| *c);
        assert!(
            seen > 0,
            "{want}: {outcome:?} never shows: {:?}",
            r.histogram
        );
        println!("{want}: {outcome:?} {seen} of {}", r.instances);
    }
}

#[test]
fn what_the_harness_refuses_is_refused_in_one_line() {
    let tests = async_tests();
    if !hardware() {
        return;
    }
    let (_, test, code) = tests
        .iter()
        .find(|(n, ..)| n == "mp_bulk_store_wait")
        .unwrap();
    // A stride that would copy into other instances' slots.
    let narrow = Knobs {
        stride: 1,
        ..knobs(1)
    };
    match gpu::run(test, code, &narrow) {
        Err(GpuError::Knob { var, .. }) => assert_eq!(var, "LITMUS_STRIDE"),
        other => panic!("stride 1 ran a bulk store: {other:?}"),
    }
    // An sm_80 module has no async proxy: not run, before the driver
    // sees it.
    let old = Knobs {
        ptx_target: PtxTarget::Arch(ptx::isa::SmArch::new(80)),
        ..knobs(1)
    };
    match gpu::run(test, code, &old) {
        Err(GpuError::Unfaithful(why)) => {
            assert!(
                why.contains("needs sm_90 and the module targets sm_80") && !why.contains('\n'),
                "{why}"
            );
        }
        other => panic!("an sm_80 module ran the async proxy: {other:?}"),
    }
}
