//! Times the model checker on the conformance corpus.
//!
//! ```text
//! cargo run --release -p litmus-model --example corpus_bench -- <corpus dir> [model]
//! ```
//!
//! Prints one line per file (time, counts, whether `claim_holds` matches
//! `expected-ptx-v6.csv`), then the total and the slowest file.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use litmus_model::{check, model_by_name, Options};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: corpus_bench <corpus dir> [model]");
        return ExitCode::from(2);
    };
    let model = match model_by_name(args.get(1).map_or("ptx", String::as_str)) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let dir = Path::new(dir);
    let csv = match std::fs::read_to_string(dir.join("expected-ptx-v6.csv")) {
        Ok(c) => c,
        Err(e) => {
            eprintln!(
                "error: cannot read {}: {e}",
                dir.join("expected-ptx-v6.csv").display()
            );
            return ExitCode::from(2);
        }
    };
    let mut total = Duration::ZERO;
    let mut slowest = (Duration::ZERO, String::new());
    let (mut files, mut mismatches, mut errors) = (0, 0, 0);
    for line in csv.lines().filter(|l| !l.trim().is_empty()) {
        let Some((file, expected)) = line.rsplit_once(',') else {
            continue;
        };
        let src = match std::fs::read_to_string(dir.join(file)) {
            Ok(s) => s,
            Err(e) => {
                println!("{file:60} error: {e}");
                errors += 1;
                continue;
            }
        };
        let start = Instant::now();
        let result = litmus_text::parse(&src)
            .map_err(|e| e.to_string())
            .and_then(|t| check(&t, model, &Options::default()).map_err(|e| e.to_string()));
        let took = start.elapsed();
        total += took;
        files += 1;
        if took > slowest.0 {
            slowest = (took, file.to_string());
        }
        match result {
            Ok(r) => {
                let agrees = r.claim_holds == (expected.trim() == "1");
                mismatches += usize::from(!agrees);
                println!(
                    "{file:60} {:>9.3} ms  candidates {:>6}  consistent {:>5}  {}",
                    took.as_secs_f64() * 1e3,
                    r.candidate_executions,
                    r.consistent_executions,
                    if agrees { "ok" } else { "DIFFERS from Dat3M" }
                );
            }
            Err(e) => {
                errors += 1;
                println!("{file:60} error: {e}");
            }
        }
    }
    println!(
        "model {}: {files} files in {:.3} ms total; slowest {} ({:.3} ms); {mismatches} differ from Dat3M's ptx-v6 verdicts; {errors} errors",
        model.name(),
        total.as_secs_f64() * 1e3,
        slowest.1,
        slowest.0.as_secs_f64() * 1e3,
    );
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
