//! The state of one thread part-way along one control path: where it is,
//! what its registers hold (symbolic values), the path so far, and how
//! often it took each backward jump.

use std::collections::HashMap;

use litmus_core::ir::Operand;

use super::{bin, Event, EventId, Sym, SymId, ThreadPath};

/// One thread part-way along one control path.
#[derive(Clone)]
pub(super) struct State {
    /// The next instruction.
    pub(super) pc: usize,
    /// What each register holds.
    pub(super) regs: HashMap<String, SymId>,
    /// The path so far.
    pub(super) path: ThreadPath,
    /// The reads the branches so far tested: every later event depends
    /// on them.
    pub(super) ctrl_reads: Vec<EventId>,
    /// How often each backward branch (by its index) was taken.
    pub(super) back_taken: HashMap<usize, u32>,
    /// The bulk copies issued so far and their groups.
    pub(super) bulk: Bulk,
}

/// A thread's bulk copies: each is numbered (a bit of a `u64`) so that a
/// completion can name the copies it waits for.
#[derive(Clone, Debug, Default)]
pub(super) struct Bulk {
    /// How many copies the thread issued.
    pub(super) issued: u32,
    /// The bulk stores issued since the last `commit_group`.
    pub(super) open: u64,
    /// The committed groups, oldest first.
    pub(super) groups: Vec<u64>,
}

impl State {
    /// Adds a symbolic value.
    pub(super) fn sym(&mut self, s: Sym) -> SymId {
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

    /// The value of an operand.
    pub(super) fn operand(&mut self, op: &Operand) -> SymId {
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

    /// Adds an event, with the control dependencies so far.
    pub(super) fn push(&mut self, e: Event) -> EventId {
        self.path.events.push(e);
        self.path.ctrl.push(self.ctrl_reads.clone());
        self.path.events.len() - 1
    }
}
