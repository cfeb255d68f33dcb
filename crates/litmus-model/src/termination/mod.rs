//! Termination: whether every consistent execution of a test ends, as
//! Dat3M's TERMINATION property asks.
//!
//! A test may hang when some consistent execution leaves a thread spinning
//! forever (a side-effect-free loop whose reads settle on final values, in
//! coherence, for which it keeps jumping back) or waiting forever at a
//! barrier that never completes. The check enumerates the executions of a
//! variant of the test in which spinning threads stop (`spin`) and
//! barriers may stay incomplete, and judges each (`witness`).
//!
//! ```
//! let test = litmus_text::parse(
//!     "PTX spin\n{ f=0; }\n P0@cta 0,gpu 0 ;\n L: ;\n ld.relaxed.gpu r0, f ;\n beq r0, 0, L ;\nexists (P0:r0 == 0)",
//! ).unwrap();
//! let model = litmus_model::model_by_name("ptx").unwrap();
//! let t = litmus_model::check_termination(&test, model, &Default::default()).unwrap();
//! assert_eq!(t.hang.unwrap().to_string(), "thread P0 spins at L on f=0");
//! ```

mod spin;
mod witness;

use std::fmt;
use std::time::{Duration, Instant};

use litmus_core::ir::Test;

use crate::budget::Options;
use crate::check::CheckError;
use crate::enumerate::{Leaf, Search};
use crate::model::Model;

/// What the termination check finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Termination {
    /// The model's name.
    pub model: &'static str,
    /// A non-terminating consistent execution, if there is one.
    pub hang: Option<Hang>,
    /// Whether the loop bound cut a loop that is not a spin loop (one that
    /// writes), so that the answer holds only up to that bound.
    pub bounded: bool,
    /// Consistent executions of the stop-at-spins variant examined.
    pub consistent_executions: u64,
    /// Wall time the check took.
    pub elapsed: Duration,
}

impl Termination {
    /// Whether every consistent execution terminates.
    pub fn terminates(&self) -> bool {
        self.hang.is_none()
    }
}

/// A non-terminating execution: every thread that never finishes in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hang {
    /// The stuck threads, in thread order.
    pub stuck: Vec<Stuck>,
}

/// One thread that never finishes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stuck {
    /// The thread's name.
    pub thread: String,
    /// Where it is stuck.
    pub at: Where,
}

/// Where a thread is stuck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Where {
    /// In a spin loop, reading final values that keep it looping.
    Spin {
        /// The label the loop jumps back to.
        label: String,
        /// The index, in the thread's body, of the backward jump.
        instr: usize,
        /// Each read of the iteration: location and the value it settles on.
        reads: Vec<(String, u32)>,
    },
    /// At a barrier that never completes.
    Barrier {
        /// The barrier's index in the thread's body.
        instr: usize,
        /// The barrier as written.
        text: String,
    },
}

impl fmt::Display for Stuck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.at {
            Where::Spin { label, reads, .. } => {
                write!(f, "thread {} spins at {label}", self.thread)?;
                if !reads.is_empty() {
                    let values: Vec<String> =
                        reads.iter().map(|(l, v)| format!("{l}={v}")).collect();
                    write!(f, " on {}", values.join(", "))?;
                }
                Ok(())
            }
            Where::Barrier { instr, text } => write!(
                f,
                "thread {} waits forever at `{text}` (instruction {instr})",
                self.thread
            ),
        }
    }
}

impl fmt::Display for Hang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.stuck.iter().map(Stuck::to_string).collect();
        f.write_str(&parts.join("; "))
    }
}

/// Checks whether every consistent execution of `test` under `model`
/// terminates. Every coherence order is enumerated (a final value depends
/// on it), so [`Options::all_executions`] is implied.
pub fn check_termination(
    test: &Test,
    model: &dyn Model,
    opts: &Options,
) -> Result<Termination, CheckError> {
    litmus_core::validate(test).map_err(CheckError::Invalid)?;
    let start = Instant::now();
    let loops = spin::spin_loops(test);
    let variant = spin::stop_at_spins(test, &loops);
    let opts = Options {
        all_executions: true,
        ..opts.clone()
    };
    let mut hang = None;
    let mut on_leaf = |leaf: Leaf| {
        if hang.is_none() && leaf.verdict.is_ok() {
            hang = witness::stuck_threads(test, &loops, leaf.x, leaf.values)
                .map(|stuck| Hang { stuck });
        }
    };
    let mut search = Search::new(&variant, model, &opts, &[], true, &mut on_leaf);
    search.allow_blocked_barriers();
    search.run(&opts)?;
    let counts = search.counts;
    Ok(Termination {
        model: model.name(),
        hang,
        bounded: counts.bounded,
        consistent_executions: counts.consistent,
        elapsed: start.elapsed(),
    })
}
