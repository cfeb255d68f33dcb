//! `gpu-litmus ptx`, run as a user runs it.

mod cli_support;

use cli_support::{bin, scratch, stderr, stdout, write, BROKEN, MP_RELACQ, NINE_GPUS};

#[test]
fn prints_the_generated_module() {
    let dir = scratch("ptx");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = bin().args(["ptx"]).arg(&mp).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(".entry litmus_test("), "{text}");
    // Portable: the lowest target its instructions exist on.
    assert!(text.contains(".target sm_70"), "{text}");
    // The very text the generator gives the harness (and `litmus!` embeds).
    let test = litmus_text::parse(MP_RELACQ).unwrap();
    assert_eq!(text, litmus_ptx::generate(&test).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_test_the_harness_cannot_run_says_why() {
    let dir = scratch("ptx-unsupported");
    let two = write(&dir, "two.litmus", NINE_GPUS);
    let out = bin().args(["ptx"]).arg(&two).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    assert_eq!(
        stderr(&out),
        format!(
            "{}:1:5: the GPU harness cannot run this test: thread `P1` is placed on GPU 8: the harness runs at most 8 GPUs\n",
            two.display()
        )
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_files_and_command_lines() {
    let dir = scratch("ptx-usage");
    let broken = write(&dir, "broken.litmus", BROKEN);
    let out = bin().args(["ptx"]).arg(&broken).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with(&format!(
            "{}:4:2: `ld` does not take `.release` semantics",
            broken.display()
        )),
        "{}",
        stderr(&out)
    );
    let missing = bin()
        .args(["ptx"])
        .arg(dir.join("nope.litmus"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("nope.litmus: cannot read"));
    for (args, message) in [
        (&["ptx"][..], "no file given"),
        (&["ptx", "a", "b"], "one file at a time, not 2 (a, b)"),
        (&["ptx", "--model", "ptx", "a"], "unknown option `--model`"),
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    let help = bin().args(["ptx", "--help"]).output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("gpu-litmus ptx FILE"));
    std::fs::remove_dir_all(dir).unwrap();
}
