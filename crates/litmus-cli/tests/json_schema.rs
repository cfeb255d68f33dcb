//! The JSON lines of `check`, `run`, `gate` and `campaign` validate
//! against `docs/schema/gpu-litmus-1.json`, and `evidence import` reads
//! `run --format json` lines of this shape and of the shape before it.
//!
//! The validator is the small one below, not the `jsonschema` crate: that
//! crate is not in the offline registry this workspace builds from, and it
//! brings a large tree (regex engines, URL and HTTP resolution) for the
//! handful of keywords the schema uses: `$ref` (local), `anyOf`, `type`,
//! `const`, `enum`, `minimum`, `required`, `properties`,
//! `additionalProperties` and `items`. A keyword it does not know fails
//! the test, so the schema cannot grow past what is checked.

mod cli_support;

use std::path::Path;

use cli_support::{bin, scratch, stderr, stdout, write, MP_RELACQ};
use serde_json::{json, Value};

const MP: &str = "PTX MP_0\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

fn schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schema/gpu-litmus-1.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Why `v` does not fit `s` (under `root`'s `$defs`), `None` when it fits.
fn check(root: &Value, s: &Value, v: &Value, at: &str) -> Option<String> {
    let s = s.as_object().expect("a schema is an object");
    for (k, want) in s {
        let why = match k.as_str() {
            "$schema" | "title" | "description" | "$defs" => None,
            "$ref" => {
                let name = want.as_str().unwrap().strip_prefix("#/$defs/").unwrap();
                check(root, &root["$defs"][name], v, at)
            }
            "anyOf" => {
                let whys: Vec<String> = want
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|alt| check(root, alt, v, at))
                    .collect();
                (whys.len() == want.as_array().unwrap().len())
                    .then(|| format!("{at}: fits no alternative: {}", whys.join(" | ")))
            }
            "type" => {
                let types: Vec<&str> = match want {
                    Value::String(t) => vec![t.as_str()],
                    a => a
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|t| t.as_str().unwrap())
                        .collect(),
                };
                let fits = |t: &str| match t {
                    "object" => v.is_object(),
                    "array" => v.is_array(),
                    "string" => v.is_string(),
                    "integer" => v.is_u64() || v.is_i64(),
                    "number" => v.is_number(),
                    "boolean" => v.is_boolean(),
                    "null" => v.is_null(),
                    other => panic!("unknown type {other}"),
                };
                (!types.iter().any(|t| fits(t))).then(|| format!("{at}: {v} is not {types:?}"))
            }
            "const" => (v != want).then(|| format!("{at}: {v} is not {want}")),
            "enum" => {
                (!want.as_array().unwrap().contains(v)).then(|| format!("{at}: {v} not in {want}"))
            }
            "minimum" => v
                .as_f64()
                .filter(|x| *x < want.as_f64().unwrap())
                .map(|x| format!("{at}: {x} < {want}")),
            "required" => want
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_str().unwrap())
                .find(|f| v.get(f).is_none())
                .map(|f| format!("{at}: no `{f}`")),
            "properties" => v.as_object().and_then(|o| {
                o.iter().find_map(|(f, x)| {
                    want.get(f)
                        .and_then(|p| check(root, p, x, &format!("{at}.{f}")))
                })
            }),
            "additionalProperties" => v.as_object().and_then(|o| {
                let known = s.get("properties").and_then(Value::as_object);
                o.iter()
                    .filter(|(f, _)| known.is_none_or(|k| !k.contains_key(*f)))
                    .find_map(|(f, x)| match want {
                        Value::Bool(false) => Some(format!("{at}: `{f}` is not in the schema")),
                        Value::Bool(true) => None,
                        p => check(root, p, x, &format!("{at}.{f}")),
                    })
            }),
            "items" => v.as_array().and_then(|a| {
                a.iter()
                    .enumerate()
                    .find_map(|(i, x)| check(root, want, x, &format!("{at}[{i}]")))
            }),
            other => panic!("the schema uses `{other}`, which this validator does not check"),
        };
        if why.is_some() {
            return why;
        }
    }
    None
}

/// Every line of `out` is a JSON object that fits `$defs/command`; the
/// lines, parsed.
fn validate(command: &str, out: &str) -> Vec<Value> {
    let root = schema();
    let def = &root["$defs"][command];
    assert!(def.is_object(), "no $defs/{command}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{command}: not JSON ({e}): {l}"))
        })
        .collect();
    assert!(!lines.is_empty(), "{command} printed nothing");
    for l in &lines {
        assert_eq!(l["schema"], "gpu-litmus/1", "{l}");
        if let Some(why) = check(&root, def, l, command) {
            panic!("{command}: {why}\n{l}");
        }
        assert!(check(&root, &root, l, "top").is_none(), "{l}");
    }
    lines
}

#[test]
fn the_validator_refuses_what_does_not_fit() {
    let root = schema();
    let def = &root["$defs"]["check"];
    let bad = json!({"schema": "gpu-litmus/1", "file": "f", "error": 3});
    assert!(check(&root, def, &bad, "check").is_some());
    let extra = json!({"schema": "gpu-litmus/1", "file": "f", "error": "e", "surprise": 1});
    assert!(check(&root, def, &extra, "check").is_some());
    let old = json!({"schema": "gpu-litmus/0", "file": "f", "error": "e"});
    assert!(check(&root, def, &old, "check").is_some());
}

#[test]
fn check_and_run_lines_fit_the_schema_with_one_shape_of_outcome() {
    let dir = scratch("schema-check-run");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let missing = dir.join("missing.litmus");
    let out = bin()
        .args(["check", "--format", "json"])
        .arg(&mp)
        .arg(&missing)
        .output()
        .unwrap();
    let check_lines = validate("check", &stdout(&out));
    assert_eq!(check_lines.len(), 2, "{}", stdout(&out));
    let out = bin()
        .args(["check", "--termination", "--format", "json"])
        .arg(&mp)
        .output()
        .unwrap();
    validate("check", &stdout(&out));

    let reports = dir.join("reports");
    let out = bin()
        .args(["run", "--format", "json", "--launches", "1", "--report"])
        .arg(&reports)
        .arg(&mp)
        .arg(&missing)
        .output()
        .unwrap();
    let run_lines = validate("run", &stdout(&out));
    assert_eq!(run_lines.len(), 2, "{}{}", stdout(&out), stderr(&out));
    // The report folder's file per test is a run record too (no `file`).
    let written: Vec<_> = std::fs::read_dir(&reports)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    assert!(!written.is_empty());
    for path in written {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        validate("run", &format!("{v}\n"));
    }
    // One shape: the observables named once, each outcome an array.
    let (c, r) = (
        check_lines
            .iter()
            .find(|l| l.get("name").is_some())
            .unwrap(),
        run_lines.iter().find(|l| l.get("test").is_some()).unwrap(),
    );
    assert_eq!(c["observables"], r["observables"]);
    assert_eq!(c["allowed_outcomes"], r["allowed"]);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A `run --format json` line that ran, in this schema (`knob_settings`,
/// `schema`) or the one before (neither).
fn ran_line(file: &Path, new: bool) -> Value {
    let knobs = "seed=1 perm=none ctas=2 threads=64 launches=1 stride=1 spin=0 loop_bound=4";
    let mut v = json!({
        "file": file, "test": "MP_0", "id": file, "model": "ptx",
        "declared_verdict": null, "computed_verdict": "allowed",
        "observables": ["P1:r0", "P1:r1"],
        "allowed": [[0, 0], [0, 1], [1, 0], [1, 1]],
        "histogram": [
            {"outcome": [1, 0], "text": "P1:r0=1; P1:r1=0", "count": 3, "allowed": true, "beyond_loop_bound": false, "condition": true},
            {"outcome": [1, 1], "text": "P1:r0=1; P1:r1=1", "count": 125, "allowed": true, "beyond_loop_bound": false, "condition": false}
        ],
        "condition_observed": true, "hardware": {"status": "ran"}, "device": "gpu-x",
        "instances": 128, "launches": 1, "wall_ms": 1.5, "unfinished": 0, "seed": 1,
        "budget": {"budget_ms": 1000, "launches": 1}, "knobs": knobs,
        "reproduce": "gpu-litmus run mp.litmus", "passed": true, "failures": [],
        "compiler": null, "build": "ptxas"
    });
    if new {
        v["schema"] = json!("gpu-litmus/1");
        v["knob_settings"] = json!({"seed": 1, "perm": "none", "ctas": 2, "threads": 64,
            "launches": 1, "stride": 1, "spin": 0, "loop_bound": 4});
    }
    v
}

#[test]
fn evidence_import_reads_old_and_new_run_lines_and_gate_lines_fit_the_schema() {
    let dir = scratch("schema-gate");
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    let mp = write(&tests, "mp.litmus", MP);
    let new = ran_line(&mp, true);
    validate("run", &format!("{new}\n"));
    let log = write(
        &dir,
        "run.jsonl",
        &format!("{}\n{new}\n", ran_line(&mp, false)),
    );
    let evidence = dir.join("evidence");
    let out = bin()
        .args(["evidence", "import", "--out"])
        .arg(&evidence)
        .arg("--tests")
        .arg(&tests)
        .arg(&log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let out = bin()
        .args(["gate", "--model", "sc", "--format", "json", "--evidence"])
        .arg(&evidence)
        .arg(&tests)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let lines = validate("gate", &stdout(&out));
    let summary = lines.iter().find(|l| l["kind"] == "summary").unwrap();
    assert_eq!(
        summary["records"], 2,
        "the old line and the new one: {summary}"
    );
    let failure = lines.iter().find(|l| l["kind"] == "failure").unwrap();
    assert_eq!(failure["count"], 6, "{failure}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn campaign_lines_fit_the_schema() {
    let dir = scratch("schema-campaign");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let broken = write(&dir, "broken.litmus", "PTX broken\n");
    let out = bin()
        .args(["campaign", "--format", "json", "--launches", "1"])
        .arg(&mp)
        .arg(&broken)
        .output()
        .unwrap();
    let lines = validate("campaign", &stdout(&out));
    assert_eq!(lines.len(), 3, "{}{}", stdout(&out), stderr(&out));
    assert!(lines.last().unwrap()["summary"].is_object());
    std::fs::remove_dir_all(dir).unwrap();
}
