//! Barrier completion and synchronisation, in the corpus dialect
//! (`bar.cta.sync I[, ID[, Q]]`, see the reference page).
//!
//! Barrier events group by GPU, CTA, static instance `I` and run-time
//! resource id. Within a group:
//!
//! - without a quorum, the k-th barrier event of each participating thread
//!   forms generation k; a generation completes only when every
//!   participant reaches it. Participants are, for a barrier without ID,
//!   every thread of the CTA whose code holds a barrier of that instance
//!   (so a thread that never gets there hangs the others), and for a named
//!   barrier the threads that reach it with that ID value;
//! - with a quorum Q, arrivals come in some order and the barrier counts
//!   them: the event arriving i-th completes once max(i, Q) events have
//!   arrived, and it synchronises with exactly those. This is what makes
//!   the corpus' `quorum*` tests come out as Dat3M reports them (a thread
//!   arriving last with Q = 2 of 3 waits for nobody's later events).
//!
//! A sync edge goes from e1 to e2 (e1 = e2 included) when e2 waited for
//! e1's arrival; an arrive only signals, so it receives no edge. An
//! execution whose barriers cannot all complete, or whose waits form a
//! cycle with program order (a deadlock), does not count.

use std::collections::BTreeMap;

use litmus_core::instr::{BarrierKind, InstrKind};
use litmus_core::ir::Test;

use crate::events::{BarrierScope, Structure, SymId};
use crate::relation::Relation;

/// Per test: which threads' code holds a barrier without ID of each
/// (GPU, CTA, instance), and which threads share each warp.
#[derive(Clone, Debug, Default)]
pub struct BarrierStatics {
    participants: BTreeMap<(u32, u32, BarrierScope), Vec<usize>>,
    /// Let a barrier stay incomplete (its waiting events get no sync edge,
    /// not even from themselves) instead of discarding the execution: the
    /// termination check looks for exactly those executions.
    pub(crate) blocking: bool,
}

impl BarrierStatics {
    /// Collects, for `test`, the threads that take part in each barrier.
    pub fn new(test: &Test) -> BarrierStatics {
        let mut participants: BTreeMap<_, Vec<usize>> = BTreeMap::new();
        for (t, thread) in test.threads.iter().enumerate() {
            let p = thread.placement;
            for instr in &thread.body {
                let scope = match &instr.kind {
                    InstrKind::Barrier {
                        instance, id: None, ..
                    } => BarrierScope::Cta {
                        instance: instance.value as u32,
                    },
                    InstrKind::WarpSync => BarrierScope::Warp,
                    _ => continue,
                };
                let key = (p.gpu, p.cta, scope);
                let list = participants.entry(key).or_default();
                if !list.contains(&t) {
                    list.push(t);
                }
            }
        }
        BarrierStatics {
            participants,
            blocking: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Static(BarrierScope),
    Warp(Option<u32>, usize),
    Named(u32, u32),
}

/// The possible barrier synchronisation relations of an execution whose
/// values are known (`value` evaluates barrier ids and quorums). Empty when
/// some barrier can never complete or the threads deadlock.
pub fn sync_options(
    s: &Structure,
    statics: &BarrierStatics,
    value: &mut dyn FnMut(SymId) -> u32,
) -> Vec<Relation> {
    let n = s.len();
    // Group the barrier events; events stay in thread and program order.
    let mut groups: BTreeMap<(u32, u32, Key), Vec<usize>> = BTreeMap::new();
    let mut quorums = vec![None; n];
    for (i, e) in s.events.iter().enumerate() {
        let (Some(b), Some(t)) = (&e.barrier, e.thread) else {
            continue;
        };
        let p = s.placements[t];
        let key = match (b.scope, b.id) {
            (BarrierScope::Warp, _) => match p.warp {
                Some(w) => Key::Warp(Some(w), 0),
                // No warp given: the model cannot know who shares it.
                None => Key::Warp(None, t),
            },
            (BarrierScope::Cta { instance }, Some(id)) => Key::Named(instance, value(id)),
            (scope, None) => Key::Static(scope),
        };
        quorums[i] = b.quorum.map(&mut *value);
        groups.entry((p.gpu, p.cta, key)).or_default().push(i);
    }
    let mut options = vec![Relation::new(n)];
    for ((gpu, cta, key), members) in &groups {
        let group_options = if members.iter().any(|&e| quorums[e].is_some()) {
            quorum_options(s, members, &quorums, statics.blocking)
        } else {
            let participants = match key {
                Key::Static(scope) => statics
                    .participants
                    .get(&(*gpu, *cta, *scope))
                    .cloned()
                    .unwrap_or_default(),
                Key::Warp(Some(w), _) => {
                    let mut ts: Vec<usize> =
                        members.iter().filter_map(|&e| s.events[e].thread).collect();
                    // Every thread of that warp whose code has a warp sync.
                    if let Some(all) = statics.participants.get(&(*gpu, *cta, BarrierScope::Warp)) {
                        ts.extend(all.iter().filter(|&&t| s.placements[t].warp == Some(*w)));
                    }
                    ts.sort();
                    ts.dedup();
                    ts
                }
                _ => {
                    let mut ts: Vec<usize> =
                        members.iter().filter_map(|&e| s.events[e].thread).collect();
                    ts.dedup();
                    ts
                }
            };
            generation_options(s, members, &participants, statics.blocking)
        };
        if group_options.is_empty() {
            return Vec::new();
        }
        options = options
            .iter()
            .flat_map(|o| group_options.iter().map(move |g| o.union(g)))
            .collect();
    }
    options.retain(|sync| !deadlocks(s, sync));
    options.dedup();
    options
}

fn receives(s: &Structure, e: usize) -> bool {
    s.events[e]
        .barrier
        .is_some_and(|b| b.kind == BarrierKind::Sync)
}

/// Without a quorum: generation k of every participant synchronises.
fn generation_options(
    s: &Structure,
    members: &[usize],
    participants: &[usize],
    blocking: bool,
) -> Vec<Relation> {
    let mut by_thread: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &e in members {
        if let Some(t) = s.events[e].thread {
            by_thread.entry(t).or_default().push(e);
        }
    }
    let gens = by_thread.values().map(Vec::len).max().unwrap_or(0);
    let mut rel = Relation::new(s.len());
    for k in 0..gens {
        let generation: Vec<usize> = by_thread
            .values()
            .filter_map(|v| v.get(k).copied())
            .collect();
        let complete = participants
            .iter()
            .all(|t| by_thread.get(t).is_some_and(|v| v.len() > k))
            && generation.len() == by_thread.len();
        if !complete {
            if blocking {
                // This generation never completes, so no later one can.
                break;
            }
            return Vec::new();
        }
        for &a in &generation {
            for &b in &generation {
                if receives(s, b) {
                    rel.insert(a, b);
                }
            }
        }
    }
    vec![rel]
}

/// With a quorum: every arrival order (respecting program order), each
/// event waiting for the first max(position, Q) arrivals.
fn quorum_options(
    s: &Structure,
    members: &[usize],
    quorums: &[Option<u32>],
    blocking: bool,
) -> Vec<Relation> {
    let mut out: Vec<Relation> = Vec::new();
    let mut order = Vec::with_capacity(members.len());
    let mut used = vec![false; members.len()];
    permute(
        s, members, quorums, blocking, &mut order, &mut used, &mut out,
    );
    out
}

fn permute(
    s: &Structure,
    members: &[usize],
    quorums: &[Option<u32>],
    blocking: bool,
    order: &mut Vec<usize>,
    used: &mut [bool],
    out: &mut Vec<Relation>,
) {
    if order.len() == members.len() {
        let count = order.len();
        let mut rel = Relation::new(s.len());
        for (pos, &e) in order.iter().enumerate() {
            let q = quorums[e].map_or(count, |q| q as usize);
            let needed = (pos + 1).max(q);
            if needed > count {
                if blocking {
                    // Too few arrive: this event waits forever.
                    continue;
                }
                return;
            }
            if receives(s, e) {
                for &from in &order[..needed] {
                    rel.insert(from, e);
                }
            }
        }
        if !out.contains(&rel) {
            out.push(rel);
        }
        return;
    }
    for i in 0..members.len() {
        if used[i] {
            continue;
        }
        // Program order fixes the arrival order within a thread.
        let e = members[i];
        if members[..i]
            .iter()
            .zip(used.iter())
            .any(|(&m, &u)| !u && s.po.contains(m, e))
        {
            continue;
        }
        used[i] = true;
        order.push(e);
        permute(s, members, quorums, blocking, order, used, out);
        order.pop();
        used[i] = false;
    }
}

/// A deadlock: some event must wait, through barrier waits and program
/// order, for an event that comes after it in program order.
fn deadlocks(s: &Structure, sync: &Relation) -> bool {
    let hb = s.po.union(sync).closure();
    s.po.pairs().any(|(a, b)| hb.contains(b, a))
}
