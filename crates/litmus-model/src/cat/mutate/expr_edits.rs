//! The edits of one expression: each one-edit operator applied where it
//! can be (a term dropped from a chain, a closure weakened, a base made
//! empty or full), with which way each should move the verdicts given
//! the polarity of the place it is in.

use std::collections::HashMap;

use super::super::base::Base;
use super::super::error::Pos;
use super::super::parser::{Expr, ExprKind};
use super::super::polarity::{Binding, Polarity};
use super::super::print;
use super::{Effect, Operator};

/// An edit of one expression: its replacement, and what it did.
pub(super) struct ExprEdit {
    pub(super) expr: Expr,
    pub(super) operator: Operator,
    pub(super) description: String,
    pub(super) pos: Pos,
    pub(super) effect: Effect,
    /// The polarity of the edited node within its slot.
    pub(super) sign: Polarity,
}

/// Descriptions quote expressions; long ones are cut.
fn quote(e: &Expr) -> String {
    const MAX: usize = 60;
    let s = print::expr(e);
    if s.chars().count() <= MAX {
        format!("`{s}`")
    } else {
        format!("`{}...`", s.chars().take(MAX).collect::<String>())
    }
}

pub(super) fn mk(kind: ExprKind, pos: Pos) -> Expr {
    Expr { kind, pos }
}

pub(super) fn name(n: &str, pos: Pos) -> Expr {
    mk(ExprKind::Name(n.to_string()), pos)
}

/// The empty and the full value of a base's type.
pub(super) fn empty_and_full(b: Base, pos: Pos) -> (Expr, &'static str, Expr, &'static str) {
    match b {
        Base::Rel(_) => (
            name("0", pos),
            "the empty relation",
            mk(
                ExprKind::Product(Box::new(name("_", pos)), Box::new(name("_", pos))),
                pos,
            ),
            "the full relation",
        ),
        Base::Set(_) => (
            mk(ExprKind::Domain(Box::new(name("0", pos))), pos),
            "the empty set",
            name("_", pos),
            "every event",
        ),
    }
}

/// What replacing a base everywhere means, for the bases whose meaning a
/// reader would name.
pub(super) fn meaning(base: &str, full: bool) -> Option<&'static str> {
    Some(match (base, full) {
        ("sr", true) => "scopes ignored: every pair of events is same-scope",
        ("sr", false) => "no two events are same-scope",
        ("scta", true) => "CTAs ignored: every pair of events is in one CTA",
        ("scta", false) => "no two events are in one CTA",
        ("syncbar", false) => "barriers synchronise nothing",
        ("sync_fence", false) => "no Fence-SC order",
        ("rmw", false) => "no atomic read-modify-write pairs",
        ("loc", true) => "locations ignored: every pair of events is same-location",
        _ => return None,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Chain {
    Union,
    Seq,
    Inter,
}

fn chain_of(e: &Expr) -> Option<Chain> {
    match e.kind {
        ExprKind::Union(..) => Some(Chain::Union),
        ExprKind::Seq(..) => Some(Chain::Seq),
        ExprKind::Inter(..) => Some(Chain::Inter),
        _ => None,
    }
}

/// The terms of a chain of one associative operator, left to right.
fn terms<'e>(e: &'e Expr, c: Chain, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Union(a, b) | ExprKind::Seq(a, b) | ExprKind::Inter(a, b)
            if chain_of(e) == Some(c) =>
        {
            terms(a, c, out);
            terms(b, c, out);
        }
        _ => out.push(e),
    }
}

fn join(c: Chain, parts: Vec<Expr>) -> Expr {
    let mut it = parts.into_iter();
    let first = it.next().expect("a chain keeps at least one term");
    it.fold(first, |l, r| {
        let pos = l.pos;
        let (l, r) = (Box::new(l), Box::new(r));
        mk(
            match c {
                Chain::Union => ExprKind::Union(l, r),
                Chain::Seq => ExprKind::Seq(l, r),
                Chain::Inter => ExprKind::Inter(l, r),
            },
            pos,
        )
    })
}

/// Walks one slot's expression, producing its edits.
pub(super) struct Walker<'a> {
    /// The slot's name resolutions, in preorder.
    pub(super) resolved: &'a [Binding],
    pub(super) occ: usize,
    /// How many times each base is used in the model: replacing a base
    /// used once says what it means (`sr` full: scopes ignored).
    pub(super) base_uses: &'a HashMap<String, usize>,
}

impl Walker<'_> {
    pub(super) fn walk(
        &mut self,
        e: &Expr,
        sign: Polarity,
        parent: Option<Chain>,
    ) -> Vec<ExprEdit> {
        let mut out = Vec::new();
        let own = |out: &mut Vec<ExprEdit>, expr, op, description: String, effect| {
            out.push(ExprEdit {
                expr,
                operator: op,
                description,
                pos: e.pos,
                effect,
                sign,
            })
        };
        // Edits of a child, rebuilt into this node.
        let lift = |edits: Vec<ExprEdit>, f: &dyn Fn(Expr) -> ExprKind, out: &mut Vec<ExprEdit>| {
            out.extend(edits.into_iter().map(|mut ed| {
                ed.expr = mk(f(ed.expr), e.pos);
                ed
            }))
        };
        match &e.kind {
            ExprKind::Name(n) => {
                let binding = self.resolved.get(self.occ).copied().flatten();
                self.occ += 1;
                if let (None, Some(b)) = (binding, Base::lookup(n)) {
                    let (empty, empty_word, full, full_word) = empty_and_full(b, e.pos);
                    let once = self.base_uses.get(n.as_str()) == Some(&1);
                    let say = |full: bool, what: String| match meaning(n, full) {
                        Some(m) if once => format!("{m} ({what}, its only use)"),
                        _ => what,
                    };
                    own(
                        &mut out,
                        empty,
                        Operator::BaseToEmpty,
                        say(false, format!("replace `{n}` by {empty_word}")),
                        Effect::Smaller,
                    );
                    own(
                        &mut out,
                        full,
                        Operator::BaseToFull,
                        say(true, format!("replace `{n}` by {full_word}")),
                        Effect::Larger,
                    );
                }
            }
            ExprKind::Union(a, b) | ExprKind::Seq(a, b) | ExprKind::Inter(a, b) => {
                let c = chain_of(e).expect("a chain operator");
                if parent != Some(c) {
                    let mut ts = Vec::new();
                    terms(e, c, &mut ts);
                    let (op, word) = match c {
                        Chain::Union => (Operator::DropUnionTerm, "union"),
                        Chain::Seq => (Operator::DropSeqTerm, "sequence"),
                        Chain::Inter => (Operator::DropInterTerm, "intersection"),
                    };
                    for i in 0..ts.len() {
                        let rest: Vec<Expr> = ts
                            .iter()
                            .enumerate()
                            .filter(|&(k, _)| k != i)
                            .map(|(_, t)| (*t).clone())
                            .collect();
                        let effect = match c {
                            Chain::Union => Effect::Smaller,
                            Chain::Inter => Effect::Larger,
                            // `[S]` is part of the identity: without it a
                            // sequence can only hold more pairs.
                            Chain::Seq if matches!(ts[i].kind, ExprKind::Bracket(_)) => {
                                Effect::Larger
                            }
                            Chain::Seq => Effect::Unknown,
                        };
                        out.push(ExprEdit {
                            expr: join(c, rest),
                            operator: op,
                            description: format!(
                                "drop {} from the {word} {}",
                                quote(ts[i]),
                                quote(e)
                            ),
                            pos: ts[i].pos,
                            effect,
                            sign,
                        });
                    }
                }
                let ea = self.walk(a, sign, Some(c));
                let eb = self.walk(b, sign, Some(c));
                let rebuild = |l: Expr, r: Expr| {
                    let (l, r) = (Box::new(l), Box::new(r));
                    match c {
                        Chain::Union => ExprKind::Union(l, r),
                        Chain::Seq => ExprKind::Seq(l, r),
                        Chain::Inter => ExprKind::Inter(l, r),
                    }
                };
                lift(ea, &|x| rebuild(x, (**b).clone()), &mut out);
                lift(eb, &|x| rebuild((**a).clone(), x), &mut out);
            }
            ExprKind::Diff(a, b) => {
                own(
                    &mut out,
                    (**a).clone(),
                    Operator::DropDiff,
                    format!("drop `\\ {}` from {}", print::expr(b), quote(e)),
                    Effect::Larger,
                );
                let ea = self.walk(a, sign, None);
                let eb = self.walk(b, sign.flip(), None);
                lift(ea, &|x| ExprKind::Diff(Box::new(x), b.clone()), &mut out);
                lift(eb, &|x| ExprKind::Diff(a.clone(), Box::new(x)), &mut out);
            }
            ExprKind::Product(a, b) => {
                let ea = self.walk(a, sign, None);
                let eb = self.walk(b, sign, None);
                lift(ea, &|x| ExprKind::Product(Box::new(x), b.clone()), &mut out);
                lift(eb, &|x| ExprKind::Product(a.clone(), Box::new(x)), &mut out);
            }
            ExprKind::Compl(a) => {
                own(
                    &mut out,
                    (**a).clone(),
                    Operator::DropComplement,
                    format!("drop `~` from {}", quote(e)),
                    Effect::Unknown,
                );
                let ea = self.walk(a, sign.flip(), None);
                lift(ea, &|x| ExprKind::Compl(Box::new(x)), &mut out);
            }
            ExprKind::Inverse(a) | ExprKind::Plus(a) | ExprKind::Opt(a) => {
                let (op, effect, word) = match e.kind {
                    ExprKind::Inverse(_) => (Operator::DropInverse, Effect::Unknown, "^-1"),
                    ExprKind::Plus(_) => (Operator::DropPlus, Effect::Smaller, "+"),
                    _ => (Operator::DropOpt, Effect::Smaller, "?"),
                };
                own(
                    &mut out,
                    (**a).clone(),
                    op,
                    format!("drop `{word}` from {}", quote(e)),
                    effect,
                );
                let ea = self.walk(a, sign, None);
                let wrap: fn(Box<Expr>) -> ExprKind = match e.kind {
                    ExprKind::Inverse(_) => ExprKind::Inverse,
                    ExprKind::Plus(_) => ExprKind::Plus,
                    _ => ExprKind::Opt,
                };
                lift(ea, &|x| wrap(Box::new(x)), &mut out);
            }
            ExprKind::Star(a) => {
                for (op, kind, word) in [
                    (Operator::StarToOpt, ExprKind::Opt(a.clone()), "?"),
                    (Operator::StarToPlus, ExprKind::Plus(a.clone()), "+"),
                ] {
                    own(
                        &mut out,
                        mk(kind, e.pos),
                        op,
                        format!("`*` → `{word}` in {}", quote(e)),
                        Effect::Smaller,
                    );
                }
                let ea = self.walk(a, sign, None);
                lift(ea, &|x| ExprKind::Star(Box::new(x)), &mut out);
            }
            ExprKind::Bracket(a) | ExprKind::Domain(a) | ExprKind::Range(a) => {
                let ea = self.walk(a, sign, None);
                let wrap: fn(Box<Expr>) -> ExprKind = match e.kind {
                    ExprKind::Bracket(_) => ExprKind::Bracket,
                    ExprKind::Domain(_) => ExprKind::Domain,
                    _ => ExprKind::Range,
                };
                lift(ea, &|x| wrap(Box::new(x)), &mut out);
            }
        }
        out
    }
}
