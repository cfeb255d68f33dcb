//! The held-in corpus of herd7's GPU_PTX dialect
//! (litmus-core's `tests/data/gpu_ptx/`) under `ptx-2015`, the ASPLOS'15
//! model the dialect was written for: scoped RMO, where `membar.cta`
//! orders only within a CTA, `membar.gl` within a device, `membar.sys`
//! everywhere, and a load may read older values than an earlier load of
//! the same location (CoRR).

mod common;
use common::*;

use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../litmus-core/tests/data/gpu_ptx")
}

/// Every file of the corpus and its verdict under `ptx-2015`.
const VERDICTS: &[(&str, bool)] = &[
    // Read-read coherence is not required (SC per location, read-read
    // pairs left out): observed on Fermi and Kepler, allowed.
    ("CoRR.litmus", ALLOW),
    ("CoRR+volatile.litmus", ALLOW),
    ("MP+membar.gl.litmus", FORBID),
    ("MP+membar.cta.litmus", ALLOW),
    ("MP+membar.cta+warps.litmus", ALLOW),
    // The model ignores cache operators.
    ("MP+membar.gl+ca.litmus", FORBID),
    // `membar.gl` orders within one device only.
    ("MP+membar.gl+2gpus.litmus", ALLOW),
    // `~exists`: the verdict on the outcome it names.
    ("MP+membar.sys+2gpus.litmus", FORBID),
    // Volatile accesses are plain accesses to this model.
    ("MP+volatile.litmus", ALLOW),
    ("SB+membar.cta.litmus", ALLOW),
    ("SB+membar.gl.litmus", FORBID),
    ("SB+membar.cta+shared.litmus", FORBID),
    ("IRIW.litmus", ALLOW),
    ("IRIW+membar.gl.litmus", FORBID),
    ("LB.litmus", ALLOW),
    // Control dependencies (setp, @p bra) on both sides: no thin air.
    ("LB+ctrls.litmus", FORBID),
    ("WRC+membar.gls.litmus", FORBID),
    ("ATOM+add.litmus", FORBID),
    ("CAS+exch.litmus", FORBID),
];

const ALLOW: bool = true;
const FORBID: bool = false;

#[test]
fn every_corpus_file_has_its_ptx_2015_verdict() {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".litmus"))
        .collect();
    names.sort();
    let mut listed: Vec<String> = VERDICTS.iter().map(|(n, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(
        names, listed,
        "the table and the folder list different files"
    );
    let mut wrong = Vec::new();
    for (name, allowed) in VERDICTS {
        let src = std::fs::read_to_string(corpus_dir().join(name)).unwrap();
        let want = if *allowed { ALLOWED } else { FORBIDDEN };
        let got = verdict(&src, "ptx-2015");
        if got != want {
            wrong.push(format!("{name}: {got:?}, expected {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "ptx-2015:\n{}", wrong.join("\n"));
}

/// The scope tree is what decides: the same MP with `membar.cta` is
/// forbidden when both threads share a CTA.
#[test]
fn the_scope_tree_decides_membar_cta() {
    let src = std::fs::read_to_string(corpus_dir().join("MP+membar.cta.litmus")).unwrap();
    assert_eq!(verdict(&src, "ptx-2015"), ALLOWED);
    let one_cta = src.replace(
        "(device (cta P0) (cta P1))",
        "(device (cta (warp P0) (warp P1)))",
    );
    assert_ne!(one_cta, src);
    assert_eq!(verdict(&one_cta, "ptx-2015"), FORBIDDEN);
}
