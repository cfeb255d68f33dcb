//! Candidate tests for a search that tells two models apart (`gpu-litmus
//! diff`, `gpu-litmus mutants --kill-tests`): the families of some shapes
//! and cycles, then of enumerated cycles ([`crate::enumerate`]), each test
//! once up to renaming ([`crate::canon`]). [`Candidates`] is such a search
//! as asked for (every name checked, the cycles enumerated once) and says
//! its bound in words, as every report of the search names it;
//! [`generate`] makes the tests.
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

use crate::enumerate::{enumerate, Bound, Enumeration, DEFAULT_EDGES};
use crate::naming::cycle_name;
use crate::{family, shape, variants, FamilySpec, GenError, Skeleton, SHAPES};

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

/// Why the candidates asked for cannot be made: found before any test is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CandidateError {
    /// An unknown shape, a cycle that is no cycle, a named shape or cycle
    /// the family options do not fit, or an enumeration out of range.
    #[error(transparent)]
    Gen(#[from] GenError),
    /// No shape, no cycle and no enumerated cycle: nothing to search.
    #[error("no shape, no cycle and no enumerated cycle: no candidate test")]
    Empty,
}

/// What a search's candidates are to be made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The shapes by name; `None`: every shape of [`SHAPES`], left out
    /// (not refused) where the options do not fit it; empty: none.
    pub shapes: Option<Vec<String>>,
    /// diy7 cycles (`Rfe PodRR Fre PodWW`), in order.
    pub cycles: Vec<String>,
    /// Every cycle up to a bound: the edges (`None`: [`DEFAULT_EDGES`])
    /// and the bound.
    pub enumeration: Option<(Option<Vec<String>>, Bound)>,
    /// The family options every skeleton's family is made with.
    pub spec: FamilySpec,
    /// The family options as written (`--placements all`), which the
    /// bound names; empty: the defaults.
    pub written: Vec<String>,
}

/// A search's candidates as asked for, every name checked and the cycles
/// enumerated, ready to [`generate`](Candidates::generate).
///
/// ```
/// use litmus_gen::candidates::{Candidates, Choice};
/// use litmus_gen::enumerate::Bound;
/// use litmus_gen::FamilySpec;
///
/// let c = Candidates::new(Choice {
///     shapes: Some(vec!["MP".into()]),
///     cycles: Vec::new(),
///     enumeration: Some((None, Bound::default())),
///     spec: FamilySpec::default(),
///     written: Vec::new(),
/// })
/// .unwrap();
/// assert!(c.bound().starts_with("shapes MP; no cycle; every cycle of 2 to 4 edges"));
/// assert!(c.generate(2).unwrap().tests.len() > 1);
/// ```
#[derive(Clone, Debug)]
pub struct Candidates {
    choice: Choice,
    /// The cycles of [`Choice::enumeration`], enumerated once.
    enumerated: Option<Enumeration>,
}

impl Candidates {
    /// The candidates of `choice`. Fails, before any test is made, on an
    /// unknown shape, a cycle that does not read, a named shape or cycle
    /// the options do not fit, an enumeration out of range, or nothing to
    /// search at all.
    pub fn new(choice: Choice) -> Result<Candidates, CandidateError> {
        let mut c = Candidates {
            choice,
            enumerated: None,
        };
        for name in c.choice.shapes.iter().flatten() {
            shape(name)?;
        }
        for cycle in &c.choice.cycles {
            crate::cycle::skeleton(cycle)?;
        }
        // Options that do not fit a named skeleton are the asker's
        // mistake; an unnamed shape that they do not fit is left out.
        for (skeleton, named) in c.named() {
            if named {
                variants(&skeleton, &c.choice.spec)?;
            }
        }
        if let Some((edges, bound)) = &c.choice.enumeration {
            let edges = edges
                .clone()
                .unwrap_or_else(|| DEFAULT_EDGES.iter().map(|e| e.to_string()).collect());
            c.enumerated = Some(enumerate(&edges, *bound)?);
        }
        let enumerated = c.enumerated.as_ref().map_or(0, |e| e.cycles.len());
        if c.choice.shapes.as_ref().is_some_and(Vec::is_empty)
            && c.choice.cycles.is_empty()
            && enumerated == 0
        {
            return Err(CandidateError::Empty);
        }
        Ok(c)
    }

    /// The skeletons of the shapes and cycles, each with whether it was
    /// named (`false`: one of every shape, taken by default).
    fn named(&self) -> Vec<(Skeleton, bool)> {
        let mut out: Vec<(Skeleton, bool)> = match &self.choice.shapes {
            Some(names) => names
                .iter()
                .map(|n| (shape(n).expect("checked when made"), true))
                .collect(),
            None => SHAPES
                .iter()
                .map(|(n, _)| (shape(n).expect("a built-in shape"), false))
                .collect(),
        };
        out.extend(self.choice.cycles.iter().map(|c| {
            let skeleton = crate::cycle::skeleton(c).expect("checked when made");
            (skeleton, true)
        }));
        out
    }

    /// The enumeration searched, when one was asked for.
    pub fn enumeration(&self) -> Option<&Enumeration> {
        self.enumerated.as_ref()
    }

    /// Every candidate test, each once up to renaming: the shapes' and
    /// cycles' families, then the enumerated cycles' (made on `threads`
    /// threads, kept in order).
    pub fn generate(&self, threads: usize) -> Result<Generated, GenError> {
        let cycles = self.enumerated.as_ref().map_or(&[][..], |e| &e.cycles[..]);
        generate(&self.named(), &self.choice.spec, cycles, threads)
    }

    /// The bound of the search, as reports say it: `shapes MP, SB; no
    /// cycle; every cycle of 2 to 4 edges, ... (its vocabulary and counts);
    /// --placements all`.
    pub fn bound(&self) -> String {
        let shapes = match &self.choice.shapes {
            None => format!("every shape ({})", SHAPES.len()),
            Some(s) if s.is_empty() => "no shape".to_string(),
            Some(s) => format!("shapes {}", s.join(", ")),
        };
        let cycles = &self.choice.cycles;
        let mut cycles = match cycles.len() {
            0 => "no cycle".to_string(),
            _ => format!("cycles `{}`", cycles.join("`, `")),
        };
        if let Some(e) = &self.enumerated {
            cycles = format!("{cycles}; {}", e.describe());
        }
        let options = match self.choice.written.is_empty() {
            true => "gen's default options".to_string(),
            false => self.choice.written.join(" "),
        };
        format!("{shapes}; {cycles}; {options}")
    }
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

    fn choice(shapes: Option<&[&str]>) -> Choice {
        Choice {
            shapes: shapes.map(|s| s.iter().map(|n| n.to_string()).collect()),
            cycles: Vec::new(),
            enumeration: None,
            spec: FamilySpec::default(),
            written: Vec::new(),
        }
    }

    #[test]
    fn candidates_check_every_name_and_say_their_bound() {
        let none = Candidates::new(choice(Some(&[]))).unwrap_err();
        assert_eq!(none, CandidateError::Empty);
        let unknown = Candidates::new(choice(Some(&["XX"]))).unwrap_err();
        assert!(matches!(
            unknown,
            CandidateError::Gen(GenError::UnknownShape { .. })
        ));
        let mut bad = choice(None);
        bad.cycles.push("Rfe Nope".into());
        assert!(Candidates::new(bad).is_err());
        let mut every = choice(None);
        every.written = vec!["--placements all".into()];
        let c = Candidates::new(every).unwrap();
        assert_eq!(
            c.bound(),
            format!("every shape ({}); no cycle; --placements all", SHAPES.len())
        );
        assert!(c.enumeration().is_none());
        let mut cycles = choice(Some(&["MP", "SB"]));
        cycles.cycles = vec!["Rfe PodRR Fre PodWW".into()];
        assert_eq!(
            Candidates::new(cycles).unwrap().bound(),
            "shapes MP, SB; cycles `Rfe PodRR Fre PodWW`; gen's default options"
        );
    }

    #[test]
    fn a_named_shape_the_options_do_not_fit_is_refused_an_unnamed_one_left_out() {
        let mut spec = FamilySpec::default();
        spec.set("fences", "sc").unwrap();
        spec.set("fence-threads", "3").unwrap();
        let mut named = choice(Some(&["MP"]));
        named.spec = spec.clone();
        assert!(matches!(
            Candidates::new(named),
            Err(CandidateError::Gen(GenError::BadOption { .. }))
        ));
        let mut every = choice(None);
        every.spec = spec;
        let g = Candidates::new(every).unwrap().generate(1).unwrap();
        assert!(g.left_out.iter().any(|(name, _)| name == "MP"));
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
