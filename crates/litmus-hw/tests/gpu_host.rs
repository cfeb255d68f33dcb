//! Host threads and host memory on real hardware: CPU threads play the host
//! roles while the kernel plays the others, on page-locked memory both
//! reach. Without a GPU each test says in one line that it skipped (and
//! fails when `LITMUS_REQUIRE_GPU=1`); on the GPU machine:
//! `../shared/tools/gpu-pack`, then `bash .gpu/run.sh`.

mod gpu_support;

use gpu_support::{counted_run, generated, hardware, parse};
use litmus_hw::{self as gpu, Environment, GpuError, Knobs};
use litmus_ptx as ptx;

fn knobs(launches: u64) -> Knobs {
    Knobs {
        launches: Some(launches),
        seed: 11,
        ..Knobs::default()
    }
}

/// MP from the GPU to the host, relaxed `.sys` (the probe's run).
const MP_GPU_HOST: &str = "PTX mp_gpu_host\n{ host x=0; host y=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.relaxed.sys x, 1 | ld.relaxed r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

/// MP from the host to the GPU, release and acquire.
const MP_HOST_GPU: &str = "PTX mp_host_gpu\n{ host x=0; host y=0; }\n P0@host | P1@cta 0,gpu 0 ;\n st.weak x, 1 | ld.acquire.sys r0, y ;\n st.release y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

/// IRIW with two GPU writers and two fenced host readers: two host roles.
const IRIW_HOST: &str = "PTX iriw_host\n{ host x=0; host y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@host | P3@host ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 | ld.relaxed r0, x | ld.relaxed r2, y ;\n | | fence.sc.sys | fence.sc.sys ;\n | | ld.relaxed r1, y | ld.relaxed r3, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r2 == 1 /\\ P3:r3 == 0)\n";

/// The host waits in a loop for the GPU's flag (a backward branch on the
/// host, bounded by the loop bound), then reads the data.
const HOST_WAITS: &str = "PTX host_waits\n{ host x=0; host y=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.relaxed.sys x, 1 | LC00: ;\n fence.sc.sys | ld.acquire r0, y ;\n st.relaxed.sys y, 1 | bne r0, 1, LC00 ;\n | ld.relaxed r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

/// Every host role of every instance runs on a host thread and every GPU
/// role on the GPU, the histogram counts launches × instances, and the
/// outcomes are ones the test can have, over one and several host roles,
/// a host loop, and knobs that shape the host side and the environment.
#[test]
fn host_threads_keep_every_instance_counted_and_placement_held() {
    // The tests generate without a GPU too.
    let tests = generated(&[MP_GPU_HOST, MP_HOST_GPU, IRIW_HOST, HOST_WAITS]);
    if !hardware() {
        return;
    }
    let variants = [
        ("defaults", knobs(16)),
        (
            "three CPU threads per role, 1024 instances",
            Knobs {
                host_threads: 3,
                host_instances: 1024,
                ..knobs(24)
            },
        ),
        (
            "one CPU thread per role, fewer GPU instances than host ones",
            Knobs {
                host_threads: 1,
                ctas: 8,
                ..knobs(24)
            },
        ),
        (
            "the environment on",
            Knobs {
                spin: 200,
                stress_ctas: 64,
                stress_rounds: 32,
                env: Environment {
                    shuffle_pct: 100,
                    pre_stress: 8,
                    spin_pct: 50,
                    ..Environment::default()
                },
                ..knobs(12)
            },
        ),
    ];
    for (test, code) in &tests {
        let host_roles = test.threads.iter().filter(|t| t.placement.host).count() as u32;
        for (what, k) in &variants {
            let per_launch = k.instances_with_host();
            let r = counted_run(
                test,
                code,
                k,
                per_launch,
                &format!("{} ({what})", test.name),
            );
            assert_eq!(r.host_threads, host_roles * k.host_threads);
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
                placed.cpu_threads as u32,
                host_roles * k.host_threads,
                "{} ({what}): every CPU thread plays a share",
                test.name
            );
            assert!(placed.sms >= 1);
            println!(
                "{} ({what}): {} instances in {} launches ({:.2e}/s), {} unfinished, {:?}; placement held on {} SMs and {} CPU threads",
                test.name,
                r.instances,
                r.launches,
                r.rate(),
                r.unfinished,
                r.histogram,
                placed.sms,
                placed.cpu_threads
            );
        }
    }
}

/// The classifier resets host locations (through their device address)
/// and the host threads' registers reach it: a host thread that reads its
/// location before writing it reads the initial value in every launch, and
/// the final value is its write.
#[test]
fn host_locations_are_reset_every_launch_and_host_registers_are_read() {
    let test = parse("PTX host_reset\n{ host x=7; host y=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.relaxed.sys y, 1 | ld.relaxed r0, x ;\n | st.relaxed x, 5 ;\nexists (P1:r0 == 7 /\\ x == 5)\n");
    let code = ptx::generate(&test).unwrap();
    if !hardware() {
        return;
    }
    let r = gpu::run(&test, &code, &knobs(20)).unwrap_or_else(|e| panic!("{e}"));
    // Observables: P1:r0, then x (the condition's order).
    assert_eq!(r.histogram, vec![(vec![7, 5], r.instances)]);
}

/// A GPU-only test on host memory: the GPU roles reach it through its
/// device address, and the classifier reads and resets it the same way.
#[test]
fn host_memory_alone_is_read_and_reset_through_its_device_address() {
    let test = parse("PTX host_memory\n{ host x=3; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld.relaxed.sys r0, x | st.relaxed.sys x, 9 ;\nexists (P0:r0 == 3 /\\ x == 9)\n");
    let code = ptx::generate(&test).unwrap();
    if !hardware() {
        return;
    }
    let r = gpu::run(&test, &code, &knobs(20)).unwrap_or_else(|e| panic!("{e}"));
    let total: u64 = r.histogram.iter().map(|(_, c)| c).sum::<u64>();
    assert_eq!(total, r.instances);
    assert_eq!(r.host_threads, 0);
    for (values, _) in &r.histogram {
        // P0:r0 is the initial 3 or the write 9, never a stale value; x
        // ends 9.
        assert!(values[0] == 3 || values[0] == 9, "{values:?}");
        assert_eq!(values[1], 9, "{values:?}");
    }
}

/// A host RMW and a GPU RMW of one host counter, both `.sys`. Where the
/// GPU has native host atomics, both land in every instance (the counter
/// never ends 1: Atomicity); elsewhere (PCIe: an H100 lost 582 of 1.3M
/// updates here) the run refuses, naming the device attribute.
#[test]
fn host_and_gpu_rmws_of_one_host_counter_are_atomic_or_refused() {
    let test = parse("PTX host_gpu_add\n{ host c=0; }\n P0@cta 0,gpu 0 | P1@host ;\n atom.relaxed.sys.add r0, c, 1 | atom.relaxed.sys.add r1, c, 1 ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0 /\\ c == 2)\n");
    let code = ptx::generate(&test).unwrap();
    if !hardware() {
        return;
    }
    match gpu::run(&test, &code, &knobs(20)) {
        Err(GpuError::Unfaithful(why)) => {
            assert!(why.contains("HOST_NATIVE_ATOMIC_SUPPORTED"), "{why}");
            println!("host/GPU add: not run: {why}");
        }
        Ok(r) => {
            let total: u64 = r.histogram.iter().map(|(_, c)| c).sum::<u64>();
            assert_eq!(total, r.instances);
            println!("host/GPU add: {:?}", r.histogram);
            // The outcome is (P0:r0, P1:r1, c).
            assert!(
                r.histogram.iter().all(|(v, _)| v[2] == 2),
                "an update was lost: {:?}",
                r.histogram
            );
        }
        Err(e) => panic!("{e}"),
    }
}
