//! The GPU harness on real hardware. Without a GPU each test says in one line
//! that it skipped (and fails when `LITMUS_REQUIRE_GPU=1`); on the GPU
//! machine: `../shared/tools/gpu-pack`, then `bash .gpu/run.sh`.

mod gpu_support;

use gpu_support::{counted_run, hardware, parse};
use litmus_core::ir::Test;
use litmus_hw::{self as gpu, GpuError, Knobs};
use litmus_ptx as ptx;

const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

fn knobs(launches: u64) -> Knobs {
    Knobs {
        launches: Some(launches),
        seed: 7,
        ..Knobs::default()
    }
}

#[test]
fn mp_counts_add_up_and_both_strong_outcomes_show() {
    if !hardware() {
        return;
    }
    let test = parse(MP);
    let code = ptx::generate(&test).unwrap();
    let r = gpu::run(&test, &code, &knobs(20)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.launches, 20);
    assert_eq!(r.instances, 20 * knobs(20).instances());
    let total: u64 = r.histogram.iter().map(|(_, c)| c).sum::<u64>() + r.unfinished;
    assert_eq!(total, r.instances);
    // r0 and r1 are 0 or 1, nothing else.
    for (values, _) in &r.histogram {
        assert!(
            values.iter().all(|v| *v <= 1),
            "impossible outcome {values:?}"
        );
    }
    println!("MP histogram: {:?} on {}", r.histogram, r.device);
}

#[test]
fn declared_placement_holds_for_every_instance() {
    if !hardware() {
        return;
    }
    let cases = [
        ("different CTAs", MP.to_string()),
        ("same CTA", MP.replace("P1@cta 1,gpu 0", "P1@cta 0,gpu 0")),
        (
            "four CTAs",
            "PTX IRIW\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 | ld.relaxed.gpu r0, x | ld.relaxed.gpu r2, y ;\n | | ld.relaxed.gpu r1, y | ld.relaxed.gpu r3, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r2 == 1 /\\ P3:r3 == 0)\n".into(),
        ),
        (
            "same warp",
            MP.replace("P0@cta 0,gpu 0", "P0@cta 0,gpu 0,warp 1")
                .replace("P1@cta 1,gpu 0", "P1@cta 0,gpu 0,warp 1"),
        ),
        (
            "different warps of one CTA",
            MP.replace("P0@cta 0,gpu 0", "P0@cta 0,gpu 0,warp 0")
                .replace("P1@cta 1,gpu 0", "P1@cta 0,gpu 0,warp 1"),
        ),
        (
            "shared memory",
            "PTX SB-shared\n{ shared x=0; shared y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.relaxed.cta x, 1 | st.relaxed.cta y, 1 ;\n ld.relaxed.cta r0, y | ld.relaxed.cta r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n".into(),
        ),
    ];
    for (what, src) in cases {
        let test = parse(&src);
        let code = ptx::generate(&test).unwrap();
        let report =
            gpu::check_placement(&test, &code, &knobs(1)).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(report.instances, knobs(1).instances(), "{what}");
        assert_eq!(report.roles, test.threads.len(), "{what}");
        println!(
            "placement {what}: ok, {} instances, {} SMs",
            report.instances, report.sms
        );
    }
}

#[test]
fn shared_memory_test_runs_and_reads_its_final_values() {
    if !hardware() {
        return;
    }
    let test = parse("PTX CoWW-shared\n{ shared x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.relaxed.cta x, 1 | st.relaxed.cta x, 2 ;\nexists (x == 1 \\/ x == 2)\n");
    let code = ptx::generate(&test).unwrap();
    let r = gpu::run(&test, &code, &knobs(10)).unwrap_or_else(|e| panic!("{e}"));
    for (values, _) in &r.histogram {
        assert!(
            values == &[1] || values == &[2],
            "final x must be 1 or 2, got {values:?}"
        );
    }
}

#[test]
fn atomics_count_every_increment() {
    if !hardware() {
        return;
    }
    let test = parse("PTX two-adds\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n atom.relaxed.gpu.add r0, x, 1 | atom.relaxed.gpu.add r1, x, 1 ;\nexists (x == 2)\n");
    let code = ptx::generate(&test).unwrap();
    let r = gpu::run(&test, &code, &knobs(10)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.histogram.len(), 1, "{:?}", r.histogram);
    assert_eq!(r.histogram[0].0, vec![2]);
}

#[test]
fn bad_ptx_gives_the_jit_log() {
    if !hardware() {
        return;
    }
    let test = parse(MP);
    let code = ptx::generate(&test)
        .unwrap()
        .replace("mov.u32", "mov.bogus32");
    // As it is: on a GPU with dependent launches the run would otherwise
    // load the generator's module with waits.
    match gpu::run_on(&[], &gpu::Modules::as_is(&test, &code), &knobs(1)) {
        Err(GpuError::Jit { log, .. }) => {
            assert!(
                log.contains("bogus"),
                "the JIT log should point at the bad instruction: {log}"
            );
            println!("JIT log: {log}");
        }
        other => panic!("expected a JIT error, got {other:?}"),
    }
}

#[test]
fn a_kernel_fault_names_the_test_and_the_next_run_still_works() {
    if !hardware() {
        return;
    }
    let test = parse(MP);
    let good = ptx::generate(&test).unwrap();
    // Point the location buffer at an unmapped address.
    let bad = good.replacen("ld.param.u64 %rd1, [p_mem]", "mov.u64 %rd1, 64", 1);
    assert_ne!(bad, good);
    let err = gpu::run_on(&[], &gpu::Modules::as_is(&test, &bad), &knobs(1))
        .expect_err("the kernel must fault");
    assert!(matches!(err, GpuError::Fault { .. }), "{err}");
    let msg = err.to_string();
    assert!(msg.contains("test `MP`"), "{msg}");
    println!("fault: {msg}");
    let r = gpu::run(&test, &good, &knobs(2)).unwrap_or_else(|e| panic!("after a fault: {e}"));
    assert_eq!(r.launches, 2);
}

#[test]
fn declared_warps_and_ctas_get_room_whatever_the_knobs() {
    if !hardware() {
        return;
    }
    // Four warps of one CTA and two CTAs, with knobs of one 32-thread CTA
    // per launch... times 64: the harness widens and multiplies CTAs and
    // keeps the instances per launch.
    let k = Knobs {
        ctas: 64,
        threads: 32,
        ..knobs(2)
    };
    let src = "PTX w\n{ x=0; y=0; }\n P0@cta 0,gpu 0,warp 0 | P1@cta 0,gpu 0,warp 3 | P2@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x | st.relaxed.gpu y, 1 ;\nexists (P1:r0 == 1)\n";
    let test = parse(src);
    let code = ptx::generate(&test).unwrap();
    let report = gpu::check_placement(&test, &code, &k).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.instances, 64 * 32);
    let r = gpu::run(&test, &code, &k).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.instances, 2 * 64 * 32);
}

/// Runs this test binary again with `LITMUS_REQUIRE_GPU=1`: without a GPU
/// the hardware test must fail with the reason; with one it must pass.
#[test]
fn require_gpu_turns_a_missing_gpu_into_a_failure() {
    if std::env::var("LITMUS_GPU_CHILD").is_ok() {
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "mp_counts_add_up_and_both_strong_outcomes_show",
            "--nocapture",
        ])
        .env("LITMUS_REQUIRE_GPU", "1")
        .env("LITMUS_GPU_CHILD", "1")
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    match gpu::device() {
        Ok(_) => assert!(out.status.success(), "{all}"),
        Err(e) if e.is_absent() => {
            assert!(!out.status.success(), "must fail without a GPU: {all}");
            assert!(
                all.contains("hardware: required by LITMUS_REQUIRE_GPU=1"),
                "{all}"
            );
        }
        Err(e) => panic!("{e}"),
    }
}

const SB_BAR: &str = "PTX sb_bar\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 | st.weak y, 2 ;\n bar.cta.sync 3 | bar.cta.sync 3 | ;\n ld.weak r0, y | ld.weak r1, x | ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

#[test]
fn a_cta_barrier_orders_its_roles_and_placement_holds() {
    if !hardware() {
        return;
    }
    let test = parse(SB_BAR);
    let code = ptx::generate(&test).unwrap();
    let report = gpu::check_placement(&test, &code, &knobs(1)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.instances, knobs(1).instances());
    let r = gpu::run(&test, &code, &knobs(50)).unwrap_or_else(|e| panic!("{e}"));
    // After the barrier each load sees the other thread's store (or P2's
    // racing y=2): never both initial values.
    for (values, count) in &r.histogram {
        assert_ne!(
            values,
            &vec![0, 0],
            "the barrier did not order: {count} times"
        );
    }
    println!(
        "SB+bar histogram: {:?}, {:.2e} instances/s",
        r.histogram,
        r.rate()
    );
}

#[test]
fn shared_memory_through_a_barrier() {
    if !hardware() {
        return;
    }
    let test = parse("PTX mp_shared_bar\n{ shared x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 | bar.cta.sync 0 ;\n bar.cta.sync 0 | ld.weak r0, x ;\nexists (P1:r0 == 0)\n");
    let code = ptx::generate(&test).unwrap();
    let r = gpu::run(&test, &code, &knobs(20)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.histogram.len(), 1, "{:?}", r.histogram);
    assert_eq!(r.histogram[0].0, vec![1]);
}

#[test]
fn spin_barrier_and_memory_stress_keep_every_instance_counted() {
    if !hardware() {
        return;
    }
    let test = parse(MP);
    let code = ptx::generate(&test).unwrap();
    let k = Knobs {
        spin: 100,
        stress_ctas: 64,
        stress_rounds: 32,
        ..knobs(10)
    };
    let r = gpu::run(&test, &code, &k).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.instances, 10 * k.instances());
    let total: u64 = r.histogram.iter().map(|(_, c)| c).sum::<u64>() + r.unfinished;
    assert_eq!(total, r.instances);
    println!("MP with spin=100 and stress=64:32: {:?}", r.histogram);
}

/// Every environment knob on at once, over every launch mode the harness
/// has (every role, shared memory, a CTA barrier's role per warp,
/// clusters): every instance is still counted once, and placement holds
/// under the CTA shuffle and with the testing CTAs interleaved among the
/// stressing ones.
#[test]
fn the_whole_environment_keeps_every_instance_counted_and_placement_held() {
    if !hardware() {
        return;
    }
    use litmus_hw::{Assign, Environment, SpinScope};
    use litmus_ptx::layout::StressPattern;
    for (n, src) in [MP, SB_SHARED, SB_BAR, MP_CLUSTER].into_iter().enumerate() {
        let test = parse(src);
        let code = ptx::generate(&test).unwrap();
        for pattern in StressPattern::ALL {
            let k = Knobs {
                spin: 200,
                stress_ctas: 96,
                stress_rounds: 64,
                env: Environment {
                    stress_pattern: pattern,
                    stress_lines: 3,
                    stress_line_words: 128,
                    stress_assign: if n % 2 == 0 {
                        Assign::Chunk
                    } else {
                        Assign::RoundRobin
                    },
                    stress_pct: 70,
                    pre_stress: 16,
                    pre_pattern: pattern,
                    pre_pct: 60,
                    spin_pct: 50,
                    shuffle_pct: 100,
                    interleave_pct: 100,
                    // The grid-wide barrier on every other pattern.
                    spin_scope: if pattern as u32 % 2 == 1 {
                        SpinScope::Grid
                    } else {
                        SpinScope::Instance
                    },
                },
                ..knobs(12)
            };
            let r = gpu::run(&test, &code, &k).unwrap_or_else(|e| panic!("{}: {e}", test.name));
            assert_eq!(r.launches, 12);
            assert!(
                r.instances >= 12 * 32,
                "{}: {} instances",
                test.name,
                r.instances
            );
            let total: u64 = r.histogram.iter().map(|(_, c)| c).sum::<u64>() + r.unfinished;
            assert_eq!(total, r.instances, "{}", test.name);
            let placed = gpu::check_placement(&test, &code, &k)
                .unwrap_or_else(|e| panic!("{} with {k}: {e}", test.name));
            println!(
                "{} with {k}: {} outcomes, placement held on {} SMs",
                test.name,
                r.histogram.len(),
                placed.sms
            );
        }
    }
}

/// The environment shapes of the published harnesses that the knobs
/// reached last: CTAs narrower than a warp, grids of 4 CTAs, a cap on
/// CTAs per SM, testing CTAs interleaved among stressing ones (in every
/// launch). Every instance counted, placement held, on every launch
/// mode.
#[test]
fn small_ctas_small_grids_an_occupancy_cap_and_interleaving_keep_counts_and_placement() {
    if !hardware() {
        return;
    }
    use litmus_hw::Environment;
    for src in [MP, SB_SHARED, SB_BAR, MP_CLUSTER] {
        let test = parse(src);
        let code = ptx::generate(&test).unwrap();
        for (ctas, threads, per_sm) in [(4, 2, 0), (64, 4, 1), (1024, 16, 3), (4, 32, 2)] {
            let k = Knobs {
                ctas,
                threads,
                ctas_per_sm: per_sm,
                stress_ctas: 37,
                stress_rounds: 8,
                env: Environment {
                    interleave_pct: 100,
                    ..Environment::default()
                },
                ..knobs(8)
            };
            let r = gpu::run(&test, &code, &k)
                .unwrap_or_else(|e| panic!("{} with {k}: {e}", test.name));
            assert_eq!(r.launches, 8);
            let total: u64 = r.histogram.iter().map(|(_, c)| c).sum::<u64>() + r.unfinished;
            assert_eq!(total, r.instances, "{} with {k}", test.name);
            let placed = gpu::check_placement(&test, &code, &k)
                .unwrap_or_else(|e| panic!("{} with {k}: {e}", test.name));
            println!(
                "{} with {k}: {} instances, placement held on {} SMs",
                test.name, r.instances, placed.sms
            );
        }
    }
}

const SB_SHARED: &str = "PTX sb_shared\n{ shared x=0; shared y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.relaxed.cta x, 1 | st.relaxed.cta y, 1 ;\n ld.relaxed.cta r0, y | ld.relaxed.cta r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

const MP_CLUSTER: &str = "PTX mp_cluster\n{ shared::cluster x=0; shared::cluster y=0; }\n P0@cta 0,gpu 0,cluster 0 | P1@cta 1,gpu 0,cluster 0 ;\n st.relaxed.cluster x, 1 | ld.relaxed.cluster r0, y ;\n st.relaxed.cluster y, 1 | ld.relaxed.cluster r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

#[test]
fn clusters_keep_their_placement_and_distributed_shared_memory_works() {
    if !hardware() {
        return;
    }
    let global = MP_CLUSTER.replace("shared::cluster x=0; shared::cluster y=0;", "x=0; y=0;");
    let four = "PTX four\n{ x=0; y=0; }\n P0@cta 0,gpu 0,cluster 0 | P1@cta 1,gpu 0,cluster 0 | P2@cta 2,gpu 0,cluster 1 | P3@cta 3,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x | st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, y ;\nexists (P1:r0 == 1)\n";
    for (what, src) in [
        ("dsmem", MP_CLUSTER.to_string()),
        ("global", global),
        ("mixed", four.to_string()),
    ] {
        let test = parse(&src);
        let code = ptx::generate(&test).unwrap();
        let report =
            gpu::check_placement(&test, &code, &knobs(1)).unwrap_or_else(|e| panic!("{what}: {e}"));
        let r = gpu::run(&test, &code, &knobs(20)).unwrap_or_else(|e| panic!("{what}: {e}"));
        for (values, _) in &r.histogram {
            assert!(
                values.iter().all(|v| *v <= 1),
                "{what}: impossible outcome {values:?}"
            );
        }
        println!(
            "clusters {what}: placement ok ({} instances, {} SMs); {:?}",
            report.instances, report.sms, r.histogram
        );
    }
    // Final values of distributed shared memory reach the classifier.
    let coww = parse("PTX coww_dsmem\n{ shared::cluster x=0; }\n P0@cta 0,gpu 0,cluster 0 | P1@cta 1,gpu 0,cluster 0 ;\n st.relaxed.cluster x, 1 | st.relaxed.cluster x, 2 ;\nexists (x == 1)\n");
    let code = ptx::generate(&coww).unwrap();
    let r = gpu::run(&coww, &code, &knobs(20)).unwrap_or_else(|e| panic!("{e}"));
    for (values, _) in &r.histogram {
        assert!(
            values == &[1] || values == &[2],
            "final x must be 1 or 2: {values:?}"
        );
    }
    println!("CoWW in DSMEM: {:?}", r.histogram);
}

/// MP whose reader reads the data through `y`, a generic alias of `x`
/// (a second virtual mapping of `x`'s memory), with `fence` (if any)
/// between its acquire and that read.
fn mp_alias(fence: Option<&str>) -> String {
    let fence = fence.map_or(String::new(), |f| format!(" | {f} ;\n"));
    format!("PTX MP-alias\n{{ x=0; y @ generic aliases x; flag=0; }}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 2 | ld.acquire.gpu r0, flag ;\n st.release.gpu flag, 1 | ;\n{fence} | ld.weak r1, y ;\nexists (P1:r0 == 1 /\\ P1:r1 != 2)\n")
}

const MP_TEXTURE: &str = "PTX MP-texture\n{ x=0; t @ texture aliases x; flag=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 2 | ld.acquire.gpu r0, flag ;\n st.release.gpu flag, 1 | tld.weak r1, t ;\nexists (P1:r0 == 1 /\\ P1:r1 != 2)\n";

/// The outcomes the model `ptx-7.5` allows for `test`, and whether it
/// allows the condition.
fn ptx75(test: &Test) -> (std::collections::BTreeSet<Vec<u32>>, bool) {
    let model = litmus_model::model_by_name("ptx-7.5").unwrap();
    let r = litmus_model::check(test, model, &litmus_model::Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", test.name));
    (r.allowed, r.condition_reachable)
}

/// Runs a proxy test on the GPU: every instance counted once, none
/// unfinished, no outcome the model `ptx-7.5` forbids; prints the
/// histogram. Skips (in one line) without a GPU.
fn run_under_ptx75(what: &str, test: &Test, launches: u64) {
    if !hardware() {
        return;
    }
    let (allowed, _) = ptx75(test);
    let code = ptx::generate(test).unwrap();
    let k = knobs(launches);
    let r = counted_run(test, &code, &k, k.instances(), what);
    eprintln!("{what}: {:?} on {}", r.histogram, r.device);
    assert_eq!(r.unfinished, 0, "{what}: no role loops");
    for (values, count) in &r.histogram {
        assert!(
            allowed.contains(values),
            "{what}: ptx-7.5 forbids {values:?} (P1:r0, P1:r1), seen {count} times; allowed: {allowed:?}"
        );
    }
}

#[test]
fn mp_through_a_generic_alias_without_a_proxy_fence() {
    let test = parse(&mp_alias(None));
    // Without a proxy fence the stale read through the alias is allowed.
    assert!(ptx75(&test).1, "ptx-7.5 allows the stale read");
    run_under_ptx75("MP through a generic alias, no proxy fence", &test, 200);
}

#[test]
fn mp_through_a_generic_alias_with_fence_proxy_alias() {
    let test = parse(&mp_alias(Some("fence.proxy.alias")));
    // With fence.proxy.alias after the acquire it is forbidden: a GPU
    // that shows it breaks the model (or the second mapping is not the
    // same memory).
    assert!(!ptx75(&test).1, "ptx-7.5 forbids the stale read");
    run_under_ptx75("MP through a generic alias, fence.proxy.alias", &test, 200);
}

#[test]
fn mp_through_a_texture_alias() {
    let test = parse(MP_TEXTURE);
    assert!(ptx75(&test).1, "ptx-7.5 allows the stale texture fetch");
    run_under_ptx75("MP through a texture alias", &test, 200);
}

/// The second mapping is the same memory, a final value on an alias is
/// its root's, a texture reads each instance's own slot (initial values
/// reset before every launch), and the whole environment and the
/// placement check work with aliases.
#[test]
fn aliases_reach_their_roots_memory_under_the_whole_environment() {
    use litmus_hw::Environment;
    let cases = [
        // A store through the alias, a load of the root after the fence:
        // the same memory, so always the value stored; the final value of
        // the alias is the root's.
        (
            "store through the alias, load the root",
            "PTX alias-same-memory\n{ x=0; y @ generic aliases x; }\n P0@cta 0,gpu 0 ;\n st.weak y, 5 ;\n fence.proxy.alias ;\n ld.weak r0, x ;\nexists (P0:r0 == 5 /\\ y == 5)\n",
            vec![vec![5, 5]],
        ),
        // Every instance fetches its own slot's initial value.
        (
            "texture fetch of the initial value",
            "PTX texture-init\n{ x=7; t @ texture aliases x; z=3; u @ texture aliases z; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n tld.weak r0, t | tld.weak r1, u ;\n tld.weak r2, u | tld.weak r3, t ;\nexists (P0:r0 == 7 /\\ P0:r2 == 3 /\\ P1:r1 == 3 /\\ P1:r3 == 7)\n",
            vec![vec![7, 3, 3, 7]],
        ),
    ];
    let cases: Vec<_> = cases
        .into_iter()
        .map(|(what, src, only)| {
            let test = parse(src);
            let code = ptx::generate(&test).unwrap_or_else(|e| panic!("{what}: {e}"));
            (what, test, code, only)
        })
        .collect();
    if !hardware() {
        return;
    }
    for (what, test, code, only) in cases {
        let k = Knobs {
            spin: 200,
            stress_ctas: 64,
            stress_rounds: 32,
            env: Environment {
                stress_pct: 70,
                pre_stress: 16,
                pre_pct: 60,
                spin_pct: 50,
                shuffle_pct: 100,
                ..Environment::default()
            },
            ..knobs(20)
        };
        let r = gpu::run(&test, &code, &k).unwrap_or_else(|e| panic!("{what}: {e}"));
        eprintln!("{what}: {:?}", r.histogram);
        let total: u64 = r.histogram.iter().map(|(_, c)| c).sum::<u64>() + r.unfinished;
        assert_eq!(total, r.instances, "{what}");
        let seen: Vec<Vec<u32>> = r.histogram.iter().map(|(v, _)| v.clone()).collect();
        assert_eq!(seen, only, "{what}");
        let placed =
            gpu::check_placement(&test, &code, &k).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(placed.roles, test.threads.len(), "{what}");
    }
    for src in [mp_alias(Some("fence.proxy.alias")), MP_TEXTURE.to_string()] {
        let test = parse(&src);
        let code = ptx::generate(&test).unwrap();
        gpu::check_placement(&test, &code, &knobs(1))
            .unwrap_or_else(|e| panic!("{}: {e}", test.name));
    }
}

/// The published harnesses' arrangement (`LITMUS_LANES=aligned`,
/// `LITMUS_LOC_LAYOUT=interleaved`): an instance's roles on one lane of
/// neighbouring CTAs, the slots of its locations alternating with other
/// instances' in one array. On every launch mode, from 2-thread CTAs and
/// grids of 4 up, alone and under the whole environment: every instance
/// counted, placement held, and every instance on slots of its own (the
/// atomics of each instance add up to its own sum, an alias reaches its
/// root's slot, and locations that start from different values, which
/// stay apart, start from them). The whole environment here lines the
/// roles up with the grid-wide spin barrier.
#[test]
fn aligned_lanes_and_interleaved_slots_keep_counts_placement_and_slots_of_their_own() {
    use litmus_hw::{Environment, Lanes, LocLayout, SpinScope};
    const ADDS: &str = "PTX three-adds\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 ;\n atom.relaxed.gpu.add r0, x, 1 | atom.relaxed.gpu.add r0, x, 1 | atom.relaxed.gpu.add r0, x, 1 ;\n atom.relaxed.gpu.add r1, y, 2 | atom.relaxed.gpu.add r1, y, 2 | atom.relaxed.gpu.add r1, y, 2 ;\nexists (x == 3 /\\ y == 6)\n";
    const ADDS_FROM: &str = "PTX adds-from-7-and-3\n{ x=7; y=3; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n atom.relaxed.gpu.add r0, x, 1 | atom.relaxed.gpu.add r0, y, 1 ;\n atom.relaxed.gpu.add r1, y, 1 | atom.relaxed.gpu.add r1, x, 1 ;\nexists (x == 9 /\\ y == 5)\n";
    const ALIAS: &str = "PTX alias-beside-another\n{ x=0; y @ generic aliases x; z=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak y, 5 | st.relaxed.gpu z, 3 ;\n fence.proxy.alias | ;\n ld.weak r0, x | ;\nexists (P0:r0 == 5 /\\ y == 5 /\\ z == 3)\n";
    const IRIW: &str = "PTX IRIW\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 | ld.relaxed.gpu r0, x | ld.relaxed.gpu r2, y ;\n | | ld.relaxed.gpu r1, y | ld.relaxed.gpu r3, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r2 == 1 /\\ P3:r3 == 0)\n";
    let only: [(&str, Option<Vec<u32>>); 8] = [
        (MP, None),
        (SB_SHARED, None),
        (SB_BAR, None),
        (MP_CLUSTER, None),
        (IRIW, None),
        (ADDS, Some(vec![3, 6])),
        (ADDS_FROM, Some(vec![9, 5])),
        (ALIAS, Some(vec![5, 5, 3])),
    ];
    let srcs: Vec<&str> = only.iter().map(|(s, _)| *s).collect();
    let tests = gpu_support::generated(&srcs);
    if !hardware() {
        return;
    }
    let whole = Environment {
        stress_pct: 70,
        pre_stress: 16,
        pre_pct: 60,
        spin_pct: 50,
        shuffle_pct: 100,
        interleave_pct: 100,
        spin_scope: SpinScope::Grid,
        ..Environment::default()
    };
    for ((test, code), (_, only)) in tests.iter().zip(&only) {
        for (ctas, threads, env) in [
            (4, 2, Environment::default()),
            (64, 4, whole.clone()),
            (2048, 64, Environment::default()),
            (256, 32, whole.clone()),
        ] {
            let k = Knobs {
                ctas,
                threads,
                lanes: Lanes::Aligned,
                loc_layout: LocLayout::Interleaved,
                spin: if env == whole { 200 } else { 0 },
                stress_ctas: 37,
                stress_rounds: 8,
                env,
                ..knobs(8)
            };
            let what = format!("{} with {k}", test.name);
            let r = gpu::run(test, code, &k).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(r.launches, 8, "{what}");
            let total: u64 = r.histogram.iter().map(|(_, c)| c).sum::<u64>() + r.unfinished;
            assert_eq!(total, r.instances, "{what}");
            if let Some(only) = only {
                let seen: Vec<&Vec<u32>> = r.histogram.iter().map(|(v, _)| v).collect();
                assert_eq!(seen, vec![only], "{what}");
            }
            let placed =
                gpu::check_placement(test, code, &k).unwrap_or_else(|e| panic!("{what}: {e}"));
            println!(
                "{what}: {} instances, placement held on {} SMs",
                r.instances, placed.sms
            );
        }
    }
}

#[test]
fn the_codegen_knobs_keep_counts_and_placement_and_an_unfit_target_says_why() {
    if !hardware() {
        return;
    }
    use litmus_hw::{Addressing, PtxTarget};
    use litmus_ptx::isa::SmArch;
    let iriw = "PTX IRIW+fence.acq_rel.cta\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 | ld.relaxed.gpu r0, x | ld.relaxed.gpu r2, y ;\n | | fence.acq_rel.cta | fence.acq_rel.cta ;\n | | ld.relaxed.gpu r1, y | ld.relaxed.gpu r3, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r2 == 1 /\\ P3:r3 == 0)\n";
    let atomics = "PTX two-adds\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n atom.relaxed.gpu.add r0, x, 1 | atom.relaxed.gpu.add r1, x, 1 ;\nexists (x == 2)\n";
    for src in [MP, iriw, atomics] {
        let test = parse(src);
        let code = ptx::generate(&test).unwrap();
        // Every target since Volta that the device (Hopper here) runs: the
        // driver compiles an older target's module forward.
        let targets = [PtxTarget::Native]
            .into_iter()
            .chain([70, 75, 80, 86, 89, 90].map(|n| PtxTarget::Arch(SmArch::new(n))));
        for target in targets {
            for addressing in [Addressing::Global, Addressing::Generic] {
                let k = Knobs {
                    ptx_target: target,
                    addressing,
                    ..knobs(8)
                };
                let what = format!("{} {} {k}", test.name, target.as_str());
                let r = counted_run(&test, &code, &k, k.instances(), &what);
                if let PtxTarget::Arch(a) = target {
                    assert_eq!(r.build.target, a.to_string(), "{what}");
                }
                assert!(r.build.toolchain.starts_with("driver JIT"), "{what}");
                if test.name.text == "two-adds" {
                    assert_eq!(r.histogram, vec![(vec![2], r.instances)], "{what}");
                }
                let report = gpu::check_placement(&test, &code, &k)
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(report.instances, k.instances(), "{what}");
            }
        }
    }
    // Clusters and `.cluster` scope are sm_90's: an sm_80 module cannot
    // have them, and the run says so before the driver sees it. A target
    // newer than the device cannot run there either.
    let cluster = parse(MP_CLUSTER);
    let code = ptx::generate(&cluster).unwrap();
    for (n, want) in [
        (80, "needs sm_90 and the module targets sm_80"),
        (100, "LITMUS_PTX_TARGET=sm_100 is newer than the device's"),
    ] {
        let k = Knobs {
            ptx_target: PtxTarget::Arch(SmArch::new(n)),
            ..knobs(1)
        };
        match gpu::run(&cluster, &code, &k) {
            Err(GpuError::Unfaithful(why)) => {
                assert!(why.contains(want), "{why}");
                println!("clusters for sm_{n}: not run, {why}");
            }
            Err(e) => panic!("expected clusters for sm_{n} to be refused as unfit, got: {e}"),
            Ok(r) => panic!("an sm_{n} module ran clusters: {:?}", r.histogram),
        }
    }
}

#[test]
fn a_cta_spread_by_lane_keeps_counts_and_placement() {
    if !hardware() {
        return;
    }
    use litmus_hw::{CtaSpread, Lanes};
    let iriw = "PTX IRIW\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 | ld.relaxed.gpu r0, x | ld.relaxed.gpu r2, y ;\n | | ld.relaxed.gpu r1, y | ld.relaxed.gpu r3, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r2 == 1 /\\ P3:r3 == 0)\n";
    let wrc_0_12 = "PTX WRC+cta0_12\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x | ld.relaxed.gpu r1, y ;\n | fence.acq_rel.cta | fence.acq_rel.cta ;\n | st.relaxed.gpu y, 1 | ld.relaxed.gpu r2, x ;\nexists (P1:r0 == 1 /\\ P2:r1 == 1 /\\ P2:r2 == 0)\n";
    for src in [MP, iriw, wrc_0_12] {
        let test = parse(src);
        let code = ptx::generate(&test).unwrap();
        for (lanes, ctas, threads) in [
            (Lanes::Permuted, 2048, 64),
            (Lanes::Aligned, 512, 128),
            (Lanes::Permuted, 8, 32),
        ] {
            let k = Knobs {
                cta_spread: CtaSpread::ByLane,
                lanes,
                ctas,
                threads,
                ..knobs(8)
            };
            let what = format!("{}: {k}", test.name);
            counted_run(&test, &code, &k, k.instances(), &what);
            let report =
                gpu::check_placement(&test, &code, &k).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(report.instances, k.instances(), "{what}");
            assert_eq!(report.roles, test.threads.len(), "{what}");
        }
    }
}

/// The ptxas the GPU machine has: `LITMUS_PTXAS`'s, else the CUDA
/// toolkit's, else one on `PATH`.
// Its one user is the Unix-only test below.
#[cfg(unix)]
fn machine_ptxas() -> Option<String> {
    std::env::var("LITMUS_PTXAS")
        .ok()
        .filter(|p| !p.is_empty())
        .or_else(|| {
            let cuda = "/usr/local/cuda/bin/ptxas";
            std::path::Path::new(cuda)
                .exists()
                .then(|| cuda.to_string())
        })
        .or_else(|| {
            let out = std::process::Command::new("sh")
                .args(["-c", "command -v ptxas"])
                .output()
                .ok()?;
            let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
            (!path.is_empty()).then_some(path)
        })
}

// The stand-in ptxas is a shell script.
#[cfg(unix)]
#[test]
fn a_chosen_ptxas_builds_the_module_and_a_bad_one_says_why_in_one_line() {
    if !hardware() {
        return;
    }
    let test = parse(MP);
    let code = ptx::generate(&test).unwrap();
    let Some(ptxas) = machine_ptxas() else {
        panic!("the GPU machine has no ptxas (set LITMUS_PTXAS)");
    };
    let k = Knobs {
        ptxas: Some(ptxas.clone()),
        ..knobs(4)
    };
    let r = counted_run(&test, &code, &k, k.instances(), "MP via ptxas");
    assert!(r.build.toolchain.starts_with("ptxas "), "{:?}", r.build);
    println!("MP via {ptxas}: {}", r.build);
    // Not a ptxas, and a "ptxas" that fails on every module: one line
    // each, naming it.
    let dir = std::env::temp_dir().join(format!("gpu-litmus-fake-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let failing = dir.join("ptxas");
    std::fs::write(
        &failing,
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'ptxas: NVIDIA (R) Ptx optimizing assembler'; echo 'Cuda compilation tools, release 12.4, V12.4.131'; exit 0; fi\necho 'ptxas fatal   : made to fail' >&2; exit 255\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&failing, std::fs::Permissions::from_mode(0o755)).unwrap();
    for (path, want) in [
        ("/bin/true".to_string(), "LITMUS_PTXAS"),
        (failing.display().to_string(), "made to fail"),
    ] {
        let k = Knobs {
            ptxas: Some(path.clone()),
            ..knobs(1)
        };
        match gpu::run(&test, &code, &k) {
            Err(e @ GpuError::Toolchain(_)) => {
                let text = e.to_string();
                assert!(text.contains(want) && text.contains(&path), "{text}");
                assert_eq!(text.trim().lines().count(), 1, "{text}");
                println!("{path}: {text}");
            }
            Err(e) => panic!("{path}: expected a toolchain error, got: {e}"),
            Ok(_) => panic!("{path}: ran"),
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}
