//! One cell of an instruction row: an instruction, a label, or nothing.
//!
//! Qualifiers are read in any order and stored as written; which
//! combinations PTX allows (`ld.release`, a missing scope) is left to
//! [`litmus_core::validate()`], so those mistakes get the validator's messages. What
//! the IR cannot hold (an unknown qualifier, two scopes) is an error here.

use std::collections::HashSet;

use crate::cursor::Cursor;
use crate::error::{Errors, SyntaxError};
use crate::lex::{Punct, Tok, Token};
use litmus_core::instr::{
    Access, AtomOp, BinOp, BranchCond, CacheOp, Instr, InstrKind, Scope, Sem,
};
use litmus_core::ir::{Imm, Name, Operand, Origin};
use litmus_core::proxy::Proxy;

mod async_ops;
mod sync;

/// Parses the cell under `cur` (which ends at the cell's separator).
/// `locations` are the declared location names: `ld r, x` with no
/// qualifier loads when `x` is one, and copies a register otherwise.
/// Returns `None` for an empty cell and for a cell with errors (reported).
pub(crate) fn cell(
    cur: &mut Cursor<'_, '_>,
    locations: &HashSet<&str>,
    errors: &mut Errors,
    on_host: bool,
) -> Option<Instr> {
    if cur.at_end() {
        return None;
    }
    let first = cur.bump();
    let Tok::Ident(word) = first.tok else {
        errors.push(
            first.offset,
            SyntaxError::Expected {
                expected: "an instruction or a label",
                found: first.found(),
            },
        );
        return None;
    };
    let origin = Origin(first.offset);
    if cur.eat(Punct::Colon) {
        if !cur.at_end() {
            let t = cur.peek();
            errors.push(
                t.offset,
                SyntaxError::Expected {
                    expected: "`|` or `;` after the label",
                    found: t.found(),
                },
            );
            return None;
        }
        return Some(Instr::new(
            InstrKind::Label(Name::new(word, origin)),
            origin,
        ));
    }
    let mut quals = Vec::new();
    while cur.eat(Punct::Dot) {
        let t = cur.peek();
        match t.tok {
            Tok::Ident(q) => {
                cur.bump();
                quals.push(Qual {
                    word: q,
                    offset: t.offset,
                });
            }
            _ => {
                errors.push(
                    t.offset,
                    SyntaxError::Expected {
                        expected: "a qualifier after `.`",
                        found: t.found(),
                    },
                );
                return None;
            }
        }
    }
    let ops = operands(cur, errors)?;
    let mut b = Builder {
        word,
        origin,
        quals,
        ops,
        errors,
        failed: false,
        on_host,
    };
    let kind = b.build(locations);
    if b.failed {
        None
    } else {
        kind.map(|k| Instr::new(k, origin))
    }
}

#[derive(Clone, Copy)]
struct Qual<'s> {
    word: &'s str,
    offset: u32,
}

/// An operand as written, before the instruction says what it must be.
#[derive(Clone, Copy)]
struct Op<'s> {
    tok: Token<'s>,
}

fn operands<'s>(cur: &mut Cursor<'_, 's>, errors: &mut Errors) -> Option<Vec<Op<'s>>> {
    let mut ops = Vec::new();
    if cur.at_end() {
        return Some(ops);
    }
    loop {
        let t = cur.peek();
        match t.tok {
            Tok::Ident(_) | Tok::Int(_) => {
                cur.bump();
                ops.push(Op { tok: t });
            }
            // `[x]`: an address, as PTX writes the operands of bulk copies
            // and mbarriers; a location either way.
            Tok::Punct(Punct::LBracket) => {
                cur.bump();
                let inner = cur.peek();
                if !matches!(inner.tok, Tok::Ident(_)) {
                    errors.push(
                        inner.offset,
                        SyntaxError::Expected {
                            expected: "a location inside `[...]`",
                            found: inner.found(),
                        },
                    );
                    return None;
                }
                cur.bump();
                let close = cur.peek();
                if !cur.eat(Punct::RBracket) {
                    errors.push(
                        close.offset,
                        SyntaxError::Expected {
                            expected: "`]` after the location",
                            found: close.found(),
                        },
                    );
                    return None;
                }
                ops.push(Op { tok: inner });
            }
            _ => {
                errors.push(
                    t.offset,
                    SyntaxError::Expected {
                        expected: "an operand (a register, a location, a label or a number)",
                        found: t.found(),
                    },
                );
                return None;
            }
        }
        if cur.at_end() {
            return Some(ops);
        }
        let t = cur.peek();
        if !cur.eat(Punct::Comma) {
            errors.push(
                t.offset,
                SyntaxError::Expected {
                    expected: "`,` between operands, or `|` or `;` after the instruction",
                    found: t.found(),
                },
            );
            return None;
        }
    }
}

const ACCESS_QUALS: &str = "semantics (.weak, .relaxed, .acquire, .release, .volatile), \
     a scope (.cta, .cluster, .gpu, .sys) or a cache operator (.ca, .cg, .cs, .lu, .cv, .wb, .wt)";
const ATOM_QUALS: &str = "semantics (.relaxed, .acquire, .release, .acq_rel), a scope \
     (.cta, .cluster, .gpu, .sys) and an operation (.exch, .add, .sub, .and, .or, .xor, .min, \
     .max, .inc, .dec, .cas)";

struct Builder<'e, 's> {
    word: &'s str,
    origin: Origin,
    quals: Vec<Qual<'s>>,
    ops: Vec<Op<'s>>,
    errors: &'e mut Errors,
    failed: bool,
    /// Whether the cell is a host thread's, where an atomic with no scope
    /// written is `.sys` rather than `.gpu`.
    on_host: bool,
}

impl<'s> Builder<'_, 's> {
    fn error(&mut self, offset: u32, e: SyntaxError) {
        self.failed = true;
        self.errors.push(offset, e);
    }

    fn build(&mut self, locations: &HashSet<&str>) -> Option<InstrKind> {
        let word = self.word;
        match word {
            "ld" => self.load(locations),
            "st" => self.store(),
            "suld" | "tld" | "cold" => self.proxy_load(),
            "sust" => self.proxy_store(),
            "mov" => {
                self.no_quals();
                self.count(2, 2, "2 operands (`mov r, v`)")?;
                Some(InstrKind::Mov {
                    dst: self.reg(0)?,
                    src: self.value(1)?,
                })
            }
            "fence" => self.fence(),
            "membar" => self.membar(),
            "atom" | "red" => self.atom(word == "atom"),
            "bar" => self.barrier(),
            "cp" => self.bulk_copy(),
            "mbarrier" => self.mbarrier(),
            "goto" => {
                self.no_quals();
                self.count(1, 1, "1 operand (`goto L`)")?;
                Some(InstrKind::Branch {
                    cond: None,
                    target: self.label(0)?,
                })
            }
            "beq" | "bne" => {
                self.no_quals();
                self.count(3, 3, "3 operands (`beq a, b, L`)")?;
                let cond = if word == "beq" {
                    BranchCond::Eq
                } else {
                    BranchCond::Ne
                };
                Some(InstrKind::Branch {
                    cond: Some((cond, self.value(0)?, self.value(1)?)),
                    target: self.label(2)?,
                })
            }
            _ => match BinOp::from_ptx(word) {
                Some(op) => {
                    self.no_quals();
                    self.count(3, 3, "3 operands (`add r, a, b`)")?;
                    Some(InstrKind::BinOp {
                        dst: self.reg(0)?,
                        op,
                        a: self.value(1)?,
                        b: self.value(2)?,
                    })
                }
                None => {
                    self.error(
                        self.origin.0,
                        SyntaxError::UnknownInstruction(word.to_string()),
                    );
                    None
                }
            },
        }
    }

    fn no_quals(&mut self) {
        if let Some(q) = self.quals.first().copied() {
            self.unknown_qual(q, "no qualifiers");
        }
    }

    fn unknown_qual(&mut self, q: Qual<'s>, expected: &'static str) {
        self.error(
            q.offset,
            SyntaxError::UnknownQualifier {
                instr: self.word.to_string(),
                qual: q.word.to_string(),
                expected,
            },
        );
    }

    /// Sets `slot` to the qualifier `q` names, or reports the second of two.
    fn once<T>(
        &mut self,
        slot: &mut Option<(T, &'s str)>,
        value: T,
        q: Qual<'s>,
        what: &'static str,
    ) {
        match slot {
            Some((_, first)) => {
                let first = first.to_string();
                self.error(
                    q.offset,
                    SyntaxError::DuplicateQualifier {
                        instr: self.word.to_string(),
                        what,
                        first,
                        second: q.word.to_string(),
                    },
                );
            }
            None => *slot = Some((value, q.word)),
        }
    }

    fn count(&mut self, min: usize, max: usize, expected: &'static str) -> Option<()> {
        let n = self.ops.len();
        if (min..=max).contains(&n) {
            Some(())
        } else {
            self.error(
                self.origin.0,
                SyntaxError::OperandCount {
                    instr: self.word.to_string(),
                    expected,
                    found: n,
                },
            );
            None
        }
    }

    fn bad_operand(&mut self, i: usize, expected: &'static str) {
        let t = self.ops[i].tok;
        let found = match t.tok {
            Tok::Int(_) => format!("the number `{}`", t.text),
            _ => format!("`{}`", t.text),
        };
        self.error(
            t.offset,
            SyntaxError::BadOperand {
                instr: self.word.to_string(),
                index: i + 1,
                expected,
                found,
            },
        );
    }

    fn name(&mut self, i: usize, expected: &'static str) -> Option<Name> {
        let t = self.ops[i].tok;
        match t.tok {
            Tok::Ident(w) => Some(Name::new(w, Origin(t.offset))),
            _ => {
                self.bad_operand(i, expected);
                None
            }
        }
    }

    fn reg(&mut self, i: usize) -> Option<Name> {
        self.name(i, "a register")
    }

    fn loc(&mut self, i: usize) -> Option<Name> {
        self.name(i, "a location")
    }

    fn label(&mut self, i: usize) -> Option<Name> {
        self.name(i, "a label")
    }

    fn imm(&mut self, i: usize) -> Option<Imm> {
        let t = self.ops[i].tok;
        match t.tok {
            Tok::Int(v) => Some(Imm::new(v, Origin(t.offset))),
            _ => {
                self.bad_operand(i, "a number");
                None
            }
        }
    }

    fn value(&mut self, i: usize) -> Option<Operand> {
        let t = self.ops[i].tok;
        Some(match t.tok {
            Tok::Int(v) => Operand::Imm(Imm::new(v, Origin(t.offset))),
            Tok::Ident(w) => Operand::Reg(Name::new(w, Origin(t.offset))),
            _ => {
                self.bad_operand(i, "a register or a number");
                return None;
            }
        })
    }

    /// The qualifiers of `ld` and `st` (`expected` lists them), or with
    /// `cache` false those of `suld`, `sust`, `tld` and `cold`.
    fn access_quals(
        &mut self,
        cache_ok: bool,
        expected: &'static str,
    ) -> (Access, Option<CacheOp>) {
        let (mut sem, mut scope, mut cache) = (None, None, None);
        for q in self.quals.clone() {
            if let Some(s) = Sem::from_ptx(q.word) {
                self.once(&mut sem, s, q, "semantics");
            } else if let Some(s) = Scope::from_ptx(q.word) {
                self.once(&mut scope, s, q, "scope");
            } else if let (true, Some(c)) = (cache_ok, CacheOp::from_ptx(q.word)) {
                self.once(&mut cache, c, q, "cache operator");
            } else {
                self.unknown_qual(q, expected);
            }
        }
        let access = Access {
            sem: sem.map_or(Sem::Weak, |s| s.0),
            scope: scope.map(|s| s.0),
        };
        (access, cache.map(|c| c.0))
    }

    fn load(&mut self, locations: &HashSet<&str>) -> Option<InstrKind> {
        self.count(2, 2, "2 operands (`ld.<sem>.<scope> r, x`)")?;
        let dst = self.reg(0)?;
        let plain = self.quals.is_empty();
        if plain {
            // Dat3M: `ld r, v` with no qualifier is an assignment unless `v`
            // is a declared location.
            if let Tok::Ident(w) = self.ops[1].tok.tok {
                if locations.contains(w) {
                    let loc = self.loc(1)?;
                    return Some(InstrKind::Load {
                        dst,
                        loc,
                        access: Access::WEAK,
                        cache: None,
                    });
                }
            }
            return Some(InstrKind::Mov {
                dst,
                src: self.value(1)?,
            });
        }
        let (access, cache) = self.access_quals(true, ACCESS_QUALS);
        Some(InstrKind::Load {
            dst,
            loc: self.loc(1)?,
            access,
            cache,
        })
    }

    fn store(&mut self) -> Option<InstrKind> {
        self.count(2, 2, "2 operands (`st.<sem>.<scope> x, v`)")?;
        let (access, cache) = self.access_quals(true, ACCESS_QUALS);
        Some(InstrKind::Store {
            loc: self.loc(0)?,
            value: self.value(1)?,
            access,
            cache,
        })
    }

    /// `suld`, `tld`, `cold`: qualifiers as for `ld` (validation keeps
    /// them weak), no cache operator.
    fn proxy_load(&mut self) -> Option<InstrKind> {
        let proxy = Proxy::from_load_word(self.word)?;
        self.count(2, 2, "2 operands (`suld.weak r, s`)")?;
        let (access, _) = self.access_quals(false, "semantics (.weak)");
        Some(InstrKind::ProxyLoad {
            dst: self.reg(0)?,
            loc: self.loc(1)?,
            proxy,
            access,
        })
    }

    fn proxy_store(&mut self) -> Option<InstrKind> {
        self.count(2, 2, "2 operands (`sust.weak s, v`)")?;
        let (access, _) = self.access_quals(false, "semantics (.weak)");
        Some(InstrKind::ProxyStore {
            loc: self.loc(0)?,
            value: self.value(1)?,
            proxy: Proxy::Surface,
            access,
        })
    }

    fn atom(&mut self, atom: bool) -> Option<InstrKind> {
        let (mut sem, mut scope, mut op) = (None, None, None);
        for q in self.quals.clone() {
            if let Some(s) = Sem::from_ptx(q.word) {
                self.once(&mut sem, s, q, "semantics");
            } else if let Some(s) = Scope::from_ptx(q.word) {
                self.once(&mut scope, s, q, "scope");
            } else if let Some(o) = AtomOp::from_ptx(q.word) {
                self.once(&mut op, o, q, "operation");
            } else {
                self.unknown_qual(q, ATOM_QUALS);
            }
        }
        if self.failed {
            return None;
        }
        let Some((op, _)) = op else {
            self.missing(
                "an operation (.exch, .add, .sub, .and, .or, .xor, .min, .max, .inc, .dec or .cas)",
            );
            return None;
        };
        // Defaults: no semantics is `.relaxed` (as in PTX), no scope `.gpu`
        // (PTX's default for atomics is `.gpu` too), or `.sys` on a host
        // thread, whose atomics are system-wide.
        let default_scope = if self.on_host { Scope::Sys } else { Scope::Gpu };
        let access = Access {
            sem: sem.map_or(Sem::Relaxed, |s| s.0),
            scope: Some(scope.map_or(default_scope, |s| s.0)),
        };
        let (dst, first) = if atom {
            self.count(
                3,
                4,
                "3 or 4 operands (`atom.<sem>.<scope>.<op> r, x, v[, v2]`)",
            )?;
            (Some(self.reg(0)?), 1)
        } else if op == AtomOp::Cas {
            self.count(2, 3, "3 operands (`red.<sem>.<scope>.cas x, v, v2`)")?;
            (None, 0)
        } else {
            // Three operands on a `red` are most likely an `atom` with its
            // result register: say so rather than misread them.
            self.count(
                2,
                2,
                "2 operands (`red.<sem>.<scope>.<op> x, v`; `atom` has a result register)",
            )?;
            (None, 0)
        };
        let loc = self.loc(first)?;
        let operand = self.value(first + 1)?;
        let new = if self.ops.len() > first + 2 {
            Some(self.value(first + 2)?)
        } else {
            None
        };
        Some(InstrKind::Atom {
            dst,
            op,
            loc,
            access,
            operand,
            new,
        })
    }
}
