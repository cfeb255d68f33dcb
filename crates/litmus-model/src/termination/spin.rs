//! Spin loops, and the variant of a test in which a spinning thread stops.
//!
//! A spin loop is a backward jump whose body only reads memory and
//! branches (loads, fences, labels, branches): each iteration is decided by
//! the values it reads and changes nothing, so a thread spins forever
//! exactly when one iteration can read values that no later write changes
//! and that jump back. The variant replaces each such backward jump with a
//! forward jump to a stop that sets a marker register: the iteration that
//! would jump back ends the thread instead, and the leaf judge
//! ([`super::witness`]) sees from the marker which loop it stopped in.
//! Earlier iterations need not be unrolled: they read, write nothing, and
//! the iteration that settles can read what they read.

use std::collections::HashMap;

use litmus_core::instr::{Instr, InstrKind};
use litmus_core::ir::{Imm, Name, Operand, Origin, Test};

/// The register a stopped thread sets to its loop's index + 1. `#` cannot
/// start a register in either front end, so it never meets a user's.
pub(crate) const MARKER: &str = "#spinning";

/// A spin loop: the instructions `start..=branch` of `thread`.
#[derive(Clone, Debug)]
pub(crate) struct SpinLoop {
    pub thread: usize,
    /// The label the loop jumps back to.
    pub label: String,
    /// The label's instruction index.
    pub start: usize,
    /// The backward jump's instruction index.
    pub branch: usize,
}

impl SpinLoop {
    /// Whether the instruction at `pc` belongs to the loop's body.
    pub fn holds(&self, pc: usize) -> bool {
        (self.start..=self.branch).contains(&pc)
    }
}

/// The spin loops of `test`, thread by thread in program order.
pub(crate) fn spin_loops(test: &Test) -> Vec<SpinLoop> {
    let mut out = Vec::new();
    for (t, thread) in test.threads.iter().enumerate() {
        let labels: HashMap<&str, usize> = thread
            .body
            .iter()
            .enumerate()
            .filter_map(|(i, instr)| match &instr.kind {
                InstrKind::Label(l) => Some((l.text.as_str(), i)),
                _ => None,
            })
            .collect();
        for (pc, instr) in thread.body.iter().enumerate() {
            let InstrKind::Branch { target, .. } = &instr.kind else {
                continue;
            };
            let Some(&start) = labels.get(target.text.as_str()) else {
                continue;
            };
            if start <= pc && thread.body[start..=pc].iter().all(|i| only_reads(&i.kind)) {
                out.push(SpinLoop {
                    thread: t,
                    label: target.text.clone(),
                    start,
                    branch: pc,
                });
            }
        }
    }
    out
}

/// Instructions that leave memory and the registers the loop does not
/// load unchanged.
fn only_reads(kind: &InstrKind) -> bool {
    matches!(
        kind,
        InstrKind::Load { .. }
            | InstrKind::ProxyLoad { .. }
            | InstrKind::Label(_)
            | InstrKind::Branch { .. }
            | InstrKind::Fence { .. }
            | InstrKind::ProxyFence(_)
    )
}

/// `test` with each spin loop's backward jump sent to a stop that sets
/// [`MARKER`] to the loop's index in `loops` + 1.
pub(crate) fn stop_at_spins(test: &Test, loops: &[SpinLoop]) -> Test {
    let mut out = test.clone();
    let name = |s: String| Name::new(s, Origin::NONE);
    let goto = |target: &str| {
        Instr::new(
            InstrKind::Branch {
                cond: None,
                target: name(target.to_string()),
            },
            Origin::NONE,
        )
    };
    for (t, thread) in out.threads.iter_mut().enumerate() {
        let mine: Vec<(usize, &SpinLoop)> = loops
            .iter()
            .enumerate()
            .filter(|(_, l)| l.thread == t)
            .collect();
        if mine.is_empty() {
            continue;
        }
        let done = "#done";
        let mut tail = vec![goto(done)];
        for &(k, l) in &mine {
            let stop = format!("#spin{k}");
            if let InstrKind::Branch { target, .. } = &mut thread.body[l.branch].kind {
                *target = name(stop.clone());
            }
            tail.push(Instr::new(InstrKind::Label(name(stop)), Origin::NONE));
            tail.push(Instr::new(
                InstrKind::Mov {
                    dst: name(MARKER.to_string()),
                    src: Operand::Imm(Imm::new(k as i64 + 1, Origin::NONE)),
                },
                Origin::NONE,
            ));
            tail.push(goto(done));
        }
        tail.push(Instr::new(
            InstrKind::Label(name(done.to_string())),
            Origin::NONE,
        ));
        thread.body.extend(tail);
    }
    out
}
