//! `ptx`: the PTX memory model (PTX ISA 6.0 and later, with the cluster
//! scope), as the reference page states it: Lustig et al., ASPLOS 2019, and
//! Dat3M's `ptx-v6.0.cat`, with `fence.sc` in both the release and the
//! acquire patterns (the ISA's reading).

use std::cell::RefCell;
use std::rc::Rc;

use litmus_core::instr::Sem;

use crate::events::{EventKind, Structure};
use crate::forced::{forced_co, Acyclicity};
use crate::model::{CoherenceOrder, Execution, FenceOrder, Model, Violation};
use crate::models::{atomicity_witness, irreflexive_witness, ptx_coherence};
use crate::relation::{labelled_cycle, Edge, EventSet, Relation};

/// The PTX model.
pub struct Ptx;

/// The relations derived from a candidate execution.
pub(crate) struct Derived {
    pub obs: Relation,
    pub sw: Relation,
    pub cause: Relation,
}

pub(crate) fn is_sc_fence(s: &Structure, e: usize) -> bool {
    let ev = &s.events[e];
    ev.kind == EventKind::Fence && ev.sem == Sem::Sc
}

/// The release pattern: `[W ⊒ release] ; po-loc? ; [strong W]` and
/// `[F ⊒ release] ; po ; [strong W]` (PTX 7.5 passes `po-vloc` as `po_loc`).
pub(crate) fn release_pattern(s: &Structure, po_loc: &Relation) -> Relation {
    let n = s.len();
    let strong_w = |b: usize| s.events[b].kind == EventKind::Write && s.events[b].is_strong();
    Relation::from_fn(n, |a, b| {
        let ea = &s.events[a];
        match ea.kind {
            EventKind::Write => {
                matches!(ea.sem, Sem::Release | Sem::AcqRel) && po_loc.contains(a, b) && strong_w(b)
            }
            EventKind::Fence => {
                matches!(ea.sem, Sem::Release | Sem::AcqRel | Sem::Sc)
                    && s.po.contains(a, b)
                    && strong_w(b)
            }
            _ => false,
        }
    })
    .union(&Relation::identity(
        n,
        &EventSet::from_fn(n, |a| {
            s.events[a].kind == EventKind::Write
                && matches!(s.events[a].sem, Sem::Release | Sem::AcqRel)
        }),
    ))
}

/// The acquire pattern: `[strong R] ; po-loc? ; [R ⊒ acquire]` and
/// `[strong R] ; po ; [F ⊒ acquire]` (PTX 7.5 passes `po-vloc` as `po_loc`).
pub(crate) fn acquire_pattern(s: &Structure, po_loc: &Relation) -> Relation {
    let n = s.len();
    let acq_r = |e: usize| {
        s.events[e].kind == EventKind::Read && matches!(s.events[e].sem, Sem::Acquire | Sem::AcqRel)
    };
    Relation::from_fn(n, |a, b| {
        let (ea, eb) = (&s.events[a], &s.events[b]);
        if ea.kind != EventKind::Read || !ea.is_strong() {
            return false;
        }
        match eb.kind {
            EventKind::Read => acq_r(b) && po_loc.contains(a, b),
            EventKind::Fence => {
                matches!(eb.sem, Sem::Acquire | Sem::AcqRel | Sem::Sc) && s.po.contains(a, b)
            }
            _ => false,
        }
    })
    .union(&Relation::identity(n, &EventSet::from_fn(n, acq_r)))
}

/// Relations [`Ptx::derive`] gave, and what they were derived from.
struct Remembered {
    uid: u64,
    rf: Relation,
    sc: Relation,
    bar: Relation,
    derived: Rc<Derived>,
}

thread_local! {
    /// The relations derived last on this thread: one candidate asks for
    /// them several times (implied co, forced co, the check, each coherence
    /// choice), and they do not depend on co.
    static LAST: RefCell<Option<Remembered>> = const { RefCell::new(None) };
}

/// [`Ptx::derive`], remembered for the last rf, Fence-SC order and barriers.
fn derived(x: &Execution) -> Rc<Derived> {
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some(m) = &*last {
            if m.uid == x.s.uid && m.rf == x.rf && m.sc == x.sc && m.bar == x.bar {
                return m.derived.clone();
            }
        }
        let derived = Rc::new(Ptx::derive(x));
        *last = Some(Remembered {
            uid: x.s.uid,
            rf: x.rf.clone(),
            sc: x.sc.clone(),
            bar: x.bar.clone(),
            derived: derived.clone(),
        });
        derived
    })
}

impl Ptx {
    /// obs, sw and cause: they depend on rf, the Fence-SC order and the
    /// barriers, never on co.
    pub(crate) fn derive(x: &Execution) -> Derived {
        let s = x.s;
        let n = s.len();
        // obs: the least relation with ms ∩ rf ⊆ obs and obs;rmw;obs ⊆ obs.
        let mut obs = s.ms.intersect(&x.rf);
        loop {
            let next = obs.union(&obs.compose(&s.rmw).compose(&obs));
            if next == obs {
                break;
            }
            obs = next;
        }
        let sync = release_pattern(s, &s.po_loc)
            .compose(&obs)
            .compose(&acquire_pattern(s, &s.po_loc));
        let mut sw = s.ms.intersect(&sync);
        let sc_fences = EventSet::from_fn(n, |e| is_sc_fence(s, e));
        sw.union_with(&x.sc.restrict(&sc_fences, &sc_fences).intersect(&s.ms));
        sw.union_with(&x.bar);
        let po_r = s.po.reflexive();
        let cause_base = po_r.compose(&sw.compose(&po_r).closure());
        let cause = cause_base.union(&obs.compose(&cause_base.union(&s.po_loc)));
        Derived { obs, sw, cause }
    }

    pub(crate) fn cause_ww(s: &Structure, cause: &Relation) -> Relation {
        Relation::from_fn(s.len(), |a, b| {
            cause.contains(a, b)
                && s.write_set.contains(a)
                && s.write_set.contains(b)
                && s.events[a].loc == s.events[b].loc
        })
        .union(&Relation::identity(
            s.len(),
            &EventSet::from_fn(s.len(), |w| s.write_set.contains(w) && cause.contains(w, w)),
        ))
    }
}

impl Model for Ptx {
    fn name(&self) -> &'static str {
        "ptx"
    }

    fn summary(&self) -> &'static str {
        "PTX ISA 6.0+ memory model (scoped, partial coherence, Fence-SC order; cluster scope)"
    }

    fn coherence(&self) -> CoherenceOrder {
        CoherenceOrder::MorallyStrong
    }

    fn fence_order(&self, s: &Structure) -> FenceOrder {
        let n = s.len();
        let mut fixed = Relation::new(n);
        let mut free = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if !(is_sc_fence(s, a) && is_sc_fence(s, b) && s.ms.contains(a, b)) {
                    continue;
                }
                // Against program order an orientation always breaks
                // Fence-SC (a po b sc a po b puts (a, b) in cause), so fix
                // same-thread pairs along po.
                if s.po.contains(a, b) {
                    fixed.insert(a, b);
                } else {
                    free.push((a, b));
                }
            }
        }
        FenceOrder {
            fixed: fixed.closure(),
            free,
        }
    }

    fn implied_co(&self, x: &Execution) -> Relation {
        let d = derived(x);
        Ptx::cause_ww(x.s, &d.cause)
    }

    /// Coherence contains cause between writes (Coherence); SC-per-location
    /// and Causality then force the orientations `forced::forced_co` finds. cause
    /// only grows as rf, the Fence-SC order and the barriers do, so this
    /// holds on partial executions too.
    fn forced_co(&self, x: &Execution) -> Relation {
        let s = x.s;
        let d = derived(x);
        let seeded = Execution {
            co: x.co.union(&Ptx::cause_ww(s, &d.cause)).closure(),
            ..x.clone()
        };
        if !seeded.co.is_irreflexive() {
            return seeded.co;
        }
        let axiom = Acyclicity {
            base: s.po_loc.union(&s.ms.intersect(&x.rf)),
            mask: Some(&s.ms),
            no_fr: Some(d.cause.inverse()),
        };
        forced_co(&seeded, &axiom, &|a, b| s.ms.contains(a, b))
    }

    /// The axioms are numbered as on the reference page but checked in the
    /// order that gives the most direct explanation: per-location
    /// violations first, causality last.
    fn check(&self, x: &Execution) -> Result<(), Violation> {
        let s = x.s;
        let d = derived(x);
        let fail = |axiom, witness| Err(Violation { axiom, witness });

        // 5. SC-per-location: (ms ∩ (rf ∪ co ∪ fr)) ∪ po-loc is acyclic.
        let ms_rf = s.ms.intersect(&x.rf);
        let ms_fr = s.ms.intersect(&x.fr);
        let ms_co = s.ms.intersect(&x.co);
        if let Some(w) = labelled_cycle(&[
            ("po", &s.po_loc),
            ("rf", &ms_rf),
            ("co", &ms_co),
            ("fr", &ms_fr),
        ]) {
            return fail("SC-per-location", w);
        }

        // 3. Atomicity: ((ms ∩ fr) ; (ms ∩ co)) ∩ rmw = ∅.
        if let Some(w) = atomicity_witness(&s.rmw, &ms_fr, &ms_co) {
            return fail("Atomicity", w);
        }

        // 4. No-thin-air: rf ∪ dep is acyclic.
        if let Some(w) = labelled_cycle(&[("rf", &x.rf), ("dep", &s.dep)]) {
            return fail("No-thin-air", w);
        }

        // 1. Coherence: cause between same-location writes lies in co (the
        // enumerator adds it, so a conflict shows as a cycle), and every
        // morally strong pair of writes is ordered.
        if let Some(w) = ptx_coherence(x, &Ptx::cause_ww(s, &d.cause)) {
            return fail("Coherence", w);
        }

        // 2. Fence-SC: cause never contradicts the Fence-SC order of a
        // morally strong pair.
        for (a, b) in d.cause.pairs() {
            if a != b
                && is_sc_fence(s, a)
                && is_sc_fence(s, b)
                && s.ms.contains(a, b)
                && x.sc.contains(b, a)
            {
                return fail(
                    "Fence-SC",
                    vec![
                        Edge {
                            from: a,
                            to: b,
                            label: "cause",
                        },
                        Edge {
                            from: b,
                            to: a,
                            label: "sc",
                        },
                    ],
                );
            }
        }

        // 6. Causality: (rf ∪ fr) ; cause is irreflexive.
        if let Some(w) = irreflexive_witness(&[("rf", &x.rf), ("fr", &x.fr)], "cause", &d.cause) {
            return fail("Causality", w);
        }
        Ok(())
    }

    fn refine(&self, x: &Execution, edge: &Edge) -> Vec<Edge> {
        if edge.label != "cause" {
            return vec![edge.clone()];
        }
        let d = derived(x);
        cause_path(x, &d, edge.from, edge.to).unwrap_or_else(|| vec![edge.clone()])
    }
}

/// A shortest path of base edges that puts `(from, to)` in cause, found
/// by a breadth-first search through the automaton of
/// `cause = po?;(sw;po?)+ ∪ obs;(po?;(sw;po?)+ ∪ po-loc)`.
fn cause_path(x: &Execution, d: &Derived, from: usize, to: usize) -> Option<Vec<Edge>> {
    use std::collections::VecDeque;
    const START: usize = 0;
    const AFTER_PO: usize = 1;
    const AFTER_SW: usize = 2;
    const AFTER_SW_PO: usize = 3;
    const AFTER_OBS: usize = 4;
    const AFTER_OBS_POLOC: usize = 5;
    let s = x.s;
    let n = s.len();
    let accepting = |q: usize| matches!(q, AFTER_SW | AFTER_SW_PO | AFTER_OBS_POLOC);
    let sw_label = |a: usize, b: usize| {
        if x.sc.contains(a, b)
            && is_sc_fence(s, a)
            && is_sc_fence(s, b)
            && s.ms.contains(a, b)
            && !x.bar.contains(a, b)
        {
            "sc"
        } else {
            "sw"
        }
    };
    let obs_label = |a: usize, b: usize| if x.rf.contains(a, b) { "rf" } else { "obs" };
    // Moves from state q: (relation, label function, next state).
    let moves = |q: usize| -> Vec<(&Relation, usize, u8)> {
        match q {
            START => vec![
                (&s.po, AFTER_PO, 0),
                (&d.sw, AFTER_SW, 1),
                (&d.obs, AFTER_OBS, 2),
            ],
            AFTER_PO => vec![(&d.sw, AFTER_SW, 1)],
            AFTER_SW => vec![(&s.po, AFTER_SW_PO, 0), (&d.sw, AFTER_SW, 1)],
            AFTER_SW_PO => vec![(&d.sw, AFTER_SW, 1)],
            AFTER_OBS => vec![
                (&s.po, AFTER_PO, 0),
                (&d.sw, AFTER_SW, 1),
                (&s.po_loc, AFTER_OBS_POLOC, 0),
            ],
            _ => vec![],
        }
    };
    let idx = |e: usize, q: usize| q * n + e;
    let mut parent: Vec<Option<(usize, usize, u8)>> = vec![None; 6 * n];
    let mut seen = vec![false; 6 * n];
    let mut queue = VecDeque::new();
    seen[idx(from, START)] = true;
    queue.push_back((from, START));
    while let Some((e, q)) = queue.pop_front() {
        if e == to && accepting(q) {
            let mut path = Vec::new();
            let (mut ce, mut cq) = (e, q);
            while let Some((pe, pq, kind)) = parent[idx(ce, cq)] {
                let label = match kind {
                    0 => "po",
                    1 => sw_label(pe, ce),
                    _ => obs_label(pe, ce),
                };
                path.push(Edge {
                    from: pe,
                    to: ce,
                    label,
                });
                (ce, cq) = (pe, pq);
            }
            path.reverse();
            return Some(path);
        }
        for (rel, next, kind) in moves(q) {
            for f in rel.successors(e) {
                if !seen[idx(f, next)] {
                    seen[idx(f, next)] = true;
                    parent[idx(f, next)] = Some((e, q, kind));
                    queue.push_back((f, next));
                }
            }
        }
    }
    None
}
