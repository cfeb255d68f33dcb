//! The base sets and relations a cat file can name, and where each comes
//! from in this engine. Names and meanings follow Dat3M's PTX
//! architecture (its tags and base relations), so that Dat3M's
//! `ptx-v6.0.cat` runs unchanged:
//!
//! - events: `R`, `W`, `M` (= `R | W`), `F` (fences, and barriers, which
//!   Dat3M also makes fences), `IW` (initial writes), `RMW` (both halves
//!   of an atomic), `BAR` (barrier arrivals);
//! - semantics: `WEAK`, `RLX`, `ACQ`, `REL`, `ACQ_REL`, `SC`. An atomic's
//!   halves carry the half of its semantics that applies (`atom.acq_rel`:
//!   an `ACQ` read and a `REL` write); `.volatile` is `RLX` at `SYS`; a
//!   `fence.sc` is both `SC` and `ACQ_REL` (it is a release and an acquire
//!   fence too, as in the ISA and the built-in `ptx`; the corpus verdicts
//!   come out the same either way); `fence.release` is `REL` and
//!   `fence.acquire` is `ACQ` (newer than PTX 6.0, so Dat3M's file, which
//!   synchronises through `F & ACQ_REL`, ignores them);
//! - scopes: `CTA`, `CLUSTER`, `GPU`, `SYS`; weak accesses are `SYS`, as
//!   Dat3M tags them; initial writes have no scope;
//! - static relations: `po`, `po-loc`, `loc` (same location, reflexive),
//!   `int`/`ext` (same thread or not), `rmw`, `data`, `ctrl`, `addr`
//!   (always empty: no instruction computes an address), `sr` (each
//!   event's scope includes the other's thread; Dat3M's same-scope),
//!   `scta` (same CTA), `sgpu` (same GPU; not a Dat3M name);
//! - the candidate's choices: `rf`, `co` (the engine's coherence, a
//!   transitively closed partial order where the model leaves racing
//!   writes unordered), `fr` (`rf^-1; co`), herd7's `rfe`, `rfi`, `coe`,
//!   `coi`, `fre`, `fri`, `syncbar` (barrier synchronisation: from each
//!   arrival to each `bar.sync` that waited for it, itself included), and
//!   `sync_fence` (the Fence-SC order between `fence.sc` pairs whose
//!   scopes include each other's thread);
//! - PTX 7.5 proxies (Dat3M's `ptx-v7.5.cat`): `GEN`, `SUR`, `TEX`, `CON`
//!   (the proxy of an access; ordinary fences are `GEN`, `fence.proxy.K`
//!   is `K`'s proxy), `ALIAS` (`fence.proxy.alias`, in no proxy), `vloc`
//!   (memory accesses at one virtual address; `loc` is then the physical
//!   location, which aliases share). A file that names one of these
//!   checks proxy tests; any other cat model refuses them.
//! - the async proxy (`models/ptx-async.cat`): `ASYNC` (the accesses of
//!   bulk copies and the fences of the async proxy: `fence.proxy.async`
//!   and the implicit ones at completion), `FGLOBAL` and `FSHARED` (the
//!   async proxy fences restricted to global or to shared memory),
//!   `FREL_ASYNC` and `FACQ_ASYNC` (the one-way proxy fences of PTX 8.6,
//!   `fence.proxy.async::generic.release` and `.acquire`),
//!   `GLOBAL` and `SHARED` (memory accesses by the space of their
//!   location). A file that names `ASYNC`, `FGLOBAL` or `FSHARED` checks
//!   async tests; any other cat model refuses them.
//!
//! A pair that is both a data and a control dependency is in `data` only:
//! the engine keeps one dependency relation and `ctrl` is what it holds
//! beyond `data`.

use litmus_core::async_proxy::{AsyncSpace, OneWay};
use litmus_core::instr::{Scope, Sem};
use litmus_core::proxy::{Proxy, ProxyFenceKind};

use crate::events::{sym_reads, EventKind, Structure};
use crate::model::Execution;
use crate::relation::{EventSet, Relation};

use super::algebra::Value;

/// A base set or relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Base {
    Set(SetBase),
    Rel(RelBase),
}

/// A base set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SetBase {
    R,
    W,
    M,
    F,
    Iw,
    Rmw,
    Bar,
    Weak,
    Rlx,
    Acq,
    Rel,
    AcqRel,
    Sc,
    Cta,
    Cluster,
    Gpu,
    Sys,
    Gen,
    Sur,
    Tex,
    Con,
    Alias,
    Async,
    FGlobal,
    FShared,
    FRelease,
    FAcquire,
    Global,
    Shared,
}

/// A base relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum RelBase {
    Po,
    PoLoc,
    Loc,
    Int,
    Ext,
    Rmw,
    Addr,
    Data,
    Ctrl,
    Sr,
    Scta,
    Sgpu,
    Rf,
    Co,
    Fr,
    Rfe,
    Rfi,
    Coe,
    Coi,
    Fre,
    Fri,
    SyncBar,
    SyncFence,
    Vloc,
}

const SETS: [(&str, SetBase); 29] = [
    ("R", SetBase::R),
    ("W", SetBase::W),
    ("M", SetBase::M),
    ("F", SetBase::F),
    ("IW", SetBase::Iw),
    ("RMW", SetBase::Rmw),
    ("BAR", SetBase::Bar),
    ("WEAK", SetBase::Weak),
    ("RLX", SetBase::Rlx),
    ("ACQ", SetBase::Acq),
    ("REL", SetBase::Rel),
    ("ACQ_REL", SetBase::AcqRel),
    ("SC", SetBase::Sc),
    ("CTA", SetBase::Cta),
    ("CLUSTER", SetBase::Cluster),
    ("GPU", SetBase::Gpu),
    ("SYS", SetBase::Sys),
    ("GEN", SetBase::Gen),
    ("SUR", SetBase::Sur),
    ("TEX", SetBase::Tex),
    ("CON", SetBase::Con),
    ("ALIAS", SetBase::Alias),
    ("ASYNC", SetBase::Async),
    ("FGLOBAL", SetBase::FGlobal),
    ("FSHARED", SetBase::FShared),
    ("FREL_ASYNC", SetBase::FRelease),
    ("FACQ_ASYNC", SetBase::FAcquire),
    ("GLOBAL", SetBase::Global),
    ("SHARED", SetBase::Shared),
];

const RELS: [(&str, RelBase); 24] = [
    ("po", RelBase::Po),
    ("po-loc", RelBase::PoLoc),
    ("loc", RelBase::Loc),
    ("int", RelBase::Int),
    ("ext", RelBase::Ext),
    ("rmw", RelBase::Rmw),
    ("addr", RelBase::Addr),
    ("data", RelBase::Data),
    ("ctrl", RelBase::Ctrl),
    ("sr", RelBase::Sr),
    ("scta", RelBase::Scta),
    ("sgpu", RelBase::Sgpu),
    ("rf", RelBase::Rf),
    ("co", RelBase::Co),
    ("fr", RelBase::Fr),
    ("rfe", RelBase::Rfe),
    ("rfi", RelBase::Rfi),
    ("coe", RelBase::Coe),
    ("coi", RelBase::Coi),
    ("fre", RelBase::Fre),
    ("fri", RelBase::Fri),
    ("syncbar", RelBase::SyncBar),
    ("sync_fence", RelBase::SyncFence),
    ("vloc", RelBase::Vloc),
];

impl Base {
    /// The base called `name`, if any.
    pub fn lookup(name: &str) -> Option<Base> {
        SETS.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| Base::Set(*b))
            .or_else(|| {
                RELS.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, b)| Base::Rel(*b))
            })
    }

    /// Every base name, for messages.
    pub fn names() -> String {
        let mut v: Vec<&str> = SETS.iter().map(|(n, _)| *n).collect();
        v.extend(RELS.iter().map(|(n, _)| *n));
        v.extend(["_", "0", "id"]);
        v.join(", ")
    }

    /// The name a cat file uses for it (witness labels).
    pub fn name(self) -> &'static str {
        match self {
            Base::Set(s) => SETS.iter().find(|(_, b)| *b == s).map_or("?", |(n, _)| n),
            Base::Rel(r) => RELS.iter().find(|(_, b)| *b == r).map_or("?", |(n, _)| n),
        }
    }

    /// A bit per base, for dependency masks.
    pub fn bit(self) -> u64 {
        match self {
            Base::Set(s) => 1 << (s as u32),
            Base::Rel(r) => 1 << (32 + r as u32),
        }
    }
}

/// The bases that grow as the engine builds a candidate: rf, coherence,
/// barrier synchronisation and the Fence-SC order.
pub(crate) fn dynamic_mask() -> u64 {
    use RelBase::*;
    [Rf, Co, Fr, Rfe, Rfi, Coe, Coi, Fre, Fri, SyncBar, SyncFence]
        .iter()
        .fold(0, |m, &r| m | Base::Rel(r).bit())
}

/// The bases that make a cat model one with PTX 7.5 proxies.
pub(crate) fn proxy_mask() -> u64 {
    use SetBase::*;
    [Gen, Sur, Tex, Con, Alias]
        .iter()
        .fold(Base::Rel(RelBase::Vloc).bit(), |m, &s| {
            m | Base::Set(s).bit()
        })
}

/// The bases that make a cat model one with the async proxy.
pub(crate) fn async_mask() -> u64 {
    use SetBase::*;
    [Async, FGlobal, FShared, FRelease, FAcquire]
        .iter()
        .fold(0, |m, &s| m | Base::Set(s).bit())
}

/// The bases that depend on coherence.
pub(crate) fn co_mask() -> u64 {
    use RelBase::*;
    [Co, Fr, Coe, Coi, Fre, Fri]
        .iter()
        .fold(0, |m, &r| m | Base::Rel(r).bit())
}

fn scope_tag(s: &Structure, e: usize) -> Option<Scope> {
    let ev = &s.events[e];
    if ev.is_init() {
        return None;
    }
    match (ev.kind, ev.scope) {
        (_, Some(sc)) => Some(sc),
        // Dat3M gives weak accesses the system scope.
        (EventKind::Read | EventKind::Write, None) => Some(Scope::Sys),
        _ => None,
    }
}

fn set(s: &Structure, b: SetBase) -> EventSet {
    let n = s.len();
    EventSet::from_fn(n, |e| {
        let ev = &s.events[e];
        let sem_is = |want: &[Sem]| !ev.is_init() && ev.is_memory() && want.contains(&ev.sem);
        let proxy_is = |p: Proxy| ev.proxy.proxy == Some(p);
        match b {
            SetBase::R => ev.kind == EventKind::Read,
            SetBase::W => ev.kind == EventKind::Write,
            SetBase::M => ev.is_memory(),
            SetBase::F => matches!(ev.kind, EventKind::Fence | EventKind::Barrier),
            SetBase::Iw => ev.is_init(),
            SetBase::Rmw => ev.rmw_partner.is_some(),
            SetBase::Bar => ev.kind == EventKind::Barrier,
            SetBase::Weak => sem_is(&[Sem::Weak]),
            SetBase::Rlx => sem_is(&[Sem::Relaxed, Sem::Volatile]),
            SetBase::Acq => {
                sem_is(&[Sem::Acquire]) || (ev.kind == EventKind::Fence && ev.sem == Sem::Acquire)
            }
            SetBase::Rel => {
                sem_is(&[Sem::Release]) || (ev.kind == EventKind::Fence && ev.sem == Sem::Release)
            }
            SetBase::AcqRel => {
                sem_is(&[Sem::AcqRel])
                    || (ev.kind == EventKind::Fence && matches!(ev.sem, Sem::AcqRel | Sem::Sc))
            }
            SetBase::Sc => ev.kind == EventKind::Fence && ev.sem == Sem::Sc,
            SetBase::Cta => scope_tag(s, e) == Some(Scope::Cta),
            SetBase::Cluster => scope_tag(s, e) == Some(Scope::Cluster),
            SetBase::Gpu => scope_tag(s, e) == Some(Scope::Gpu),
            SetBase::Sys => scope_tag(s, e) == Some(Scope::Sys),
            // Barriers belong to no proxy; `fence.proxy.alias` is `ALIAS`
            // only, as Dat3M tags them.
            SetBase::Gen => ev.kind != EventKind::Barrier && proxy_is(Proxy::Generic),
            SetBase::Sur => proxy_is(Proxy::Surface),
            SetBase::Tex => proxy_is(Proxy::Texture),
            SetBase::Con => proxy_is(Proxy::Constant),
            SetBase::Alias => ev.proxy.fence == Some(ProxyFenceKind::Alias),
            SetBase::Async => proxy_is(Proxy::Async),
            SetBase::FGlobal => ev.proxy.space == Some(AsyncSpace::Global),
            SetBase::FShared => matches!(
                ev.proxy.space,
                Some(AsyncSpace::SharedCta | AsyncSpace::SharedCluster)
            ),
            SetBase::FRelease => ev.proxy.one_way == Some(OneWay::Release),
            SetBase::FAcquire => ev.proxy.one_way == Some(OneWay::Acquire),
            SetBase::Global => ev.loc.is_some_and(|l| s.spaces[l].is_global_like()),
            SetBase::Shared => ev.loc.is_some_and(|l| !s.spaces[l].is_global_like()),
        }
    })
}

/// The pairs `(a, b)`, `a == b` included, for which `f` holds.
fn pairs(n: usize, f: impl Fn(usize, usize) -> bool) -> Relation {
    let mut r = Relation::new(n);
    for a in 0..n {
        for b in 0..n {
            if f(a, b) {
                r.insert(a, b);
            }
        }
    }
    r
}

fn data(s: &Structure) -> Relation {
    let mut r = Relation::new(s.len());
    for (i, e) in s.events.iter().enumerate() {
        if e.kind == EventKind::Write && !e.is_init() {
            let mut reads = Vec::new();
            sym_reads(&s.syms, e.value.unwrap_or(0), &mut reads);
            for rd in reads {
                r.insert(rd, i);
            }
        }
    }
    r
}

fn same_thread(s: &Structure, a: usize, b: usize) -> bool {
    match (s.events[a].thread, s.events[b].thread) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// `sync_fence`: the Fence-SC order between `fence.sc` pairs that can
/// synchronise (morally strong: each one's scope includes the other's
/// thread, or the same thread). Dat3M orders exactly these pairs, by one
/// total order of the SC fences; the engine's order is that, closed.
pub(crate) fn sync_fence(x: &Execution) -> Relation {
    let s = x.s;
    let sc = set(s, SetBase::Sc);
    Relation::from_fn(s.len(), |a, b| {
        sc.contains(a) && sc.contains(b) && s.ms.contains(a, b) && x.sc.contains(a, b)
    })
}

/// The pairs of SC fences that [`sync_fence`] orders one way or the other.
pub(crate) fn sc_fence_pairs(s: &Structure) -> Vec<(usize, usize)> {
    let sc = set(s, SetBase::Sc);
    let mut out = Vec::new();
    for a in 0..s.len() {
        for b in a + 1..s.len() {
            if sc.contains(a) && sc.contains(b) && s.ms.contains(a, b) {
                out.push((a, b));
            }
        }
    }
    out
}

fn rel(x: &Execution, b: RelBase) -> Relation {
    let s = x.s;
    let n = s.len();
    let ext = |r: &Relation| Relation::from_fn(n, |a, c| r.contains(a, c) && !same_thread(s, a, c));
    let int = |r: &Relation| Relation::from_fn(n, |a, c| r.contains(a, c) && same_thread(s, a, c));
    match b {
        RelBase::Po => s.po.clone(),
        RelBase::PoLoc => s.po_loc.clone(),
        RelBase::Loc => pairs(n, |a, c| {
            s.events[a].is_memory() && s.events[c].is_memory() && s.events[a].loc == s.events[c].loc
        }),
        RelBase::Int => pairs(n, |a, c| same_thread(s, a, c)),
        RelBase::Ext => pairs(n, |a, c| !same_thread(s, a, c)),
        RelBase::Rmw => s.rmw.clone(),
        RelBase::Addr => Relation::new(n),
        RelBase::Data => data(s),
        RelBase::Ctrl => s.dep.minus(&data(s)),
        RelBase::Sr => pairs(n, |a, c| {
            let (Some(ta), Some(tc)) = (s.events[a].thread, s.events[c].thread) else {
                return false;
            };
            match (scope_tag(s, a), scope_tag(s, c)) {
                (Some(sa), Some(sc)) => s.same_instance(sa, ta, tc) && s.same_instance(sc, ta, tc),
                _ => false,
            }
        }),
        RelBase::Scta => pairs(n, |a, c| {
            matches!((s.events[a].thread, s.events[c].thread),
                (Some(ta), Some(tc)) if s.same_instance(Scope::Cta, ta, tc))
        }),
        RelBase::Sgpu => pairs(n, |a, c| {
            matches!((s.events[a].thread, s.events[c].thread),
                (Some(ta), Some(tc)) if s.same_instance(Scope::Gpu, ta, tc))
        }),
        RelBase::Rf => x.rf.clone(),
        RelBase::Co => x.co.clone(),
        RelBase::Fr => x.fr.clone(),
        RelBase::Rfe => ext(&x.rf),
        RelBase::Rfi => int(&x.rf),
        RelBase::Coe => ext(&x.co),
        RelBase::Coi => int(&x.co),
        RelBase::Fre => ext(&x.fr),
        RelBase::Fri => int(&x.fr),
        RelBase::SyncBar => x.bar.clone(),
        RelBase::SyncFence => sync_fence(x),
        RelBase::Vloc => pairs(n, |a, c| {
            let (ea, ec) = (&s.events[a], &s.events[c]);
            ea.is_memory() && ec.is_memory() && ea.loc == ec.loc && ea.proxy.vloc == ec.proxy.vloc
        }),
    }
}

/// The value of a base over a candidate execution.
pub(crate) fn value(x: &Execution, b: Base) -> Value {
    match b {
        Base::Set(sb) => Value::Set(set(x.s, sb)),
        Base::Rel(rb) => Value::Rel(rel(x, rb)),
    }
}
