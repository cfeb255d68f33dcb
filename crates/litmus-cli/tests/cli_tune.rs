//! `gpu-litmus tune` and tuning files, run as a user runs them. Without a
//! GPU, tune says in one line that it skipped and writes nothing; on the
//! GPU machine it searches and writes an entry that `run` then uses.

mod cli_support;

use cli_support::{bin, scratch, stderr, stdout, write, MP_RELACQ};
use serde_json::Value;

const MP: &str = "PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0      ;
 st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;
 st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;
exists (P1:r0 == 1 /\\ P1:r1 == 0) => allowed
";

#[test]
fn tune_writes_an_entry_that_run_then_uses_or_says_it_skipped() {
    let dir = scratch("tune_entry");
    let mp = write(&dir, "mp.litmus", MP);
    let file = dir.join("tuning.toml");
    let out = bin()
        .args([
            "tune",
            "--budget-ms",
            "300",
            "--tune-configs",
            "4",
            "--seed",
            "1",
            "--tuning",
        ])
        .arg(&file)
        .arg(&mp)
        .output()
        .unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    if text.starts_with("tune: skipped, ") {
        assert_eq!(text.lines().count(), 1, "{text}");
        assert!(!file.exists(), "nothing is written without a GPU");
        return;
    }
    assert!(text.contains("mp.litmus: best "), "{text}");
    let written = std::fs::read_to_string(&file).unwrap();
    let table: toml::Table = written.parse().unwrap();
    // One table per device kind the node has, named after it.
    let kinds = table["tests"]["MP"].as_table().unwrap();
    assert!(!kinds.is_empty(), "{written}");
    for (kind, entry) in kinds {
        assert!(kind.starts_with("NVIDIA"), "{written}");
        assert!(entry["instances"].as_integer().unwrap() > 0, "{written}");
        assert!(entry["knobs"].is_table(), "{written}");
    }
    let out = bin()
        .args(["run", "--format", "json", "--launches", "1", "--tuning"])
        .arg(&file)
        .arg(&mp)
        .output()
        .unwrap();
    let record: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(
        record["reproduce"]
            .as_str()
            .unwrap()
            .starts_with(&format!("LITMUS_TUNING={} ", file.display())),
        "{record}"
    );
}

#[test]
fn run_takes_a_tuning_file_and_names_it_in_the_reproduce_line() {
    let dir = scratch("tune_run");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let file = write(
        &dir,
        "t.toml",
        "[tests.\"MP-relacq\".knobs]\nLITMUS_CTAS = \"1024\"\nLITMUS_STRESS = \"64:16\"\nLITMUS_SHUFFLE_PCT = \"25\"\n",
    );
    let out = bin()
        .args([
            "run",
            "--format",
            "json",
            "--launches",
            "1",
            "--seed",
            "4",
            "--tuning",
        ])
        .arg(&file)
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let record: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let reproduce = record["reproduce"].as_str().unwrap();
    for part in [
        format!("LITMUS_TUNING={}", file.display()),
        "LITMUS_CTAS=1024".into(),
        "LITMUS_STRESS=64:16".into(),
        "LITMUS_SHUFFLE_PCT=25".into(),
    ] {
        assert!(reproduce.contains(&part), "{part} in {reproduce}");
    }
    assert!(
        record["knobs"].as_str().unwrap().contains("shuffle_pct=25"),
        "{record}"
    );
}

#[test]
fn a_bad_tuning_file_is_an_error_with_its_line_and_column() {
    let dir = scratch("tune_bad");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let bad = write(&dir, "bad.toml", "[tests.MP\nLITMUS_CTAS = 3\n");
    let out = bin()
        .args(["run", "--tuning"])
        .arg(&bad)
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(&format!("tuning file {}", bad.display())),
        "{err}"
    );
    assert!(err.contains("line 1, column"), "{err}");
    let wrong = write(
        &dir,
        "wrong.toml",
        "[tests.MP.knobs]\nLITMUS_THREADS = \"2048\"\n",
    );
    let out = bin()
        .args(["run", "--tuning"])
        .arg(&wrong)
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("test `MP`: bad value `2048` for LITMUS_THREADS"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn tune_command_line_mistakes_are_usage_errors() {
    for (args, expected) in [
        (&["tune"][..], "no files to tune"),
        // `--configs` is the other spelling: the error names the one.
        (
            &["tune", "--configs", "1", "x.litmus"],
            "`--tune-configs` takes a whole number of at least 2, not `1`",
        ),
        (&["tune", "--budget-ms", "0", "x.litmus"], "--budget-ms"),
        (
            &["tune", "--colour", "x.litmus"],
            "unknown option `--colour`",
        ),
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}
