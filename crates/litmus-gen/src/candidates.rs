//! Candidate tests for a search that tells two models apart (`gpu-litmus
//! diff`, `gpu-litmus mutants --kill-tests`): the families of some shapes
//! and cycles, then of enumerated cycles ([`crate::enumerate`]), each test
//! once up to renaming ([`crate::canon`]).
//!
//! It is here, beside [`family()`], because it needs nothing but families:
//! a notebook or another tool makes the same candidates as the CLI without
//! a command line, and judges them with its own models
//! (`litmus_model::compare::diff`).
//!
//! ```
//! use litmus_gen::candidates::generate;
//! use litmus_gen::{shape, FamilySpec};
//!
//! let named = [(shape("MP").unwrap(), true), (shape("SB").unwrap(), true)];
//! let cycles = ["Rfe PodRR Fre PodWW".to_string()];
//! let g = generate(&named, &FamilySpec::default(), &cycles, 2).unwrap();
//! // MP and SB once each; the enumerated cycle is MP again, seen already.
//! assert_eq!(g.tests.len(), 2);
//! assert!(g.left_out.is_empty() && g.enumerated_unfit == 0);
//! ```

use std::collections::HashSet;

use litmus_core::ir::Test;
use litmus_core::parallel::par_for;

use crate::naming::cycle_name;
use crate::{family, FamilySpec, GenError, Skeleton};

/// The candidate tests, and what was left out.
#[derive(Debug)]
pub struct Generated {
    /// Every candidate, each once up to renaming, the named shapes and
    /// cycles first, then the enumerated cycles shortest first.
    pub tests: Vec<Test>,
    /// Skeletons not named (a default set) that the family options do not
    /// fit (a fence on a thread a two-thread shape lacks): each skeleton's
    /// name, and why.
    pub left_out: Vec<(String, GenError)>,
    /// Enumerated cycles that the family options do not fit: how many
    /// (they are many, so they are counted, not listed).
    pub enumerated_unfit: usize,
}

/// Every candidate test: the families of `skeletons` (in order; a named
/// one, `true`, that the options `spec` do not fit is an error, one not
/// named is left out), then the families of the enumerated `cycles`
/// (diy7 text, each named by [`cycle_name`]; one that makes no skeleton
/// counts as unfit, as one the options do not fit), made on `threads`
/// threads and kept in order. Each test is kept once, the first time it
/// is made.
pub fn generate(
    skeletons: &[(Skeleton, bool)],
    spec: &FamilySpec,
    cycles: &[String],
    threads: usize,
) -> Result<Generated, GenError> {
    let mut seen = HashSet::new();
    let mut out = Generated {
        tests: Vec::new(),
        left_out: Vec::new(),
        enumerated_unfit: 0,
    };
    for (skeleton, named) in skeletons {
        match family(skeleton, spec, &mut seen) {
            Ok(f) => out.tests.extend(f.tests),
            Err(e) if !named => out.left_out.push((skeleton.name.clone(), e)),
            Err(e) => return Err(e),
        }
    }
    // Each cycle's family on its own (a test seen in none before), in
    // parallel; then kept in order, each test once over all of them.
    let families = par_for(cycles.len(), threads, |i| {
        let mut skeleton = crate::cycle::skeleton(&cycles[i]).ok()?;
        skeleton.name = cycle_name(&cycles[i]);
        family(&skeleton, spec, &mut HashSet::new())
            .map(|f| f.tests)
            .ok()
    });
    for tests in families {
        match tests {
            Some(tests) => out.tests.extend(
                tests
                    .into_iter()
                    .filter(|t| seen.insert(crate::canonical(t))),
            ),
            None => out.enumerated_unfit += 1,
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape;

    #[test]
    fn a_named_shape_that_does_not_fit_is_an_error_and_a_default_one_is_left_out() {
        let mut spec = FamilySpec::default();
        // A fence on thread 3: MP has two threads, IRIW four.
        spec.set("fences", "sc").unwrap();
        spec.set("fence-threads", "3").unwrap();
        let mp = shape("MP").unwrap();
        let iriw = shape("IRIW").unwrap();
        assert!(generate(&[(mp.clone(), true)], &spec, &[], 1).is_err());
        let g = generate(&[(mp, false), (iriw, false)], &spec, &[], 1).unwrap();
        assert_eq!(g.left_out.len(), 1);
        assert_eq!(g.left_out[0].0, "MP");
        assert!(!g.tests.is_empty());
    }

    #[test]
    fn the_threads_do_not_change_the_order() {
        let cycles: Vec<String> = [
            "Rfe PodRR Fre PodWW",
            "Fre PodWR Fre PodWR",
            "Rfe PodRW Rfe PodRW",
        ]
        .iter()
        .map(|c| c.to_string())
        .collect();
        let names = |threads| -> Vec<String> {
            generate(&[], &FamilySpec::default(), &cycles, threads)
                .unwrap()
                .tests
                .into_iter()
                .map(|t| t.name.text)
                .collect()
        };
        assert_eq!(names(1), names(3));
        assert_eq!(names(1).len(), 3);
    }
}
