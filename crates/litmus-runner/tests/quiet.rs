//! `LITMUS_QUIET=1`: a passing `litmus!` test prints no `litmus ...` line,
//! a failing one still prints it and its story. Each case runs this test
//! binary again on one ignored test, with the variable set, and reads its
//! standard error.

use std::process::Command;

/// Message passing, relaxed: the model allows the weak outcome.
const MP: &str = "PTX MP-quiet\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

#[test]
#[ignore = "run by the tests below, in a child process"]
fn child_passes() {
    litmus_runner::run_litmus_text("mp.litmus", MP);
}

#[test]
#[ignore = "run by the tests below, in a child process"]
fn child_fails() {
    // Declared forbidden; the model allows it: a failure.
    litmus_runner::run_litmus_text("mp.litmus", &format!("{}=> forbidden\n", MP.trim_end()));
}

/// Runs `test` of this binary with `LITMUS_QUIET=quiet`: (passed, stderr).
fn child(test: &str, quiet: &str) -> (bool, String) {
    let mut c = Command::new(std::env::current_exe().unwrap());
    for (var, _) in std::env::vars_os() {
        if var.to_string_lossy().starts_with("LITMUS_") {
            c.env_remove(&var);
        }
    }
    let out = c
        .args([
            test,
            "--exact",
            "--include-ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("LITMUS_QUIET", quiet)
        .env("LITMUS_LAUNCHES", "1")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_passing_test_is_silent_when_quiet_and_says_its_line_otherwise() {
    let (passed, err) = child("child_passes", "1");
    assert!(passed, "{err}");
    assert!(!err.contains("litmus MP-quiet"), "{err}");
    let (passed, err) = child("child_passes", "0");
    assert!(passed, "{err}");
    assert!(err.contains("litmus MP-quiet"), "{err}");
}

#[test]
fn a_failing_test_says_everything_even_when_quiet() {
    let (passed, err) = child("child_fails", "1");
    assert!(!passed, "{err}");
    assert!(err.contains("litmus MP-quiet"), "{err}");
    assert!(err.contains("litmus test `MP-quiet` failed"), "{err}");
}

#[test]
fn a_bad_value_fails_naming_the_variable() {
    let (passed, err) = child("child_passes", "yes");
    assert!(!passed, "{err}");
    assert!(err.contains("bad value `yes` for LITMUS_QUIET"), "{err}");
    assert!(litmus_runner::config::quiet_from(Some("1")).unwrap());
    assert!(!litmus_runner::config::quiet_from(None).unwrap());
    let e = litmus_runner::config::quiet_from(Some("yes")).unwrap_err();
    assert!(e.to_string().contains("LITMUS_QUIET"), "{e}");
}
