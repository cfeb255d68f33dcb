//! From syntax to a program the evaluator runs: `include`s read (relative
//! to the including file), names resolved in order (a `let` sees only what
//! comes before it, so `let co = co+` refines the base `co`), every
//! expression typed as a set or a relation, and each node marked with the
//! base sets and relations it depends on and whether it only grows as the
//! candidate execution grows (what makes early pruning sound).

use crate::cat::ReadInclude;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::algebra::Ty;
use super::base::{dynamic_mask, Base};
use super::error::{CatError, CatErrorKind, Pos};
use super::lexer::lex;
use super::parser::{parse, CheckKind, Expr, ExprKind, Stmt};
use super::program::{
    group_bit, intern, node_operands, Check, Info, Node, NodeId, Program, RecGroup,
};

/// The deepest a node may sit on its operands: evaluation recurses along
/// these chains, and a malformed or hostile file must get an error rather
/// than overflow the stack.
const MAX_HEIGHT: usize = 400;

/// The operands of an expression, left to right.
fn expr_operands(kind: &ExprKind) -> Vec<&Expr> {
    match kind {
        ExprKind::Name(_) => Vec::new(),
        ExprKind::Union(a, b)
        | ExprKind::Inter(a, b)
        | ExprKind::Diff(a, b)
        | ExprKind::Seq(a, b)
        | ExprKind::Product(a, b) => vec![a, b],
        ExprKind::Inverse(a)
        | ExprKind::Plus(a)
        | ExprKind::Star(a)
        | ExprKind::Opt(a)
        | ExprKind::Compl(a)
        | ExprKind::Bracket(a)
        | ExprKind::Domain(a)
        | ExprKind::Range(a) => vec![a],
    }
}

struct Compiler<'r> {
    prog: Program,
    env: HashMap<String, NodeId>,
    /// Files being included, to refuse cycles.
    stack: Vec<PathBuf>,
    read: &'r mut ReadInclude<'r>,
    memo: HashMap<Node, NodeId>,
}

impl Compiler<'_> {
    fn info_of(&self, node: &Node) -> Result<Info, CatErrorKind> {
        let i = |n: NodeId| &self.prog.info[n];
        let height = 1 + node_operands(node)
            .iter()
            .map(|&n| i(n).height)
            .max()
            .unwrap_or(0);
        if height > MAX_HEIGHT {
            return Err(CatErrorKind::Limit(format!(
                "definitions nest deeper than {MAX_HEIGHT} operators"
            )));
        }
        let both = |a: NodeId, b: NodeId| (i(a).uses | i(b).uses, i(a).groups | i(b).groups);
        let (ty, uses, groups, monotone) = match *node {
            Node::Base(b) => (
                match b {
                    Base::Set(_) => Ty::Set,
                    Base::Rel(_) => Ty::Rel,
                },
                b.bit(),
                0,
                true,
            ),
            Node::Universe => (Ty::Set, 0, 0, true),
            Node::Empty | Node::Id => (Ty::Rel, 0, 0, true),
            Node::Union(a, b) | Node::Inter(a, b) | Node::Diff(a, b) => {
                if i(a).ty != i(b).ty {
                    return Err(CatErrorKind::Type(format!(
                        "the operands of `{}` must both be sets or both relations; the left is {}, the right {}",
                        match node {
                            Node::Union(..) => "|",
                            Node::Inter(..) => "&",
                            _ => "\\",
                        },
                        i(a).ty.describe(),
                        i(b).ty.describe()
                    )));
                }
                let (u, g) = both(a, b);
                let mono = match node {
                    Node::Diff(..) => i(a).monotone && i(b).uses & dynamic_mask() == 0,
                    _ => i(a).monotone && i(b).monotone,
                };
                (i(a).ty, u, g, mono)
            }
            Node::Seq(a, b) => {
                for (side, n) in [("left", a), ("right", b)] {
                    if i(n).ty != Ty::Rel {
                        return Err(CatErrorKind::Type(format!(
                            "the {side} operand of `;` is {}, a relation is needed (write `[S]` for the identity on a set)",
                            i(n).ty.describe()
                        )));
                    }
                }
                let (u, g) = both(a, b);
                (Ty::Rel, u, g, i(a).monotone && i(b).monotone)
            }
            Node::Product(a, b) => {
                for (side, n) in [("left", a), ("right", b)] {
                    if i(n).ty != Ty::Set {
                        return Err(CatErrorKind::Type(format!(
                            "the {side} operand of the product `*` is {}, a set is needed",
                            i(n).ty.describe()
                        )));
                    }
                }
                let (u, g) = both(a, b);
                (Ty::Rel, u, g, i(a).monotone && i(b).monotone)
            }
            Node::Inverse(a) | Node::Plus(a) | Node::Star(a) | Node::Opt(a) => {
                if i(a).ty != Ty::Rel {
                    return Err(CatErrorKind::Type(format!(
                        "`{}` applies to relations, not to {}",
                        match node {
                            Node::Inverse(_) => "^-1",
                            Node::Plus(_) => "+",
                            Node::Star(_) => "*",
                            _ => "?",
                        },
                        i(a).ty.describe()
                    )));
                }
                (Ty::Rel, i(a).uses, i(a).groups, i(a).monotone)
            }
            Node::Compl(a) => (
                i(a).ty,
                i(a).uses,
                i(a).groups,
                i(a).uses & dynamic_mask() == 0,
            ),
            Node::Bracket(a) => {
                if i(a).ty != Ty::Set {
                    return Err(CatErrorKind::Type(format!(
                        "`[...]` takes a set, not {}",
                        i(a).ty.describe()
                    )));
                }
                (Ty::Rel, i(a).uses, i(a).groups, i(a).monotone)
            }
            Node::Domain(a) | Node::Range(a) => {
                if i(a).ty != Ty::Rel {
                    return Err(CatErrorKind::Type(format!(
                        "`domain` and `range` take a relation, not {}",
                        i(a).ty.describe()
                    )));
                }
                (Ty::Set, i(a).uses, i(a).groups, i(a).monotone)
            }
            Node::RecVar { group, .. } => (Ty::Rel, 0, group_bit(group), true),
        };
        Ok(Info {
            ty,
            uses,
            monotone,
            groups,
            name: None,
            height,
        })
    }

    fn add(&mut self, node: Node, pos: Pos, file: &str) -> Result<NodeId, CatError> {
        if let Some(&id) = self.memo.get(&node) {
            return Ok(id);
        }
        let info = self
            .info_of(&node)
            .map_err(|k| CatError::at(file, pos, k))?;
        self.prog.nodes.push(node.clone());
        self.prog.info.push(info);
        let id = self.prog.nodes.len() - 1;
        // Rec variables change while their group is solved: never share
        // nodes built on them across groups by structure alone.
        if !matches!(node, Node::RecVar { .. }) {
            self.memo.insert(node, id);
        }
        Ok(id)
    }

    /// Compiles `root` operands first, left to right, each node once.
    ///
    /// The walk keeps its own stack rather than recursing: an expression
    /// may nest thousands deep (`po | po | ...` is a chain as deep as it is
    /// long), and a debug build's frame here is kilobytes, so recursion
    /// would overflow a test thread's stack long before [`MAX_HEIGHT`]
    /// refuses the result.
    fn expr(&mut self, root: &Expr, file: &str) -> Result<NodeId, CatError> {
        // (expression, whether its operands are compiled), and the ids of
        // the operands compiled so far, in order.
        let mut work: Vec<(&Expr, bool)> = vec![(root, false)];
        let mut done: Vec<NodeId> = Vec::new();
        while let Some((e, ready)) = work.pop() {
            let operands = expr_operands(&e.kind);
            if !ready && !operands.is_empty() {
                work.push((e, true));
                work.extend(operands.into_iter().rev().map(|o| (o, false)));
                continue;
            }
            let id = match self.node_of(e, &mut done, file)? {
                Ok(node) => self.add(node, e.pos, file)?,
                Err(bound) => bound,
            };
            done.push(id);
        }
        Ok(done.pop().expect("the root's id"))
    }

    /// The node of `e`, its operands' ids taken from the end of `done`; or
    /// the id a name is bound to already.
    fn node_of(
        &self,
        e: &Expr,
        done: &mut Vec<NodeId>,
        file: &str,
    ) -> Result<Result<Node, NodeId>, CatError> {
        let mut pop = || done.pop().expect("an operand's id");
        let node = match &e.kind {
            ExprKind::Name(n) => {
                if let Some(&id) = self.env.get(n) {
                    return Ok(Err(id));
                }
                match n.as_str() {
                    "_" => Node::Universe,
                    "0" => Node::Empty,
                    "id" => Node::Id,
                    _ => match Base::lookup(n) {
                        Some(b) => Node::Base(b),
                        None => {
                            return Err(CatError::at(
                                file,
                                e.pos,
                                CatErrorKind::UnknownName(n.clone(), Base::names()),
                            ))
                        }
                    },
                }
            }
            ExprKind::Union(..)
            | ExprKind::Inter(..)
            | ExprKind::Diff(..)
            | ExprKind::Seq(..)
            | ExprKind::Product(..) => {
                let (b, a) = (pop(), pop());
                match e.kind {
                    ExprKind::Union(..) => Node::Union(a, b),
                    ExprKind::Inter(..) => Node::Inter(a, b),
                    ExprKind::Diff(..) => Node::Diff(a, b),
                    ExprKind::Seq(..) => Node::Seq(a, b),
                    _ => Node::Product(a, b),
                }
            }
            ExprKind::Inverse(_) => Node::Inverse(pop()),
            ExprKind::Plus(_) => Node::Plus(pop()),
            ExprKind::Star(_) => Node::Star(pop()),
            ExprKind::Opt(_) => Node::Opt(pop()),
            ExprKind::Compl(_) => Node::Compl(pop()),
            ExprKind::Bracket(_) => Node::Bracket(pop()),
            ExprKind::Domain(_) => Node::Domain(pop()),
            ExprKind::Range(_) => Node::Range(pop()),
        };
        Ok(Ok(node))
    }

    fn bind(&mut self, name: &str, id: NodeId) {
        // A base keeps its own name (`let a = po` does not rename `po`).
        let info = &mut self.prog.info[id];
        if info.name.is_none() && !matches!(self.prog.nodes[id], Node::Base(_)) {
            info.name = Some(intern(name));
        }
        self.env.insert(name.to_string(), id);
    }

    /// Whether a variable of rec group `group` occurs in `node` under an
    /// odd number of complements (`~`, right of `\`).
    fn negated_var(
        &self,
        node: NodeId,
        group: usize,
        negated: bool,
        seen: &mut HashSet<(NodeId, bool)>,
    ) -> bool {
        if self.prog.info[node].groups & group_bit(group) == 0 || !seen.insert((node, negated)) {
            return false;
        }
        match self.prog.nodes[node] {
            Node::RecVar { group: g, .. } => g == group && negated,
            Node::Diff(a, b) => {
                self.negated_var(a, group, negated, seen)
                    || self.negated_var(b, group, !negated, seen)
            }
            Node::Compl(a) => self.negated_var(a, group, !negated, seen),
            ref n => node_operands(n)
                .into_iter()
                .any(|c| self.negated_var(c, group, negated, seen)),
        }
    }

    fn let_rec(&mut self, binds: &[(String, Pos, Expr)], file: &str) -> Result<(), CatError> {
        let group = self.prog.groups.len();
        self.prog.groups.push(RecGroup {
            bodies: Vec::new(),
            vars: Vec::new(),
        });
        let first = self.prog.nodes.len();
        for (index, (name, pos, _)) in binds.iter().enumerate() {
            let v = self.add(Node::RecVar { group, index }, *pos, file)?;
            self.prog.groups[group].vars.push(v);
            self.bind(name, v);
        }
        let mut bodies = Vec::new();
        for (name, pos, e) in binds {
            let b = self.expr(e, file)?;
            if self.prog.info[b].ty != Ty::Rel {
                return Err(CatError::at(
                    file,
                    *pos,
                    CatErrorKind::Type(format!(
                        "`let rec {name}` defines {}; recursive definitions here are relations",
                        self.prog.info[b].ty.describe()
                    )),
                ));
            }
            bodies.push(b);
        }
        for (&b, (name, pos, _)) in bodies.iter().zip(binds) {
            if self.negated_var(b, group, false, &mut HashSet::new()) {
                return Err(CatError::at(
                    file,
                    *pos,
                    CatErrorKind::Type(format!(
                        "`let rec {name}` uses a variable of its group under `~` or right of `\\`; a least fixed point needs the body to grow with its variables"
                    )),
                ));
            }
        }
        self.prog.groups[group].bodies = bodies.clone();
        // The variables depend on what their bodies depend on: propagate
        // through the nodes built for this group until nothing changes.
        loop {
            let uses = bodies.iter().fold(0, |m, &b| m | self.prog.info[b].uses);
            let groups = bodies.iter().fold(0, |m, &b| m | self.prog.info[b].groups);
            let mono = bodies.iter().all(|&b| self.prog.info[b].monotone);
            let mut changed = false;
            for id in first..self.prog.nodes.len() {
                let mut info = match self.prog.nodes[id] {
                    Node::RecVar { group: g, .. } if g == group => Info {
                        ty: Ty::Rel,
                        uses,
                        monotone: mono,
                        groups: groups | group_bit(group),
                        name: None,
                        // Inside its own bodies a variable reads the
                        // current iterate and recurses no further.
                        height: 1,
                    },
                    ref n => self
                        .info_of(n)
                        .map_err(|k| CatError::at(file, binds[0].1, k))?,
                };
                let old = &self.prog.info[id];
                info.name = old.name;
                if info.uses != old.uses
                    || info.monotone != old.monotone
                    || info.groups != old.groups
                    || info.height != old.height
                {
                    changed = true;
                }
                self.prog.info[id] = info;
            }
            if !changed {
                break;
            }
        }
        // Read from outside, a variable solves its group: its bodies' depth.
        let height = 1 + bodies
            .iter()
            .map(|&b| self.prog.info[b].height)
            .max()
            .unwrap_or(0);
        if height > MAX_HEIGHT {
            return Err(CatError::at(
                file,
                binds[0].1,
                CatErrorKind::Limit(format!(
                    "definitions nest deeper than {MAX_HEIGHT} operators"
                )),
            ));
        }
        for id in first..self.prog.nodes.len() {
            if matches!(self.prog.nodes[id], Node::RecVar { group: g, .. } if g == group) {
                self.prog.info[id].height = height;
            }
        }
        self.share_group(group, first, binds);
        Ok(())
    }

    /// Several models compiled into one program (mutants of a model) share
    /// every node they have in common, except those built on a `let rec`
    /// group, whose variables are new nodes each time. When group `group`
    /// (its nodes from `first` on) is an earlier group over again, it is
    /// dropped and its names bound to the earlier one's variables, so that
    /// what is built on it is shared too.
    fn share_group(&mut self, group: usize, first: NodeId, binds: &[(String, Pos, Expr)]) {
        let Some(old) = (0..group).find(|&g| self.same_group(g, group)) else {
            return;
        };
        self.prog.nodes.truncate(first);
        self.prog.info.truncate(first);
        self.memo.retain(|_, id| *id < first);
        self.prog.groups.truncate(group);
        for ((name, _, _), &v) in binds.iter().zip(&self.prog.groups[old].vars.clone()) {
            self.env.insert(name.clone(), v);
        }
    }

    /// Whether groups `a` and `b` have the same bodies, their variables
    /// read as each other's.
    fn same_group(&self, a: usize, b: usize) -> bool {
        let (ga, gb) = (&self.prog.groups[a], &self.prog.groups[b]);
        let mut seen = HashSet::new();
        ga.bodies.len() == gb.bodies.len()
            && ga
                .bodies
                .iter()
                .zip(&gb.bodies)
                .all(|(&x, &y)| self.same_node(x, y, (a, b), &mut seen))
    }

    fn same_node(
        &self,
        x: NodeId,
        y: NodeId,
        groups: (usize, usize),
        seen: &mut HashSet<(NodeId, NodeId)>,
    ) -> bool {
        if x == y || !seen.insert((x, y)) {
            return true;
        }
        let (nx, ny) = (&self.prog.nodes[x], &self.prog.nodes[y]);
        match (nx, ny) {
            (
                Node::RecVar {
                    group: gx,
                    index: ix,
                },
                Node::RecVar {
                    group: gy,
                    index: iy,
                },
            ) => (*gx, *gy) == groups && ix == iy,
            _ if std::mem::discriminant(nx) != std::mem::discriminant(ny) => false,
            (Node::Base(p), Node::Base(q)) => p == q,
            _ => {
                let (ox, oy) = (node_operands(nx), node_operands(ny));
                // Nodes without operands and of one kind are equal (`_`,
                // `0`, `id`); bases were compared above.
                ox.len() == oy.len()
                    && ox
                        .iter()
                        .zip(&oy)
                        .all(|(&p, &q)| self.same_node(p, q, groups, seen))
            }
        }
    }

    fn file(
        &mut self,
        path: &Path,
        src: &str,
        include_pos: Option<(&str, Pos)>,
    ) -> Result<(), CatError> {
        /// Includes nest at most this deep (a cycle through differently
        /// spelled paths is caught here if not by name).
        const MAX_INCLUDE_DEPTH: usize = 32;
        let file = path.display().to_string();
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        if self.stack.contains(&key) || self.stack.len() >= MAX_INCLUDE_DEPTH {
            let (f, pos) = include_pos.unwrap_or((&file, Pos { line: 1, column: 1 }));
            return Err(CatError::at(
                f,
                pos,
                CatErrorKind::Include(format!(
                    "including `{file}` again makes a cycle of includes (or nests them over {MAX_INCLUDE_DEPTH} deep)"
                )),
            ));
        }
        let toks =
            lex(src).map_err(|(pos, m)| CatError::at(&file, pos, CatErrorKind::Syntax(m)))?;
        let stmts = parse(&toks).map_err(|(pos, k)| CatError::at(&file, pos, k))?;
        self.stack.push(key);
        for stmt in &stmts {
            self.stmt(stmt, path, &file)?;
        }
        self.stack.pop();
        Ok(())
    }

    fn stmt(&mut self, stmt: &Stmt, path: &Path, file: &str) -> Result<(), CatError> {
        match stmt {
            Stmt::Let { rec: false, binds } => {
                // `let a = e and b = f`: every body sees the names before it.
                let ids = binds
                    .iter()
                    .map(|(_, _, e)| self.expr(e, file))
                    .collect::<Result<Vec<_>, _>>()?;
                for ((name, _, _), id) in binds.iter().zip(ids) {
                    self.bind(name, id);
                }
            }
            Stmt::Let { rec: true, binds } => self.let_rec(binds, file)?,
            Stmt::Check {
                kind,
                negate,
                flag,
                expr,
                name,
                pos,
            } => {
                let node = self.expr(expr, file)?;
                if *kind != CheckKind::Empty && self.prog.info[node].ty != Ty::Rel {
                    return Err(CatError::at(
                        file,
                        expr.pos,
                        CatErrorKind::Type(format!(
                            "`{}` takes a relation, not {}",
                            if *kind == CheckKind::Acyclic {
                                "acyclic"
                            } else {
                                "irreflexive"
                            },
                            self.prog.info[node].ty.describe()
                        )),
                    ));
                }
                let name = match name {
                    Some(n) => intern(n),
                    None => intern(&format!(
                        "{} at {}:{}",
                        match kind {
                            CheckKind::Acyclic => "acyclic",
                            CheckKind::Irreflexive => "irreflexive",
                            CheckKind::Empty => "empty",
                        },
                        file,
                        pos
                    )),
                };
                self.prog.checks.push(Check {
                    kind: *kind,
                    negate: *negate,
                    flag: *flag,
                    node,
                    name,
                });
            }
            Stmt::Include { path: inc, pos } => {
                let target = path.parent().unwrap_or(Path::new(".")).join(inc);
                let src = (self.read)(&target).map_err(|m| {
                    CatError::at(
                        file,
                        *pos,
                        CatErrorKind::Include(format!(
                            "cannot include \"{inc}\" ({}): {m}",
                            target.display()
                        )),
                    )
                })?;
                self.file(&target, &src, Some((file, *pos)))?;
            }
        }
        Ok(())
    }
}

/// Compiles the cat text `src` of the file `path`; `read` reads included
/// files.
pub(crate) fn compile(
    path: &Path,
    src: &str,
    read: &mut ReadInclude<'_>,
) -> Result<Program, CatError> {
    let mut shared = Shared::default();
    shared.add(path, src, read)?;
    Ok(shared.prog)
}

/// Several models compiled into one program: a node they have in common
/// is one node, so that evaluating all of them over one execution
/// computes it once (see `batch.rs`).
#[derive(Debug, Default)]
pub(crate) struct Shared {
    pub prog: Program,
    memo: HashMap<Node, NodeId>,
}

impl Shared {
    /// Compiles one more model; returns the range of its checks in
    /// `prog.checks`. A model that fails to compile leaves the program as
    /// it was.
    pub fn add(
        &mut self,
        path: &Path,
        src: &str,
        read: &mut ReadInclude<'_>,
    ) -> Result<std::ops::Range<usize>, CatError> {
        let lens = (
            self.prog.nodes.len(),
            self.prog.groups.len(),
            self.prog.checks.len(),
        );
        let mut c = Compiler {
            prog: std::mem::take(&mut self.prog),
            env: HashMap::new(),
            stack: Vec::new(),
            read,
            memo: std::mem::take(&mut self.memo),
        };
        let result = c.file(path, src, None);
        self.prog = c.prog;
        self.memo = c.memo;
        if let Err(e) = result {
            // `dependents` is only extended below, on success.
            self.prog.nodes.truncate(lens.0);
            self.prog.info.truncate(lens.0);
            self.prog.groups.truncate(lens.1);
            self.prog.checks.truncate(lens.2);
            self.memo.retain(|_, id| *id < lens.0);
            return Err(e);
        }
        // Only the new nodes can depend on the new groups, and old nodes'
        // groups are final.
        let prog = &mut self.prog;
        prog.dependents.resize(prog.groups.len(), Vec::new());
        for id in lens.0..prog.nodes.len() {
            for g in 0..prog.groups.len() {
                if prog.info[id].groups & group_bit(g) != 0 {
                    prog.dependents[g].push(id);
                }
            }
        }
        Ok(lens.2..self.prog.checks.len())
    }
}
