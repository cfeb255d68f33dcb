//! `campaign --tune`: the run first, then the family-wide search over the
//! tests whose weak outcome the run did not show.
//!
//! Why this order: the defaults' portfolio shows most of a family in a
//! quarter of a second a test, so a search over every test spends most of
//! its budget finding again what the run shows anyway. Searching only the
//! tests the run missed gives each of them several times the budget for
//! the same GPU time.
//!
//! The order of the search and what counts as forbidden:
//! [`litmus_runner::missed`].

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use litmus_runner::campaign::Tally;
use litmus_runner::missed::{forbidden_outcomes, Observed, SearchPlan, Step};
use litmus_tune::kin::Kin;

use super::load::load;
use super::run::Options;
use super::tune::{tune_set, Search, SearchedTest};

/// `--tune`: how the search after the run is shaped.
pub(super) struct Tune {
    pub(super) budget_ms: u64,
    pub(super) configs: usize,
    /// `--toolchains LIST`; `None`: [`litmus_hw::toolchains_to_search`].
    pub(super) toolchains: Option<Vec<Option<String>>>,
    /// `--tuning FILE` beside `--tune`: where the search writes, which
    /// need not exist yet (without `--tune` it is `run`'s file to read).
    pub(super) path: Option<PathBuf>,
}

/// The share of the budget a cold test gets (see [`Step::Cold`]).
const COLD_SHARE: u64 = 8;

/// Searches the tests of `files` that ran (`observed`, by index) and whose
/// weak outcome did not show, step by step up the order of variants (see
/// [`SearchPlan`]), writes the winners to the tuning file, and counts what
/// the search showed into `tally`: weak outcomes the run missed, and
/// outcomes the model forbids (the test fails). `Err`: the tuning file
/// could not be read or written.
pub(super) fn search_missed(
    files: &[String],
    observed: &[Option<Observed>],
    t: &Tune,
    opts: &Options,
    tally: &mut Tally,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), String> {
    tally.seen_in_search = Some(0);
    let missed = observed.iter().flatten().filter(|o| !o.seen).count();
    if missed == 0 {
        let _ = writeln!(
            out,
            "search: nothing to search, the run showed the weak outcome of every test it ran"
        );
        return Ok(());
    }
    let (mut plan, read_tests) = plan(files, observed);
    let cold_ms = (t.budget_ms / COLD_SHARE).max(1);
    let _ = writeln!(
        out,
        "search: {missed} tests whose weak outcome the run did not show, climbing from what showed: first those whose every weaker variant (same relaxation, fewer or weaker fences and semantics) showed its own, {} ms of GPU time each; once, those with no weaker variant or a condition the model forbids, {cold_ms} ms each",
        t.budget_ms,
    );
    let path = t
        .path
        .clone()
        .unwrap_or_else(litmus_tune::tuning::default_path);
    let index: HashMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.as_str(), i))
        .collect();
    let search = Search {
        config: &opts.config,
        base: opts.config.knobs.clone(),
        budget_ms: t.budget_ms,
        configs: t.configs,
        toolchains: t
            .toolchains
            .clone()
            .unwrap_or_else(|| litmus_hw::toolchains_to_search(&opts.config.knobs)),
        shown: Vec::new(),
        outside: Vec::new(),
    };
    let mut learned = Learned::new(&read_tests, observed);
    while let Some(step) = plan.next_step() {
        let (tests, budget_ms, what) = match step {
            Step::Warm(tests) => (tests, t.budget_ms, "every weaker variant showed"),
            Step::Cold(tests) => (tests, cold_ms, "nothing weaker to learn from"),
        };
        let _ = writeln!(
            out,
            "search: {} tests, {what}, {budget_ms} ms each",
            tests.len()
        );
        let step_files: Vec<String> = tests.iter().map(|&i| files[i].clone()).collect();
        let search = Search {
            budget_ms,
            shown: learned.shown.clone(),
            outside: learned.outside(&tests),
            ..search.clone()
        };
        // The tests as the plan read them; one it could not read is read
        // again, so that the search says why.
        let read = |f: &str| match index.get(f).and_then(|&i| read_tests[i].clone()) {
            Some(t) => Ok(t),
            None => super::tune::read(f),
        };
        let searched = tune_set(&step_files, &read, &search, &path, out, err)?;
        for test in &searched.tests {
            let Some(&i) = index.get(test.file.as_str()) else {
                continue;
            };
            if let Some(o) = observed[i] {
                count(test, o, opts, tally, out);
            }
            if test.seen {
                plan.saw(i);
            }
            learned.saw(i, test);
        }
    }
    let left = plan.left();
    if !left.is_empty() {
        let _ = writeln!(
            out,
            "search: {} tests not searched: a weaker variant of each (same relaxation) never showed its weak outcome",
            left.len()
        );
    }
    Ok(())
}

/// What the steps so far tell the next ones: the configurations that
/// showed each kin, for the credit (the next steps' variants are stronger
/// than those shown, and their kin), and how much of each kin shows, for
/// the turns ([`litmus_tune::family::FamilyPlan`]'s `shown` and `outside`).
struct Learned {
    shown: Vec<(litmus_hw::Knobs, Kin)>,
    /// Per test that ran with a condition the model allows, its kin.
    kin: Vec<Option<Kin>>,
    /// Per test: its weak outcome showed, in the run or a step.
    seen: Vec<bool>,
}

impl Learned {
    fn new(read: &[Option<litmus_core::ir::Test>], observed: &[Option<Observed>]) -> Learned {
        let allowed = |o: &Option<Observed>| o.is_some_and(|o| o.allowed);
        Learned {
            shown: Vec::new(),
            kin: read
                .iter()
                .zip(observed)
                .map(|(t, o)| t.as_ref().filter(|_| allowed(o)).map(Kin::of))
                .collect(),
            seen: observed.iter().map(|o| o.is_some_and(|o| o.seen)).collect(),
        }
    }

    /// Every test that ran and is not in `step`, by kin, with whether it
    /// showed.
    fn outside(&self, step: &[usize]) -> Vec<(Kin, bool)> {
        (0..self.kin.len())
            .filter(|i| !step.contains(i))
            .filter_map(|i| self.kin[i].clone().map(|k| (k, self.seen[i])))
            .collect()
    }

    /// Test `i`, searched.
    fn saw(&mut self, i: usize, test: &SearchedTest) {
        self.seen[i] |= test.seen;
        if let Some(k) = &test.shown_by {
            self.shown.push((k.clone(), Kin::of(&test.test)));
        }
    }
}

/// The search's plan, each test that ran read again for its standing (one
/// that cannot be read is cold), and the tests as read, by index of
/// `files`, for the search to take.
fn plan(
    files: &[String],
    observed: &[Option<Observed>],
) -> (SearchPlan, Vec<Option<litmus_core::ir::Test>>) {
    let tests: Vec<Option<litmus_core::ir::Test>> = files
        .iter()
        .zip(observed)
        .map(|(f, o)| o.and_then(|_| load(f).ok()).map(|l| l.test))
        .collect();
    let runs: Vec<_> = observed
        .iter()
        .zip(&tests)
        .map(|(o, t)| (*o, t.as_ref()))
        .collect();
    (SearchPlan::new(&runs), tests)
}

/// Counts one searched test: its weak outcome, if the run missed it and
/// the search showed it, and the outcomes its trials showed that the model
/// forbids, said in a line (the test fails).
fn count(test: &SearchedTest, o: Observed, opts: &Options, tally: &mut Tally, out: &mut dyn Write) {
    tally.gpu += test.gpu;
    if test.seen && o.allowed {
        tally.count_seen_in_search(litmus_gen::naming::family(&test.test.name.text));
    }
    let forbidden = match forbidden_outcomes(
        &test.test,
        &test.outcomes,
        opts.config.model,
        &opts.config.options,
    ) {
        Ok(f) => f,
        Err(why) => {
            let _ = writeln!(
                out,
                "{}",
                litmus_core::printable::escaped_lines(&format!(
                    "{}: the search's outcomes could not be checked: {why}",
                    test.file
                ))
            );
            return;
        }
    };
    if forbidden.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "{}",
        litmus_core::printable::escaped_lines(&format!(
            "{}: FAILED: the search showed {} outcome(s) the model forbids: {}",
            test.file,
            forbidden.len(),
            forbidden.join(" | ")
        ))
    );
    tally.count_forbidden_in_search(o.failed, o.forbidden);
}

#[cfg(test)]
mod tests {
    use super::*;

    const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    #[test]
    fn the_next_steps_learn_what_showed_and_how_much_of_each_kin_shows() {
        let mp = litmus_text::parse(MP).unwrap();
        let read = vec![Some(mp.clone()), Some(mp.clone()), Some(mp.clone()), None];
        // Shown in the run; not shown; a condition the model forbids; did
        // not run.
        let ran = [(true, true), (true, false), (false, false)]
            .map(|(allowed, seen)| {
                let (failed, forbidden) = (false, false);
                Some(Observed {
                    allowed,
                    seen,
                    failed,
                    forbidden,
                })
            })
            .into_iter()
            .chain([None])
            .collect::<Vec<_>>();
        let mut learned = Learned::new(&read, &ran);
        let kin = Kin::of(&mp);
        // Test 1 searched: the others that ran, less the forbidden one.
        assert_eq!(learned.outside(&[1]), vec![(kin.clone(), true)]);
        assert!(learned.shown.is_empty());
        let knobs = litmus_hw::Knobs {
            stride: 7,
            ..Default::default()
        };
        let searched = SearchedTest {
            file: "mp1.litmus".into(),
            test: mp,
            seen: true,
            shown_by: Some(knobs.clone()),
            gpu: std::time::Duration::ZERO,
            outcomes: Default::default(),
        };
        learned.saw(1, &searched);
        assert_eq!(
            learned.outside(&[3]),
            vec![(kin.clone(), true), (kin.clone(), true)]
        );
        assert_eq!(learned.shown, vec![(knobs, kin)]);
    }
}
