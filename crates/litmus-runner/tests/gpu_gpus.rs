//! Tests whose threads sit on several GPUs, on real hardware. The device
//! map (`Knobs::gpu_map`, `LITMUS_GPU_MAP`) `[0, 0]` runs both logical GPUs
//! on device 0, on two streams of one context, so these run on a machine
//! with one GPU; on a machine with two, the identity map runs them across
//! both. Without a GPU each test says in one line that it skipped (and
//! fails when `LITMUS_REQUIRE_GPU=1`); on the GPU machine:
//! `../shared/tools/gpu-pack`, then `bash .gpu/run.sh`.

// The hardware crate's GPU tests share this support; these tests also
// run the runner, which sits above that crate.
#[path = "../../litmus-hw/tests/gpu_support/mod.rs"]
mod gpu_support;

use gpu_support::{counted_run, generated, hardware, parse};
use litmus_hw::{self as gpu, Environment, GpuError, Knobs};
use litmus_model::{model_by_name, Options};
use litmus_ptx as ptx;
use litmus_runner::report;
use litmus_runner::runner::{run_test, Hardware, Source};
use litmus_runner::Config;

/// Both logical GPUs on device 0.
fn one_device(launches: u64) -> Knobs {
    Knobs {
        launches: Some(launches),
        seed: 17,
        gpu_map: Some(vec![0, 0]),
        ..Knobs::default()
    }
}

/// MP, writer on GPU 0, reader on GPU 1, relaxed `.sys` (the probe's run).
const MP_TWO: &str = "PTX mp_two_gpus\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

/// SB with a `.sys` fence on each side, one thread per GPU.
const SB_TWO: &str = "PTX sb_two_gpus\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 ;\n fence.sc.sys | fence.sc.sys ;\n ld.relaxed.sys r0, y | ld.relaxed.sys r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

/// IRIW with a writer and a reader on each GPU, the two threads of GPU 0
/// in different CTAs.
const IRIW_TWO: &str = "PTX iriw_two_gpus\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 | P2@cta 1,gpu 0 | P3@cta 1,gpu 1 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 | ld.relaxed.sys r0, x | ld.relaxed.sys r0, y ;\n | | ld.relaxed.sys r1, y | ld.relaxed.sys r1, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)\n";

/// MP from GPU 1 to a host thread, GPU 0 idle but for a third thread:
/// host roles beside two GPUs share the one start flag.
const MP_TWO_HOST: &str = "PTX mp_two_gpus_host\n{ host x=0; host y=0; z=0; }\n P0@cta 0,gpu 1 | P1@host | P2@cta 0,gpu 0 ;\n st.relaxed.sys x, 1 | ld.relaxed r0, y | st.relaxed.sys z, 1 ;\n st.relaxed.sys y, 1 | ld.relaxed r1, x | ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

/// Every instance is counted once (histogram total = launches × instances)
/// and every role of every instance ran on the logical GPU the test places
/// it on, in the CTAs it declares, over several tests and knobs.
#[test]
fn two_logical_gpus_on_one_device_count_every_instance_and_keep_placement() {
    // The tests generate without a GPU too.
    let tests = generated(&[MP_TWO, SB_TWO, IRIW_TWO, MP_TWO_HOST]);
    if !hardware() {
        return;
    }
    let variants = [
        ("defaults", one_device(16)),
        (
            "random permutations, small launches",
            Knobs {
                perm: litmus_hw::Perm::Random,
                ctas: 16,
                ..one_device(32)
            },
        ),
        (
            "the environment on (the spin barrier meets across GPUs)",
            Knobs {
                spin: 200,
                stress_ctas: 32,
                stress_rounds: 16,
                env: Environment {
                    shuffle_pct: 100,
                    spin_pct: 100,
                    ..Environment::default()
                },
                ..one_device(8)
            },
        ),
        (
            "the grid-wide spin barrier (it meets across GPUs), aligned lanes and interleaved slots",
            Knobs {
                spin: 200,
                lanes: litmus_hw::Lanes::Aligned,
                loc_layout: litmus_hw::LocLayout::Interleaved,
                env: Environment {
                    spin_pct: 100,
                    spin_scope: litmus_hw::SpinScope::Grid,
                    ..Environment::default()
                },
                ..one_device(8)
            },
        ),
    ];
    for (test, code) in &tests {
        let gpus = test
            .threads
            .iter()
            .filter(|t| !t.placement.host)
            .map(|t| t.placement.gpu)
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        for (what, k) in &variants {
            // What a launch holds is what the multi-GPU profile makes of
            // the knobs (the defaults' shape becomes its own).
            let ran = if gpus > 1 {
                k.resolve_for_gpus(gpus as u32)
            } else {
                k.clone()
            };
            let per_launch = if test.threads.iter().any(|t| t.placement.host) {
                ran.instances_with_host()
            } else {
                ran.instances()
            };
            let r = counted_run(
                test,
                code,
                k,
                per_launch,
                &format!("{} ({what})", test.name),
            );
            assert!(
                r.device.contains("logical GPUs on devices 0,0"),
                "{}",
                r.device
            );
            for (values, _) in &r.histogram {
                assert!(
                    values.iter().all(|v| *v <= 1),
                    "{} ({what}): impossible outcome {values:?}",
                    test.name
                );
            }
            let placed = gpu::check_placement(test, code, k)
                .unwrap_or_else(|e| panic!("{} ({what}): {e}", test.name));
            assert_eq!(placed.instances, per_launch);
            assert_eq!(
                placed.gpus, gpus,
                "{} ({what}): the roles ran on every logical GPU",
                test.name
            );
            println!(
                "{} ({what}): {} instances in {} launches ({:.2e}/s) on {}, {:?}; placement held on {} logical GPUs, {} SMs",
                test.name,
                r.instances,
                r.launches,
                r.rate(),
                r.device,
                r.histogram,
                placed.gpus,
                placed.sms
            );
        }
    }
}

/// The `.sys` fences forbid SB's weak outcome across GPUs, and the hardware
/// (two logical GPUs on one device) never shows it, through the runner; the
/// `.gpu`-scoped MP's stale read is allowed, and whatever shows is fine.
#[test]
fn the_runner_judges_two_gpu_tests_with_a_device_map() {
    let sb = parse(&SB_TWO.replace(
        "exists (P0:r0 == 0 /\\ P1:r1 == 0)",
        "exists (P0:r0 == 0 /\\ P1:r1 == 0) => forbidden",
    ));
    let mp_gpu = parse(
        &MP_TWO
            .replace("st.relaxed.sys y, 1", "st.release.gpu y, 1")
            .replace("ld.relaxed.sys r0, y", "ld.acquire.gpu r0, y")
            .replace(
                "exists (P1:r0 == 1 /\\ P1:r1 == 0)",
                "exists (P1:r0 == 1 /\\ P1:r1 == 0) => allowed",
            ),
    );
    if !hardware() {
        return;
    }
    let config = Config {
        model: model_by_name("ptx").unwrap(),
        options: Options::default(),
        knobs: one_device(32),
        report_dir: None,
        evidence_dir: None,
        hardware: true,
        tuning: None,
        portfolio: litmus_runner::portfolio::Portfolio::off(),
    };
    for test in [&sb, &mp_gpu] {
        let r = run_test(test, None, &config, Source::File("inline".into()));
        let line = report::text::hardware_line(&r);
        assert!(matches!(r.hardware, Hardware::Ran(_)), "{line}");
        assert!(r.failures.is_empty(), "{}: {:?}", test.name, r.failures);
        println!("{}: {line}", test.name);
    }
}

/// Without a map, a machine with fewer devices than the test's GPUs says
/// in one line that it did not run it (and `LITMUS_REQUIRE_GPU=1` does not
/// make that a failure); a machine with enough runs it across them.
#[test]
fn without_a_map_a_two_gpu_test_runs_across_devices_or_says_why_not() {
    let test = parse(MP_TWO);
    let code = ptx::generate(&test).unwrap();
    if !hardware() {
        return;
    }
    let k = Knobs {
        gpu_map: None,
        ..one_device(8)
    };
    match gpu::run(&test, &code, &k) {
        Err(GpuError::Unfaithful(why)) => {
            assert!(
                why.starts_with("the test places threads on 2 GPUs and this machine has 1")
                    || why.contains("cannot reach device"),
                "{why}"
            );
            println!("hardware: not run, {why}");
            // The runner says the same in one line, and nothing fails.
            let config = Config {
                model: model_by_name("ptx").unwrap(),
                options: Options::default(),
                knobs: k.clone(),
                report_dir: None,
                evidence_dir: None,
                hardware: true,
                tuning: None,
                portfolio: litmus_runner::portfolio::Portfolio::off(),
            };
            let r = run_test(&test, Some(&code), &config, Source::File("inline".into()));
            let line = report::text::hardware_line(&r);
            assert!(matches!(r.hardware, Hardware::NotRun(_)), "{line}");
            assert!(
                line.starts_with("hardware: not run, the test places threads on 2 GPUs"),
                "{line}"
            );
            assert!(!line.contains('\n'), "{line}");
            assert!(r.failures.is_empty(), "{:?}", r.failures);
        }
        Ok(r) => {
            let total: u64 = r.histogram.iter().map(|(_, c)| c).sum::<u64>() + r.unfinished;
            assert_eq!(total, r.instances);
            assert!(r.device.contains("devices 0,1"), "{}", r.device);
            let placed = gpu::check_placement(&test, &code, &k).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(placed.gpus, 2);
            println!("across two devices: {} on {}", r.instances, r.device);
        }
        Err(e) => panic!("{e}"),
    }
}

/// MP across two GPUs with `x`, the data, in GPU 1's memory (the reader's)
/// and `y`, the flag, in GPU 0's (the writer's); initial values other than
/// 0 so that a slot never filled (a fresh buffer reads 0) shows.
const MP_HOMES: &str = "PTX mp_homes\n{ gpu 1 x=5; y=3; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 5)\n";

/// The same with `x` in the final condition: the classifier on GPU 0 reads
/// and resets it in GPU 1's memory by an exchange.
const MP_HOMES_FINAL: &str = "PTX mp_homes_final\n{ gpu 1 x=5; y=3; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (x == 1 /\\ P1:r0 == 1 /\\ P1:r1 == 5)\n";

/// A location in GPU 1's memory (a second buffer on device 0 under the map
/// `0,0`): every instance is counted once, and every value read is the
/// initial value or the one written, in small launches (the classifier
/// resets every slot) and in large ones (the harness refills GPU 0's slots
/// and the classifier still resets GPU 1's).
#[test]
fn a_location_in_gpu_1s_memory_counts_every_instance_and_reads_only_written_values() {
    let tests = generated(&[MP_HOMES, MP_HOMES_FINAL]);
    for (test, code) in &tests {
        assert!(code.contains("p_mem1"), "{}: no GPU 1 buffer", test.name);
    }
    if !hardware() {
        return;
    }
    let variants = [
        ("defaults", one_device(16)),
        (
            "2^20 instances a launch (GPU 0's slots refilled)",
            Knobs {
                ctas: 4096,
                threads: 256,
                ..one_device(4)
            },
        ),
    ];
    for (test, code) in &tests {
        let observables = litmus_core::outcome::observables(test);
        // What each observable may read: the initial value or the one
        // written (and `x` at the end is always the write).
        let may = |o: &litmus_core::outcome::Observable| -> &'static [u32] {
            match o {
                litmus_core::outcome::Observable::Reg { reg, .. } if reg == "r0" => &[3, 1],
                litmus_core::outcome::Observable::Reg { .. } => &[5, 1],
                litmus_core::outcome::Observable::Loc { .. } => &[1],
            }
        };
        for (what, k) in &variants {
            // A location off GPU 0 makes the test a multi-GPU one: its
            // launches hold what the multi-GPU profile makes of the knobs
            // (whose shape is one for any count of GPUs).
            let r = counted_run(
                test,
                code,
                k,
                k.resolve_for_gpus(2).instances(),
                &format!("{} ({what})", test.name),
            );
            for (values, _) in &r.histogram {
                assert_eq!(values.len(), observables.len());
                for (v, o) in values.iter().zip(&observables) {
                    assert!(
                        may(o).contains(v),
                        "{} ({what}): impossible outcome {values:?}",
                        test.name
                    );
                }
            }
            println!(
                "{} ({what}): {} instances in {} launches ({:.2e}/s) on {}, {:?}",
                test.name,
                r.instances,
                r.launches,
                r.rate(),
                r.device,
                r.histogram
            );
        }
    }
}
