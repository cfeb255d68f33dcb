//! What the command line does for every command since it is clap's: the
//! nearest name for a mistyped command or option, folders wherever tests
//! are taken, shell completions, `--quiet`, and the renamed flags.

mod cli_support;

use std::path::Path;
use std::process::Output;

use cli_support::{bin, scratch, stderr, stdout, write, MP_RELACQ};

/// The same test under another name, so that a folder holds two.
const SB: &str = "PTX SB
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak y, 1   ;
 ld.weak r0, y  | ld.weak r1, x  ;
exists (P0:r0 == 0 /\\ P1:r1 == 0)
";

fn run(args: &[&str], dir: &Path) -> Output {
    bin().args(args).arg(dir).output().unwrap()
}

/// A usage error is one `error:` line that names the nearest command or
/// option, then the usage and where the help is; exit 2.
#[test]
fn a_mistyped_command_or_option_gets_the_nearest() {
    for (args, said) in [
        (
            &["chekc", "x"][..],
            "error: unknown command `chekc`; did you mean `check`?\n",
        ),
        (
            &["campain"],
            "error: unknown command `campain`; did you mean `campaign`?\n",
        ),
        (
            &["check", "--loop-bond", "2", "x"],
            "error: unknown option `--loop-bond`; did you mean `--loop-bound`?\n",
        ),
        (
            &["explain", "--outcom", "P1:r0=1", "x"],
            "error: unknown option `--outcom`; did you mean `--outcome`?\n",
        ),
        // A negative number is the option's value, refused by its rule.
        (
            &["check", "--max-events", "-1", "x"],
            "error: `--max-events` takes a whole number of at least 1, not `-1`\n",
        ),
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.starts_with(said), "{args:?}: {err}");
        assert!(err.contains("For more, try `gpu-litmus"), "{args:?}: {err}");
    }
    // A command of a command: the help named is its own.
    let out = bin()
        .args(["evidence", "import", "--tset", "t", "log"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with("error: unknown option `--tset`; did you mean `--tests`?\n")
            && err.contains("For more, try `gpu-litmus evidence import --help`."),
        "{err}"
    );
    // Nothing near: no guess.
    let out = bin().arg("zzzzzz").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).lines().next(),
        Some("error: unknown command `zzzzzz`")
    );
}

/// A folder is read for every .litmus file under it, by every command
/// that takes tests.
#[test]
fn a_folder_is_taken_wherever_tests_are() {
    let dir = scratch("clap-folder");
    let tests = dir.join("tests");
    std::fs::create_dir_all(tests.join("sub")).unwrap();
    write(&tests, "mp.litmus", MP_RELACQ);
    write(&tests.join("sub"), "sb.litmus", SB);
    // A test's line names it, or (a campaign's on a GPU) its file.
    let names = |out: &Output, what: &str| {
        let text = stdout(out);
        for (name, file) in [("MP-relacq", "mp.litmus"), ("SB", "sb.litmus")] {
            assert!(
                text.contains(name) || text.contains(file),
                "{what}: {name}: {text}{}",
                stderr(out)
            );
        }
    };
    let out = run(&["check"], &tests);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    names(&out, "check");
    let out = run(&["explain"], &tests);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    names(&out, "explain");
    // The GPU's commands: without one, each test still says its name.
    for args in [
        &["run", "--launches", "1"][..],
        &["campaign", "--launches", "1"],
    ] {
        let out = run(args, &tests);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        names(&out, args[0]);
    }
    // The commands that took folders already: gate and mutants judge both
    // tests (no evidence here: mutants are killed by the verdict MP
    // declares), tune's split counts them.
    let evidence = dir.join("evidence");
    std::fs::create_dir_all(&evidence).unwrap();
    let out = bin()
        .args(["gate", "--model", "ptx", "--evidence"])
        .arg(&evidence)
        .arg(&tests)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("gate: 2 tests"),
        "{}",
        stdout(&out)
    );
    let out = bin()
        .args(["mutants", "ptx", "--evidence"])
        .arg(&evidence)
        .arg(&tests)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stdout(&out).contains("by verdicts 0,"), "{}", stdout(&out));
    let out = bin()
        .args(["tune", "--budget-ms", "5", "--shard", "1/1", "--tuning"])
        .arg(dir.join("tuning.toml"))
        .arg(&tests)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("2 of 2 tests"), "{}", stdout(&out));
    // A folder without a test fails, naming it.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    for command in ["check", "explain", "run", "campaign"] {
        let out = run(&[command], &empty);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(
            stderr(&out).contains("no .litmus file in this folder"),
            "{command}: {}",
            stderr(&out)
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// `gpu-litmus completions bash` is a script bash reads without a
/// mistake, and it knows the commands and their options.
#[test]
fn bash_completions_are_bash() {
    let out = bin().args(["completions", "bash"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let script = stdout(&out);
    for word in ["campaign", "--loop-bound", "--outcome"] {
        assert!(script.contains(word), "{word}");
    }
    let dir = scratch("clap-completions");
    let file = write(&dir, "gpu-litmus.bash", &script);
    let checked = std::process::Command::new("bash")
        .arg("-n")
        .arg(&file)
        .output()
        .unwrap();
    assert!(checked.status.success(), "{}", stderr(&checked));
    let out = bin().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

/// `--tuning FILE` is the tuning file on every command; tune's old
/// `--out` still works, with one note naming the new spelling (none with
/// `--quiet`), and the two together are refused.
#[test]
fn tune_writes_the_tuning_file_of_tuning_and_out_is_its_old_name() {
    let dir = scratch("clap-tuning");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let old = dir.join("old.toml");
    let out = bin()
        .args(["tune", "--budget-ms", "5", "--out"])
        .arg(&old)
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("note: `--out` is now `--tuning`"),
        "{}",
        stderr(&out)
    );
    // The file it names is the one the run tunes into (or says it skipped).
    let said = stdout(&out);
    assert!(
        said.starts_with("tune: skipped, ") || said.contains(&old.display().to_string()),
        "{said}"
    );
    let quiet = bin()
        .args(["tune", "-q", "--budget-ms", "5", "--out"])
        .arg(&old)
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(quiet.status.code(), Some(0), "{}", stderr(&quiet));
    assert!(!stderr(&quiet).contains("note:"), "{}", stderr(&quiet));
    let both = bin()
        .args(["tune", "--tuning", "a.toml", "--out", "b.toml"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(2));
    assert!(stderr(&both).starts_with("error: "), "{}", stderr(&both));
    std::fs::remove_dir_all(dir).unwrap();
}

/// The search's pool is `--tune-configs` on `tune` and `campaign --tune`
/// alike, and `--configs` is the same option on both.
#[test]
fn configs_and_tune_configs_are_one_option_on_tune_and_campaign() {
    for args in [
        &["tune", "--configs", "1"][..],
        &["tune", "--tune-configs", "1"],
        &["campaign", "--tune", "--configs", "1"],
        &["campaign", "--tune", "--tune-configs", "1"],
    ] {
        let out = bin().args(args).arg("x.litmus").output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).starts_with(
                "error: `--tune-configs` takes a whole number of at least 2, not `1`\n"
            ),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // Without --tune a campaign has no search to give a pool to.
    let out = bin()
        .args(["campaign", "--configs", "4", "x.litmus"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("go with `--tune`"),
        "{}",
        stderr(&out)
    );
}

/// `--verbose` writes a line per file as it starts, off a terminal too;
/// `--quiet` wipes even the terminal's bar (run under `script`, which
/// gives the command a terminal).
#[test]
fn verbose_says_each_file_and_quiet_says_none() {
    let dir = scratch("clap-quiet");
    write(&dir, "mp.litmus", MP_RELACQ);
    write(&dir, "sb.litmus", SB);
    for command in ["run", "campaign"] {
        let out = bin()
            .args([command, "-v", "--launches", "1"])
            .arg(&dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{command}: {}", stderr(&out));
        let err = stderr(&out);
        for line in ["[1/2] ", "[2/2] "] {
            assert!(err.contains(line), "{command}: {line}: {err}");
        }
        // On a terminal the bar is drawn, and --quiet leaves it out.
        let on_terminal = |quiet: &[&str]| {
            let line = [env!("CARGO_BIN_EXE_litmus-cli"), command, "--launches", "1"]
                .iter()
                .chain(quiet)
                .map(|w| w.to_string())
                .chain([dir.display().to_string()])
                .collect::<Vec<_>>()
                .join(" ");
            let shown = std::process::Command::new("script")
                .args(["-qec", &line, "/dev/null"])
                .output()
                .expect("`script` (util-linux) gives the command a terminal");
            String::from_utf8_lossy(&shown.stdout).into_owned()
        };
        let drawn = on_terminal(&[]);
        assert!(drawn.contains("[1/2] "), "{command}: {drawn}");
        let quiet = on_terminal(&["--quiet"]);
        // The test's line stays (a campaign's names the file on a GPU).
        assert!(
            quiet.contains("MP-relacq") || quiet.contains("mp.litmus"),
            "{command}: {quiet}"
        );
        assert!(!quiet.contains("[1/2] "), "{command}: {quiet}");
    }
    let both = bin().args(["run", "-q", "-v", "x"]).output().unwrap();
    assert_eq!(both.status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

/// Every command that takes a model lists the registry's models in its
/// help, so that a model added to `litmus_model::MODELS` is in every help.
#[test]
fn every_model_option_lists_the_registry() {
    let names = litmus_model::model_names();
    for command in [
        "check", "run", "campaign", "tune", "explain", "gen", "gate", "report", "diff",
    ] {
        let out = bin().args([command, "--help"]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{command}");
        // clap wraps the help: compare it with its line breaks undone.
        let help = stdout(&out)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(help.contains(&format!("{names}, or")), "{command}: {help}");
    }
}

/// A command that writes a file or folder names it with `--out`; the old
/// spellings (`report --html`, `evidence import --into`, `evidence merge
/// OUT DIR...`) are the same option.
#[test]
fn outputs_are_named_by_out() {
    let dir = scratch("clap-out");
    let evidence = dir.join("evidence");
    std::fs::create_dir_all(&evidence).unwrap();
    for args in [
        &["report", "--evidence", "e"][..],
        &["evidence", "import", "--tests", "t", "log"],
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).starts_with("error: `--out` is required"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let merged = dir.join("merged");
    let out = bin()
        .args(["evidence", "merge", "--out"])
        .arg(&merged)
        .arg(&evidence)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(merged.is_dir());
    assert!(stdout(&out).starts_with("merged 0 records from 0 files"));
    std::fs::remove_dir_all(dir).unwrap();
}
