//! Fuzzes the evidence readers (JSON-lines records, litmus7 logs, the HTML
//! page of what they read) with mutated inputs; a panic is a bug.
//!
//! `cargo run --release -p litmus-evidence --example evidence_fuzz [N] [SEED]`
//! (default 100000 inputs).

#[path = "../tests/fuzz_support/mod.rs"]
mod fuzz_support;

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(100_000, |a| a.parse().expect("N: a whole number"));
    let seed: u64 = args
        .next()
        .map_or(0x5eed, |a| a.parse().expect("SEED: a whole number"));
    let start = Instant::now();
    let clean = fuzz_support::fuzz(n, seed, 1_000);
    println!(
        "evidence_fuzz: {n} inputs (seed {seed}), no panic; {clean} read without a problem, {} with one; {:.1} s",
        n - clean,
        start.elapsed().as_secs_f64()
    );
}
