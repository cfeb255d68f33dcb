//! `campaign --tune`: the run first, then the family-wide search over the
//! tests whose weak outcome the run did not show.
//!
//! Why this order: the defaults' portfolio shows most of a family in a
//! quarter of a second a test, so a search over every test spends most of
//! its budget finding again what the run shows anyway. Searching only the
//! tests the run missed gives each of them several times the budget for
//! the same GPU time.
//!
//! The tiers and what counts as forbidden: [`litmus_runner::missed`].

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use litmus_runner::campaign::Tally;
use litmus_runner::missed::{forbidden_outcomes, tiers, Observed};

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

/// The share of the budget a test gets whose relaxation-mates all went
/// unseen in the run.
const COLD_SHARE: u64 = 8;

/// Searches the tests of `files` that ran (`observed`, by index) and whose
/// weak outcome did not show, in two tiers (see the module), writes the
/// winners to the tuning file, and counts what the search showed into
/// `tally`: weak outcomes the run missed, and outcomes the model forbids
/// (the test fails). `Err`: the tuning file could not be read or written.
pub(super) fn search_missed(
    files: &[String],
    observed: &[Option<Observed>],
    t: &Tune,
    opts: &Options,
    tally: &mut Tally,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), String> {
    let (warm, cold) = split(files, observed);
    tally.seen_in_search = Some(0);
    if warm.is_empty() && cold.is_empty() {
        let _ = writeln!(
            out,
            "search: nothing to search, the run showed the weak outcome of every test it ran"
        );
        return Ok(());
    }
    let cold_ms = (t.budget_ms / COLD_SHARE).max(1);
    let _ = writeln!(
        out,
        "search: {} tests whose weak outcome the run did not show; {} with a variant of the same relaxation (fences out, accesses relaxed) that showed its own, {} ms of GPU time each; then the other {}, {cold_ms} ms each",
        warm.len() + cold.len(),
        warm.len(),
        t.budget_ms,
        cold.len(),
    );
    let path = t
        .path
        .clone()
        .unwrap_or_else(litmus_tune::tuning::default_path);
    let by_file: HashMap<&str, Observed> = files
        .iter()
        .zip(observed)
        .filter_map(|(f, o)| o.map(|o| (f.as_str(), o)))
        .collect();
    for (tier, budget_ms) in [(warm, t.budget_ms), (cold, cold_ms)] {
        if tier.is_empty() {
            continue;
        }
        let search = Search {
            config: &opts.config,
            base: opts.config.knobs.clone(),
            budget_ms,
            configs: t.configs,
            toolchains: t
                .toolchains
                .clone()
                .unwrap_or_else(|| litmus_hw::toolchains_to_search(&opts.config.knobs)),
        };
        let searched = tune_set(&tier, &search, &path, out, err)?;
        for test in &searched.tests {
            if let Some(o) = by_file.get(test.file.as_str()) {
                count(test, *o, opts, tally, out);
            }
        }
    }
    Ok(())
}

/// The files to search, warm then cold ([`tiers`]), each test read again
/// for its relaxation (one that cannot be read is cold).
fn split(files: &[String], observed: &[Option<Observed>]) -> (Vec<String>, Vec<String>) {
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
    let (warm, cold) = tiers(&runs);
    let named = |ix: Vec<usize>| ix.into_iter().map(|i| files[i].clone()).collect();
    (named(warm), named(cold))
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
                "{}: the search's outcomes could not be checked: {why}",
                test.file
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
