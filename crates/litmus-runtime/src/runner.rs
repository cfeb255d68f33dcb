//! One test, model and hardware side by side: the model's allowed outcomes,
//! the declared verdict against the model's, the GPU histogram against the
//! allowed set. The result is a [`TestReport`]; [`crate::report`] renders
//! it.

use std::collections::BTreeMap;
use std::time::Duration;

use litmus_core::ir::{Test, Verdict};
use litmus_core::outcome::{eval, Observable};
use litmus_core::ptx::{self, PtxError};
use litmus_model::{check, explain_outcome, CheckResult};

use crate::config::Config;
use crate::gpu::{self, HwResult, Knobs};

/// What happened on the hardware side.
#[derive(Clone, Debug)]
pub enum Hardware {
    /// The kernels ran; their histogram.
    Ran(HwResult),
    /// No GPU here (and none was required): the one line that says so.
    Skipped(String),
    /// The GPU harness cannot run this test (e.g. CTA barriers); why.
    NotRun(String),
    /// The hardware half was not asked for (model-only runs).
    Off,
}

/// One row of the outcome table: an outcome the model allows or the
/// hardware showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeRow {
    /// Values of the observables, in order.
    pub values: Vec<u32>,
    /// `P1:r0=1; P1:r1=0`.
    pub text: String,
    pub allowed: bool,
    /// How often the hardware showed it (`None`: the hardware did not run).
    pub seen: Option<u64>,
    /// Whether it satisfies the condition's expression.
    pub satisfies_condition: bool,
    /// For a forbidden outcome the hardware showed: the model's
    /// explanation (axiom and witness).
    pub explanation: Option<String>,
}

/// Why a test failed. A test passes when this list is empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The model's verdict is not the declared one.
    VerdictMismatch {
        declared: Verdict,
        computed: Verdict,
    },
    /// The hardware showed outcomes the model forbids: how many kinds and
    /// how many times in all.
    ForbiddenObserved { outcomes: usize, count: u64 },
    /// The model could not check the test (budget, invalid test, ...).
    Model(String),
    /// The hardware half went wrong (fault, JIT error, lost instances, a
    /// required GPU missing, a bad knob).
    Hardware(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::VerdictMismatch { declared, computed } => write!(
                f,
                "declared {}, but the model says {}",
                verdict_word(*declared),
                verdict_word(*computed)
            ),
            Failure::ForbiddenObserved { outcomes, count } => write!(
                f,
                "the hardware showed {outcomes} outcome{} the model forbids ({count} time{})",
                if *outcomes == 1 { "" } else { "s" },
                if *count == 1 { "" } else { "s" }
            ),
            Failure::Model(m) => write!(f, "model: {m}"),
            Failure::Hardware(m) => write!(f, "{m}"),
        }
    }
}

/// `allowed` / `forbidden`.
pub fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Allowed => "allowed",
        Verdict::Forbidden => "forbidden",
    }
}

/// Everything known about one run of one test.
#[derive(Clone, Debug)]
pub struct TestReport {
    pub test: String,
    pub model: &'static str,
    pub declared: Option<Verdict>,
    /// The model's verdict (`None` when the model could not check it).
    pub computed: Option<Verdict>,
    /// Observables as written in the condition (`P1:r0`, `x`).
    pub observables: Vec<String>,
    /// Model-allowed outcomes and hardware outcomes, allowed first.
    pub rows: Vec<OutcomeRow>,
    pub model_stats: Option<ModelStats>,
    pub hardware: Hardware,
    pub failures: Vec<Failure>,
    /// The knobs the hardware half used or would have used.
    pub knobs: Option<Knobs>,
}

/// The model checker's counts.
#[derive(Clone, Debug)]
pub struct ModelStats {
    pub candidate_executions: u64,
    pub consistent_executions: u64,
    pub bounded: bool,
    pub elapsed: Duration,
}

impl TestReport {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// Whether the hardware showed an outcome satisfying the condition
    /// (`None` when it did not run).
    pub fn condition_seen(&self) -> Option<bool> {
        match self.hardware {
            Hardware::Ran(_) => Some(
                self.rows
                    .iter()
                    .any(|r| r.satisfies_condition && r.seen.unwrap_or(0) > 0),
            ),
            _ => None,
        }
    }
}

/// Runs `test`: the hardware when `config` asks for it and a GPU is there,
/// then the model, and compares them. `ptx_text` is the kernel text the
/// macro generated; `None` generates it here.
pub fn run_test(test: &Test, ptx_text: Option<&str>, config: &Config) -> TestReport {
    let mut failures = Vec::new();
    let hardware = if config.hardware {
        run_hardware(test, ptx_text, config, &mut failures)
    } else {
        Hardware::Off
    };
    judge(test, config, hardware, failures)
}

/// Checks `test` with the model and judges the hardware's result against
/// it. `failures` are those the hardware half already had.
pub fn judge(
    test: &Test,
    config: &Config,
    hardware: Hardware,
    failures: Vec<Failure>,
) -> TestReport {
    let mut report = TestReport {
        test: test.name.text.clone(),
        model: config.model.name(),
        declared: test.verdict.map(|v| v.verdict),
        computed: None,
        observables: Vec::new(),
        rows: Vec::new(),
        model_stats: None,
        hardware,
        failures,
        knobs: config.knobs.as_ref().ok().cloned(),
    };
    let result = match check(test, config.model, &config.options) {
        Ok(r) => r,
        Err(e) => {
            report.failures.push(Failure::Model(e.to_string()));
            return report;
        }
    };
    report.computed = Some(result.verdict());
    report.observables = result.observables.iter().map(|o| o.display(test)).collect();
    report.model_stats = Some(ModelStats {
        candidate_executions: result.candidate_executions,
        consistent_executions: result.consistent_executions,
        bounded: result.bounded,
        elapsed: result.elapsed,
    });
    if let Some(declared) = report.declared {
        if declared != result.verdict() {
            report.failures.push(Failure::VerdictMismatch {
                declared,
                computed: result.verdict(),
            });
        }
    }
    report.rows = rows(test, config, &result, &report.hardware);
    let forbidden: Vec<&OutcomeRow> = report
        .rows
        .iter()
        .filter(|r| !r.allowed && r.seen.unwrap_or(0) > 0)
        .collect();
    if !forbidden.is_empty() {
        report.failures.push(Failure::ForbiddenObserved {
            outcomes: forbidden.len(),
            count: forbidden.iter().map(|r| r.seen.unwrap_or(0)).sum(),
        });
    }
    report
}

fn run_hardware(
    test: &Test,
    ptx_text: Option<&str>,
    config: &Config,
    failures: &mut Vec<Failure>,
) -> Hardware {
    let generated;
    let code = match ptx_text {
        Some(text) => {
            if let Err(PtxError::Unsupported(why)) = ptx::Layout::of(test) {
                return Hardware::NotRun(why);
            }
            text
        }
        None => match ptx::generate(test) {
            Ok(text) => {
                generated = text;
                &generated
            }
            Err(PtxError::Unsupported(why)) => return Hardware::NotRun(why),
            Err(e) => {
                failures.push(Failure::Hardware(e.to_string()));
                return Hardware::Off;
            }
        },
    };
    match gpu::hardware_wanted() {
        Ok(None) => {}
        Ok(Some(why)) => return Hardware::Skipped(why),
        Err(e) => {
            failures.push(Failure::Hardware(e));
            return Hardware::Off;
        }
    }
    let knobs = match &config.knobs {
        Ok(k) => k,
        Err(e) => {
            failures.push(Failure::Hardware(format!("hardware: {e}")));
            return Hardware::Off;
        }
    };
    match gpu::run(test, code, knobs) {
        Ok(r) => Hardware::Ran(r),
        Err(e) => {
            failures.push(Failure::Hardware(format!("hardware: {e}")));
            Hardware::Off
        }
    }
}

/// The outcome table: every allowed outcome, then every outcome only the
/// hardware showed; forbidden outcomes the hardware showed get the model's
/// explanation.
fn rows(test: &Test, config: &Config, result: &CheckResult, hw: &Hardware) -> Vec<OutcomeRow> {
    let obs: &[Observable] = &result.observables;
    let seen: BTreeMap<&[u32], u64> = match hw {
        Hardware::Ran(r) => r
            .histogram
            .iter()
            .map(|(v, c)| (v.as_slice(), *c))
            .collect(),
        _ => BTreeMap::new(),
    };
    let ran = matches!(hw, Hardware::Ran(_));
    let text = |values: &[u32]| {
        obs.iter()
            .zip(values)
            .map(|(o, v)| format!("{}={v}", o.display(test)))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let mut rows: Vec<OutcomeRow> = result
        .allowed
        .iter()
        .map(|values| OutcomeRow {
            text: text(values),
            allowed: true,
            seen: ran.then(|| seen.get(values.as_slice()).copied().unwrap_or(0)),
            satisfies_condition: eval(test, obs, values),
            explanation: None,
            values: values.clone(),
        })
        .collect();
    for (values, count) in &seen {
        if result.allowed.contains(*values) {
            continue;
        }
        let explanation = match explain_outcome(test, config.model, &config.options, values) {
            Ok(e) => e.to_text(2),
            Err(e) => format!("no explanation: {e}"),
        };
        rows.push(OutcomeRow {
            text: text(values),
            allowed: false,
            seen: Some(*count),
            satisfies_condition: eval(test, obs, values),
            explanation: Some(explanation),
            values: values.to_vec(),
        });
    }
    rows
}
