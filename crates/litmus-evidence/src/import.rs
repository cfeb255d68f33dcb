//! Results of other runs as evidence: the lines `gpu-litmus run --format
//! json` prints, and litmus7's logs, each test matched by name to the
//! tests given and its outcomes read against that test's observables.
//! `gpu-litmus evidence import` is the command line over it.
//!
//! ```
//! use litmus_evidence::gate::Subject;
//! use litmus_evidence::import::import_log;
//! let mp = litmus_text::parse("PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n").unwrap();
//! let subjects = [Subject::new("mp.litmus", mp)];
//! let log = "Test MP Allowed\nHistogram (2 states)\n3     :>1:r0=1; 1:r1=0;\n97    :>1:r0=0; 1:r1=0;\nPositive: 3, Negative: 97\n";
//! let imported = import_log("mp.log", log, &subjects, "NVIDIA H100");
//! assert_eq!(imported.rejected, Vec::<String>::new());
//! assert_eq!(imported.records[0].instances, 100);
//! ```

use std::time::SystemTime;

use litmus_core::outcome::{observables, parse_written};
use serde_json::Value;

use crate::gate::Subject;
use crate::litmus7;
use crate::store::rfc3339;
use crate::{Observation, Record};

/// What one log gave.
#[derive(Debug, Default)]
pub struct Imported {
    /// One per test of the log that ran and read.
    pub records: Vec<Record>,
    /// `LOG:LINE: why`, one per test not imported.
    pub rejected: Vec<String>,
    /// Lines without a hardware run (no GPU, a file that did not parse):
    /// they carry no evidence.
    pub skipped: usize,
}

/// Reads `text`, the contents of the log `log`, as `run --format json`
/// lines when it starts with `{`, else as a litmus7 log recorded on
/// `device` (litmus7 logs do not name it); each record takes the matching
/// subject's IR hash and text.
pub fn import_log(log: &str, text: &str, subjects: &[Subject], device: &str) -> Imported {
    if text.trim_start().starts_with('{') {
        json_log(log, text, subjects)
    } else {
        litmus7_log(log, text, subjects, device)
    }
}

/// The given test called `name`, preferring the one read from `file`.
fn find<'a>(subjects: &'a [Subject], name: &str, file: Option<&str>) -> Option<&'a Subject> {
    let mut named = subjects.iter().filter(|s| s.test.name.text == name);
    let first = named.clone().next();
    named.find(|s| Some(s.file.as_str()) == file).or(first)
}

/// A record for `subject` with what every import shares.
fn record(subject: &Subject, harness: String) -> Record {
    let test = &subject.test;
    Record {
        run: String::new(),
        seq: 0,
        test: test.name.text.clone(),
        ir_hash: subject.hash.clone(),
        source: subject.file.clone(),
        text: Some(litmus_text::print(test)),
        observables: observables(test).iter().map(|o| o.display(test)).collect(),
        histogram: Vec::new(),
        instances: 0,
        unfinished: 0,
        device: String::new(),
        driver: None,
        build: None,
        knobs: None,
        seed: None,
        date: rfc3339(SystemTime::now()),
        version: env!("CARGO_PKG_VERSION").to_string(),
        harness,
        kind: Default::default(),
    }
}

/// `run --format json` lines: one record per line whose hardware ran.
fn json_log(log: &str, text: &str, subjects: &[Subject]) -> Imported {
    let mut imported = Imported::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{log}:{}", i + 1);
        match json_line(line, subjects, &at) {
            Ok(Some(r)) => imported.records.push(r),
            Ok(None) => imported.skipped += 1,
            Err(why) => imported.rejected.push(format!("{at}: {why}")),
        }
    }
    imported
}

fn json_line(line: &str, subjects: &[Subject], at: &str) -> Result<Option<Record>, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    if v.get("error").is_some() || v["hardware"]["status"] != "ran" {
        return Ok(None);
    }
    let name = v["test"].as_str().ok_or("no `test` field")?;
    let subject = find(subjects, name, v["file"].as_str())
        .ok_or(format!("test `{name}`: no test of that name among --tests"))?;
    let mut r = record(subject, format!("gpu-litmus run --format json ({at})"));
    let given: Vec<&str> = v["observables"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if given != r.observables {
        return Err(format!(
            "test `{name}`: the log observes [{}], the test given observes [{}] (edited since?)",
            given.join(", "),
            r.observables.join(", ")
        ));
    }
    for h in v["histogram"].as_array().ok_or("no `histogram` array")? {
        let values = h["outcome"]
            .as_array()
            .and_then(|a| {
                a.iter()
                    .map(|x| x.as_u64().and_then(|n| u32::try_from(n).ok()))
                    .collect::<Option<Vec<u32>>>()
            })
            .filter(|vals| vals.len() == r.observables.len())
            .ok_or(format!(
                "test `{name}`: a histogram entry's `outcome` is not one number per observable"
            ))?;
        let count = h["count"]
            .as_u64()
            .ok_or(format!("test `{name}`: a histogram entry has no `count`"))?;
        let text = h["text"].as_str().unwrap_or_default().to_string();
        r.histogram.push(Observation {
            values,
            text,
            count,
        });
    }
    r.instances = v["instances"]
        .as_u64()
        .ok_or(format!("test `{name}`: no `instances`"))?;
    r.unfinished = v["unfinished"].as_u64().unwrap_or(0);
    r.device = v["device"]
        .as_str()
        .ok_or(format!("test `{name}`: no `device`"))?
        .to_string();
    r.seed = v["seed"].as_u64();
    r.knobs = v["knobs"].as_str().map(str::to_string);
    Ok(Some(r))
}

/// A litmus7 log: one record per test.
fn litmus7_log(log: &str, text: &str, subjects: &[Subject], device: &str) -> Imported {
    let mut imported = Imported::default();
    let tests = match litmus7::parse(text) {
        Ok(t) => t,
        Err(e) => {
            imported
                .rejected
                .push(format!("{log}:{}: {}", e.line, e.message));
            return imported;
        }
    };
    for t in tests {
        let Some(subject) = find(subjects, &t.name, None) else {
            imported.rejected.push(format!(
                "{log}:{}: test `{}`: no test of that name among --tests",
                t.line, t.name
            ));
            continue;
        };
        let mut r = record(subject, format!("litmus7 log ({log})"));
        r.device = device.to_string();
        r.instances = t.instances();
        let histogram: Result<Vec<Observation>, String> = t
            .states
            .iter()
            .map(|s| {
                let text = s.outcome_text();
                parse_written(&subject.test, &text)
                    .map(|values| Observation {
                        values,
                        text: text.clone(),
                        count: s.count,
                    })
                    .map_err(|e| {
                        format!("{log}:{}: test `{}`: state `{text}`: {e}", s.line, t.name)
                    })
            })
            .collect();
        match histogram {
            Ok(h) => {
                r.histogram = h;
                imported.records.push(r);
            }
            Err(e) => imported.rejected.push(e),
        }
    }
    imported
}
