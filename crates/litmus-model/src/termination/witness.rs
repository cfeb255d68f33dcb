//! Whether one consistent execution of the stop-at-spins variant is a
//! non-terminating one, and where its threads are stuck.
//!
//! Every thread ends in one of three ways: it finishes, it stopped at a
//! spin loop ([`super::spin`]), or it reached a barrier that never
//! completes (the search keeps those, see `BarrierStatics::blocking`). A
//! thread blocked at a barrier never runs what follows, so the events
//! after its first incomplete wait are cut; the execution is a witness
//! when something is stuck and the cut execution still holds together:
//!
//! - no remaining read reads from a cut write;
//! - every read of a stopped loop's iteration reads a write that no
//!   remaining write follows in coherence: its value is final, so the
//!   iteration reads the same forever and jumps back forever.
//!
//! Cutting removes events and edges only, so the cut execution is
//! consistent under every axiom of the shipped models (all of them say a
//! relation is acyclic, irreflexive or empty).

use litmus_core::ir::Test;

use super::spin::{SpinLoop, MARKER};
use super::{Stuck, Where};
use crate::events::{eval, EventId, EventKind, Structure};
use crate::model::Execution;

/// The stuck threads of `x` when it is a non-terminating execution.
pub(crate) fn stuck_threads(
    test: &Test,
    loops: &[SpinLoop],
    x: &Execution,
    values: &[u32],
) -> Option<Vec<Stuck>> {
    let s = x.s;
    let mut kept = vec![true; s.len()];
    let mut stops: Vec<(usize, Stop)> = Vec::new();
    for t in 0..test.threads.len() {
        if let Some(stop) = stop_of(s, x, loops, t) {
            if let Stop::Barrier(e) = stop {
                for (k, ev) in s.events.iter().enumerate().skip(e + 1) {
                    if ev.thread == Some(t) {
                        kept[k] = false;
                    }
                }
            }
            stops.push((t, stop));
        }
    }
    if stops.is_empty() {
        return None;
    }
    let source = |r: EventId| (0..s.len()).find(|&w| x.rf.contains(w, r));
    let rf_closed = s
        .reads
        .iter()
        .filter(|&&r| kept[r])
        .all(|&r| source(r).is_some_and(|w| kept[w]));
    if !rf_closed {
        return None;
    }
    let mut stuck = Vec::new();
    for (t, stop) in stops {
        let at = match stop {
            Stop::Barrier(e) => {
                let pc = s.events[e].instr.unwrap_or(0);
                Where::Barrier {
                    instr: pc,
                    text: litmus_text::print_instr(&test.threads[t].body[pc].kind, test),
                }
            }
            Stop::Spin(l) => {
                let mut reads = Vec::new();
                for &r in &s.reads {
                    let ev = &s.events[r];
                    if ev.thread != Some(t) || !ev.instr.is_some_and(|pc| l.holds(pc)) {
                        continue;
                    }
                    let w = source(r)?;
                    let overwritten = (0..s.len()).any(|w2| kept[w2] && x.co.contains(w, w2));
                    if overwritten {
                        return None;
                    }
                    let loc = ev
                        .loc
                        .map_or(String::new(), |l| test.locations[l].name.text.clone());
                    reads.push((loc, values[r]));
                }
                Where::Spin {
                    label: l.label.clone(),
                    instr: l.branch,
                    reads,
                }
            }
        };
        stuck.push(Stuck {
            thread: test.threads[t].name.text.clone(),
            at,
        });
    }
    Some(stuck)
}

/// How a thread of the execution ends, when it does not finish.
enum Stop<'l> {
    /// At its first barrier wait that never completes.
    Barrier(EventId),
    /// In a spin loop.
    Spin(&'l SpinLoop),
}

fn stop_of<'l>(s: &Structure, x: &Execution, loops: &'l [SpinLoop], t: usize) -> Option<Stop<'l>> {
    let blocked = s.events.iter().enumerate().find(|(e, ev)| {
        ev.thread == Some(t)
            && ev.kind == EventKind::Barrier
            && ev
                .barrier
                .is_some_and(|b| b.kind == litmus_core::instr::BarrierKind::Sync)
            && !x.bar.contains(*e, *e)
    });
    if let Some((e, _)) = blocked {
        return Some(Stop::Barrier(e));
    }
    let regs = &s.regs[t];
    let sym = regs.iter().find(|(r, _)| r == MARKER)?.1;
    let k = eval(&s.syms, sym, &mut |_| None)?;
    loops.get((k as usize).checked_sub(1)?).map(Stop::Spin)
}
