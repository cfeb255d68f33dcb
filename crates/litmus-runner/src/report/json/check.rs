//! `check --format json` and `check --termination --format json`: one
//! object per file and line (`checkRecord`, `terminationRecord` in the
//! schema).

use litmus_core::ir::Test;
use litmus_model::{CheckResult, Termination, Where};
use serde::Serialize;

use super::SCHEMA;

/// One file's line of `check --format json`. Outcomes have the shape of
/// `run`'s: `observables` names them once, and each outcome is an array of
/// values in that order.
#[derive(Clone, Debug, Serialize)]
pub struct CheckRecord<'a> {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// The file as given.
    pub file: &'a str,
    /// The test's name.
    pub name: &'a str,
    /// The model's name.
    pub model: &'a str,
    /// The verdict the file declares, when it declares one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_verdict: Option<&'static str>,
    /// `exists`, `not exists` or `forall`.
    pub quantifier: &'static str,
    /// Whether some allowed outcome satisfies the condition's expression.
    pub condition_reachable: bool,
    /// Whether the test's claim holds.
    pub claim_holds: bool,
    /// The model's verdict.
    pub verdict: &'static str,
    /// Whether loops were cut at the loop bound.
    pub bounded: bool,
    /// The observables, as the condition writes them.
    pub observables: Vec<String>,
    /// The allowed outcomes: one array of values per outcome.
    pub allowed_outcomes: Vec<&'a [u32]>,
    /// Consistent executions found.
    pub consistent_executions: u64,
    /// Candidate executions looked at.
    pub candidate_executions: u64,
    /// The time the check took.
    pub micros: u64,
}

impl<'a> CheckRecord<'a> {
    /// The line of `file`, whose `test` the model `model` checked in
    /// `micros` with `result`.
    pub fn of(
        file: &'a str,
        test: &'a Test,
        model: &'a str,
        result: &'a CheckResult,
        micros: u64,
    ) -> CheckRecord<'a> {
        CheckRecord {
            schema: SCHEMA,
            file,
            name: &test.name.text,
            model,
            declared_verdict: test.verdict.map(|d| d.verdict.as_str()),
            quantifier: result.quantifier.as_str(),
            condition_reachable: result.condition_reachable,
            claim_holds: result.claim_holds,
            verdict: result.verdict().as_str(),
            bounded: result.bounded,
            observables: result.observables.iter().map(|o| o.display(test)).collect(),
            allowed_outcomes: result.allowed.iter().map(Vec::as_slice).collect(),
            consistent_executions: result.consistent_executions,
            candidate_executions: result.candidate_executions,
            micros,
        }
    }
}

/// One file's line of `check --termination --format json`. The fields
/// are in alphabetical order, the order the line had before it was typed.
#[derive(Clone, Debug, Serialize)]
pub struct TerminationRecord<'a> {
    /// Whether a loop that writes was cut at the loop bound.
    pub bounded: bool,
    /// Consistent executions looked at.
    pub consistent_executions: u64,
    /// `terminates` or `may hang`, when the file declares one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared_termination: Option<&'static str>,
    /// The file as given.
    pub file: &'a str,
    /// The time the check took.
    pub micros: u64,
    /// The model's name.
    pub model: &'static str,
    /// The test's name.
    pub name: &'a str,
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// Where each thread is stuck; `None` when every execution ends.
    pub stuck: Option<Vec<Stuck<'a>>>,
    /// Whether every consistent execution ends.
    pub terminates: bool,
}

/// Where a thread is stuck forever, told by `kind` (fields alphabetical,
/// as before).
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Stuck<'a> {
    /// At a barrier that never completes.
    Barrier {
        /// The barrier as written.
        barrier: &'a str,
        /// Its index in the thread's body.
        instruction: usize,
        /// The thread's name.
        thread: &'a str,
    },
    /// In a spin loop that its final values keep looping.
    Spin {
        /// The index of the backward jump in the thread's body.
        instruction: usize,
        /// The label the loop jumps back to.
        label: &'a str,
        /// Each read of the iteration and the value it settles on.
        reads: Vec<Read<'a>>,
        /// The thread's name.
        thread: &'a str,
    },
}

/// A read of a spin loop's iteration.
#[derive(Clone, Debug, Serialize)]
pub struct Read<'a> {
    /// The location read.
    pub location: &'a str,
    /// The value it settles on.
    pub value: u32,
}

impl<'a> TerminationRecord<'a> {
    /// The line of `file`, whose `test` ended (or not) as `t` says, checked
    /// in `micros`.
    pub fn of(file: &'a str, test: &'a Test, t: &'a Termination, micros: u64) -> Self {
        let stuck = t.hang.as_ref().map(|h| {
            h.stuck
                .iter()
                .map(|s| match &s.at {
                    Where::Spin {
                        label,
                        instr,
                        reads,
                    } => Stuck::Spin {
                        instruction: *instr,
                        label,
                        reads: reads
                            .iter()
                            .map(|(location, value)| Read {
                                location,
                                value: *value,
                            })
                            .collect(),
                        thread: &s.thread,
                    },
                    Where::Barrier { instr, text } => Stuck::Barrier {
                        barrier: text,
                        instruction: *instr,
                        thread: &s.thread,
                    },
                })
                .collect()
        });
        TerminationRecord {
            bounded: t.bounded,
            consistent_executions: t.consistent_executions,
            declared_termination: test.termination.map(|d| d.as_str()),
            file,
            micros,
            model: t.model,
            name: &test.name.text,
            schema: SCHEMA,
            stuck,
            terminates: t.terminates(),
        }
    }
}
