//! `gpu-litmus check` and `run` over many files: checked in parallel,
//! reported in the order given; `check --all-executions` counts every
//! execution.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_litmus-cli"));
    c.env_remove("LITMUS_MODEL");
    c
}

/// The repository's `.litmus` files, in reverse path order (not an order
/// the files would come out in by chance), each twice.
fn files() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/litmus");
    let mut files = Vec::new();
    for dir in ["equal", "files"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            files.push(e.unwrap().path().display().to_string());
        }
    }
    files.sort();
    files.reverse();
    files.extend(files.clone());
    files
}

fn json_files(args: &[&str], files: &[String]) -> Vec<Value> {
    let out = bin().args(args).args(files).output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn check_and_run_report_files_in_the_order_given() {
    let files = files();
    for command in ["check", "run"] {
        let lines = json_files(&[command, "--format", "json"], &files);
        let reported: Vec<&str> = lines.iter().map(|v| v["file"].as_str().unwrap()).collect();
        assert_eq!(reported, files, "{command}");
    }
}

#[test]
fn all_executions_counts_every_execution_with_the_same_outcomes() {
    let file = files()
        .into_iter()
        .find(|f| f.ends_with("atomics_cas_exch_red.litmus"))
        .unwrap();
    let fast = &json_files(&["check", "--format", "json"], std::slice::from_ref(&file))[0];
    let all = &json_files(
        &["check", "--format", "json", "--all-executions"],
        std::slice::from_ref(&file),
    )[0];
    assert_eq!(fast["allowed_outcomes"], all["allowed_outcomes"]);
    assert_eq!(fast["verdict"], all["verdict"]);
    let consistent = |v: &Value| v["consistent_executions"].as_u64().unwrap();
    assert!(
        consistent(all) > consistent(fast),
        "the full enumeration finds more executions than one per outcome: {} vs {}",
        consistent(all),
        consistent(fast)
    );
}

#[test]
fn all_executions_takes_no_value() {
    let out = bin()
        .args(["check", "--all-executions=yes", "x.litmus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("`--all-executions` takes no value"));
}
