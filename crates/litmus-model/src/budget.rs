//! Options of a check and the budget that keeps it from running away.

use std::time::{Duration, Instant};

/// How a check runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// How many times a loop body may run. 1 (the default, as the corpus
    /// verdicts were computed) discards any path that takes a backward jump.
    pub loop_bound: u32,
    /// The most search steps (partial and complete candidate executions
    /// visited) before the check stops with [`BudgetExceeded`].
    pub max_steps: u64,
    /// The longest a check may take.
    pub max_time: Option<Duration>,
    /// The most control paths per thread.
    pub max_paths: usize,
    /// Enumerate every consistent execution (the execution counts are then
    /// exact). Off by default: the search stops at one consistent execution
    /// per outcome, which gives the same allowed outcomes and verdicts at a
    /// cost that follows the outcomes rather than the executions.
    pub all_executions: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            loop_bound: 1,
            max_steps: 20_000_000,
            max_time: Some(Duration::from_secs(120)),
            max_paths: 4096,
            all_executions: false,
        }
    }
}

/// The budget ran out: which one, and how far the search got.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "budget exceeded: {budget}; stopped after {steps} search steps, {candidates} candidate executions ({consistent} consistent) in {elapsed:.1?}"
)]
pub struct BudgetExceeded {
    /// The budget that ran out, e.g. `max_steps = 1000`.
    pub budget: String,
    /// Search steps taken.
    pub steps: u64,
    /// Candidate executions examined.
    pub candidates: u64,
    /// Consistent executions found.
    pub consistent: u64,
    /// Wall time spent.
    pub elapsed: Duration,
}

/// Counts search steps against the options' limits.
#[derive(Debug)]
pub(crate) struct Budget {
    max_steps: u64,
    deadline: Option<(Instant, Duration)>,
    start: Instant,
    pub steps: u64,
}

impl Budget {
    pub fn new(opts: &Options) -> Budget {
        let start = Instant::now();
        Budget {
            max_steps: opts.max_steps,
            deadline: opts.max_time.map(|d| (start + d, d)),
            start,
            steps: 0,
        }
    }

    /// Counts one step; fails when a limit is reached.
    pub fn step(&mut self, candidates: u64, consistent: u64) -> Result<(), BudgetExceeded> {
        self.steps += 1;
        let exceeded = if self.steps > self.max_steps {
            Some(format!("max_steps = {}", self.max_steps))
        } else if self.steps.is_multiple_of(256) {
            match self.deadline {
                Some((at, d)) if Instant::now() >= at => Some(format!("max_time = {d:?}")),
                _ => None,
            }
        } else {
            None
        };
        match exceeded {
            None => Ok(()),
            Some(budget) => Err(BudgetExceeded {
                budget,
                steps: self.steps - 1,
                candidates,
                consistent,
                elapsed: self.start.elapsed(),
            }),
        }
    }
}
