//! The outcomes each model allows on each test ([`Verdicts`]), checked on
//! several threads (`litmus_core::parallel::par_for`): what
//! [`crate::compare`] compares and [`crate::cat::batch`] computes for many
//! cat models at once, in a file of its own so that neither of those two
//! needs the other.

use std::collections::BTreeSet;

use litmus_core::ir::Test;
pub(crate) use litmus_core::parallel::par_for;

use crate::budget::Options;
use crate::check::check;
use crate::model::Model;
use crate::outcome::Outcome;

/// The outcomes a model allows on a test, or why the test could not be
/// checked (an invalid test, a budget run out, a feature the model
/// refuses).
pub type Allowed = Result<BTreeSet<Outcome>, Unchecked>;

/// Why a test could not be checked, as the checker said it: kept as its
/// message because a batch shares one failure among every model's cell of
/// the test, and [`crate::CheckError`] (which holds the parser's and the
/// validator's errors) is not `Clone`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unchecked(pub String);

/// The allowed outcomes of several models on several tests.
#[derive(Clone, Debug)]
pub struct Verdicts {
    /// Per model (in the order given), per test (in the order given).
    pub allowed: Vec<Vec<Allowed>>,
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
                .map_err(|e| Unchecked(e.to_string()))
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
