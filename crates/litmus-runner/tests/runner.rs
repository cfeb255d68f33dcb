//! The verdict of a test run and its reports, without a GPU: the hardware's
//! histogram is given by hand, so the failure message for a forbidden
//! outcome and the files a run writes can be checked anywhere.

use std::path::PathBuf;
use std::time::Duration;

use litmus_hw::{HwResult, Knobs};
use litmus_model::{model_by_name, Options};
use litmus_runner::report;
use litmus_runner::runner::{judge, run_test, Failure, Hardware, Source};
use litmus_runner::Config;
use litmus_text as text;

const MP_RELACQ: &str = "PTX mp_relacq\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0) => forbidden\n";

fn cargo() -> Source {
    Source::CargoTest("catalogue::mp_relacq".into())
}

fn config(model: &str) -> Config {
    Config {
        model: model_by_name(model).unwrap(),
        options: Options::default(),
        knobs: Knobs {
            seed: 1234,
            launches: Some(10),
            ..Knobs::default()
        },
        report_dir: None,
        evidence_dir: None,
        hardware: false,
        tuning: None,
        portfolio: litmus_runner::portfolio::Portfolio::off(),
    }
}

/// A histogram as the GPU would return it: outcomes are (r0, r1).
fn ran(histogram: Vec<(Vec<u32>, u64)>) -> Hardware {
    let instances = histogram.iter().map(|(_, c)| c).sum();
    Hardware::Ran(Box::new(HwResult {
        histogram,
        unfinished: 0,
        launches: 10,
        instances,
        wall: Duration::from_millis(3),
        device: "NVIDIA H100 80GB HBM3".into(),
        knobs: Knobs {
            seed: 1234,
            launches: Some(10),
            ..Knobs::default()
        },
        host_threads: 0,
        build: Default::default(),
    }))
}

#[test]
fn the_declared_verdict_is_checked_against_the_model() {
    let test = text::parse(MP_RELACQ).unwrap();
    let ok = run_test(&test, None, &config("ptx"), cargo());
    assert!(ok.passed(), "{:?}", ok.failures);
    let sc = run_test(&test, None, &config("sc"), cargo());
    assert!(sc.passed(), "SC forbids it too");
    let flipped = text::parse(&MP_RELACQ.replace("=> forbidden", "=> allowed")).unwrap();
    let bad = run_test(&flipped, None, &config("ptx"), cargo());
    assert_eq!(
        bad.failures,
        vec![Failure::VerdictMismatch {
            declared: litmus_core::ir::Verdict::Allowed,
            computed: litmus_core::ir::Verdict::Forbidden,
        }]
    );
    let msg = report::text::failure_message(&bad);
    assert!(
        msg.contains("declared allowed, but the model says forbidden"),
        "{msg}"
    );
}

#[test]
fn a_forbidden_outcome_on_the_hardware_fails_with_table_explanation_and_reproduction() {
    let test = text::parse(MP_RELACQ).unwrap();
    let hw = ran(vec![(vec![0, 0], 500), (vec![1, 1], 480), (vec![1, 0], 3)]);
    let r = judge(&test, &config("ptx"), hw, Vec::new(), cargo());
    assert_eq!(
        r.failures,
        vec![Failure::ForbiddenObserved {
            outcomes: 1,
            count: 3
        }]
    );
    let msg = report::text::failure_message(&r);
    for needle in [
        "litmus test `mp_relacq` failed under model ptx",
        "the hardware showed 1 outcome the model forbids (3 times)",
        "* P1:r0=1; P1:r1=0",
        "FORBIDDEN",
        "why P1:r0=1; P1:r1=0 is forbidden:",
        "Causality",
        "-sw->",
        "allowed but never seen: P1:r0=0; P1:r1=1",
        "condition outcome observed",
        "NVIDIA H100 80GB HBM3",
        "reproduce: LITMUS_SEED=1234 LITMUS_LAUNCHES=10 LITMUS_MODEL=ptx cargo test catalogue::mp_relacq -- --exact",
    ] {
        assert!(msg.contains(needle), "missing {needle:?} in:\n{msg}");
    }
}

#[test]
fn allowed_outcomes_never_seen_do_not_fail() {
    let test = text::parse(MP_RELACQ).unwrap();
    let r = judge(
        &test,
        &config("ptx"),
        ran(vec![(vec![0, 0], 10)]),
        Vec::new(),
        cargo(),
    );
    assert!(r.passed(), "{:?}", r.failures);
    assert_eq!(r.condition_seen(), Some(false));
    let line = report::text::summary(&r);
    assert!(line.contains("2 allowed outcome(s) never seen"), "{line}");
}

#[test]
fn under_sc_the_weak_mp_outcome_fails() {
    let test = text::parse(
        &MP_RELACQ
            .replace("st.release.gpu", "st.relaxed.gpu")
            .replace("ld.acquire.gpu", "ld.relaxed.gpu")
            .replace("=> forbidden", ""),
    )
    .unwrap();
    let r = judge(
        &test,
        &config("sc"),
        ran(vec![(vec![1, 0], 7), (vec![1, 1], 5)]),
        Vec::new(),
        cargo(),
    );
    assert_eq!(
        r.failures,
        vec![Failure::ForbiddenObserved {
            outcomes: 1,
            count: 7
        }]
    );
    assert!(report::text::failure_message(&r).contains("model sc"));
    let ptx = judge(
        &test,
        &config("ptx"),
        ran(vec![(vec![1, 0], 7), (vec![1, 1], 5)]),
        Vec::new(),
        cargo(),
    );
    assert!(ptx.passed(), "PTX allows relaxed MP's weak outcome");
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-litmus-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The value of attribute `name` in the first element `tag` of `xml`.
fn attr<'x>(xml: &'x str, tag: &str, name: &str) -> &'x str {
    let start = xml
        .find(&format!("<{tag} "))
        .unwrap_or_else(|| panic!("no <{tag}> in {xml}"));
    let end = start + xml[start..].find('>').unwrap();
    let element = &xml[start..end];
    let key = format!(" {name}=\"");
    let at = element
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {element}"))
        + key.len();
    &element[at..at + element[at..].find('"').unwrap()]
}

#[test]
fn reports_are_written_as_json_per_test_and_junit_per_binary() {
    let dir = scratch_dir("reports");
    let pass = text::parse(MP_RELACQ).unwrap();
    let r = judge(
        &pass,
        &config("ptx"),
        ran(vec![(vec![0, 0], 6), (vec![1, 1], 4)]),
        Vec::new(),
        cargo(),
    );
    report::write(&dir, &r, Duration::from_millis(12)).unwrap();
    let fail = text::parse(
        &MP_RELACQ
            .replace("PTX mp_relacq", "PTX mp_flipped")
            .replace("=> forbidden", "=> allowed"),
    )
    .unwrap();
    let f = judge(
        &fail,
        &config("ptx"),
        Hardware::Skipped("no CUDA driver or device".into()),
        Vec::new(),
        Source::CargoTest("catalogue::mp_flipped".into()),
    );
    report::write(&dir, &f, Duration::from_millis(5)).unwrap();

    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("catalogue__mp_relacq.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(json["test"], "mp_relacq");
    assert_eq!(json["model"], "ptx");
    assert_eq!(json["declared_verdict"], "forbidden");
    assert_eq!(json["computed_verdict"], "forbidden");
    assert_eq!(json["passed"], true);
    assert_eq!(json["seed"], 1234);
    assert_eq!(json["budget"]["launches"], 10);
    assert_eq!(json["device"], "NVIDIA H100 80GB HBM3");
    assert_eq!(json["observables"], serde_json::json!(["P1:r0", "P1:r1"]));
    assert_eq!(json["allowed"].as_array().unwrap().len(), 3);
    let hist = json["histogram"].as_array().unwrap();
    assert_eq!(hist.len(), 2);
    assert!(hist
        .iter()
        .any(|h| h["outcome"] == serde_json::json!([0, 0])
            && h["count"] == 6
            && h["allowed"] == true));

    let failed: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("catalogue__mp_flipped.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(failed["passed"], false);
    assert_eq!(failed["hardware"]["status"], "skipped");
    assert_eq!(
        failed["failures"][0],
        "declared allowed, but the model says forbidden"
    );

    let junit_path = report::junit::path(&dir);
    let xml = std::fs::read_to_string(&junit_path).unwrap();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
    assert_eq!(attr(&xml, "testsuite", "name"), report::junit::suite_name());
    assert_eq!(attr(&xml, "testsuite", "tests"), "2");
    assert_eq!(attr(&xml, "testsuite", "failures"), "1");
    assert_eq!(attr(&xml, "testcase", "name"), "catalogue::mp_relacq");
    let flipped_case = &xml[xml.find("name=\"catalogue::mp_flipped\"").unwrap()..];
    assert!(flipped_case
        .contains("<failure message=\"litmus test `mp_flipped` failed under model ptx:\">"));
    assert_eq!(xml.matches("<testcase ").count(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn xml_escaping_keeps_the_file_well_formed() {
    assert_eq!(
        report::junit::escape("a<b & \"c\" 'd'>\u{1}"),
        "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
    );
}

#[test]
fn two_files_with_one_test_name_keep_two_reports() {
    let dir = scratch_dir("same-name");
    let test = text::parse(MP_RELACQ).unwrap();
    let flipped = text::parse(&MP_RELACQ.replace("=> forbidden", "=> allowed")).unwrap();
    let a = judge(
        &flipped,
        &config("ptx"),
        Hardware::Off,
        Vec::new(),
        Source::File("a/mp.litmus".into()),
    );
    let b = judge(
        &test,
        &config("ptx"),
        Hardware::Off,
        Vec::new(),
        Source::File("b/mp.litmus".into()),
    );
    report::write(&dir, &a, Duration::ZERO).unwrap();
    report::write(&dir, &b, Duration::ZERO).unwrap();
    let xml = std::fs::read_to_string(report::junit::path(&dir)).unwrap();
    assert_eq!(attr(&xml, "testsuite", "failures"), "1", "{xml}");
    assert!(xml.contains("name=\"a/mp.litmus\"") && xml.contains("name=\"b/mp.litmus\""));
    assert!(dir.join("a_mp.litmus.json").exists() && dir.join("b_mp.litmus.json").exists());
    let msg = report::text::failure_message(&a);
    assert!(
        msg.contains("gpu-litmus run --model ptx a/mp.litmus"),
        "{msg}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A spin loop: the model's default bound (1, as Dat3M's corpus) cuts every
/// execution that retries, but the hardware retries freely.
const SPIN: &str = "PTX spin\n{ x=0; P0:r1=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n LC00: | st.relaxed.gpu x, 1 ;\n ld.relaxed.gpu r0, x | st.relaxed.gpu x, 2 ;\n add r1, r1, 1 | ;\n beq r0, 0, LC00 | ;\nexists (P0:r1 == 1)\n";

#[test]
fn outcomes_that_need_more_loop_iterations_are_not_violations() {
    let test = text::parse(SPIN).unwrap();
    // r0 = 1 or 2 after one try (r1 = 1), or after three tries (r1 = 3).
    let hw = ran(vec![(vec![1], 50), (vec![3], 7)]);
    let r = judge(&test, &config("ptx"), hw, Vec::new(), cargo());
    assert!(r.passed(), "{:?}", r.failures);
    let row = r.rows.iter().find(|row| row.values == vec![3]).unwrap();
    assert!(!row.allowed && row.beyond_loop_bound, "{row:?}");
    assert!(report::text::table(&r).contains("allowed beyond the loop bound"));
    // An outcome no number of iterations gives is still a violation.
    let bad = judge(
        &test,
        &config("ptx"),
        ran(vec![(vec![0], 1)]),
        Vec::new(),
        cargo(),
    );
    assert_eq!(
        bad.failures,
        vec![Failure::ForbiddenObserved {
            outcomes: 1,
            count: 1
        }]
    );
}

/// A proxy test the GPU cannot build (a surface alias of global memory):
/// the model `ptx-7.5` decides, and the hardware half is not run, with the
/// reason, as for a test placed on nine GPUs; nothing fails.
#[test]
fn a_surface_alias_is_checked_by_the_model_and_not_run_on_the_hardware() {
    let test = text::parse("PTX mp_surface\n{ x=0; s @ surface aliases x; flag=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n sust.weak s, 2 | ld.acquire.gpu r0, flag ;\n st.release.gpu flag, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 != 2)\n").unwrap();
    let config = Config {
        hardware: true,
        ..config("ptx-7.5")
    };
    let r = run_test(
        &test,
        None,
        &config,
        Source::File("mp_surface.litmus".into()),
    );
    let Hardware::NotRun(why) = &r.hardware else {
        panic!(
            "expected not run, got {:?}",
            report::text::hardware_line(&r)
        );
    };
    assert!(why.contains("`s` is a surface alias of `x`"), "{why}");
    assert!(why.contains("CUDA surfaces bind only CUDA arrays"), "{why}");
    assert!(
        report::text::hardware_line(&r).starts_with("hardware: not run, `sust` in thread `P0`"),
        "{}",
        report::text::hardware_line(&r)
    );
    assert!(r.failures.is_empty(), "{:?}", r.failures);
    assert!(r.computed.is_some(), "the model decides");
}
