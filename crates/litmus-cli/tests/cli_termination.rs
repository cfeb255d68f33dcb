//! `gpu-litmus check --termination`, run as a user runs it.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_litmus-cli"));
    c.env_remove("LITMUS_MODEL");
    c
}

/// Writes `tests` (name, text) into a scratch folder of this process.
fn files(tag: &str, tests: &[(&str, &str)]) -> Vec<PathBuf> {
    let dir = std::env::temp_dir().join(format!("gpu-litmus-term-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    tests
        .iter()
        .map(|(name, text)| {
            let p = dir.join(name);
            std::fs::write(&p, text).unwrap();
            p
        })
        .collect()
}

/// P1 waits for a flag P0 sets: every execution ends.
const WAITS: &str = "PTX waits
{ f=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.relaxed.gpu f, 1 | LC10:                ;
                     | ld.relaxed.gpu r0, f ;
                     | beq r0, 0, LC10      ;
exists (P1:r0 == 1)
";

/// Nobody sets the flag P1 waits for.
const SPINS: &str = "PTX spins
{ f=0; g=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.relaxed.gpu g, 1 | LC10:                ;
                     | ld.relaxed.gpu r0, f ;
                     | beq r0, 0, LC10      ;
exists (P1:r0 == 0)
";

#[test]
fn text_says_terminates_or_where_it_may_hang() {
    let paths = files("text", &[("waits.litmus", WAITS), ("spins.litmus", SPINS)]);
    let out = bin()
        .args(["check", "--termination"])
        .args(&paths)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].contains("waits under ptx: terminates ("),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains("spins under ptx: may hang: thread P1 spins at LC10 on f=0 ("),
        "{}",
        lines[1]
    );
}

#[test]
fn json_names_the_stuck_thread_its_loop_and_values() {
    let paths = files(
        "json",
        &[("spins.litmus", SPINS), ("missing.litmus", WAITS)],
    );
    std::fs::remove_file(&paths[1]).unwrap();
    let out = bin()
        .args(["check", "--termination", "--format", "json"])
        .args(&paths)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "a missing file fails the run");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["terminates"], false);
    let stuck = &lines[0]["stuck"][0];
    assert_eq!(stuck["thread"], "P1");
    assert_eq!(stuck["kind"], "spin");
    assert_eq!(stuck["label"], "LC10");
    assert_eq!(stuck["reads"][0]["location"], "f");
    assert_eq!(stuck["reads"][0]["value"], 0);
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("missing.litmus"));
}

#[test]
fn termination_refuses_the_herd_format_and_a_value() {
    for args in [
        vec!["check", "--termination", "--format", "herd", "x.litmus"],
        vec!["check", "--termination=yes", "x.litmus"],
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("--termination"), "{err}");
    }
}
