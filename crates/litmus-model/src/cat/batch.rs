//! Many cat models judged over one search per test: what makes running
//! hundreds of mutants over a thousand tests take seconds.
//!
//! Two things are shared. The models are compiled into one program
//! (`compile::Shared`), so that a relation they define alike (`po-loc`,
//! `morally-strong` when a mutant only touches `cause`) is computed once
//! per candidate execution for all of them. And each test's candidates are
//! enumerated once for all of them: one search, whose model (`Joint`)
//! prunes a partial candidate only when every model rejects it, and which
//! skips a subtree only when every model has already found every outcome
//! it can produce; at each complete candidate every model that still
//! lacks one of its outcomes judges it.
//!
//! What a model asks of the search must agree for the models of one
//! search: the coherence it orders (total or morally strong pairs only)
//! and proxies split them into groups, one search each; the Fence-SC order
//! is enumerated when one model of the group uses it (a model that does
//! not gives the same verdict on every order). The coherence edges a model
//! implies (`empty (E \ co)`) are computed per candidate: a model whose
//! edges differ from the group's on some candidate of a test is checked
//! on its own for that test, as is every model when the shared search runs
//! out of budget. The allowed outcomes are therefore exactly those of
//! [`crate::check()`] for each model.

use crate::cat::ReadInclude;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Mutex;

use litmus_core::ir::Test;

use crate::budget::Options;
use crate::check::check;
use crate::enumerate::Search;
use crate::events::Structure;
use crate::model::{CoherenceOrder, Execution, FenceOrder, Model, Stage, Violation};
use crate::outcome::{observables, Outcome};
use crate::relation::Relation;
use crate::verdicts::{par_for, Allowed, Verdicts};

use super::base::sc_fence_pairs;
use super::compile::Shared;
use super::error::CatError;
use super::eval::Eval;
use super::model::{implied_co, CatModel, SearchNeeds};
use super::program::{Check, Program};

/// One model of a batch.
struct Member {
    /// Its checks, as indices into [`Batch::checks`], `flag`s left out
    /// (they never reject).
    checks: Vec<usize>,
    needs: SearchNeeds,
    /// The model compiled on its own, for the tests the shared search
    /// cannot settle for it.
    alone: CatModel,
}

/// Cat models to be judged together. Add them with [`Batch::add`], then
/// [`Batch::verdicts`].
///
/// ```
/// use litmus_model::cat::batch::Batch;
/// let mut b = Batch::default();
/// let mut no_include = |_: &std::path::Path| Err("no includes".into());
/// b.add("sc.cat".as_ref(), "acyclic po | rf | co | fr as sc\n", &mut no_include).unwrap();
/// b.add("none.cat".as_ref(), "empty 0 as nothing\n", &mut no_include).unwrap();
/// assert_eq!(b.len(), 2);
/// ```
#[derive(Default)]
pub struct Batch {
    shared: Shared,
    /// The distinct checks of all models: most are the same node under
    /// the same check in every mutant, judged once per candidate.
    checks: Vec<Check>,
    members: Vec<Member>,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Batch({} models, {} shared nodes)",
            self.members.len(),
            self.shared.prog.nodes.len()
        )
    }
}

impl Batch {
    /// Adds the cat model `src` (the file `path`, `read` reading its
    /// includes); returns its index, the row of [`Batch::verdicts`] that
    /// holds it. A model that does not compile is not added.
    pub fn add(
        &mut self,
        path: &Path,
        src: &str,
        read: &mut ReadInclude<'_>,
    ) -> Result<usize, CatError> {
        let alone = CatModel::from_source(path, src, read)?;
        let range = self.shared.add(path, src, read)?;
        let checks = &self.shared.prog.checks[range];
        let needs = SearchNeeds::of(&self.shared.prog, checks);
        let mut ids = Vec::new();
        for c in checks.iter().filter(|c| !c.flag) {
            let same = |d: &Check| (d.node, d.kind, d.negate) == (c.node, c.kind, c.negate);
            ids.push(match self.checks.iter().position(same) {
                Some(i) => i,
                None => {
                    self.checks.push(c.clone());
                    self.checks.len() - 1
                }
            });
        }
        self.members.push(Member {
            needs,
            checks: ids,
            alone,
        });
        Ok(self.members.len() - 1)
    }

    /// The number of models added.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether no model was added.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The nodes of the shared program: how much the models have in common
    /// shows in how much fewer they are than the models' own.
    pub fn shared_nodes(&self) -> usize {
        self.shared.prog.nodes.len()
    }

    /// The outcomes each model allows on each test (rows in the order the
    /// models were added), tests spread over `threads` threads.
    pub fn verdicts(&self, tests: &[Test], opts: &Options, threads: usize) -> Verdicts {
        self.verdicts_with(tests, opts, threads, &|| {})
    }

    /// [`Batch::verdicts`], calling `done` as each test is checked (on the
    /// thread that checked it): a caller's count of the work, for a
    /// progress bar.
    pub fn verdicts_with(
        &self,
        tests: &[Test],
        opts: &Options,
        threads: usize,
        done: &(dyn Fn() + Sync),
    ) -> Verdicts {
        let per_test = par_for(tests.len(), threads, |t| {
            let row = self.test(&tests[t], opts);
            done();
            row
        });
        let mut allowed: Vec<Vec<Allowed>> = vec![Vec::with_capacity(tests.len()); self.len()];
        for row in per_test {
            for (m, a) in row.into_iter().enumerate() {
                allowed[m].push(a);
            }
        }
        Verdicts { allowed }
    }

    /// Every model's allowed outcomes on one test.
    fn test(&self, test: &Test, opts: &Options) -> Vec<Allowed> {
        let mut out: Vec<Option<Allowed>> = vec![None; self.len()];
        // Groups of models that can share a search.
        let mut groups: Vec<((CoherenceOrder, bool, bool), Vec<usize>)> = Vec::new();
        for (i, m) in self.members.iter().enumerate() {
            let key = (m.needs.coherence, m.needs.uses_proxies, m.needs.uses_async);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, g)) => g.push(i),
                None => groups.push((key, vec![i])),
            }
        }
        for (_, mut group) in groups {
            // The models that leave a search (their coherence edges differ
            // from the first model's) often agree among themselves: they
            // get a search of their own, until one is left.
            while group.len() > 1 {
                let joint = Joint::new(&self.shared.prog, &self.checks, &self.members, group);
                let Ok(found) = joint.run(test, opts) else {
                    break;
                };
                for (i, allowed) in found {
                    out[i] = Some(Ok(allowed));
                }
                group = joint
                    .index
                    .into_iter()
                    .filter(|&i| out[i].is_none())
                    .collect();
            }
        }
        out.into_iter()
            .enumerate()
            .map(|(i, a)| {
                a.unwrap_or_else(|| {
                    check(test, &self.members[i].alone, opts)
                        .map(|r| r.allowed)
                        .map_err(|e| crate::verdicts::Unchecked(e.to_string()))
                })
            })
            .collect()
    }
}

/// One candidate's evaluation, shared by every model judging it.
struct Judged<'p, 'x, 's> {
    ev: Eval<'p, 'x, 's>,
    /// Per distinct check: whether it holds, once asked.
    cache: Vec<Option<bool>>,
}

/// What a joint search has learnt so far.
struct State {
    /// Per member of the group: still judged by this search (not left to
    /// a search of its own).
    live: Vec<bool>,
    /// Per member: the outcomes of the consistent executions it has found.
    found: Vec<BTreeSet<Outcome>>,
}

/// The models of a group as one [`Model`] for the search.
struct Joint<'b> {
    prog: &'b Program,
    checks: &'b [Check],
    members: Vec<&'b Member>,
    /// Indices of the members in the batch.
    index: Vec<usize>,
    coherence: CoherenceOrder,
    proxies: bool,
    async_proxy: bool,
    sync_fence: bool,
    /// Only this search's thread locks it; `Model` asks for `Sync`.
    state: Mutex<State>,
}

impl<'b> Joint<'b> {
    fn new(
        prog: &'b Program,
        checks: &'b [Check],
        all: &'b [Member],
        index: Vec<usize>,
    ) -> Joint<'b> {
        let members: Vec<&Member> = index.iter().map(|&i| &all[i]).collect();
        let n = members.len();
        Joint {
            prog,
            checks,
            coherence: members[0].needs.coherence,
            proxies: members[0].needs.uses_proxies,
            async_proxy: members[0].needs.uses_async,
            sync_fence: members.iter().any(|m| m.needs.uses_sync_fence),
            members,
            index,
            state: Mutex::new(State {
                live: vec![true; n],
                found: vec![BTreeSet::new(); n],
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether member `m` accepts `x`: every check at a complete
    /// candidate, the ones that only grow with it before.
    fn accepts(&self, m: usize, j: &mut Judged, complete: bool) -> bool {
        self.members[m].checks.iter().all(|&c| {
            let check = &self.checks[c];
            if !complete && !self.prog.info[check.node].monotone {
                return true;
            }
            *j.cache[c].get_or_insert_with(|| j.ev.satisfied(check))
        })
    }

    fn judged<'x, 's>(&self, x: &'x Execution<'s>) -> Judged<'b, 'x, 's> {
        Judged {
            ev: Eval::new(self.prog, x),
            cache: vec![None; self.checks.len()],
        }
    }

    /// Runs the search; the allowed outcomes of the members it settled
    /// (batch index, outcomes). Fails when the search does (a budget run
    /// out, a path that cannot be unrolled): every member is then checked
    /// on its own, which reports the error per model.
    fn run(&self, test: &Test, opts: &Options) -> Result<Vec<(usize, BTreeSet<Outcome>)>, ()> {
        if litmus_core::validate(test).is_err() {
            return Err(());
        }
        let obs = observables(test);
        let mut on_leaf = |_: crate::enumerate::Leaf| {};
        let mut settle = |x: &Execution, outcomes: &[Outcome]| self.settle(x, outcomes);
        let mut search = Search::new(test, self, opts, &obs, true, &mut on_leaf);
        search.settle_with(&mut settle);
        search.run(opts).map_err(|_| ())?;
        drop(search);
        let st = self.state();
        Ok((0..self.members.len())
            .filter(|&m| st.live[m])
            .map(|m| (self.index[m], st.found[m].clone()))
            .collect())
    }

    /// At a consistent complete candidate: every live member that lacks
    /// one of its outcomes judges it; the outcomes every live member has
    /// now found are settled.
    fn settle(&self, x: &Execution, outcomes: &[Outcome]) -> Vec<Outcome> {
        let mut st = self.state();
        let mut j = self.judged(x);
        for m in 0..self.members.len() {
            if st.live[m]
                && outcomes.iter().any(|o| !st.found[m].contains(o))
                && self.accepts(m, &mut j, true)
            {
                st.found[m].extend(outcomes.iter().cloned());
            }
        }
        outcomes
            .iter()
            .filter(|o| (0..self.members.len()).all(|m| !st.live[m] || st.found[m].contains(*o)))
            .cloned()
            .collect()
    }
}

impl Model for Joint<'_> {
    fn name(&self) -> &'static str {
        "cat batch"
    }

    fn summary(&self) -> &'static str {
        "several cat models judged over one search"
    }

    fn coherence(&self) -> CoherenceOrder {
        self.coherence
    }

    fn proxies(&self) -> bool {
        self.proxies
    }

    fn async_proxy(&self) -> bool {
        self.async_proxy
    }

    fn fence_order(&self, s: &Structure) -> FenceOrder {
        if !self.sync_fence {
            return FenceOrder::none(s.len());
        }
        FenceOrder {
            fixed: Relation::new(s.len()),
            free: sc_fence_pairs(s),
        }
    }

    /// The first live member's edges; a member whose edges differ here
    /// would need other candidates, so it leaves this search.
    fn implied_co(&self, x: &Execution) -> Relation {
        let mut st = self.state();
        let mut ev = Eval::new(self.prog, x);
        let mut chosen: Option<Relation> = None;
        for m in 0..self.members.len() {
            if !st.live[m] {
                continue;
            }
            let r = implied_co(&mut ev, &self.members[m].needs.implied, x);
            match &chosen {
                None => chosen = Some(r),
                Some(c) if *c == r => {}
                Some(_) => st.live[m] = false,
            }
        }
        chosen.unwrap_or_else(|| Relation::new(x.s.len()))
    }

    /// Consistent for the search when some live member accepts `x`: only
    /// then can a completion matter to one of them.
    fn check(&self, x: &Execution) -> Result<(), Violation> {
        let live = self.state().live.clone();
        let mut j = self.judged(x);
        let complete = x.stage == Stage::Complete;
        if (0..self.members.len()).any(|m| live[m] && self.accepts(m, &mut j, complete)) {
            Ok(())
        } else {
            Err(Violation {
                axiom: "every model of the batch",
                witness: Vec::new(),
            })
        }
    }
}
