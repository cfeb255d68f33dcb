//! The search over candidate executions, with early pruning.
//!
//! Choices are made in this order: one control path per thread, then rf
//! read by read (thread and program order), then barrier synchronisation,
//! then the Fence-SC order pair by pair, then coherence: the initial write
//! first plus the edges the model implies (PTX: cause between writes), then
//! one orientation per pair that must be ordered and is not yet.
//!
//! After every choice the partial execution is checked: read values that
//! are already known must agree with the branch outcomes of the chosen
//! paths, and the model's axioms must not already fail. Every axiom of the
//! shipped models is monotone (more rf, co or Fence-SC edges only add
//! cycles), so a partial execution that fails cannot be repaired and its
//! whole subtree is skipped: the cost follows the consistent executions,
//! not the product of all choices.
//!
//! By default the search follows outcomes, not executions: rf (with the
//! paths and barriers, everything that decides the registers) is
//! enumerated in full, but the Fence-SC and coherence choices only look for
//! one consistent completion per outcome. Before branching on coherence the
//! model's [`Model::forced_co`] adds the orientations the rest already
//! forces, one completion is tried at once, and a subtree is skipped once every
//! outcome it could still produce (registers known, each observed
//! location's value among its writes with no co-successor yet) has been
//! found. [`Options::all_executions`] turns this off and enumerates every
//! consistent execution, with the counts that go with them.
//!
//! Coherence stays partial where the model says so: a pair that is neither
//! morally strong nor implied stays unordered, and co is kept transitively
//! closed, so adding an orientation to an unordered pair can never close a
//! cycle.

use std::collections::BTreeSet;

use litmus_core::instr::BranchCond;
use litmus_core::ir::Test;

use crate::barrier::{sync_options, BarrierStatics};
use crate::budget::{Budget, BudgetExceeded, Options, TooLarge};
use crate::events::{
    eval, sym_reads, thread_paths, EventId, EventKind, PathError, Structure, SymId,
};
use crate::model::{CoherenceOrder, Execution, FenceOrder, Model, Stage, Violation};
use crate::outcome::{Observable, Outcome};
use crate::relation::Relation;

/// What the search reports for each complete candidate it reaches.
pub(crate) struct Leaf<'a, 's> {
    pub x: &'a Execution<'s>,
    /// Values of events (reads: value read; writes: value written).
    pub values: &'a [u32],
    pub verdict: Result<(), Violation>,
    pub outcomes: Vec<Outcome>,
}

/// Search statistics.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counts {
    pub candidates: u64,
    pub consistent: u64,
    pub bounded: bool,
}

/// Why the search stopped early.
#[derive(Debug)]
pub(crate) enum SearchError {
    Paths(PathError),
    Budget(BudgetExceeded),
    TooLarge(TooLarge),
}

pub(crate) struct Search<'t, 'f> {
    test: &'t Test,
    model: &'t dyn Model,
    observables: &'t [Observable],
    /// Prune on axioms (checking); off when explaining, which needs every
    /// complete candidate and the axiom that rejects it.
    prune: bool,
    /// Stop at one consistent completion per outcome (pruning only).
    outcomes_only: bool,
    /// The outcomes of the consistent executions found so far (pruning
    /// only).
    pub found: BTreeSet<Outcome>,
    budget: Budget,
    pub counts: Counts,
    barriers: BarrierStatics,
    on_leaf: &'f mut dyn FnMut(Leaf),
    /// Which outcomes of a consistent leaf count as found; all of them
    /// unless set ([`Search::settle_with`]).
    settle: Option<Settle<'f>>,
}

/// Decides which outcomes of a consistent complete candidate count as
/// found, so that the search skips what can only produce them again:
/// several models judged over one search (`cat::batch`) settle an outcome
/// only once every model has found it.
pub(crate) type Settle<'f> = &'f mut dyn FnMut(&Execution, &[Outcome]) -> Vec<Outcome>;

struct Ctx<'s> {
    s: &'s Structure,
    rf_src: Vec<Option<EventId>>,
    rf: Relation,
    /// Coherence known before any coherence choice: the initial writes
    /// first and, searching for outcomes, what the rf chosen so far forces
    /// (more rf only forces more).
    co: Relation,
    fence: FenceOrder,
    /// Barrier synchronisation chosen before rf, when no barrier id or
    /// quorum depends on a read.
    bar: Option<Relation>,
}

impl<'t, 'f> Search<'t, 'f> {
    pub fn new(
        test: &'t Test,
        model: &'t dyn Model,
        opts: &Options,
        observables: &'t [Observable],
        prune: bool,
        on_leaf: &'f mut dyn FnMut(Leaf),
    ) -> Self {
        Search {
            test,
            model,
            observables,
            prune,
            outcomes_only: prune && !opts.all_executions,
            found: BTreeSet::new(),
            budget: Budget::new(opts),
            counts: Counts::default(),
            barriers: BarrierStatics::new(test),
            on_leaf,
            settle: None,
        }
    }

    /// Lets `settle` decide which outcomes of each consistent leaf count as
    /// found (see [`Settle`]).
    pub fn settle_with(&mut self, settle: Settle<'f>) {
        self.settle = Some(settle);
    }

    /// Keeps executions whose barriers do not all complete (see
    /// [`BarrierStatics::blocking`]), for the termination check.
    pub fn allow_blocked_barriers(&mut self) {
        self.barriers.blocking = true;
    }

    pub fn run(&mut self, opts: &Options) -> Result<(), SearchError> {
        let m = self.model;
        if let Some(e) =
            crate::proxy::unsupported(self.test, m.name(), m.proxies(), m.async_proxy())
        {
            return Err(SearchError::Paths(e));
        }
        // Every location has an initial write: refused before a path is
        // unrolled or a relation allocated.
        TooLarge::check("locations", self.test.locations.len(), opts.max_events)
            .map_err(SearchError::TooLarge)?;
        let mut per_thread = Vec::new();
        for t in 0..self.test.threads.len() {
            let p = thread_paths(self.test, t, opts.loop_bound.max(1), opts.max_paths)
                .map_err(SearchError::Paths)?;
            self.counts.bounded |= p.cut;
            per_thread.push(p.paths);
        }
        if per_thread.iter().any(Vec::is_empty) {
            return Ok(());
        }
        let longest: usize = per_thread
            .iter()
            .map(|ps| ps.iter().map(|p| p.events.len()).max().unwrap_or(0))
            .sum();
        TooLarge::check(
            "events",
            self.test.locations.len() + longest,
            opts.max_events,
        )
        .map_err(SearchError::TooLarge)?;
        let mut choice = vec![0usize; per_thread.len()];
        loop {
            let paths: Vec<_> = choice
                .iter()
                .enumerate()
                .map(|(t, &i)| &per_thread[t][i])
                .collect();
            let s = Structure::new(self.test, &paths);
            self.structure(&s).map_err(SearchError::Budget)?;
            // Next combination (odometer).
            let mut t = 0;
            loop {
                if t == choice.len() {
                    return Ok(());
                }
                choice[t] += 1;
                if choice[t] < per_thread[t].len() {
                    break;
                }
                choice[t] = 0;
                t += 1;
            }
        }
    }

    fn step(&mut self) -> Result<(), BudgetExceeded> {
        self.budget
            .step(self.counts.candidates, self.counts.consistent)
    }

    fn structure(&mut self, s: &Structure) -> Result<(), BudgetExceeded> {
        let n = s.len();
        let mut co_init = Relation::new(n);
        for ws in &s.writes_by_loc {
            for &w in &ws[1..] {
                co_init.insert(ws[0], w);
            }
        }
        let mut ctx = Ctx {
            s,
            rf_src: vec![None; n],
            rf: Relation::new(n),
            co: co_init,
            fence: self.model.fence_order(s),
            bar: None,
        };
        // Barriers whose ids and quorums are constants synchronise the same
        // way whatever rf is: choose them first, so that their edges prune
        // the rf search too.
        let static_barriers = s.events.iter().all(|e| {
            e.barrier.is_none_or(|b| {
                b.id.iter().chain(&b.quorum).all(|&sym| {
                    let mut reads = Vec::new();
                    sym_reads(&s.syms, sym, &mut reads);
                    reads.is_empty()
                })
            })
        });
        if !static_barriers {
            return self.rf(&mut ctx, 0);
        }
        let mut constant = |id: SymId| eval(&s.syms, id, &mut |_| None).unwrap_or(0);
        for bar in sync_options(s, &self.barriers, &mut constant) {
            ctx.bar = Some(bar);
            self.rf(&mut ctx, 0)?;
        }
        Ok(())
    }

    fn rf(&mut self, ctx: &mut Ctx, k: usize) -> Result<(), BudgetExceeded> {
        let s = ctx.s;
        if k == s.reads.len() {
            return self.barriers(ctx);
        }
        let r = s.reads[k];
        let loc = s.events[r].loc.unwrap_or(0);
        for &w in &s.writes_by_loc[loc] {
            self.step()?;
            ctx.rf_src[r] = Some(w);
            ctx.rf.insert(w, r);
            let (values, _) = values(s, &ctx.rf_src);
            if constraints_hold(s, &values) != Some(false) {
                let (mut pruned, mut forced) = (false, None);
                if self.prune {
                    let fr = ctx.rf.inverse().compose(&ctx.co);
                    let mut x = Execution {
                        s,
                        stage: Stage::Rf,
                        rf: ctx.rf.clone(),
                        co: ctx.co.clone(),
                        fr,
                        sc: ctx.fence.fixed.clone(),
                        bar: ctx.bar.clone().unwrap_or_else(|| Relation::new(s.len())),
                    };
                    pruned = (self.outcomes_only && !self.force_co(&mut x))
                        || self.model.check(&x).is_err();
                    if self.outcomes_only {
                        forced = Some(x.co);
                    }
                }
                if pruned {
                    self.counts.candidates += 1;
                } else {
                    let outer = forced.map(|co| std::mem::replace(&mut ctx.co, co));
                    self.rf(ctx, k + 1)?;
                    if let Some(co) = outer {
                        ctx.co = co;
                    }
                }
            }
            ctx.rf.remove(w, r);
            ctx.rf_src[r] = None;
        }
        Ok(())
    }

    fn barriers(&mut self, ctx: &mut Ctx) -> Result<(), BudgetExceeded> {
        let s = ctx.s;
        let (values, cyclic) = values(s, &ctx.rf_src);
        // Values that depend on themselves have no candidate execution.
        if cyclic || constraints_hold(s, &values) != Some(true) {
            return Ok(());
        }
        let values: Vec<u32> = values.into_iter().map(|v| v.unwrap_or(0)).collect();
        let mut sym_value = |id: SymId| eval(&s.syms, id, &mut |e| Some(values[e])).unwrap_or(0);
        let options = match &ctx.bar {
            Some(bar) => vec![bar.clone()],
            None => sync_options(s, &self.barriers, &mut sym_value),
        };
        let fence = &ctx.fence;
        for bar in options {
            let fr = ctx.rf.inverse().compose(&ctx.co);
            let mut x = Execution {
                s,
                stage: Stage::FenceOrder,
                rf: ctx.rf.clone(),
                co: ctx.co.clone(),
                fr,
                sc: fence.fixed.clone(),
                bar,
            };
            self.fence_order(&mut x, &fence.free, &values)?;
        }
        Ok(())
    }

    fn fence_order(
        &mut self,
        x: &mut Execution,
        free: &[(EventId, EventId)],
        values: &[u32],
    ) -> Result<(), BudgetExceeded> {
        self.orient(x, free, Orienting::FenceOrder, values)
    }

    fn coherence(&mut self, x: &mut Execution, values: &[u32]) -> Result<(), BudgetExceeded> {
        let s = x.s;
        self.step()?;
        x.stage = Stage::Coherence;
        let implied = self.model.implied_co(x);
        let must = self.model.coherence();
        let mut pairs = Vec::new();
        for ws in &s.writes_by_loc {
            for (i, &a) in ws.iter().enumerate().skip(1) {
                for &b in &ws[i + 1..] {
                    let required = must == CoherenceOrder::Total || s.ms.contains(a, b);
                    // Explaining, implied pairs are oriented both ways too, so
                    // that an outcome needing the other way is produced by a
                    // candidate and the model can say which axiom rejects it.
                    let implied_pair =
                        !self.prune && (implied.contains(a, b) || implied.contains(b, a));
                    if required || implied_pair {
                        pairs.push((a, b));
                    }
                }
            }
        }
        let mut y = x.clone();
        if self.prune {
            let co = x.co.union(&implied).closure();
            if !co.is_irreflexive() {
                self.counts.candidates += 1;
                return Ok(());
            }
            y.fr = y.rf.inverse().compose(&co);
            y.co = co;
            if (self.outcomes_only && !self.force_co(&mut y)) || self.model.check(&y).is_err() {
                self.counts.candidates += 1;
                return Ok(());
            }
            if self.outcomes_only {
                self.first_guess(&y, &pairs, values)?;
            }
        }
        self.orient(&mut y, &pairs, Orienting::Coherence, values)
    }

    /// Tries one completion before searching: every pair still unordered
    /// goes the way its first event comes first. Once [`Model::forced_co`]
    /// has added what the rest forces, this is usually consistent, and the
    /// search that follows then skips everything giving no new outcome.
    fn first_guess(
        &mut self,
        x: &Execution,
        pairs: &[(EventId, EventId)],
        values: &[u32],
    ) -> Result<(), BudgetExceeded> {
        self.step()?;
        let mut y = x.clone();
        for &(a, b) in pairs {
            // co is closed and acyclic: a → b closes no cycle unless b → a.
            if !y.co.contains(b, a) {
                y.co.insert_closed(a, b);
            }
        }
        y.fr = y.rf.inverse().compose(&y.co);
        self.leaf(&mut y, values)
    }

    /// Orients each pair of `pairs` not yet ordered in the relation
    /// `what` names, both ways, pruning on the axioms after each; a
    /// complete choice goes on to coherence (after the Fence-SC order) or
    /// is a leaf (after coherence).
    ///
    /// The choices live on an explicit stack, not the call stack: a test
    /// has up to one level per pair, thousands within
    /// [`Options::max_events`], more than a thread's stack holds.
    fn orient(
        &mut self,
        x: &mut Execution,
        pairs: &[(EventId, EventId)],
        what: Orienting,
        values: &[u32],
    ) -> Result<(), BudgetExceeded> {
        let mut stack: Vec<Choice> = Vec::new();
        let mut enter = Some(0);
        loop {
            if let Some(i) = enter.take() {
                if !self.nothing_new(x, values) {
                    let rel = what.relation(x);
                    let open = (i..pairs.len()).find(|&k| {
                        let (a, b) = pairs[k];
                        !rel.contains(a, b) && !rel.contains(b, a)
                    });
                    match open {
                        Some(k) => stack.push(Choice {
                            k,
                            tried: 0,
                            saved: what.save(x),
                        }),
                        None if what == Orienting::FenceOrder => self.coherence(x, values)?,
                        None => self.leaf(x, values)?,
                    }
                }
            }
            let Some(top) = stack.last_mut() else {
                return Ok(());
            };
            if top.tried > 0 {
                what.restore(x, &top.saved);
            }
            if top.tried == 2 {
                stack.pop();
                continue;
            }
            let (a, b) = pairs[top.k];
            let (p, q) = if top.tried == 0 { (a, b) } else { (b, a) };
            top.tried += 1;
            let next = top.k + 1;
            self.step()?;
            what.insert(x, p, q);
            if self.prune && self.model.check(x).is_err() {
                self.counts.candidates += 1;
            } else {
                enter = Some(next);
            }
        }
    }

    fn leaf(&mut self, x: &mut Execution, values: &[u32]) -> Result<(), BudgetExceeded> {
        x.stage = Stage::Complete;
        self.counts.candidates += 1;
        let verdict = self.model.check(x);
        if verdict.is_ok() {
            self.counts.consistent += 1;
        }
        if verdict.is_ok() || !self.prune {
            let outcomes = self.outcomes(x, values);
            if verdict.is_ok() && self.prune {
                match self.settle.as_mut() {
                    Some(settle) => {
                        let done = settle(x, &outcomes);
                        self.found.extend(done);
                    }
                    None => self.found.extend(outcomes.iter().cloned()),
                }
            }
            (self.on_leaf)(Leaf {
                x,
                values,
                verdict,
                outcomes,
            });
        }
        x.stage = Stage::Coherence;
        Ok(())
    }

    /// Grows `x.co` by the edges the model says every consistent completion
    /// has; false when there is no consistent completion.
    fn force_co(&self, x: &mut Execution) -> bool {
        x.co = self.model.forced_co(x);
        x.fr = x.rf.inverse().compose(&x.co);
        x.co.is_irreflexive()
    }

    /// Whether every outcome the completions of `x` could give is found
    /// already (searching for outcomes only): the registers are known, and
    /// a location's final value is that of a write with no co-successor
    /// yet.
    fn nothing_new(&self, x: &Execution, values: &[u32]) -> bool {
        self.outcomes_only
            && self
                .outcomes(x, values)
                .iter()
                .all(|o| self.found.contains(o))
    }

    /// The outcomes of an execution: registers, and per observed
    /// location each co-maximal write (every combination).
    fn outcomes(&self, x: &Execution, values: &[u32]) -> Vec<Outcome> {
        let s = x.s;
        let mut out: Vec<Outcome> = vec![Vec::with_capacity(self.observables.len())];
        for o in self.observables {
            let choices: Vec<u32> = match o {
                Observable::Reg { thread, reg } => {
                    let v = s.regs[*thread]
                        .binary_search_by(|(r, _)| r.as_str().cmp(reg))
                        .ok()
                        .map(|i| s.regs[*thread][i].1)
                        .map_or(0, |sym| {
                            eval(&s.syms, sym, &mut |e| Some(values[e])).unwrap_or(0)
                        });
                    vec![v]
                }
                Observable::Loc { loc } => {
                    let ws = &s.writes_by_loc[*loc];
                    let mut vs: Vec<u32> = ws
                        .iter()
                        .filter(|&&w| !ws.iter().any(|&w2| w2 != w && x.co.contains(w, w2)))
                        .map(|&w| values[w])
                        .collect();
                    vs.sort();
                    vs.dedup();
                    vs
                }
            };
            out = out
                .iter()
                .flat_map(|prefix| {
                    choices.iter().map(move |&v| {
                        let mut o = prefix.clone();
                        o.push(v);
                        o
                    })
                })
                .collect();
        }
        out
    }
}

/// The relation a pairwise search ([`Search::orient`]) orients.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Orienting {
    FenceOrder,
    Coherence,
}

/// One pair on [`Search::orient`]'s stack: its index, how many of its two
/// orientations were tried, and the relations as they were before the
/// first (coherence: co and fr; the Fence-SC order: sc twice).
struct Choice {
    k: usize,
    tried: u8,
    saved: (Relation, Relation),
}

impl Orienting {
    fn relation<'x>(self, x: &'x Execution) -> &'x Relation {
        match self {
            Orienting::FenceOrder => &x.sc,
            Orienting::Coherence => &x.co,
        }
    }

    fn save(self, x: &Execution) -> (Relation, Relation) {
        match self {
            Orienting::FenceOrder => (x.sc.clone(), Relation::new(0)),
            Orienting::Coherence => (x.co.clone(), x.fr.clone()),
        }
    }

    fn restore(self, x: &mut Execution, saved: &(Relation, Relation)) {
        match self {
            Orienting::FenceOrder => x.sc = saved.0.clone(),
            Orienting::Coherence => {
                x.co = saved.0.clone();
                x.fr = saved.1.clone();
            }
        }
    }

    fn insert(self, x: &mut Execution, p: EventId, q: EventId) {
        match self {
            Orienting::FenceOrder => x.sc.insert_closed(p, q),
            Orienting::Coherence => {
                x.co.insert_closed(p, q);
                x.fr = x.rf.inverse().compose(&x.co);
            }
        }
    }
}

/// The values of every event that can be computed from the rf choices so
/// far, and whether some value depends on itself.
fn values(s: &Structure, rf_src: &[Option<EventId>]) -> (Vec<Option<u32>>, bool) {
    struct V<'a> {
        s: &'a Structure,
        rf_src: &'a [Option<EventId>],
        state: Vec<u8>,
        val: Vec<Option<u32>>,
        cyclic: bool,
    }
    impl V<'_> {
        fn event(&mut self, e: EventId) -> Option<u32> {
            match self.state[e] {
                2 => return self.val[e],
                1 => {
                    self.cyclic = true;
                    return None;
                }
                _ => {}
            }
            self.state[e] = 1;
            let ev = &self.s.events[e];
            let v = match ev.kind {
                EventKind::Read => self.rf_src[e].and_then(|w| self.event(w)),
                EventKind::Write => {
                    let syms = &self.s.syms;
                    let sym = ev.value.unwrap_or(0);
                    eval(syms, sym, &mut |r| self.event(r))
                }
                _ => None,
            };
            self.state[e] = 2;
            self.val[e] = v;
            v
        }
    }
    let n = s.len();
    let mut v = V {
        s,
        rf_src,
        state: vec![0; n],
        val: vec![None; n],
        cyclic: false,
    };
    for e in 0..n {
        v.event(e);
    }
    (v.val, v.cyclic)
}

/// `Some(false)` when a known value breaks a branch outcome, `Some(true)`
/// when every constraint is known to hold, `None` otherwise.
fn constraints_hold(s: &Structure, values: &[Option<u32>]) -> Option<bool> {
    let mut all = true;
    for c in &s.constraints {
        let get = |id: SymId| eval(&s.syms, id, &mut |e| values[e]);
        match (get(c.a), get(c.b)) {
            (Some(a), Some(b)) => {
                if ((a == b) == (c.cond == BranchCond::Eq)) != c.holds {
                    return Some(false);
                }
            }
            _ => all = false,
        }
    }
    all.then_some(true)
}
