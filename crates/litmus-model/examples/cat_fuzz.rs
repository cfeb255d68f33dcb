//! Fuzzes the cat interpreter: every truncation of each seed file and
//! byte mutations of it, at least 100,000 inputs in all, each compiled and
//! (when it compiles) run on small tests. Prints how many inputs ran, how
//! many were refused with an error, and the slowest; exits 1 if any input
//! panicked.
//!
//! ```text
//! cargo run --release -p litmus-model --example cat_fuzz -- [corpus dir] [inputs]
//! ```
//!
//! Seeds: the project's `models/*.cat`, and with a corpus folder its
//! `cat/ptx-v6.0.cat` and `cat/ptx-v7.5.cat`.

#[path = "../tests/common/cat_fuzz.rs"]
mod cat_fuzz;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cat_fuzz::{mutate, run_one, Fate, Rng, TESTS};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let total: usize = match args.get(1).map(|s| s.parse()) {
        None => 100_000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("error: inputs must be a number: {e}");
            return ExitCode::from(2);
        }
    };
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let mut files: Vec<PathBuf> = ["sc", "ptx", "ptx-2015"]
        .iter()
        .map(|m| models.join(format!("{m}.cat")))
        .collect();
    if let Some(dir) = args.first() {
        files.push(Path::new(dir).join("cat/ptx-v6.0.cat"));
        files.push(Path::new(dir).join("cat/ptx-v7.5.cat"));
    }
    let mut seeds = Vec::new();
    for f in &files {
        match std::fs::read(f) {
            Ok(b) => seeds.push((f.clone(), b)),
            Err(e) => {
                eprintln!("error: {}: {e}", f.display());
                return ExitCode::from(2);
            }
        }
    }
    let tests: Vec<_> = TESTS
        .iter()
        .map(|t| litmus_text::parse(t).expect("the fuzz tests parse"))
        .collect();
    // Silence the default hook: a panic is reported below with its input.
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng::new(0x5eed);
    let (mut ran, mut refused, mut panicked, mut count) = (0usize, 0usize, 0usize, 0usize);
    let mut slowest = (Duration::ZERO, String::new());
    let truncations: usize = seeds.iter().map(|(_, b)| b.len()).sum();
    let per_seed = total.saturating_sub(truncations).div_ceil(seeds.len());
    let start = Instant::now();
    for (path, seed) in &seeds {
        let inputs = (0..seed.len())
            .map(|n| seed[..n].to_vec())
            .chain((0..per_seed).map(|_| mutate(seed, &mut rng)));
        for input in inputs {
            count += 1;
            let t = Instant::now();
            match std::panic::catch_unwind(|| run_one(&input, &tests)) {
                Ok(Fate::Ran) => ran += 1,
                Ok(Fate::Refused) => refused += 1,
                Err(_) => {
                    panicked += 1;
                    println!(
                        "PANIC on a mutant of {}:\n{}\n",
                        path.display(),
                        String::from_utf8_lossy(&input)
                    );
                }
            }
            let took = t.elapsed();
            if took > slowest.0 {
                slowest = (took, path.display().to_string());
            }
        }
    }
    println!(
        "{count} inputs in {:.1?}: {ran} compiled and ran, {refused} refused with an error, {panicked} panicked",
        start.elapsed()
    );
    println!(
        "slowest input: {:.1?} (a mutant of {})",
        slowest.0, slowest.1
    );
    if panicked > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
