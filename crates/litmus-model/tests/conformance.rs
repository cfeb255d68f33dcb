//! The conformance corpus: `claim_holds` must equal Dat3M's result on every
//! line of `expected-ptx-v6.csv` (1 = the claim holds under PTX 6.0). The
//! corpus is read from `LITMUS_CONFORMANCE_DIR`.

use std::path::Path;

use litmus_core::corpus;
use litmus_model::{check, model_by_name, Options};

#[test]
fn corpus_verdicts_match_dat3m() {
    let Some(dir) = std::env::var_os("LITMUS_CONFORMANCE_DIR") else {
        println!("conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let dir = Path::new(&dir);
    let list = corpus::read_list(dir, corpus::PTX_V6).unwrap_or_else(|e| panic!("{e}"));
    let model = model_by_name("ptx").unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for corpus::Entry {
        path: file,
        expected,
        ..
    } in &list
    {
        let (file, expected) = (file.as_str(), *expected);
        let path = dir.join(file);
        let src = match std::fs::read_to_string(&path) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{file}: cannot read: {e}"));
                continue;
            }
        };
        let test = match litmus_core::text::parse(&src) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{file}: does not parse:\n{}", e.render(file)));
                continue;
            }
        };
        checked += 1;
        match check(&test, model, &Options::default()) {
            Ok(r) if r.claim_holds == expected => {}
            Ok(r) => failures.push(format!(
                "{file}: claim_holds = {}, Dat3M says {} ({} consistent executions; allowed: {:?})",
                r.claim_holds,
                expected,
                r.consistent_executions,
                r.outcome_lines(&test)
            )),
            Err(e) => failures.push(format!("{file}: check failed: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus tests disagree with Dat3M:\n{}",
        failures.len(),
        checked,
        failures.join("\n")
    );
    assert_eq!(checked, 104, "the PTX 6.0 list should name 104 tests");
}
