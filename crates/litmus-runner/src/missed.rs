//! What a campaign's run missed, for the search after it (`campaign
//! --tune`): which tests ran and did not show their weak outcome, in which
//! order to search them, and which outcomes a search showed that the model
//! forbids.
//!
//! Why this order: most of a large family's missed tests are ones no
//! harness shows (every thread in one CTA, say), and they would take the
//! budget from the rare ones that do show. What a variant shows, a weaker
//! variant of the same relaxation shows too ([`Standing`]): in the
//! published cuda-litmus campaign's results, no variant was seen whose
//! weaker variant was not, and neither was one in ours. So the search goes
//! up the order: first the missed tests whose every weaker variant showed
//! its weak outcome (*warm*, the frontier), again as the search shows
//! more, then once the tests with nothing below them to learn from, and
//! those whose condition the model forbids (*cold*, at a small share of
//! the budget), and never the tests above a variant that stayed unseen.

use std::collections::{BTreeSet, HashMap};

use litmus_core::ir::Test;
use litmus_core::outcome::observables;
use litmus_gen::relaxation::Standing;
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

/// One step of the search: the tests to search now, by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Missed tests whose every weaker variant has shown its weak outcome:
    /// searched at the whole budget.
    Warm(Vec<usize>),
    /// Missed tests with no weaker variant to learn from, a condition the
    /// model forbids, or no standing (unreadable): searched once, at a
    /// small share of it.
    Cold(Vec<usize>),
}

/// The order in which a campaign searches what its run missed (see the
/// module): ask [`SearchPlan::next_step`] for a step, search it, tell
/// [`SearchPlan::saw`] what showed, and ask again.
#[derive(Clone, Debug)]
pub struct SearchPlan {
    /// Per test: it ran unseen and is still to place in a step.
    open: Vec<bool>,
    seen: Vec<bool>,
    /// Per test: the allowed tests that ran and are strictly weaker
    /// variants of it (`None`: it is cold whatever shows).
    below: Vec<Option<Vec<usize>>>,
    cold_done: bool,
}

impl SearchPlan {
    /// The plan for `runs`: each test's observation (`None` where it did
    /// not run) and the test where it could be read.
    pub fn new(runs: &[(Option<Observed>, Option<&Test>)]) -> SearchPlan {
        let standings: Vec<Option<Standing>> =
            runs.iter().map(|(_, t)| t.map(Standing::of)).collect();
        let allowed = |j: usize| runs[j].0.is_some_and(|o| o.allowed);
        let mut mates: HashMap<&str, Vec<usize>> = HashMap::new();
        for (j, s) in standings.iter().enumerate() {
            if let Some(s) = s.as_ref().filter(|_| allowed(j)) {
                mates.entry(s.key.as_str()).or_default().push(j);
            }
        }
        let below = (0..runs.len())
            .map(|i| {
                let mine = standings[i].as_ref().filter(|_| allowed(i))?;
                let under: Vec<usize> = mates[mine.key.as_str()]
                    .iter()
                    .copied()
                    .filter(|&j| {
                        let theirs = standings[j].as_ref().expect("mates have standings");
                        j != i && theirs.at_most(mine) && !mine.at_most(theirs)
                    })
                    .collect();
                (!under.is_empty()).then_some(under)
            })
            .collect();
        SearchPlan {
            open: runs
                .iter()
                .map(|(o, _)| o.is_some_and(|o| !o.seen))
                .collect(),
            seen: runs
                .iter()
                .map(|(o, _)| o.is_some_and(|o| o.seen))
                .collect(),
            below,
            cold_done: false,
        }
    }

    /// The next tests to search: the frontier while there is one, then
    /// the cold tests once, then the frontier their showing opened;
    /// `None` when no test is left that the order lets in.
    pub fn next_step(&mut self) -> Option<Step> {
        let warm = self.take(|p, i| {
            p.below[i]
                .as_ref()
                .is_some_and(|under| under.iter().all(|&j| p.seen[j]))
        });
        if !warm.is_empty() {
            return Some(Step::Warm(warm));
        }
        if self.cold_done {
            return None;
        }
        self.cold_done = true;
        let cold = self.take(|p, i| p.below[i].is_none());
        if cold.is_empty() {
            return self.next_step();
        }
        Some(Step::Cold(cold))
    }

    /// Test `i`'s weak outcome showed in the search.
    pub fn saw(&mut self, i: usize) {
        self.seen[i] = true;
    }

    /// The missed tests the search never took: a weaker variant of each
    /// stayed unseen.
    pub fn left(&self) -> Vec<usize> {
        (0..self.open.len()).filter(|&i| self.open[i]).collect()
    }

    fn take(&mut self, pick: impl Fn(&SearchPlan, usize) -> bool) -> Vec<usize> {
        let picked: Vec<usize> = (0..self.open.len())
            .filter(|&i| self.open[i] && pick(self, i))
            .collect();
        for &i in &picked {
            self.open[i] = false;
        }
        picked
    }
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
        litmus_text::parse(text).expect("the test parses")
    }

    fn observed(allowed: bool, seen: bool) -> Option<Observed> {
        Some(Observed {
            allowed,
            seen,
            failed: false,
            forbidden: false,
        })
    }

    /// MP with `fence` between each thread's two accesses (`""`: none).
    fn mp(fence: &str, placement: &str) -> Test {
        let fenced = match fence {
            "" => MP.to_string(),
            f => MP.replace(
                " st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;",
                &format!(" {f} ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;"),
            ),
        };
        parse(&fenced.replace("P1@cta 1", placement))
    }

    fn plan(tests: &[Test], obs: &[Option<Observed>]) -> SearchPlan {
        let runs: Vec<_> = obs.iter().zip(tests).map(|(o, t)| (*o, Some(t))).collect();
        SearchPlan::new(&runs)
    }

    #[test]
    fn the_search_climbs_from_what_showed_and_leaves_what_stands_on_the_unseen() {
        let apart = "P1@cta 1";
        let tests = [
            mp("", apart),                            // 0: seen in the run
            mp("fence.sc.cta | ", apart),             // 1: above 0 only
            mp("fence.sc.cta | fence.sc.cta", apart), // 2: above 0 and 1
            mp("fence.sc.gpu | fence.sc.gpu", apart), // 3: above 2
            mp("", "P1@cta 0"),                       // 4: another relaxation, unseen
            mp(" | fence.sc.cta", "P1@cta 0"),        // 5: above 4
        ];
        let obs = [true, false, false, false, false, false].map(|seen| observed(true, seen));
        let mut p = plan(&tests, &obs);
        assert_eq!(p.next_step(), Some(Step::Warm(vec![1])));
        p.saw(1);
        assert_eq!(p.next_step(), Some(Step::Warm(vec![2])));
        // 2 stays unseen: 3 stands on it, and 4 has nothing below it.
        assert_eq!(p.next_step(), Some(Step::Cold(vec![4])));
        p.saw(4);
        assert_eq!(p.next_step(), Some(Step::Warm(vec![5])));
        assert_eq!(p.next_step(), None);
        assert_eq!(p.left(), vec![3]);
    }

    #[test]
    fn seen_and_not_run_tests_are_not_searched_and_a_forbidden_condition_is_cold() {
        let t = parse(MP);
        let fenced = mp("fence.sc.cta | fence.sc.cta", "P1@cta 1");
        // The first did not run; the second showed; the third's condition
        // is forbidden, so it is not the frontier even above a test that
        // showed; the fourth could not be read (no standing): cold.
        let runs = [
            (None, Some(&t)),
            (observed(true, true), Some(&t)),
            (observed(false, false), Some(&fenced)),
            (observed(true, false), None),
        ];
        let mut p = SearchPlan::new(&runs);
        assert_eq!(p.next_step(), Some(Step::Cold(vec![2, 3])));
        assert_eq!(p.next_step(), None);
        assert!(p.left().is_empty());
    }

    #[test]
    fn a_variant_written_twice_does_not_block_itself() {
        let tests = [
            mp("", "P1@cta 1"),
            mp("fence.sc.cta | ", "P1@cta 1"),
            mp("fence.sc.cta | ", "P1@cta 1"),
        ];
        let obs = [true, false, false].map(|seen| observed(true, seen));
        let mut p = plan(&tests, &obs);
        assert_eq!(p.next_step(), Some(Step::Warm(vec![1, 2])));
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
