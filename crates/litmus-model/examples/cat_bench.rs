//! Times a cat model against a built-in model on the conformance corpus'
//! PTX 6.0 list (104 tests): each file checked `ROUNDS` times under each,
//! the best round kept.
//!
//! ```text
//! cargo run --release -p litmus-model --example cat_bench -- <corpus dir> [cat file] [built-in]
//! ```
//!
//! The cat file defaults to the corpus' `cat/ptx-v6.0.cat` (Dat3M's model,
//! unchanged) and the built-in model to `ptx`. Prints the total time of
//! each, the ratio, the slowest files by ratio, and whether both models
//! gave every file the same verdict.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use litmus_core::corpus;
use litmus_model::{check, model_by_name, Model, Options};

const ROUNDS: usize = 5;

/// The best time of [`ROUNDS`] checks, the claim, and the candidate
/// executions examined (what pruning saves shows there).
fn best_time(
    test: &litmus_core::ir::Test,
    model: &dyn Model,
) -> Result<(Duration, bool, u64), String> {
    let mut best = Duration::MAX;
    let (mut claim, mut candidates) = (false, 0);
    for _ in 0..ROUNDS {
        let start = Instant::now();
        let r = check(test, model, &Options::default()).map_err(|e| e.to_string())?;
        best = best.min(start.elapsed());
        (claim, candidates) = (r.claim_holds, r.candidate_executions);
    }
    Ok((best, claim, candidates))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().map(PathBuf::from) else {
        eprintln!("usage: cat_bench <corpus dir> [cat file] [built-in model]");
        return ExitCode::from(2);
    };
    let cat_path = args
        .get(1)
        .map_or_else(|| dir.join("cat/ptx-v6.0.cat"), PathBuf::from);
    let builtin = args.get(2).map_or("ptx", String::as_str);
    let (cat, rust) = match (
        model_by_name(&cat_path.display().to_string()),
        model_by_name(builtin),
    ) {
        (Ok(c), Ok(r)) => (c, r),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let list = match corpus::read_list(&dir, corpus::PTX_V6) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut t_cat, mut t_rust) = (Duration::ZERO, Duration::ZERO);
    let (mut c_cat, mut c_rust) = (0, 0);
    let mut rows = Vec::new();
    let mut disagreements = 0;
    for entry in &list {
        let file = Path::new(&entry.path);
        let test = match std::fs::read_to_string(dir.join(file))
            .map_err(|e| e.to_string())
            .and_then(|s| litmus_text::parse(&s).map_err(|e| e.to_string()))
        {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {}: {e}", entry.path);
                return ExitCode::from(1);
            }
        };
        match (best_time(&test, cat), best_time(&test, rust)) {
            (Ok((tc, cc, nc)), Ok((tr, cr, nr))) => {
                t_cat += tc;
                t_rust += tr;
                c_cat += nc;
                c_rust += nr;
                disagreements += usize::from(cc != cr);
                rows.push((
                    tc.as_secs_f64() / tr.as_secs_f64().max(1e-9),
                    tc,
                    tr,
                    &entry.path,
                ));
            }
            (Err(e), _) | (_, Err(e)) => {
                eprintln!("error: {}: {e}", entry.path);
                return ExitCode::from(1);
            }
        }
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("files: {}, best of {ROUNDS} rounds each", list.len());
    println!(
        "{:>10.1} ms  {c_cat:>7} candidates  cat {}",
        t_cat.as_secs_f64() * 1e3,
        cat.name()
    );
    println!(
        "{:>10.1} ms  {c_rust:>7} candidates  built-in {}",
        t_rust.as_secs_f64() * 1e3,
        rust.name()
    );
    println!(
        "ratio: {:.2}x; verdicts differ on {disagreements} files",
        t_cat.as_secs_f64() / t_rust.as_secs_f64()
    );
    println!("largest ratios:");
    for (ratio, tc, tr, path) in rows.iter().take(5) {
        println!(
            "  {ratio:>6.2}x  {:>9.3} ms vs {:>9.3} ms  {path}",
            tc.as_secs_f64() * 1e3,
            tr.as_secs_f64() * 1e3
        );
    }
    ExitCode::SUCCESS
}
