//! `gate --format json`: one typed line per error, problem, failure,
//! flip and unmatched record, then the summary (`gateLine` in the
//! schema).

use std::collections::{BTreeMap, BTreeSet};

use super::SCHEMA;
use litmus_evidence::gate::GateReport;
use litmus_evidence::Evidence;
use serde::Serialize;

/// One line of `gate --format json`: [`SCHEMA`] and one [`GateKind`].
#[derive(Serialize)]
struct GateLine<'a> {
    schema: &'static str,
    #[serde(flatten)]
    line: GateKind<'a>,
}

/// What a line of `gate --format json` says, told by its `kind`.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum GateKind<'a> {
    /// An evidence file that could not be read, or a test that could not
    /// be judged (then with its file and test).
    Error {
        #[serde(skip_serializing_if = "Option::is_none")]
        file: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        test: Option<&'a str>,
        message: &'a str,
    },
    /// A line of the evidence that is not a record.
    Problem {
        file: &'a std::path::Path,
        line: usize,
        error: bool,
        message: String,
    },
    /// An outcome the hardware showed that the model forbids.
    Failure {
        file: &'a str,
        test: &'a str,
        outcome: &'a [u32],
        text: &'a str,
        count: u64,
        devices: &'a BTreeMap<String, u64>,
        explanation: &'a str,
    },
    /// An outcome whose verdict changed from the baseline.
    Flip {
        file: &'a str,
        test: &'a str,
        text: &'a str,
        flip: &'static str,
        observed: Option<u64>,
    },
    /// Evidence for a test that was not given.
    Unmatched {
        test: &'a str,
        ir_hash: &'a str,
        records: usize,
        stale: bool,
    },
    /// The closing line.
    Summary {
        tests: usize,
        with_evidence: usize,
        records: usize,
        instances: u64,
        devices: &'a BTreeSet<String>,
        failures: usize,
        flips: usize,
        unmatched: usize,
        passed: bool,
    },
}

/// The lines of `gate --format json` for `report`, over `evidence`, with
/// the files of `unreadable` (one message each) first.
pub fn lines(report: &GateReport, evidence: &Evidence, unreadable: &[String]) -> String {
    let mut lines = Vec::new();
    for u in unreadable {
        lines.push(GateKind::Error {
            file: None,
            test: None,
            message: u,
        });
    }
    for p in &evidence.problems {
        lines.push(GateKind::Problem {
            file: &p.file,
            line: p.line,
            error: p.is_error(),
            message: p.to_string(),
        });
    }
    for e in &report.errors {
        lines.push(GateKind::Error {
            file: Some(&e.file),
            test: Some(&e.test),
            message: &e.message,
        });
    }
    for v in &report.violations {
        lines.push(GateKind::Failure {
            file: &v.file,
            test: &v.test,
            outcome: &v.seen.values,
            text: &v.seen.text,
            count: v.seen.count,
            devices: &v.seen.devices,
            explanation: &v.explanation,
        });
    }
    for f in &report.flips {
        lines.push(GateKind::Flip {
            file: &f.file,
            test: &f.test,
            text: &f.text,
            flip: f.kind.as_str(),
            observed: f.observed,
        });
    }
    for u in &report.unmatched {
        lines.push(GateKind::Unmatched {
            test: &u.test,
            ir_hash: &u.ir_hash,
            records: u.records,
            stale: u.stale,
        });
    }
    lines.push(GateKind::Summary {
        tests: report.tests,
        with_evidence: report.with_evidence,
        records: report.records,
        instances: report.instances,
        devices: &report.devices,
        failures: report.violations.len() + report.errors.len(),
        flips: report.flips.len(),
        unmatched: report.unmatched.len(),
        passed: report.passed(),
    });
    lines
        .into_iter()
        .map(|line| {
            let line = GateLine {
                schema: SCHEMA,
                line,
            };
            format!(
                "{}\n",
                serde_json::to_string(&line).expect("a gate line serializes")
            )
        })
        .collect()
}
