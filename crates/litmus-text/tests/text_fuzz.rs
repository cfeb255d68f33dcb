//! Fuzzing the text reader at CI size: arbitrary bytes and mutated
//! corpus files must never make it panic, and whatever it accepts must
//! print and read back unchanged. `examples/fuzz_text.rs` runs the same
//! fuzzer with a million inputs.

#[path = "text_support/corpus.rs"]
mod corpus;
#[path = "text_support/fuzz_input.rs"]
mod fuzz_input;

use std::panic::{catch_unwind, AssertUnwindSafe};

const INPUTS: usize = 20_000;

#[test]
fn fuzz_text_reader() {
    let mut seeds: Vec<String> = fuzz_input::FIXTURES.iter().map(|s| s.to_string()).collect();
    match std::env::var_os(corpus::CORPUS_ENV) {
        Some(dir) => {
            let files = corpus::listed_files(dir.as_ref(), &corpus::TEXT_LISTS)
                .unwrap_or_else(|e| panic!("{e}"));
            seeds.extend(files.into_iter().map(|(_, text)| text));
        }
        None => println!(
            "fuzz: {} is not set, mutating the fixtures only",
            corpus::CORPUS_ENV
        ),
    }
    let mut rng = fuzz_input::Rng::new(0x5eed_1e55);
    let (mut parsed, mut rejected) = (0, 0);
    for n in 0..INPUTS {
        let src = fuzz_input::input(&mut rng, &seeds);
        match catch_unwind(AssertUnwindSafe(|| fuzz_input::check(&src))) {
            Ok(fuzz_input::Outcome::Parsed(_)) => parsed += 1,
            Ok(fuzz_input::Outcome::Rejected) => rejected += 1,
            Err(_) => panic!("input {n} failed (see the panic above):\n{src:?}"),
        }
    }
    println!("fuzz: {INPUTS} inputs, {parsed} parsed, {rejected} rejected, no panic");
    // A fuzzer whose inputs are all rejected tests only the error paths.
    assert!(parsed > INPUTS / 100, "only {parsed} inputs parsed");
}

/// Inputs built to break a recursive reader: deep nesting and long
/// chains, which must be refused or read without overflowing the stack.
#[test]
fn deep_and_long_inputs() {
    let head = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists ";
    let deep = format!("{head}{}x == 0{}", "(".repeat(100_000), ")".repeat(100_000));
    let err = litmus_text::parse(&deep).unwrap_err();
    assert!(err.to_string().contains("nested too deeply"), "{err}");
    let nots = format!("{head}({}x == 0)", "~".repeat(100_000));
    assert!(litmus_text::parse(&nots).is_err());
    let chain = format!("{head}(x == 0{})", " /\\ x == 0".repeat(100_000));
    let err = litmus_text::parse(&chain).unwrap_err();
    assert!(err.to_string().contains("nested too deeply"), "{err}");
    let ok = format!(
        "{head}({}x == 0{})",
        "(".repeat(litmus_text::MAX_DEPTH - 1),
        ")".repeat(litmus_text::MAX_DEPTH - 1)
    );
    litmus_text::parse(&ok).unwrap();
    let garbage = "#".repeat(1_000_000);
    let err = litmus_text::parse(&garbage).unwrap_err();
    assert!(err.diagnostics.len() <= 101, "{}", err.diagnostics.len());
    let rows = format!(
        "PTX t\n{{ x=0; }}\n P0@cta 0,gpu 0 ;\n{}exists (x == 0)",
        " st.weak x, 1 ;\n".repeat(100_000)
    );
    assert_eq!(
        litmus_text::parse(&rows).unwrap().threads[0].body.len(),
        100_000
    );
}
