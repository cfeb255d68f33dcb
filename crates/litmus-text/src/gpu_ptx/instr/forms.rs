//! The forms of GPU_PTX that become instructions of the IR: `ld`, `st`,
//! `membar`, `atom`, `setp` and the `bra` a `setp` guards. Apart from
//! `instr.rs` (the cell, its operands and qualifiers) for its length.

use std::collections::HashMap;

use crate::error::SyntaxError;
use litmus_core::instr::{
    Access, AtomOp, BranchCond, CacheOp, FenceSpelling, InstrKind, Scope, Sem,
};
use litmus_core::ir::Space;

use super::{ty, Builder, Built, Pred, Ty};

/// The qualifiers of `ld` and `st`.
const ACCESS_QUALS: &str = "`.volatile`, a state space (.global, .shared), a cache operator \
     (.ca, .cg, .cs, .lu, .cv, .wb, .wt) and a type (.s32, .u32, .b32)";
const ATOM_QUALS: &str = "a state space (.global, .shared), an operation (.exch, .add, .and, \
     .or, .xor, .min, .max, .inc, .dec, .cas) and a type (.s32, .u32, .b32)";

impl Builder<'_, '_> {
    /// `ld` (`load`) or `st`.
    pub(super) fn access(&mut self, load: bool) -> Option<Built> {
        let (mut volatile, mut space, mut cache, mut t) = (None, None, None, None);
        for q in self.raw.quals.clone() {
            if q.word == "volatile" {
                self.once(&mut volatile, (), q, "volatile");
            } else if let Some(s) = state_space(q.word) {
                self.once(&mut space, s, q, "state space");
            } else if let Some(c) = CacheOp::from_ptx(q.word) {
                self.once(&mut cache, c, q, "cache operator");
            } else if let Some(v) = ty(q.word) {
                self.once(&mut t, v, q, "type");
            } else {
                self.unknown_qual(q, ACCESS_QUALS);
            }
        }
        if self.failed {
            return None;
        }
        if let (Some(_), Some((_, c))) = (volatile, cache) {
            self.unsupported(
                c.offset,
                format!("`.volatile` with the cache operator `.{}`", c.word),
                "PTX has no such access: a volatile load or store takes no cache operator",
            );
            return None;
        }
        self.narrow(t)?;
        let access = if volatile.is_some() {
            Access {
                sem: Sem::Volatile,
                scope: None,
            }
        } else {
            Access::WEAK
        };
        let cache = cache.map(|(c, _)| c);
        let kind = if load {
            self.count(2, "2 operands (`ld.cg.s32 r, [a]`)")?;
            InstrKind::Load {
                dst: self.dst(0)?,
                loc: self.addr(1)?,
                access,
                cache,
            }
        } else {
            self.count(2, "2 operands (`st.cg.s32 [a], v`)")?;
            InstrKind::Store {
                loc: self.addr(0)?,
                value: self.value(1)?,
                access,
                cache,
            }
        };
        Some(Built::Instr(
            kind,
            space.map(|((w, s), q)| (w, s, q.offset)),
        ))
    }

    pub(super) fn membar(&mut self) -> Option<InstrKind> {
        let mut level = None;
        for q in self.raw.quals.clone() {
            let scope = match q.word {
                "cta" => Scope::Cta,
                "gl" => Scope::Gpu,
                "sys" => Scope::Sys,
                _ => {
                    self.unknown_qual(q, "a level (.cta, .gl or .sys)");
                    continue;
                }
            };
            self.once(&mut level, scope, q, "level");
        }
        self.count(0, "no operands")?;
        if self.failed {
            return None;
        }
        let Some((scope, _)) = level else {
            self.missing("a level (.cta, .gl or .sys)");
            return None;
        };
        Some(InstrKind::Fence {
            sem: Sem::Sc,
            scope,
            spelling: FenceSpelling::Membar,
        })
    }

    /// `atom[.space].<op>.<type> r, [a], v[, v2]`: PTX before 6.0 has no
    /// semantics or scope on `atom`; it is what PTX now spells
    /// `atom.relaxed.gpu`, and so is it in the IR.
    pub(super) fn atom(&mut self) -> Option<Built> {
        let (mut space, mut op, mut t) = (None, None, None);
        for q in self.raw.quals.clone() {
            if let Some(s) = state_space(q.word) {
                self.once(&mut space, s, q, "state space");
            } else if let Some(o) = AtomOp::from_ptx(q.word).filter(|o| *o != AtomOp::Sub) {
                self.once(&mut op, o, q, "operation");
            } else if let Some(v) = ty(q.word) {
                self.once(&mut t, v, q, "type");
            } else {
                self.unknown_qual(q, ATOM_QUALS);
            }
        }
        if self.failed {
            return None;
        }
        let Some((op, op_q)) = op else {
            self.missing(
                "an operation (.exch, .add, .and, .or, .xor, .min, .max, .inc, .dec or .cas)",
            );
            return None;
        };
        let ty = self.narrow(t)?;
        if ty == Ty::S32 && matches!(op, AtomOp::Min | AtomOp::Max) {
            self.unsupported(
                op_q.offset,
                format!("`atom.{}.s32`", op.as_str()),
                "the IR's `atom.min` and `atom.max` compare unsigned: write `.u32`",
            );
            return None;
        }
        let (n, expected) = if op == AtomOp::Cas {
            (4, "4 operands (`atom.cas.b32 r, [a], compared, new`)")
        } else {
            (3, "3 operands (`atom.add.s32 r, [a], v`)")
        };
        self.count(n, expected)?;
        let kind = InstrKind::Atom {
            dst: Some(self.dst(0)?),
            op,
            loc: self.addr(1)?,
            access: Access::new(Sem::Relaxed, Scope::Gpu),
            operand: self.value(2)?,
            new: if n == 4 { Some(self.value(3)?) } else { None },
        };
        Some(Built::Instr(
            kind,
            space.map(|((w, s), q)| (w, s, q.offset)),
        ))
    }

    /// `setp.<cmp>.<type> p, a, b`: remembered, not an instruction.
    pub(super) fn setp(&mut self) -> Option<Built> {
        let (mut cmp, mut t) = (None, None);
        for q in self.raw.quals.clone() {
            let c = match q.word {
                "eq" => Some(BranchCond::Eq),
                "ne" => Some(BranchCond::Ne),
                "lt" | "le" | "gt" | "ge" | "lo" | "ls" | "hi" | "hs" => None,
                w => {
                    if let Some(v) = ty(w) {
                        self.once(&mut t, v, q, "type");
                    } else {
                        self.unknown_qual(
                            q,
                            "a comparison (.eq or .ne) and a type (.s32, .u32 or .b32)",
                        );
                    }
                    continue;
                }
            };
            match c {
                Some(c) => self.once(&mut cmp, c, q, "comparison"),
                None => self.unsupported(
                    q.offset,
                    format!("`setp.{}`", q.word),
                    "the IR's branches test equality only: use `.eq` or `.ne`",
                ),
            }
        }
        if self.failed {
            return None;
        }
        let Some((cond, _)) = cmp else {
            self.missing("a comparison (.eq or .ne)");
            return None;
        };
        self.narrow(t)?;
        self.count(3, "3 operands (`setp.eq.s32 p, a, b`)")?;
        let p = self.dst(0)?;
        let a = self.value(1)?;
        let b = self.value(2)?;
        Some(Built::Setp(p.text, Pred { cond, a, b }))
    }

    /// `bra L`, or `@p bra L` / `@!p bra L` after a `setp` of `p`.
    pub(super) fn bra(&mut self, preds: &HashMap<String, Pred>) -> Option<InstrKind> {
        if let Some(q) = self.raw.quals.first().copied() {
            self.unknown_qual(q, "no qualifiers");
            return None;
        }
        self.count(1, "1 operand (`bra L`)")?;
        let target = self.name(0, "a label")?;
        let Some((p, negated)) = self.raw.guard else {
            return Some(InstrKind::Branch { cond: None, target });
        };
        let Some(pred) = preds.get(p.text) else {
            self.error(p.offset, SyntaxError::UnknownPredicate(p.text.to_string()));
            return None;
        };
        let cond = match (pred.cond, negated) {
            (c, false) => c,
            (BranchCond::Eq, true) => BranchCond::Ne,
            (BranchCond::Ne, true) => BranchCond::Eq,
        };
        Some(InstrKind::Branch {
            cond: Some((cond, pred.a.clone(), pred.b.clone())),
            target,
        })
    }
}

/// `.global` or `.shared` on an access: the word and the space.
fn state_space(word: &str) -> Option<(&'static str, Space)> {
    match word {
        "global" => Some(("global", Space::Global)),
        "shared" => Some(("shared", Space::Shared)),
        _ => None,
    }
}
