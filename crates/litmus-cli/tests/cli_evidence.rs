//! Evidence end to end through the binary: imports written by concurrent
//! processes merge once, damaged files are reported by file and line, the
//! gate fails on what the hardware showed, and the HTML page holds every
//! test.

mod cli_support;

use std::path::Path;

use cli_support::{bin, scratch, stderr, stdout, write};
use serde_json::Value;

const MP: &str = "PTX MP_N\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, V | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

const SB_SC: &str = "PTX sb_sc\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n fence.sc.gpu | fence.sc.gpu ;\n ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

/// `n` MP tests `MP_0` .. (each storing its own value, so each IR differs)
/// in `dir/tests`.
fn mp_tests(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    for i in 0..n {
        let text = MP
            .replace("MP_N", &format!("MP_{i}"))
            .replace("x, V", &format!("x, {}", i + 1));
        write(&dir.join("tests"), &format!("mp_{i}.litmus"), &text);
    }
}

/// A litmus7 log for tests `from..to`: each saw its weak outcome `weak`
/// times among 1000 runs.
fn log(from: usize, to: usize, weak: u64) -> String {
    let mut s = String::new();
    for i in from..to {
        s.push_str(&format!(
            "Test MP_{i} Allowed\nHistogram (2 states)\n{weak} *>1:r0=1; 1:r1=0;\n{} :>1:r0=1; 1:r1={};\nOk\nWitnesses\nPositive: {weak}, Negative: {}\n\n",
            1000 - weak,
            i + 1,
            1000 - weak
        ));
    }
    s
}

fn import(into: &Path, tests: &Path, log: &Path, device: &str) -> std::process::Command {
    let mut c = bin();
    c.args(["evidence", "import", "--into"])
        .arg(into)
        .arg("--tests")
        .arg(tests)
        .args(["--device", device])
        .arg(log);
    c
}

/// `gpu-litmus gate ARGS --evidence EVIDENCE TESTS`.
fn gate(args: &[&str], evidence: &Path, tests: &Path) -> std::process::Output {
    bin()
        .args(args)
        .arg("--evidence")
        .arg(evidence)
        .arg(tests)
        .output()
        .unwrap()
}

/// The gate's JSON summary line.
fn summary(out: &str) -> Value {
    let last = out.lines().last().expect("a summary line");
    let v: Value = serde_json::from_str(last).unwrap();
    assert_eq!(v["kind"], "summary", "{out}");
    v
}

#[test]
fn folders_written_at_once_by_two_processes_merge_counting_each_observation_once() {
    let dir = scratch("evidence-merge");
    mp_tests(&dir, 40);
    let (a, b) = (dir.join("a"), dir.join("b"));
    let log_a = write(&dir, "a.log", &log(0, 40, 3));
    let log_b = write(&dir, "b.log", &log(0, 40, 5));
    // Three writers at once: two into `a`, one into `b`.
    let children: Vec<_> = [
        (&a, &log_a, "gpu-a"),
        (&a, &log_b, "gpu-b"),
        (&b, &log_a, "gpu-c"),
    ]
    .into_iter()
    .map(|(into, log, device)| {
        import(into, &dir.join("tests"), log, device)
            .spawn()
            .unwrap()
    })
    .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(
        std::fs::read_dir(&a).unwrap().count(),
        2,
        "one file per process"
    );
    // The merged folder: both folders, and `a` copied in twice more.
    let merged = dir.join("merged");
    for (from, name) in [(&a, "a"), (&b, "b"), (&a, "a-again")] {
        let to = merged.join(name);
        std::fs::create_dir_all(&to).unwrap();
        for f in std::fs::read_dir(from).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
        }
    }
    let out = gate(
        &["gate", "--model", "ptx", "--format", "json"],
        &merged,
        &dir.join("tests"),
    );
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let s = summary(&stdout(&out));
    assert_eq!(
        s["records"], 120,
        "40 tests x 3 imports, copies counted once"
    );
    assert_eq!(s["instances"], 120 * 1000);
    assert_eq!(s["devices"], serde_json::json!(["gpu-a", "gpu-b", "gpu-c"]));
    // Under SC each weak outcome is a failure with every device's count.
    let out = gate(
        &["gate", "--model", "sc", "--format", "json"],
        &merged,
        &dir.join("tests"),
    );
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let failures: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["kind"] == "failure")
        .collect();
    assert_eq!(failures.len(), 40);
    for f in &failures {
        assert_eq!(f["count"], 3 + 5 + 3, "{f}");
        assert_eq!(
            f["devices"],
            serde_json::json!({"gpu-a": 3, "gpu-b": 5, "gpu-c": 3})
        );
        assert!(f["explanation"].as_str().unwrap().contains("fr"), "{f}");
    }
}

/// One good record of MP_0 (imported), as a line of text.
fn one_record(dir: &Path) -> String {
    mp_tests(dir, 1);
    let log = write(dir, "one.log", &log(0, 1, 2));
    let into = dir.join("one");
    let out = import(&into, &dir.join("tests"), &log, "gpu")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let file = std::fs::read_dir(&into)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::read_to_string(file).unwrap()
}

#[test]
fn a_truncated_file_still_reads_and_says_where_it_was_cut() {
    let dir = scratch("evidence-truncated");
    let line = one_record(&dir);
    let cut = dir.join("cut");
    let half = &line[..line.len() / 2];
    write(
        &std::fs::create_dir_all(&cut).map(|()| cut.clone()).unwrap(),
        "run.jsonl",
        &format!("{line}{half}"),
    );
    let out = gate(&["gate", "--model", "sc"], &cut, &dir.join("tests"));
    let text = stdout(&out);
    let file = cut.join("run.jsonl");
    assert!(
        text.contains(&format!(
            "warning: {}:2: cut off (a run that died mid-write); ignored",
            file.display()
        )),
        "{text}"
    );
    // The whole first record still counts: SC fails on its weak outcome.
    assert!(
        text.contains("the hardware showed `P1:r0=1; P1:r1=0` (2 times: gpu: 2)"),
        "{text}"
    );
    assert!(text.contains("1 records"), "{text}");
}

#[test]
fn a_corrupt_line_is_an_error_with_file_and_line() {
    let dir = scratch("evidence-corrupt");
    let line = one_record(&dir);
    let bad = dir.join("bad");
    std::fs::create_dir_all(&bad).unwrap();
    let edited = line.replace("\"count\":2", "\"count\":\"two\"");
    write(&bad, "run.jsonl", &format!("{line}not json\n{edited}"));
    let out = gate(&["gate", "--model", "ptx"], &bad, &dir.join("tests"));
    assert_eq!(out.status.code(), Some(1), "a corrupt line fails the gate");
    let text = stdout(&out);
    let file = bad.join("run.jsonl").display().to_string();
    assert!(
        text.contains(&format!("error: {file}:2: corrupt record: not JSON")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "error: {file}:3: corrupt record: field `histogram`"
        )),
        "{text}"
    );
}

#[test]
fn flips_are_marked_observed_or_not_and_unmatched_evidence_is_reported() {
    let dir = scratch("evidence-flips");
    mp_tests(&dir, 2);
    let log = write(&dir, "l.log", &log(0, 1, 4));
    let into = dir.join("ev");
    assert!(import(&into, &dir.join("tests"), &log, "gpu")
        .output()
        .unwrap()
        .status
        .success());
    // MP_0 is edited after its evidence was recorded: the evidence is
    // stale, and MP_0 is judged as having none.
    write(
        &dir.join("tests"),
        "mp_0.litmus",
        &MP.replace("MP_N", "MP_0").replace("x, V", "x, 9"),
    );
    let out = gate(
        &["gate", "--model", "ptx", "--baseline", "sc"],
        &into,
        &dir.join("tests"),
    );
    let text = stdout(&out);
    assert!(text.contains("unmatched evidence: test `MP_0`"), "{text}");
    assert!(
        text.contains("stale: a test of that name was given, with another IR"),
        "{text}"
    );
    assert!(
        text.contains("MP_1: P1:r0=1; P1:r1=0  [no evidence]"),
        "{text}"
    );
    // The stale evidence still tells what the hardware did to the old IR:
    // judged from its recorded text, SC fails on it.
    let out = gate(
        &["gate", "--model", "sc", "--recorded"],
        &into,
        &dir.join("tests"),
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL recorded:")
            && text.contains("MP_0: the hardware showed `P1:r0=1; P1:r1=0` (4 times: gpu: 4)"),
        "{text}"
    );
    assert!(text.contains("0 unmatched"), "{text}");
    write(
        &dir.join("tests"),
        "mp_0.litmus",
        &MP.replace("MP_N", "MP_0").replace("x, V", "x, 1"),
    );
    let out = gate(
        &["gate", "--model", "ptx", "--baseline", "sc"],
        &into,
        &dir.join("tests"),
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("newly allowed    ")
            && text.contains("MP_0: P1:r0=1; P1:r1=0  [observed 4 times]"),
        "{text}"
    );
    assert!(text.contains("2 flips, 0 unmatched"), "{text}");
}

#[test]
fn unmatched_tests_in_a_log_are_reported_not_dropped() {
    let dir = scratch("evidence-unmatched");
    mp_tests(&dir, 1);
    let log = write(
        &dir,
        "l.log",
        &format!(
            "{}Test ghost Allowed\nHistogram (1 states)\n3 :>0:r0=1;\n",
            log(0, 1, 1)
        ),
    );
    let out = import(&dir.join("ev"), &dir.join("tests"), &log, "gpu")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("1 record imported, 1 test not imported"),
        "{}",
        stdout(&out)
    );
    assert!(
        stderr(&out).contains(&format!(
            "{}:9: test `ghost`: no test of that name",
            log.display()
        )),
        "{}",
        stderr(&out)
    );
}

#[test]
fn run_json_lines_import_as_evidence() {
    let dir = scratch("evidence-json");
    mp_tests(&dir, 1);
    let line = serde_json::json!({
        "test": "MP_0", "file": "x.litmus", "observables": ["P1:r0", "P1:r1"],
        "histogram": [{"outcome": [1, 0], "text": "P1:r0=1; P1:r1=0", "count": 7},
                      {"outcome": [1, 1], "text": "P1:r0=1; P1:r1=1", "count": 93}],
        "hardware": {"status": "ran"}, "device": "NVIDIA H100", "instances": 100,
        "unfinished": 0, "seed": 5, "knobs": "ctas=2048"
    });
    let skipped = serde_json::json!({"test": "MP_0", "hardware": {"status": "skipped"}});
    let log = write(&dir, "run.json", &format!("{line}\n{skipped}\n"));
    let out = import(&dir.join("ev"), &dir.join("tests"), &log, "-")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out)
        .contains("1 record imported, 0 tests not imported, 1 line without a hardware run"));
    let out = gate(
        &["gate", "--model", "sc"],
        &dir.join("ev"),
        &dir.join("tests"),
    );
    assert!(
        stdout(&out).contains("(7 times: NVIDIA H100: 7), which sc forbids"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn the_html_report_holds_every_test_and_the_forbidden_section_when_due() {
    let dir = scratch("evidence-html");
    mp_tests(&dir, 3);
    write(&dir.join("tests"), "sb_sc.litmus", SB_SC);
    let sb_log =
        "Test sb_sc Allowed\nHistogram (2 states)\n2 *>0:r0=0; 1:r1=0;\n98 :>0:r0=1; 1:r1=1;\n";
    let logs = [
        write(&dir, "mp.log", &log(0, 3, 1)),
        write(&dir, "sb.log", sb_log),
    ];
    for (i, l) in logs.iter().enumerate() {
        let into = dir.join(format!("ev{i}"));
        assert!(import(&into, &dir.join("tests"), l, "gpu")
            .output()
            .unwrap()
            .status
            .success());
    }
    let page = |evidence: &[&str]| {
        let html = dir.join("page.html");
        let mut c = bin();
        c.arg("report").arg("--html").arg(&html);
        for e in evidence {
            c.arg("--evidence").arg(dir.join(e));
        }
        let out = c.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::read_to_string(html).unwrap()
    };
    let html = page(&["ev0"]);
    for i in 0..3 {
        assert!(html.contains(&format!("<b>MP_{i}</b>")), "MP_{i} missing");
    }
    assert!(
        !html.contains("id=\"forbidden\""),
        "nothing forbidden was seen"
    );
    assert!(html.contains("data-family=\"MP\""));
    assert!(!html.contains("http"), "the page needs no network");
    let html = page(&["ev0", "ev1"]);
    let forbidden = html.find("id=\"forbidden\"").expect("a forbidden section");
    let first_family = html.find("class=\"family\"").unwrap();
    assert!(
        forbidden < first_family,
        "the forbidden section comes first"
    );
    let section = &html[forbidden..first_family];
    assert!(
        section.contains("data-test=\"sb_sc\"") && section.contains("P0:r0=0; P1:r1=0"),
        "{section}"
    );
    assert!(html.contains("data-family=\"SB\""));
}

#[test]
fn bad_command_lines_say_what_is_wrong() {
    for (args, message) in [
        (
            &["gate", "--evidence", "e", "t"][..],
            "`--model` is required",
        ),
        (
            &["gate", "--model", "nope", "--evidence", "e", "t"],
            "unknown model",
        ),
        (&["gate", "--model", "ptx", "t"], "`--evidence` is required"),
        (&["report", "--evidence", "e"], "`--out` is required"),
        (&["evidence", "export"], "unknown command `export`"),
        (
            &["evidence", "import", "--into", "d", "l"],
            "`--tests` is required",
        ),
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    let out = bin()
        .args([
            "gate",
            "--model",
            "ptx",
            "--evidence",
            "/nonexistent/evidence",
            "t",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cannot read /nonexistent/evidence"),
        "{}",
        stderr(&out)
    );
}

/// The evidence the project recorded on an H100 (`evidence/h100`, README
/// "Hardware evidence") gates the built-in models without a GPU: `ptx`
/// allows every outcome the H100 showed, `sc` does not, and the gate names
/// the classic shapes whose weak outcome the H100 showed, with counts.
#[test]
fn the_shipped_h100_evidence_passes_ptx_and_fails_sc() {
    let evidence = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../evidence/h100");
    let ptx = bin()
        .args(["gate", "--model", "ptx", "--evidence"])
        .arg(&evidence)
        .output()
        .unwrap();
    let text = stdout(&ptx);
    assert_eq!(ptx.status.code(), Some(0), "{text}{}", stderr(&ptx));
    assert!(text.contains(" 0 failures"), "{text}");
    assert!(text.contains("1 device"), "{text}");
    let sc = bin()
        .args(["gate", "--model", "sc", "--evidence"])
        .arg(&evidence)
        .output()
        .unwrap();
    let text = stdout(&sc);
    assert_eq!(sc.status.code(), Some(1), "{text}{}", stderr(&sc));
    for name in [
        "mp_relaxed_gpu_inter_cta",
        "sb_relaxed_gpu_inter_cta",
        "iriw_relaxed_gpu_inter_cta",
        "two_plus_two_w_relaxed_gpu_inter_cta",
        "wrc_relaxed_gpu_inter_cta",
        "lb_relaxed_gpu_inter_cta",
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("FAIL recorded:{name}: ")))
            .unwrap_or_else(|| panic!("{name} not named:\n{text}"));
        assert!(line.contains("NVIDIA H100 80GB HBM3: "), "{line}");
    }
    // The fenced and release/acquire versions of those shapes are no
    // failure under sc either: the H100 never showed their weak outcome.
    for name in ["mp_fence_sc_gpu_inter_cta", "mp_rel_acq_gpu_inter_cta"] {
        assert!(!text.contains(&format!("FAIL recorded:{name}: ")), "{text}");
    }
}

/// The evidence of the catalogue's tests across GPUs, recorded on two and
/// four H200s joined by NVLink (`evidence/h200-x2`, `evidence/h200-x4`):
/// `ptx` allows every outcome they showed; `sc` does not, and the gate
/// names the relaxed `.sys` shapes whose weak outcome showed across GPUs,
/// each record naming the devices and the link between them.
#[test]
fn the_shipped_multi_gpu_evidence_passes_ptx_and_fails_sc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../evidence");
    let gate = |model: &str| {
        bin()
            .args(["gate", "--model", model, "--evidence"])
            .arg(root.join("h200-x2"))
            .arg("--evidence")
            .arg(root.join("h200-x4"))
            .output()
            .unwrap()
    };
    let ptx = gate("ptx");
    let text = stdout(&ptx);
    assert_eq!(ptx.status.code(), Some(0), "{text}{}", stderr(&ptx));
    assert!(text.contains(" 0 failures"), "{text}");
    let sc = gate("sc");
    let text = stdout(&sc);
    assert_eq!(sc.status.code(), Some(1), "{text}{}", stderr(&sc));
    for name in [
        "mp_relaxed_sys_two_gpus",
        "sb_relaxed_sys_two_gpus",
        "iriw_relaxed_sys_two_gpus",
        "mp_relaxed_sys_both_at_reader",
        "mp_relaxed_sys_flag_at_reader",
    ] {
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("FAIL recorded:{name}: ")))
            .unwrap_or_else(|| panic!("{name} not named:\n{text}"));
        assert!(
            line.contains("NVIDIA H200 (logical GPUs on devices 0,1; 0-1 NVLink, P2P rank 0)"),
            "{line}"
        );
    }
    // The `fence.sc.sys` versions showed nothing; nor, across GPUs, did
    // the `.gpu`-scope fences PTX leaves unordered (the scope edge).
    for name in [
        "mp_fence_sc_sys_two_gpus",
        "iriw_fence_sc_sys_two_gpus",
        "mp_fence_sc_gpu_two_gpus",
        "iriw_fence_sc_gpu_two_gpus",
    ] {
        assert!(!text.contains(&format!("FAIL recorded:{name}: ")), "{text}");
    }
}
