//! The entry point: a test and a model in, the allowed outcomes and the
//! verdict on the test's condition out.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use litmus_core::ir::{Quantifier, Test, Verdict};
use litmus_core::ValidationError;

use crate::budget::{BudgetExceeded, Options, TooLarge};
use crate::enumerate::{Search, SearchError};
use crate::events::PathError;
use crate::model::Model;
use crate::models::{model_by_name, UnknownModel};
use crate::outcome::{eval, format_outcome, observables, Observable, Outcome};

/// What a model decides about a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckResult {
    /// The model's name.
    pub model: &'static str,
    /// The test condition's quantifier.
    pub quantifier: Quantifier,
    /// What each outcome records, in order.
    pub observables: Vec<Observable>,
    /// Every outcome some consistent execution produces.
    pub allowed: BTreeSet<Outcome>,
    /// Candidate executions examined: complete candidates, plus partial
    /// ones discarded whole by early pruning (each counts once). Every
    /// candidate only with [`Options::all_executions`]; by default the
    /// search stops at one consistent execution per outcome and this
    /// counts the ones it looked at.
    pub candidate_executions: u64,
    /// Complete candidate executions that satisfy every axiom: all of them
    /// with [`Options::all_executions`], by default those found (at least
    /// one per allowed outcome; 0 exactly when nothing is allowed).
    pub consistent_executions: u64,
    /// Whether some consistent execution satisfies the condition's
    /// expression.
    pub condition_reachable: bool,
    /// Whether the claim holds as written: `exists`: reachable; `~exists`:
    /// unreachable; `forall`: every consistent execution satisfies it.
    pub claim_holds: bool,
    /// Whether the loop bound cut some control path, so that the result is
    /// exact only up to that bound.
    pub bounded: bool,
    /// herd7's witnesses: consistent executions whose final state satisfies
    /// the condition's expression. An execution that leaves several final
    /// states (coherence is partial in PTX) counts once per state. Like the
    /// execution counts, exact only with [`Options::all_executions`].
    pub positive: u64,
    /// Consistent executions whose final state does not satisfy the
    /// condition's expression (counted as [`CheckResult::positive`]).
    pub negative: u64,
    /// Wall time the check took.
    pub elapsed: Duration,
}

impl CheckResult {
    /// The verdict in the IR's convention ([`Verdict`]): for `exists` and
    /// `~exists`, allowed when the expression is reachable; for `forall`,
    /// allowed when some consistent execution breaks it.
    pub fn verdict(&self) -> Verdict {
        let allowed = match self.quantifier {
            Quantifier::Exists | Quantifier::NotExists => self.condition_reachable,
            Quantifier::Forall => !self.claim_holds,
        };
        if allowed {
            Verdict::Allowed
        } else {
            Verdict::Forbidden
        }
    }

    /// The allowed outcomes, one `P0:r0=1; x=2` line each.
    pub fn outcome_lines(&self, test: &Test) -> Vec<String> {
        self.allowed
            .iter()
            .map(|o| format_outcome(test, &self.observables, o))
            .collect()
    }
}

/// Why a test could not be checked.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The test fails validation.
    #[error("the test is not valid: {}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<ValidationError>),
    /// A control path cannot be unrolled (see [`PathError`]).
    #[error(transparent)]
    Paths(#[from] PathError),
    /// The search ran out of budget.
    #[error(transparent)]
    Budget(#[from] BudgetExceeded),
    /// The test is beyond [`Options::max_events`].
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// The model name names no model.
    #[error(transparent)]
    UnknownModel(#[from] UnknownModel),
}

impl From<SearchError> for CheckError {
    fn from(e: SearchError) -> CheckError {
        match e {
            SearchError::Paths(p) => CheckError::Paths(p),
            SearchError::Budget(b) => CheckError::Budget(b),
            SearchError::TooLarge(t) => CheckError::TooLarge(t),
        }
    }
}

/// Checks `test` under `model`.
///
/// ```
/// use litmus_core::ir::Verdict;
/// use litmus_model::{check, model_by_name, Options};
///
/// let mp = litmus_text::parse(
///     "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
/// )
/// .unwrap();
/// // Weak accesses, no fences: PTX allows the message-passing outcome.
/// let ptx = check(&mp, model_by_name("ptx").unwrap(), &Options::default()).unwrap();
/// assert_eq!(ptx.verdict(), Verdict::Allowed);
/// // Sequential consistency does not.
/// let sc = check(&mp, model_by_name("sc").unwrap(), &Options::default()).unwrap();
/// assert_eq!(sc.verdict(), Verdict::Forbidden);
/// println!("{}", ptx.outcome_lines(&mp).join("\n"));
/// ```
pub fn check(test: &Test, model: &dyn Model, opts: &Options) -> Result<CheckResult, CheckError> {
    litmus_core::validate(test).map_err(CheckError::Invalid)?;
    let start = Instant::now();
    let obs = observables(test);
    // herd7's witnesses: consistent executions by whether their final state
    // satisfies the condition. Exact with `Options::all_executions` (what
    // `check --format herd` asks for); otherwise over the executions the
    // outcome search looked at.
    let (mut positive, mut negative) = (0, 0);
    let mut on_leaf = |leaf: crate::enumerate::Leaf| {
        if leaf.verdict.is_ok() {
            for outcome in &leaf.outcomes {
                if eval(test, &obs, outcome) {
                    positive += 1;
                } else {
                    negative += 1;
                }
            }
        }
    };
    let mut search = Search::new(test, model, opts, &obs, true, &mut on_leaf);
    search.run(opts)?;
    let counts = search.counts;
    let allowed = std::mem::take(&mut search.found);
    let condition_reachable = allowed.iter().any(|o| eval(test, &obs, o));
    let claim_holds = match test.condition.quantifier {
        Quantifier::Exists => condition_reachable,
        Quantifier::NotExists => !condition_reachable,
        Quantifier::Forall => allowed.iter().all(|o| eval(test, &obs, o)),
    };
    Ok(CheckResult {
        model: model.name(),
        quantifier: test.condition.quantifier,
        observables: obs,
        allowed,
        candidate_executions: counts.candidates,
        consistent_executions: counts.consistent,
        condition_reachable,
        claim_holds,
        bounded: counts.bounded,
        positive,
        negative,
        elapsed: start.elapsed(),
    })
}

/// Checks `test` under the model called `model`.
pub fn check_with(test: &Test, model: &str, opts: &Options) -> Result<CheckResult, CheckError> {
    check(test, model_by_name(model)?, opts)
}
