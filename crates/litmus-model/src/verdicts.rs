//! The outcomes each model allows on each test ([`Verdicts`]), checked on
//! several threads ([`par_for`]): what [`crate::compare`] compares and
//! [`crate::cat::batch`] computes for many cat models at once, in a file of
//! its own so that neither of those two needs the other.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use litmus_core::ir::Test;

use crate::budget::Options;
use crate::check::check;
use crate::model::Model;
use crate::outcome::Outcome;

/// The outcomes a model allows on a test, or why the test could not be
/// checked (an invalid test, a budget run out, a feature the model
/// refuses).
pub type Allowed = Result<BTreeSet<Outcome>, String>;

/// The allowed outcomes of several models on several tests.
#[derive(Clone, Debug)]
pub struct Verdicts {
    /// Per model (in the order given), per test (in the order given).
    pub allowed: Vec<Vec<Allowed>>,
}

/// Runs `job(i)` for every `i < n` on `threads` threads (at least one),
/// each taking the next index when it is free: tests differ in cost by
/// orders of magnitude, so a fixed split would leave threads idle.
pub(crate) fn par_for<T: Send>(
    n: usize,
    threads: usize,
    job: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, n.max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let v = job(i);
                out.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(v);
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(|v| v.expect("every index is run once"))
        .collect()
}

/// The number of threads to use by default: the machine's cores.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Verdicts {
    /// Checks every test under every model, one search per model and test,
    /// on `threads` threads. For cat models [`crate::cat::batch::Batch::verdicts`]
    /// shares one search per test among all of them, which is much faster.
    pub fn of(tests: &[Test], models: &[&dyn Model], opts: &Options, threads: usize) -> Verdicts {
        let cells = par_for(models.len() * tests.len(), threads, |i| {
            let (m, t) = (i / tests.len(), i % tests.len());
            check(&tests[t], models[m], opts)
                .map(|r| r.allowed)
                .map_err(|e| e.to_string())
        });
        let mut it = cells.into_iter();
        Verdicts {
            allowed: models
                .iter()
                .map(|_| it.by_ref().take(tests.len()).collect())
                .collect(),
        }
    }
}
