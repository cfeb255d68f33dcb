//! Every command that reads `.litmus` files reads a location used but not
//! declared as initialised to 0 (herd7's and Dat3M's reading): the same
//! test with an empty init block checks, runs, explains and generates
//! exactly as with its locations declared.

mod cli_support;

use cli_support::{bin, scratch, stderr, stdout, write, MP_RELACQ, MP_RELACQ_UNDECLARED};

/// `gpu-litmus ARGS FILE` on the declared and on the undeclared version;
/// both stdouts, with each file's path replaced by `FILE`.
fn both(args: &[&str], name: &str) -> (String, String) {
    let dir = scratch(name);
    let run = |file: &str, text: &str| {
        let path = write(&dir, file, text);
        let out = bin().args(args).arg(&path).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?} {file}: {}",
            stderr(&out)
        );
        let text = stdout(&out).replace(&path.display().to_string(), "FILE");
        text.lines()
            .map(without_time)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let declared = run("declared.litmus", MP_RELACQ);
    let undeclared = run("undeclared.litmus", MP_RELACQ_UNDECLARED);
    std::fs::remove_dir_all(dir).unwrap();
    (declared, undeclared)
}

/// `line` without a closing `; 0.654 ms`, which differs from run to run.
fn without_time(line: &str) -> &str {
    match line.rsplit_once("; ") {
        Some((head, tail)) if tail.ends_with(" ms") => head,
        _ => line,
    }
}

#[test]
fn check_gives_the_declared_versions_verdict() {
    let (declared, undeclared) = both(&["check"], "undeclared-check");
    assert!(undeclared.contains("forbidden"), "{undeclared}");
    assert_eq!(undeclared, declared);
}

#[test]
fn run_gives_the_declared_versions_table() {
    // The model half is the same everywhere; the hardware's line (skipped
    // here) and, on a GPU, each outcome's count differ from run to run.
    let model_lines = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.contains("hardware") && !l.contains("seed="))
            .map(|l| {
                l.split_whitespace()
                    .map(|w| match w.bytes().all(|b| b.is_ascii_digit()) {
                        true => "COUNT",
                        false => w,
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    let (declared, undeclared) = both(&["run", "--launches", "1", "--seed", "1"], "undeclared-run");
    assert_eq!(model_lines(&undeclared), model_lines(&declared));
}

#[test]
fn explain_gives_the_declared_versions_witness() {
    let (declared, undeclared) = both(
        &["explain", "--outcome", "P1:r0=1; P1:r1=0"],
        "undeclared-explain",
    );
    assert!(undeclared.contains("forbids"), "{undeclared}");
    assert_eq!(undeclared, declared);
}

#[test]
fn ptx_gives_the_declared_versions_module() {
    let (declared, undeclared) = both(&["ptx"], "undeclared-ptx");
    assert!(undeclared.contains(".entry litmus_test("), "{undeclared}");
    assert_eq!(undeclared, declared);
}
