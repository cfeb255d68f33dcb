//! The conformance corpus: `claim_holds` must equal Dat3M's result on every
//! line of `expected-ptx-v6.csv` (1 = the claim holds under PTX 6.0). The
//! corpus is read from `LITMUS_CONFORMANCE_DIR`.

mod common;

#[test]
fn corpus_verdicts_match_dat3m() {
    common::assert_agreement(litmus_core::corpus::PTX_V6, "ptx", 104);
}
