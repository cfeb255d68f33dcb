//! `gpu-litmus gen`, run as a user runs it: files named after their tests,
//! the model's verdict written in, readable back, and `check` agreeing.

mod cli_support;

use std::path::Path;

use cli_support::{bin, scratch, stderr, stdout};
use litmus_model::{check, model_by_name, Options};
use litmus_text as text;

fn gen(args: &[&str]) -> std::process::Output {
    bin().arg("gen").args(args).output().unwrap()
}

fn litmus_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
        .collect();
    files.sort();
    files
}

#[test]
fn a_family_is_written_with_verdicts_and_reads_back() {
    let dir = scratch("gen-family");
    let out = gen(&[
        "IRIW",
        "MP",
        "--placements",
        "all",
        "--scopes",
        "cta,gpu",
        "--fences",
        "none,sc",
        "--fence-threads",
        "each",
        "--sem",
        "relaxed,acq_rel",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary = stdout(&out);
    assert!(
        summary.contains("IRIW: 240 variants, 148 tests"),
        "{summary}"
    );
    assert!(summary.contains("MP: 32 variants, 32 tests"), "{summary}");
    let files = litmus_files(&dir);
    assert!(files
        .iter()
        .any(|f| f.ends_with("IRIW+cta01_2_3+gpu+fence.sc.gpu@1,3.litmus")));
    let model = model_by_name("ptx").unwrap();
    let (mut allowed, mut forbidden) = (0, 0);
    for file in &files {
        let written = std::fs::read_to_string(file).unwrap();
        let test = text::parse(&written).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert_eq!(
            text::print(&test),
            written,
            "{} round-trips",
            file.display()
        );
        assert_eq!(
            file.file_name().unwrap().to_str().unwrap(),
            format!("{}.litmus", test.name.text)
        );
        let declared = test.verdict.expect("a verdict is written in").verdict;
        let result = check(&test, model, &Options::default()).unwrap();
        assert_eq!(declared, result.verdict(), "{}", file.display());
        match declared.as_str() {
            "allowed" => allowed += 1,
            _ => forbidden += 1,
        }
    }
    assert!(
        summary.contains(&format!(
        "total: 272 variants, {} tests after duplicates ({allowed} allowed, {forbidden} forbidden)",
        files.len()
    )),
        "{summary}"
    );
    // The folder is ready for `check`: every verdict agrees.
    let checked = bin().arg("check").args(&files).output().unwrap();
    assert_eq!(checked.status.code(), Some(0), "{}", stdout(&checked));
}

#[test]
fn a_cycle_is_written_with_the_verdict_of_the_model_asked_for() {
    let dir = scratch("gen-cycle");
    for (model, verdict) in [("ptx", "allowed"), ("sc", "forbidden")] {
        let out = gen(&[
            "--cycle",
            "PodWR Fre PodWR Fre",
            "--model",
            model,
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let file = dir.join("PodWR-Fre-PodWR-Fre+cta0_1+gpu.litmus");
        let written = std::fs::read_to_string(&file).unwrap();
        assert!(
            written.ends_with(&format!("=> {verdict}\n")),
            "{model}: {written}"
        );
    }
}

#[test]
fn bad_command_lines_say_what_and_where_and_write_nothing() {
    let dir = scratch("gen-errors");
    let d = dir.to_str().unwrap();
    for (args, says) in [
        (vec!["MPP", "--out", d], "unknown shape `MPP`"),
        (
            vec!["MP", "--placements", "cta0_0", "--out", d],
            "--placements `cta0_0`: thread 0 is in two groups",
        ),
        (
            vec!["MP", "--scopes", "grid", "--out", d],
            "--scopes `grid`: not a scope",
        ),
        (
            vec!["MP", "--fences", "full", "--out", d],
            "--fences `full`",
        ),
        (
            vec!["IRIW", "--fences", "sc", "--fence-threads", "0", "--out", d],
            "thread 0 of IRIW has fewer than two accesses",
        ),
        (vec!["MP", "--sem", "strong", "--out", d], "--sem `strong`"),
        (
            vec!["MP", "--memory", "local", "--out", d],
            "--memory `local`",
        ),
        (
            vec!["MP", "--memory", "shared", "--out", d],
            "shared memory needs every thread in one CTA",
        ),
        (
            vec!["--cycle", "PodWW Rfe DpAddrdR Fre", "--out", d],
            "edge 3 `DpAddrdR` of the cycle cannot be expressed",
        ),
        (
            vec!["--cycle", "PodWW Rfe PodWR Fre", "--out", d],
            "edge 2 `Rfe` ends in a read but edge 3 `PodWR` starts from a write",
        ),
        (
            vec!["MP", "--colour", "red", "--out", d],
            "unknown option `--colour`",
        ),
        (vec!["MP"], "`--out DIR` is required"),
        (vec!["--out", d], "nothing to generate"),
        (vec!["MP", "--model", "tso", "--out", d], "tso"),
    ] {
        let out = gen(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
    assert!(litmus_files(&dir).is_empty());
}

#[test]
fn help_lists_the_shapes_and_the_cycle_language() {
    let out = gen(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = stdout(&out);
    for word in [
        "IRIW",
        "WRW+2W",
        "Fence.sc.gpudWW",
        "--fence-threads",
        "DpAddr",
    ] {
        assert!(help.contains(word), "{word}");
    }
    let top = bin().arg("--help").output().unwrap();
    assert!(stdout(&top).contains("gen "), "{}", stdout(&top));
}
