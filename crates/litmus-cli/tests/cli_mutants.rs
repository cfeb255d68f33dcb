//! `gpu-litmus mutants` and `gpu-litmus diff` through the binary: a tiny cat
//! model whose mutants the evidence and the declared verdicts kill or not,
//! kill tests for the survivors, model diffs over generated families, and
//! the errors of bad command lines, bad cat text and bad evidence.

mod cli_support;

use std::path::{Path, PathBuf};

use cli_support::mutant_models::{CORR, SB, TINY};
use cli_support::{bin, scratch, stderr, stdout, write};
use litmus_evidence::{Record, Run};
use serde_json::Value;

/// MP, whose weak outcome the model allows (and the hardware shows).
const MP: &str = "PTX mp
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;
 st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;
exists (P1:r0 == 1 /\\ P1:r1 == 0) => allowed
";

/// A folder with the tiny model, its three tests under `tests/`, and an
/// evidence file in which MP showed all four outcomes (its weak one 7
/// times among 100).
fn fixture(name: &str) -> PathBuf {
    let dir = scratch(name);
    write(&dir, "tiny.cat", TINY);
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    write(&tests, "mp.litmus", MP);
    write(&tests, "sb.litmus", SB);
    write(&tests, "corr.litmus", CORR);
    let evidence = dir.join("evidence");
    std::fs::create_dir_all(&evidence).unwrap();
    let mp = litmus_text::parse(MP).unwrap();
    let histogram = [
        (vec![0, 0], 40),
        (vec![1, 1], 33),
        (vec![0, 1], 20),
        (vec![1, 0], 7),
    ];
    let mut record = Record::of_run(
        &mp,
        &Run {
            histogram: &histogram,
            instances: 100,
            unfinished: 0,
            device: "Test GPU",
            knobs: "ctas=1",
            seed: 1,
        },
        "mp.litmus",
    );
    record.run = "handmade-1".to_string();
    write(
        &evidence,
        "handmade.jsonl",
        &format!("{}\n", record.to_json()),
    );
    dir
}

/// `gpu-litmus mutants ARGS`, run in `dir`.
fn mutants(dir: &Path, args: &[&str]) -> std::process::Output {
    bin()
        .current_dir(dir)
        .arg("mutants")
        .args(args)
        .output()
        .unwrap()
}

/// The mutant of `json` whose description is `description`.
fn mutant<'a>(json: &'a Value, description: &str) -> &'a Value {
    json["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["description"] == description)
        .unwrap_or_else(|| panic!("no mutant `{description}` in {json:#}"))
}

#[test]
fn the_tiny_models_mutants_are_classified_and_killed_as_expected() {
    let dir = fixture("mutants-tiny");
    let out = mutants(
        &dir,
        &[
            "tiny.cat",
            "--evidence",
            "evidence",
            "tests",
            "--format",
            "json",
            "--out",
            "score.json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    // The file holds the same object.
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("score.json")).unwrap()).unwrap();
    assert_eq!(json, file);
    assert_eq!(json["base"]["passes_gate"], true, "{json:#}");
    assert_eq!(json["tests"]["given"], 3);
    assert_eq!(json["tests"]["recorded"], 0, "MP's evidence is MP's file");

    // Stronger on SB only, which has no evidence and no verdict: survives.
    let acyclic = mutant(&json, "`irreflexive` → `acyclic` in the check `sb`");
    assert_eq!(acyclic["class"], "stronger");
    assert_eq!(acyclic["killed_by"], Value::Null);
    assert_eq!(
        (acyclic["line"].clone(), acyclic["column"].clone()),
        (3.into(), 1.into())
    );

    // `_ * _; fr` is reflexive at every write that a read reads before:
    // every outcome of MP but r0 = r1 = 1 (no stale read, no `fr` edge)
    // is forbidden, and the hardware showed them 40 + 20 + 7 times.
    let full = mutant(&json, "replace `po` by the full relation");
    assert_eq!(full["class"], "stronger");
    assert_eq!(full["killed_by"], "evidence");
    assert_eq!(full["kills"][0]["test"], "mp");
    assert_eq!(full["kills"][0]["count"], 67);
    assert_eq!(full["kills"][0]["outcomes"].as_array().unwrap().len(), 3);

    // Without coherence CoRR's stale read is allowed, which its declared
    // verdict says is not.
    let drop = mutant(&json, "drop the check `coherence`");
    assert_eq!(drop["class"], "weaker");
    assert_eq!(drop["killed_by"], "verdict");
    assert_eq!(drop["kills"][0]["test"], "corr");
    assert_eq!(drop["kills"][0]["declared"], "forbidden");

    // The summary adds up, and the score is killed / (N - E).
    let s = &json["summary"];
    let n = s["mutants"].as_u64().unwrap();
    let e = s["equivalent"].as_u64().unwrap();
    let (k1, k2) = (
        s["killed_by_evidence"].as_u64().unwrap(),
        s["killed_by_verdicts"].as_u64().unwrap(),
    );
    assert_eq!(n, json["mutants"].as_array().unwrap().len() as u64);
    assert_eq!(k1 + k2 + s["survived"].as_u64().unwrap(), n);
    let score = s["score"].as_f64().unwrap();
    assert!(
        (score - (k1 + k2) as f64 / (n - e) as f64).abs() < 1e-9,
        "{s}"
    );
    assert!(k1 >= 1 && k2 >= 1 && score < 1.0, "{s}");

    // The text table says the same.
    let out = mutants(&dir, &["tiny.cat", "--evidence", "evidence", "tests"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let row = text
        .lines()
        .find(|l| l.ends_with("replace `po` by the full relation"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(row.contains("tiny.cat:3:13"), "{row}");
    assert!(
        row.contains("stronger") && row.contains("evidence") && row.contains("mp (67)"),
        "{row}"
    );
    let row = text
        .lines()
        .find(|l| l.ends_with("drop the check `coherence`"))
        .unwrap();
    assert!(
        row.contains("verdict") && row.contains("corr (declared forbidden)"),
        "{row}"
    );
    assert!(text.contains("the model passes the gate"), "{text}");
    let last = text.lines().last().unwrap();
    assert_eq!(
        last,
        format!(
            "mutants: {n} ({e} equivalent on these tests), killed by evidence {k1}, by verdicts {k2}, survived {}; score = killed / (N - E) = {}/{} = {score:.3}",
            n - k1 - k2,
            k1 + k2,
            n - e
        )
    );
}

#[test]
fn kill_tests_are_written_for_the_surviving_stronger_mutants() {
    let dir = fixture("mutants-kill");
    let out = mutants(
        &dir,
        &[
            "tiny.cat",
            "--evidence",
            "evidence",
            "tests",
            "--kill-tests",
            "kill",
            "--shapes",
            "MP,SB",
        ],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    let number = text
        .lines()
        .find(|l| l.ends_with("`irreflexive` → `acyclic` in the check `sb`"))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .to_string();
    assert!(
        text.contains(&format!(
            "  #{number}: 1 test in kill/{number} (first: SB+cta0_1+gpu.litmus)"
        )),
        "{text}"
    );
    assert!(
        text.contains("(bound: shapes MP, SB; no cycle; gen's default options)"),
        "{text}"
    );
    // The test declares the model's verdict and says what it is for; the
    // model checks it as declared.
    let file = dir.join(format!("kill/{number}/SB+cta0_1+gpu.litmus"));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(
        written.contains("the model allows and the mutant forbids: P0:r0=0; P1:r0=0"),
        "{written}"
    );
    assert!(written.contains("=> allowed"), "{written}");
    let check = bin()
        .args(["check", "--model"])
        .arg(dir.join("tiny.cat"))
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
}

#[test]
fn the_evidence_alone_gives_the_tests_when_no_file_is_given() {
    let dir = fixture("mutants-recorded");
    let out = mutants(&dir, &["tiny.cat", "--evidence", "evidence"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains("1 tests, all recorded in the evidence (no FILE|DIR given, so nothing else)"),
        "{text}"
    );
}

#[test]
fn a_model_that_fails_the_gate_is_said_to_and_still_scored() {
    // Sequential consistency forbids MP's weak outcome, which the
    // hardware showed 7 times.
    let dir = fixture("mutants-sc");
    let out = mutants(&dir, &["sc", "--evidence", "evidence", "tests/mp.litmus"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(text.contains("mutants of models/sc.cat: "), "{text}");
    assert!(
        text.contains("the model FAILS the gate: 1 observed outcome is forbidden"),
        "{text}"
    );
    assert!(
        text.lines().last().unwrap().starts_with("mutants: "),
        "{text}"
    );
}

#[test]
fn bad_inputs_are_one_clear_error_each() {
    let dir = fixture("mutants-errors");
    // Bad cat text: where, and exit 1.
    write(&dir, "bad.cat", "let a = po |\nacyclic a\n");
    let out = mutants(&dir, &["bad.cat", "--evidence", "evidence"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("error: bad.cat:2:1: "),
        "{}",
        stderr(&out)
    );
    // Unknown models and models with no twin: command-line mistakes.
    let out = mutants(&dir, &["tso", "--evidence", "evidence"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown model `tso`; the models are: ptx, sc"),
        "{}",
        stderr(&out)
    );
    let out = mutants(&dir, &["ptx-7.5", "--evidence", "evidence"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("model `ptx-7.5` has no cat twin in models/"),
        "{}",
        stderr(&out)
    );
    // No test at all.
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let out = mutants(&dir, &["tiny.cat", "--evidence", "empty"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("error: no test: no FILE|DIR was given"),
        "{}",
        stderr(&out)
    );
    // A corrupt evidence line and a recorded test whose text is not the
    // test its hash names: one line each, and the rest is still scored.
    let mut text = std::fs::read_to_string(dir.join("evidence/handmade.jsonl")).unwrap();
    let mut record: Value = serde_json::from_str(text.trim()).unwrap();
    record["test"] = "other".into();
    record["seq"] = 1.into();
    text.push_str(&format!("{record}\n{{not json\n"));
    write(&dir.join("evidence"), "handmade.jsonl", &text);
    let out = mutants(&dir, &["tiny.cat", "--evidence", "evidence", "tests"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("handmade.jsonl:3: "), "{err}");
    assert!(
        err.contains("recorded test `other` (IR ")
            && err.contains("the recorded text is not the test its name and hash say"),
        "{err}"
    );
    assert!(stdout(&out)
        .lines()
        .last()
        .unwrap()
        .starts_with("mutants: "));
}

#[test]
fn help_and_usage_errors() {
    let out = bin().args(["mutants", "--help"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let help = stdout(&out);
    for word in [
        "--evidence",
        "--kill-tests",
        "--shapes",
        "killed by evidence",
        "EXIT STATUS",
    ] {
        assert!(help.contains(word), "{word}: {help}");
    }
    let out = bin().args(["help", "diff"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).contains("no difference among N tests"),
        "{}",
        stdout(&out)
    );
    for (args, message) in [
        (&["mutants"][..], "a model is required"),
        (&["mutants", "ptx"], "`--evidence` is required"),
        (
            &["mutants", "ptx", "--evidence", "e", "--shapes", "MP"],
            "`--shapes` chooses the candidates of --kill-tests",
        ),
        (
            &[
                "mutants",
                "ptx",
                "--evidence",
                "e",
                "--kill-tests",
                "k",
                "--shapes",
                "XX",
            ],
            "unknown shape `XX`",
        ),
        (
            &["mutants", "ptx", "--evidence", "e", "--threads", "0"],
            "`--threads` takes a whole number of at least 1",
        ),
        (
            &["mutants", "ptx", "--evidence", "e", "--bogus"],
            "unknown option `--bogus`",
        ),
        (&["diff", "ptx"], "a second model is required"),
        (&["diff", "ptx", "tso"], "unknown model `tso`"),
        (
            &["diff", "ptx", "sc", "--placements", "nowhere"],
            "--placements",
        ),
        (&["diff", "ptx", "sc", "--cycle", "PodWW Rfe"], "the cycle"),
        (
            &["diff", "ptx", "sc", "--cycles-up-to", "9"],
            "cycles have 2 to 8 edges",
        ),
        (
            &["diff", "ptx", "sc", "--cycles-up-to", "many"],
            "`--cycles-up-to` needs a number, not `many`",
        ),
        (
            &[
                "diff",
                "ptx",
                "sc",
                "--cycles-up-to",
                "4",
                "--edges",
                "Rfe,PodQQ",
            ],
            "`PodQQ`",
        ),
        (
            &["diff", "ptx", "sc", "--edges", "Rfe,Fre"],
            "give `--cycles-up-to N` too",
        ),
        (
            &[
                "diff",
                "ptx",
                "sc",
                "--cycles-up-to",
                "4",
                "--max-threads",
                "1",
            ],
            "a cycle has 2 threads or more",
        ),
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("Usage: gpu-litmus"), "{args:?}");
    }
}

#[test]
fn diff_ptx_sc_lists_mp_and_sb_first_and_writes_them_ready_to_run() {
    let dir = scratch("diff-ptx-sc");
    let out = bin()
        .args(["diff", "ptx", "sc", "--shapes", "IRIW,SB,MP", "--out"])
        .arg(dir.join("out"))
        .output()
        .unwrap();
    let text = stdout(&out);
    // Differences found: exit 1, as diff(1).
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("      "))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(listed.len(), 3, "{text}");
    let mut first_two = listed[..2].to_vec();
    first_two.sort();
    assert_eq!(first_two, ["MP+cta0_1+gpu", "SB+cta0_1+gpu"], "{text}");
    assert!(listed[2].starts_with("IRIW"), "{text}");
    assert!(
        text.contains("MP+cta0_1+gpu (2 threads, 4 instructions): ptx allowed, sc forbidden; only ptx allows `P1:r0=1; P1:r1=0`"),
        "{text}"
    );
    // Each file declares sc's verdict, which `check --model sc` confirms.
    let written = std::fs::read_to_string(dir.join("out/MP+cta0_1+gpu.litmus")).unwrap();
    assert!(
        written.contains("gpu-litmus diff: ptx says allowed, sc says forbidden"),
        "{written}"
    );
    assert!(written.contains("=> forbidden"), "{written}");
    let files: Vec<PathBuf> = std::fs::read_dir(dir.join("out"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 3);
    let check = bin()
        .args(["check", "--model", "sc"])
        .args(&files)
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    // JSON says the same, and a model does not differ from itself.
    let out = bin()
        .args(["diff", "ptx", "sc", "--shapes", "MP", "--format", "json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["differences"][0]["test"], "MP+cta0_1+gpu");
    assert_eq!(json["differences"][0]["old"], "allowed");
    let out = bin()
        .args(["diff", "ptx", "ptx", "--shapes", "MP,SB"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "no difference among 2 tests (bound: shapes MP, SB; no cycle; gen's default options)\n"
    );
}

/// The two hand-made mutants of several edits, on the built-in `ptx`
/// (its twin `models/ptx.cat`) and, with the corpus, on Dat3M's
/// `ptx-v6.0.cat`: both listed under their operator's name, at the first
/// `REL` they widen and at the end of the file where the axiom goes, and
/// both killed by MP's weak outcome, which the evidence shows and both
/// forbid.
#[test]
fn the_composite_mutants_are_listed_where_they_edit_and_killed_by_evidence() {
    let dir = fixture("mutants-composite");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut models = vec![("ptx".to_string(), repo.join("models/ptx.cat"))];
    match std::env::var_os("LITMUS_CONFORMANCE_DIR") {
        Some(corpus) => {
            let v6 = PathBuf::from(corpus).join("cat/ptx-v6.0.cat");
            models.push((v6.display().to_string(), v6));
        }
        None => println!(
            "composite mutants of ptx-v6.0.cat: skipped, LITMUS_CONFORMANCE_DIR is not set"
        ),
    }
    for (model, path) in models {
        let src = std::fs::read_to_string(&path).unwrap();
        let out = mutants(&dir, &[&model, "--evidence", "evidence", "tests"]);
        let text = stdout(&out);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{model}: {text}{}",
            stderr(&out)
        );
        let row = |operator: &str| -> Vec<String> {
            let line = text
                .lines()
                .find(|l| l.split_whitespace().nth(1) == Some(operator))
                .unwrap_or_else(|| panic!("{model}: no {operator}:\n{text}"));
            line.split_whitespace().map(str::to_string).collect()
        };
        // Where a row's location points in the model's file.
        let at = |location: &str| -> (usize, usize) {
            let mut parts = location.rsplitn(3, ':');
            let column = parts.next().unwrap().parse().unwrap();
            let line = parts.next().unwrap().parse().unwrap();
            (line, column)
        };
        let relaxed = row("relaxed-as-release-acquire");
        let (line, column) = at(&relaxed[2]);
        let here: String = src
            .lines()
            .nth(line - 1)
            .unwrap()
            .chars()
            .skip(column - 1)
            .collect();
        assert!(
            here.starts_with("REL"),
            "{model}: {relaxed:?} points at `{here}`"
        );
        let sc = row("add-sc-axiom");
        let end = (
            src.lines().count() + usize::from(src.ends_with('\n')),
            if src.ends_with('\n') {
                1
            } else {
                src.lines().last().unwrap().chars().count() + 1
            },
        );
        assert_eq!(at(&sc[2]), end, "{model}: {sc:?}");
        for r in [&relaxed, &sc] {
            assert_eq!(
                (r[3].as_str(), r[4].as_str(), r[5].as_str(), r[6].as_str()),
                ("stronger", "evidence", "mp", "(7)"),
                "{model}: {r:?}"
            );
        }
        // The operator column is as wide as its longest name: every row's
        // location starts at one column.
        let header = text.lines().find(|l| l.contains("operator")).unwrap();
        let column = header.find("location").unwrap();
        for l in text
            .lines()
            .filter(|l| l.contains("add-sc-axiom") || l.contains("drop-check"))
        {
            assert_eq!(l.find(&relaxed[2][..3]), Some(column), "{l}");
        }
    }
}

#[test]
fn dat3m_ptx_v6_and_v7_5_agree_on_proxy_free_families() {
    let Some(dir) = std::env::var_os("LITMUS_CONFORMANCE_DIR").map(PathBuf::from) else {
        println!(
            "diff of ptx-v6.0.cat and ptx-v7.5.cat: skipped, LITMUS_CONFORMANCE_DIR is not set"
        );
        return;
    };
    let out = bin()
        .arg("diff")
        .arg(dir.join("cat/ptx-v6.0.cat"))
        .arg(dir.join("cat/ptx-v7.5.cat"))
        .args([
            "--shapes",
            "MP,SB,LB,IRIW,WRC,2+2W,CoRR",
            "--cycles-up-to",
            "5",
            "--edges",
            "Rfe,Fre,Wse,Pod**",
            "--fences",
            "none,sc,acq_rel",
            "--sem",
            "relaxed,acq_rel",
        ])
        .output()
        .unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.starts_with("no difference among "), "{text}");
}

#[test]
fn diff_of_bad_cat_text_says_where() {
    let dir = scratch("diff-bad-cat");
    let bad = write(&dir, "bad.cat", "acyclic W\n");
    let out = bin().arg("diff").arg("ptx").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("bad.cat:1:9: type error"),
        "{}",
        stderr(&out)
    );
}

/// `report --html --mutants FILE` adds the mutants' section to the
/// evidence page: the score and the survivors; a file that is not such a
/// report is one clear error.
#[test]
fn the_evidence_page_shows_a_mutants_report() {
    let dir = fixture("mutants-report");
    let out = mutants(
        &dir,
        &[
            "tiny.cat",
            "--evidence",
            "evidence",
            "tests",
            "--out",
            "score.json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = |extra: &str| {
        bin()
            .current_dir(&dir)
            .args([
                "report",
                "--evidence",
                "evidence",
                "--html",
                "page.html",
                "--mutants",
                extra,
            ])
            .output()
            .unwrap()
    };
    let out = report("score.json");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = std::fs::read_to_string(dir.join("page.html")).unwrap();
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("score.json")).unwrap()).unwrap();
    let score = json["summary"]["score"].as_f64().unwrap();
    assert!(page.contains("Mutants of <code>"), "{page}");
    assert!(page.contains(&format!("score <b>{score:.3}</b>")), "{page}");
    let rows = page.matches("<tr title=").count();
    assert!(rows >= json["mutants"].as_array().unwrap().len(), "{rows}");
    write(&dir, "not.json", "{\"summary\": {}}");
    let out = report("not.json");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("not a `gpu-litmus mutants --out` report"),
        "{}",
        stderr(&out)
    );
}
