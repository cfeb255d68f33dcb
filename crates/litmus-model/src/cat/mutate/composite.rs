//! Mutants of more than one edit: the hand-made ones a model's author
//! reaches for first, which no single edit makes. Relaxed accesses
//! treated as release and acquire change every use of two tags; plain SC
//! adds an axiom. Both strengthen the model.

use super::super::base::Base;
use super::super::error::Pos;
use super::super::parser::{CheckKind, Expr, ExprKind, Stmt};
use super::super::polarity::analyse;
use super::super::source::Located;
use super::expr_edits::{mk, name};
use super::{first_use, substitute_everywhere, Direction, Edit, Operator};

/// Relaxed accesses treated as release and acquire: every use of the tag
/// `REL` becomes `REL | (W & RLX)` and every use of `ACQ` becomes
/// `ACQ | (R & RLX)`. `None` where the model does not use all three tags
/// as the base sets (a model that defines its own `REL` means something
/// else by it).
pub(super) fn relaxed_as_release_acquire(stmts: &[Located]) -> Option<Edit> {
    if ["RLX", "REL", "ACQ", "R", "W"]
        .iter()
        .any(|t| Base::lookup(t).is_none())
    {
        return None;
    }
    let mut now = stmts.to_vec();
    let mut first: Option<(String, Pos)> = None;
    // One tag at a time, each on the model the other's edit made: the
    // analysis of which names are the model's own is per text.
    for (tag, access) in [("REL", "W"), ("ACQ", "R")] {
        let refs: Vec<&Stmt> = now.iter().map(|l| &l.stmt).collect();
        let an = analyse(&refs);
        let at = first_use(&now, &an, tag)?;
        let pos = at.1;
        let with = mk(
            ExprKind::Union(
                Box::new(name(tag, pos)),
                Box::new(mk(
                    ExprKind::Inter(Box::new(name(access, pos)), Box::new(name("RLX", pos))),
                    pos,
                )),
            ),
            pos,
        );
        now = substitute_everywhere(&now, &an, tag, &with);
        first = first.or(Some(at));
    }
    let (file, pos) = first?;
    Some(Edit {
        operator: Operator::RelaxedAsReleaseAcquire,
        description: "relaxed accesses as release and acquire: every `REL` → `REL | (W & RLX)`, every `ACQ` → `ACQ | (R & RLX)`".into(),
        file,
        pos,
        direction: Direction::Strengthening,
        stmts: now,
    })
}

/// Plain SC: the axiom `acyclic po | rf | co | fr` added at the end of
/// the model's file (`end`: the file and its end, which the mutant names),
/// with the model's own `co` and `fr` when it redefines them (Dat3M's
/// `co = co+`): the SC a reader of the model would write there. `None`
/// for a model without checks, which is no memory model to strengthen.
pub(super) fn plain_sc(stmts: &[Located], end: &(String, Pos)) -> Option<Edit> {
    stmts
        .iter()
        .any(|l| matches!(l.stmt, Stmt::Check { flag: false, .. }))
        .then_some(())?;
    let (file, pos) = end.clone();
    let union = |a: Expr, b: &str| mk(ExprKind::Union(Box::new(a), Box::new(name(b, pos))), pos);
    let expr = union(union(union(name("po", pos), "rf"), "co"), "fr");
    let mut now = stmts.to_vec();
    now.push(Located {
        file: file.clone(),
        stmt: Stmt::Check {
            kind: CheckKind::Acyclic,
            negate: false,
            flag: false,
            expr,
            name: Some("plain-SC".into()),
            pos,
        },
    });
    Some(Edit {
        operator: Operator::AddScAxiom,
        description: "plain SC: add the axiom `acyclic po | rf | co | fr` at the end of the file"
            .into(),
        file,
        pos,
        direction: Direction::Strengthening,
        stmts: now,
    })
}
