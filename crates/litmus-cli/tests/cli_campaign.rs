//! `gpu-litmus campaign`, run as a user runs it: folders are searched, one
//! line a test, a summary, and a broken or failing test does not stop the
//! campaign. Without a GPU the lines say the hardware half skipped; on the
//! GPU machine they carry the weak counts and rates.

mod cli_support;

use cli_support::{bin, scratch, stderr, stdout, write, BROKEN, MP_RELACQ, MP_WRONG};
use serde_json::Value;

#[test]
fn a_folder_runs_every_test_in_it_and_a_failure_does_not_stop_the_rest() {
    let dir = scratch("campaign_folder");
    write(&dir, "a_mp.litmus", MP_RELACQ);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    write(&dir.join("sub"), "b_wrong.litmus", MP_WRONG);
    write(&dir.join("sub"), "c_broken.litmus", BROKEN);
    write(&dir, "notes.txt", "not a test");
    let out = bin()
        .args(["campaign", "--launches", "2", "--seed", "3"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "three tests and the summary: {text}");
    assert!(lines[0].contains("a_mp.litmus"), "{text}");
    assert!(!lines[0].contains("FAILED"), "{text}");
    assert!(
        lines[1].contains("b_wrong.litmus") && lines[1].contains("FAILED"),
        "{text}"
    );
    assert!(
        lines[1].contains("declared allowed, but the model says forbidden"),
        "{text}"
    );
    assert!(lines[2].contains("c_broken.litmus"), "{text}");
    assert!(
        lines[3].starts_with("campaign: 3 tests, 1 passed, 2 failed;"),
        "{text}"
    );
    if text.contains("hardware: skipped") {
        assert!(lines[0].contains("hardware: skipped"), "{text}");
    } else {
        // On a GPU: MP with release/acquire never shows its weak outcome.
        assert!(lines[0].contains(": weak 0/"), "{text}");
        assert!(lines[0].contains("forbidden seen 0"), "{text}");
    }
}

#[test]
fn json_gives_one_object_a_test_and_a_summary() {
    let dir = scratch("campaign_json");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = bin()
        .args(["campaign", "--format", "json", "--launches", "1"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let records: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["test"], "MP-relacq");
    assert_eq!(records[0]["passed"], true);
    assert_eq!(records[0]["condition_allowed"], false);
    assert_eq!(records[1]["summary"]["tests"], 1);
    assert_eq!(records[1]["summary"]["failed"], 0);
    if records[0].get("instances").is_some() {
        let (lo, hi) = (
            records[0]["rate_low"].as_f64().unwrap(),
            records[0]["rate_high"].as_f64().unwrap(),
        );
        assert!(lo <= hi && hi <= 1.0);
    }
}

#[test]
fn a_missing_path_or_an_empty_folder_is_an_error_that_names_it() {
    let out = bin().args(["campaign", "/no/such/place"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("/no/such/place: no such file or folder"),
        "{}",
        stderr(&out)
    );
    let empty = scratch("campaign_empty");
    let out = bin().arg("campaign").arg(&empty).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no .litmus file in this folder"),
        "{}",
        stderr(&out)
    );
}

/// A kernel fault in the middle of a campaign (injected into the second of
/// three tests) fails that test only: the worker is replaced and the third
/// test runs on the GPU as the first did.
#[test]
fn a_kernel_fault_fails_that_test_only_and_the_campaign_goes_on() {
    let dir = scratch("campaign_fault");
    for name in ["a", "b", "c"] {
        let text = MP_RELACQ.replacen("PTX MP-relacq", &format!("PTX MP-{name}"), 1);
        write(&dir, &format!("{name}.litmus"), &text);
    }
    let out = bin()
        .args(["campaign", "--launches", "2", "--seed", "3"])
        .arg(&dir)
        .env("LITMUS_INJECT_FAULT", "MP-b")
        .output()
        .unwrap();
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "three tests and the summary: {text}");
    if text.contains("hardware: skipped") {
        // Without a GPU no kernel runs, so none faults.
        assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
        return;
    }
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(
        lines[1].contains("b.litmus") && lines[1].contains("FAILED"),
        "{text}"
    );
    assert!(lines[1].contains("the kernel faulted"), "{text}");
    for line in [lines[0], lines[2]] {
        assert!(line.contains(": weak 0/"), "{text}");
        assert!(line.ends_with("passed"), "{text}");
    }
    assert!(
        lines[3].starts_with("campaign: 3 tests, 2 passed, 1 failed;"),
        "{text}"
    );
}

/// `--tune --tuning FILE` names the file the search writes, which need not
/// exist yet; without `--tune`, `--tuning FILE` is a file to read, and a
/// missing one is an error naming it.
#[test]
fn tune_writes_a_tuning_file_that_need_not_exist_yet() {
    let dir = scratch("campaign_tune_file");
    write(&dir, "a_mp.litmus", MP_RELACQ);
    let file = dir.join("new-tuning.toml");
    let out = bin()
        .args([
            "campaign",
            "--tune",
            "--tune-budget-ms",
            "100",
            "--launches",
            "2",
        ])
        .arg("--tuning")
        .arg(&file)
        .arg(&dir)
        .env_remove("LITMUS_REQUIRE_GPU")
        .output()
        .unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(!stderr(&out).contains("cannot read"), "{}", stderr(&out));
    if !text.starts_with("tune: skipped") {
        assert!(file.exists(), "{text}");
    }
    let out = bin()
        .args(["campaign", "--launches", "2", "--tuning"])
        .arg(dir.join("missing.toml"))
        .arg(&dir)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("missing.toml") && stderr(&out).contains("cannot read"),
        "{}",
        stderr(&out)
    );
}

/// `--tune` searches first and then runs: without a GPU the search says in
/// one line that it skipped and the campaign runs as without it; its own
/// options are refused without `--tune`, and bad values are usage errors.
#[test]
fn tune_first_skips_without_a_gpu_and_its_options_are_checked() {
    let dir = scratch("campaign_tune");
    write(&dir, "a_mp.litmus", MP_RELACQ);
    // A test whose condition the model allows: the family lines count those.
    write(
        &dir,
        "b_mp.litmus",
        "PTX MP-relaxed\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0) => allowed\n",
    );
    let out = bin()
        .args([
            "campaign",
            "--tune",
            "--tune-budget-ms",
            "100",
            "--launches",
            "2",
        ])
        .arg(&dir)
        .env_remove("LITMUS_REQUIRE_GPU")
        .output()
        .unwrap();
    let text = stdout(&out);
    if text.starts_with("tune: skipped") {
        assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
        assert!(
            text.lines()
                .any(|l| l.starts_with("campaign: 2 tests, 2 passed")),
            "{text}"
        );
    } else {
        // On a GPU: the search's lines, the tests' lines, the allowed
        // test's family line, the summary.
        assert!(text.contains("tune: weak outcome seen in"), "{text}");
        assert!(
            text.lines().any(
                |l| l.starts_with("family MP-relaxed: weak outcome seen in ")
                    && l.ends_with(" of 1")
            ),
            "{text}"
        );
    }
    for (args, says) in [
        (
            vec!["campaign", "--tune-budget-ms", "100", "x.litmus"],
            "go with `--tune`",
        ),
        (
            vec!["campaign", "--tune", "--tune-budget-ms", "0", "x.litmus"],
            "--tune-budget-ms",
        ),
        (
            vec!["campaign", "--tune", "--tune-configs", "1", "x.litmus"],
            "--tune-configs",
        ),
        (
            vec!["campaign", "--tune", "--tune-configs"],
            "needs a value",
        ),
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn resume_skips_the_tests_a_campaign_recorded_and_ignores_a_cut_off_line() {
    let dir = scratch("campaign_resume");
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    write(&tests, "a_mp.litmus", MP_RELACQ);
    write(&tests, "b_wrong.litmus", MP_WRONG);
    let ev = dir.join("ev");
    // `a` finished in the killed campaign; `b` was being written.
    let mut w = litmus_evidence::store::Writer::create(&ev).unwrap();
    let a = litmus_text::parse(MP_RELACQ).unwrap();
    let run = litmus_evidence::Run {
        histogram: &[(vec![1, 1], 10)],
        instances: 10,
        unfinished: 0,
        device: "gpu",
        knobs: "ctas=1",
        seed: 1,
    };
    let record = |kind| litmus_evidence::Record {
        kind,
        ..litmus_evidence::Record::of_run(&a, &run, "a_mp.litmus")
    };
    w.append(record(litmus_evidence::Kind::Campaign)).unwrap();
    let half = record(litmus_evidence::Kind::Campaign)
        .to_json()
        .to_string();
    let path = w.path().to_path_buf();
    drop(w);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&half[..half.len() / 2]);
    std::fs::write(&path, text).unwrap();
    let out = bin()
        .args(["campaign", "--launches", "2", "--resume", "--evidence"])
        .arg(&ev)
        .arg(&tests)
        .output()
        .unwrap();
    let (text, errs) = (stdout(&out), stderr(&out));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "resume: 1 of 2 tests already in {}, running the other 1",
            ev.display()
        ),
        "{text}"
    );
    assert_eq!(
        lines.len(),
        3,
        "the resume line, b's line, the summary: {text}"
    );
    assert!(lines[1].contains("b_wrong.litmus"), "{text}");
    assert!(
        errs.contains(&format!(
            "warning: {}:2: cut off (a run that died mid-write); ignored",
            path.display()
        )),
        "{errs}"
    );
}

#[test]
fn resume_without_an_evidence_folder_is_a_usage_error() {
    let dir = scratch("campaign_resume_usage");
    write(&dir, "a_mp.litmus", MP_RELACQ);
    let out = bin()
        .env_remove("LITMUS_EVIDENCE")
        .args(["campaign", "--resume"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("error: `--resume` needs `--evidence DIR`"),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "");
}

/// `LITMUS_DEVICES` is read before anything runs, on any machine: a bad
/// list is one line naming the variable and the value, and exit status 2,
/// for each command that spreads its tests over the devices.
#[test]
fn a_bad_device_list_is_one_line_and_exit_2_before_anything_runs() {
    let dir = scratch("campaign_bad_devices");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    for value in ["x", "1,1", "0;1", "-2"] {
        for command in ["run", "campaign", "tune"] {
            let out = bin()
                .env("LITMUS_DEVICES", value)
                .args([command, "--budget-ms", "1"])
                .arg(&mp)
                .output()
                .unwrap();
            let said = format!("LITMUS_DEVICES={value} {command}: {}", stderr(&out));
            assert_eq!(out.status.code(), Some(2), "{said}");
            assert!(stdout(&out).is_empty(), "{said}{}", stdout(&out));
            assert_eq!(
                stderr(&out).lines().next().unwrap_or_default(),
                format!("error: bad value `{value}` for LITMUS_DEVICES: expected `all`, or device ordinals separated by commas, each at most once (e.g. `0,2`)"),
                "{said}"
            );
        }
    }
    // `all`, and a list, are good values: the set runs (its hardware half
    // skipped without a GPU, or on the devices listed).
    for value in ["all", "0"] {
        let out = bin()
            .env("LITMUS_DEVICES", value)
            .args(["campaign", "--launches", "1"])
            .arg(&mp)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{value}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("campaign: 1 test"),
            "{}",
            stdout(&out)
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}
