//! Fuzzes the `.litmus` reader: `cargo run --release -p litmus-text
//! --example fuzz_text -- [COUNT] [CORPUS_DIR]` (COUNT defaults to
//! 1,000,000; CORPUS_DIR to `$LITMUS_CONFORMANCE_DIR`, else the fixtures
//! alone). The inputs and checks are those of `tests/text_fuzz.rs`.

#[path = "../tests/text_support/corpus.rs"]
mod corpus;
#[path = "../tests/text_support/fuzz_input.rs"]
mod fuzz_input;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let count: usize = match args.next().map(|a| a.replace('_', "").parse()) {
        None => 1_000_000,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("fuzz_text: COUNT must be a number ({e})");
            return ExitCode::FAILURE;
        }
    };
    let dir = args
        .next()
        .map(Into::into)
        .or_else(|| std::env::var_os(corpus::CORPUS_ENV));
    let mut seeds: Vec<String> = fuzz_input::FIXTURES.iter().map(|s| s.to_string()).collect();
    if let Some(dir) = dir {
        match corpus::listed_files(dir.as_ref(), &corpus::TEXT_LISTS) {
            Ok(files) => {
                seeds.extend(files.into_iter().map(|(_, text)| text));
            }
            Err(e) => {
                eprintln!("fuzz_text: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!("fuzz_text: {count} inputs from {} seed files", seeds.len());
    let mut rng = fuzz_input::Rng::new(0x5eed_1e55 ^ count as u64);
    let (mut parsed, mut rejected) = (0usize, 0usize);
    let start = Instant::now();
    for n in 0..count {
        let src = fuzz_input::input(&mut rng, &seeds);
        match catch_unwind(AssertUnwindSafe(|| fuzz_input::check(&src))) {
            Ok(fuzz_input::Outcome::Parsed(_)) => parsed += 1,
            Ok(fuzz_input::Outcome::Rejected) => rejected += 1,
            Err(_) => {
                eprintln!("fuzz_text: input {n} failed (panic above):\n{src:?}");
                return ExitCode::FAILURE;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "fuzz_text: {count} inputs in {secs:.1} s ({:.0}/s): {parsed} parsed, {rejected} rejected, no panic",
        count as f64 / secs.max(1e-9)
    );
    ExitCode::SUCCESS
}
