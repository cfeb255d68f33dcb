//! Models compared on tests: the outcomes each allows on each test
//! ([`Verdicts`]), how a model relates to another over a test set
//! ([`classify`]: stronger, weaker, equivalent, incomparable), and which
//! tests tell two models apart ([`diff`], and [`diff_by_name`] for models
//! named as a command line names them).
//!
//! This runs on every pull request over hundreds of mutants
//! ([`crate::cat::mutate`]) and a thousand tests, so the work is spread
//! over threads, and cat models are judged together over one search per
//! test ([`crate::cat::batch`]) rather than one search per model.
//!
//! ```
//! use litmus_model::compare::{classify, Class, Verdicts};
//! use litmus_model::{model_by_name, Options};
//! let mp = litmus_core::text::parse(include_str!(
//!     "../../../tests/litmus/files/mp_relaxed_gpu.litmus"
//! )).unwrap();
//! let models = [model_by_name("sc").unwrap(), model_by_name("ptx").unwrap()];
//! let v = Verdicts::of(&[mp], &models, &Options::default(), 2);
//! let c = classify(&v.allowed[0], &v.allowed[1]);
//! assert_eq!(c.class, Class::Weaker); // ptx allows MP's relaxed reordering, sc does not
//! assert_eq!(c.differences[0].only_other.len(), 1);
//! ```

use std::collections::BTreeSet;

use litmus_core::ir::{Test, Verdict};

use crate::budget::Options;
use crate::model::Model;
use crate::outcome::{format_outcome, is_target, observables, Outcome};

pub use crate::verdicts::{default_threads, Allowed, Verdicts};

/// How a model relates to a base model over a test set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Allows exactly what the base allows, on every test.
    Equivalent,
    /// Allows a subset on every test, a strict one on some.
    Stronger,
    /// Allows a superset on every test, a strict one on some.
    Weaker,
    /// Allows something the base does not on one test, and the other way
    /// round on one test.
    Incomparable,
}

impl Class {
    /// `equivalent`, `stronger`, `weaker` or `incomparable`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Equivalent => "equivalent",
            Class::Stronger => "stronger",
            Class::Weaker => "weaker",
            Class::Incomparable => "incomparable",
        }
    }
}

/// A test on which two models allow different outcomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestDifference {
    /// The test's index in the test set.
    pub test: usize,
    /// Outcomes the base allows and the other model does not.
    pub only_base: Vec<Outcome>,
    /// Outcomes the other model allows and the base does not.
    pub only_other: Vec<Outcome>,
}

/// What [`classify`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classification {
    /// The relation over the tests that both models checked.
    pub class: Class,
    /// The tests that tell the models apart, in test order.
    pub differences: Vec<TestDifference>,
    /// Tests that one of the models could not check (index, message):
    /// left out of the classification.
    pub errors: Vec<(usize, String)>,
}

/// Classifies `other` against `base` from their allowed outcomes on the
/// same tests (one [`Verdicts::allowed`] row each).
pub fn classify(base: &[Allowed], other: &[Allowed]) -> Classification {
    let mut differences = Vec::new();
    let mut errors = Vec::new();
    let (mut less, mut more) = (false, false);
    for (t, (b, o)) in base.iter().zip(other).enumerate() {
        match (b, o) {
            (Ok(b), Ok(o)) => {
                let only_base: Vec<Outcome> = b.difference(o).cloned().collect();
                let only_other: Vec<Outcome> = o.difference(b).cloned().collect();
                less |= !only_base.is_empty();
                more |= !only_other.is_empty();
                if !only_base.is_empty() || !only_other.is_empty() {
                    differences.push(TestDifference {
                        test: t,
                        only_base,
                        only_other,
                    });
                }
            }
            (Err(e), _) => errors.push((t, format!("base model: {e}"))),
            (_, Err(e)) => errors.push((t, e.to_string())),
        }
    }
    let class = match (less, more) {
        (false, false) => Class::Equivalent,
        (true, false) => Class::Stronger,
        (false, true) => Class::Weaker,
        (true, true) => Class::Incomparable,
    };
    Classification {
        class,
        differences,
        errors,
    }
}

/// The verdict on a test's condition from the outcomes allowed: for
/// `exists` and `~exists`, allowed when an allowed outcome satisfies the
/// condition; for `forall`, when one breaks it (as
/// [`crate::CheckResult::verdict`]).
pub fn verdict_of(test: &Test, allowed: &BTreeSet<Outcome>) -> Verdict {
    let obs = observables(test);
    if allowed.iter().any(|o| is_target(test, &obs, o)) {
        Verdict::Allowed
    } else {
        Verdict::Forbidden
    }
}

/// A test that two models judge differently, for [`diff`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The test's index in the test set.
    pub test: usize,
    /// The test's name.
    pub name: String,
    /// Its threads and instructions: what [`diff`] sorts by.
    pub threads: usize,
    /// The instructions of all its threads.
    pub instructions: usize,
    /// The old model's verdict on the condition.
    pub old: Verdict,
    /// The new model's.
    pub new: Verdict,
    /// Outcomes only the old model allows, as `P0:r0=1; x=2` lines.
    pub only_old: Vec<String>,
    /// Outcomes only the new model allows.
    pub only_new: Vec<String>,
}

/// What [`diff`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelDiff {
    /// The tests whose allowed outcomes differ, smallest first (fewest
    /// threads, then fewest instructions, then test order).
    pub differences: Vec<Difference>,
    /// Tests that one of the models could not check (index, message).
    pub errors: Vec<(usize, String)>,
}

/// The tests on which `old` and `new` allow different outcomes, smallest
/// first: the first is the shortest witness of a change of model. Each
/// model gets one search per test; two cat files are faster through
/// [`crate::cat::batch::Batch`] and [`diff_verdicts`], which share it.
/// The caller picks the tests (the repository's, generated families,
/// diy7 cycles); `threads` threads run them.
pub fn diff(
    old: &dyn Model,
    new: &dyn Model,
    tests: &[Test],
    opts: &Options,
    threads: usize,
) -> ModelDiff {
    let v = Verdicts::of(tests, &[old, new], opts, threads);
    diff_verdicts(tests, &v.allowed[0], &v.allowed[1])
}

/// Why [`diff_by_name`] could not check the tests.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    /// A `.cat` file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file, as named.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A `.cat` file (or one it includes) does not compile.
    #[error(transparent)]
    Cat(#[from] crate::cat::CatError),
    /// A name that is no model.
    #[error(transparent)]
    Unknown(#[from] crate::models::UnknownModel),
}

/// [`diff`] of two models named as [`crate::model_by_name`] takes them
/// (`ptx`, `sc`, ..., or `.cat` files, includes read beside them). Two
/// `.cat` files share one search per test ([`crate::cat::batch::Batch`]);
/// otherwise each model searches on its own. This is `gpu-litmus diff`'s
/// engine, for any caller with its own candidate tests.
///
/// ```
/// use litmus_model::compare::diff_by_name;
/// use litmus_model::Options;
/// let mp = litmus_core::text::parse(include_str!(
///     "../../../tests/litmus/files/mp_relaxed_gpu.litmus"
/// )).unwrap();
/// let d = diff_by_name("sc", "ptx", &[mp], &Options::default(), 1).unwrap();
/// assert_eq!(d.differences.len(), 1); // ptx allows MP's weak outcome
/// assert!(d.differences[0].only_old.is_empty());
/// assert!(diff_by_name("sc", "tso", &[], &Options::default(), 1).is_err());
/// ```
pub fn diff_by_name(
    old: &str,
    new: &str,
    tests: &[Test],
    opts: &Options,
    threads: usize,
) -> Result<ModelDiff, DiffError> {
    let mut v = if old.ends_with(".cat") && new.ends_with(".cat") {
        let mut batch = crate::cat::batch::Batch::default();
        for path in [old, new] {
            let src = std::fs::read_to_string(path).map_err(|source| DiffError::Read {
                path: path.to_string(),
                source,
            })?;
            batch.add(
                std::path::Path::new(path),
                &src,
                &mut crate::cat::read_from_disk,
            )?;
        }
        batch.verdicts(tests, opts, threads)
    } else {
        // Both names are looked up before either error is returned, as
        // the CLI always did: the old model's error comes first.
        let [o, n] = [old, new].map(crate::model_by_name);
        Verdicts::of(tests, &[o?, n?], opts, threads)
    };
    let new_row = v.allowed.pop().expect("two rows");
    let old_row = v.allowed.pop().expect("two rows");
    Ok(diff_verdicts(tests, &old_row, &new_row))
}

/// [`diff`] from allowed outcomes already computed (one row per model, as
/// [`Verdicts::allowed`] holds them).
pub fn diff_verdicts(tests: &[Test], old: &[Allowed], new: &[Allowed]) -> ModelDiff {
    let c = classify(old, new);
    let mut differences: Vec<Difference> = c
        .differences
        .iter()
        .map(|d| {
            let test = &tests[d.test];
            let obs = observables(test);
            let lines = |os: &[Outcome]| -> Vec<String> {
                os.iter().map(|o| format_outcome(test, &obs, o)).collect()
            };
            let (o, n) = match (&old[d.test], &new[d.test]) {
                (Ok(o), Ok(n)) => (o, n),
                _ => unreachable!("classify reports differences of checked tests only"),
            };
            Difference {
                test: d.test,
                name: test.name.text.clone(),
                threads: test.threads.len(),
                instructions: test.threads.iter().map(|t| t.body.len()).sum(),
                old: verdict_of(test, o),
                new: verdict_of(test, n),
                only_old: lines(&d.only_base),
                only_new: lines(&d.only_other),
            }
        })
        .collect();
    differences.sort_by_key(|d| (d.threads, d.instructions, d.test));
    ModelDiff {
        differences,
        errors: c.errors,
    }
}
