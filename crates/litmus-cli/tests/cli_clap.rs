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
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.starts_with(said), "{args:?}: {err}");
        assert!(err.contains("For more, try `gpu-litmus"), "{args:?}: {err}");
    }
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
    let names = |out: &Output, what: &str| {
        let text = stdout(out);
        for name in ["MP-relacq", "SB"] {
            assert!(text.contains(name), "{what}: {name}: {text}{}", stderr(out));
        }
    };
    let out = run(&["check"], &tests);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    names(&out, "check");
    let out = run(&["explain"], &tests);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    names(&out, "explain");
    // A folder without a test fails, naming it.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    for command in ["check", "explain"] {
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
