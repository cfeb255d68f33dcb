//! `ptx-7.5`: the PTX memory model with proxies (PTX ISA 7.5, NVIDIA's
//! mixed-proxy model), as Dat3M's `ptx-v7.5.cat` states it: the PTX 6.0
//! relations with morally-strong pairs confined to one proxy and one
//! virtual address, and causality preserved across proxies or virtual
//! aliases only through proxy fences (`proxy-preserved-cause-base`).
//!
//! On a test without proxies it gives the verdicts of `ptx` (the 104 tests
//! both of Dat3M's lists hold agree).

use litmus_core::async_proxy::OneWay;
use litmus_core::instr::Scope;
use litmus_core::proxy::{Proxy, ProxyFenceKind};

use crate::events::{EventKind, Structure};
use crate::model::{CoherenceOrder, Execution, FenceOrder, Model, Stage, Violation};
use crate::models::ptx::{acquire_pattern, is_sc_fence, release_pattern, Ptx};
use crate::models::{atomicity_witness, irreflexive_witness, ptx_coherence};
use crate::relation::{labelled_cycle, Edge, EventSet, Relation};

/// The PTX 7.5 model.
pub struct Ptx75;

/// The static relations and sets of the cat model over one structure.
struct Statics {
    /// `vloc`: memory accesses of one physical location at one virtual address.
    vloc: Relation,
    /// `loc`: memory accesses of one physical location.
    loc: Relation,
    /// `[GEN]`: generic accesses.
    gen: EventSet,
    /// `[M]`: memory accesses.
    mem: EventSet,
    /// `[F & ALIAS]`: `fence.proxy.alias`.
    alias_fence: EventSet,
    /// `proxy-fence-ops`: `[F] ; (same-proxy & scta) ; [M]`, of the
    /// fences that order an access of their proxy before them with what
    /// follows (every proxy fence but the one-way `.release`).
    fence_in: Relation,
    /// The same, of the fences that order what precedes them with an
    /// access of their proxy after them (all but the one-way `.acquire`).
    fence_out: Relation,
    /// `same-proxy & scta`.
    proxy_cta: Relation,
}

impl Statics {
    /// With `async_spaces`, a `fence.proxy.async.<space>` orders only the
    /// accesses to memory of its space (`ptx-async`).
    fn of(s: &Structure, async_spaces: bool) -> Statics {
        let n = s.len();
        let ev = &s.events;
        let mem = EventSet::from_fn(n, |e| ev[e].is_memory());
        let loc = Relation::from_fn(n, |a, b| {
            mem.contains(a) && mem.contains(b) && ev[a].loc == ev[b].loc
        });
        let vloc = Relation::from_fn(n, |a, b| {
            loc.contains(a, b) && ev[a].proxy.vloc == ev[b].proxy.vloc
        });
        let gen = EventSet::from_fn(n, |e| {
            mem.contains(e) && ev[e].proxy.proxy == Some(Proxy::Generic)
        });
        let alias_fence =
            EventSet::from_fn(n, |e| ev[e].proxy.fence == Some(ProxyFenceKind::Alias));
        let scta = |a: usize, b: usize| match (ev[a].thread, ev[b].thread) {
            (Some(ta), Some(tb)) => s.same_instance(Scope::Cta, ta, tb),
            _ => false,
        };
        let proxy_cta =
            Relation::from_fn(n, |a, b| ev[a].proxy.same_proxy(&ev[b].proxy) && scta(a, b));
        let covers = |a: usize, b: usize| match (ev[a].proxy.space, ev[b].loc) {
            (Some(space), Some(l)) if async_spaces => space.covers(s.spaces[l]),
            _ => true,
        };
        // `proxy-fence-ops` of the fences that are not one-way `w`.
        let unless = |w: OneWay| {
            Relation::from_fn(n, |a, b| {
                ev[a].kind == EventKind::Fence
                    && ev[a].proxy.one_way != Some(w)
                    && mem.contains(b)
                    && proxy_cta.contains(a, b)
                    && covers(a, b)
            })
        };
        let (fence_in, fence_out) = (unless(OneWay::Release), unless(OneWay::Acquire));
        Statics {
            vloc,
            loc,
            gen,
            mem,
            alias_fence,
            fence_in,
            fence_out,
            proxy_cta,
        }
    }
}

/// The relations derived from a candidate execution.
struct Derived {
    /// `cause = observation? ; proxy-preserved-cause-base`.
    cause: Relation,
}

impl Ptx75 {
    fn derive(x: &Execution, async_spaces: bool) -> Derived {
        let s = x.s;
        let n = s.len();
        let st = Statics::of(s, async_spaces);
        let po_vloc = s.po.intersect(&st.vloc);
        // observation = (morally-strong & rf) | rmw
        let observation = s.ms.intersect(&x.rf).union(&s.rmw);
        let sync = s.ms.intersect(
            &release_pattern(s, &po_vloc)
                .compose(&observation.closure())
                .compose(&acquire_pattern(s, &po_vloc)),
        );
        // sync_fence: the Fence-SC order between morally strong SC fences
        // (as for `ptx`); sync_barrier: the barrier synchronisation.
        let sc_fences = EventSet::from_fn(n, |e| is_sc_fence(s, e));
        let mut sw = sync;
        sw.union_with(&x.sc.restrict(&sc_fences, &sc_fences).intersect(&s.ms));
        sw.union_with(&x.bar);
        let po_r = s.po.reflexive();
        // cause-base = (po? ; ((sync | sync_fence | sync_barrier) ; po?)+) | po
        let cb = po_r.compose(&sw.compose(&po_r).closure()).union(&s.po);
        let cause = observation
            .reflexive()
            .compose(&proxy_preserved(&st, &cb, n));
        Derived { cause }
    }
}

/// `proxy-preserved-cause-base` of Dat3M's ptx-v7.5.cat, clause by clause.
fn proxy_preserved(st: &Statics, cb: &Relation, n: usize) -> Relation {
    let gen = Relation::identity(n, &st.gen);
    let mem = Relation::identity(n, &st.mem);
    let alias = Relation::identity(n, &st.alias_fence);
    // cause-base & proxy-fence-ops^-1: an access before a fence of its
    // proxy (that orders it with what follows: no one-way `.release`).
    let to_fence = cb.intersect(&st.fence_in.inverse());
    // cause-base & proxy-fence-ops: a fence before an access of its proxy
    // (that orders what precedes with it: no one-way `.acquire`).
    let from_fence = cb.intersect(&st.fence_out);
    // Where a chain may start and end: a generic access, or an access
    // handed over by a fence of its proxy.
    let starts = [&gen, &to_fence];
    let ends = [&gen, &from_fence];
    let mut out = gen.compose(&st.vloc.intersect(cb)).compose(&gen);
    out.union_with(
        &mem.compose(&st.proxy_cta.intersect(&st.vloc).intersect(cb))
            .compose(&mem),
    );
    for (i, start) in starts.iter().enumerate() {
        for (j, end) in ends.iter().enumerate() {
            // The first clause (generic to generic) is above, unfenced.
            if i + j > 0 {
                out.union_with(&st.vloc.intersect(&start.compose(cb).compose(end)));
            }
            let through_alias = start.compose(cb).compose(&alias).compose(cb).compose(end);
            out.union_with(&st.loc.intersect(&through_alias));
        }
    }
    out
}

impl Model for Ptx75 {
    fn name(&self) -> &'static str {
        "ptx-7.5"
    }

    fn summary(&self) -> &'static str {
        "PTX ISA 7.5 memory model with proxies and virtual aliases (Dat3M's ptx-v7.5.cat)"
    }

    fn coherence(&self) -> CoherenceOrder {
        CoherenceOrder::MorallyStrong
    }

    fn proxies(&self) -> bool {
        true
    }

    fn fence_order(&self, s: &Structure) -> FenceOrder {
        Ptx.fence_order(s)
    }

    fn implied_co(&self, x: &Execution) -> Relation {
        Ptx75::implied_co_with(x, false)
    }

    fn check(&self, x: &Execution) -> Result<(), Violation> {
        Ptx75::check_with(x, false)
    }
}

impl Ptx75 {
    /// `implied_co`, with the async rules or without them.
    pub(crate) fn implied_co_with(x: &Execution, async_spaces: bool) -> Relation {
        Ptx::cause_ww(x.s, &Ptx75::derive(x, async_spaces).cause)
    }

    /// The axioms of ptx-v7.5.cat, per-location ones first, causality
    /// last; with `async_spaces`, proxy fences restricted to their state
    /// space (`ptx-async`).
    pub(crate) fn check_with(x: &Execution, async_spaces: bool) -> Result<(), Violation> {
        let s = x.s;
        let d = Ptx75::derive(x, async_spaces);
        let fail = |axiom, witness| Err(Violation { axiom, witness });
        let ms_fr = s.ms.intersect(&x.fr);
        let ms_co = s.ms.intersect(&x.co);

        // Atomicity: ((morally-strong & fr) ; (morally-strong & co)) & rmw = ∅.
        if let Some(w) = atomicity_witness(&s.rmw, &ms_fr, &ms_co) {
            return fail("Atomicity", w);
        }

        // No-Thin-Air: rf ∪ dep is acyclic.
        if let Some(w) = labelled_cycle(&[("rf", &x.rf), ("dep", &s.dep)]) {
            return fail("No-Thin-Air", w);
        }

        // Coherence: same-location writes in cause are in co (built in by
        // `implied_co`, so a conflict shows as a cycle); Coherence2: every
        // morally strong pair of same-location writes is ordered.
        if let Some(w) = ptx_coherence(x, &Ptx::cause_ww(s, &d.cause)) {
            return fail("Coherence", w);
        }

        // FenceSC: ([F & SC] ; cause ; [F & SC]) \ sync_fence = ∅. (The
        // proxy-preserved cause relates memory accesses only, so this
        // cannot fail; kept as the cat model states it.)
        let broken = d.cause.pairs().find(|&(a, b)| {
            a != b && is_sc_fence(s, a) && is_sc_fence(s, b) && !x.sc.contains(a, b)
        });
        if let (Some((a, b)), Stage::Complete) = (broken, x.stage) {
            return fail(
                "FenceSC",
                vec![Edge {
                    from: a,
                    to: b,
                    label: "cause",
                }],
            );
        }

        // Causality: (rf ∪ fr) ; cause is irreflexive.
        if let Some(w) = irreflexive_witness(&[("rf", &x.rf), ("fr", &x.fr)], "cause", &d.cause) {
            return fail("Causality", w);
        }
        Ok(())
    }
}
