//! Configurations whose launches outlast their slices: once one has cost
//! the set many times the GPU time its trials asked for, no test still
//! unseen tries it again.
//!
//! Why: a trial runs whole launches, so a configuration whose one launch
//! takes seconds (a grid-wide spin barrier under heavy stress, one CTA an
//! SM) spends seconds of the set's budget on every slice of a few
//! milliseconds it is given, and every unseen test gives it one in each
//! pass (the campaign in which one such environment took over a third of
//! the search: `docs/tuning-and-campaigns.md`, "The twins in a whole
//! campaign").
//!
//! The base (pool index 0) is never left out: it is what a run without a
//! tuning entry runs, and the tuning entry is measured against it. A test
//! whose weak outcome a configuration has shown still refines on it: what
//! shows is worth its cost.
//!
//! ```
//! use std::time::Duration;
//! use litmus_tune::overrun::Overrun;
//! let ms = Duration::from_millis;
//! let mut o = Overrun::new(2);
//! o.charge(1, ms(20), ms(900));
//! o.charge(1, ms(20), ms(900));
//! assert!(!o.dropped(1)); // two trials are not yet judged
//! o.charge(1, ms(20), ms(900)); // three, at 45 times the ask
//! assert!(o.dropped(1) && o.count() == 1);
//! for _ in 0..3 { o.charge(0, ms(20), ms(900)); }
//! assert!(!o.dropped(0)); // the base stays
//! ```

use std::time::Duration;

/// How many times the GPU time it asked for a configuration may take.
pub const FACTOR: u32 = 8;

/// Trials a configuration runs before its cost is judged: one slow launch
/// (a module's first, a device's hiccup) does not condemn it.
pub const TRIALS: u32 = 3;

/// What each configuration of the pool has cost against what it asked.
#[derive(Clone, Debug)]
pub struct Overrun {
    asked: Vec<Duration>,
    took: Vec<Duration>,
    trials: Vec<u32>,
    dropped: Vec<bool>,
}

impl Overrun {
    /// A pool of `pool` configurations, none run yet.
    pub fn new(pool: usize) -> Overrun {
        Overrun {
            asked: vec![Duration::ZERO; pool],
            took: vec![Duration::ZERO; pool],
            trials: vec![0; pool],
            dropped: vec![false; pool],
        }
    }

    /// Counts a trial of configuration `c` that asked for `asked` of GPU
    /// time and took `took`, and leaves `c` out once it has cost too much.
    pub fn charge(&mut self, c: usize, asked: Duration, took: Duration) {
        let Some(n) = self.trials.get_mut(c) else {
            return;
        };
        *n += 1;
        self.asked[c] += asked;
        self.took[c] += took;
        if c != 0 && *n >= TRIALS && self.took[c] > self.asked[c] * FACTOR {
            self.dropped[c] = true;
        }
    }

    /// Whether configuration `c` is left out.
    pub fn dropped(&self, c: usize) -> bool {
        self.dropped.get(c).copied().unwrap_or(false)
    }

    /// How many configurations are left out.
    pub fn count(&self) -> usize {
        self.dropped.iter().filter(|d| **d).count()
    }
}
