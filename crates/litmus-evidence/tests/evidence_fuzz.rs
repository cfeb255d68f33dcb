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

#[test]
fn mutated_gzip_reads_its_whole_records_or_says_it_is_damaged() {
    use litmus_evidence::{Evidence, ProblemKind};
    use std::io::Write;
    let seed = &fuzz_support::seeds()[0];
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    w.write_all(seed).unwrap();
    let packed = w.finish().unwrap();
    let name = std::path::Path::new("fuzz.jsonl.gz");
    let whole = Evidence::read_bytes(name, &packed);
    assert_eq!((whole.records.len(), whole.problems.len()), (3, 0));
    let mut rng = fuzz_support::Rng(0x92ab | 1);
    let mut damaged = 0;
    for _ in 0..2_000 {
        let input = fuzz_support::mutate(&mut rng, &packed);
        let read = Evidence::read_bytes(name, &input);
        let refusals = read
            .problems
            .iter()
            .filter(|p| matches!(p.kind, ProblemKind::Refused(_)))
            .count();
        // gzip's CRC catches the damage: either the file inflates whole
        // (a mutation gzip ignores, as in the header's name field) or it
        // is one refusal, with at most the seed's records before it.
        assert!(refusals <= 1, "{:?}", read.problems);
        assert!(read.records.len() <= 3);
        if refusals == 1 {
            damaged += 1;
        } else {
            assert_eq!(read.records, whole.records);
        }
    }
    assert!(damaged > 1_000, "{damaged} of 2000 mutations damaged it");
}
