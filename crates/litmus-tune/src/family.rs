//! The family-wide search: the tests given are one problem. A rare weak
//! outcome is found by trying many environments briefly, not a few for
//! long (its rate moves over orders of magnitude between environments),
//! and the variants of a family share their good environments. So:
//!
//! 1. **One pool** of configurations is drawn for the whole set (the base,
//!    anchors and draws from the seed, then the tuning file's winners on
//!    top, [`pool`]): every test
//!    draws from the same pool, so what one variant learns about a
//!    configuration tells the others.
//! 2. **Breadth first, in waves.** Each wave gives every test still
//!    searching a turn of a few short trials (a *slice* of GPU time each)
//!    of the pool configurations it still owes time in this pass that rank
//!    first for it (one that shows the kin later is owed more). The rank is
//!    the configuration's *credit*: the tests it has shown their weak
//!    outcome in, each weighted by how few configurations showed that test
//!    (a configuration that shows a rare variant is worth more than one of
//!    fifty that show MP), what it showed in the test's kin first, and the
//!    compiler the kin showed under next ([`crate::credit`]); what it
//!    showed in the kin also lengthens its slice for the test. A
//!    configuration whose launches outlast their slices is left out
//!    ([`crate::overrun`]). What earlier searches showed may count from
//!    the start ([`FamilyPlan::shown`]). Ties, which is everything at the
//!    start otherwise, go by an order drawn per test, so the tests of a
//!    wave try different configurations and the credit spreads in the
//!    first waves.
//! 3. **The budget flows to the unseen.** The budget is the set's: tests
//!    × the per-test budget. A test whose weak outcome has shown stops
//!    searching after a short refinement (its best configurations again,
//!    twice as long, for the tuning entry's rate), and what it did not
//!    spend stays with the tests still unseen, more of it with the kin
//!    that show: a kin's tests take turns in proportion to the share of
//!    the kin that has shown ([`crate::turns`]). A test that has tried the
//!    whole pool starts over with slices twice as long.
//!
//! Why not a bandit per test, or successive halving per test (the older
//! `search`): both spend most of a test's budget on its first few
//! configurations, and with nothing seen there is nothing to halve on;
//! here every unseen test sees the whole pool before any slice grows, and
//! a configuration is promoted by what it showed anywhere in the family.
//! The score of a configuration for a test stays the lower 95% Wilson bound
//! of its weak rate times its instances per second ([`Trial::score`]).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use litmus_core::ir::Test;
use litmus_hw::{GpuError, HwResult, Knobs};

use crate::credit::Credit;
use crate::kin::Kin;
use crate::overrun::Overrun;
use crate::search::Trial;
use crate::target::Target;
use crate::turns::Turns;

mod shared_pool;
mod state;

pub use shared_pool::{pool, pool_for};
use state::State;

/// One test of the set: what runs and what counts as its weak outcome.
pub struct Subject<'a> {
    /// The test.
    pub test: &'a Test,
    /// Its PTX.
    pub ptx: &'a str,
    /// Its weak outcome.
    pub target: Target,
}

/// How a family-wide search is shaped.
#[derive(Clone, Debug)]
pub struct FamilyPlan {
    /// GPU time per test; the set's budget is this times the tests.
    pub budget_ms: u64,
    /// Configurations in the shared pool (the base is one of them).
    pub pool: usize,
    /// GPU time of one trial in the first pass over the pool; doubled on
    /// every later pass.
    pub slice_ms: u64,
    /// Share of its own budget that a test whose weak outcome has shown
    /// may spend on refining its best configurations.
    pub refine_share: f64,
    /// Trials a test runs in a row in each wave: the GPU keeps a test's
    /// module loaded between them (a module compiled again for every
    /// trial of a large set would cost more than the trial).
    pub turn: usize,
    /// Seeds the pool's draws, each test's order and each trial's run.
    pub seed: u64,
    /// Configurations to add to the pool on top of the seed's: the tuning
    /// file's winners (at most a quarter of the pool more, [`pool`]).
    pub starts: Vec<Knobs>,
    /// The compilers the search tries (`None`: the driver's JIT; else a
    /// toolchain spec, [`Knobs::ptxas`]). Empty or one: the base's only.
    /// Several: the base, the anchors and every draw run under each, since
    /// on Hopper which compiler built the module decides whether CTA-scope
    /// fences show their weak outcomes, and in which environments.
    pub toolchains: Vec<Option<String>>,
    /// What earlier searches showed (a campaign's earlier steps up the
    /// order of variants): configurations, each with the kin of a test
    /// whose weak outcome it showed there. Each one in the pool counts in
    /// the credit from the first trial, as a showing by a test outside the
    /// set: the variants a step searches are stronger than those the step
    /// before showed, their kin, and what showed those is where they are
    /// likeliest to show (`docs/tuning-and-campaigns.md`).
    pub shown: Vec<(Knobs, Kin)>,
    /// Tests outside the set (a campaign's run and earlier rounds), each
    /// with its kin and whether its weak outcome showed: with the set's
    /// own, they tell how much of each kin shows, and a kin's tests take
    /// turns in proportion ([`crate::turns`]).
    pub outside: Vec<(Kin, bool)>,
}

impl FamilyPlan {
    /// A plan in which each test can try `pool` configurations within
    /// `budget_ms` in its first pass: the slice is half the budget over
    /// the pool, at least 5 ms. Half, because a trial runs whole launches
    /// and a heavy configuration's launch outlasts a short slice: on an
    /// H100 a first pass planned at the whole budget (31 ms slices at 2 s
    /// and 64 configurations) took 65 ms a trial, and the tests still
    /// unseen tried only 48 to 56 of the 64.
    pub fn within(budget_ms: u64, pool: usize, seed: u64) -> FamilyPlan {
        let pool = pool.max(2);
        FamilyPlan {
            budget_ms,
            pool,
            slice_ms: (budget_ms / (2 * pool as u64)).max(5),
            refine_share: 0.25,
            turn: 8,
            seed,
            starts: Vec::new(),
            toolchains: Vec::new(),
            shown: Vec::new(),
            outside: Vec::new(),
        }
    }

    /// The compilers the pool's configurations are built under: the
    /// plan's [`FamilyPlan::toolchains`], or `base`'s own when it names
    /// none.
    pub fn compilers(&self, base: &Knobs) -> Vec<Option<String>> {
        match self.toolchains.len() {
            0 => vec![base.ptxas.clone()],
            _ => self.toolchains.clone(),
        }
    }
}

/// What the search did for one test.
#[derive(Clone, Debug)]
pub struct Found {
    /// Its best configuration, with what it showed (by [`Trial::score`];
    /// when nothing showed, the fastest).
    pub best: Trial,
    /// What the base configuration (pool index 0, the knobs a run
    /// without tuning uses) showed, if it ran.
    pub base: Option<Trial>,
    /// Distinct configurations tried.
    pub configs: usize,
    /// Trials run (a configuration may run again in a later pass).
    pub trials: usize,
    /// Weak outcomes over all its trials.
    pub weak: u64,
    /// Instances over all its trials.
    pub instances: u64,
    /// GPU time over all its trials.
    pub gpu: Duration,
    /// Every outcome any trial showed, so a caller can hold them against
    /// the model: a search is a run too, and what it shows counts.
    pub outcomes: BTreeSet<Vec<u32>>,
    /// Why the test could not run at all (every trial failed), if so.
    pub error: Option<GpuError>,
}

impl Found {
    /// Whether its weak outcome showed in some trial.
    pub fn seen(&self) -> bool {
        self.weak > 0
    }
}

/// What a wave tells the caller: tests seen so far, tests in the set,
/// GPU time spent and the set's budget.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Waves finished.
    pub wave: usize,
    /// Tests whose weak outcome has shown.
    pub seen: usize,
    /// Tests in the set.
    pub tests: usize,
    /// GPU time spent.
    pub spent: Duration,
    /// The set's GPU budget.
    pub budget: Duration,
    /// Configurations left out for launches that outlast their slices
    /// ([`crate::overrun`]).
    pub dropped: usize,
    /// Configurations in the pool: [`FamilyPlan::pool`] and the starts
    /// on top ([`pool`]).
    pub pool: usize,
}

/// Searches the environment for every test of `subjects` at once (see the
/// module's doc), running each trial through `run`, given the subject's
/// index and the subject (the GPU harness, or a stand-in in tests).
/// `progress` hears after every wave. Returns what was found per test, in
/// the subjects' order.
pub fn search_family(
    subjects: &[Subject],
    base: &Knobs,
    plan: &FamilyPlan,
    run: impl FnMut(usize, &Subject, &Knobs) -> Result<HwResult, GpuError> + Send,
    progress: impl FnMut(&Progress, &[Found]),
) -> Vec<Found> {
    let run = Mutex::new(run);
    search_family_on(
        subjects,
        base,
        plan,
        1,
        |_, t, s, k| (run.lock().unwrap_or_else(|p| p.into_inner()))(t, s, k),
        progress,
    )
}

/// What the lanes of a search share: every test's state, and what the
/// pool's configurations showed.
struct Shared {
    states: Vec<State>,
    /// Tests in which each pool configuration showed the weak outcome.
    shown_by: Vec<BTreeSet<usize>>,
    credit: Credit,
    /// What each configuration cost against what it asked.
    overrun: Overrun,
    spent: Duration,
}

/// [`search_family`] on `lanes` devices at once: each wave hands the tests
/// still searching to the lanes in order, and lane `l` runs a test's turn
/// through `run(l, test, subject, knobs)` (the caller puts each lane on a
/// device of its own, all of one kind). The pool, the credit and the
/// budget are shared: a configuration that shows a variant on one device
/// is promoted for the tests every device runs next. With one lane it is
/// [`search_family`], trial for trial; with more, a turn that starts while
/// another runs does not yet see what that one will show.
pub fn search_family_on(
    subjects: &[Subject],
    base: &Knobs,
    plan: &FamilyPlan,
    lanes: usize,
    run: impl Fn(usize, usize, &Subject, &Knobs) -> Result<HwResult, GpuError> + Sync,
    mut progress: impl FnMut(&Progress, &[Found]),
) -> Vec<Found> {
    let across_gpus = subjects
        .iter()
        .any(|s| litmus_ptx::Layout::of(s.test).is_ok_and(|l| l.multi_gpu()));
    let pool = pool_for(base, plan, across_gpus);
    // The earlier showings whose configuration is in the pool, each as a
    // test after the subjects. A winner an earlier round took on top of
    // its pool may be here as the draw a tuning entry holds as one with
    // it ([`pool`]).
    let earlier: Vec<(usize, &Kin)> = plan
        .shown
        .iter()
        .filter_map(|(k, kin)| {
            pool.iter()
                .position(|p| same_environment(p, k))
                .or_else(|| pool.iter().position(|p| crate::same_entry(p, k)))
                .map(|c| (c, kin))
        })
        .collect();
    let kins: Vec<Kin> = subjects.iter().map(|s| Kin::of(s.test)).collect();
    let (kin, classes) = Kin::classes_of(
        kins.iter()
            .cloned()
            .chain(earlier.iter().map(|(_, k)| (*k).clone())),
    );
    let class_of = |k: &Kin| kins.iter().position(|x| x == k).map(|t| kin[t]);
    let mut turns = Turns::new(
        subjects.len(),
        classes,
        plan.outside.iter().map(|(k, shown)| (class_of(k), *shown)),
    );
    let compiler = crate::credit::compilers(&pool, |spec| litmus_hw::check_ptxas(spec).ok());
    let mut shown_by = vec![BTreeSet::new(); pool.len()];
    for (i, (c, _)) in earlier.iter().enumerate() {
        shown_by[*c].insert(subjects.len() + i);
    }
    let credit = Credit::of(&shown_by, &kin, classes, &compiler);
    let shared = Mutex::new(Shared {
        states: (0..subjects.len())
            .map(|i| State::new(pool.len(), plan.seed ^ mix(i as u64 + 1)))
            .collect(),
        shown_by,
        credit,
        overrun: Overrun::new(pool.len()),
        spent: Duration::ZERO,
    });
    let lock = || shared.lock().unwrap_or_else(|p| p.into_inner());
    let budget = Duration::from_millis(plan.budget_ms) * subjects.len() as u32;
    let refine = Duration::from_millis((plan.budget_ms as f64 * plan.refine_share) as u64);
    let mut wave = 0;
    while lock().spent < budget {
        let ran_any = AtomicBool::new(false);
        let next = AtomicUsize::new(0);
        let takes = {
            let s = lock();
            turns.wave(&kin, |t| s.states[t].weak > 0, |t| !s.states[t].done)
        };
        // One lane: take the wave's tests in order and run their turns.
        let lane = |l: usize| loop {
            let t = next.fetch_add(1, Ordering::SeqCst);
            let Some(subject) = subjects.get(t) else {
                return;
            };
            if !takes[t] {
                continue;
            }
            for _ in 0..plan.turn.max(1) {
                let (c, knobs) = {
                    let mut guard = lock();
                    let s = &mut *guard;
                    if s.spent >= budget || s.states[t].done {
                        break;
                    }
                    let (credit, slices) = (s.credit.for_class(kin[t]), s.credit.slices(kin[t]));
                    let Some((c, ms)) = s.states[t].next(credit, slices, &s.overrun, plan.slice_ms)
                    else {
                        s.states[t].done = true;
                        break;
                    };
                    let runs = s.states[t].runs as u64;
                    let knobs = Knobs {
                        budget_ms: ms,
                        launches: None,
                        seed: plan.seed ^ mix(((t as u64) << 32) ^ (runs << 16) ^ c as u64),
                        ..pool[c].clone()
                    };
                    (c, knobs)
                };
                ran_any.store(true, Ordering::SeqCst);
                let ran = run(l, t, subject, &knobs);
                let mut guard = lock();
                let s = &mut *guard;
                match ran {
                    Ok(r) => {
                        s.spent += r.wall;
                        let asked = Duration::from_millis(knobs.budget_ms);
                        s.overrun.charge(c, asked, r.wall);
                        // A showing changes the credit at once: the next
                        // test already tries the configuration.
                        if s.states[t].record(c, &pool[c], &r, subject) && s.shown_by[c].insert(t) {
                            s.credit = Credit::of(&s.shown_by, &kin, classes, &compiler);
                        }
                    }
                    Err(e) => s.states[t].fail(c, e),
                }
                s.states[t].settle(refine);
            }
        };
        match lanes.min(subjects.len()) {
            0 | 1 => lane(0),
            n => std::thread::scope(|scope| {
                for l in 0..n {
                    let lane = &lane;
                    scope.spawn(move || lane(l));
                }
            }),
        }
        wave += 1;
        let (found, spent, dropped): (Vec<Found>, Duration, usize) = {
            let s = lock();
            let found = s.states.iter().map(State::found).collect();
            (found, s.spent, s.overrun.count())
        };
        progress(
            &Progress {
                wave,
                seen: found.iter().filter(|f| f.seen()).count(),
                tests: subjects.len(),
                spent,
                budget,
                dropped,
                pool: pool.len(),
            },
            &found,
        );
        // A wave in which nothing ran ends the search, unless a test
        // still searching sat it out for its kin's share.
        let waiting = {
            let s = lock();
            (0..subjects.len()).any(|t| !takes[t] && !s.states[t].done)
        };
        if !ran_any.load(Ordering::SeqCst) && !waiting {
            break;
        }
    }
    let found = lock().states.iter().map(State::found).collect();
    found
}

/// Whether two configurations are one environment: the same knobs but
/// for a trial's own (its budget and seed).
fn same_environment(a: &Knobs, b: &Knobs) -> bool {
    let plain = |k: &Knobs| Knobs {
        budget_ms: 0,
        launches: None,
        seed: 0,
        ..k.clone()
    };
    plain(a) == plain(b)
}

/// SplitMix64's finaliser: spreads an index into a seed.
fn mix(x: u64) -> u64 {
    let mut s = x;
    litmus_hw::splitmix(&mut s)
}

#[cfg(test)]
mod tests;
