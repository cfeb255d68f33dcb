//! What a campaign's run missed, for the search after it (`campaign
//! --tune`): which tests ran and did not show their weak outcome, in which
//! order to search them, and which outcomes a search showed that the model
//! forbids.
//!
//! Why two tiers: most of a large family's missed tests are ones no
//! harness shows (every thread in one CTA, say), and they would take the
//! budget from the rare ones that do show. A fenced variant's weak outcome
//! is among its relaxation's behaviours ([`litmus_gen::relaxation`]), so a
//! test with a relaxation-mate whose weak outcome showed is searched first
//! (*warm*), and one whose mates all went unseen after it (*cold*).

use std::collections::{BTreeSet, HashSet};

use litmus_core::ir::Test;
use litmus_core::outcome::observables;
use litmus_model::{check, CheckError, Model, Options};

use crate::figures::Figures;
use crate::runner::TestReport;

/// What the run showed of one test that ran on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observed {
    /// The model allows its condition.
    pub allowed: bool,
    /// Its weak outcome showed.
    pub seen: bool,
    /// It failed.
    pub failed: bool,
    /// An outcome the model forbids showed.
    pub forbidden: bool,
}

impl Observed {
    /// What `report` showed, if its test ran on the GPU; `passed` is
    /// whether the test passed as the campaign counts it (its reports
    /// written too).
    pub fn of(report: &TestReport, passed: bool) -> Option<Observed> {
        let f = Figures::of(report);
        f.ran?;
        Some(Observed {
            allowed: f.condition_allowed,
            seen: f.weak > 0,
            failed: !passed,
            forbidden: f.forbidden > 0,
        })
    }
}

/// The tests to search, by index into `runs` (each test's observation,
/// `None` where it did not run, and the test where it could be read), in
/// order: the warm ones (the model allows the condition, and a test with
/// the same relaxation whose condition it allows showed its weak outcome),
/// then the cold ones (every other test that ran unseen).
pub fn tiers(runs: &[(Option<Observed>, Option<&Test>)]) -> (Vec<usize>, Vec<usize>) {
    let key = |t: &Option<&Test>| t.map(litmus_gen::relaxation::relaxation_key);
    let keys: Vec<Option<String>> = runs.iter().map(|(_, t)| key(t)).collect();
    let shown: HashSet<&String> = runs
        .iter()
        .zip(&keys)
        .filter(|((o, _), _)| o.is_some_and(|o| o.seen && o.allowed))
        .filter_map(|(_, k)| k.as_ref())
        .collect();
    let (mut warm, mut cold) = (Vec::new(), Vec::new());
    for (i, ((o, _), k)) in runs.iter().zip(&keys).enumerate() {
        let Some(o) = o.filter(|o| !o.seen) else {
            continue;
        };
        match o.allowed && k.as_ref().is_some_and(|k| shown.contains(k)) {
            true => warm.push(i),
            false => cold.push(i),
        }
    }
    (warm, cold)
}

/// The outcomes of `seen` that `model` forbids for `test`, as a condition
/// writes them (`P1:r0=1; P1:r1=0`).
pub fn forbidden_outcomes(
    test: &Test,
    seen: &BTreeSet<Vec<u32>>,
    model: &dyn Model,
    options: &Options,
) -> Result<Vec<String>, CheckError> {
    let result = check(test, model, options)?;
    let names: Vec<String> = observables(test).iter().map(|o| o.display(test)).collect();
    Ok(seen
        .iter()
        .filter(|v| !result.allowed.contains(*v))
        .map(|v| {
            names
                .iter()
                .zip(v)
                .map(|(n, x)| format!("{n}={x}"))
                .collect::<Vec<_>>()
                .join("; ")
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    fn parse(text: &str) -> Test {
        litmus_core::text::parse(text).expect("the test parses")
    }

    fn observed(allowed: bool, seen: bool) -> Option<Observed> {
        Some(Observed {
            allowed,
            seen,
            failed: false,
            forbidden: false,
        })
    }

    #[test]
    fn a_missed_test_is_warm_when_a_variant_of_its_relaxation_showed() {
        let fenced = MP.replace(
            " st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;",
            " fence.sc.cta | fence.sc.cta ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;",
        );
        let one_cta = MP.replace("P1@cta 1", "P1@cta 0");
        let one_cta_fenced = fenced.replace("P1@cta 1", "P1@cta 0");
        let tests: Vec<Test> = [MP.to_string(), fenced, one_cta, one_cta_fenced]
            .iter()
            .map(|t| parse(t))
            .collect();
        let obs = [true, false, false, false].map(|seen| observed(true, seen));
        let runs: Vec<_> = obs.iter().zip(&tests).map(|(o, t)| (*o, Some(t))).collect();
        assert_eq!(tiers(&runs), (vec![1], vec![2, 3]));
    }

    #[test]
    fn seen_and_not_run_tests_are_not_searched_and_a_forbidden_condition_is_cold() {
        let t = parse(MP);
        // The first did not run; the second showed; the third's condition
        // is forbidden, so its mate's showing does not warm it; the
        // fourth could not be read (no relaxation): cold.
        let runs = [
            (None, Some(&t)),
            (observed(true, true), Some(&t)),
            (observed(false, false), Some(&t)),
            (observed(true, false), None),
        ];
        assert_eq!(tiers(&runs), (vec![], vec![2, 3]));
    }

    #[test]
    fn the_outcomes_the_model_forbids_are_named() {
        let mp = parse(
            &MP.replace("st.relaxed.gpu y", "st.release.gpu y")
                .replace("ld.relaxed.gpu r0", "ld.acquire.gpu r0"),
        );
        let ptx = litmus_model::model_by_name("ptx").unwrap();
        let seen: BTreeSet<Vec<u32>> = [vec![0, 0], vec![1, 1], vec![1, 0]].into();
        let forbidden = forbidden_outcomes(&mp, &seen, ptx, &Options::default()).unwrap();
        assert_eq!(forbidden, vec!["P1:r0=1; P1:r1=0".to_string()]);
    }
}
