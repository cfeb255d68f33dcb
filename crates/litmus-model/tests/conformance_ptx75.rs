//! The PTX 7.5 corpus: `claim_holds` must equal Dat3M's result on every
//! line of `expected-ptx-v7.5.csv` (172 tests: the PTX 6.0 ones and 68
//! with proxies and aliases), under the built-in `ptx-7.5` and under
//! Dat3M's own `cat/ptx-v7.5.cat`. Read from `LITMUS_CONFORMANCE_DIR`.

mod common;

use litmus_core::corpus::PTX_V75;

#[test]
fn ptx75_verdicts_match_dat3m() {
    common::assert_agreement(PTX_V75, "ptx-7.5", 172);
}

/// The cat file runs unchanged through the cat interpreter's proxy bases
/// (`GEN`, `SUR`, `TEX`, `CON`, `ALIAS`, `vloc`).
#[test]
fn dat3m_ptx_v75_cat_agrees_with_dat3m() {
    common::assert_agreement(PTX_V75, "cat/ptx-v7.5.cat", 172);
}
