//! Symbolic values: what a register or a write holds before the
//! enumeration knows what each read returns, and how such a value is
//! evaluated once it does.

use litmus_core::instr::{AtomOp, BinOp};

use super::EventId;

/// Index of a symbolic value in a [`Structure`](super::Structure) (or a path while building).
pub type SymId = usize;

/// A symbolic 32-bit value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sym {
    /// A known value.
    Const(u32),
    /// The value returned by a read event.
    Read(EventId),
    /// `a op b`, modulo 2^32.
    Bin(BinOp, SymId, SymId),
    /// The value an RMW writes, from the value it read (`old`).
    Rmw {
        /// The operation.
        op: AtomOp,
        /// The value the RMW read.
        old: SymId,
        /// The operand of `op` (the compared value for `cas`).
        operand: SymId,
        /// The value a successful `cas` writes; `None` for other ops.
        new: Option<SymId>,
    },
}

/// Applies register arithmetic modulo 2^32.
pub fn bin(op: BinOp, a: u32, b: u32) -> u32 {
    match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
    }
}

/// The value an RMW writes (PTX `.u32` semantics: `min`, `max`, `inc` and
/// `dec` compare unsigned).
pub fn rmw(op: AtomOp, old: u32, operand: u32, new: Option<u32>) -> u32 {
    match op {
        AtomOp::Exch => operand,
        AtomOp::Add => old.wrapping_add(operand),
        AtomOp::Sub => old.wrapping_sub(operand),
        AtomOp::And => old & operand,
        AtomOp::Or => old | operand,
        AtomOp::Xor => old ^ operand,
        AtomOp::Min => old.min(operand),
        AtomOp::Max => old.max(operand),
        AtomOp::Inc => {
            if old >= operand {
                0
            } else {
                old.wrapping_add(1)
            }
        }
        AtomOp::Dec => {
            if old == 0 || old > operand {
                operand
            } else {
                old - 1
            }
        }
        // A failed cas writes back the value it read (as Dat3M does).
        AtomOp::Cas => {
            if old == operand {
                new.unwrap_or(old)
            } else {
                old
            }
        }
    }
}

/// Evaluates a symbolic value, given the values of reads known so far.
pub fn eval(syms: &[Sym], s: SymId, read: &mut dyn FnMut(EventId) -> Option<u32>) -> Option<u32> {
    Some(match &syms[s] {
        Sym::Const(c) => *c,
        Sym::Read(r) => read(*r)?,
        Sym::Bin(op, a, b) => {
            let a = eval(syms, *a, read)?;
            bin(*op, a, eval(syms, *b, read)?)
        }
        Sym::Rmw {
            op,
            old,
            operand,
            new,
        } => {
            let operand = eval(syms, *operand, read)?;
            let new = match new {
                Some(n) => Some(eval(syms, *n, read)?),
                None => None,
            };
            let old = if *op == AtomOp::Exch {
                0
            } else {
                eval(syms, *old, read)?
            };
            rmw(*op, old, operand, new)
        }
    })
}

/// The reads a symbolic value is computed from.
pub fn sym_reads(syms: &[Sym], s: SymId, out: &mut Vec<EventId>) {
    match &syms[s] {
        Sym::Const(_) => {}
        Sym::Read(r) => out.push(*r),
        Sym::Bin(_, a, b) => {
            sym_reads(syms, *a, out);
            sym_reads(syms, *b, out);
        }
        Sym::Rmw {
            op,
            old,
            operand,
            new,
        } => {
            if *op != AtomOp::Exch {
                sym_reads(syms, *old, out);
            }
            sym_reads(syms, *operand, out);
            if let Some(n) = new {
                sym_reads(syms, *n, out);
            }
        }
    }
}
