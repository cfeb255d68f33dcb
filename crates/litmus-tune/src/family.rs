//! The family-wide search: the tests given are one problem. A rare weak
//! outcome is found by trying many environments briefly, not a few for
//! long (its rate moves over orders of magnitude between environments),
//! and the variants of a family share their good environments. So:
//!
//! 1. **One pool** of configurations is drawn for the whole set (the base,
//!    the tuning file's winners, then draws from the seed): every test
//!    draws from the same pool, so what one variant learns about a
//!    configuration tells the others.
//! 2. **Breadth first, in waves.** Each wave gives every test still
//!    searching a turn of a few short trials (a *slice* of GPU time each)
//!    of the pool configurations it has not tried that rank first for it. The rank is
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
//!    spend stays with the tests still unseen. A test that has tried the
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
use crate::space::draw;
use crate::target::Target;

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
    /// Configurations to put in the pool right after the base: the tuning
    /// file's winners (at most a quarter of the pool).
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
}

/// A test's state during the search.
struct State {
    /// Its trial per pool configuration (`None`: not tried yet).
    trials: Vec<Option<Trial>>,
    /// Pool indices in this test's tie-breaking order.
    order: Vec<usize>,
    /// Passes over the pool finished (the slice is doubled per pass).
    pass: u32,
    /// Pool indices tried in the current pass.
    this_pass: BTreeSet<usize>,
    runs: usize,
    weak: u64,
    instances: u64,
    gpu: Duration,
    /// Every outcome its trials showed.
    outcomes: BTreeSet<Vec<u32>>,
    /// GPU time spent since the weak outcome first showed.
    refining: Duration,
    /// Set when the test is done: seen and refined, or every trial failed.
    done: bool,
    /// Pool indices whose trial failed for this test: not tried again.
    failed: BTreeSet<usize>,
    last_error: Option<GpuError>,
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
    // test after the subjects.
    let earlier: Vec<(usize, &Kin)> = plan
        .shown
        .iter()
        .filter_map(|(k, kin)| {
            pool.iter()
                .position(|p| same_environment(p, k))
                .map(|c| (c, kin))
        })
        .collect();
    let (kin, classes) = Kin::classes_of(
        (subjects.iter().map(|s| Kin::of(s.test))).chain(earlier.iter().map(|(_, k)| (*k).clone())),
    );
    let compiler = crate::credit::compilers(&pool, |spec| litmus_hw::check_ptxas(spec).ok());
    let mut shown_by = vec![BTreeSet::new(); pool.len()];
    for (i, (c, _)) in earlier.iter().enumerate() {
        shown_by[*c].insert(subjects.len() + i);
    }
    let credit = match earlier.is_empty() {
        true => Credit::none(pool.len(), classes),
        false => Credit::of(&shown_by, &kin, classes, &compiler),
    };
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
        // One lane: take the wave's tests in order and run their turns.
        let lane = |l: usize| loop {
            let t = next.fetch_add(1, Ordering::SeqCst);
            let Some(subject) = subjects.get(t) else {
                return;
            };
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
            },
            &found,
        );
        if !ran_any.load(Ordering::SeqCst) {
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

/// The shared pool: the base, the starting points (at most a quarter,
/// none twice), the measured anchors ([`crate::space::anchors`], and
/// [`crate::space::gpu_anchors`] for a family with a test on several
/// GPUs, while the pool has room for draws after them), then draws around
/// the base from the plan's seed; the base, each anchor and each draw under
/// every compiler of the plan ([`FamilyPlan::toolchains`]).
pub fn pool(base: &Knobs, plan: &FamilyPlan) -> Vec<Knobs> {
    pool_for(base, plan, false)
}

/// [`pool`], with the anchors across GPUs when `across_gpus`.
pub fn pool_for(base: &Knobs, plan: &FamilyPlan, across_gpus: bool) -> Vec<Knobs> {
    // Each toolchain's copy of a configuration; the base's own compiler
    // when the plan names none.
    let toolchains: Vec<Option<String>> = match plan.toolchains.len() {
        0 => vec![base.ptxas.clone()],
        _ => plan.toolchains.clone(),
    };
    let under = |k: &Knobs, t: &Option<String>| Knobs {
        ptxas: t.clone(),
        ..k.clone()
    };
    let mut out: Vec<Knobs> = Vec::new();
    let push = |out: &mut Vec<Knobs>, k: Knobs| {
        if !out.contains(&k) {
            out.push(k);
        }
    };
    for t in &toolchains {
        push(&mut out, under(base, t));
    }
    for k in plan.starts.iter() {
        if out.len() > plan.pool / 4 {
            break;
        }
        push(&mut out, k.clone());
    }
    let mut anchors = crate::space::anchors(base);
    if across_gpus {
        anchors.extend(crate::space::gpu_anchors(base));
    }
    'anchors: for k in anchors {
        for t in &toolchains {
            if out.len() >= plan.pool / 2 {
                break 'anchors;
            }
            push(&mut out, under(&k, t));
        }
    }
    // Each drawn environment under every compiler, twins side by side: a
    // CTA-fence variant that shows only in one environment under ptxas 12
    // (and not under the JIT) must find that environment under ptxas, so
    // the draws are not dealt out to the compilers in turn; which twin a
    // test tries first is the credit's (its kin's compiler).
    let mut state = plan.seed;
    let mut tries = 0;
    'draws: while out.len() < plan.pool && tries < plan.pool * 16 {
        let env = draw(&mut state, base);
        for t in &toolchains {
            if out.len() >= plan.pool {
                break 'draws;
            }
            push(&mut out, under(&env, t));
        }
        tries += 1;
    }
    out
}

impl State {
    fn new(pool: usize, seed: u64) -> State {
        // The base first for every test (it is what runs without tuning,
        // and the campaign compares against it), then a shuffled order.
        let mut order: Vec<usize> = (1..pool).collect();
        let mut s = seed;
        for i in (1..order.len()).rev() {
            let j = (litmus_hw::splitmix(&mut s) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        order.insert(0, 0);
        State {
            trials: vec![None; pool],
            order,
            pass: 0,
            this_pass: BTreeSet::new(),
            runs: 0,
            weak: 0,
            instances: 0,
            gpu: Duration::ZERO,
            outcomes: BTreeSet::new(),
            refining: Duration::ZERO,
            done: false,
            failed: BTreeSet::new(),
            last_error: None,
        }
    }

    /// The next trial: the pool configuration and its slice. While unseen:
    /// the untried one (in this pass) of most credit, ties in this test's
    /// order, none that `overrun` left out, for `slices[c]` slices (what it
    /// showed in the kin, [`Credit::slices`]); a finished pass starts the
    /// next with twice the slice. Once seen: its configurations that
    /// showed the weak outcome, best first, at twice the slice they last
    /// ran.
    fn next(
        &mut self,
        credit: &[f64],
        slices: &[f64],
        overrun: &Overrun,
        slice_ms: u64,
    ) -> Option<(usize, u64)> {
        if self.weak > 0 {
            return self.next_refinement(slice_ms);
        }
        let usable: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|c| !self.failed.contains(c) && !overrun.dropped(*c))
            .collect();
        if usable.is_empty() {
            return None;
        }
        if usable.iter().all(|c| self.this_pass.contains(c)) {
            self.pass += 1;
            self.this_pass.clear();
        }
        let c = usable
            .into_iter()
            .filter(|c| !self.this_pass.contains(c))
            .enumerate()
            .max_by(|(ia, a), (ib, b)| credit[*a].total_cmp(&credit[*b]).then(ib.cmp(ia)))
            .map(|(_, c)| c)?;
        self.this_pass.insert(c);
        let slice = (slice_ms << self.pass.min(10)) as f64;
        Some((c, (slice * slices[c]).round() as u64))
    }

    /// A seen test's refinement: its best configuration that showed the
    /// weak outcome, again for twice as long as it has run so far.
    fn next_refinement(&self, slice_ms: u64) -> Option<(usize, u64)> {
        let (c, t) = self
            .trials
            .iter()
            .enumerate()
            .filter_map(|(c, t)| t.as_ref().filter(|t| t.weak > 0).map(|t| (c, t)))
            .max_by(|a, b| a.1.score().total_cmp(&b.1.score()))?;
        let ms = (t.gpu.as_millis() as u64).max(slice_ms) * 2;
        Some((c, ms))
    }

    /// Adds a run's counts; says whether the run showed the weak outcome.
    fn record(&mut self, c: usize, knobs: &Knobs, r: &HwResult, subject: &Subject) -> bool {
        let was_seen = self.weak > 0;
        let trial = self.trials[c].get_or_insert_with(|| Trial {
            knobs: knobs.clone(),
            weak: 0,
            instances: 0,
            gpu: Duration::ZERO,
            device: String::new(),
            build: String::new(),
        });
        let weak: u64 = r
            .histogram
            .iter()
            .filter(|(v, _)| subject.target.hits(subject.test, v))
            .map(|(_, n)| n)
            .sum();
        trial.weak += weak;
        trial.instances += r.instances;
        trial.gpu += r.wall;
        trial.device.clone_from(&r.device);
        trial.build = r.build.to_string();
        self.runs += 1;
        self.weak += weak;
        self.instances += r.instances;
        self.outcomes.extend(
            r.histogram
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(v, _)| v.clone()),
        );
        self.gpu += r.wall;
        if was_seen {
            self.refining += r.wall;
        }
        weak > 0
    }

    /// A failed trial: the configuration does not fit the test (or the
    /// GPU faulted in it); it is not tried again for this test.
    fn fail(&mut self, c: usize, e: GpuError) {
        self.failed.insert(c);
        self.runs += 1;
        self.last_error = Some(e);
    }

    /// Marks the test done when it is seen and refined.
    fn settle(&mut self, refine: Duration) {
        if self.weak > 0 && self.refining >= refine {
            self.done = true;
        }
    }

    fn found(&self) -> Found {
        let ran: Vec<&Trial> = self.trials.iter().flatten().collect();
        let best = ran
            .iter()
            .max_by(|a, b| {
                a.score()
                    .total_cmp(&b.score())
                    .then(a.weak.cmp(&b.weak))
                    .then(a.rate().total_cmp(&b.rate()))
            })
            .map(|t| (*t).clone());
        Found {
            best: best.unwrap_or_else(|| Trial {
                knobs: Knobs::default(),
                weak: 0,
                instances: 0,
                gpu: Duration::ZERO,
                device: String::new(),
                build: String::new(),
            }),
            base: self.trials[0].clone(),
            configs: ran.len(),
            trials: self.runs,
            weak: self.weak,
            instances: self.instances,
            gpu: self.gpu,
            outcomes: self.outcomes.clone(),
            error: if ran.is_empty() {
                self.last_error.clone()
            } else {
                None
            },
        }
    }
}

/// SplitMix64's finaliser: spreads an index into a seed.
fn mix(x: u64) -> u64 {
    let mut s = x;
    litmus_hw::splitmix(&mut s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use litmus_core::outcome::observables;

    const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    /// A stand-in GPU: test `t` under pool configuration `c` shows its
    /// weak outcome in `rate(t, c)` of its instances, a million instances
    /// per millisecond of budget; it records every (test, config) run.
    struct FakeGpu<'a> {
        pool: Vec<Knobs>,
        rate: &'a (dyn Fn(usize, usize) -> f64 + Sync),
        runs: Vec<(usize, usize, u64)>,
    }

    impl<'a> FakeGpu<'a> {
        fn new(pool: Vec<Knobs>, rate: &'a (dyn Fn(usize, usize) -> f64 + Sync)) -> Self {
            FakeGpu {
                pool,
                rate,
                runs: Vec::new(),
            }
        }

        fn run(&mut self, t: usize, k: &Knobs) -> Result<HwResult, GpuError> {
            let plain = Knobs {
                budget_ms: self.pool[0].budget_ms,
                launches: self.pool[0].launches,
                seed: self.pool[0].seed,
                ..k.clone()
            };
            let c = self
                .pool
                .iter()
                .position(|p| *p == plain)
                .expect("a trial runs a pool configuration");
            self.runs.push((t, c, k.budget_ms));
            let instances = k.budget_ms * 1_000_000;
            let weak = ((self.rate)(t, c) * instances as f64) as u64;
            Ok(HwResult {
                histogram: vec![(vec![1, 0], weak), (vec![1, 1], instances - weak)],
                unfinished: 0,
                launches: k.budget_ms,
                instances,
                wall: Duration::from_millis(k.budget_ms),
                device: "fake".into(),
                knobs: k.clone(),
                host_threads: 0,
                build: Default::default(),
            })
        }
    }

    fn tests(n: usize) -> Vec<Test> {
        (0..n)
            .map(|i| {
                let mut t = litmus_text::parse(MP).unwrap();
                t.name.text = format!("mp{i}");
                t
            })
            .collect()
    }

    fn subjects(tests: &[Test]) -> Vec<Subject<'_>> {
        tests
            .iter()
            .map(|t| Subject {
                test: t,
                ptx: "",
                target: Target::Condition(observables(t)),
            })
            .collect()
    }

    fn search(
        n: usize,
        plan: &FamilyPlan,
        rate: &(dyn Fn(usize, usize) -> f64 + Sync),
    ) -> (Vec<Found>, Vec<(usize, usize, u64)>) {
        let tests = tests(n);
        let subjects = subjects(&tests);
        let base = Knobs::default();
        let mut gpu = FakeGpu::new(pool(&base, plan), rate);
        let found = search_family(&subjects, &base, plan, |t, _, k| gpu.run(t, k), |_, _| {});
        (found, gpu.runs)
    }

    #[test]
    fn the_pool_holds_the_measured_anchors_right_after_the_base() {
        let base = Knobs::default();
        let pool = pool(&base, &FamilyPlan::within(640, 64, 3));
        assert_eq!(pool.len(), 64);
        assert_eq!(pool[0], base);
        assert_eq!(&pool[1..4], &crate::space::anchors(&base)[..]);
        // A family across GPUs gets the anchors measured there too.
        let across = pool_for(&base, &FamilyPlan::within(640, 64, 3), true);
        assert_eq!(&across[4..9], &crate::space::gpu_anchors(&base)[..]);
        assert!(!pool.contains(&crate::space::gpu_anchors(&base)[0]));
        assert_eq!((pool[1].ctas_per_sm, pool[2].env.interleave_pct), (1, 100));
        // A pool too small for draws after them keeps the anchors out.
        let small = pool_of(&base, 2);
        assert_eq!(small.len(), 2);
        assert!(!small.contains(&crate::space::anchors(&base)[1]));
    }

    #[test]
    fn a_pool_over_two_compilers_runs_the_base_and_anchors_under_each() {
        let base = Knobs::default();
        let t = Some("ptxas-12.4".to_string());
        let mut plan = FamilyPlan::within(100, 16, 1);
        plan.toolchains = vec![None, t.clone()];
        let pool = pool(&base, &plan);
        assert_eq!(pool.len(), 16);
        assert_eq!(
            (pool[0].ptxas.clone(), pool[1].ptxas.clone()),
            (None, t.clone())
        );
        assert_eq!(
            Knobs {
                ptxas: None,
                ..pool[1].clone()
            },
            pool[0]
        );
        let anchor = &crate::space::anchors(&base)[0];
        for under in [None, t.clone()] {
            let k = Knobs {
                ptxas: under,
                ..anchor.clone()
            };
            assert!(pool.contains(&k), "{k}");
        }
        // Every drawn environment runs under both compilers, twins side
        // by side.
        let drawn = &pool[8..];
        assert_eq!(drawn.len(), 8);
        for twins in drawn.chunks(2) {
            assert_eq!((&twins[0].ptxas, &twins[1].ptxas), (&None, &t));
            assert_eq!(
                Knobs {
                    ptxas: None,
                    ..twins[1].clone()
                },
                twins[0]
            );
        }
        // The environments drawn are those a pool of one compiler draws.
        plan.toolchains = vec![t.clone()];
        let alone = pool_for(&base, &plan, false);
        let envs = |p: &[Knobs]| -> Vec<Knobs> {
            p.iter()
                .map(|k| Knobs {
                    ptxas: None,
                    ..k.clone()
                })
                .collect()
        };
        let twin_envs: Vec<Knobs> = envs(drawn).into_iter().step_by(2).collect();
        // (that pool: the base and three anchors, then its draws)
        assert_eq!(twin_envs, envs(&alone[4..8]));
        // One compiler (or none named): the pool is what it was.
        plan.toolchains = vec![None];
        let one = pool_for(&base, &plan, false);
        plan.toolchains.clear();
        assert_eq!(one, pool_for(&base, &plan, false));
    }

    fn pool_of(base: &Knobs, n: usize) -> Vec<Knobs> {
        pool(base, &FamilyPlan::within(100, n, 1))
    }

    #[test]
    fn an_unseen_test_tries_the_whole_pool_before_any_slice_grows() {
        let plan = FamilyPlan::within(1280, 64, 3);
        assert_eq!(plan.slice_ms, 10);
        let (found, runs) = search(3, &plan, &|_, _| 0.0);
        for (t, f) in found.iter().enumerate() {
            assert!(!f.seen());
            assert_eq!(f.configs, 64, "test {t} tried {} configurations", f.configs);
            let mine: Vec<_> = runs.iter().filter(|r| r.0 == t).collect();
            // The first pass, half the budget at the first slice: every
            // configuration once. The rest goes round again, twice as long.
            let (first, rest) = mine.split_at(64);
            assert!(first.iter().all(|r| r.2 == 10), "first pass, first slice");
            let distinct: BTreeSet<usize> = first.iter().map(|r| r.1).collect();
            assert_eq!(distinct.len(), 64);
            assert!(
                !rest.is_empty() && rest.iter().all(|r| r.2 == 20),
                "second pass"
            );
            // The base first: what runs untuned is always measured.
            assert_eq!(mine[0].1, 0);
        }
        // The tests do not walk the pool in one order: the credit spreads.
        let second: BTreeSet<usize> = (0..3)
            .map(|t| runs.iter().filter(|r| r.0 == t).nth(1).unwrap().1)
            .collect();
        assert!(second.len() > 1, "{second:?}");
    }

    #[test]
    fn a_configuration_that_showed_one_variant_is_tried_next_on_the_others() {
        // Only configuration 40 shows anything, in every test.
        let plan = FamilyPlan::within(10 * 64, 64, 5);
        let (found, runs) = search(8, &plan, &|_, c| if c == 40 { 1e-3 } else { 0.0 });
        assert!(found.iter().all(Found::seen));
        let first_hit = runs.iter().position(|r| r.1 == 40).unwrap();
        let hitter = runs[first_hit].0;
        // After the first hit, every other test's next trial is 40.
        for t in (0..8).filter(|t| *t != hitter) {
            let next = runs[first_hit + 1..].iter().find(|r| r.0 == t).unwrap();
            assert_eq!(next.1, 40, "test {t}");
        }
        // The winner is the tuning entry.
        assert!(found
            .iter()
            .all(|f| f.best.weak > 0
                && f.best.knobs.stride == pool(&Knobs::default(), &plan)[40].stride));
    }

    #[test]
    fn what_showed_a_tests_kin_runs_longer_for_it() {
        let plan = FamilyPlan::within(800, 16, 7);
        let slice = plan.slice_ms;
        // Test 0 shows at once under configuration 9; its kin, tests 1..4,
        // there too, but a hundred thousand times more rarely: never in
        // one slice, a few times in eight.
        let k = 9;
        let (found, runs) = search(4, &plan, &|t, c| match (t, c) {
            (0, 9) => 1e-3,
            (_, 9) => 1e-8,
            _ => 0.0,
        });
        assert!(found.iter().all(Found::seen));
        let shown = runs.iter().position(|r| r.0 == 0 && r.1 == k).unwrap();
        let after: Vec<u64> = runs[shown + 1..]
            .iter()
            .filter(|r| r.0 != 0 && r.1 == k)
            .map(|r| r.2)
            .collect();
        assert!(!after.is_empty());
        let deeper = (slice as f64 * (1.0 + crate::credit::DEEPER)) as u64;
        assert!(
            after.iter().all(|&ms| ms >= deeper),
            "{after:?} at {slice} ms a slice"
        );
    }

    #[test]
    fn what_an_earlier_step_showed_in_the_kin_is_tried_first_and_longer() {
        let plan = FamilyPlan::within(800, 16, 7);
        let tests = tests(1);
        let subjects = subjects(&tests);
        let base = Knobs::default();
        let pool = pool(&base, &plan);
        // The test shows only under configuration 12.
        let k = 12;
        let rate = |_: usize, c: usize| if c == k { 1e-3 } else { 0.0 };
        let run_with = |plan: &FamilyPlan| {
            let mut gpu = FakeGpu::new(pool.clone(), &rate);
            let found = search_family(&subjects, &base, plan, |t, _, k| gpu.run(t, k), |_, _| {});
            assert!(found[0].seen());
            gpu.runs
        };
        let alone = run_with(&plan);
        let shown = alone.iter().position(|r| r.1 == k).unwrap();
        assert!(
            shown > 1,
            "the test's own order reaches {k} late: {alone:?}"
        );
        // An earlier step showed a test of its kin under configuration 12
        // (as that trial ran it: its own seed and budget); one showed
        // another under a configuration not in this pool.
        let mut earlier = plan.clone();
        earlier.shown = vec![
            (
                Knobs {
                    seed: 99,
                    budget_ms: 3,
                    ..pool[k].clone()
                },
                Kin::of(&tests[0]),
            ),
            (
                Knobs {
                    stride: 999,
                    ..base.clone()
                },
                Kin::of(&tests[0]),
            ),
        ];
        let runs = run_with(&earlier);
        // Configuration 12 first (credit outranks the order, the base's
        // place in it too), for the slices of the kin's best.
        assert_eq!(runs[0].1, k, "{runs:?}");
        let deeper = (plan.slice_ms as f64 * (1.0 + crate::credit::DEEPER)) as u64;
        assert!(runs[0].2 >= deeper, "{runs:?}");
    }

    #[test]
    fn a_test_tries_what_showed_its_kin_then_its_kins_compiler_before_the_rest() {
        // Tests 0..3 are MP; 3..6 MP with CTA-scope fences, a kin apart.
        let fenced = MP.replace(
            " st.weak y, 1 | ld.weak r1, x ;",
            " fence.acq_rel.cta | fence.acq_rel.cta ;\n st.weak y, 1 | ld.weak r1, x ;",
        );
        let mut tests = tests(3);
        tests.extend((3..6).map(|i| {
            let mut t = litmus_text::parse(&fenced).unwrap();
            t.name.text = format!("mp-fenced{i}");
            t
        }));
        let subjects = subjects(&tests);
        let base = Knobs::default();
        let mut plan = FamilyPlan::within(800, 16, 7);
        let ptxas = Some("ptxas-12.4".to_string());
        plan.toolchains = vec![None, ptxas.clone()];
        let pool = pool(&base, &plan);
        let under = |c: usize| pool[c].ptxas == ptxas;
        let jit: Vec<usize> = (2..16).filter(|c| !under(*c)).collect();
        let compiled: Vec<usize> = (2..16).filter(|c| under(*c)).collect();
        // The MP tests show under two JIT configurations (so those have
        // the most credit anywhere); fenced 3 and 4 only under ptxas
        // configuration x, fenced 5 only under ptxas configuration y.
        let (j1, j2) = (jit[2], jit[4]);
        let (x, y) = (compiled[compiled.len() - 1], compiled[compiled.len() - 2]);
        let rate = |t: usize, c: usize| match t {
            0..3 if c == j1 || c == j2 => 1e-3,
            3 | 4 if c == x => 1e-3,
            5 if c == y => 1e-3,
            _ => 0.0,
        };
        let mut gpu = FakeGpu::new(pool.clone(), &rate);
        let found = search_family(&subjects, &base, &plan, |t, _, k| gpu.run(t, k), |_, _| {});
        assert!(found.iter().all(Found::seen));
        let runs = gpu.runs;
        let first_kin_hit = runs
            .iter()
            .position(|r| (3..5).contains(&r.0) && r.1 == x)
            .unwrap();
        let hitter = runs[first_kin_hit].0;
        let y_hit = runs.iter().position(|r| r.0 == 5 && r.1 == y).unwrap();
        assert!(y_hit > first_kin_hit, "fenced 5 showed before its kin did");
        // The other fenced test that shows at x tries x next, though two
        // JIT configurations have shown more tests.
        let other = 7 - hitter;
        if let Some(next) = runs[first_kin_hit + 1..].iter().find(|r| r.0 == other) {
            assert!(
                next.1 == x
                    || runs[..first_kin_hit]
                        .iter()
                        .any(|r| r.0 == other && r.1 == x),
                "fenced {other} tried {} after its kin showed at {x}",
                next.1
            );
        }
        // Fenced 5 tries x, then configurations under its kin's compiler,
        // until it finds y: no JIT configuration in between.
        let between: Vec<usize> = runs[first_kin_hit + 1..y_hit]
            .iter()
            .filter(|r| r.0 == 5)
            .map(|r| r.1)
            .collect();
        assert!(
            between.iter().all(|&c| under(c)),
            "fenced 5 tried {between:?} (JIT: {jit:?}) before {y}"
        );
    }

    #[test]
    fn lanes_share_the_pool_and_the_budget_and_every_test_is_searched() {
        let tests = tests(9);
        let subjects = subjects(&tests);
        let base = Knobs::default();
        let plan = FamilyPlan::within(400, 16, 5);
        let pool = pool(&base, &plan);
        // Configuration 5 alone shows every test's weak outcome.
        let rate = |_: usize, c: usize| if c == 5 { 1e-3 } else { 0.0 };
        let gpu = Mutex::new(FakeGpu::new(pool.clone(), &rate));
        let lanes_used = Mutex::new(BTreeSet::new());
        let found = search_family_on(
            &subjects,
            &base,
            &plan,
            3,
            |l, t, _, k| {
                lanes_used.lock().unwrap().insert(l);
                std::thread::sleep(Duration::from_millis(1));
                gpu.lock().unwrap().run(t, k)
            },
            |_, _| {},
        );
        assert_eq!(*lanes_used.lock().unwrap(), BTreeSet::from([0, 1, 2]));
        assert_eq!(found.len(), 9);
        assert!(found.iter().all(Found::seen), "every test found config 5");
        let runs = &gpu.lock().unwrap().runs;
        let spent: u64 = runs.iter().map(|(_, _, ms)| ms).sum();
        // The budget is the set's; a trial already under way may finish.
        assert!(spent <= 400 * 9 + 3 * 400, "{spent} ms");
        // The credit is shared: once one test showed configuration 5, the
        // tests after it try it before the whole pool.
        let tried: Vec<usize> = (0..9)
            .map(|t| runs.iter().filter(|(x, _, _)| *x == t).count())
            .collect();
        assert!(tried.iter().skip(3).any(|&n| n < pool.len()), "{tried:?}");
    }

    #[test]
    fn the_budget_flows_to_the_tests_still_unseen() {
        // Tests 0..7 show under the base at once; test 7 only under the
        // pool's last configuration, which its own budget (40 slices)
        // would never reach, but the set's budget does.
        let plan = FamilyPlan::within(200, 64, 11);
        assert_eq!(plan.slice_ms, 5);
        let last = 63;
        let (found, runs) = search(8, &plan, &|t, c| match (t, c) {
            (7, c) if c == last => 1e-4,
            (7, _) => 0.0,
            (_, 0) => 1e-2,
            _ => 0.0,
        });
        assert!(
            found.iter().all(Found::seen),
            "{:?}",
            found.iter().map(Found::seen).collect::<Vec<_>>()
        );
        let spent7: u64 = runs.iter().filter(|r| r.0 == 7).map(|r| r.2).sum();
        assert!(
            spent7 > 200,
            "test 7 spent {spent7} ms, more than its own 200"
        );
        // Seen tests stopped after their refinement: a quarter of their
        // budget, give or take one doubled trial.
        for t in 0..7 {
            let spent: u64 = runs.iter().filter(|r| r.0 == t).map(|r| r.2).sum();
            assert!(spent <= 5 + 50 + 80, "test {t} spent {spent}");
        }
        let total: u64 = runs.iter().map(|r| r.2).sum();
        assert!(total <= 8 * 200 + 640, "{total}");
    }

    #[test]
    fn a_configuration_whose_launches_outlast_its_slices_is_left_out_after_a_few_trials() {
        let tests = tests(6);
        let subjects = subjects(&tests);
        let base = Knobs::default();
        let plan = FamilyPlan::within(1000, 16, 5);
        let pool = pool(&base, &plan);
        // Nothing shows, so every test walks the whole pool; every trial
        // of configuration 3 takes twenty times the GPU time it asked for
        // (one launch outlasting the slice), six of them the set's budget.
        let slow = 3;
        let mut gpu = FakeGpu::new(pool.clone(), &|_, _| 0.0);
        let mut dropped = Vec::new();
        search_family(
            &subjects,
            &base,
            &plan,
            |t, _, k| {
                let mut r = gpu.run(t, k)?;
                if gpu.runs.last().is_some_and(|run| run.1 == slow) {
                    r.wall *= 20;
                }
                Ok(r)
            },
            |p, _| dropped.push(p.dropped),
        );
        let slow_trials = gpu.runs.iter().filter(|r| r.1 == slow).count();
        assert_eq!(slow_trials, crate::overrun::TRIALS as usize);
        assert_eq!(dropped.last(), Some(&1));
        // The time it did not take went to the others: every test tried
        // the rest of the pool.
        for t in 0..6 {
            let tried: BTreeSet<usize> =
                gpu.runs.iter().filter(|r| r.0 == t).map(|r| r.1).collect();
            let rest = (0..pool.len()).filter(|&c| c != slow);
            assert!(
                rest.into_iter().all(|c| tried.contains(&c)),
                "test {t} tried {tried:?}"
            );
        }
    }

    #[test]
    fn a_configuration_that_fails_is_not_tried_again_and_a_test_that_never_runs_says_why() {
        let tests = tests(2);
        let subjects = subjects(&tests);
        let base = Knobs::default();
        let plan = FamilyPlan::within(100, 8, 1);
        let mut calls = Vec::new();
        let found = search_family(
            &subjects,
            &base,
            &plan,
            |_, s, k| {
                calls.push((s.test.name.text.clone(), k.to_string()));
                Err(GpuError::Worker(format!("no {}", s.test.name)))
            },
            |_, _| {},
        );
        // Each test tried each configuration once, then stopped.
        assert_eq!(calls.len(), 16);
        let distinct: BTreeSet<_> = calls.iter().collect();
        assert_eq!(distinct.len(), 16);
        for f in &found {
            assert!(!f.seen());
            assert!(matches!(&f.error, Some(GpuError::Worker(m)) if m.starts_with("no mp")));
        }
    }

    #[test]
    fn the_pool_holds_the_base_then_the_winners_then_distinct_draws() {
        let base = Knobs::default();
        let w = Knobs {
            stride: 16,
            ..Knobs::default()
        };
        let mut plan = FamilyPlan::within(1000, 16, 9);
        plan.starts = vec![w.clone(), base.clone(), w.clone()];
        let p = pool(&base, &plan);
        assert_eq!(p.len(), 16);
        assert_eq!((&p[0], &p[1]), (&base, &w));
        let distinct: BTreeSet<String> = p.iter().map(|k| k.to_string()).collect();
        assert_eq!(distinct.len(), 16);
        // The same seed draws the same pool.
        assert_eq!(pool(&base, &plan), p);
    }
}
