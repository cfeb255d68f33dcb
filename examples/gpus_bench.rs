//! Two-GPU benchmark: message passing and store buffering with one thread
//! on each of two logical GPUs, relaxed `.sys` and fenced, and for
//! comparison the same tests with both threads on one GPU (in different
//! CTAs). For each: instances/s, weak outcomes/s, weak fraction, launches,
//! the time a launch takes, and the devices.
//!
//! ```text
//! cargo run --release --example gpus_bench -- [--budget-ms N] [NAME_FILTER]
//! ```
//! (`.gpu/bin/gpus_bench` on the GPU machine, after
//! `../shared/tools/gpu-pack`.) Knobs come from the environment as for
//! every run; on a machine with one GPU, `LITMUS_GPU_MAP=0,0` runs both
//! logical GPUs there (without it the two-GPU lines say they did not run).

use std::process::ExitCode;

use gpu_litmus::core::{outcome, ptx, text};
use gpu_litmus::runtime::{gpu, Config};

/// (name, `.litmus` text): the weak outcome is the one the condition names.
const TESTS: &[(&str, &str)] = &[
    ("MP 2 GPUs", "PTX MP-two-gpus\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("MP 2 GPUs fenced", "PTX MP-two-gpus-fenced\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n fence.sc.sys | fence.sc.sys ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("SB 2 GPUs", "PTX SB-two-gpus\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 ;\n ld.relaxed.sys r0, y | ld.relaxed.sys r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"),
    ("SB 2 GPUs fenced", "PTX SB-two-gpus-fenced\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 ;\n fence.sc.sys | fence.sc.sys ;\n ld.relaxed.sys r0, y | ld.relaxed.sys r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"),
    ("MP 1 GPU", "PTX MP-one-gpu\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("SB 1 GPU", "PTX SB-one-gpu\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 ;\n ld.relaxed.sys r0, y | ld.relaxed.sys r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"),
];

fn main() -> ExitCode {
    let mut budget_ms = None;
    let mut filter = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--budget-ms" => match args.next().and_then(|v| v.parse().ok()) {
                Some(v) => budget_ms = Some(v),
                None => {
                    eprintln!("gpus_bench: --budget-ms needs a number of milliseconds");
                    return ExitCode::FAILURE;
                }
            },
            "-h" | "--help" => {
                println!("usage: gpus_bench [--budget-ms N] [NAME_FILTER]");
                return ExitCode::SUCCESS;
            }
            other => filter = Some(other.to_string()),
        }
    }
    // Every LITMUS_* variable is checked, as by every other entry point.
    let mut knobs = match Config::from_env() {
        Ok(config) => config.knobs,
        Err(e) => {
            eprintln!("gpus_bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(ms) = budget_ms {
        knobs.budget_ms = ms;
    }
    println!("knobs: {knobs}");
    println!(
        "{:<18} {:>12} {:>12} {:>11} {:>9} {:>8} {:>9}  device",
        "test", "instances/s", "weak/s", "weak frac", "weak", "launches", "ms/launch"
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
        let result = match gpu::run(&test, &code, &knobs) {
            Ok(r) => r,
            Err(e) if e.is_absent() => {
                println!("hardware: skipped, {e}");
                return ExitCode::SUCCESS;
            }
            Err(gpu::GpuError::Unfaithful(why)) => {
                println!("{name:<18} not run, {why}");
                continue;
            }
            Err(e) => {
                eprintln!("{name}: {e}");
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
            "{:<18} {:>12.3e} {:>12.3e} {:>11.3e} {:>9} {:>8} {:>9.3}  {}",
            name,
            result.rate(),
            weak as f64 / secs,
            weak as f64 / result.instances.max(1) as f64,
            weak,
            result.launches,
            secs * 1e3 / result.launches.max(1) as f64,
            result.device
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
