//! The PTX 7.5 corpus: `claim_holds` under `ptx-7.5` must equal Dat3M's
//! result on every line of `expected-ptx-v7.5.csv` (172 tests: the PTX 6.0
//! ones and 68 with proxies and aliases). Read from `LITMUS_CONFORMANCE_DIR`.

mod common;

#[test]
fn ptx75_verdicts_match_dat3m() {
    let Some(dir) = std::env::var_os("LITMUS_CONFORMANCE_DIR") else {
        println!("conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let (checked, failures) =
        common::disagreements(dir.as_ref(), litmus_core::corpus::PTX_V75, "ptx-7.5");
    println!(
        "conformance: ptx-7.5 agrees with Dat3M on {} of {checked} tests",
        checked - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} corpus tests disagree with Dat3M:\n{}",
        failures.len(),
        checked,
        failures.join("\n")
    );
    assert_eq!(checked, 172, "the PTX 7.5 list should name 172 tests");
}

/// Dat3M's own `cat/ptx-v7.5.cat`, run unchanged by the cat interpreter
/// (its proxy bases `GEN`, `SUR`, `TEX`, `CON`, `ALIAS` and `vloc`), on the
/// same list.
#[test]
fn dat3m_ptx_v75_cat_agrees_with_dat3m() {
    let Some(dir) = std::env::var_os("LITMUS_CONFORMANCE_DIR") else {
        println!("cat conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let cat = std::path::Path::new(&dir).join("cat/ptx-v7.5.cat");
    let (checked, failures) = common::disagreements(
        dir.as_ref(),
        litmus_core::corpus::PTX_V75,
        cat.to_str().expect("a UTF-8 corpus path"),
    );
    println!(
        "cat conformance: ptx-v7.5.cat agrees with Dat3M on {} of {checked} tests",
        checked - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} corpus tests disagree with Dat3M:\n{}",
        failures.len(),
        checked,
        failures.join("\n")
    );
    assert_eq!(checked, 172, "the PTX 7.5 list should name 172 tests");
}
