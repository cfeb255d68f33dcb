//! One cell of GPU_PTX code: `[L:] [@[!]p] word[.qual]* operands`.
//!
//! herd's instructions carry a type (`.s32`); the IR's values are 32-bit
//! words, so 32-bit types are read and 64-bit ones refused. Addresses
//! (`[r1]`) resolve to the location the init block gave the register.
//! The IR has conditional branches, not predicates: `setp.eq|ne` is
//! remembered, and the `@p bra` it guards becomes `beq`/`bne` on the
//! `setp`'s operands, which is only right while those operands are
//! unchanged and no jump can arrive in between; anything else is refused.

use std::collections::HashMap;

use crate::cursor::Cursor;
use crate::error::{Errors, SyntaxError};
use crate::lex::{Punct, Tok, Token};
use litmus_core::instr::{BinOp, BranchCond, Instr, InstrKind};
use litmus_core::ir::{Imm, Name, Operand, Origin, Space};

use super::{Registers, SpaceUse};

mod forms;

const TYPE: &str = "a type (.s32, .u32 or .b32)";

/// A `setp` the reader remembers for the `@p bra` it guards.
#[derive(Clone)]
struct Pred {
    cond: BranchCond,
    a: Operand,
    b: Operand,
}

/// What the reader knows about each thread while reading its cells in
/// program order: the predicates still usable.
pub(super) struct Threads {
    preds: Vec<HashMap<String, Pred>>,
}

/// What a cell needs from the rest of the reader.
pub(super) struct Context<'a> {
    pub(super) registers: &'a Registers,
    pub(super) spaces: &'a mut Vec<SpaceUse>,
    pub(super) errors: &'a mut Errors,
}

#[derive(Clone, Copy)]
struct Qual<'s> {
    word: &'s str,
    offset: u32,
}

/// An operand as written: a register, label or number, or an address.
#[derive(Clone, Copy)]
enum Op<'s> {
    Plain(Token<'s>),
    /// `[r]`: the token of `r`.
    Addr(Token<'s>),
}

impl Op<'_> {
    fn tok(&self) -> Token<'_> {
        match *self {
            Op::Plain(t) | Op::Addr(t) => t,
        }
    }
}

/// The operand types of herd's instructions.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ty {
    S32,
    U32,
    B32,
    /// `.s64`, `.u64`, `.b64`: refused on instructions.
    Wide,
    Pred,
}

fn ty(word: &str) -> Option<Ty> {
    Some(match word {
        "s32" => Ty::S32,
        "u32" => Ty::U32,
        "b32" => Ty::B32,
        "s64" | "u64" | "b64" => Ty::Wide,
        "pred" => Ty::Pred,
        _ => return None,
    })
}

impl Threads {
    pub(super) fn new(threads: usize) -> Threads {
        Threads {
            preds: vec![HashMap::new(); threads],
        }
    }

    /// Reads the cell under `cur` for thread `thread`, appending what it
    /// holds (a label, an instruction, both, or nothing) to `body`.
    /// Errors are reported; the cell then adds nothing more.
    pub(super) fn cell(
        &mut self,
        thread: usize,
        cur: &mut Cursor<'_, '_>,
        ctx: Context<'_>,
        body: &mut Vec<Instr>,
    ) {
        let Some(preds) = self.preds.get_mut(thread) else {
            return;
        };
        if cur.at_end() {
            return;
        }
        let first = cur.peek();
        if let (Tok::Ident(label), true) = (first.tok, cur.peek_at(1).is(Punct::Colon)) {
            cur.bump();
            cur.bump();
            let origin = Origin(first.offset);
            push(
                preds,
                body,
                Instr::new(InstrKind::Label(Name::new(label, origin)), origin),
            );
            if cur.at_end() {
                return;
            }
        }
        let Some(raw) = raw_instr(cur, ctx.errors) else {
            return;
        };
        let mut b = Builder {
            raw,
            registers: ctx.registers,
            errors: ctx.errors,
            failed: false,
        };
        let built = b.build(preds);
        if b.failed {
            return;
        }
        let origin = Origin(b.raw.word.offset);
        match built {
            Some(Built::Instr(kind, space)) => {
                if let (Some((qual, space, offset)), Some(loc)) = (space, kind.loc()) {
                    ctx.spaces.push(SpaceUse {
                        instr: b.raw.word.text.to_string(),
                        qual,
                        space,
                        loc: loc.text.clone(),
                        offset,
                    });
                }
                push(preds, body, Instr::new(kind, origin));
            }
            Some(Built::Setp(p, pred)) => {
                forget(preds, &p);
                preds.insert(p, pred);
            }
            None => {}
        }
    }
}

/// Appends `i`, forgetting the predicates it makes stale: all of them at
/// a label (a jump may arrive there), those reading a register it writes.
fn push(preds: &mut HashMap<String, Pred>, body: &mut Vec<Instr>, i: Instr) {
    if matches!(i.kind, InstrKind::Label(_)) {
        preds.clear();
    } else if let Some(d) = i.kind.dst() {
        forget(preds, &d.text);
    }
    body.push(i);
}

/// Forgets predicate `reg` and every predicate that reads `reg`.
fn forget(preds: &mut HashMap<String, Pred>, reg: &str) {
    let reads = |o: &Operand| matches!(o, Operand::Reg(n) if n.text == reg);
    preds.retain(|p, v| p != reg && !reads(&v.a) && !reads(&v.b));
}

/// An instruction as written, before it is understood.
struct Raw<'s> {
    /// `@p` or `@!p`: the predicate and whether it is negated.
    guard: Option<(Token<'s>, bool)>,
    word: Token<'s>,
    quals: Vec<Qual<'s>>,
    ops: Vec<Op<'s>>,
}

fn expected(errors: &mut Errors, t: Token<'_>, expected: &'static str) {
    errors.push(
        t.offset,
        SyntaxError::Expected {
            expected,
            found: t.found(),
        },
    );
}

fn raw_instr<'s>(cur: &mut Cursor<'_, 's>, errors: &mut Errors) -> Option<Raw<'s>> {
    let mut guard = None;
    if cur.eat(Punct::At) {
        let negated = cur.eat(Punct::Bang);
        let p = cur.bump();
        if !matches!(p.tok, Tok::Ident(_)) {
            expected(errors, p, "a predicate register after `@`");
            return None;
        }
        guard = Some((p, negated));
    }
    let word = cur.bump();
    if !matches!(word.tok, Tok::Ident(_)) {
        expected(errors, word, "an instruction or a label");
        return None;
    }
    let mut quals = Vec::new();
    while cur.eat(Punct::Dot) {
        let t = cur.bump();
        let Tok::Ident(q) = t.tok else {
            expected(errors, t, "a qualifier after `.`");
            return None;
        };
        quals.push(Qual {
            word: q,
            offset: t.offset,
        });
    }
    let mut ops = Vec::new();
    while !cur.at_end() {
        let t = cur.bump();
        match t.tok {
            Tok::Ident(_) | Tok::Int(_) => ops.push(Op::Plain(t)),
            Tok::Punct(Punct::LBracket) => {
                let r = cur.bump();
                if !matches!(r.tok, Tok::Ident(_)) {
                    expected(errors, r, "a register holding an address inside `[...]`");
                    return None;
                }
                if !cur.eat(Punct::RBracket) {
                    expected(errors, cur.peek(), "`]` after the address register");
                    return None;
                }
                ops.push(Op::Addr(r));
            }
            _ => {
                expected(
                    errors,
                    t,
                    "an operand (a register, `[r]`, a label or a number)",
                );
                return None;
            }
        }
        if cur.at_end() {
            break;
        }
        if !cur.eat(Punct::Comma) {
            expected(
                errors,
                cur.peek(),
                "`,` between operands, or `|` or `;` after the instruction",
            );
            return None;
        }
    }
    Some(Raw {
        guard,
        word,
        quals,
        ops,
    })
}

/// What a cell's instruction becomes.
enum Built {
    /// An IR instruction, and the state space written on it (its word,
    /// the space, where), to check against the memory map.
    Instr(InstrKind, Option<(&'static str, Space, u32)>),
    /// `setp`: the predicate it sets, remembered for a `bra`.
    Setp(String, Pred),
}

struct Builder<'a, 's> {
    raw: Raw<'s>,
    registers: &'a Registers,
    errors: &'a mut Errors,
    failed: bool,
}

impl<'s> Builder<'_, 's> {
    fn error(&mut self, offset: u32, e: SyntaxError) {
        self.failed = true;
        self.errors.push(offset, e);
    }

    fn word(&self) -> &'s str {
        self.raw.word.text
    }

    fn unsupported(&mut self, offset: u32, form: String, why: &'static str) {
        self.error(offset, SyntaxError::Unsupported { form, why });
    }

    fn build(&mut self, preds: &HashMap<String, Pred>) -> Option<Built> {
        if let Some((p, _)) = self.raw.guard {
            if self.word() != "bra" {
                self.unsupported(
                    p.offset,
                    format!("a guard `@{}` on `{}`", p.text, self.word()),
                    "the IR has conditional branches, not predicated instructions: guard a `bra`",
                );
                return None;
            }
        }
        let kind = match self.word() {
            "ld" => return self.access(true),
            "st" => return self.access(false),
            "atom" => return self.atom(),
            "setp" => return self.setp(),
            "mov" => {
                self.ty_only(&[])?;
                self.count(2, "2 operands (`mov.s32 r, v`)")?;
                InstrKind::Mov {
                    dst: self.dst(0)?,
                    src: self.value(1)?,
                }
            }
            "cvt" => {
                self.cvt_types()?;
                self.count(2, "2 operands (`cvt.s32.u32 r, v`)")?;
                InstrKind::Mov {
                    dst: self.dst(0)?,
                    src: self.value(1)?,
                }
            }
            "membar" => self.membar()?,
            "bra" => self.bra(preds)?,
            word => {
                let Some(op) = BinOp::from_ptx(word) else {
                    self.error(
                        self.raw.word.offset,
                        SyntaxError::UnknownGpuPtxInstruction(word.to_string()),
                    );
                    return None;
                };
                // PTX's `mul` names the half it keeps; the IR's keeps the
                // low 32 bits.
                let extra: &[&str] = if op == BinOp::Mul { &["lo"] } else { &[] };
                self.ty_only(extra)?;
                self.count(3, "3 operands (`add.s32 r, a, b`)")?;
                InstrKind::BinOp {
                    dst: self.dst(0)?,
                    op,
                    a: self.value(1)?,
                    b: self.value(2)?,
                }
            }
        };
        Some(Built::Instr(kind, None))
    }

    fn unknown_qual(&mut self, q: Qual<'_>, expected: &'static str) {
        self.error(
            q.offset,
            SyntaxError::UnknownQualifier {
                instr: self.word().to_string(),
                qual: q.word.to_string(),
                expected,
            },
        );
    }

    fn missing(&mut self, what: &'static str) {
        self.error(
            self.raw.word.offset,
            SyntaxError::MissingQualifier {
                instr: self.word().to_string(),
                what,
            },
        );
    }

    /// Sets `slot` to `value`, or reports the second of two qualifiers of
    /// one kind.
    fn once<T>(
        &mut self,
        slot: &mut Option<(T, Qual<'s>)>,
        value: T,
        q: Qual<'s>,
        what: &'static str,
    ) {
        match slot {
            Some((_, first)) => {
                let first = first.word.to_string();
                self.error(
                    q.offset,
                    SyntaxError::DuplicateQualifier {
                        instr: self.word().to_string(),
                        what,
                        first,
                        second: q.word.to_string(),
                    },
                );
            }
            None => *slot = Some((value, q)),
        }
    }

    /// Checks a type qualifier: present, 32 bits, not a predicate.
    fn narrow(&mut self, t: Option<(Ty, Qual<'_>)>) -> Option<Ty> {
        let Some((t, q)) = t else {
            self.missing(TYPE);
            return None;
        };
        match t {
            Ty::Wide => {
                self.error(
                    q.offset,
                    SyntaxError::Wide {
                        instr: self.word().to_string(),
                        ty: q.word.to_string(),
                    },
                );
                None
            }
            Ty::Pred => {
                self.unsupported(
                    q.offset,
                    format!("`.pred` on `{}`", self.word()),
                    "the IR has no predicate registers: only `setp` writes one, and only a guarded `bra` reads it",
                );
                None
            }
            t => Some(t),
        }
    }

    /// Instructions whose qualifiers are a type and the words `extra`
    /// (each required, as `mul.lo`).
    fn ty_only(&mut self, extra: &'static [&'static str]) -> Option<Ty> {
        let mut t = None;
        let mut seen = Vec::new();
        for q in self.raw.quals.clone() {
            if extra.contains(&q.word) && !seen.contains(&q.word) {
                seen.push(q.word);
            } else if let Some(v) = ty(q.word) {
                self.once(&mut t, v, q, "type");
            } else {
                let expected = if extra.is_empty() {
                    TYPE
                } else {
                    "`.lo` and a type (.s32, .u32 or .b32)"
                };
                self.unknown_qual(q, expected);
            }
        }
        if seen.len() < extra.len() {
            self.missing("`.lo` (the IR's `mul` keeps the low 32 bits)");
            return None;
        }
        if self.failed {
            return None;
        }
        self.narrow(t)
    }

    /// `cvt.<to>.<from>`: a copy, both types being 32-bit words.
    fn cvt_types(&mut self) -> Option<()> {
        let quals = self.raw.quals.clone();
        if quals.len() != 2 {
            self.missing("two types (`cvt.s32.u32`)");
            return None;
        }
        for q in quals {
            match ty(q.word) {
                Some(t) => {
                    self.narrow(Some((t, q)))?;
                }
                None => {
                    self.unknown_qual(q, TYPE);
                    return None;
                }
            }
        }
        Some(())
    }

    fn count(&mut self, n: usize, expected: &'static str) -> Option<()> {
        if self.raw.ops.len() == n {
            return Some(());
        }
        self.error(
            self.raw.word.offset,
            SyntaxError::OperandCount {
                instr: self.word().to_string(),
                expected,
                found: self.raw.ops.len(),
            },
        );
        None
    }

    fn bad_operand(&mut self, i: usize, expected: &'static str) {
        let t = self.raw.ops[i].tok();
        let found = match (self.raw.ops[i], t.tok) {
            (Op::Addr(_), _) => format!("`[{}]`", t.text),
            (_, Tok::Int(_)) => format!("the number `{}`", t.text),
            _ => format!("`{}`", t.text),
        };
        self.error(
            t.offset,
            SyntaxError::BadOperand {
                instr: self.word().to_string(),
                index: i + 1,
                expected,
                found,
            },
        );
    }

    /// A plain name: a register written, a predicate, a label.
    fn name(&mut self, i: usize, expected: &'static str) -> Option<Name> {
        match self.raw.ops[i] {
            Op::Plain(t) => match t.tok {
                Tok::Ident(w) => Some(Name::new(w, Origin(t.offset))),
                _ => {
                    self.bad_operand(i, expected);
                    None
                }
            },
            Op::Addr(_) => {
                self.bad_operand(i, expected);
                None
            }
        }
    }

    /// The register an instruction writes, which must not be an address.
    fn dst(&mut self, i: usize) -> Option<Name> {
        let n = self.name(i, "a register")?;
        if let Some(loc) = self.registers.addresses.get(&n.text) {
            let loc = loc.text.clone();
            self.error(
                n.origin.0,
                SyntaxError::AddressWritten {
                    instr: self.word().to_string(),
                    reg: n.text.clone(),
                    loc,
                },
            );
            return None;
        }
        Some(n)
    }

    /// A register or a number read as a value.
    fn value(&mut self, i: usize) -> Option<Operand> {
        let Op::Plain(t) = self.raw.ops[i] else {
            self.bad_operand(i, "a register or a number");
            return None;
        };
        match t.tok {
            Tok::Int(v) => Some(Operand::Imm(Imm::new(v, Origin(t.offset)))),
            Tok::Ident(w) => {
                if let Some(loc) = self.registers.addresses.get(w) {
                    let loc = loc.text.clone();
                    self.error(
                        t.offset,
                        SyntaxError::AddressAsValue {
                            reg: w.to_string(),
                            loc,
                        },
                    );
                    return None;
                }
                Some(Operand::Reg(Name::new(w, Origin(t.offset))))
            }
            _ => {
                self.bad_operand(i, "a register or a number");
                None
            }
        }
    }

    /// `[r]`: the location whose address `r` holds, named where `r` is
    /// written (so that validation points at the access).
    fn addr(&mut self, i: usize) -> Option<Name> {
        let Op::Addr(t) = self.raw.ops[i] else {
            self.bad_operand(i, "an address `[r]`");
            return None;
        };
        match self.registers.addresses.get(t.text) {
            Some(loc) => Some(Name::new(loc.text.clone(), Origin(t.offset))),
            None => {
                self.error(t.offset, SyntaxError::NoAddress(t.text.to_string()));
                None
            }
        }
    }
}
