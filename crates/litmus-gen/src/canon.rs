//! The canonical form of a test: equal for two tests that differ only by
//! names and numbering, so that a family writes each test once and a
//! generated test can be compared with a hand-written one.
//!
//! Renamed, for each order of the threads, in order of first appearance:
//! threads, locations, each thread's registers and labels, GPUs, CTAs,
//! clusters and warps, and the values written to each location (the
//! initial value stays; the others become 1, 2, ... as diy7 numbers them by
//! coherence and a hand-written test by program order). A condition that is
//! a conjunction of comparisons is sorted. The test's name, documentation
//! and declared verdict are left out. The form is the smallest printed
//! text over the thread orders (every order up to [`MAX_PERMUTED`] threads;
//! beyond that, the written order only).

use std::collections::HashMap;

use litmus_core::instr::InstrKind;
use litmus_core::ir::{CmpOp, Expr, Name, Operand, Placement, Term, Test, Thread, Value};
use litmus_text as text;

use crate::numbering::renumber;

/// Tests with more threads are compared in their written thread order only
/// (7 threads would be 5040 orders per test).
pub const MAX_PERMUTED: usize = 6;

/// The canonical text of `test`: two tests have the same one when they are
/// equal up to the renamings the module lists.
pub fn canonical(test: &Test) -> String {
    canonical_orders(test).0
}

/// The canonical text of `test` and every thread order that prints it
/// (more than one when the test is symmetric: IRIW's two writers), so a
/// caller can line up the threads of two tests with the same text.
pub fn canonical_orders(test: &Test) -> (String, Vec<Vec<usize>>) {
    let n = test.threads.len();
    if n > MAX_PERMUTED {
        let written: Vec<usize> = (0..n).collect();
        return (render(test, &written), vec![written]);
    }
    let mut best: Option<(String, Vec<Vec<usize>>)> = None;
    for p in permutations(n) {
        let text = render(test, &p);
        match &mut best {
            Some((b, orders)) if *b == text => orders.push(p),
            Some((b, _)) if *b < text => {}
            _ => best = Some((text, vec![p])),
        }
    }
    best.unwrap_or_default()
}

/// Whether `a` and `b` are the same test up to names and numbering.
pub fn same_up_to_names(a: &Test, b: &Test) -> bool {
    canonical(a) == canonical(b)
}

fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            out.push(q);
        }
    }
    out
}

/// The renaming for one thread order.
struct Renaming {
    locs: HashMap<String, String>,
    values: HashMap<String, HashMap<Value, Value>>,
}

impl Renaming {
    fn loc(&self, n: &Name) -> Name {
        Name::new(
            self.locs.get(&n.text).cloned().unwrap_or(n.text.clone()),
            n.origin,
        )
    }

    fn value(&self, loc: &str, v: Value) -> Value {
        self.values
            .get(loc)
            .and_then(|m| m.get(&v))
            .copied()
            .unwrap_or(v)
    }
}

/// The printed test with threads in `order` and everything renamed.
fn render(test: &Test, order: &[usize]) -> String {
    let mut t = test.clone();
    t.name = Name::new("canonical", t.name.origin);
    t.doc.0.clear();
    t.verdict = None;
    t.termination = None;
    t.threads = order.iter().map(|&i| test.threads[i].clone()).collect();
    let renaming = renaming(&t);
    let thread_names: HashMap<String, String> = t
        .threads
        .iter()
        .enumerate()
        .map(|(i, th)| (th.name.text.clone(), format!("P{i}")))
        .collect();
    let placements = placements(&t.threads.iter().map(|th| th.placement).collect::<Vec<_>>());
    // Which location each thread's registers were last loaded from, for
    // renaming the values the condition compares them with.
    let mut loaded: HashMap<(String, String), String> = HashMap::new();
    let mut reg_tables: HashMap<String, HashMap<String, usize>> = HashMap::new();
    for (th, placement) in t.threads.iter_mut().zip(placements) {
        th.placement = placement;
        let old = th.name.text.clone();
        let (regs, loads) = rename_thread(th, &renaming);
        for (reg, loc) in loads {
            loaded.insert((old.clone(), reg), loc);
        }
        th.name = Name::new(thread_names[&old].clone(), th.name.origin);
        reg_tables.insert(old, regs);
    }
    let names = ConditionNames {
        renaming: &renaming,
        loaded: &loaded,
        threads: &thread_names,
        regs: &reg_tables,
    };
    t.condition.expr = names.expr(&t.condition.expr);
    for l in t.locations.iter_mut() {
        l.name = renaming.loc(&l.name);
        if let Some(a) = &mut l.alias {
            a.target = renaming.loc(&a.target);
        }
    }
    t.locations.sort_by(|a, b| a.name.text.cmp(&b.name.text));
    text::print(&t)
}

/// Renames a thread's registers, labels, locations and stored values in
/// place. Returns its register table, and which location each register
/// was last loaded from (both by old names).
fn rename_thread(
    th: &mut Thread,
    renaming: &Renaming,
) -> (HashMap<String, usize>, Vec<(String, String)>) {
    let regs = first_appearance(
        th.body
            .iter()
            .flat_map(|i| {
                let kind = &i.kind;
                kind.srcs()
                    .into_iter()
                    .chain(kind.dst())
                    .map(|n| n.text.clone())
                    .collect::<Vec<_>>()
            })
            .chain(th.init.iter().map(|r| r.reg.text.clone())),
    );
    let labels = first_appearance(th.body.iter().filter_map(|i| match &i.kind {
        InstrKind::Label(l) | InstrKind::Branch { target: l, .. } => Some(l.text.clone()),
        _ => None,
    }));
    let reg = |n: &Name| rename(n, &regs, "r");
    let mut loads = Vec::new();
    for instr in th.body.iter_mut() {
        if let InstrKind::Load { dst, loc, .. } = &instr.kind {
            loads.push((dst.text.clone(), loc.text.clone()));
        }
        rename_instr(&mut instr.kind, renaming, &reg, &|n| {
            rename(n, &labels, "LC")
        });
    }
    for init in th.init.iter_mut() {
        init.reg = reg(&init.reg);
    }
    (regs, loads)
}

/// `items` numbered in order of first appearance.
fn first_appearance(items: impl Iterator<Item = String>) -> HashMap<String, usize> {
    let items: Vec<String> = items.collect();
    let ranks = renumber(&items);
    items.into_iter().zip(ranks).collect()
}

fn rename(n: &Name, table: &HashMap<String, usize>, prefix: &str) -> Name {
    match table.get(&n.text) {
        Some(i) => Name::new(format!("{prefix}{i}"), n.origin),
        None => n.clone(),
    }
}

/// Locations in order of first use by the threads in their new order, then
/// of the condition, then of declaration; values of each location in order
/// of first store, then of the condition.
fn renaming(t: &Test) -> Renaming {
    let mut order: Vec<String> = Vec::new();
    let mut stores: Vec<(String, Value)> = Vec::new();
    for th in &t.threads {
        for i in &th.body {
            if let Some(l) = i.kind.loc() {
                order.push(l.text.clone());
            }
            if let InstrKind::Store {
                loc,
                value: Operand::Imm(v),
                ..
            } = &i.kind
            {
                stores.push((loc.text.clone(), v.value));
            }
        }
    }
    let mut cond_locs = Vec::new();
    locs_of(&t.condition.expr, &mut cond_locs);
    order.extend(cond_locs);
    order.extend(t.locations.iter().map(|l| l.name.text.clone()));
    let ranks = renumber(&order);
    let locs = order
        .into_iter()
        .zip(ranks)
        .map(|(l, r)| (l, format!("L{r}")))
        .collect();
    let mut values: HashMap<String, HashMap<Value, Value>> = HashMap::new();
    for (loc, v) in stores {
        let init = t.location(&loc).map_or(0, |l| l.init.value);
        if v == init {
            continue;
        }
        let m = values.entry(loc).or_default();
        let next = m.len() as Value + 1;
        m.entry(v).or_insert(next);
    }
    Renaming { locs, values }
}

fn locs_of(e: &Expr, out: &mut Vec<String>) {
    match e {
        Expr::Cmp { lhs, rhs, .. } => {
            for t in [lhs, rhs] {
                if let Term::Loc(n) = t {
                    out.push(n.text.clone());
                }
            }
        }
        Expr::Not(a) => locs_of(a, out),
        Expr::And(a, b) | Expr::Or(a, b) => {
            locs_of(a, out);
            locs_of(b, out);
        }
        Expr::True => {}
    }
}

/// GPUs, clusters, CTAs and warps numbered in order of first appearance
/// (each within the coordinates above it, so distinct stays distinct).
fn placements(ps: &[Placement]) -> Vec<Placement> {
    let gpus = renumber(&ps.iter().map(|p| p.gpu).collect::<Vec<_>>());
    let ctas = renumber(&ps.iter().map(|p| (p.gpu, p.cta)).collect::<Vec<_>>());
    let clusters = renumber(&ps.iter().map(|p| (p.gpu, p.cluster)).collect::<Vec<_>>());
    let warps = renumber(
        &ps.iter()
            .map(|p| (p.gpu, p.cta, p.warp))
            .collect::<Vec<_>>(),
    );
    ps.iter()
        .enumerate()
        .map(|(i, p)| Placement {
            host: p.host,
            gpu: gpus[i] as u32,
            cluster: p.cluster.map(|_| clusters[i] as u32),
            cta: ctas[i] as u32,
            warp: p.warp.map(|_| warps[i] as u32),
        })
        .collect()
}

fn rename_instr(
    kind: &mut InstrKind,
    r: &Renaming,
    reg: &dyn Fn(&Name) -> Name,
    label: &dyn Fn(&Name) -> Name,
) {
    let op = |o: &mut Operand| {
        if let Operand::Reg(n) = o {
            *n = reg(n);
        }
    };
    match kind {
        InstrKind::Load { dst, loc, .. } | InstrKind::ProxyLoad { dst, loc, .. } => {
            *dst = reg(dst);
            *loc = r.loc(loc);
        }
        InstrKind::Store { loc, value, .. } | InstrKind::ProxyStore { loc, value, .. } => {
            match value {
                Operand::Imm(v) => v.value = r.value(&loc.text, v.value),
                Operand::Reg(_) => op(value),
            }
            *loc = r.loc(loc);
        }
        InstrKind::Atom {
            dst,
            loc,
            operand,
            new,
            ..
        } => {
            if let Some(d) = dst {
                *d = reg(d);
            }
            *loc = r.loc(loc);
            op(operand);
            if let Some(n) = new {
                op(n);
            }
        }
        InstrKind::Barrier { id, quorum, .. } => {
            for o in [id, quorum].into_iter().flatten() {
                op(o);
            }
        }
        InstrKind::Mov { dst, src } => {
            *dst = reg(dst);
            op(src);
        }
        InstrKind::BinOp { dst, a, b, .. } => {
            *dst = reg(dst);
            op(a);
            op(b);
        }
        InstrKind::Async(a) => {
            if let litmus_core::async_proxy::AsyncOp::MbarrierTryWait { dst, .. } = a {
                *dst = reg(dst);
            }
            for l in a.locs_mut() {
                *l = r.loc(l);
            }
        }
        InstrKind::Label(l) => *l = label(l),
        InstrKind::Branch { cond, target } => {
            if let Some((_, a, b)) = cond {
                op(a);
                op(b);
            }
            *target = label(target);
        }
        InstrKind::Fence { .. } | InstrKind::WarpSync | InstrKind::ProxyFence(_) => {}
    }
}

/// What renaming the condition needs: every table, by old names.
struct ConditionNames<'a> {
    renaming: &'a Renaming,
    /// (thread, register) to the location the register was loaded from.
    loaded: &'a HashMap<(String, String), String>,
    threads: &'a HashMap<String, String>,
    regs: &'a HashMap<String, HashMap<String, usize>>,
}

impl ConditionNames<'_> {
    /// The condition with threads, registers, locations and values
    /// renamed, and a conjunction of comparisons sorted.
    fn expr(&self, e: &Expr) -> Expr {
        let mut leaves = Vec::new();
        if conjuncts(e, &mut leaves) {
            let mut built: Vec<(String, Expr)> = leaves
                .into_iter()
                .map(|(l, op, rh)| {
                    let c = self.cmp(l, op, rh);
                    (key(&c), c)
                })
                .collect();
            built.sort_by(|a, b| a.0.cmp(&b.0));
            return built
                .into_iter()
                .map(|(_, c)| c)
                .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)))
                .unwrap_or(Expr::True);
        }
        map_expr(e, &|l, op, rh| self.cmp(l, op, rh))
    }

    fn cmp(&self, lhs: &Term, op: CmpOp, rhs: &Term) -> Expr {
        Expr::Cmp {
            lhs: self.term(lhs, rhs),
            op,
            rhs: self.term(rhs, lhs),
        }
    }

    /// `t` renamed; a literal compared with `other` renamed as a value of
    /// the location `other` stands for.
    fn term(&self, t: &Term, other: &Term) -> Term {
        match t {
            Term::Reg { thread, reg } => Term::Reg {
                thread: Name::new(
                    self.threads
                        .get(&thread.text)
                        .cloned()
                        .unwrap_or(thread.text.clone()),
                    thread.origin,
                ),
                reg: match self.regs.get(&thread.text) {
                    Some(table) => rename(reg, table, "r"),
                    None => reg.clone(),
                },
            },
            Term::Loc(n) => Term::Loc(self.renaming.loc(n)),
            Term::Imm(i) => {
                let mut i = *i;
                if let Some(loc) = self.location_of(other) {
                    i.value = self.renaming.value(&loc, i.value);
                }
                Term::Imm(i)
            }
        }
    }

    fn location_of(&self, t: &Term) -> Option<String> {
        match t {
            Term::Reg { thread, reg } => self
                .loaded
                .get(&(thread.text.clone(), reg.text.clone()))
                .cloned(),
            Term::Loc(n) => Some(n.text.clone()),
            Term::Imm(_) => None,
        }
    }
}

/// The comparisons of a conjunction, or `false` when `e` is not one.
fn conjuncts<'a>(e: &'a Expr, out: &mut Vec<(&'a Term, CmpOp, &'a Term)>) -> bool {
    match e {
        Expr::Cmp { lhs, op, rhs } => {
            out.push((lhs, *op, rhs));
            true
        }
        Expr::And(a, b) => conjuncts(a, out) && conjuncts(b, out),
        _ => false,
    }
}

fn map_expr(e: &Expr, f: &dyn Fn(&Term, CmpOp, &Term) -> Expr) -> Expr {
    match e {
        Expr::Cmp { lhs, op, rhs } => f(lhs, *op, rhs),
        Expr::Not(a) => Expr::Not(Box::new(map_expr(a, f))),
        Expr::And(a, b) => Expr::And(Box::new(map_expr(a, f)), Box::new(map_expr(b, f))),
        Expr::Or(a, b) => Expr::Or(Box::new(map_expr(a, f)), Box::new(map_expr(b, f))),
        Expr::True => Expr::True,
    }
}

/// A sort key for a comparison, independent of origins.
fn key(e: &Expr) -> String {
    let t = |t: &Term| match t {
        Term::Reg { thread, reg } => format!("{thread}:{reg}"),
        Term::Loc(n) => n.text.clone(),
        Term::Imm(i) => i.value.to_string(),
    };
    match e {
        Expr::Cmp { lhs, op, rhs } => format!("{} {:?} {}", t(lhs), op, t(rhs)),
        _ => String::new(),
    }
}
