//! Termination: `check_termination` must give Dat3M's TERMINATION verdict
//! on every line of `expected-termination.csv` (56 tests: CADP spin loops,
//! barrier quorums, cross-CTA barriers), read from
//! `LITMUS_CONFORMANCE_DIR`; and small tests of its own for the witness.

use litmus_core::corpus::{read_list, CORPUS_ENV, TERMINATION};
use litmus_model::{check_termination, model_by_name, Options, Termination};

fn run(src: &str) -> Termination {
    let test = litmus_core::text::parse(src).unwrap_or_else(|e| panic!("{e}"));
    check_termination(&test, model_by_name("ptx").unwrap(), &Options::default()).unwrap()
}

#[test]
fn termination_verdicts_match_dat3m() {
    let Some(dir) = std::env::var_os(CORPUS_ENV) else {
        println!("termination conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let dir = std::path::Path::new(&dir);
    let entries = read_list(dir, TERMINATION).unwrap_or_else(|e| panic!("{e}"));
    let model = model_by_name("ptx").unwrap();
    let mut failures = Vec::new();
    for entry in &entries {
        let file = entry.path.as_str();
        let src = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let test = litmus_core::text::parse(&src).unwrap_or_else(|e| panic!("{file}: {e}"));
        match check_termination(&test, model, &Options::default()) {
            Ok(t) if t.terminates() == entry.expected => {}
            Ok(t) => failures.push(format!(
                "{file}: terminates = {}, Dat3M says {} ({})",
                t.terminates(),
                entry.expected,
                t.hang.map_or("no hang found".to_string(), |h| h.to_string())
            )),
            Err(e) => failures.push(format!("{file}: check failed: {e}")),
        }
    }
    println!(
        "termination conformance: agrees with Dat3M on {} of {} tests",
        entries.len() - failures.len(),
        entries.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(entries.len(), 56, "{TERMINATION} should name 56 tests");
}
