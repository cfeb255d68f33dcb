//! What a test's "weak outcome" is, for tuning and campaigns: the outcomes
//! its condition describes when the model allows them (MP's stale read,
//! SB's two zeros), and otherwise every outcome sequential consistency
//! forbids: for a test whose condition is forbidden, the non-SC outcomes
//! the model allows are the rare ones worth exposing.

use std::collections::BTreeSet;

use litmus_core::ir::Test;
use litmus_core::outcome::{eval, observables, Observable};
use litmus_model::{check, model_by_name, CheckResult, Model, Options, Outcome};

use crate::error::TargetError;

/// The outcomes a tuning search tries to make the GPU show.
#[derive(Clone, Debug)]
pub enum Target {
    /// The outcomes satisfying the test's condition (the model allows
    /// one); the test's observables, in outcome order.
    Condition(Vec<Observable>),
    /// Outcomes outside SC's allowed set.
    NonSc(BTreeSet<Outcome>),
}

impl Target {
    /// The target of `test` under `model`; an error when a model cannot
    /// check the test.
    pub fn of(test: &Test, model: &dyn Model, options: &Options) -> Result<Target, TargetError> {
        let result = check(test, model, options)?;
        Target::from_check(test, &result, options)
    }

    /// The target of `test` from the model's `result` for it, for callers
    /// that checked the test already (the SC check still runs when the
    /// model forbids the condition).
    pub fn from_check(
        test: &Test,
        result: &CheckResult,
        options: &Options,
    ) -> Result<Target, TargetError> {
        if result.condition_reachable {
            return Ok(Target::Condition(observables(test)));
        }
        let sc = model_by_name("sc")?;
        let sc = check(test, sc, options)?;
        Ok(Target::NonSc(sc.allowed))
    }

    /// Whether `values` (an outcome of `test`) is a target outcome.
    pub fn hits(&self, test: &Test, values: &[u32]) -> bool {
        match self {
            Target::Condition(obs) => eval(test, obs, values),
            Target::NonSc(sc_allowed) => !sc_allowed.contains(values),
        }
    }

    /// Says what is counted, for people.
    pub fn describe(&self) -> &'static str {
        match self {
            Target::Condition(_) => "the condition's outcome",
            Target::NonSc(_) => "outcomes SC forbids",
        }
    }
}
