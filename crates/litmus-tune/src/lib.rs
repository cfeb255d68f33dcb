//! Per-test tuning of the GPU's environment: a search over the knobs the
//! published tuned harnesses search (`shared/reference/tuning.md`), ranked
//! by how fast each configuration shows the test's weak outcome.
//!
//! - [`space`]: the search space and how a configuration is drawn from it;
//! - [`search`]: successive halving over drawn configurations;
//! - [`target`]: which outcomes count as the weak outcome of a test;
//! - [`overrun`]: configurations whose launches outlast their slices;
//! - [`turns`]: how often a kin's tests take a turn, by what it has shown;
//! - [`tuning`]: the tuning file, the winners that every run reads.
//!
//! `gpu-litmus tune` drives it and writes the winners to a tuning file;
//! `LITMUS_TUNE=1` makes `litmus!` tests tune themselves (the runner's
//! `tune_in_place`).

pub mod credit;
mod error;
pub mod family;
pub mod kin;
pub mod overrun;
pub mod prepare;
pub mod search;
pub mod space;
pub mod target;
pub mod tuning;
pub mod turns;

pub use error::{TargetError, TuneError};
pub use search::{tune, Plan, Trial};
pub use target::Target;

use litmus_core::ir::Test;

use crate::tuning::{Entry, TuningFile};
use litmus_hw::Knobs;
use litmus_model::{Model, Options};

/// Winners of the tests tuned before that a search tries first.
pub const STARTS: usize = 4;

/// Tunes `test` (its PTX `ptx`) within `budget_ms` of GPU time over
/// `configs` configurations: `base`, the [`STARTS`] best winners of the
/// tests already `tuned` (its siblings, in a family) on the device kind
/// `kind` the search runs on, and draws around `base`. Returns the tuning
/// entry of the
/// best configuration, and a line that says what it found (the best rate,
/// its knobs, the defaults' rate). When no configuration showed the weak
/// outcome, the entry keeps `base`'s knobs and says so with a zero rate.
pub fn tune_test(
    test: &Test,
    ptx: &str,
    (model, options): (&dyn Model, &Options),
    base: &Knobs,
    budget_ms: u64,
    configs: usize,
    (tuned, kind): (Option<&TuningFile>, &str),
) -> Result<(Entry, String), TuneError> {
    let target = Target::of(test, model, options)?;
    // Each test its own draws, the same for a given seed.
    let mut plan = Plan::within(budget_ms, configs, base.seed ^ fnv(&test.name.text));
    plan.starts = tuned.map_or_else(Vec::new, |file| file.winners(base, STARTS, kind));
    let trials = tune(test, ptx, &target, base, &plan, |_, _| {})?;
    let base_trial = trials.iter().find(|t| same_entry(&t.knobs, base));
    let instances = trials.iter().map(|t| t.instances).sum();
    Ok(entry_of(
        &trials[0],
        base_trial,
        (trials.len(), instances),
        base,
        &target,
    ))
}

/// A search's tuning entry and the line that says what it found: `best`
/// (the best configuration tried), `defaults` (the base's own trial, if it
/// ran), after `configs` configurations ran `instances` instances in all.
/// When nothing showed the weak outcome, the entry keeps `base`'s knobs
/// and says so with a zero rate.
pub fn entry_of(
    best: &Trial,
    defaults: Option<&Trial>,
    (configs, instances): (usize, u64),
    base: &Knobs,
    target: &Target,
) -> (Entry, String) {
    // The kind of GPU, not the one of a node's GPUs that ran the trial:
    // the entry serves every GPU of that kind.
    let kind = litmus_hw::device_kind(&best.device);
    if best.weak == 0 {
        let line = format!(
            "{} never seen in {} configurations ({} instances); the entry keeps the defaults",
            target.describe(),
            configs,
            instances
        );
        return (
            Entry::new(base, kind, &best.build, 0.0, 0, best.instances),
            line,
        );
    }
    let defaults = defaults.map_or("the defaults did not run".to_string(), |d| {
        format!(
            "defaults: {} of {} ({:.3e}/s)",
            d.weak,
            d.instances,
            d.score()
        )
    });
    let line = format!(
        "best {:.3e} weak/s (lower bound; {} of {} in {:.2} s) with {}; {defaults}",
        best.score(),
        best.weak,
        best.instances,
        best.gpu.as_secs_f64(),
        describe(&best.knobs)
    );
    let entry = Entry::new(
        &best.knobs,
        kind,
        &best.build,
        best.score(),
        best.weak,
        best.instances,
    );
    (entry, line)
}

/// Knobs as a tuning entry holds them: the tunable ones off their
/// defaults.
fn describe(k: &Knobs) -> String {
    let entry = Entry::new(k, "", "", 0.0, 0, 0);
    let pairs: Vec<String> = entry
        .off_defaults()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if pairs.is_empty() {
        return "the defaults".into();
    }
    pairs.join(" ")
}

/// Whether a tuning entry holds two knobs as one: the same tunable knobs
/// (seed, budget and the knobs the search does not tune aside).
pub(crate) fn same_entry(a: &Knobs, b: &Knobs) -> bool {
    Entry::new(a, "", "", 0.0, 0, 0).knobs == Entry::new(b, "", "", 0.0, 0, 0).knobs
}

/// FNV-1a: a stable hash of a test's name, so that each test draws its own
/// configurations from one seed.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
