//! The syntax tree of a cat file and its parser.
//!
//! Operator precedence follows Dat3M's grammar, from loosest to tightest:
//! `|`, `;`, `\`, `&`, `~` (complement), postfix `*` `+` `?` `^-1`, and
//! the cartesian product `S * T`. A `*` followed by something that starts
//! an operand is the product; otherwise it is the reflexive-transitive
//! closure.

use super::error::{CatErrorKind, Pos};
use super::lexer::{Tok, Token};

/// An expression and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Expr {
    pub kind: ExprKind,
    pub pos: Pos,
}

/// The expression forms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ExprKind {
    Name(String),
    Union(Box<Expr>, Box<Expr>),
    Inter(Box<Expr>, Box<Expr>),
    Diff(Box<Expr>, Box<Expr>),
    Seq(Box<Expr>, Box<Expr>),
    Product(Box<Expr>, Box<Expr>),
    Inverse(Box<Expr>),
    Plus(Box<Expr>),
    Star(Box<Expr>),
    Opt(Box<Expr>),
    Compl(Box<Expr>),
    Bracket(Box<Expr>),
    Domain(Box<Expr>),
    Range(Box<Expr>),
}

/// Which property a check asks of its expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// `acyclic r`
    Acyclic,
    /// `irreflexive r`
    Irreflexive,
    /// `empty r` (a set or a relation)
    Empty,
}

/// A statement of a cat file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stmt {
    /// `let [rec] a = e [and b = f ...]`
    Let {
        rec: bool,
        binds: Vec<(String, Pos, Expr)>,
    },
    /// `[flag] [~] acyclic|irreflexive|empty e [as name]`
    Check {
        kind: CheckKind,
        negate: bool,
        flag: bool,
        expr: Expr,
        name: Option<String>,
        pos: Pos,
    },
    /// `include "file"`
    Include { path: String, pos: Pos },
}

/// How deep parentheses, brackets and `~` may nest: the parser recurses
/// on each level, and a malformed file must get an error, not overflow
/// the stack.
const MAX_NESTING: usize = 100;

/// How many operators one top-level expression may hold. A chain such as
/// `po | po | ...` is read by a loop but builds a tree as deep as it is
/// long, and everything that walks the tree afterwards (dropping it
/// included) recurses: this keeps that depth far below a thread's stack.
const MAX_OPERATORS: usize = 4000;

struct Parser<'t> {
    toks: &'t [Token],
    i: usize,
    depth: usize,
    /// Operators of the current top-level expression (see
    /// [`MAX_OPERATORS`]).
    ops: usize,
}

type PResult<T> = Result<T, (Pos, CatErrorKind)>;

fn syntax<T>(pos: Pos, msg: String) -> PResult<T> {
    Err((pos, CatErrorKind::Syntax(msg)))
}

impl<'t> Parser<'t> {
    fn peek(&self) -> &Tok {
        &self.toks[self.i.min(self.toks.len() - 1)].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].tok
    }

    fn pos(&self) -> Pos {
        self.toks[self.i.min(self.toks.len() - 1)].pos
    }

    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.i < self.toks.len() - 1 {
            self.i += 1;
        }
        t
    }

    fn expect(&mut self, want: Tok, what: &str) -> PResult<()> {
        if *self.peek() == want {
            self.bump();
            Ok(())
        } else {
            syntax(
                self.pos(),
                format!("expected {what}, found {}", self.peek().describe()),
            )
        }
    }

    fn name(&mut self, what: &str) -> PResult<(String, Pos)> {
        let pos = self.pos();
        match self.bump() {
            Tok::Name(n) => Ok((n, pos)),
            other => syntax(pos, format!("expected {what}, found {}", other.describe())),
        }
    }

    fn file(&mut self) -> PResult<Vec<Stmt>> {
        // The title: names and a string before the first statement (Dat3M
        // writes `PTX`, herd7 a quoted name).
        while matches!(self.peek(), Tok::Name(_)) {
            self.bump();
        }
        if matches!(self.peek(), Tok::Str(_)) {
            self.bump();
        }
        let mut out = Vec::new();
        while *self.peek() != Tok::Eof {
            if let Some(s) = self.stmt()? {
                out.push(s);
            }
        }
        Ok(out)
    }

    fn stmt(&mut self) -> PResult<Option<Stmt>> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Let => {
                self.bump();
                let rec = *self.peek() == Tok::Rec;
                if rec {
                    self.bump();
                }
                let mut binds = vec![self.binding()?];
                while *self.peek() == Tok::And {
                    self.bump();
                    binds.push(self.binding()?);
                }
                Ok(Some(Stmt::Let { rec, binds }))
            }
            Tok::Include => {
                self.bump();
                match self.bump() {
                    Tok::Str(path) => Ok(Some(Stmt::Include { path, pos })),
                    other => syntax(
                        pos,
                        format!(
                            "`include` takes a file name in quotes, found {}",
                            other.describe()
                        ),
                    ),
                }
            }
            Tok::Show => {
                // herd7's `show` only picks what its pictures draw.
                self.bump();
                self.expr()?;
                self.optional_as()?;
                while *self.peek() == Tok::Comma {
                    self.bump();
                    self.expr()?;
                    self.optional_as()?;
                }
                Ok(None)
            }
            Tok::Flag | Tok::Tilde | Tok::Acyclic | Tok::Irreflexive | Tok::Empty => {
                self.check().map(Some)
            }
            Tok::Name(n)
                if matches!(
                    n.as_str(),
                    "undefined_unless" | "procedure" | "call" | "match" | "forall" | "with" | "if" | "enum"
                ) =>
            {
                Err((pos, CatErrorKind::Unsupported(format!("herd7's `{n}`"))))
            }
            other => syntax(
                pos,
                format!(
                    "expected a statement (`let`, `include`, `acyclic`, `irreflexive`, `empty`, `flag`), found {}",
                    other.describe()
                ),
            ),
        }
    }

    fn binding(&mut self) -> PResult<(String, Pos, Expr)> {
        let (name, pos) = self.name("a name to define")?;
        if *self.peek() == Tok::LPar {
            return Err((
                pos,
                CatErrorKind::Unsupported(format!("functions (`let {name}(...)`)")),
            ));
        }
        self.expect(Tok::Eq, "`=`")?;
        Ok((name, pos, self.expr()?))
    }

    fn optional_as(&mut self) -> PResult<Option<String>> {
        if *self.peek() == Tok::As {
            self.bump();
            return Ok(Some(self.name("a name after `as`")?.0));
        }
        Ok(None)
    }

    fn check(&mut self) -> PResult<Stmt> {
        let pos = self.pos();
        let flag = *self.peek() == Tok::Flag;
        if flag {
            self.bump();
        }
        let negate = *self.peek() == Tok::Tilde;
        if negate {
            self.bump();
        }
        let kind = match self.bump() {
            Tok::Acyclic => CheckKind::Acyclic,
            Tok::Irreflexive => CheckKind::Irreflexive,
            Tok::Empty => CheckKind::Empty,
            other => {
                return syntax(
                    pos,
                    format!(
                        "expected `acyclic`, `irreflexive` or `empty`, found {}",
                        other.describe()
                    ),
                )
            }
        };
        let expr = self.expr()?;
        let name = self.optional_as()?;
        Ok(Stmt::Check {
            kind,
            negate,
            flag,
            expr,
            name,
            pos,
        })
    }

    fn expr(&mut self) -> PResult<Expr> {
        // Nested expressions (in parentheses) count toward their top-level
        // one.
        if self.depth == 0 {
            self.ops = 0;
        }
        self.binary(0)
    }

    /// Counts one operator of the current expression, or fails past
    /// [`MAX_OPERATORS`].
    fn operator(&mut self) -> PResult<()> {
        self.ops += 1;
        if self.ops > MAX_OPERATORS {
            return Err((
                self.pos(),
                CatErrorKind::Limit(format!(
                    "an expression holds more than {MAX_OPERATORS} operators"
                )),
            ));
        }
        Ok(())
    }

    /// Runs `f` one nesting level deeper, or fails past [`MAX_NESTING`].
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING {
            return Err((
                self.pos(),
                CatErrorKind::Limit(format!("expressions nest deeper than {MAX_NESTING} levels")),
            ));
        }
        self.depth += 1;
        let out = f(self);
        self.depth -= 1;
        out
    }

    /// Left-associative binary operators, loosest first.
    fn binary(&mut self, level: usize) -> PResult<Expr> {
        const LEVELS: [Tok; 4] = [Tok::Bar, Tok::Semi, Tok::Backslash, Tok::Amp];
        let Some(op) = LEVELS.get(level) else {
            return self.unary();
        };
        let mut left = self.binary(level + 1)?;
        while self.peek() == op {
            self.operator()?;
            self.bump();
            let right = self.binary(level + 1)?;
            let pos = left.pos;
            let (l, r) = (Box::new(left), Box::new(right));
            let kind = match level {
                0 => ExprKind::Union(l, r),
                1 => ExprKind::Seq(l, r),
                2 => ExprKind::Diff(l, r),
                _ => ExprKind::Inter(l, r),
            };
            left = Expr { kind, pos };
        }
        Ok(left)
    }

    fn unary(&mut self) -> PResult<Expr> {
        if *self.peek() == Tok::Tilde {
            self.operator()?;
            let pos = self.pos();
            self.bump();
            let e = self.nested(Self::unary)?;
            return Ok(Expr {
                kind: ExprKind::Compl(Box::new(e)),
                pos,
            });
        }
        self.postfix()
    }

    fn starts_operand(t: &Tok) -> bool {
        matches!(
            t,
            Tok::Name(_)
                | Tok::LPar
                | Tok::LBrack
                | Tok::Tilde
                | Tok::Domain
                | Tok::Range
                | Tok::Toid
        )
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.product()?;
        loop {
            let wrap: fn(Box<Expr>) -> ExprKind = match self.peek() {
                Tok::Star if !Self::starts_operand(self.peek_at(1)) => ExprKind::Star,
                Tok::HatStar => ExprKind::Star,
                Tok::Plus | Tok::HatPlus => ExprKind::Plus,
                Tok::Opt => ExprKind::Opt,
                Tok::Inv => ExprKind::Inverse,
                _ => return Ok(e),
            };
            self.operator()?;
            self.bump();
            let pos = e.pos;
            e = Expr {
                kind: wrap(Box::new(e)),
                pos,
            };
        }
    }

    fn product(&mut self) -> PResult<Expr> {
        let mut left = self.primary()?;
        while *self.peek() == Tok::Star && Self::starts_operand(self.peek_at(1)) {
            self.operator()?;
            self.bump();
            let right = self.primary()?;
            let pos = left.pos;
            left = Expr {
                kind: ExprKind::Product(Box::new(left), Box::new(right)),
                pos,
            };
        }
        Ok(left)
    }

    fn primary(&mut self) -> PResult<Expr> {
        let pos = self.pos();
        let wrap = |kind| Ok(Expr { kind, pos });
        match self.bump() {
            Tok::Name(n) => {
                if *self.peek() == Tok::LPar {
                    return Err((
                        pos,
                        CatErrorKind::Unsupported(format!("function calls (`{n}(...)`)")),
                    ));
                }
                wrap(ExprKind::Name(n))
            }
            Tok::LPar => {
                let e = self.nested(Self::expr)?;
                self.expect(Tok::RPar, "`)`")?;
                Ok(e)
            }
            Tok::LBrack => {
                let e = self.nested(Self::expr)?;
                self.expect(Tok::RBrack, "`]`")?;
                wrap(ExprKind::Bracket(Box::new(e)))
            }
            t @ (Tok::Domain | Tok::Range | Tok::Toid) => {
                self.expect(Tok::LPar, "`(`")?;
                let e = Box::new(self.nested(Self::expr)?);
                self.expect(Tok::RPar, "`)`")?;
                wrap(match t {
                    Tok::Domain => ExprKind::Domain(e),
                    Tok::Range => ExprKind::Range(e),
                    _ => ExprKind::Bracket(e),
                })
            }
            other => syntax(
                pos,
                format!("expected an expression, found {}", other.describe()),
            ),
        }
    }
}

/// Parses the tokens of one file.
pub(crate) fn parse(toks: &[Token]) -> Result<Vec<Stmt>, (Pos, CatErrorKind)> {
    Parser {
        toks,
        i: 0,
        depth: 0,
        ops: 0,
    }
    .file()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cat::lexer::lex;

    fn one_expr(src: &str) -> ExprKind {
        let toks = lex(&format!("let x = {src}")).unwrap();
        match parse(&toks).unwrap().remove(0) {
            Stmt::Let { mut binds, .. } => binds.remove(0).2.kind,
            s => panic!("{s:?}"),
        }
    }

    fn name(n: &str) -> Box<Expr> {
        Box::new(Expr {
            kind: ExprKind::Name(n.into()),
            pos: Pos { line: 0, column: 0 },
        })
    }

    fn strip(k: ExprKind) -> String {
        format!("{k:?}")
            .split("pos: Pos")
            .map(|s| s.split_once('}').map_or(s, |(_, r)| r))
            .collect()
    }

    #[test]
    fn precedence_follows_dat3m() {
        // `&` binds tighter than `;`, which binds tighter than `|`.
        let got = strip(one_expr("a | b ; c & d"));
        let want = strip(ExprKind::Union(
            name("a"),
            Box::new(Expr {
                kind: ExprKind::Seq(
                    name("b"),
                    Box::new(Expr {
                        kind: ExprKind::Inter(name("c"), name("d")),
                        pos: Pos { line: 0, column: 0 },
                    }),
                ),
                pos: Pos { line: 0, column: 0 },
            }),
        ));
        assert_eq!(got, want);
    }

    #[test]
    fn star_is_product_before_an_operand_and_closure_otherwise() {
        assert!(matches!(one_expr("M * M"), ExprKind::Product(..)));
        assert!(matches!(one_expr("po*"), ExprKind::Star(..)));
        assert!(matches!(one_expr("(po*) | rf"), ExprKind::Union(..)));
    }

    #[test]
    fn errors_have_positions() {
        let toks = lex("let a = (b | c\nacyclic a").unwrap();
        let (pos, kind) = parse(&toks).unwrap_err();
        assert_eq!(pos, Pos { line: 2, column: 1 });
        assert!(kind.to_string().contains("expected `)`"), "{kind}");
    }
}
