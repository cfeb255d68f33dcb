//! A bad knob fails every `litmus!` and `litmus_files!` test at once, with
//! or without a GPU, with the error that names the variable, the value and
//! what it accepts. Each case runs one test of this binary again in a child
//! process with the bad variable set (the environment is the process's, so
//! it cannot be changed for one test in place).

use std::process::Command;

use gpu_litmus::{litmus, litmus_files};

litmus! {
    /// What the child processes run: passes with good knobs.
    knob_probe_mp;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus_files!(mod knob_probe_files = "tests/litmus/files/mp_relaxed_gpu.litmus");

#[path = "../crates/litmus-cli/tests/cli_support/bad_knobs.rs"]
mod bad_knobs;

/// Runs the test `name` of this binary in a child process with `var=value`
/// (and with no budget, so a GPU would not spend a second on it); its exit
/// status and what it printed.
fn probe(name: &str, env: &[(&str, &str)]) -> (bool, String) {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([name, "--exact", "--nocapture", "--test-threads=1"]);
    cmd.env("LITMUS_LAUNCHES", "1")
        .env_remove("LITMUS_REPORT_DIR");
    for (var, value) in env {
        cmd.env(var, value);
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn a_bad_knob_fails_every_litmus_test_with_or_without_a_gpu() {
    for probe_test in ["knob_probe_mp", "knob_probe_files::mp_relaxed_gpu"] {
        // With good knobs the probe passes: the failures below are the knobs'.
        let (ok, text) = probe(probe_test, &[]);
        assert!(ok && text.contains("1 passed"), "{probe_test}: {text}");
        for (var, value, message) in bad_knobs::BAD_KNOBS {
            let (ok, text) = probe(probe_test, &[(var, value)]);
            assert!(!ok, "{probe_test} with {var}={value} passed:\n{text}");
            assert!(
                text.contains(message),
                "{probe_test} with {var}={value}:\n{text}"
            );
        }
    }
}
