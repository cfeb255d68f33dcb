//! The evidence readers on mutated input (CI-sized; the example
//! `evidence_fuzz` runs 100,000 and more): no panic, problems at lines
//! that exist.

mod fuzz_support;

#[test]
fn mutated_evidence_and_logs_never_panic() {
    for seed in fuzz_support::seeds() {
        fuzz_support::check_one(&seed, true);
    }
    let clean = fuzz_support::fuzz(3_000, 0x5eed, 100);
    // Some mutations leave the file whole, most do not: both paths ran.
    assert!(clean > 0 && clean < 3_000, "{clean} of 3000 read cleanly");
}

#[test]
fn the_seeds_read_cleanly() {
    let seeds = fuzz_support::seeds();
    let e = litmus_evidence::Evidence::read_bytes(std::path::Path::new("s"), &seeds[0]);
    assert_eq!((e.records.len(), e.problems.len()), (3, 0));
    let t = litmus_evidence::litmus7::parse(std::str::from_utf8(&seeds[1]).unwrap()).unwrap();
    assert_eq!(t[0].instances(), 100);
}
