//! The progress bars of the long commands (`gen`, `mutants`, `campaign`;
//! `tune`'s searches a GPU, so no test here reaches it): on a terminal
//! (given by `script`, util-linux) a bar with the count and the time left;
//! off a terminal, with `--quiet` or with `LITMUS_QUIET=1`, not a byte of
//! one.

mod cli_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use cli_support::{bin, scratch, stderr, stdout};

fn repo(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.join(path).display().to_string()
}

/// Each command, what its bar says on a terminal, and a line its output
/// ends with whether or not the bar is drawn (the command ran through).
fn commands(dir: &Path) -> Vec<(Vec<String>, &'static str, &'static str)> {
    let gen = dir.join("gen").display().to_string();
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        (
            words(&["gen", "IRIW", "WRC", "--placements", "all"])
                .into_iter()
                .chain(words(&["--fences", "none,sc", "--out", &gen]))
                .collect(),
            "/32 ",
            "total: ",
        ),
        (
            words(&["mutants", "sc", "--evidence"])
                .into_iter()
                .chain([repo("evidence/h100-lanes"), repo("tests/litmus/files")])
                .collect(),
            "checking the tests 0/",
            "score = ",
        ),
        (
            words(&["campaign", "--launches", "1"])
                .into_iter()
                .chain([repo("tests/litmus/files")])
                .collect(),
            "[1/4] ",
            "4 tests",
        ),
    ]
}

/// What a terminal shows of `args` run under `script`, with `env` set and
/// no other `LITMUS_*` variable.
fn on_terminal(args: &[String], env: &[(&str, &str)]) -> String {
    let line = std::iter::once(env!("CARGO_BIN_EXE_litmus-cli").to_string())
        .chain(args.iter().map(|a| format!("'{a}'")))
        .collect::<Vec<_>>()
        .join(" ");
    let mut script = Command::new("script");
    script.args(["-qec", &line, "/dev/null"]);
    for (var, _) in std::env::vars_os() {
        if var.to_string_lossy().starts_with("LITMUS_") {
            script.env_remove(&var);
        }
    }
    let shown = script
        .envs(env.iter().copied())
        .output()
        .expect("`script` (util-linux) gives the command a terminal");
    String::from_utf8_lossy(&shown.stdout).into_owned()
}

/// A bar's bytes: a carriage return that rewrites a line, an escape
/// sequence, the time left.
fn has_bar(text: &str) -> bool {
    text.contains('\r') && text.contains("\x1b[") && text.contains(" left")
}

#[test]
fn no_bar_reaches_a_stderr_that_is_no_terminal() {
    let dir = scratch("progress-pipe");
    for (args, _, ran) in commands(&dir) {
        let _ = std::fs::remove_dir_all(dir.join("gen"));
        let out = bin().args(&args).output().unwrap();
        let (err, text) = (stderr(&out), stdout(&out));
        assert!(text.contains(ran), "{args:?}: {text}\n{err}");
        for bar in ["\r", "\x1b[", " left", "█"] {
            assert!(!err.contains(bar), "{args:?}: {bar:?} in {err:?}");
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_terminal_gets_a_bar_with_the_count_and_the_time_left() {
    let dir = scratch("progress-terminal");
    let gen: PathBuf = dir.join("gen");
    for (args, count, ran) in commands(&dir) {
        let _ = std::fs::remove_dir_all(&gen);
        let drawn = on_terminal(&args, &[]);
        assert!(drawn.contains(ran), "{args:?}: {drawn}");
        assert!(has_bar(&drawn), "{args:?}: {drawn:?}");
        assert!(drawn.contains(count), "{args:?}: {count:?} in {drawn:?}");
        // Asked for silence, by the flag or by the variable: no bar.
        let quiet: Vec<String> = args.iter().cloned().chain(["--quiet".into()]).collect();
        for (args, env) in [(&quiet, vec![]), (&args, vec![("LITMUS_QUIET", "1")])] {
            let _ = std::fs::remove_dir_all(&gen);
            let shown = on_terminal(args, &env);
            assert!(shown.contains(ran), "{args:?} {env:?}: {shown}");
            assert!(!shown.contains(" left"), "{args:?} {env:?}: {shown:?}");
            assert!(!shown.contains("\x1b["), "{args:?} {env:?}: {shown:?}");
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}
