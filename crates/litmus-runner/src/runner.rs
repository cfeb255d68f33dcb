//! One test, model and hardware side by side: the model's allowed outcomes,
//! the declared verdict against the model's, the GPU histogram against the
//! allowed set. The result is a [`TestReport`]; [`crate::report`] renders
//! it.

use std::collections::BTreeMap;
use std::time::Duration;

use litmus_core::ir::{Test, Verdict};
use litmus_core::outcome::eval;
use litmus_model::outcome::format_outcome;
use litmus_model::{check, CheckResult};
use litmus_ptx::{Codegen, PtxError};

use crate::config::Config;
use litmus_evidence::judge::forbidden_reasons;
use litmus_evidence::{Kind, Record, Run};
use litmus_hw::{self as gpu, GpuError, HwResult, Knobs, Modules};

/// What happened on the hardware side.
#[derive(Clone, Debug)]
pub enum Hardware {
    /// The kernels ran; their histogram (boxed: a run's result is ten
    /// times the size of the other variants).
    Ran(Box<HwResult>),
    /// No GPU here (and none was required): the one line that says so.
    Skipped(String),
    /// The GPU harness cannot run this test here (shared memory on several
    /// GPUs, a test on two GPUs on a machine with one and no device map,
    /// ...); why.
    NotRun(String),
    /// The hardware half broke (a fault, a JIT error, a required GPU
    /// missing); the failure says how.
    Failed(String),
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
    /// Whether the model allows it (within the loop bound the test is
    /// judged at).
    pub allowed: bool,
    /// The model allows it only with more loop iterations than its bound:
    /// the hardware's spin loops are not bounded so tightly, so it is no
    /// failure.
    pub beyond_loop_bound: bool,
    /// How often the hardware showed it (`None`: the hardware did not run).
    pub seen: Option<u64>,
    /// Whether it satisfies the condition's expression.
    pub satisfies_condition: bool,
    /// For a forbidden outcome the hardware showed: the model's
    /// explanation (axiom and witness).
    pub explanation: Option<String>,
}

impl OutcomeRow {
    /// A forbidden outcome the hardware showed: what fails a test.
    pub fn is_violation(&self) -> bool {
        !self.allowed && !self.beyond_loop_bound && self.seen.unwrap_or(0) > 0
    }
}

/// Why a test failed. A test passes when this list is empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The model's verdict is not the declared one.
    VerdictMismatch {
        /// The verdict the test declares.
        declared: Verdict,
        /// The model's verdict.
        computed: Verdict,
    },
    /// The hardware showed outcomes the model forbids: how many kinds and
    /// how many times in all.
    ForbiddenObserved {
        /// Distinct forbidden outcomes seen.
        outcomes: usize,
        /// Instances that showed one of them.
        count: u64,
    },
    /// The model contradicts the declared termination (`=> terminates` /
    /// `=> may hang`).
    TerminationMismatch {
        /// Whether the test declares that it terminates.
        declared: bool,
        /// The model's non-terminating execution, when it found one.
        hang: Option<String>,
    },
    /// The model could not check the test (budget, invalid test, ...).
    Model(String),
    /// The hardware half went wrong (fault, JIT error, lost instances, a
    /// required GPU missing).
    Hardware(String),
    /// The hardware's histogram could not be recorded as evidence
    /// (`LITMUS_EVIDENCE`, `--evidence`).
    Evidence(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::VerdictMismatch { declared, computed } => write!(
                f,
                "declared {}, but the model says {}",
                declared.as_str(),
                computed.as_str()
            ),
            Failure::ForbiddenObserved { outcomes, count } => write!(
                f,
                "the hardware showed {outcomes} outcome{} the model forbids ({count} time{})",
                if *outcomes == 1 { "" } else { "s" },
                if *count == 1 { "" } else { "s" }
            ),
            Failure::TerminationMismatch { hang: Some(h), .. } => {
                write!(
                    f,
                    "declared terminates, but the model says it may hang: {h}"
                )
            }
            Failure::TerminationMismatch { hang: None, .. } => {
                write!(f, "declared may hang, but the model says it terminates")
            }
            Failure::Model(m) => write!(f, "model: {m}"),
            Failure::Hardware(m) | Failure::Evidence(m) => write!(f, "{m}"),
        }
    }
}

/// How to run a test again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A cargo test, by its path as cargo names it (`catalogue::mp`).
    CargoTest(String),
    /// A `.litmus` file given to `gpu-litmus run`.
    File(String),
}

/// Everything known about one run of one test.
#[derive(Clone, Debug)]
pub struct TestReport {
    /// The test's own name (`litmus!` name or `PTX` header).
    pub test: String,
    /// Where the test came from; also what identifies it in reports, since
    /// two files may hold tests of one name.
    pub source: Source,
    /// The model's name.
    pub model: &'static str,
    /// The verdict the test declares, if it does.
    pub declared: Option<Verdict>,
    /// The model's verdict (`None` when the model could not check it).
    pub computed: Option<Verdict>,
    /// Observables as written in the condition (`P1:r0`, `x`).
    pub observables: Vec<String>,
    /// Model-allowed outcomes and hardware outcomes, allowed first.
    pub rows: Vec<OutcomeRow>,
    /// The model checker's counts, when it ran.
    pub model_stats: Option<ModelStats>,
    /// What the hardware half did.
    pub hardware: Hardware,
    /// Empty when the test passed.
    pub failures: Vec<Failure>,
    /// The knobs the hardware half used or would have used.
    pub knobs: Option<Knobs>,
    /// The model's loop bound (to run the test again the same way).
    pub loop_bound: u32,
    /// When the hardware showed an outcome the model forbids: whether the
    /// SASS that ran keeps the test ([`crate::compiler_check`]), one line.
    pub compiler: Option<String>,
}

/// The model checker's counts.
#[derive(Clone, Debug)]
pub struct ModelStats {
    /// As in [`litmus_model::CheckResult::candidate_executions`].
    pub candidate_executions: u64,
    /// As in [`litmus_model::CheckResult::consistent_executions`].
    pub consistent_executions: u64,
    /// Some execution needed more loop iterations than the bound.
    pub bounded: bool,
    /// Wall time the model check took.
    pub elapsed: Duration,
}

impl TestReport {
    /// Whether the test holds: no failure of any kind.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }

    /// What names this test in reports: the cargo test path or the file.
    pub fn id(&self) -> &str {
        match &self.source {
            Source::CargoTest(id) | Source::File(id) => id,
        }
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

    /// Allowed outcomes the hardware ran but never showed.
    pub fn allowed_unseen(&self) -> Vec<&OutcomeRow> {
        self.rows
            .iter()
            .filter(|r| r.allowed && r.seen == Some(0))
            .collect()
    }
}

/// Runs `test`: the hardware when `config` asks for it and a GPU is there,
/// then the model, and compares them. `ptx_text` is the kernel text the
/// macro generated; `None` generates it here.
pub fn run_test(
    test: &Test,
    ptx_text: Option<&str>,
    config: &Config,
    source: Source,
) -> TestReport {
    run_test_as(test, ptx_text, config, source, Kind::Run)
}

/// [`run_test`], its evidence record marked as `kind` (a campaign's test,
/// so that `campaign --resume` knows it ran).
pub fn run_test_as(
    test: &Test,
    ptx_text: Option<&str>,
    config: &Config,
    source: Source,
    kind: Kind,
) -> TestReport {
    run_test_on(&[], test, ptx_text, config, source, kind)
}

/// [`run_test_as`] with the hardware half on the devices of `claim`
/// (`litmus_hw::run_on`: logical GPU `g` on `claim[g]`; empty: the first
/// device), as a [`crate::device_pool::spread`] hands them out.
pub fn run_test_on(
    claim: &[u32],
    test: &Test,
    ptx_text: Option<&str>,
    config: &Config,
    source: Source,
    kind: Kind,
) -> TestReport {
    let mut failures = Vec::new();
    let mut parts = Vec::new();
    // The run's modules: its slots and the compiler check after them load
    // what this value generated, once each (see `litmus_hw::Modules`).
    let modules = match ptx_text {
        Some(text) => Modules::with_default(test, text),
        None => Modules::of(test),
    };
    let (hardware, device_kind) = if config.hardware {
        run_hardware(claim, &modules, config, &mut failures, &mut parts)
    } else {
        (Hardware::Off, String::new())
    };
    if let (Hardware::Ran(_), Some(dir)) = (&hardware, &config.evidence_dir) {
        let source = match &source {
            Source::CargoTest(id) | Source::File(id) => id,
        };
        // One record a configuration that ran: a record names one set of
        // knobs and one build.
        for hw in &parts {
            let record = Record {
                kind,
                ..record_of(test, hw, source)
            };
            if let Err(e) = litmus_evidence::store::append(dir, record) {
                failures.push(Failure::Evidence(format!(
                    "cannot record evidence in {}: {e}",
                    dir.display()
                )));
                break;
            }
        }
    }
    let mut report = judge_on(&device_kind, test, config, hardware, failures, source);
    // A forbidden outcome is a finding against the model only if the code
    // that ran is the test: say what the compiler made of it.
    let forbidden = report
        .failures
        .iter()
        .any(|f| matches!(f, Failure::ForbiddenObserved { .. }));
    if let (true, Hardware::Ran(hw)) = (forbidden, &report.hardware) {
        report.compiler = Some(crate::compiler_check::story(&modules, &hw.knobs));
    }
    report
}

/// The evidence record of a hardware run of `test` from `source`.
pub fn record_of(test: &Test, hw: &HwResult, source: &str) -> Record {
    let knobs = hw.knobs.to_string();
    let run = Run {
        histogram: &hw.histogram,
        instances: hw.instances,
        unfinished: hw.unfinished,
        device: &hw.device,
        knobs: &knobs,
        seed: hw.knobs.seed,
    };
    Record {
        build: (!hw.build.target.is_empty()).then(|| hw.build.to_string()),
        ..Record::of_run(test, &run, source)
    }
}

/// Checks `test` with the model and judges the hardware's result against
/// it. `failures` are those the hardware half already had. A hardware
/// half that did not run reports the knobs it would have run with on no
/// particular device: a tuning entry written for every kind, if the test
/// has one, else the configuration's.
pub fn judge(
    test: &Test,
    config: &Config,
    hardware: Hardware,
    failures: Vec<Failure>,
    source: Source,
) -> TestReport {
    judge_on("", test, config, hardware, failures, source)
}

/// [`judge`] for a hardware half that was to run on a device of kind
/// `device_kind` (empty when no device was reached): a half that did not
/// run reports the knobs that kind's tuning entry gives.
fn judge_on(
    device_kind: &str,
    test: &Test,
    config: &Config,
    hardware: Hardware,
    failures: Vec<Failure>,
    source: Source,
) -> TestReport {
    // The knobs the hardware used (a tuning entry's, maybe), else those it
    // would have used.
    let knobs = match &hardware {
        Hardware::Ran(r) => Some(r.knobs.clone()),
        _ => config.knobs_for(&test.name.text, device_kind).ok(),
    };
    let mut report = TestReport {
        test: test.name.text.clone(),
        source,
        model: config.model.name(),
        declared: test.verdict.map(|v| v.verdict),
        computed: None,
        observables: Vec::new(),
        rows: Vec::new(),
        model_stats: None,
        hardware,
        failures,
        knobs,
        loop_bound: config.options.loop_bound,
        compiler: None,
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
    report.failures.extend(termination_failure(test, config));
    report.rows = rows(test, config, &result, &report.hardware);
    let forbidden: Vec<&OutcomeRow> = report.rows.iter().filter(|r| r.is_violation()).collect();
    if !forbidden.is_empty() {
        report.failures.push(Failure::ForbiddenObserved {
            outcomes: forbidden.len(),
            count: forbidden.iter().map(|r| r.seen.unwrap_or(0)).sum(),
        });
    }
    report
}

/// What contradicts the test's declared termination, if it declares one.
fn termination_failure(test: &Test, config: &Config) -> Option<Failure> {
    let declared = test.termination?.terminates;
    match litmus_model::check_termination(test, config.model, &config.options) {
        Ok(t) if t.terminates() == declared => None,
        Ok(t) => Some(Failure::TerminationMismatch {
            declared,
            hang: t.hang.map(|h| h.to_string()),
        }),
        Err(e) => Some(Failure::Model(format!("termination: {e}"))),
    }
}

/// Runs the hardware half on the devices of `claim`; returns it with the
/// kind of device it was to run on (empty when it got no further than
/// asking whether there is a GPU).
fn run_hardware(
    claim: &[u32],
    modules: &Modules,
    config: &Config,
    failures: &mut Vec<Failure>,
    parts: &mut Vec<HwResult>,
) -> (Hardware, String) {
    let mut kind = String::new();
    let hardware = run_hardware_of_kind(claim, modules, config, failures, &mut kind, parts);
    (hardware, kind)
}

/// [`run_hardware`], setting `kind` once the device is known.
fn run_hardware_of_kind(
    claim: &[u32],
    modules: &Modules,
    config: &Config,
    failures: &mut Vec<Failure>,
    kind: &mut String,
    parts: &mut Vec<HwResult>,
) -> Hardware {
    let test = modules.test();
    // Without a GPU to run on, a test the harness cannot run says why, as
    // it does where there is one (the macro embeds no PTX exactly then):
    // the default module is made for that alone, since no run follows.
    // Where there is a GPU, the run's first slot makes the module it
    // loads, for the device, and a refusal comes from there.
    let no_gpu = match gpu::hardware_wanted() {
        Ok(None) => None,
        Ok(Some(why)) => Some(Ok(why)),
        Err(e) => Some(Err(format!("hardware: {e}"))),
    };
    if let Some(no_gpu) = no_gpu {
        if let Err(e) = modules.get(Codegen::default()) {
            return refused(e, failures);
        }
        return match no_gpu {
            Ok(why) => Hardware::Skipped(why),
            Err(message) => failed(message, failures),
        };
    }
    // The tuning entry is the one for the kind of GPU the test runs on;
    // the device map that picks it is the machine's, never tuned. Where
    // the kind cannot be known (the test cannot be placed), no entry is
    // taken and the run says why.
    *kind = gpu::kind_on(claim, test, &config.knobs).unwrap_or_default();
    let knobs = match config.knobs_for(&test.name.text, kind) {
        Ok(k) => k,
        Err(e) => return failed(format!("hardware: {e}"), failures),
    };
    match crate::portfolio::run(claim, modules, &knobs, &config.portfolio) {
        Ok((joined, ran)) => {
            *parts = ran;
            Hardware::Ran(Box::new(joined))
        }
        Err(e @ GpuError::Unfaithful(_)) => not_run(e.to_string(), failures),
        Err(GpuError::Ptx(e)) => refused(e, failures),
        Err(e) => failed(format!("hardware: {e}"), failures),
    }
}

/// A hardware half that failed, with the failure that says why.
fn failed(message: String, failures: &mut Vec<Failure>) -> Hardware {
    failures.push(Failure::Hardware(message.clone()));
    Hardware::Failed(message)
}

/// The hardware half of a test the generator refuses: not run where the
/// harness cannot run it ([`not_run`]), failed where the generator and
/// validation disagree.
fn refused(e: PtxError, failures: &mut Vec<Failure>) -> Hardware {
    match e {
        PtxError::Unsupported(why) => not_run(why, failures),
        e => failed(e.to_string(), failures),
    }
}

/// A hardware half that this machine cannot run (the harness, the device
/// or the driver lacks what the test needs): not run, and no failure, so
/// that one suite serves every GPU; unless `LITMUS_REQUIRE_HW=1` asks
/// for every hardware half to run.
fn not_run(why: String, failures: &mut Vec<Failure>) -> Hardware {
    let message = match gpu::hw_required_var() {
        Ok(false) => return Hardware::NotRun(why),
        Ok(true) => format!("hardware: not run, {why}; LITMUS_REQUIRE_HW=1 makes that a failure"),
        Err(e) => format!("hardware: {e}"),
    };
    failures.push(Failure::Hardware(message.clone()));
    Hardware::Failed(message)
}

/// The outcome table: every allowed outcome, then every outcome only the
/// hardware showed. An outcome outside the allowed set of a bounded
/// check is checked again with larger loop bounds (the hardware's loops
/// may have iterated more); one that stays out gets the model's
/// explanation.
fn rows(test: &Test, config: &Config, result: &CheckResult, hw: &Hardware) -> Vec<OutcomeRow> {
    let obs = &result.observables;
    let seen: BTreeMap<&[u32], u64> = match hw {
        Hardware::Ran(r) => r
            .histogram
            .iter()
            .map(|(v, c)| (v.as_slice(), *c))
            .collect(),
        _ => BTreeMap::new(),
    };
    let ran = matches!(hw, Hardware::Ran(_));
    let mut rows: Vec<OutcomeRow> = result
        .allowed
        .iter()
        .map(|values| OutcomeRow {
            text: format_outcome(test, obs, values),
            allowed: true,
            beyond_loop_bound: false,
            seen: ran.then(|| seen.get(values.as_slice()).copied().unwrap_or(0)),
            satisfies_condition: eval(test, obs, values),
            explanation: None,
            values: values.clone(),
        })
        .collect();
    let outside: Vec<(&[u32], u64)> = seen
        .iter()
        .filter(|(v, _)| !result.allowed.contains(**v))
        .map(|(v, c)| (*v, *c))
        .collect();
    let values: Vec<&[u32]> = outside.iter().map(|(v, _)| *v).collect();
    let reasons = forbidden_reasons(test, config.model, &config.options, result.bounded, &values);
    for ((values, count), explanation) in outside.into_iter().zip(reasons) {
        let beyond_loop_bound = explanation.is_none();
        rows.push(OutcomeRow {
            text: format_outcome(test, obs, values),
            allowed: false,
            beyond_loop_bound,
            seen: Some(count),
            satisfies_condition: eval(test, obs, values),
            explanation,
            values: values.to_vec(),
        });
    }
    rows
}
