//! The final condition: `exists|~exists|forall` and a boolean expression.
//!
//! Precedence, loosest first: `\/`, `/\`, `~`; both binary operators group
//! to the left, so `a /\ b /\ c` is `(a /\ b) /\ c`. Expressions are
//! limited to [`MAX_DEPTH`] levels, counting both parentheses and the depth
//! of the tree built: everything that walks the IR recursively (validation,
//! equality, drop) must not overflow the stack on hostile input.

use crate::cursor::Cursor;
use crate::error::{Errors, SyntaxError};
use crate::lex::{Punct, Tok, Token};
use litmus_core::ir::{CmpOp, Condition, Expr, Imm, Name, Origin, Quantifier, Term};

/// The deepest condition accepted.
pub const MAX_DEPTH: usize = 200;

/// Whether `t` starts a condition (`exists`, `~`, `forall`): where the
/// instruction rows end.
pub(crate) fn starts_condition(t: &Token<'_>) -> bool {
    t.is_word("exists") || t.is_word("forall") || t.is(Punct::Tilde)
}

/// Parses the condition at `cur`. `threads` are the thread names in header
/// order, to resolve `1:r0` to the name of thread 1. Errors are reported;
/// `None` then.
pub(crate) fn condition(
    cur: &mut Cursor<'_, '_>,
    threads: &[Name],
    errors: &mut Errors,
) -> Option<Condition> {
    let first = cur.peek();
    let quantifier = if first.is_word("exists") {
        cur.bump();
        Quantifier::Exists
    } else if first.is_word("forall") {
        cur.bump();
        Quantifier::Forall
    } else if first.is(Punct::Tilde) && cur.peek_at(1).is_word("exists") {
        cur.bump();
        cur.bump();
        Quantifier::NotExists
    } else {
        errors.push(
            first.offset,
            SyntaxError::Expected {
                expected: "the condition (`exists`, `~exists` or `forall`)",
                found: first.found(),
            },
        );
        return None;
    };
    let mut p = CondParser {
        cur,
        threads,
        errors,
    };
    let (expr, _) = p.or(0).ok()?;
    Some(Condition {
        quantifier,
        expr,
        origin: Origin(first.offset),
    })
}

/// An expression and the depth of its tree.
type Parsed = Result<(Expr, usize), ()>;

struct CondParser<'c, 't, 's, 'e> {
    cur: &'c mut Cursor<'t, 's>,
    threads: &'c [Name],
    errors: &'e mut Errors,
}

impl CondParser<'_, '_, '_, '_> {
    fn fail<T>(&mut self, offset: u32, e: SyntaxError) -> Result<T, ()> {
        self.errors.push(offset, e);
        Err(())
    }

    fn expected<T>(&mut self, expected: &'static str) -> Result<T, ()> {
        let t = self.cur.peek();
        self.fail(
            t.offset,
            SyntaxError::Expected {
                expected,
                found: t.found(),
            },
        )
    }

    fn depth_ok(&mut self, depth: usize, at: u32) -> Result<(), ()> {
        if depth > MAX_DEPTH {
            self.fail(at, SyntaxError::TooDeep(MAX_DEPTH))
        } else {
            Ok(())
        }
    }

    fn or(&mut self, nest: usize) -> Parsed {
        let (mut e, mut d) = self.and(nest)?;
        while self.cur.peek().is(Punct::Or) {
            let op = self.cur.bump();
            let (r, rd) = self.and(nest)?;
            d = 1 + d.max(rd);
            self.depth_ok(d, op.offset)?;
            e = Expr::Or(Box::new(e), Box::new(r));
        }
        Ok((e, d))
    }

    fn and(&mut self, nest: usize) -> Parsed {
        let (mut e, mut d) = self.unary(nest)?;
        while self.cur.peek().is(Punct::And) {
            let op = self.cur.bump();
            let (r, rd) = self.unary(nest)?;
            d = 1 + d.max(rd);
            self.depth_ok(d, op.offset)?;
            e = Expr::And(Box::new(e), Box::new(r));
        }
        Ok((e, d))
    }

    fn unary(&mut self, nest: usize) -> Parsed {
        let t = self.cur.peek();
        self.depth_ok(nest, t.offset)?;
        if self.cur.eat(Punct::Tilde) {
            let (e, d) = self.unary(nest + 1)?;
            self.depth_ok(d + 1, t.offset)?;
            return Ok((Expr::Not(Box::new(e)), d + 1));
        }
        if self.cur.eat(Punct::LParen) {
            let inner = self.or(nest + 1)?;
            if !self.cur.eat(Punct::RParen) {
                return self.expected("`)`, `/\\` or `\\/`");
            }
            return Ok(inner);
        }
        let next = self.cur.peek_at(1);
        if t.is_word("true") && !(next.is(Punct::Colon) || cmp_op(&next).is_some()) {
            self.cur.bump();
            return Ok((Expr::True, 0));
        }
        let lhs = self.term()?;
        let op_tok = self.cur.peek();
        let Some(op) = cmp_op(&op_tok) else {
            return self.expected("`==`, `=` or `!=`");
        };
        self.cur.bump();
        let rhs = self.term()?;
        Ok((Expr::Cmp { lhs, op, rhs }, 0))
    }

    fn term(&mut self) -> Result<Term, ()> {
        let t = self.cur.peek();
        let origin = Origin(t.offset);
        let thread = match t.tok {
            Tok::Int(v) if !self.cur.peek_at(1).is(Punct::Colon) => {
                self.cur.bump();
                return Ok(Term::Imm(Imm::new(v, origin)));
            }
            Tok::Int(index) => {
                let thread = usize::try_from(index)
                    .ok()
                    .and_then(|i| self.threads.get(i));
                match thread {
                    Some(name) => Name::new(name.text.clone(), origin),
                    None => {
                        return self.fail(
                            t.offset,
                            SyntaxError::NoSuchThreadIndex {
                                index,
                                threads: self.threads.len(),
                            },
                        )
                    }
                }
            }
            Tok::Ident(w) if !self.cur.peek_at(1).is(Punct::Colon) => {
                self.cur.bump();
                return Ok(Term::Loc(Name::new(w, origin)));
            }
            Tok::Ident(w) => Name::new(w, origin),
            _ => return self.expected("a register (`P0:r0`), a location or a number"),
        };
        self.cur.bump();
        self.cur.bump();
        let r = self.cur.peek();
        match r.tok {
            Tok::Ident(w) => {
                self.cur.bump();
                Ok(Term::Reg {
                    thread,
                    reg: Name::new(w, Origin(r.offset)),
                })
            }
            _ => self.expected("a register name after `:`"),
        }
    }
}

fn cmp_op(t: &Token<'_>) -> Option<CmpOp> {
    if t.is(Punct::EqEq) || t.is(Punct::Eq) {
        Some(CmpOp::Eq)
    } else if t.is(Punct::Ne) {
        Some(CmpOp::Ne)
    } else {
        None
    }
}
