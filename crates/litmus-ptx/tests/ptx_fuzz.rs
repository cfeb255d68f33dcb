//! The generator on fuzzed tests: every input of litmus-text's text fuzzer
//! (`tests/text_fuzz.rs`, the same seed and count) that parses and
//! validates goes through the generator, which may refuse it, with a
//! reason, but never panic.

#[path = "../../litmus-text/tests/text_support/corpus.rs"]
mod corpus;
#[path = "../../litmus-text/tests/text_support/fuzz_input.rs"]
mod fuzz_input;

use std::panic::{catch_unwind, AssertUnwindSafe};

use litmus_ptx::PtxError;

const INPUTS: usize = 20_000;

#[test]
fn fuzzed_tests_get_a_module_or_a_reason() {
    let mut seeds: Vec<String> = fuzz_input::FIXTURES.iter().map(|s| s.to_string()).collect();
    if let Some(dir) = std::env::var_os(corpus::CORPUS_ENV) {
        let files = corpus::listed_files(dir.as_ref(), &corpus::TEXT_LISTS)
            .unwrap_or_else(|e| panic!("{e}"));
        seeds.extend(files.into_iter().map(|(_, text)| text));
    }
    let mut rng = fuzz_input::Rng::new(0x5eed_1e55);
    let (mut modules, mut refused) = (0, 0);
    for n in 0..INPUTS {
        let src = fuzz_input::input(&mut rng, &seeds);
        let generated = catch_unwind(AssertUnwindSafe(|| match fuzz_input::check(&src) {
            fuzz_input::Outcome::Parsed(test) => Some(litmus_ptx::generate(&test)),
            fuzz_input::Outcome::Rejected => None,
        }));
        match generated {
            Ok(Some(Ok(_))) => modules += 1,
            // The fuzzer hands over valid tests only: a test the
            // generator calls invalid is a disagreement with `validate`.
            Ok(Some(Err(PtxError::Invalid(why)))) => {
                panic!("input {n}: valid to the reader, invalid to the generator: {why}\n{src:?}")
            }
            Ok(Some(Err(PtxError::Unsupported(_)))) => refused += 1,
            Ok(None) => {}
            Err(_) => panic!("input {n} failed (see the panic above):\n{src:?}"),
        }
    }
    println!("ptx fuzz: {INPUTS} inputs, {modules} modules, {refused} refused, no panic");
    // Inputs that never reach a module test only the refusals.
    assert!(modules > INPUTS / 200, "only {modules} modules");
}
