//! The JSON record of one test run: everything a CI dashboard or a script
//! needs, one file per test; and every other object the CLI prints as
//! JSON: `check`'s ([`check`]), `gate`'s ([`gate`]), `diff`'s and
//! `mutants`' ([`search`]). Typed (serde derive); every object of
//! `check`, `run`, `gate` and `campaign` carries [`SCHEMA`], and
//! `docs/json-schema.md` describes each shape
//! (`docs/schema/gpu-litmus-1.json` is the JSON Schema).

pub mod check;
pub mod gate;
pub mod search;

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::runner::{Hardware, TestReport};

/// The version of the JSON shapes: a reader checks it before it reads on.
/// A field added keeps it; a field renamed, removed or retyped bumps it.
pub const SCHEMA: &str = "gpu-litmus/1";

/// A file that could not be read or checked, as one JSON line.
#[derive(Clone, Debug, Serialize)]
pub struct ErrorLine<'a> {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// The file as given.
    pub file: &'a str,
    /// Why.
    pub error: &'a str,
    /// Why the reports could not be written, when they could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_error: Option<&'a str>,
}

impl<'a> ErrorLine<'a> {
    /// `file` failed with `error`.
    pub fn new(file: &'a str, error: &'a str) -> Self {
        ErrorLine {
            schema: SCHEMA,
            file,
            error,
            report_error: None,
        }
    }
}

/// What the hardware half did.
#[derive(Clone, Debug, Serialize)]
pub struct HardwareStatus<'a> {
    /// `ran`, `skipped`, `not run`, `failed` or `not asked for`.
    pub status: &'static str,
    /// Why it did not run, or failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'a str>,
}

/// One outcome the hardware showed.
#[derive(Clone, Debug, Serialize)]
pub struct Seen<'a> {
    /// The observables' values, in the order of the record's `observables`.
    pub outcome: &'a [u32],
    /// `P1:r0=1; P1:r1=0`.
    pub text: &'a str,
    /// How often.
    pub count: Option<u64>,
    /// Whether the model allows it.
    pub allowed: bool,
    /// Allowed only past the model's loop bound.
    pub beyond_loop_bound: bool,
    /// Whether it satisfies the condition's expression.
    pub condition: bool,
}

/// The run's budget.
#[derive(Clone, Debug, Serialize)]
pub struct Budget {
    /// Milliseconds, when the budget is time.
    pub budget_ms: Option<u64>,
    /// Launches, when the budget is a count.
    pub launches: Option<u64>,
}

/// One test's run: what `run --format json` prints a line of, and the
/// file per test in `LITMUS_REPORT_DIR`.
#[derive(Clone, Debug, Serialize)]
pub struct RunRecord<'a> {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// The file as given (`run`), absent in the report folder's files.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<&'a str>,
    /// The test's name.
    pub test: &'a str,
    /// Where the test came from.
    pub id: &'a str,
    /// The model's name.
    pub model: &'static str,
    /// The verdict the test declares.
    pub declared_verdict: Option<&'static str>,
    /// The model's verdict.
    pub computed_verdict: Option<&'static str>,
    /// The observables as written in the condition, the order of every
    /// outcome's values.
    pub observables: &'a [String],
    /// The outcomes the model allows: one array of values per outcome.
    pub allowed: Vec<&'a [u32]>,
    /// The outcomes the hardware showed.
    pub histogram: Vec<Seen<'a>>,
    /// Whether the hardware showed the condition.
    pub condition_observed: Option<bool>,
    /// What the hardware half did.
    pub hardware: HardwareStatus<'a>,
    /// The device it ran on.
    pub device: Option<&'a str>,
    /// Test instances run.
    pub instances: Option<u64>,
    /// Launches.
    pub launches: Option<u64>,
    /// Wall time on the GPU, milliseconds.
    pub wall_ms: Option<f64>,
    /// Instances that did not finish.
    pub unfinished: Option<u64>,
    /// The seed.
    pub seed: Option<u64>,
    /// The budget.
    pub budget: Budget,
    /// The knobs as one line (`seed=1 perm=... ctas=...`): what evidence
    /// records and `evidence import` read.
    pub knobs: Option<String>,
    /// The same knobs as an object, one field per knob of that line.
    pub knob_settings: Option<BTreeMap<String, Value>>,
    /// The command line that runs it again.
    pub reproduce: String,
    /// Whether it passed.
    pub passed: bool,
    /// Why not, one line each.
    pub failures: Vec<String>,
    /// What the compiler made of a test whose hardware broke the model.
    pub compiler: Option<&'a str>,
    /// The module's build.
    pub build: Option<String>,
    /// Why the reports could not be written, when they could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_error: Option<&'a str>,
}

/// The knobs' line (`seed=1 perm=none ctas=64 ...`) as an object: each
/// `name=value` a field, a whole number as a number, anything else as its
/// text.
pub fn knob_settings(line: &str) -> BTreeMap<String, Value> {
    line.split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| {
            let value = v
                .parse::<u64>()
                .map(Value::from)
                .unwrap_or_else(|_| Value::from(v));
            (k.to_string(), value)
        })
        .collect()
}

/// The record: test, model, declared and computed verdicts, the allowed
/// set, the histogram, the device, seed and budget, and whether it passed.
pub fn record(report: &TestReport) -> RunRecord<'_> {
    let ran = match &report.hardware {
        Hardware::Ran(r) => Some(r),
        _ => None,
    };
    let hardware = match &report.hardware {
        Hardware::Ran(_) => ("ran", None),
        Hardware::Skipped(why) => ("skipped", Some(why.as_str())),
        Hardware::NotRun(why) => ("not run", Some(why.as_str())),
        Hardware::Failed(why) => ("failed", Some(why.as_str())),
        Hardware::Off => ("not asked for", None),
    };
    let knobs = report.knobs.as_ref();
    let knob_line = knobs.map(|k| k.to_string());
    RunRecord {
        schema: SCHEMA,
        file: None,
        test: &report.test,
        id: report.id(),
        model: report.model,
        declared_verdict: report.declared.map(|v| v.as_str()),
        computed_verdict: report.computed.map(|v| v.as_str()),
        observables: &report.observables,
        allowed: report
            .rows
            .iter()
            .filter(|r| r.allowed)
            .map(|r| r.values.as_slice())
            .collect(),
        histogram: report
            .rows
            .iter()
            .filter(|r| r.seen.unwrap_or(0) > 0)
            .map(|r| Seen {
                outcome: &r.values,
                text: &r.text,
                count: r.seen,
                allowed: r.allowed,
                beyond_loop_bound: r.beyond_loop_bound,
                condition: r.satisfies_condition,
            })
            .collect(),
        condition_observed: report.condition_seen(),
        hardware: HardwareStatus {
            status: hardware.0,
            reason: hardware.1,
        },
        device: ran.map(|r| r.device.as_str()),
        instances: ran.map(|r| r.instances),
        launches: ran.map(|r| r.launches),
        wall_ms: ran.map(|r| r.wall.as_secs_f64() * 1e3),
        unfinished: ran.map(|r| r.unfinished),
        seed: knobs.map(|k| k.seed),
        budget: Budget {
            budget_ms: knobs.map(|k| k.budget_ms),
            launches: knobs.and_then(|k| k.launches),
        },
        knob_settings: knob_line.as_deref().map(knob_settings),
        knobs: knob_line,
        reproduce: crate::report::text::reproduce(report),
        passed: report.passed(),
        failures: report.failures.iter().map(|f| f.to_string()).collect(),
        compiler: report.compiler.as_deref(),
        build: ran.map(|r| r.build.to_string()),
        report_error: None,
    }
}
