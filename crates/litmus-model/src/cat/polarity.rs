//! Which way each part of a cat model pushes its verdicts: a relation that
//! grows under a non-negated `acyclic`, `irreflexive` or `empty` can only
//! forbid more (positive); under `~` or right of `\` it can only forbid
//! less (negative). A `let`-bound name takes the polarity of its uses, so
//! a mutation deep inside `cause` still gets a direction hint.
//!
//! Names are resolved as the compiler resolves them: a `let` sees what
//! comes before it, `let rec` sees its own group, and a name bound by no
//! `let` is a base set or relation.

use std::collections::HashMap;

use super::parser::{Expr, ExprKind, Stmt};

/// How the checks depend on a part of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Polarity {
    /// Not at all (unused, or only under `flag` checks).
    Unused,
    /// Growing it forbids more.
    Pos,
    /// Growing it forbids less.
    Neg,
    /// Both ways, through different uses.
    Mixed,
}

impl Polarity {
    pub fn flip(self) -> Polarity {
        match self {
            Polarity::Pos => Polarity::Neg,
            Polarity::Neg => Polarity::Pos,
            p => p,
        }
    }

    pub fn join(self, o: Polarity) -> Polarity {
        match (self, o) {
            (Polarity::Unused, p) | (p, Polarity::Unused) => p,
            (a, b) if a == b => a,
            _ => Polarity::Mixed,
        }
    }

    /// The polarity of a use at `sign` inside a context of polarity `self`.
    pub fn times(self, sign: Polarity) -> Polarity {
        match (self, sign) {
            (Polarity::Unused, _) | (_, Polarity::Unused) => Polarity::Unused,
            (Polarity::Mixed, _) | (_, Polarity::Mixed) => Polarity::Mixed,
            (a, Polarity::Pos) => a,
            (a, _) => a.flip(),
        }
    }
}

/// Where a name occurrence resolves: the `let` (statement, binding) that
/// binds it, or `None` for a base (or builtin `0`, `_`, `id`).
pub(crate) type Binding = Option<(usize, usize)>;

/// The resolution of every name occurrence, and the polarity of every
/// binding and check.
pub(crate) struct Analysis {
    /// Per statement, per expression slot (the bindings of a `let`, or the
    /// one expression of a check), the occurrences in preorder.
    pub resolved: Vec<Vec<Vec<Binding>>>,
    /// Per statement, per slot: the polarity of the slot's value.
    pub slot: Vec<Vec<Polarity>>,
}

/// The names of `e` in preorder (left operand first), each with its sign
/// relative to `e`.
pub(crate) fn names<'e>(e: &'e Expr, sign: Polarity, out: &mut Vec<(&'e str, Polarity)>) {
    match &e.kind {
        ExprKind::Name(n) => out.push((n, sign)),
        ExprKind::Union(a, b)
        | ExprKind::Inter(a, b)
        | ExprKind::Seq(a, b)
        | ExprKind::Product(a, b) => {
            names(a, sign, out);
            names(b, sign, out);
        }
        ExprKind::Diff(a, b) => {
            names(a, sign, out);
            names(b, sign.flip(), out);
        }
        ExprKind::Compl(a) => names(a, sign.flip(), out),
        ExprKind::Inverse(a)
        | ExprKind::Plus(a)
        | ExprKind::Star(a)
        | ExprKind::Opt(a)
        | ExprKind::Bracket(a)
        | ExprKind::Domain(a)
        | ExprKind::Range(a) => names(a, sign, out),
    }
}

/// The expressions of a statement, one per slot.
pub(crate) fn slots(stmt: &Stmt) -> Vec<&Expr> {
    match stmt {
        Stmt::Let { binds, .. } => binds.iter().map(|(_, _, e)| e).collect(),
        Stmt::Check { expr, .. } => vec![expr],
        Stmt::Include { .. } => Vec::new(),
    }
}

/// Resolves the names of `stmts` and computes every slot's polarity.
pub(crate) fn analyse(stmts: &[&Stmt]) -> Analysis {
    let mut env: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut resolved = Vec::with_capacity(stmts.len());
    let mut signs = Vec::with_capacity(stmts.len());
    for (i, stmt) in stmts.iter().enumerate() {
        if let Stmt::Let { rec: true, binds } = stmt {
            for (j, (name, _, _)) in binds.iter().enumerate() {
                env.insert(name, (i, j));
            }
        }
        let mut res: Vec<Vec<Binding>> = Vec::new();
        let mut sg: Vec<Vec<Polarity>> = Vec::new();
        for e in slots(stmt) {
            let mut occ = Vec::new();
            names(e, Polarity::Pos, &mut occ);
            res.push(occ.iter().map(|(n, _)| env.get(n).copied()).collect());
            sg.push(occ.into_iter().map(|(_, s)| s).collect::<Vec<_>>());
        }
        if let Stmt::Let { rec: false, binds } = stmt {
            for (j, (name, _, _)) in binds.iter().enumerate() {
                env.insert(name, (i, j));
            }
        }
        resolved.push(res);
        signs.push(sg);
    }
    // A binding's polarity is the join of its uses'; uses inside `let`s
    // depend on those bindings' polarities, and `let rec` on itself:
    // iterate to the fixed point (the lattice is four points high).
    let mut slot: Vec<Vec<Polarity>> = stmts
        .iter()
        .map(|s| match s {
            Stmt::Check { flag: true, .. } => vec![Polarity::Unused],
            Stmt::Check { negate: true, .. } => vec![Polarity::Neg],
            Stmt::Check { .. } => vec![Polarity::Pos],
            other => vec![Polarity::Unused; slots(other).len()],
        })
        .collect();
    loop {
        let mut next = slot.clone();
        for (i, stmt) in stmts.iter().enumerate() {
            if let Stmt::Let { .. } = stmt {
                next[i].fill(Polarity::Unused);
            }
        }
        for (i, res) in resolved.iter().enumerate() {
            for (k, occ) in res.iter().enumerate() {
                for (b, &sign) in occ.iter().zip(&signs[i][k]) {
                    if let Some((si, sj)) = *b {
                        next[si][sj] = next[si][sj].join(slot[i][k].times(sign));
                    }
                }
            }
        }
        if next == slot {
            return Analysis { resolved, slot };
        }
        slot = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cat::lexer::lex;
    use crate::cat::parser::parse;

    #[test]
    fn polarity_follows_uses_through_lets_and_negation() {
        let src = "let a = po\nlet b = rf \\ a\nlet rec c = a | (c; c)\nacyclic b\nirreflexive c\n~empty a\nflag ~empty rf\nlet a = a | co\nempty a";
        let stmts = parse(&lex(src).unwrap()).unwrap();
        let refs: Vec<&Stmt> = stmts.iter().collect();
        let an = analyse(&refs);
        // `a` (the first) is used right of `\` in b (negative), in c
        // (positive) and under `~empty` (negative), and by the second `a`.
        assert_eq!(an.slot[0], vec![Polarity::Mixed]);
        assert_eq!(an.slot[1], vec![Polarity::Pos]);
        assert_eq!(an.slot[2], vec![Polarity::Pos]);
        assert_eq!(an.slot[6], vec![Polarity::Unused]);
        assert_eq!(an.slot[7], vec![Polarity::Pos]);
        // The second `a` reads the first one; the check reads the second.
        assert_eq!(an.resolved[7][0], vec![Some((0, 0)), None]);
        assert_eq!(an.resolved[8][0], vec![Some((7, 0))]);
        assert_eq!(
            an.resolved[2][0],
            vec![Some((0, 0)), Some((2, 0)), Some((2, 0))]
        );
    }
}
