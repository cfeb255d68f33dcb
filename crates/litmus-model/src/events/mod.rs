//! From instructions to events.
//!
//! Each thread is run symbolically: a read's value is not known until the
//! enumeration picks the write it reads from, so registers hold [`Sym`]
//! expressions over read events. A conditional branch on such a value forks
//! the thread into two control paths, each remembering the branch outcome as
//! a [`Constraint`] that the read values must satisfy. A candidate execution
//! then picks one path per thread and checks the constraints once the values
//! are known.
//!
//! Loops are bounded: a backward jump may be taken `loop_bound - 1` times
//! per branch instruction (bound 1, the corpus default, discards any path
//! that takes a backward jump). Cut paths are dropped and reported, so the
//! result can say it is bounded.

use std::collections::HashMap;

use litmus_core::instr::{AtomOp, BarrierKind, BranchCond, InstrKind, Scope, Sem};
use litmus_core::ir::{Operand, Placement, Test};

use crate::relation::{EventSet, Relation};

mod event;
mod scopes;
mod sym;

pub use event::{BarrierScope, BarrierSpec, Event, EventId, EventKind};
pub use sym::{bin, eval, rmw, sym_reads, Sym, SymId};

/// A branch outcome a path depends on: `a cond b` must evaluate to `holds`.
#[derive(Clone, Debug)]
pub struct Constraint {
    /// The left operand.
    pub a: SymId,
    /// The right operand.
    pub b: SymId,
    /// The comparison the branch made.
    pub cond: BranchCond,
    /// Whether the comparison held on this path.
    pub holds: bool,
}

/// One control path of one thread, with thread-local event and symbol ids.
#[derive(Clone, Debug, Default)]
pub struct ThreadPath {
    /// The events, in program order.
    pub events: Vec<Event>,
    /// The symbolic values its events and registers refer to.
    pub syms: Vec<Sym>,
    /// The branch outcomes the path assumes.
    pub constraints: Vec<Constraint>,
    /// Final register values, sorted by register name.
    pub regs: Vec<(String, SymId)>,
    /// For each event, the reads (local ids) that a branch before it tested.
    pub ctrl: Vec<Vec<EventId>>,
}

/// The control paths of a thread, and whether the loop bound cut any.
#[derive(Clone, Debug)]
pub struct Paths {
    /// The paths within the loop bound.
    pub paths: Vec<ThreadPath>,
    /// Whether the loop bound cut some path.
    pub cut: bool,
}

/// Why paths could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// A thread with more paths than the budget's `max_paths`.
    #[error("thread `{thread}` has more than {limit} control paths within the loop bound")]
    TooManyPaths {
        /// The thread.
        thread: String,
        /// The bound on paths per thread.
        limit: usize,
    },
    /// A branch to a label the thread does not define.
    #[error("thread `{thread}` branches to a missing label `{label}`")]
    MissingLabel {
        /// The thread.
        thread: String,
        /// The label.
        label: String,
    },
    /// An access to an undeclared location.
    #[error("unknown location `{0}`")]
    UnknownLocation(String),
}

#[derive(Clone)]
struct State {
    pc: usize,
    regs: HashMap<String, SymId>,
    path: ThreadPath,
    ctrl_reads: Vec<EventId>,
    back_taken: HashMap<usize, u32>,
}

impl State {
    fn sym(&mut self, s: Sym) -> SymId {
        // Fold constants so that branches on known values do not fork.
        let folded = match &s {
            Sym::Bin(op, a, b) => match (&self.path.syms[*a], &self.path.syms[*b]) {
                (Sym::Const(x), Sym::Const(y)) => Some(Sym::Const(bin(*op, *x, *y))),
                _ => None,
            },
            _ => None,
        };
        self.path.syms.push(folded.unwrap_or(s));
        self.path.syms.len() - 1
    }

    fn operand(&mut self, op: &Operand) -> SymId {
        match op {
            Operand::Imm(i) => self.sym(Sym::Const(i.value as u32)),
            Operand::Reg(r) => match self.regs.get(&r.text) {
                Some(&s) => s,
                None => {
                    // Registers start at 0 (validation rejects reads of
                    // registers never written; this is the run-time default).
                    let s = self.sym(Sym::Const(0));
                    self.regs.insert(r.text.clone(), s);
                    s
                }
            },
        }
    }

    fn push(&mut self, e: Event) -> EventId {
        self.path.events.push(e);
        self.path.ctrl.push(self.ctrl_reads.clone());
        self.path.events.len() - 1
    }

    fn reads_of(&self, s: SymId, out: &mut Vec<EventId>) {
        match &self.path.syms[s] {
            Sym::Const(_) => {}
            Sym::Read(r) => out.push(*r),
            Sym::Bin(_, a, b) => {
                self.reads_of(*a, out);
                self.reads_of(*b, out);
            }
            Sym::Rmw {
                op,
                old,
                operand,
                new,
            } => {
                if *op != AtomOp::Exch {
                    self.reads_of(*old, out);
                }
                self.reads_of(*operand, out);
                if let Some(n) = new {
                    self.reads_of(*n, out);
                }
            }
        }
    }
}

fn location_index(test: &Test, name: &str) -> Result<usize, PathError> {
    test.locations
        .iter()
        .position(|l| l.name.text == name)
        .ok_or_else(|| PathError::UnknownLocation(name.to_string()))
}

fn access(sem: Sem, scope: Option<Scope>) -> (Sem, Option<Scope>) {
    match sem {
        Sem::Volatile => (Sem::Relaxed, Some(Scope::Sys)),
        s => (s, scope),
    }
}

/// Enumerates the control paths of thread `t` of `test`.
///
/// ```
/// let test = litmus_core::text::parse(
///     "PTX spin\n{ f=0; }\n P0@cta 0,gpu 0 ;\n L: ;\n ld.relaxed.gpu r0, f ;\n beq r0, 0, L ;\nexists (P0:r0 == 1)",
/// ).unwrap();
/// // Bound 1: only the path that leaves the loop at once survives.
/// let p = litmus_model::events::thread_paths(&test, 0, 1, 100).unwrap();
/// assert_eq!((p.paths.len(), p.cut), (1, true));
/// // Bound 3: leave after one, two or three reads.
/// let p = litmus_model::events::thread_paths(&test, 0, 3, 100).unwrap();
/// assert_eq!(p.paths.len(), 3);
/// assert_eq!(p.paths.iter().map(|p| p.events.len()).max(), Some(3));
/// ```
pub fn thread_paths(
    test: &Test,
    t: usize,
    loop_bound: u32,
    max_paths: usize,
) -> Result<Paths, PathError> {
    let thread = &test.threads[t];
    let body = &thread.body;
    let mut labels = HashMap::new();
    for (i, instr) in body.iter().enumerate() {
        if let InstrKind::Label(l) = &instr.kind {
            labels.insert(l.text.as_str(), i);
        }
    }
    let mut init = State {
        pc: 0,
        regs: HashMap::new(),
        path: ThreadPath::default(),
        ctrl_reads: Vec::new(),
        back_taken: HashMap::new(),
    };
    for ri in &thread.init {
        let s = init.sym(Sym::Const(ri.value.value as u32));
        init.regs.insert(ri.reg.text.clone(), s);
    }
    let mut done = Vec::new();
    let mut cut = false;
    let mut stack = vec![init];
    while let Some(mut st) = stack.pop() {
        loop {
            let Some(instr) = body.get(st.pc) else {
                let mut regs: Vec<_> = st.regs.iter().map(|(k, v)| (k.clone(), *v)).collect();
                regs.sort();
                st.path.regs = regs;
                done.push(st.path);
                if done.len() > max_paths {
                    return Err(PathError::TooManyPaths {
                        thread: thread.name.text.clone(),
                        limit: max_paths,
                    });
                }
                break;
            };
            let pc = st.pc;
            st.pc += 1;
            match &instr.kind {
                InstrKind::Load {
                    dst,
                    loc,
                    access: a,
                    ..
                } => {
                    let (sem, scope) = access(a.sem, a.scope);
                    let id = st.path.events.len();
                    let value = st.sym(Sym::Read(id));
                    st.push(Event {
                        thread: Some(t),
                        instr: Some(pc),
                        kind: EventKind::Read,
                        loc: Some(location_index(test, &loc.text)?),
                        sem,
                        scope,
                        value: Some(value),
                        barrier: None,
                        rmw_partner: None,
                    });
                    st.regs.insert(dst.text.clone(), value);
                }
                InstrKind::Store {
                    loc,
                    value,
                    access: a,
                    ..
                } => {
                    let (sem, scope) = access(a.sem, a.scope);
                    let v = st.operand(value);
                    st.push(Event {
                        thread: Some(t),
                        instr: Some(pc),
                        kind: EventKind::Write,
                        loc: Some(location_index(test, &loc.text)?),
                        sem,
                        scope,
                        value: Some(v),
                        barrier: None,
                        rmw_partner: None,
                    });
                }
                InstrKind::Fence { sem, scope, .. } => {
                    st.push(Event {
                        thread: Some(t),
                        instr: Some(pc),
                        kind: EventKind::Fence,
                        loc: None,
                        sem: *sem,
                        scope: Some(*scope),
                        value: None,
                        barrier: None,
                        rmw_partner: None,
                    });
                }
                InstrKind::Atom {
                    dst,
                    op,
                    loc,
                    access: a,
                    operand,
                    new,
                } => {
                    let l = location_index(test, &loc.text)?;
                    let (rsem, wsem) = match a.sem {
                        Sem::Acquire => (Sem::Acquire, Sem::Relaxed),
                        Sem::Release => (Sem::Relaxed, Sem::Release),
                        Sem::AcqRel => (Sem::Acquire, Sem::Release),
                        s => (s, s),
                    };
                    let operand = st.operand(operand);
                    let new = new.as_ref().map(|n| st.operand(n));
                    let rid = st.path.events.len();
                    let old = st.sym(Sym::Read(rid));
                    let wval = st.sym(Sym::Rmw {
                        op: *op,
                        old,
                        operand,
                        new,
                    });
                    let mk = |kind, sem, value, partner| Event {
                        thread: Some(t),
                        instr: Some(pc),
                        kind,
                        loc: Some(l),
                        sem,
                        scope: a.scope,
                        value: Some(value),
                        barrier: None,
                        rmw_partner: Some(partner),
                    };
                    st.push(mk(EventKind::Read, rsem, old, rid + 1));
                    st.push(mk(EventKind::Write, wsem, wval, rid));
                    if let Some(d) = dst {
                        st.regs.insert(d.text.clone(), old);
                    }
                }
                InstrKind::Barrier {
                    kind,
                    instance,
                    id,
                    quorum,
                } => {
                    let id = id.as_ref().map(|o| st.operand(o));
                    let quorum = quorum.as_ref().map(|o| st.operand(o));
                    st.push(Event {
                        thread: Some(t),
                        instr: Some(pc),
                        kind: EventKind::Barrier,
                        loc: None,
                        sem: Sem::Weak,
                        scope: Some(Scope::Cta),
                        value: None,
                        barrier: Some(BarrierSpec {
                            kind: *kind,
                            scope: BarrierScope::Cta {
                                instance: instance.value as u32,
                            },
                            id,
                            quorum,
                        }),
                        rmw_partner: None,
                    });
                }
                InstrKind::WarpSync => {
                    st.push(Event {
                        thread: Some(t),
                        instr: Some(pc),
                        kind: EventKind::Barrier,
                        loc: None,
                        sem: Sem::Weak,
                        scope: Some(Scope::Cta),
                        value: None,
                        barrier: Some(BarrierSpec {
                            kind: BarrierKind::Sync,
                            scope: BarrierScope::Warp,
                            id: None,
                            quorum: None,
                        }),
                        rmw_partner: None,
                    });
                }
                InstrKind::Mov { dst, src } => {
                    let v = st.operand(src);
                    st.regs.insert(dst.text.clone(), v);
                }
                InstrKind::BinOp { dst, op, a, b } => {
                    let a = st.operand(a);
                    let b = st.operand(b);
                    let v = st.sym(Sym::Bin(*op, a, b));
                    st.regs.insert(dst.text.clone(), v);
                }
                InstrKind::Label(_) => {}
                InstrKind::Branch { cond, target } => {
                    let Some(&dest) = labels.get(target.text.as_str()) else {
                        return Err(PathError::MissingLabel {
                            thread: thread.name.text.clone(),
                            label: target.text.clone(),
                        });
                    };
                    let mut jump = |mut s: State, stack: &mut Vec<State>| {
                        if dest <= pc {
                            let n = s.back_taken.entry(pc).or_insert(0);
                            if *n + 1 >= loop_bound {
                                cut = true;
                                return;
                            }
                            *n += 1;
                            // A new iteration of this loop starts the loops
                            // nested in it afresh, as unrolling would.
                            s.back_taken.retain(|&b, _| b <= dest || b >= pc);
                        }
                        s.pc = dest;
                        stack.push(s);
                    };
                    match cond {
                        None => {
                            jump(st, &mut stack);
                            break;
                        }
                        Some((c, a, b)) => {
                            let (a, b) = (st.operand(a), st.operand(b));
                            if let (Sym::Const(x), Sym::Const(y)) =
                                (&st.path.syms[a], &st.path.syms[b])
                            {
                                if (x == y) == (*c == BranchCond::Eq) {
                                    jump(st, &mut stack);
                                    break;
                                }
                                continue;
                            }
                            let mut deps = Vec::new();
                            st.reads_of(a, &mut deps);
                            st.reads_of(b, &mut deps);
                            for d in deps {
                                if !st.ctrl_reads.contains(&d) {
                                    st.ctrl_reads.push(d);
                                }
                            }
                            let mut taken = st.clone();
                            taken.path.constraints.push(Constraint {
                                a,
                                b,
                                cond: *c,
                                holds: true,
                            });
                            st.path.constraints.push(Constraint {
                                a,
                                b,
                                cond: *c,
                                holds: false,
                            });
                            jump(taken, &mut stack);
                        }
                    }
                }
            }
        }
    }
    Ok(Paths { paths: done, cut })
}

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
