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
    /// The most events (initial writes included) a candidate execution may
    /// have. The search's relations grow with the square of the events and
    /// its choices faster, so a larger test is refused with [`TooLarge`]
    /// before anything is allocated for it, rather than exhausting memory
    /// or time.
    pub max_events: usize,
}

/// The default of [`Options::max_events`]: four times the largest test of
/// the corpus, and small enough that no refused-or-decided test keeps a
/// gate more than seconds.
pub const DEFAULT_MAX_EVENTS: usize = 96;

impl Default for Options {
    fn default() -> Options {
        Options {
            loop_bound: 1,
            max_steps: 20_000_000,
            max_time: Some(Duration::from_secs(120)),
            max_paths: 4096,
            all_executions: false,
            max_events: DEFAULT_MAX_EVENTS,
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

/// A test beyond what the search decides in bounded time and memory.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("too large to check: {count} {what}, more than the bound of {max} (max_events)")]
pub struct TooLarge {
    /// What is counted: `events` or `locations`.
    pub what: &'static str,
    /// How many the test has (for events: on its longest control paths).
    pub count: usize,
    /// The bound, [`Options::max_events`].
    pub max: usize,
}

impl TooLarge {
    /// Refuses `count` of `what` above `max`.
    pub(crate) fn check(what: &'static str, count: usize, max: usize) -> Result<(), TooLarge> {
        if count > max {
            Err(TooLarge { what, count, max })
        } else {
            Ok(())
        }
    }
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
