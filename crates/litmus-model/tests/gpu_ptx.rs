//! The held-in corpus of herd7's GPU_PTX dialect
//! (litmus-text's `tests/data/gpu_ptx/`) under `ptx-2015`, the ASPLOS'15
//! model the dialect was written for: scoped RMO, where `membar.cta`
//! orders only within a CTA, `membar.gl` within a device, `membar.sys`
//! everywhere, and a load may read older values than an earlier load of
//! the same location (CoRR).

mod common;
use common::*;

use std::path::PathBuf;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../litmus-text/tests/data/gpu_ptx")
}

/// Every file of the corpus and its verdict under `ptx-2015`.
///
/// `asplos15/` holds SB, MP, CoRR and IRIW as the ASPLOS'15 paper prints
/// its listings (threads `T0 | T1`, registers still `0:` and `1:`,
/// `ScopeTree(grid(...))`; SB with its Figure 12's tree, two warps of one
/// CTA), each the twin of the `P0 | P1` file of its name. The
/// instructions are the held-in corpus's (`ld.cg`/`st.cg` on `.s32`, no
/// fences), not copied from the paper, which this repository does not
/// hold. None has a fence, so `ptx-2015` allows all four: SB, MP and IRIW
/// as weak behaviours the paper's model allows without fences, and CoRR
/// because the model leaves read-read pairs out of coherence (the paper
/// observed CoRR on Fermi and Kepler, and its model allows it).
const VERDICTS: &[(&str, bool)] = &[
    ("SB.litmus", ALLOW),
    ("MP.litmus", ALLOW),
    ("asplos15/SB.litmus", ALLOW),
    ("asplos15/MP.litmus", ALLOW),
    ("asplos15/CoRR.litmus", ALLOW),
    ("asplos15/IRIW.litmus", ALLOW),
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

/// The `.litmus` files of `sub` (under the corpus folder), named by their
/// path from it.
fn files_in(sub: &str) -> Vec<String> {
    std::fs::read_dir(corpus_dir().join(sub))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".litmus"))
        .map(|n| {
            if sub.is_empty() {
                n
            } else {
                format!("{sub}/{n}")
            }
        })
        .collect()
}

#[test]
fn every_corpus_file_has_its_ptx_2015_verdict() {
    let mut names = files_in("");
    names.extend(files_in("asplos15"));
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

/// Each test in the ASPLOS'15 paper's form (`asplos15/`, threads `T<n>`)
/// has the verdict of its herd-form twin (`P<n>`), and both read to the
/// same test; the paper's verdicts themselves are in [`VERDICTS`].
#[test]
fn the_papers_form_has_its_herd_twins_verdict() {
    let paper = files_in("asplos15");
    assert_eq!(paper.len(), 4, "{paper:?}");
    for name in paper {
        let src = std::fs::read_to_string(corpus_dir().join(&name)).unwrap();
        let twin = name.trim_start_matches("asplos15/");
        let twin_src = std::fs::read_to_string(corpus_dir().join(twin)).unwrap();
        assert!(
            src.contains("\n T0 ") && twin_src.contains("\n P0 "),
            "{name}"
        );
        let read = |s: &str| litmus_text::parse(s).unwrap();
        assert_eq!(read(&src), read(&twin_src), "{name} and {twin}");
        assert_eq!(
            verdict(&src, "ptx-2015"),
            verdict(&twin_src, "ptx-2015"),
            "{name} and {twin}"
        );
    }
}
