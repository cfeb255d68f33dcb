//! Times a campaign-sized family: the nine 3- and 4-thread shapes of the
//! GPU campaigns, every placement, scopes cta and gpu, no fence or
//! `fence.sc` / `fence.acq_rel` on each subset of threads, relaxed and
//! release/acquire accesses.
//!
//! ```text
//! cargo run --release -p litmus-model --example gen_campaign -- [model]
//! ```
//!
//! Prints per shape the variants, the tests left after duplicates and the
//! model's verdicts; then the time to generate, to print and read back
//! every test (each must give the same IR), and to check them all.

use std::collections::HashSet;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use litmus_core::ir::Verdict;
use litmus_gen::{family, shape, FamilySpec};
use litmus_model::{check, model_by_name, Options};
use litmus_text as text;

const SHAPES: [&str; 9] = [
    "IRIW", "ISA2", "RWC", "WRC", "WWC", "Z6.3", "WRW+2W", "2+2W", "3.2W",
];
const OPTIONS: [(&str, &str); 5] = [
    ("placements", "all"),
    ("scopes", "cta,gpu"),
    ("fences", "none,sc,acq_rel"),
    ("fence-threads", "each"),
    ("sem", "relaxed,acq_rel"),
];

fn main() -> ExitCode {
    let name = std::env::args().nth(1).unwrap_or("ptx".to_string());
    let model = match model_by_name(&name) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut spec = FamilySpec::default();
    for (o, v) in OPTIONS {
        spec.set(o, v).expect("the campaign's options are valid");
    }
    let (mut gen_time, mut trip_time, mut check_time) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut seen = HashSet::new();
    let (mut variants, mut tests, mut broken) = (0, 0, 0);
    println!(
        "{:<8} {:>8} {:>6} {:>8} {:>10}",
        "shape", "variants", "tests", "allowed", "forbidden"
    );
    for s in SHAPES {
        let start = Instant::now();
        let f =
            family(&shape(s).expect("a known shape"), &spec, &mut seen).expect("a valid family");
        gen_time += start.elapsed();
        let (mut allowed, mut forbidden) = (0, 0);
        for t in &f.tests {
            let start = Instant::now();
            let back = text::parse(&text::print(t));
            trip_time += start.elapsed();
            if back.as_ref() != Ok(t) {
                eprintln!("{}: does not read back as itself", t.name);
                broken += 1;
            }
            let start = Instant::now();
            match check(t, model, &Options::default()) {
                Ok(r) if r.verdict() == Verdict::Allowed => allowed += 1,
                Ok(_) => forbidden += 1,
                Err(e) => {
                    eprintln!("{}: {e}", t.name);
                    broken += 1;
                }
            }
            check_time += start.elapsed();
        }
        println!(
            "{s:<8} {:>8} {:>6} {allowed:>8} {forbidden:>10}",
            f.variants,
            f.tests.len()
        );
        variants += f.variants;
        tests += f.tests.len();
    }
    println!(
        "total: {variants} variants, {tests} tests after duplicates, model {}",
        model.name()
    );
    println!(
        "generate and deduplicate {:.3} s; print and read back {:.3} s; check {:.3} s",
        gen_time.as_secs_f64(),
        trip_time.as_secs_f64(),
        check_time.as_secs_f64()
    );
    if broken > 0 {
        eprintln!("{broken} tests did not read back or could not be checked");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
