//! What a test's module costs the host to make ready for a run, without
//! a GPU: generating it as a run on a Hopper GPU loads it (dependent
//! launches), and planning it as the GPU worker does (reading what it
//! needs, rewriting its header for the device). A family-wide search did
//! both for every trial until it kept each test's modules and the worker
//! its plans (`docs/running-on-gpus.md`, "One GPU worker per process").
//!
//! ```text
//! cargo run --release --example module_bench -- [--reps N] FILE.litmus...
//! ```
//! For each file: the mean time of each step over N repetitions (default
//! 200) and the module's size.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use gpu_litmus::hw::{Knobs, Modules};
use gpu_litmus::ptx::isa::{Needs, SmArch};
use gpu_litmus::text;

/// The mean of `reps` runs of `f`.
fn mean(reps: u32, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..reps {
        f();
    }
    start.elapsed() / reps
}

fn main() -> ExitCode {
    let mut reps = 200u32;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => match args.next().and_then(|n| n.parse().ok()).filter(|n| *n > 0) {
                Some(n) => reps = n,
                None => {
                    eprintln!("module_bench: --reps takes a positive number");
                    return ExitCode::FAILURE;
                }
            },
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        eprintln!("usage: module_bench [--reps N] FILE.litmus...");
        return ExitCode::FAILURE;
    }
    let hopper = SmArch::new(90);
    for file in &files {
        let test = match text::read_file(file) {
            Ok((t, _)) => t,
            Err(e) => {
                eprintln!("module_bench: {e}");
                return ExitCode::FAILURE;
            }
        };
        let made = |t| Modules::of(t).for_device(&Knobs::default(), hopper);
        let module = match made(&test) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("module_bench: {file}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let generate = mean(reps, || {
            let _ = made(&test);
        });
        let plan = mean(reps, || {
            let needs = Needs::of(&module);
            let _ = needs.retarget(&module, hopper);
        });
        println!(
            "{file}: generate {:.0} µs, plan {:.0} µs ({} bytes of PTX, {reps} reps)",
            generate.as_secs_f64() * 1e6,
            plan.as_secs_f64() * 1e6,
            module.len()
        );
    }
    ExitCode::SUCCESS
}
