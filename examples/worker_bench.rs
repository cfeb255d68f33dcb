//! The fixed cost of a GPU run: what a test pays beyond its kernels (the
//! worker's round trip, the JIT of its module, buffers, set-up), measured
//! over many distinct tests run one after the other in one process, as a
//! campaign or a test binary runs them.
//!
//! ```text
//! cargo run --release --example worker_bench -- [TESTS] [LAUNCHES]
//! ```
//! (`.gpu/bin/worker_bench` on the GPU machine.) TESTS (default 500)
//! distinct MP variants, each its own PTX module (the stored value
//! differs), run for LAUNCHES (default 4) launches each. Prints the fixed
//! cost per test (wall time outside the launch loops, divided by the
//! tests), the throughput in tests/s, and the same for a second pass over
//! the first 16 tests, whose modules the worker has kept, and for TESTS
//! other distinct tests run as `campaign` runs them: the worker compiles
//! the next 8 tests' modules in the background while a test runs.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use gpu_litmus::hw::{self as gpu, Knobs};
use gpu_litmus::ptx;
use gpu_litmus::text;

fn mp(value: u32) -> String {
    format!("PTX MP{value}\n{{ x=0; y=0; }}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, {value} | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n")
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut number =
        |what: &str, default: u64| match args.next() {
            None => Ok(default),
            Some(a) => a.parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(|| {
                format!("worker_bench: {what} must be a positive number, not `{a}`")
            }),
        };
    let (tests, launches) = match (number("TESTS", 500), number("LAUNCHES", 4)) {
        (Ok(t), Ok(l)) => (t, l),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}\nusage: worker_bench [TESTS] [LAUNCHES]");
            return ExitCode::FAILURE;
        }
    };
    let knobs = match Knobs::from_env() {
        Ok(k) => Knobs {
            launches: Some(launches),
            ..k
        },
        Err(e) => {
            eprintln!("worker_bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let device = match gpu::device() {
        Ok(name) => name,
        Err(e) if e.is_absent() => {
            println!("worker_bench: skipped, {e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("worker_bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("device {device}; {knobs}");
    let prepared: Vec<_> = (0..2 * tests as u32)
        .map(|v| {
            let t = text::parse(&mp(v + 2)).expect("the bench's own test reads");
            let code = ptx::generate(&t).expect("the bench's own test compiles");
            (t, code)
        })
        .collect();
    const WINDOW: usize = 8;
    let pass = |which: &[(gpu_litmus::core::ir::Test, String)], label: &str, ahead: bool| {
        let start = Instant::now();
        let mut kernels = Duration::ZERO;
        let mut instances = 0u64;
        for (i, (t, code)) in which.iter().enumerate() {
            // As `campaign` does: keep the next WINDOW modules compiling.
            if ahead && i % WINDOW == 0 {
                let next = which[i..(i + 2 * WINDOW).min(which.len())]
                    .iter()
                    .map(|(t, c)| (t, c.as_str()));
                if let Err(e) = gpu::prefetch(None, next, &knobs) {
                    return Err(format!("prefetch: {e}"));
                }
            }
            match gpu::run(t, code, &knobs) {
                Ok(r) => {
                    kernels += r.wall;
                    instances += r.instances;
                }
                Err(e) => return Err(format!("{}: {e}", t.name)),
            }
        }
        let wall = start.elapsed();
        let n = which.len() as f64;
        println!(
            "{label}: {} tests in {:.3} s ({:.1} tests/s, {:.3e} instances/s); kernels {:.3} s; fixed cost {:.2} ms per test",
            which.len(),
            wall.as_secs_f64(),
            n / wall.as_secs_f64(),
            instances as f64 / wall.as_secs_f64(),
            kernels.as_secs_f64(),
            (wall - kernels).as_secs_f64() * 1e3 / n
        );
        Ok(())
    };
    let (first, second) = prepared.split_at(tests as usize);
    for result in [
        pass(first, "distinct modules", false),
        // The last tests run: their modules are still in the worker's
        // cache (it keeps the most recent ones).
        pass(
            &first[first.len().saturating_sub(16)..],
            "cached modules",
            false,
        ),
        pass(second, "distinct modules, prefetched", true),
    ] {
        if let Err(e) = result {
            eprintln!("worker_bench: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
