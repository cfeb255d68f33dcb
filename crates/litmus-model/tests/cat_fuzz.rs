//! Malformed cat files give errors, never a panic or a hang: a CI-sized
//! run of the generator the `cat_fuzz` example runs at full size.

mod common;

use std::path::{Path, PathBuf};

use common::cat_fuzz::{mutate, run_one, Fate, Rng, TESTS};

fn seeds() -> Vec<(PathBuf, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let mut files: Vec<PathBuf> = ["sc", "ptx", "ptx-2015"]
        .iter()
        .map(|m| root.join(format!("{m}.cat")))
        .collect();
    match std::env::var_os(litmus_core::corpus::CORPUS_ENV) {
        Some(dir) => files.push(Path::new(&dir).join("cat/ptx-v6.0.cat")),
        None => println!("cat fuzz: corpus seed skipped, LITMUS_CONFORMANCE_DIR is not set"),
    }
    files
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            (f, bytes)
        })
        .collect()
}

#[test]
fn truncated_and_mutated_cat_files_never_panic() {
    let tests: Vec<_> = TESTS.iter().map(|t| common::parse(t)).collect();
    let mut rng = Rng::new(0x5eed);
    let (mut ran, mut refused) = (0, 0);
    for (path, seed) in seeds() {
        // Truncations every 7 bytes, then 300 mutations per seed.
        let inputs = (0..seed.len())
            .step_by(7)
            .map(|n| seed[..n].to_vec())
            .chain((0..300).map(|_| mutate(&seed, &mut rng)));
        for input in inputs {
            let fate = std::panic::catch_unwind(|| run_one(&input, &tests)).unwrap_or_else(|_| {
                panic!(
                    "a mutant of {} panicked:\n{}",
                    path.display(),
                    String::from_utf8_lossy(&input)
                )
            });
            match fate {
                Fate::Ran => ran += 1,
                Fate::Refused => refused += 1,
            }
        }
    }
    println!("cat fuzz: {ran} inputs compiled and ran, {refused} refused with an error");
    assert!(ran > 0 && refused > 0, "{ran} ran, {refused} refused");
}
