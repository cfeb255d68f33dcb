//! The conformance corpus: `claim_holds` must equal Dat3M's result on every
//! line of `expected-ptx-v6.csv` (1 = the claim holds under PTX 6.0). The
//! corpus is read from `LITMUS_CONFORMANCE_DIR`.

mod common;

#[test]
fn corpus_verdicts_match_dat3m() {
    let Some(dir) = std::env::var_os("LITMUS_CONFORMANCE_DIR") else {
        println!("conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let (checked, failures) =
        common::disagreements(dir.as_ref(), litmus_core::corpus::PTX_V6, "ptx");
    assert!(
        failures.is_empty(),
        "{} of {} corpus tests disagree with Dat3M:\n{}",
        failures.len(),
        checked,
        failures.join("\n")
    );
    assert_eq!(checked, 104, "the PTX 6.0 list should name 104 tests");
}
