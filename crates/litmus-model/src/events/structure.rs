//! The event structure of one choice of control paths: the events of every
//! thread after the initial writes, joined into one id space, and the
//! relations that do not depend on the rf, coherence and Fence-SC choices
//! (po, po-loc, rmw, dependencies, morally strong pairs).

use litmus_core::instr::Sem;
use litmus_core::ir::{Placement, Test};

use litmus_core::proxy::Proxy;

use crate::proxy::ProxyTag;
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
    /// Per location: its memory space (which `fence.proxy.async.<space>`
    /// orders its accesses).
    pub spaces: Vec<litmus_core::ir::Space>,
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
        let mut joined = Joined::initial_writes(test);
        for p in paths {
            joined.append(p);
        }
        let Joined {
            events,
            syms,
            init,
            constraints,
            regs,
            ctrl_pairs,
        } = joined;
        let n = events.len();
        let (writes_by_loc, reads) = accesses(&events, test.locations.len());
        let po = program_order(&events);
        let po_loc = same_location_po(&events, &po);
        let rmw = rmw_pairs(&events);
        let dep = dependencies(&events, &syms, &ctrl_pairs);
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
            spaces: test.locations.iter().map(|l| l.space).collect(),
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
        s.ms = s.morally_strong();
        s
    }

    /// Morally strong pairs (PTX): related by po, or both strong with
    /// scopes that include each other's thread (`sr`); same location when
    /// both are memory accesses. Needs every other field built.
    fn morally_strong(&self) -> Relation {
        let s = self;
        Relation::from_fn(s.len(), |a, b| {
            let (ea, eb) = (&s.events[a], &s.events[b]);
            let related = s.po.contains(a, b)
                || s.po.contains(b, a)
                || (ea.is_strong() && eb.is_strong() && s.scope_includes_both(a, b));
            // PTX 7.5: through one proxy, and memory accesses at one
            // virtual address (`ms2`, `ms3` of Dat3M's ptx-v7.5.cat); every
            // event of a proxy-free test is generic at its own location.
            let same_address = ea.loc == eb.loc && ea.proxy.vloc == eb.proxy.vloc;
            related
                && ea.proxy.same_proxy(&eb.proxy)
                && (!(ea.is_memory() && eb.is_memory()) || same_address)
        })
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

/// The events and symbolic values of the paths joined so far, in one id
/// space: the initial writes first, then each path's, its ids shifted past
/// those before it.
struct Joined {
    events: Vec<Event>,
    syms: Vec<Sym>,
    init: Vec<EventId>,
    constraints: Vec<Constraint>,
    regs: Vec<Vec<(String, SymId)>>,
    /// Control dependencies: (read, event after a branch that tested it).
    ctrl_pairs: Vec<(EventId, EventId)>,
}

impl Joined {
    /// The initial write of every location, and no path yet.
    fn initial_writes(test: &Test) -> Joined {
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
                proxy: ProxyTag::access(Proxy::Generic, l),
            });
        }
        Joined {
            events,
            syms,
            init,
            constraints: Vec::new(),
            regs: Vec::new(),
            ctrl_pairs: Vec::new(),
        }
    }

    /// Appends one thread's path, its event and symbol ids shifted.
    fn append(&mut self, p: &ThreadPath) {
        let Joined {
            events,
            syms,
            constraints,
            regs,
            ctrl_pairs,
            ..
        } = self;
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
}

/// Per location its writes (the initial write first), and every read, in
/// event order.
fn accesses(events: &[Event], nloc: usize) -> (Vec<Vec<EventId>>, Vec<EventId>) {
    let mut writes_by_loc = vec![Vec::new(); nloc];
    let mut reads = Vec::new();
    for (i, e) in events.iter().enumerate() {
        match e.kind {
            EventKind::Write => writes_by_loc[e.loc.unwrap_or(0)].push(i),
            EventKind::Read => reads.push(i),
            _ => {}
        }
    }
    (writes_by_loc, reads)
}

/// Program order: earlier to later events of one thread.
fn program_order(events: &[Event]) -> Relation {
    Relation::from_fn(events.len(), |a, b| {
        events[a].thread.is_some()
            && events[a].thread == events[b].thread
            && a < b
            && events[a].proxy.po_before(
                events[a].kind == EventKind::Read,
                &events[b].proxy,
                events[a + 1..=b].iter().map(|e| &e.proxy),
            )
    })
}

/// Program order between memory accesses of one location.
fn same_location_po(events: &[Event], po: &Relation) -> Relation {
    let same_loc = |a: usize, b: usize| {
        events[a].is_memory() && events[b].is_memory() && events[a].loc == events[b].loc
    };
    Relation::from_fn(events.len(), |a, b| po.contains(a, b) && same_loc(a, b))
}

/// Each RMW's read to its write.
fn rmw_pairs(events: &[Event]) -> Relation {
    let mut rmw = Relation::new(events.len());
    for (i, e) in events.iter().enumerate() {
        if let (EventKind::Read, Some(w)) = (e.kind, e.rmw_partner) {
            rmw.insert(i, w);
        }
    }
    rmw
}

/// Dependencies from reads: control (`ctrl_pairs`) and data (the reads a
/// written value is computed from).
fn dependencies(events: &[Event], syms: &[Sym], ctrl_pairs: &[(EventId, EventId)]) -> Relation {
    let mut dep = Relation::new(events.len());
    for &(r, e) in ctrl_pairs {
        dep.insert(r, e);
    }
    for (i, e) in events.iter().enumerate() {
        if e.kind == EventKind::Write && !e.is_init() {
            let mut rs = Vec::new();
            sym_reads(syms, e.value.unwrap_or(0), &mut rs);
            for r in rs {
                dep.insert(r, i);
            }
        }
    }
    dep
}
