//! Mutants of a cat model: every model that one small edit of the file
//! makes, each compiled, with where the edit is and which way it should
//! move the verdicts. A mutant that the tests cannot tell from its model
//! points at a part of the model the tests do not exercise; see
//! [`crate::compare`] for running mutants over tests.
//!
//! The operators ([`Operator`]):
//!
//! - a check dropped; `acyclic` ↔ `irreflexive`;
//! - a term dropped from a union `|`, a sequence `;` or an intersection
//!   `&` (which drops tag filters: `[F & SC]` → `[F]`); `a \ b` → `a`
//!   (`\ id` included);
//! - `r?` → `r`, `r+` → `r`, `r*` → `r?` and `r+`; `^-1` and `~` dropped;
//! - a base set or relation replaced by the empty one (`0`, `domain(0)`)
//!   or the full one (`_ * _`, `_`), at one use and, for a base used more
//!   than once, at every use (`sr` everywhere full: scopes ignored);
//! - and two mutants of more than one edit, the hand-made ones authors
//!   try first (`mutate/composite.rs`): relaxed accesses treated as
//!   release and acquire, and plain SC added as an axiom.
//!
//! `flag` checks never reject an execution, so they are not mutated.
//! Includes are read in place: a mutant is one file without includes, and
//! its location names the file the edit is in. Mutants with the same text
//! are kept once; a mutant that does not compile (a type error: `[S]`
//! where `S` became a relation) is counted in [`Mutation::skipped`].
//!
//! ```
//! use litmus_model::cat::mutate::{mutate, Operator};
//! let src = "\"sc\"\nlet com = rf | co | fr\nacyclic po | com as sc\n";
//! let m = mutate("sc.cat".as_ref(), src, &mut |_| Err("no includes".into())).unwrap();
//! let drop = m.mutants.iter().find(|x| x.operator == Operator::DropCheck).unwrap();
//! assert_eq!((drop.pos.line, drop.pos.column), (3, 1));
//! assert!(m.mutants.iter().any(|x| x.description == "drop `fr` from the union `rf | co | fr`"));
//! ```

use crate::cat::{read_from_disk, IncludeError, ReadInclude};
use std::collections::{HashMap, HashSet};
use std::path::Path;

use litmus_core::ir::Test;

use super::base::Base;
use super::batch::Batch;
use super::error::{CatError, Pos};
use super::model::CatModel;
use super::parser::{CheckKind, Expr, ExprKind, Stmt};
use super::polarity::{analyse, slots, Analysis, Binding, Polarity};
use super::print;
use super::source::{flatten, text, Located};

mod composite;
mod expr_edits;

use expr_edits::{empty_and_full, meaning, mk, Walker};

/// A kind of edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    /// A check removed.
    DropCheck,
    /// `acyclic r` → `irreflexive r`.
    AcyclicToIrreflexive,
    /// `irreflexive r` → `acyclic r`.
    IrreflexiveToAcyclic,
    /// A term of `a | b | ...` removed.
    DropUnionTerm,
    /// A term of `a; b; ...` removed.
    DropSeqTerm,
    /// A term of `a & b & ...` removed (a tag filter, in `[W & REL]`).
    DropInterTerm,
    /// `a \ b` → `a`.
    DropDiff,
    /// `r?` → `r`.
    DropOpt,
    /// `r+` → `r`.
    DropPlus,
    /// `r*` → `r?`.
    StarToOpt,
    /// `r*` → `r+`.
    StarToPlus,
    /// `r^-1` → `r`.
    DropInverse,
    /// `~r` → `r`.
    DropComplement,
    /// One use of a base set or relation → the empty one.
    BaseToEmpty,
    /// One use of a base set or relation → the full one.
    BaseToFull,
    /// Every use of a base → the empty one.
    BaseEverywhereToEmpty,
    /// Every use of a base → the full one.
    BaseEverywhereToFull,
    /// Relaxed accesses as release and acquire: `REL` → `REL | (W & RLX)`
    /// and `ACQ` → `ACQ | (R & RLX)` at every use (two edits).
    RelaxedAsReleaseAcquire,
    /// Plain SC: the axiom `acyclic po | rf | co | fr` added.
    AddScAxiom,
}

impl Operator {
    /// A short kebab-case name (`drop-check`, `base-to-full`).
    pub fn name(self) -> &'static str {
        match self {
            Operator::DropCheck => "drop-check",
            Operator::AcyclicToIrreflexive => "acyclic-to-irreflexive",
            Operator::IrreflexiveToAcyclic => "irreflexive-to-acyclic",
            Operator::DropUnionTerm => "drop-union-term",
            Operator::DropSeqTerm => "drop-seq-term",
            Operator::DropInterTerm => "drop-inter-term",
            Operator::DropDiff => "drop-diff",
            Operator::DropOpt => "drop-opt",
            Operator::DropPlus => "drop-plus",
            Operator::StarToOpt => "star-to-opt",
            Operator::StarToPlus => "star-to-plus",
            Operator::DropInverse => "drop-inverse",
            Operator::DropComplement => "drop-complement",
            Operator::BaseToEmpty => "base-to-empty",
            Operator::BaseToFull => "base-to-full",
            Operator::BaseEverywhereToEmpty => "base-everywhere-to-empty",
            Operator::BaseEverywhereToFull => "base-everywhere-to-full",
            Operator::RelaxedAsReleaseAcquire => "relaxed-as-release-acquire",
            Operator::AddScAxiom => "add-sc-axiom",
        }
    }
}

impl std::fmt::Display for Operator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which way a mutant should move the verdicts, from the edit and the
/// polarity of where it is (a hint: the tests decide, see
/// [`crate::compare::Class`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Forbids at least what the model forbids (a relation under a check
    /// grew, or `irreflexive` became `acyclic`).
    Strengthening,
    /// Allows at least what the model allows (a check dropped, a relation
    /// under a check shrank).
    Weakening,
    /// The edit is in a part no check depends on (only `flag`s use it).
    NoEffect,
    /// Neither is known (`;` terms, inverses, a name used both ways).
    Unknown,
}

impl Direction {
    /// `strengthening`, `weakening`, `no effect` or `unknown`.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Strengthening => "strengthening",
            Direction::Weakening => "weakening",
            Direction::NoEffect => "no effect",
            Direction::Unknown => "unknown",
        }
    }
}

/// How an edit changes the value of the expression it edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effect {
    Smaller,
    Larger,
    Unknown,
}

fn direction(effect: Effect, pol: Polarity) -> Direction {
    match (effect, pol) {
        (_, Polarity::Unused) => Direction::NoEffect,
        (Effect::Unknown, _) | (_, Polarity::Mixed) => Direction::Unknown,
        (Effect::Smaller, Polarity::Pos) | (Effect::Larger, Polarity::Neg) => Direction::Weakening,
        _ => Direction::Strengthening,
    }
}

/// One mutant: the edit, where it is, and the model it makes.
#[derive(Debug)]
pub struct Mutant {
    /// The kind of edit.
    pub operator: Operator,
    /// What was changed, e.g. ``drop `fr` from the union `rf | co | fr` ``.
    pub description: String,
    /// The file the edit is in (the model's, or an included one's).
    pub file: String,
    /// Where in it: the start of the edited expression or check.
    pub pos: Pos,
    /// Which way the edit should move the verdicts.
    pub direction: Direction,
    /// The mutant as one cat file (includes read in place).
    pub source: String,
    /// The mutant compiled.
    pub model: CatModel,
}

/// A mutant that does not compile.
#[derive(Debug)]
pub struct Skipped {
    /// The kind of edit.
    pub operator: Operator,
    /// What was changed.
    pub description: String,
    /// The file the edit is in.
    pub file: String,
    /// Where in it.
    pub pos: Pos,
    /// Why its text does not compile (positions are in the mutant's text).
    pub error: CatError,
}

/// Every single-edit mutant of a model.
#[derive(Debug)]
pub struct Mutation {
    /// The model's file, as given.
    pub path: std::path::PathBuf,
    /// The model as one file, includes read in place, as the mutants are
    /// printed: diff a mutant's [`Mutant::source`] against this.
    pub base_source: String,
    /// The mutants that compile, in file order, each text once.
    pub mutants: Vec<Mutant>,
    /// The mutants that do not compile.
    pub skipped: Vec<Skipped>,
    /// Edits whose text was the model's own or another mutant's.
    pub duplicates: usize,
}

/// An edit before it is printed and compiled.
struct Edit {
    operator: Operator,
    description: String,
    file: String,
    pos: Pos,
    direction: Direction,
    /// The statements after the edit.
    stmts: Vec<Located>,
}

/// `e` with every occurrence that resolves to the base `base` replaced by
/// `with`; `occ` counts occurrences in preorder, as [`Walker`] does.
fn substitute(e: &Expr, base: &str, with: &Expr, resolved: &[Binding], occ: &mut usize) -> Expr {
    let mut sub = |x: &Expr| Box::new(substitute(x, base, with, resolved, occ));
    let kind = match &e.kind {
        ExprKind::Name(n) => {
            let binding = resolved.get(*occ).copied().flatten();
            *occ += 1;
            if n == base && binding.is_none() {
                return mk(with.kind.clone(), e.pos);
            }
            ExprKind::Name(n.clone())
        }
        ExprKind::Union(a, b) => {
            let a = sub(a);
            ExprKind::Union(a, sub(b))
        }
        ExprKind::Inter(a, b) => {
            let a = sub(a);
            ExprKind::Inter(a, sub(b))
        }
        ExprKind::Diff(a, b) => {
            let a = sub(a);
            ExprKind::Diff(a, sub(b))
        }
        ExprKind::Seq(a, b) => {
            let a = sub(a);
            ExprKind::Seq(a, sub(b))
        }
        ExprKind::Product(a, b) => {
            let a = sub(a);
            ExprKind::Product(a, sub(b))
        }
        ExprKind::Inverse(a) => ExprKind::Inverse(sub(a)),
        ExprKind::Plus(a) => ExprKind::Plus(sub(a)),
        ExprKind::Star(a) => ExprKind::Star(sub(a)),
        ExprKind::Opt(a) => ExprKind::Opt(sub(a)),
        ExprKind::Compl(a) => ExprKind::Compl(sub(a)),
        ExprKind::Bracket(a) => ExprKind::Bracket(sub(a)),
        ExprKind::Domain(a) => ExprKind::Domain(sub(a)),
        ExprKind::Range(a) => ExprKind::Range(sub(a)),
    };
    mk(kind, e.pos)
}

/// `stmt` with slot `k`'s expression replaced.
fn with_slot(stmt: &Stmt, k: usize, e: Expr) -> Stmt {
    let mut s = stmt.clone();
    match &mut s {
        Stmt::Let { binds, .. } => binds[k].2 = e,
        Stmt::Check { expr, .. } => *expr = e,
        Stmt::Include { .. } => {}
    }
    s
}

fn replaced(stmts: &[Located], i: usize, stmt: Option<Stmt>) -> Vec<Located> {
    let mut out = stmts.to_vec();
    match stmt {
        Some(s) => out[i].stmt = s,
        None => {
            out.remove(i);
        }
    }
    out
}

/// Every edit of the model, in file order, then the every-use base edits,
/// then the edits of several changes; `end` is the model file and where it
/// ends, where an added axiom goes.
fn edits(stmts: &[Located], an: &Analysis, end: &(String, Pos)) -> Vec<Edit> {
    let mut out = Vec::new();
    // Per base name: the polarity of each use, and where the first is.
    let mut by_base: Vec<(String, Vec<Polarity>, String, Pos)> = Vec::new();
    let mut use_counts: HashMap<String, usize> = HashMap::new();
    for (i, loc) in stmts.iter().enumerate() {
        if matches!(loc.stmt, Stmt::Check { flag: true, .. }) {
            continue;
        }
        for (k, e) in slots(&loc.stmt).into_iter().enumerate() {
            for (n, ..) in base_uses(e, &an.resolved[i][k]) {
                *use_counts.entry(n.to_string()).or_default() += 1;
            }
        }
    }
    for (i, loc) in stmts.iter().enumerate() {
        if let Stmt::Check {
            kind,
            negate,
            flag: false,
            name,
            pos,
            ..
        } = &loc.stmt
        {
            let label = match name {
                Some(n) => format!("`{n}`"),
                None => format!("`{}`", print::stmt(&loc.stmt)),
            };
            out.push(Edit {
                operator: Operator::DropCheck,
                description: format!("drop the check {label}"),
                file: loc.file.clone(),
                pos: *pos,
                direction: Direction::Weakening,
                stmts: replaced(stmts, i, None),
            });
            let swap = match kind {
                CheckKind::Acyclic => Some((
                    Operator::AcyclicToIrreflexive,
                    CheckKind::Irreflexive,
                    Direction::Weakening,
                )),
                CheckKind::Irreflexive => Some((
                    Operator::IrreflexiveToAcyclic,
                    CheckKind::Acyclic,
                    Direction::Strengthening,
                )),
                CheckKind::Empty => None,
            };
            if let Some((op, to, dir)) = swap {
                let mut s = loc.stmt.clone();
                if let Stmt::Check { kind, .. } = &mut s {
                    *kind = to;
                }
                out.push(Edit {
                    operator: op,
                    description: format!(
                        "`{}` → `{}` in the check {label}",
                        print::check_word(*kind_of(&loc.stmt)),
                        print::check_word(to)
                    ),
                    file: loc.file.clone(),
                    pos: *pos,
                    // `~acyclic` allows what `acyclic` forbids.
                    direction: if *negate {
                        match dir {
                            Direction::Weakening => Direction::Strengthening,
                            _ => Direction::Weakening,
                        }
                    } else {
                        dir
                    },
                    stmts: replaced(stmts, i, Some(s)),
                });
            }
        }
        if matches!(loc.stmt, Stmt::Check { flag: true, .. }) {
            continue;
        }
        for (k, e) in slots(&loc.stmt).into_iter().enumerate() {
            let ctx = an.slot[i][k];
            let mut w = Walker {
                resolved: &an.resolved[i][k],
                occ: 0,
                base_uses: &use_counts,
            };
            for ed in w.walk(e, Polarity::Pos, None) {
                out.push(Edit {
                    operator: ed.operator,
                    description: ed.description,
                    file: loc.file.clone(),
                    pos: ed.pos,
                    direction: direction(ed.effect, ctx.times(ed.sign)),
                    stmts: replaced(stmts, i, Some(with_slot(&loc.stmt, k, ed.expr))),
                });
            }
            for (n, sign, p) in base_uses(e, &an.resolved[i][k]) {
                let pol = ctx.times(sign);
                match by_base.iter_mut().find(|(m, ..)| m == n) {
                    Some((_, uses, ..)) => uses.push(pol),
                    None => by_base.push((n.to_string(), vec![pol], loc.file.clone(), p)),
                }
            }
        }
    }
    for (base, uses, file, pos) in by_base.into_iter().filter(|(_, u, ..)| u.len() > 1) {
        let b = Base::lookup(&base).expect("collected as a base");
        let (empty, empty_word, full, full_word) = empty_and_full(b, pos);
        for (op, with, word, effect, full) in [
            (
                Operator::BaseEverywhereToEmpty,
                empty,
                empty_word,
                Effect::Smaller,
                false,
            ),
            (
                Operator::BaseEverywhereToFull,
                full,
                full_word,
                Effect::Larger,
                true,
            ),
        ] {
            let pol = uses.iter().fold(Polarity::Unused, |acc, &p| acc.join(p));
            let new = substitute_everywhere(stmts, an, &base, &with);
            let what = format!(
                "replace every use of `{base}` ({} uses) by {word}",
                uses.len()
            );
            out.push(Edit {
                operator: op,
                description: match meaning(&base, full) {
                    Some(m) => format!("{m} ({what})"),
                    None => what,
                },
                file: file.clone(),
                pos,
                direction: direction(effect, pol),
                stmts: new,
            });
        }
    }
    out.extend(composite::relaxed_as_release_acquire(stmts));
    out.extend(composite::plain_sc(stmts, end));
    out
}

/// `stmts` with every use of the base `base` (not a name the model
/// defines) replaced by `with`; `flag` checks are left as they are.
fn substitute_everywhere(
    stmts: &[Located],
    an: &Analysis,
    base: &str,
    with: &Expr,
) -> Vec<Located> {
    let mut new = stmts.to_vec();
    for (i, loc) in new.iter_mut().enumerate() {
        if matches!(loc.stmt, Stmt::Check { flag: true, .. }) {
            continue;
        }
        let subs: Vec<Expr> = slots(&loc.stmt)
            .into_iter()
            .enumerate()
            .map(|(k, e)| substitute(e, base, with, &an.resolved[i][k], &mut 0))
            .collect();
        for (k, e) in subs.into_iter().enumerate() {
            loc.stmt = with_slot(&loc.stmt, k, e);
        }
    }
    new
}

/// The file and position of the first use of the base `base` (not a name
/// the model defines) outside `flag` checks, if it has one.
fn first_use(stmts: &[Located], an: &Analysis, base: &str) -> Option<(String, Pos)> {
    stmts.iter().enumerate().find_map(|(i, loc)| {
        if matches!(loc.stmt, Stmt::Check { flag: true, .. }) {
            return None;
        }
        slots(&loc.stmt).into_iter().enumerate().find_map(|(k, e)| {
            base_uses(e, &an.resolved[i][k])
                .into_iter()
                .find(|(n, ..)| *n == base)
                .map(|(.., p)| (loc.file.clone(), p))
        })
    })
}

/// The uses of base sets and relations in the slot expression `e` (not
/// names the model defines; `resolved` says which, per name in preorder):
/// each name, its polarity within the slot, and where it is.
fn base_uses<'e>(e: &'e Expr, resolved: &[Binding]) -> Vec<(&'e str, Polarity, Pos)> {
    let mut names = Vec::new();
    super::polarity::names(e, Polarity::Pos, &mut names);
    let mut positions = Vec::new();
    positions_of_names(e, &mut positions);
    names
        .into_iter()
        .zip(resolved)
        .zip(positions)
        .filter(|(((n, _), b), _)| b.is_none() && Base::lookup(n).is_some())
        .map(|(((n, sign), _), p)| (n, sign, p))
        .collect()
}

fn kind_of(s: &Stmt) -> &CheckKind {
    match s {
        Stmt::Check { kind, .. } => kind,
        _ => unreachable!("only checks are swapped"),
    }
}

/// The positions of the names of `e`, in the preorder of
/// [`super::polarity::names`].
fn positions_of_names(e: &Expr, out: &mut Vec<Pos>) {
    match &e.kind {
        ExprKind::Name(_) => out.push(e.pos),
        ExprKind::Union(a, b)
        | ExprKind::Inter(a, b)
        | ExprKind::Seq(a, b)
        | ExprKind::Product(a, b)
        | ExprKind::Diff(a, b) => {
            positions_of_names(a, out);
            positions_of_names(b, out);
        }
        ExprKind::Compl(a)
        | ExprKind::Inverse(a)
        | ExprKind::Plus(a)
        | ExprKind::Star(a)
        | ExprKind::Opt(a)
        | ExprKind::Bracket(a)
        | ExprKind::Domain(a)
        | ExprKind::Range(a) => positions_of_names(a, out),
    }
}

/// Every single-edit mutant of the cat model `src` (the file `path`;
/// `read` reads its includes). Fails only when the model itself does not
/// load, with the compiler's error (file, line and column).
pub fn mutate(path: &Path, src: &str, read: &mut ReadInclude<'_>) -> Result<Mutation, CatError> {
    // The model must compile as written: its errors are the user's, and
    // point into their files rather than into a printed copy.
    CatModel::from_source(path, src, read)?;
    let stmts = flatten(path, src, read)?;
    let refs: Vec<&Stmt> = stmts.iter().map(|l| &l.stmt).collect();
    let an = analyse(&refs);
    let title = path.display().to_string();
    let base_source = text(&title, &stmts);
    let mut seen: HashSet<String> = HashSet::from([base_source.clone()]);
    let mut out = Mutation {
        path: path.to_path_buf(),
        base_source,
        mutants: Vec::new(),
        skipped: Vec::new(),
        duplicates: 0,
    };
    let mut no_include = |p: &Path| -> Result<String, IncludeError> {
        Err(format!(
            "a mutant has its includes read in place; `{}` was not",
            p.display()
        )
        .into())
    };
    // The end of the model's own file (not of an include): where an
    // author would add an axiom.
    let end_pos = litmus_text::position(src, litmus_core::ir::Origin(src.len() as u32))
        .unwrap_or(Pos { line: 1, column: 1 });
    for ed in edits(&stmts, &an, &(title.clone(), end_pos)) {
        let source = text(&title, &ed.stmts);
        if !seen.insert(source.clone()) {
            out.duplicates += 1;
            continue;
        }
        // The model's name, in check results and in errors (whose
        // positions are in the mutant's text).
        let mutant_path = format!(
            "{title} (mutant {}: {} at {}:{})",
            out.mutants.len() + out.skipped.len() + 1,
            ed.operator,
            ed.pos.line,
            ed.pos.column
        );
        match CatModel::from_source(Path::new(&mutant_path), &source, &mut no_include) {
            Ok(model) => out.mutants.push(Mutant {
                operator: ed.operator,
                description: ed.description,
                file: ed.file,
                pos: ed.pos,
                direction: ed.direction,
                source,
                model,
            }),
            Err(error) => out.skipped.push(Skipped {
                operator: ed.operator,
                description: ed.description,
                file: ed.file,
                pos: ed.pos,
                error,
            }),
        }
    }
    Ok(out)
}

/// [`mutate`] of the cat file at `path`, its includes read relative to it.
pub fn mutate_file(path: &Path) -> Result<Mutation, CatError> {
    let src = std::fs::read_to_string(path).map_err(|e| CatError::Read {
        file: path.display().to_string(),
        message: e.to_string(),
    })?;
    mutate(path, &src, &mut read_from_disk)
}

impl Mutation {
    /// The model (row 0) and its mutants (row `i + 1` for mutant `i`) as
    /// one [`Batch`], for judging them all over one search per test.
    pub fn batch(&self) -> Batch {
        let mut batch = Batch::default();
        let mut no_include = |p: &Path| -> Result<String, IncludeError> {
            Err(format!("unexpected include of `{}`", p.display()).into())
        };
        let sources = std::iter::once((self.path.display().to_string(), &self.base_source)).chain(
            self.mutants
                .iter()
                .map(|m| (crate::Model::name(&m.model).to_string(), &m.source)),
        );
        for (name, source) in sources {
            batch
                .add(Path::new(&name), source, &mut no_include)
                .expect("the model and its mutants compiled when they were made");
        }
        batch
    }

    /// Runs the model and every mutant over `tests` (one search per test
    /// for all of them, on `threads` threads) and classifies each mutant
    /// against the model, in [`Mutation::mutants`] order.
    pub fn classify(
        &self,
        tests: &[Test],
        opts: &crate::Options,
        threads: usize,
    ) -> Vec<crate::compare::Classification> {
        let v = self.batch().verdicts(tests, opts, threads);
        v.allowed[1..]
            .iter()
            .map(|row| crate::compare::classify(&v.allowed[0], row))
            .collect()
    }
}
