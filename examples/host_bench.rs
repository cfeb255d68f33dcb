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

use gpu_litmus::core::{outcome, ptx, text};
use gpu_litmus::runtime::{gpu, Config};

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
    let mut budget_ms = None;
    let mut sweep = DEFAULT_SWEEP.to_vec();
    let mut filter = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--budget-ms" => match args.next().and_then(|v| v.parse().ok()) {
                Some(v) => budget_ms = Some(v),
                None => {
                    eprintln!("host_bench: --budget-ms needs a number of milliseconds");
                    return ExitCode::FAILURE;
                }
            },
            "--host-instances" => {
                let list: Option<Vec<u32>> = args.next().and_then(|v| {
                    v.split(',')
                        .map(|n| n.trim().parse().ok().filter(|n: &u32| n.is_power_of_two()))
                        .collect()
                });
                match list {
                    Some(l) if !l.is_empty() => sweep = l,
                    _ => {
                        eprintln!(
                            "host_bench: --host-instances needs powers of two, comma-separated"
                        );
                        return ExitCode::FAILURE;
                    }
                }
            }
            "-h" | "--help" => {
                println!(
                    "usage: host_bench [--budget-ms N] [--host-instances A,B,..] [NAME_FILTER]"
                );
                return ExitCode::SUCCESS;
            }
            other => filter = Some(other.to_string()),
        }
    }
    // Every LITMUS_* variable is checked, as by every other entry point.
    let mut knobs = match Config::from_env() {
        Ok(config) => config.knobs,
        Err(e) => {
            eprintln!("host_bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(ms) = budget_ms {
        knobs.budget_ms = ms;
    }
    println!("knobs: {knobs}");
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
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let test = match text::parse(src) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{name}: {}", e.render(name));
                failed = true;
                continue;
            }
        };
        let code = match ptx::generate(&test) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{name}: {e}");
                failed = true;
                continue;
            }
        };
        let obs = outcome::observables(&test);
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
            let weak: u64 = result
                .histogram
                .iter()
                .filter(|(values, _)| outcome::eval(&test, &obs, values))
                .map(|(_, c)| c)
                .sum();
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
