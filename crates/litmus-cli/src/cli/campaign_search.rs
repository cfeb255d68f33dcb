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
    };
    // What each step showed, for the credit of the steps after it: their
    // variants are stronger than those it showed, and its kin.
    let mut shown = Vec::new();
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
            shown: shown.clone(),
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
            if let Some(k) = &test.shown_by {
                shown.push((k.clone(), litmus_tune::kin::Kin::of(&test.test)));
            }
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
