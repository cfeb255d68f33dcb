//! Host–GPU benchmark: message passing and store buffering between a GPU
//! thread and a host (CPU) thread on page-locked host memory, relaxed
//! `.sys` and fenced, both directions; and, for comparison, MP between two
//! GPU threads on the same host memory. For each test and each host
//! instance count: instances/s, weak outcomes/s, weak fraction, launches,
//! the time a launch takes.
//!
//! ```text
//! cargo run --release --example host_bench -- [--budget-ms N] [--host-instances A,B,..] [NAME_FILTER]
//! ```
//! (`.gpu/bin/host_bench` on the GPU machine, after `../shared/tools/gpu-pack`.)
//! Knobs come from the environment as for every run (`LITMUS_SEED`,
//! `LITMUS_HOST_THREADS`, `LITMUS_THREADS`, `LITMUS_STRIDE`, ...);
//! `--host-instances` sweeps `LITMUS_HOST_INSTANCES` (default 4096, 16384,
//! 65536: the probe's), to choose the count at which neither side holds
//! up a launch.

use std::process::ExitCode;

use gpu_litmus::hw as gpu;

mod bench_support;

use bench_support::{prepared, weak, Args};

/// (name, `.litmus` text): the weak outcome is the one the condition names.
const TESTS: &[(&str, &str)] = &[
    ("MP gpu->host", "PTX MP-gpu-host\n{ host x=0; host y=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.relaxed.sys x, 1 | ld.relaxed r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("MP gpu->host fenced", "PTX MP-gpu-host-fenced\n{ host x=0; host y=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.relaxed.sys x, 1 | ld.relaxed r0, y ;\n fence.sc.sys | fence.sc.sys ;\n st.relaxed.sys y, 1 | ld.relaxed r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("MP host->gpu", "PTX MP-host-gpu\n{ host x=0; host y=0; }\n P0@host | P1@cta 0,gpu 0 ;\n st.relaxed x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("MP host->gpu fenced", "PTX MP-host-gpu-fenced\n{ host x=0; host y=0; }\n P0@host | P1@cta 0,gpu 0 ;\n st.relaxed x, 1 | ld.relaxed.sys r0, y ;\n fence.sc.sys | fence.sc.sys ;\n st.relaxed y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("SB gpu-host", "PTX SB-gpu-host\n{ host x=0; host y=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.relaxed.sys x, 1 | st.relaxed y, 1 ;\n ld.relaxed.sys r0, y | ld.relaxed r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"),
    ("SB gpu-host fenced", "PTX SB-gpu-host-fenced\n{ host x=0; host y=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.relaxed.sys x, 1 | st.relaxed y, 1 ;\n fence.sc.sys | fence.sc.sys ;\n ld.relaxed.sys r0, y | ld.relaxed r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"),
    ("MP gpu->gpu hostmem", "PTX MP-gpu-gpu-hostmem\n{ host x=0; host y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
];

/// The host instance counts swept when `--host-instances` is not given.
const DEFAULT_SWEEP: [u32; 3] = [4096, 16384, 65536];

fn main() -> ExitCode {
    let bench = "host_bench";
    let mut sweep = DEFAULT_SWEEP.to_vec();
    let args = Args::read(
        bench,
        "host_bench [--budget-ms N] [--host-instances A,B,..] [NAME_FILTER]",
        |arg, rest| {
            if arg != "--host-instances" {
                return None;
            }
            let list: Option<Vec<u32>> = rest.next().and_then(|v| {
                v.split(',')
                    .map(|n| n.trim().parse().ok().filter(|n: &u32| n.is_power_of_two()))
                    .collect()
            });
            Some(match list {
                Some(l) if !l.is_empty() => {
                    sweep = l;
                    Ok(())
                }
                _ => Err("--host-instances needs powers of two, comma-separated".into()),
            })
        },
    );
    let args = match args {
        Ok(a) => a,
        Err(code) => return code,
    };
    let knobs = match args.knobs(bench) {
        Ok(k) => k,
        Err(code) => return code,
    };
    println!(
        "{:<20} {:>8} {:>4} {:>12} {:>12} {:>11} {:>9} {:>8} {:>9}  device",
        "test",
        "inst/l",
        "cpu",
        "instances/s",
        "weak/s",
        "weak frac",
        "weak",
        "launches",
        "ms/launch"
    );
    let mut failed = false;
    for (name, src) in TESTS {
        if args.skips(name) {
            continue;
        }
        let Some((test, code)) = prepared(name, src) else {
            failed = true;
            continue;
        };
        // Host instances shape only tests with host threads.
        let has_host = test.threads.iter().any(|t| t.placement.host);
        let counts = if has_host { &sweep[..] } else { &sweep[..1] };
        for &host_instances in counts {
            let k = gpu::Knobs {
                host_instances,
                ..knobs.clone()
            };
            let result = match gpu::run(&test, &code, &k) {
                Ok(r) => r,
                Err(e) if e.is_absent() => {
                    println!("hardware: skipped, {e}");
                    return ExitCode::SUCCESS;
                }
                Err(e) => {
                    eprintln!("{name} (host_instances={host_instances}): {e}");
                    failed = true;
                    continue;
                }
            };
            let weak = weak(&test, &result);
            let secs = result.wall.as_secs_f64();
            println!(
                "{:<20} {:>8} {:>4} {:>12.3e} {:>12.3e} {:>11.3e} {:>9} {:>8} {:>9.3}  {}",
                name,
                result.instances / result.launches.max(1),
                result.host_threads,
                result.rate(),
                weak as f64 / secs,
                weak as f64 / result.instances.max(1) as f64,
                weak,
                result.launches,
                secs * 1e3 / result.launches.max(1) as f64,
                result.device
            );
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
