//! `gpu-litmus check`, run as a user runs it.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_litmus-cli"));
    c.env_remove("LITMUS_MODEL");
    c
}

/// A scratch folder for this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-litmus-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MP: &str = "PTX MP-relacq
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.weak x, 1        | ld.acquire.gpu r0, y ;
 st.release.gpu y, 1 | ld.weak r1, x        ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)
";

/// `ld.release` does not exist: an error at line 4, column 2.
const BROKEN: &str = "PTX broken
{ x=0; }
 P0@cta 0,gpu 0       ;
 ld.release.gpu r0, x ;
exists (P0:r0 == 0)
";

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn json_reports_each_file_and_errors_without_stopping() {
    let dir = scratch("json");
    let (mp, broken) = (dir.join("mp.litmus"), dir.join("broken.litmus"));
    std::fs::write(&mp, MP).unwrap();
    std::fs::write(&broken, BROKEN).unwrap();
    let missing = dir.join("missing.litmus");
    let out = bin()
        .args(["check", "--format", "json"])
        .args([&broken, &missing, &mp])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "a broken file fails the run");
    let lines = json_lines(&out.stdout);
    assert_eq!(
        lines.len(),
        3,
        "one object per file, the others still checked"
    );

    let err = lines[0]["error"].as_str().unwrap();
    assert_eq!(lines[0]["file"], broken.to_str().unwrap());
    assert!(
        err.contains("broken.litmus:4:2: `ld` does not take `.release` semantics"),
        "{err}"
    );
    assert!(lines[1]["error"].as_str().unwrap().contains("cannot read"));

    let m = &lines[2];
    assert_eq!(m["file"], mp.to_str().unwrap());
    assert_eq!(m["name"], "MP-relacq");
    assert_eq!(m["model"], "ptx");
    assert_eq!(m["quantifier"], "exists");
    assert_eq!(m["condition_reachable"], false);
    assert_eq!(m["claim_holds"], false);
    assert_eq!(m["verdict"], "forbidden");
    assert_eq!(m["schema"], "gpu-litmus/1");
    assert_eq!(m["observables"], serde_json::json!(["P1:r0", "P1:r1"]));
    let outcomes = m["allowed_outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 3);
    assert!(!outcomes.contains(&serde_json::json!([1, 0])));
    assert!(m["consistent_executions"].as_u64().unwrap() >= 3);
    assert!(
        m["candidate_executions"].as_u64().unwrap() >= m["consistent_executions"].as_u64().unwrap()
    );
    assert!(m["micros"].is_u64());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_model_is_chosen_by_flag_or_environment() {
    let dir = scratch("model");
    let mp = dir.join("mp.litmus");
    std::fs::write(&mp, MP).unwrap();
    let run = |cmd: &mut Command| json_lines(&cmd.output().unwrap().stdout).remove(0);
    let by_flag = run(bin()
        .args(["check", "--model", "ptx-2015", "--format=json"])
        .arg(&mp));
    assert_eq!(by_flag["model"], "ptx-2015");
    assert_eq!(
        by_flag["condition_reachable"], true,
        "ptx-2015 knows no release/acquire"
    );
    let by_env = run(bin()
        .env("LITMUS_MODEL", "sc")
        .args(["check", "--format", "json"])
        .arg(&mp));
    assert_eq!(by_env["model"], "sc");

    let bad = bin()
        .env("LITMUS_MODEL", "tso")
        .args(["check"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let msg = String::from_utf8(bad.stderr).unwrap();
    assert!(
        msg.contains("unknown model `tso` (from LITMUS_MODEL); the models are: ptx, sc, ptx-2015"),
        "{msg}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_contradicted_declared_verdict_fails_the_file() {
    let dir = scratch("declared");
    let f = dir.join("mp.litmus");
    std::fs::write(&f, MP.trim_end().to_string() + " => allowed\n").unwrap();
    let out = bin().args(["check"]).arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("declared `=> allowed` but the model says forbidden"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn herd_format_prints_herd7s_block_and_the_rest_on_stderr() {
    let dir = scratch("herd");
    let mp = dir.join("mp.litmus");
    std::fs::write(&mp, MP.trim_end().to_string() + " => allowed\n").unwrap();
    let broken = dir.join("broken.litmus");
    std::fs::write(&broken, BROKEN).unwrap();
    let out = bin()
        .args(["check", "--format", "herd"])
        .args([&broken, &mp])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let (head, time) = text.rsplit_once("Time MP-relacq ").unwrap();
    assert_eq!(
        head,
        "Test MP-relacq Allowed
States 3
1:r0=0; 1:r1=0;
1:r0=0; 1:r1=1;
1:r0=1; 1:r1=1;
No
Witnesses
Positive: 0 Negative: 3
Condition exists (1:r0=1 /\\ 1:r1=0)
Observation MP-relacq Never 0 3
"
    );
    // Seconds with two decimals, then the empty line that ends a block.
    assert!(
        time.len() == 6 && time.ends_with("\n\n") && time.as_bytes()[1] == b'.',
        "{time:?}"
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!(
            "{b}:4:2: `ld` does not take `.release` semantics; loads take .weak, .relaxed, .acquire or .volatile\n\
             {m}: declared `=> allowed` but the model says forbidden\n",
            b = broken.display(),
            m = mp.display()
        )
    );
    // Each command takes only its own formats.
    let wrong = bin()
        .args(["check", "--format", "litmus7"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8(wrong.stderr)
        .unwrap()
        .starts_with("error: unknown format `litmus7`; the formats are: text, json, herd\n"));
    std::fs::remove_dir_all(dir).unwrap();
}

/// herd7's GPU_PTX as the ASPLOS'15 paper prints it (its Figure 12, SB:
/// threads `T0 | T1`, `ScopeTree(grid(cta(warp T0) (warp T1)))`) checks
/// under `ptx-2015`, the model it was written for: no fence, so the SB
/// outcome is allowed. herd7's block is its herd-form twin's.
#[test]
fn the_asplos15_papers_sb_checks_under_ptx_2015() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../litmus-text/tests/data/gpu_ptx");
    let paper = corpus.join("asplos15/SB.litmus");
    let src = std::fs::read_to_string(&paper).unwrap();
    assert!(src.contains("\n T0 ") && src.contains("ScopeTree(grid(cta(warp T0) (warp T1)))"));
    let out = bin()
        .args(["check", "--model", "ptx-2015", "--format", "json"])
        .arg(&paper)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_lines(&out.stdout).remove(0);
    assert_eq!(
        (&v["name"], &v["model"], &v["verdict"], &v["claim_holds"]),
        (
            &Value::from("SB"),
            &Value::from("ptx-2015"),
            &Value::from("allowed"),
            &Value::from(true)
        ),
        "{v}"
    );
    // herd7's block, threads by number, the same as the `P0 | P1` twin's
    // but for the time.
    let herd = |file: &Path| {
        let out = bin()
            .args(["check", "--model", "ptx-2015", "--format", "herd"])
            .arg(file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", file.display());
        let text = String::from_utf8(out.stdout).unwrap();
        text.rsplit_once("Time SB ").unwrap().0.to_string()
    };
    let block = herd(&paper);
    assert!(
        block.starts_with("Test SB Allowed\nStates 4\n")
            && block.contains("\n0:r0=0; 1:r0=0;\n")
            && block.ends_with("Ok\nWitnesses\nPositive: 1 Negative: 3\nCondition exists (0:r0=0 /\\ 1:r0=0)\nObservation SB Sometimes 1 3\n"),
        "{block}"
    );
    assert_eq!(block, herd(&corpus.join("SB.litmus")));
}

#[test]
fn inline_values_and_the_end_of_options() {
    let dir = scratch("inline");
    // A file whose name starts with `-` is a file after `--`.
    let mp = dir.join("-mp.litmus");
    std::fs::write(&mp, MP).unwrap();
    let out = bin()
        .current_dir(&dir)
        .args([
            "check",
            "--format=json",
            "--model=sc",
            "--loop-bound=2",
            "--",
        ])
        .arg("-mp.litmus")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["file"], "-mp.litmus");
    assert_eq!(lines[0]["model"], "sc");
    assert_eq!(lines[0]["quantifier"], "exists");
    assert_eq!(lines[0]["verdict"], "forbidden");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn help_and_usage_errors() {
    let help = bin().args(["check", "--help"]).output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    let text = String::from_utf8(help.stdout).unwrap();
    for word in [
        "--model",
        "--format",
        "--loop-bound",
        "LITMUS_LOOP_BOUND",
        "--max-steps",
        "EXIT STATUS",
        "LITMUS_MODEL",
    ] {
        assert!(text.contains(word), "help lacks {word}");
    }
    let top = bin().arg("--help").output().unwrap();
    assert!(String::from_utf8(top.stdout).unwrap().contains("check"));
    for (args, message) in [
        (&["check"][..], "no files to check"),
        (&["check", "--format", "xml", "f"], "unknown format `xml`"),
        (&["check", "--format=xml", "f"], "unknown format `xml`"),
        (&["frobnicate"], "unknown command `frobnicate`"),
        (&["check", "--model"], "`--model` needs a value"),
        (&["check", "--bogus", "f"], "unknown option `--bogus`"),
        (
            &["check", "--loop-bound=0", "f"],
            "`--loop-bound` takes a whole number of at least 1, not `0`",
        ),
        (
            &["check", "--max-steps", "many", "f"],
            "`--max-steps` takes a whole number of at least 1, not `many`",
        ),
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

#[test]
fn corpus_files_give_dat3m_verdicts() {
    let Some(dir) = std::env::var_os("LITMUS_CONFORMANCE_DIR") else {
        println!("conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let dir = Path::new(&dir);
    // (file, Dat3M's result: does the claim hold)
    let cases = [
        ("Manual/MP-gpu.litmus", true, "not exists"),
        ("Manual/SB+bar-const-diff.litmus", false, "forall"),
        ("Manual/Ticketlock-same-gpu.litmus", false, "exists"),
        ("Barrier/quorum1-pass.litmus", true, "exists"),
    ];
    let out = bin()
        .args(["check", "--format", "json"])
        .args(cases.iter().map(|(f, _, _)| dir.join(f)))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out.stdout);
    for ((file, holds, quantifier), v) in cases.iter().zip(&lines) {
        assert_eq!(v["claim_holds"], *holds, "{file}: {v}");
        assert_eq!(v["quantifier"], *quantifier, "{file}");
    }
    let ticket = &lines[2];
    assert_eq!(
        ticket["bounded"], true,
        "the ticket lock spins: its loop is cut"
    );
}
