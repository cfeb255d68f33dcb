//! `campaign --tune`: the run first, then the family-wide search over the
//! tests whose weak outcome the run did not show.
//!
//! Why this order: the defaults' portfolio shows most of a family in a
//! quarter of a second a test, so a search over every test spends most of
//! its budget finding again what the run shows anyway. Searching only the
//! tests the run missed gives each of them several times the budget for
//! the same GPU time.
//!
//! Why two tiers: most of a large family's missed tests are ones no
//! harness shows (every thread in one CTA, say), and they would take the
//! budget from the rare ones that do show. A fenced variant's weak outcome
//! is among its relaxation's behaviours ([`litmus_gen::relaxation`]), so a
//! test whose relaxation-mates all went unseen is searched last, at an
//! eighth of the budget, and one with a mate that showed gets the whole
//! budget first.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;

use litmus_core::ir::Test;
use litmus_core::outcome::observables;
use litmus_runner::campaign::Tally;

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

/// What the run showed of one test that ran on the GPU.
#[derive(Clone, Copy, Debug)]
pub(super) struct Observed {
    /// The model allows its condition.
    pub(super) allowed: bool,
    /// Its weak outcome showed.
    pub(super) seen: bool,
    /// It failed.
    pub(super) failed: bool,
    /// An outcome the model forbids showed.
    pub(super) forbidden: bool,
}

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
    let (warm, cold) = tiers(files, observed);
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

/// The tests to search, in the files' order: those with a relaxation-mate
/// whose weak outcome showed (and whose condition the model allows), and
/// the others.
fn tiers(files: &[String], observed: &[Option<Observed>]) -> (Vec<String>, Vec<String>) {
    let key = |f: &str| {
        load(f)
            .ok()
            .map(|l| litmus_gen::relaxation::relaxation_key(&l.test))
    };
    let shown: HashSet<String> = files
        .iter()
        .zip(observed)
        .filter(|(_, o)| o.is_some_and(|o| o.seen && o.allowed))
        .filter_map(|(f, _)| key(f))
        .collect();
    let (mut warm, mut cold) = (Vec::new(), Vec::new());
    for (f, o) in files.iter().zip(observed) {
        let Some(o) = o.filter(|o| !o.seen) else {
            continue;
        };
        match o.allowed && key(f).is_some_and(|k| shown.contains(&k)) {
            true => warm.push(f.clone()),
            false => cold.push(f.clone()),
        }
    }
    (warm, cold)
}

/// Counts one searched test: its weak outcome, if the run missed it and
/// the search showed it, and the outcomes its trials showed that the model
/// forbids, said in a line (the test fails).
fn count(test: &SearchedTest, o: Observed, opts: &Options, tally: &mut Tally, out: &mut dyn Write) {
    tally.gpu += test.gpu;
    if test.seen && o.allowed {
        tally.count_seen_in_search(litmus_gen::naming::family(&test.test.name.text));
    }
    let forbidden = match forbidden(&test.test, &test.outcomes, opts) {
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

/// The outcomes of `seen` that the model forbids for `test`, as a
/// condition writes them (`P1:r0=1; P1:r1=0`).
fn forbidden(
    test: &Test,
    seen: &BTreeSet<Vec<u32>>,
    opts: &Options,
) -> Result<Vec<String>, String> {
    let result = litmus_model::check(test, opts.config.model, &opts.config.options)
        .map_err(|e| e.to_string())?;
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

    fn observed(allowed: bool, seen: bool) -> Option<Observed> {
        Some(Observed {
            allowed,
            seen,
            failed: false,
            forbidden: false,
        })
    }

    /// Writes the tests into a scratch folder and returns their paths.
    fn files(name: &str, texts: &[String]) -> Vec<String> {
        let dir =
            std::env::temp_dir().join(format!("gpu-litmus-tiers-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        texts
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let p = dir.join(format!("{i}.litmus"));
                std::fs::write(&p, t).unwrap();
                p.display().to_string()
            })
            .collect()
    }

    #[test]
    fn a_missed_test_is_warm_when_a_variant_of_its_relaxation_showed() {
        let fenced = MP.replace(
            " st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;",
            " fence.sc.cta | fence.sc.cta ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;",
        );
        let one_cta = MP.replace("P1@cta 1", "P1@cta 0");
        let one_cta_fenced = fenced.replace("P1@cta 1", "P1@cta 0");
        let f = files("warm", &[MP.into(), fenced, one_cta, one_cta_fenced]);
        let (warm, cold) = tiers(
            &f,
            &[
                observed(true, true),
                observed(true, false),
                observed(true, false),
                observed(true, false),
            ],
        );
        assert_eq!(warm, vec![f[1].clone()]);
        assert_eq!(cold, vec![f[2].clone(), f[3].clone()]);
    }

    #[test]
    fn seen_and_not_run_tests_are_not_searched_and_a_forbidden_condition_is_cold() {
        let f = files("skip", &[MP.into(), MP.into(), MP.into()]);
        // The first did not run on the GPU; the second showed; the third's
        // condition is forbidden, so its mate's showing does not warm it.
        let (warm, cold) = tiers(&f, &[None, observed(true, true), observed(false, false)]);
        assert!(warm.is_empty(), "{warm:?}");
        assert_eq!(cold, vec![f[2].clone()]);
    }
}
