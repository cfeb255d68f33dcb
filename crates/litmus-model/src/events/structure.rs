//! The event structure of one choice of control paths: the events of every
//! thread after the initial writes, joined into one id space, and the
//! relations that do not depend on the rf, coherence and Fence-SC choices
//! (po, po-loc, rmw, dependencies, morally strong pairs).

use litmus_core::instr::Sem;
use litmus_core::ir::{Placement, Test};

use crate::relation::{EventSet, Relation};

use super::{sym_reads, Constraint, Event, EventId, EventKind, Sym, SymId, ThreadPath};

/// The events of one choice of control paths, with the relations that do
/// not depend on the rf, co and Fence-SC choices.
#[derive(Clone, Debug)]
pub struct Structure {
    /// Every event: the initial writes, then each thread's in program order.
    pub events: Vec<Event>,
    /// The symbolic values, over the events' ids.
    pub syms: Vec<Sym>,
    /// Every path's branch constraints.
    pub constraints: Vec<Constraint>,
    /// Per thread: final register values.
    pub regs: Vec<Vec<(String, SymId)>>,
    /// Per thread: where it runs.
    pub placements: Vec<Placement>,
    /// Whether threads are placed in clusters (else each CTA is a cluster).
    pub clusters: bool,
    /// The initial write of each location.
    pub init: Vec<EventId>,
    /// Per location: its writes, the initial write first.
    pub writes_by_loc: Vec<Vec<EventId>>,
    /// Read events, in thread and program order.
    pub reads: Vec<EventId>,
    /// Program order.
    pub po: Relation,
    /// Program order between accesses of one location.
    pub po_loc: Relation,
    /// Each RMW's read to its write.
    pub rmw: Relation,
    /// Data and control dependencies (from reads).
    pub dep: Relation,
    /// Morally strong pairs (PTX).
    pub ms: Relation,
    /// The read events.
    pub read_set: EventSet,
    /// The write events, initial writes included.
    pub write_set: EventSet,
    /// The fence events.
    pub fence_set: EventSet,
    /// Different for every structure built (a clone shares it), so that a
    /// model can cache what it derives from a structure and a choice of
    /// rf: a structure's address may be reused by the next one.
    pub uid: u64,
}

impl Structure {
    /// Joins one path per thread. `test` must be the test the paths came
    /// from.
    pub fn new(test: &Test, paths: &[&ThreadPath]) -> Structure {
        let nloc = test.locations.len();
        let mut events = Vec::new();
        let mut syms = Vec::new();
        let mut init = Vec::new();
        for (l, loc) in test.locations.iter().enumerate() {
            syms.push(Sym::Const(loc.init.value as u32));
            init.push(events.len());
            events.push(Event {
                thread: None,
                instr: None,
                kind: EventKind::Write,
                loc: Some(l),
                sem: Sem::Weak,
                scope: None,
                value: Some(syms.len() - 1),
                barrier: None,
                rmw_partner: None,
            });
        }
        let mut constraints = Vec::new();
        let mut regs = Vec::new();
        let mut ctrl_pairs = Vec::new();
        for p in paths {
            let (eoff, soff) = (events.len(), syms.len());
            for s in &p.syms {
                syms.push(match s {
                    Sym::Const(c) => Sym::Const(*c),
                    Sym::Read(r) => Sym::Read(r + eoff),
                    Sym::Bin(op, a, b) => Sym::Bin(*op, a + soff, b + soff),
                    Sym::Rmw {
                        op,
                        old,
                        operand,
                        new,
                    } => Sym::Rmw {
                        op: *op,
                        old: old + soff,
                        operand: operand + soff,
                        new: new.map(|n| n + soff),
                    },
                });
            }
            for (i, e) in p.events.iter().enumerate() {
                let mut e = e.clone();
                e.value = e.value.map(|v| v + soff);
                e.rmw_partner = e.rmw_partner.map(|v| v + eoff);
                if let Some(b) = &mut e.barrier {
                    b.id = b.id.map(|v| v + soff);
                    b.quorum = b.quorum.map(|v| v + soff);
                }
                for &r in &p.ctrl[i] {
                    ctrl_pairs.push((r + eoff, i + eoff));
                }
                events.push(e);
            }
            constraints.extend(p.constraints.iter().map(|c| Constraint {
                a: c.a + soff,
                b: c.b + soff,
                ..c.clone()
            }));
            regs.push(p.regs.iter().map(|(r, s)| (r.clone(), s + soff)).collect());
        }
        let n = events.len();
        let mut writes_by_loc = vec![Vec::new(); nloc];
        let mut reads = Vec::new();
        for (i, e) in events.iter().enumerate() {
            match e.kind {
                EventKind::Write => writes_by_loc[e.loc.unwrap_or(0)].push(i),
                EventKind::Read => reads.push(i),
                _ => {}
            }
        }
        let po = Relation::from_fn(n, |a, b| {
            events[a].thread.is_some() && events[a].thread == events[b].thread && a < b
        });
        let same_loc = |a: usize, b: usize| {
            events[a].is_memory() && events[b].is_memory() && events[a].loc == events[b].loc
        };
        let po_loc = Relation::from_fn(n, |a, b| po.contains(a, b) && same_loc(a, b));
        let mut rmw = Relation::new(n);
        for (i, e) in events.iter().enumerate() {
            if let (EventKind::Read, Some(w)) = (e.kind, e.rmw_partner) {
                rmw.insert(i, w);
            }
        }
        let mut dep = Relation::new(n);
        for &(r, e) in &ctrl_pairs {
            dep.insert(r, e);
        }
        for (i, e) in events.iter().enumerate() {
            if e.kind == EventKind::Write && !e.is_init() {
                let mut rs = Vec::new();
                sym_reads(&syms, e.value.unwrap_or(0), &mut rs);
                for r in rs {
                    dep.insert(r, i);
                }
            }
        }
        let placements = test.threads.iter().map(|t| t.placement).collect();
        let clusters = test.threads.iter().any(|t| t.placement.cluster.is_some());
        let read_set = EventSet::from_fn(n, |i| events[i].kind == EventKind::Read);
        let write_set = EventSet::from_fn(n, |i| events[i].kind == EventKind::Write);
        let fence_set = EventSet::from_fn(n, |i| events[i].kind == EventKind::Fence);
        static NEXT_UID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut s = Structure {
            uid: NEXT_UID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            events,
            syms,
            constraints,
            regs,
            placements,
            clusters,
            init,
            writes_by_loc,
            reads,
            ms: Relation::new(n),
            po,
            po_loc,
            rmw,
            dep,
            read_set,
            write_set,
            fence_set,
        };
        s.ms = Relation::from_fn(n, |a, b| {
            let (ea, eb) = (&s.events[a], &s.events[b]);
            let related = s.po.contains(a, b)
                || s.po.contains(b, a)
                || (ea.is_strong() && eb.is_strong() && s.scope_includes_both(a, b));
            related && (!(ea.is_memory() && eb.is_memory()) || ea.loc == eb.loc)
        });
        s
    }

    /// The number of events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether there are no events.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}
