//! `gpu-litmus explain`, run as a user runs it.

mod cli_support;

use std::path::Path;

use cli_support::{bin, scratch, stderr, stdout, write, BROKEN, MP_RELACQ};

#[test]
fn explains_a_forbidden_outcome_with_axiom_and_witness() {
    let dir = scratch("explain-text");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let explain = |outcome: &str| {
        let out = bin()
            .args(["explain", "--outcome", outcome])
            .arg(&mp)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let text = explain("P1:r0=1; P1:r1=0");
    assert!(
        text.starts_with("MP-relacq: model ptx forbids the outcome\n"),
        "{text}"
    );
    assert!(
        text.contains("P1:r0=1; P1:r1=0 — Causality fails"),
        "{text}"
    );
    for edge in [
        "P1#1 R.weak x=0 -fr-> P0#0 W.weak x=1",
        "-po-> P0#1 W.release.gpu y=1",
        "-sw-> P1#0 R.acquire.gpu y=1",
    ] {
        assert!(text.contains(edge), "{edge:?} missing from:\n{text}");
    }
    // Other spellings and orders of the same outcome explain the same.
    for other in [
        "P1:r1 == 0 /\\ P1:r0 == 1",
        "(P1:r0=1, P1:r1=0)",
        " P1:r0 = 0x1 ;P1:r1=0 ",
    ] {
        assert_eq!(explain(other), text, "{other}");
    }
    // Without --outcome: the outcomes the condition describes, here the same.
    let out = bin().args(["explain"]).arg(&mp).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), text);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_allowed_outcome_is_said_to_be_allowed() {
    let dir = scratch("explain-allowed");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = bin()
        .args(["explain", "--outcome", "P1:r0=0; P1:r1=0"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).starts_with("MP-relacq: model ptx allows the outcome ("),
        "{}",
        stdout(&out)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn negative_values_are_read_as_the_test_writes_them() {
    let dir = scratch("explain-negative");
    let neg = write(
        &dir,
        "neg.litmus",
        "PTX neg
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, -1  | ld.weak r0, x  ;
exists (P1:r0 == -1 /\\ x == -1)
",
    );
    let explain = |outcome: &str| {
        let out = bin()
            .args(["explain", "--outcome", outcome])
            .arg(&neg)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{outcome}: {}", stderr(&out));
        stdout(&out)
    };
    let text = explain("P1:r0=-1; x=-1");
    assert!(
        text.starts_with("neg: model ptx allows the outcome ("),
        "{text}"
    );
    // -1 is the word 0xffffffff, as the model reads the test.
    assert_eq!(explain("P1:r0=0xffffffff; x=4294967295"), text);
    // The write of -1 always lands: a final x of 0 is never produced.
    let never = explain("P1:r0=-1; x=0");
    assert!(never.starts_with("neg: model ptx: no candidate"), "{never}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn dot_gives_a_graphviz_graph() {
    let dir = scratch("explain-dot");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = bin()
        .args(["explain", "--dot", "--outcome", "P1:r0=1; P1:r1=0"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let dot = stdout(&out);
    assert!(
        dot.starts_with("digraph \"MP-relacq under ptx\" {"),
        "{dot}"
    );
    assert!(
        dot.contains("label=\"P1:r0=1; P1:r1=0: Causality\""),
        "{dot}"
    );
    assert!(
        dot.contains("[label=\"fr\"]") && dot.contains("[label=\"sw\"]"),
        "{dot}"
    );
    assert!(dot.contains("[label=\"P1#1 R.weak x=0\"]"), "{dot}");
    assert!(dot.trim_end().ends_with('}'), "{dot}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_model_can_be_chosen() {
    let dir = scratch("explain-model");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let sc = bin()
        .args(["explain", "--model", "sc"])
        .arg(&mp)
        .output()
        .unwrap();
    assert!(
        stdout(&sc).starts_with("MP-relacq: model sc forbids the outcome"),
        "{}",
        stdout(&sc)
    );
    let old = bin()
        .env("LITMUS_MODEL", "ptx-2015")
        .args(["explain"])
        .arg(&mp)
        .output()
        .unwrap();
    assert!(
        stdout(&old).starts_with("MP-relacq: model ptx-2015 allows the outcome"),
        "{}",
        stdout(&old)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_bad_outcome_gets_a_clear_error() {
    let dir = scratch("explain-bad");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    for (outcome, message) in [
        (
            "P2:r0=1; P1:r1=0",
            "unknown observable `P2:r0`; the observables are: P1:r0, P1:r1",
        ),
        (
            "P1:r0=1",
            "the outcome must give every observable; missing: P1:r1",
        ),
        (
            "P1:r0=one; P1:r1=0",
            "bad value `one` for P1:r0: expected a whole number from -2147483648 to 4294967295",
        ),
        ("P1:r0 1; P1:r1=0", "expected `NAME=VALUE`, found `P1:r0 1`"),
        ("P1:r0=1; P1:r0=1; P1:r1=0", "P1:r0 is given twice"),
    ] {
        let out = bin()
            .args(["explain", "--outcome", outcome])
            .arg(&mp)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{outcome}");
        let err = stderr(&out);
        assert!(
            err.starts_with(&format!("error: --outcome: {message}")),
            "{outcome}: {err}"
        );
        assert!(stdout(&out).is_empty());
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_files_and_command_lines() {
    let dir = scratch("explain-usage");
    let broken = write(&dir, "broken.litmus", BROKEN);
    let out = bin().args(["explain"]).arg(&broken).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(&format!(
            "{}:4:2: `ld` does not take `.release` semantics",
            broken.display()
        )),
        "{}",
        stderr(&out)
    );
    for (args, message) in [
        (&["explain"][..], "no file to explain"),
        (&["explain", "--dot=yes", "a"], "`--dot` takes no value"),
        (&["explain", "a", "--outcome"], "`--outcome` needs a value"),
        (&["explain", "--model", "tso", "a"], "unknown model `tso`"),
        (
            &["explain", "--reasons", "0", "a"],
            "`--reasons` takes a whole number of at least 1",
        ),
        (
            &["explain", "--loop-bound=0", "a"],
            "`--loop-bound` takes a whole number of at least 1, not `0`",
        ),
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    let help = bin().args(["explain", "--help"]).output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    for word in [
        "--outcome",
        "--model",
        "--dot",
        "--reasons",
        "--loop-bound",
        "LITMUS_LOOP_BOUND",
        "LITMUS_MODEL",
        "EXIT STATUS",
    ] {
        assert!(stdout(&help).contains(word), "explain --help lacks {word}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn corpus_file_explained() {
    let Some(dir) = std::env::var_os("LITMUS_CONFORMANCE_DIR") else {
        println!("conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let file = Path::new(&dir).join("Manual/MP-gpu.litmus");
    let out = bin()
        .args(["explain", "--outcome", "P1:r1=1; P1:r2=0"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("MP-gpu: model ptx forbids the outcome"),
        "{text}"
    );
    assert!(text.contains("-fr->"), "{text}");
}
