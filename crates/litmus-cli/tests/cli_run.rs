//! `gpu-litmus run`, run as a user runs it. Without a GPU the hardware half
//! is skipped and these tests check the model half and the skip line; on a
//! GPU machine the same tests check the hardware's figures instead.

mod cli_support;

use std::path::Path;

use cli_support::{
    attr, bin, elements, scratch, stderr, stdout, write, BROKEN, MP_RELACQ, MP_WRONG, NINE_GPUS,
};
use serde_json::Value;

/// Whether a run's text says the hardware half ran; panics unless it says
/// either that or that it was skipped.
fn hardware_ran(text: &str) -> bool {
    if text.contains("hardware: skipped, no CUDA") {
        return false;
    }
    assert!(text.contains(" instances in "), "{text}");
    true
}

#[test]
fn prints_the_outcome_table_with_verdicts_and_the_hardware_line() {
    let dir = scratch("table");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = bin()
        .args(["run", "--launches", "2", "--seed", "7"])
        .arg(&mp)
        .output()
        .unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.starts_with(&format!(
            "{}: litmus MP-relacq: model ptx: forbidden (declared forbidden); hardware: ",
            mp.display()
        )),
        "{text}"
    );
    let header = text.lines().nth(1).unwrap();
    for word in ["outcome", "hardware", "model (ptx)"] {
        assert!(header.contains(word), "{header}");
    }
    let rows: Vec<&str> = text.lines().skip(2).take_while(|l| !l.is_empty()).collect();
    let outcomes: Vec<String> = rows
        .iter()
        .map(|r| {
            r.split("  ")
                .find(|c| !c.trim().is_empty())
                .unwrap()
                .trim()
                .to_string()
        })
        .collect();
    for allowed in ["P1:r0=0; P1:r1=0", "P1:r0=0; P1:r1=1", "P1:r0=1; P1:r1=1"] {
        assert!(outcomes.iter().any(|o| o == allowed), "{allowed} in {text}");
    }
    if hardware_ran(&text) {
        assert!(
            text.contains("2 launches") && text.contains("seed=7"),
            "{text}"
        );
        let counted: u64 = rows
            .iter()
            .filter_map(|r| r.split_whitespace().rev().nth(1)?.parse::<u64>().ok())
            .sum();
        assert!(counted > 0, "{text}");
        assert!(!text.contains("FORBIDDEN"), "{text}");
    } else {
        assert!(
            text.contains("hardware: skipped, no CUDA driver"),
            "one line says the hardware half was skipped: {text}"
        );
        assert_eq!(rows.len(), 3, "the allowed outcomes only: {text}");
        for row in &rows {
            assert!(row.ends_with("-  allowed"), "no count without a GPU: {row}");
        }
    }
    assert!(
        !text.contains("files:"),
        "no tally for a single file: {text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_contradicted_declared_verdict_fails_with_the_whole_story() {
    let dir = scratch("declared");
    let wrong = write(&dir, "wrong.litmus", MP_WRONG);
    let out = bin()
        .args(["run", "--launches=1", "--seed=3"])
        .arg(&wrong)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    for part in [
        "litmus MP-wrong: model ptx: forbidden (declared allowed)",
        "litmus test `MP-wrong` failed under model ptx:",
        "  - declared allowed, but the model says forbidden",
    ] {
        assert!(text.contains(part), "{part:?} missing from:\n{text}");
    }
    // On a GPU the line names the lanes `auto` came to (the knobs that
    // ran); without one nothing ran, and the knobs stay as given.
    let lanes = match text.contains("instances in 1 launches") {
        true => "LITMUS_LANES=aligned ",
        false => "",
    };
    assert!(
        text.contains(&format!(
            "model ptx, budget 1 launches; reproduce: LITMUS_SEED=3 LITMUS_LAUNCHES=1 {lanes}gpu-litmus run --model ptx {}",
            wrong.display()
        )),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_files_are_reported_and_the_others_still_run() {
    let dir = scratch("bad");
    let broken = write(&dir, "broken.litmus", BROKEN);
    let missing = dir.join("missing.litmus");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = bin()
        .args(["run", "--launches", "1"])
        .args([&broken, &missing, &mp])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "{}:4:2: `ld` does not take `.release` semantics",
            broken.display()
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}: cannot read", missing.display())),
        "{text}"
    );
    assert!(text.contains("litmus MP-relacq: model ptx"), "{text}");
    assert!(text.ends_with("3 files: 1 passed, 2 failed\n"), "{text}");
    // stderr is a pipe here, not a terminal: no progress bar.
    let err = stderr(&out);
    assert!(!err.contains("[1/3]") && !err.contains('\r'), "{err:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_test_the_harness_cannot_run_says_why_and_passes_on_the_model() {
    let dir = scratch("notrun");
    let f = write(&dir, "two.litmus", NINE_GPUS);
    let out = bin().args(["run"]).arg(&f).output().unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "litmus nine-gpus: model ptx: allowed; hardware: not run, thread `P1` is placed on GPU 8"
        ),
        "{text}"
    );
    assert!(
        text.contains("* P1:r0=1"),
        "the condition's outcome is marked: {text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// The report file of the test in `file`: reports are named by the file.
fn json_name(file: &Path) -> String {
    format!(
        "{}.json",
        litmus_runner::report::file_stem(&file.display().to_string())
    )
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON ({e})", path.display()))
}

#[test]
fn reports_hold_a_json_record_per_test_and_a_junit_file() {
    let dir = scratch("report");
    let reports = dir.join("reports");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let wrong = write(&dir, "wrong.litmus", MP_WRONG);
    let broken = write(&dir, "broken.litmus", BROKEN);
    let two = write(&dir, "two.litmus", NINE_GPUS);
    let out = bin()
        .args(["run", "--launches", "2", "--seed", "11", "--report"])
        .arg(&reports)
        .args([&mp, &wrong, &broken, &two])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let ran = hardware_ran(&stdout(&out));

    let m = read_json(&reports.join(json_name(&mp)));
    assert_eq!(m["test"], "MP-relacq");
    assert_eq!(m["model"], "ptx");
    assert_eq!(m["declared_verdict"], "forbidden");
    assert_eq!(m["computed_verdict"], "forbidden");
    assert_eq!(m["observables"], serde_json::json!(["P1:r0", "P1:r1"]));
    assert_eq!(m["allowed"], serde_json::json!([[0, 0], [0, 1], [1, 1]]));
    assert_eq!(m["seed"], 11);
    assert_eq!(m["budget"]["launches"], 2);
    assert_eq!(m["passed"], true);
    assert_eq!(m["failures"], serde_json::json!([]));
    let histogram = m["histogram"].as_array().unwrap();
    if ran {
        assert_eq!(m["hardware"]["status"], "ran");
        assert_eq!(m["launches"], 2);
        let instances = m["instances"].as_u64().unwrap();
        let counted: u64 = histogram.iter().map(|h| h["count"].as_u64().unwrap()).sum();
        let unfinished = m["unfinished"].as_u64().unwrap();
        assert_eq!(counted + unfinished, instances, "{m}");
        for h in histogram {
            assert_eq!(h["allowed"], true, "the model forbids {h}");
        }
    } else {
        assert_eq!(m["hardware"]["status"], "skipped");
        assert!(m["hardware"]["reason"]
            .as_str()
            .unwrap()
            .contains("no CUDA"));
        assert!(histogram.is_empty());
        assert_eq!(m["device"], Value::Null);
    }

    let w = read_json(&reports.join(json_name(&wrong)));
    assert_eq!(w["declared_verdict"], "allowed");
    assert_eq!(w["computed_verdict"], "forbidden");
    assert_eq!(w["passed"], false);
    assert_eq!(
        w["failures"][0],
        "declared allowed, but the model says forbidden"
    );

    let t = read_json(&reports.join(json_name(&two)));
    assert_eq!(t["hardware"]["status"], "not run");
    assert!(t["hardware"]["reason"].as_str().unwrap().contains("GPU 8"));
    assert_eq!(t["declared_verdict"], Value::Null);
    assert_eq!(t["passed"], true);

    let json_files = std::fs::read_dir(&reports)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "json")
        })
        .count();
    assert_eq!(json_files, 3, "one record per test that parsed");

    let xml = std::fs::read_to_string(reports.join("junit-gpu-litmus.xml")).unwrap();
    assert!(xml.starts_with("<?xml"), "{xml}");
    let suites = elements(&xml, "testsuite");
    assert_eq!(suites.len(), 1, "{xml}");
    assert_eq!(attr(suites[0], "name").as_deref(), Some("gpu-litmus"));
    assert_eq!(attr(suites[0], "tests").as_deref(), Some("4"));
    assert_eq!(attr(suites[0], "failures").as_deref(), Some("2"));
    let mut names: Vec<String> = elements(&xml, "testcase")
        .iter()
        .map(|c| attr(c, "name").unwrap())
        .collect();
    names.sort();
    // Cases are named by file: two files may hold tests of one name.
    let mut expected: Vec<String> = [&mp, &wrong, &broken, &two]
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    expected.sort();
    assert_eq!(names, expected);
    let failures = elements(&xml, "failure");
    assert_eq!(failures.len(), 2, "{xml}");
    let messages: Vec<String> = failures
        .iter()
        .map(|f| attr(f, "message").unwrap())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m == "litmus test `MP-wrong` failed under model ptx:"),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`ld` does not take `.release` semantics")),
        "{messages:?}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_report_folder_also_comes_from_the_environment() {
    let dir = scratch("report-env");
    let reports = dir.join("from-env");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = bin()
        .env("LITMUS_REPORT_DIR", &reports)
        .args(["run", "--launches", "1"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(read_json(&reports.join(json_name(&mp)))["passed"], true);
    assert!(reports.join("junit-gpu-litmus.xml").is_file());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn json_format_gives_one_record_per_line() {
    let dir = scratch("json");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let broken = write(&dir, "broken.litmus", BROKEN);
    let out = bin()
        .args([
            "run",
            "--format",
            "json",
            "--budget-ms",
            "50",
            "--seed",
            "9",
        ])
        .args([&mp, &broken])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert_eq!(lines.len(), 2, "nothing else on stdout: {}", stdout(&out));
    assert_eq!(lines[0]["file"], mp.to_str().unwrap());
    assert_eq!(lines[0]["test"], "MP-relacq");
    assert_eq!(lines[0]["seed"], 9);
    assert_eq!(lines[0]["budget"]["budget_ms"], 50);
    assert_eq!(lines[0]["budget"]["launches"], Value::Null);
    assert_eq!(lines[0]["passed"], true);
    assert_eq!(lines[1]["file"], broken.to_str().unwrap());
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("broken.litmus:4:2:"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_model_comes_from_the_flag_or_the_environment() {
    let dir = scratch("model");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let run = |model_env: Option<&str>, flag: Option<&str>| {
        let mut c = bin();
        c.args(["run", "--launches", "1"]);
        if let Some(m) = model_env {
            c.env("LITMUS_MODEL", m);
        }
        if let Some(m) = flag {
            c.args(["--model", m]);
        }
        c.arg(&mp).output().unwrap()
    };
    // ptx-2015 has no release/acquire: the weak outcome is allowed there,
    // against the declared verdict.
    let old = run(None, Some("ptx-2015"));
    assert_eq!(old.status.code(), Some(1));
    assert!(
        stdout(&old).contains("model ptx-2015: allowed (declared forbidden)"),
        "{}",
        stdout(&old)
    );
    let sc = run(Some("sc"), None);
    assert_eq!(sc.status.code(), Some(0));
    assert!(stdout(&sc).contains("model (sc)"), "{}", stdout(&sc));
    let flag_wins = run(Some("tso"), Some("ptx"));
    assert_eq!(flag_wins.status.code(), Some(0), "{}", stderr(&flag_wins));
    let bad = run(Some("tso"), None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("unknown model `tso` (from LITMUS_MODEL)"),
        "{}",
        stderr(&bad)
    );
    let bad_flag = run(None, Some("tso"));
    assert_eq!(bad_flag.status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_required_gpu_that_is_missing_fails_the_run() {
    let dir = scratch("require");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let plain = bin()
        .args(["run", "--launches", "1"])
        .arg(&mp)
        .output()
        .unwrap();
    let ran = hardware_ran(&stdout(&plain));
    let out = bin()
        .env("LITMUS_REQUIRE_GPU", "1")
        .args(["run", "--launches", "1"])
        .arg(&mp)
        .output()
        .unwrap();
    let text = stdout(&out);
    if ran {
        assert_eq!(out.status.code(), Some(0), "{text}");
    } else {
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(
            text.contains("hardware: required by LITMUS_REQUIRE_GPU=1, but no CUDA"),
            "{text}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_hardware_half_not_run_fails_only_when_required() {
    // A surface alias: the harness cannot run it on any GPU, so the answer
    // is the same with or without one.
    let dir = scratch("require-hw");
    let surface = write(
        &dir,
        "surface.litmus",
        "PTX mp_surface\n{ x=0; s @ surface aliases x; flag=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n sust.weak s, 2 | ld.acquire.gpu r0, flag ;\n st.release.gpu flag, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 != 2)\n",
    );
    let run = |value: Option<&str>| {
        let mut cmd = bin();
        cmd.env_remove("LITMUS_REQUIRE_HW");
        if let Some(v) = value {
            cmd.env("LITMUS_REQUIRE_HW", v);
        }
        let out = cmd
            .args(["run", "--launches", "1", "--model", "ptx-7.5"])
            .arg(&surface)
            .output()
            .unwrap();
        (out.status.code(), stdout(&out) + &stderr(&out))
    };
    let (code, text) = run(None);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("hardware: not run, `sust` in thread `P0`"),
        "{text}"
    );
    let (code, text) = run(Some("1"));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("LITMUS_REQUIRE_HW=1 makes that a failure"),
        "{text}"
    );
    // A bad value is refused before any file runs, as every variable is.
    let (code, text) = run(Some("yes"));
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains("bad value `yes` for LITMUS_REQUIRE_HW: expected `1` or `0`"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn litmus7_format_prints_litmus7s_block_or_says_why_not() {
    let dir = scratch("litmus7");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = bin()
        .args(["run", "--format", "litmus7", "--launches", "1"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (text, err) = (stdout(&out), stderr(&out));
    if text.is_empty() {
        // No GPU here: no block, and stderr says so with the model's verdict.
        let said = format!(
            "{}: no litmus7 block, the hardware did not run: litmus MP-relacq: model ptx: forbidden (declared forbidden); hardware: skipped, ",
            mp.display()
        );
        assert!(err.starts_with(&said) && err.lines().count() == 1, "{err}");
    } else {
        assert!(
            text.starts_with("Test MP-relacq Allowed\nHistogram ("),
            "{text}"
        );
        assert!(
            text.contains("\nCondition exists (1:r0=1 /\\ 1:r1=0) is "),
            "{text}"
        );
        assert!(text.contains("\nObservation MP-relacq "), "{text}");
    }
    let wrong = bin()
        .args(["run", "--format", "herd"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(2));
    assert!(stderr(&wrong)
        .starts_with("error: unknown format `herd`; the formats are: text, json, litmus7\n"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_bad_knob_is_an_error_before_any_file_runs() {
    let dir = scratch("bad-knobs");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    for (var, value, message) in cli_support::bad_knobs::BAD_KNOBS {
        let out = bin()
            .env(var, value)
            .args(["run", "--launches", "1"])
            .arg(&mp)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{var}={value}: {}",
            stdout(&out)
        );
        assert!(stdout(&out).is_empty(), "{var}={value}: {}", stdout(&out));
        assert!(
            stderr(&out).starts_with(&format!("error: {message}\n")),
            "{var}={value}: {}",
            stderr(&out)
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// A loop that runs its body three times: the model sees its one outcome
/// only with a loop bound of 3 or more.
const COUNT: &str = "PTX count
{ x=0; P0:r0=0; }
 P0@cta 0,gpu 0   ;
 LC00:            ;
 add r0, r0, 1    ;
 bne r0, 3, LC00  ;
exists (P0:r0 == 3)
";

#[test]
fn the_models_loop_bound_is_a_flag() {
    let dir = scratch("loop-bound");
    let count = write(&dir, "count.litmus", COUNT);
    let record = |extra: &[&str]| {
        let out = bin()
            .args(["run", "--format", "json", "--launches", "1"])
            .args(extra)
            .arg(&count)
            .output()
            .unwrap();
        // Whether the test passes depends on the GPU (with the default
        // bound the hardware shows an outcome the model never sees).
        assert_ne!(out.status.code(), Some(2), "{}", stderr(&out));
        let text = stdout(&out);
        serde_json::from_str::<Value>(text.trim_end())
            .unwrap_or_else(|e| panic!("not one JSON line ({e}): {text}"))
    };
    let cut = record(&[]);
    assert_eq!(cut["computed_verdict"], "forbidden", "{cut}");
    assert_eq!(cut["allowed"], serde_json::json!([]), "{cut}");
    for bound in [&["--loop-bound", "3"][..], &["--loop-bound=4"]] {
        let whole = record(bound);
        assert_eq!(whole["computed_verdict"], "allowed", "{bound:?}: {whole}");
        assert_eq!(
            whole["allowed"],
            serde_json::json!([[3]]),
            "{bound:?}: {whole}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_report_that_cannot_be_written_is_said_whether_the_file_parsed_or_not() {
    let dir = scratch("unwritable");
    let broken = write(&dir, "broken.litmus", BROKEN);
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    // A file where the report folder should be: the folder cannot be made.
    let blocker = write(&dir, "blocker", "");
    let said = format!("cannot write reports to {}: ", blocker.display());
    for format in ["text", "json"] {
        let out = bin()
            .args(["run", "--launches", "1", "--format", format, "--report"])
            .arg(&blocker)
            .args([&broken, &mp])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}");
        let text = stdout(&out);
        if format == "text" {
            assert!(text.contains(":4:2: `ld` does not take"), "{text}");
            for file in [&broken, &mp] {
                assert!(
                    text.contains(&format!("{}: {said}", file.display())),
                    "{text}"
                );
            }
            assert!(text.ends_with("2 files: 0 passed, 2 failed\n"), "{text}");
        } else {
            let records: Vec<Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
                .collect();
            assert_eq!(records.len(), 2, "{text}");
            assert!(
                records[0]["error"].as_str().unwrap().contains(":4:2: `ld`"),
                "{text}"
            );
            assert_eq!(records[1]["test"], "MP-relacq", "{text}");
            for record in &records {
                let why = record["report_error"].as_str().unwrap_or_default();
                assert!(why.starts_with(&said), "{record}");
            }
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn usage_errors_exit_2_and_say_what_is_wrong() {
    for (args, message) in [
        (&["run"][..], "no files to run"),
        (
            &["run", "--launches", "0", "f"],
            "`--launches` takes a whole number of at least 1, not `0`",
        ),
        (
            &["run", "--seed", "-3", "f"],
            "`--seed` takes a whole number of at least 0, not `-3`",
        ),
        (
            &["run", "--seed", "x", "f"],
            "`--seed` takes a whole number of at least 0, not `x`",
        ),
        (
            &["run", "--budget-ms", "5", "--launches", "2", "f"],
            "not both",
        ),
        (&["run", "--format", "xml", "f"], "unknown format `xml`"),
        (
            &["run", "--loop-bound", "0", "f"],
            "`--loop-bound` takes a whole number of at least 1, not `0`",
        ),
        (&["run", "--bogus", "f"], "unknown option `--bogus`"),
        (&["run", "f", "--report"], "`--report` needs a value"),
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(err.contains("gpu-litmus run --help"), "{args:?}: {err}");
    }
}

#[test]
fn help_is_complete() {
    let out = bin().args(["run", "--help"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for word in [
        "--model",
        "--budget-ms",
        "--launches",
        "--seed",
        "--report",
        "--format",
        "--loop-bound",
        "EXIT STATUS",
        "LITMUS_MODEL",
        "LITMUS_BUDGET_MS",
        "LITMUS_LAUNCHES",
        "LITMUS_SEED",
        "LITMUS_CTAS",
        "LITMUS_THREADS",
        "LITMUS_STRIDE",
        "LITMUS_PERM",
        "LITMUS_LANES",
        "LITMUS_CTA_SPREAD",
        "LITMUS_LOC_LAYOUT",
        "LITMUS_PTX_TARGET",
        "LITMUS_PTXAS",
        "LITMUS_REQUIRE_HW",
        "LITMUS_ADDRESSING",
        "LITMUS_SPIN",
        "LITMUS_STRESS",
        "LITMUS_LOOP_BOUND",
        "LITMUS_REPORT_DIR",
        "LITMUS_REQUIRE_GPU",
        "LITMUS_DEVICES",
        "LITMUS_GPU_MAP",
        "LITMUS_GPU_JITTER",
        "LITMUS_GPU_STAGGER",
        "LITMUS_GPU_PARTNERS",
    ] {
        assert!(text.contains(word), "run --help lacks {word}");
    }
    let top = bin().arg("--help").output().unwrap();
    assert_eq!(top.status.code(), Some(0));
    let text = stdout(&top);
    for word in [
        "check",
        "run",
        "explain",
        "ptx",
        "--model",
        "--budget-ms",
        "--report",
        "--outcome",
        "--dot",
        "--loop-bound",
        "LITMUS_MODEL",
        "LITMUS_BUDGET_MS",
        "LITMUS_SEED",
        "LITMUS_REPORT_DIR",
        "LITMUS_REQUIRE_GPU",
        "LITMUS_CTAS",
        "LITMUS_LOOP_BOUND",
    ] {
        assert!(text.contains(word), "--help lacks {word}");
    }
    let via_help = bin().args(["help", "run"]).output().unwrap();
    assert_eq!(stdout(&via_help), stdout(&out));
}

#[test]
fn the_attribute_reader_reads_attributes() {
    let xml = "<testsuites><testsuite name=\"a &amp; b\" tests=\"2\">\n<testcase name=\"x\" time=\"0.1\"/><testcase name=\"y\"></testsuite>";
    let suites = elements(xml, "testsuite");
    assert_eq!(suites.len(), 1);
    assert_eq!(attr(suites[0], "name").as_deref(), Some("a & b"));
    assert_eq!(attr(suites[0], "tests").as_deref(), Some("2"));
    assert_eq!(attr(suites[0], "failures"), None);
    let cases: Vec<String> = elements(xml, "testcase")
        .iter()
        .filter_map(|c| attr(c, "name"))
        .collect();
    assert_eq!(cases, ["x", "y"]);
}

#[test]
fn corpus_files_run() {
    let Some(dir) = std::env::var_os("LITMUS_CONFORMANCE_DIR") else {
        println!("conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let dir = Path::new(&dir);
    let files = ["Manual/MP-gpu.litmus", "Manual/CoRR-weak-weak.litmus"];
    let out = bin()
        .args(["run", "--launches", "1", "--format", "json"])
        .args(files.iter().map(|f| dir.join(f)))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let lines: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["test"], "MP-gpu");
    assert_eq!(lines[0]["computed_verdict"], "forbidden");
    assert_eq!(lines[0]["passed"], true);
    assert_eq!(lines[1]["test"], "CoRR-weak-weak");
}

#[test]
fn a_ptxas_that_is_not_ptxas_is_refused_before_anything_runs() {
    let dir = scratch("run-ptxas");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = bin()
        .args(["run", "--ptxas", "/bin/true"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let errors = stderr(&out);
    assert!(
        errors.starts_with("error: `--ptxas`: /bin/true: not ptxas"),
        "{errors}"
    );
    let out = bin()
        .env("LITMUS_PTXAS", "/nonexistent/ptxas")
        .args(["run"])
        .arg(&mp)
        .output()
        .unwrap();
    let errors = stderr(&out);
    assert_ne!(out.status.code(), Some(0), "{errors}");
    assert!(
        errors.contains("LITMUS_PTXAS: ") && errors.contains("/nonexistent/ptxas"),
        "{errors}"
    );
    assert_eq!(
        errors
            .lines()
            .filter(|l| l.contains("/nonexistent/ptxas"))
            .count(),
        1,
        "{errors}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
