//! The gate: recorded evidence against a model, no GPU. Every outcome the
//! hardware ever showed that the model forbids is a failure (the model is
//! unsound for that hardware); with a baseline model, every outcome whose
//! verdict flips is listed, marked with whether any hardware showed it.

use std::collections::{BTreeMap, BTreeSet};

use litmus_core::ir::Test;
use litmus_model::outcome::format_outcome;
use litmus_model::{check, CheckResult, Model, Options};

use super::record::{ir_hash, Record};
use super::Evidence;
use crate::judge::forbidden_reasons;

/// A test to gate: where it came from and its IR.
pub struct Subject {
    /// The file (or other source) that holds it.
    pub file: String,
    /// The test.
    pub test: Test,
    /// Its [`ir_hash`].
    pub hash: String,
}

impl Subject {
    /// A subject for `test`, read from `file`.
    pub fn new(file: impl Into<String>, test: Test) -> Subject {
        Subject {
            file: file.into(),
            hash: ir_hash(&test),
            test,
        }
    }
}

/// An outcome some hardware showed, over every matching record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// Values of the observables.
    pub values: Vec<u32>,
    /// `P1:r0=1; P1:r1=0`.
    pub text: String,
    /// Instances that showed it, over all devices.
    pub count: u64,
    /// Instances that showed it, per device.
    pub devices: BTreeMap<String, u64>,
}

impl Seen {
    /// Where it was seen, as the gate's reports say it: `NVIDIA H100 80GB
    /// HBM3: 1234, NVIDIA H200: 5`.
    pub fn places(&self) -> String {
        let places: Vec<String> = self
            .devices
            .iter()
            .map(|(d, c)| format!("{d}: {c}"))
            .collect();
        places.join(", ")
    }
}

/// An observed outcome the model forbids: the gate's failure.
#[derive(Clone, Debug)]
pub struct Violation {
    /// The test's file.
    pub file: String,
    /// The test's name.
    pub test: String,
    /// What was seen, where and how often.
    pub seen: Seen,
    /// The model's reason: axiom and witness, as `explain` gives it.
    pub explanation: String,
}

/// Which way a verdict flipped from the baseline to the new model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FlipKind {
    /// Forbidden by the baseline, allowed by the new model: a weakening.
    NewlyAllowed,
    /// Allowed by the baseline, forbidden by the new model: a
    /// strengthening; observed, it is also a violation.
    NewlyForbidden,
}

impl FlipKind {
    /// `newly allowed` or `newly forbidden`.
    pub fn as_str(self) -> &'static str {
        match self {
            FlipKind::NewlyAllowed => "newly allowed",
            FlipKind::NewlyForbidden => "newly forbidden",
        }
    }
}

/// An outcome whose verdict differs between the baseline and the new model.
#[derive(Clone, Debug)]
pub struct Flip {
    /// The test's file.
    pub file: String,
    /// The test's name.
    pub test: String,
    /// The outcome.
    pub text: String,
    /// Which way.
    pub kind: FlipKind,
    /// What the hardware showed of it: `None` when no evidence exists for
    /// the test at all, `Some` of the instances (0: runs, never seen).
    pub observed: Option<u64>,
}

/// Evidence that matches no test given to the gate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unmatched {
    /// The test's name in the evidence.
    pub test: String,
    /// Its IR hash in the evidence.
    pub ir_hash: String,
    /// Records of it.
    pub records: usize,
    /// A test of that name was given, with another IR: the test was edited
    /// since the evidence was recorded.
    pub stale: bool,
}

/// A test the gate could not judge (the model could not check it).
#[derive(Clone, Debug)]
pub struct GateError {
    /// The test's file.
    pub file: String,
    /// The test's name.
    pub test: String,
    /// Why.
    pub message: String,
}

/// Everything the gate found.
#[derive(Clone, Debug, Default)]
pub struct GateReport {
    /// Tests given.
    pub tests: usize,
    /// Tests with evidence.
    pub with_evidence: usize,
    /// Evidence records matched to a test.
    pub records: usize,
    /// Instances those records ran.
    pub instances: u64,
    /// Devices that recorded them.
    pub devices: BTreeSet<String>,
    /// Observed outcomes the new model forbids.
    pub violations: Vec<Violation>,
    /// Verdict flips (with a baseline).
    pub flips: Vec<Flip>,
    /// Evidence for tests not given.
    pub unmatched: Vec<Unmatched>,
    /// Tests the model could not check.
    pub errors: Vec<GateError>,
}

impl GateReport {
    /// Whether the gate passes: no violation and every test checked.
    pub fn passed(&self) -> bool {
        self.violations.is_empty() && self.errors.is_empty()
    }

    /// The summary line: tests, observations, devices, failures, flips.
    pub fn summary(&self) -> String {
        format!(
            "gate: {} tests ({} with evidence), {} records, {} instances, {} device{}, {} failure{}, {} flip{}, {} unmatched",
            self.tests,
            self.with_evidence,
            self.records,
            self.instances,
            self.devices.len(),
            plural(self.devices.len()),
            self.violations.len() + self.errors.len(),
            plural(self.violations.len() + self.errors.len()),
            self.flips.len(),
            plural(self.flips.len()),
            self.unmatched.len(),
        )
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The gate's question: the models and their options.
pub struct Question<'a> {
    /// The model under test.
    pub model: &'a dyn Model,
    /// The model it replaces, for the flips.
    pub baseline: Option<&'a dyn Model>,
    /// The checker's options (loop bound, budgets).
    pub options: &'a Options,
}

/// Judges `evidence` on `subjects` by `question`, on every core there is.
///
/// Here one hand-made record shows message passing's weak outcome: `ptx`
/// allows it, so the gate passes; `sc` forbids it, so the gate fails with
/// one violation.
///
/// ```
/// use litmus_evidence::gate::{gate, Question, Subject};
/// use litmus_evidence::{Evidence, Record, Run};
/// use litmus_model::{model_by_name, Options};
///
/// let test = litmus_core::text::parse(
///     "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
/// )
/// .unwrap();
/// let run = Run {
///     histogram: &[(vec![1, 0], 3), (vec![0, 0], 97)],
///     instances: 100,
///     unfinished: 0,
///     device: "NVIDIA H100",
///     knobs: "ctas=4",
///     seed: 7,
/// };
/// let evidence = Evidence {
///     records: vec![Record::of_run(&test, &run, "mp.litmus")],
///     ..Evidence::default()
/// };
/// // Or read folders of it: `Evidence::read(&["evidence/".into()])`.
/// let subjects = [Subject::new("mp.litmus", test)];
/// let options = Options::default();
/// let question = |model| Question {
///     model: model_by_name(model).unwrap(),
///     baseline: None,
///     options: &options,
/// };
/// assert!(gate(&subjects, &evidence, &question("ptx")).passed());
/// let report = gate(&subjects, &evidence, &question("sc"));
/// assert!(!report.passed());
/// assert_eq!(report.violations[0].seen.text, "P1:r0=1; P1:r1=0");
/// println!("{}", report.summary());
/// ```
pub fn gate(subjects: &[Subject], evidence: &Evidence, question: &Question) -> GateReport {
    let by_test = evidence.by_test();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = subjects.len().div_ceil(threads).max(1);
    let parts: Vec<GateReport> = std::thread::scope(|s| {
        let handles: Vec<_> = subjects
            .chunks(chunk)
            .map(|part| {
                let by_test = &by_test;
                s.spawn(move || {
                    let mut report = GateReport::default();
                    for subject in part {
                        let records = by_test
                            .get(&(subject.test.name.text.as_str(), subject.hash.as_str()))
                            .map_or(&[][..], Vec::as_slice);
                        judge(subject, records, question, &mut report);
                    }
                    report
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a gate worker panicked"))
            .collect()
    });
    let mut report = GateReport {
        tests: subjects.len(),
        ..GateReport::default()
    };
    for part in parts {
        report.with_evidence += part.with_evidence;
        report.records += part.records;
        report.instances += part.instances;
        report.devices.extend(part.devices);
        report.violations.extend(part.violations);
        report.flips.extend(part.flips);
        report.errors.extend(part.errors);
    }
    report.unmatched = unmatched(subjects, &by_test);
    report
}

/// The tests of `evidence` that no subject of `given` is (by name and IR
/// hash), each read from the text recorded with it: the IR the hardware
/// ran, so the gate can judge evidence whose test files are not at hand
/// (the `litmus!` catalogue, older versions of edited tests). The second
/// list says, per test, why its text could not serve.
pub fn recorded_subjects(evidence: &Evidence, given: &[Subject]) -> (Vec<Subject>, Vec<String>) {
    let known: BTreeSet<(&str, &str)> = given
        .iter()
        .map(|s| (s.test.name.text.as_str(), s.hash.as_str()))
        .collect();
    let mut first: BTreeMap<(&str, &str), &Record> = BTreeMap::new();
    for r in &evidence.records {
        let key = (r.test.as_str(), r.ir_hash.as_str());
        if !known.contains(&key) {
            first.entry(key).or_insert(r);
        }
    }
    let mut subjects = Vec::new();
    let mut problems = Vec::new();
    for ((name, hash), r) in first {
        let why = match r.text.as_deref().map(litmus_core::text::parse) {
            None => "the evidence holds no test text".to_string(),
            Some(Err(e)) => format!(
                "the recorded text does not parse: {}",
                e.render(&r.source).trim()
            ),
            Some(Ok(test)) if ir_hash(&test) != hash || test.name.text != name => {
                "the recorded text is not the test its name and hash say".to_string()
            }
            Some(Ok(test)) => {
                subjects.push(Subject::new(format!("recorded:{}", r.source), test));
                continue;
            }
        };
        problems.push(format!("recorded test `{name}` (IR {hash}): {why}"));
    }
    (subjects, problems)
}

/// The outcomes `records` showed, merged over records and devices.
pub fn seen(records: &[&Record]) -> Vec<Seen> {
    let mut merged: BTreeMap<&[u32], Seen> = BTreeMap::new();
    for r in records {
        for o in &r.histogram {
            let s = merged.entry(&o.values).or_insert_with(|| Seen {
                values: o.values.clone(),
                text: o.text.clone(),
                count: 0,
                devices: BTreeMap::new(),
            });
            s.count += o.count;
            *s.devices.entry(r.device.clone()).or_default() += o.count;
        }
    }
    merged.into_values().collect()
}

/// One test: its violations under the new model and its flips.
fn judge(subject: &Subject, records: &[&Record], q: &Question, report: &mut GateReport) {
    let test = &subject.test;
    let error = |message: String| GateError {
        file: subject.file.clone(),
        test: test.name.text.clone(),
        message,
    };
    let new = match check(test, q.model, q.options) {
        Ok(r) => r,
        Err(e) => {
            report
                .errors
                .push(error(format!("{}: {e}", q.model.name())));
            return;
        }
    };
    // Said as the gate judged it (from the values), not as the record
    // wrote it.
    let mut seen = seen(records);
    for s in &mut seen {
        s.text = format_outcome(test, &new.observables, &s.values);
    }
    if !records.is_empty() {
        report.with_evidence += 1;
        report.records += records.len();
        report.instances += records.iter().map(|r| r.instances).sum::<u64>();
        report
            .devices
            .extend(records.iter().map(|r| r.device.clone()));
    }
    let outside: Vec<&Seen> = seen
        .iter()
        .filter(|s| !new.allowed.contains(&s.values))
        .collect();
    // As in `run`: an outcome allowed with more loop iterations is no
    // failure.
    let values: Vec<&[u32]> = outside.iter().map(|s| s.values.as_slice()).collect();
    let reasons = forbidden_reasons(test, q.model, q.options, new.bounded, &values);
    for (s, explanation) in outside.into_iter().zip(reasons) {
        let Some(explanation) = explanation else {
            continue;
        };
        report.violations.push(Violation {
            file: subject.file.clone(),
            test: test.name.text.clone(),
            seen: s.clone(),
            explanation,
        });
    }
    if let Some(baseline) = q.baseline {
        match check(test, baseline, q.options) {
            Ok(old) => report
                .flips
                .extend(flips(subject, &old, &new, &seen, !records.is_empty())),
            Err(e) => report
                .errors
                .push(error(format!("{} (baseline): {e}", baseline.name()))),
        }
    }
}

fn flips(
    subject: &Subject,
    old: &CheckResult,
    new: &CheckResult,
    seen: &[Seen],
    has_evidence: bool,
) -> Vec<Flip> {
    let count = |values: &Vec<u32>| {
        has_evidence.then(|| {
            seen.iter()
                .find(|s| &s.values == values)
                .map_or(0, |s| s.count)
        })
    };
    let flip = |values: &Vec<u32>, kind| Flip {
        file: subject.file.clone(),
        test: subject.test.name.text.clone(),
        text: format_outcome(&subject.test, &new.observables, values),
        kind,
        observed: count(values),
    };
    let mut out: Vec<Flip> = new
        .allowed
        .difference(&old.allowed)
        .map(|v| flip(v, FlipKind::NewlyAllowed))
        .collect();
    out.extend(
        old.allowed
            .difference(&new.allowed)
            .map(|v| flip(v, FlipKind::NewlyForbidden)),
    );
    out
}

fn unmatched(
    subjects: &[Subject],
    by_test: &BTreeMap<(&str, &str), Vec<&Record>>,
) -> Vec<Unmatched> {
    let given: BTreeSet<(&str, &str)> = subjects
        .iter()
        .map(|s| (s.test.name.text.as_str(), s.hash.as_str()))
        .collect();
    let names: BTreeSet<&str> = given.iter().map(|(n, _)| *n).collect();
    by_test
        .iter()
        .filter(|(key, _)| !given.contains(*key))
        .map(|((name, hash), records)| Unmatched {
            test: name.to_string(),
            ir_hash: hash.to_string(),
            records: records.len(),
            stale: names.contains(name),
        })
        .collect()
}
