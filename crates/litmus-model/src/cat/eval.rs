//! How a cat check is evaluated over one candidate execution: each node of
//! the program is computed at most once (memoised), `let rec` groups are
//! solved as least fixed points (every variable starts empty; the bodies
//! are recomputed until nothing changes, which terminates because the
//! bodies can only grow a finite relation), and a broken check yields a
//! witness over event ids: a cycle for `acyclic`, the event and the way
//! back for `irreflexive`, the offending pairs for `empty`.

use std::rc::Rc;

use crate::model::Execution;
use crate::relation::{Edge, EventSet, Relation};

use super::algebra::{self, Value};
use super::base::{self, Base, RelBase};
use super::parser::CheckKind;
use super::program::{intern, Check, Node, NodeId, Program};

/// The most pairs an `empty` witness lists.
const EMPTY_WITNESS_PAIRS: usize = 4;

/// Base relations a witness edge is labelled by when the expression that
/// holds it has no name of its own, first match first.
const EDGE_LABELS: [RelBase; 6] = [
    RelBase::Po,
    RelBase::Rf,
    RelBase::Co,
    RelBase::Fr,
    RelBase::SyncFence,
    RelBase::SyncBar,
];

type Memo = Vec<Option<Rc<Value>>>;

thread_local! {
    /// Memo tables of finished evaluations, for the next ones on this
    /// thread: a program of many models (`batch.rs`) has thousands of
    /// nodes, and a fresh table per candidate cost more to allocate and
    /// drop than the evaluation reads of it.
    static MEMO_POOL: std::cell::RefCell<Vec<Memo>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The evaluation of one program over one execution.
pub(crate) struct Eval<'p, 'x, 's> {
    prog: &'p Program,
    x: &'x Execution<'s>,
    n: usize,
    memo: Memo,
    /// The entries of `memo` set, to clear when the table goes back to
    /// the pool.
    touched: Vec<NodeId>,
    /// Per rec group: the solution, once solved.
    solved: Vec<Option<Vec<Rc<Value>>>>,
    /// Per rec group: the current iterate while it is being solved.
    iterate: Vec<Option<Vec<Rc<Value>>>>,
}

impl Drop for Eval<'_, '_, '_> {
    fn drop(&mut self) {
        let mut memo = std::mem::take(&mut self.memo);
        for &id in &self.touched {
            memo[id] = None;
        }
        MEMO_POOL.with(|p| p.borrow_mut().push(memo));
    }
}

impl<'p, 'x, 's> Eval<'p, 'x, 's> {
    pub fn new(prog: &'p Program, x: &'x Execution<'s>) -> Self {
        let mut memo = MEMO_POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default();
        memo.resize(prog.nodes.len(), None);
        Eval {
            prog,
            x,
            n: x.s.len(),
            memo,
            touched: Vec::new(),
            solved: vec![None; prog.groups.len()],
            iterate: vec![None; prog.groups.len()],
        }
    }

    /// The value of node `id`.
    pub fn get(&mut self, id: NodeId) -> Rc<Value> {
        if let Node::RecVar { group, index } = self.prog.nodes[id] {
            return self.rec_var(group, index);
        }
        if let Some(v) = &self.memo[id] {
            return v.clone();
        }
        let v = Rc::new(self.compute(id));
        self.memo[id] = Some(v.clone());
        self.touched.push(id);
        v
    }

    /// The relation of node `id`, borrowed when it is one (most are):
    /// cloning every operand was most of the allocation.
    fn with_rel<R>(&mut self, id: NodeId, f: impl FnOnce(&Relation) -> R) -> R {
        let v = self.get(id);
        match &*v {
            Value::Rel(r) => f(r),
            Value::Set(s) => f(&Relation::identity(self.n, s)),
        }
    }

    fn rec_var(&mut self, group: usize, index: usize) -> Rc<Value> {
        if let Some(vals) = &self.solved[group] {
            return vals[index].clone();
        }
        if let Some(vals) = &self.iterate[group] {
            return vals[index].clone();
        }
        let bodies = self.prog.groups[group].bodies.clone();
        let mut current: Vec<Rc<Value>> = bodies
            .iter()
            .map(|_| Rc::new(Value::Rel(Relation::new(self.n))))
            .collect();
        loop {
            self.iterate[group] = Some(current.clone());
            // Nodes built on this group's variables hold the last
            // iterate's values: forget them.
            for &id in &self.prog.dependents[group] {
                self.memo[id] = None;
            }
            let next: Vec<Rc<Value>> = bodies.iter().map(|&b| self.get(b)).collect();
            if next == current {
                break;
            }
            current = next;
        }
        self.iterate[group] = None;
        self.solved[group] = Some(current.clone());
        current[index].clone()
    }

    fn rel(&mut self, id: NodeId) -> Relation {
        self.get(id).rel(self.n)
    }

    fn set(&mut self, id: NodeId) -> EventSet {
        self.get(id).set(self.n)
    }

    fn compute(&mut self, id: NodeId) -> Value {
        let n = self.n;
        match self.prog.nodes[id] {
            Node::Base(b) => base::value(self.x, b),
            Node::Universe => Value::Set(EventSet::from_fn(n, |_| true)),
            Node::Empty => Value::Rel(Relation::new(n)),
            Node::Id => Value::Rel(algebra::identity(n)),
            Node::Union(a, b) | Node::Inter(a, b) | Node::Diff(a, b) => {
                let node = self.prog.nodes[id].clone();
                let (va, vb) = (self.get(a), self.get(b));
                match (&*va, &*vb) {
                    (Value::Set(x), Value::Set(y)) => Value::Set(algebra::set_op(
                        x,
                        y,
                        n,
                        match node {
                            Node::Union(..) => |p, q| p || q,
                            Node::Inter(..) => |p, q| p && q,
                            _ => |p, q| p && !q,
                        },
                    )),
                    (Value::Rel(x), Value::Rel(y)) => Value::Rel(match node {
                        Node::Union(..) => x.union(y),
                        Node::Inter(..) => x.intersect(y),
                        _ => x.minus(y),
                    }),
                    _ => {
                        let (x, y) = (va.rel(n), vb.rel(n));
                        Value::Rel(match node {
                            Node::Union(..) => x.union(&y),
                            Node::Inter(..) => x.intersect(&y),
                            _ => x.minus(&y),
                        })
                    }
                }
            }
            Node::Seq(a, b) => {
                let x = self.get(a);
                let y = self.get(b);
                match (&*x, &*y) {
                    (Value::Rel(x), Value::Rel(y)) => Value::Rel(x.compose(y)),
                    _ => Value::Rel(x.rel(n).compose(&y.rel(n))),
                }
            }
            Node::Product(a, b) => {
                let x = self.set(a);
                Value::Rel(algebra::product(&x, &self.set(b), n))
            }
            Node::Inverse(a) => Value::Rel(self.with_rel(a, Relation::inverse)),
            Node::Plus(a) => Value::Rel(self.with_rel(a, Relation::closure)),
            Node::Star(a) => Value::Rel(self.with_rel(a, algebra::star)),
            Node::Opt(a) => Value::Rel(self.with_rel(a, Relation::reflexive)),
            Node::Compl(a) => match &*self.get(a) {
                Value::Set(s) => Value::Set(algebra::set_complement(s, n)),
                Value::Rel(r) => Value::Rel(algebra::rel_complement(r, n)),
            },
            Node::Bracket(a) => Value::Rel(Relation::identity(n, &self.set(a))),
            Node::Domain(a) => Value::Set(self.with_rel(a, |r| algebra::domain(r, n))),
            Node::Range(a) => Value::Set(self.with_rel(a, |r| algebra::range(r, n))),
            Node::RecVar { group, index } => (*self.rec_var(group, index)).clone(),
        }
    }

    /// Whether `check` holds of the execution, and if not, its witness.
    pub fn holds(&mut self, check: &Check) -> Result<(), Vec<Edge>> {
        let v = self.get(check.node);
        let n = self.n;
        let witness = match (check.kind, &*v) {
            (CheckKind::Acyclic, v) => v.rel(n).find_cycle().map(|cycle| {
                (0..cycle.len())
                    .map(|i| {
                        let (a, b) = (cycle[i], cycle[(i + 1) % cycle.len()]);
                        self.edge(check.node, a, b)
                    })
                    .collect()
            }),
            (CheckKind::Irreflexive, v) => {
                let r = v.rel(n);
                r.reflexive_point()
                    .map(|p| self.loop_witness(check.node, p))
            }
            (CheckKind::Empty, Value::Set(s)) => {
                let events: Vec<usize> = (0..n).filter(|&e| s.contains(e)).collect();
                (!events.is_empty()).then(|| {
                    events
                        .iter()
                        .take(EMPTY_WITNESS_PAIRS)
                        .map(|&e| Edge {
                            from: e,
                            to: e,
                            label: check.name,
                        })
                        .collect()
                })
            }
            (CheckKind::Empty, Value::Rel(r)) => {
                let pairs: Vec<(usize, usize)> = r.pairs().take(EMPTY_WITNESS_PAIRS).collect();
                (!pairs.is_empty()).then(|| {
                    pairs
                        .into_iter()
                        .map(|(a, b)| self.edge(check.node, a, b))
                        .collect()
                })
            }
        };
        match (witness, check.negate) {
            (None, false) | (Some(_), true) => Ok(()),
            (Some(w), false) => Err(w),
            // A negated check that holds of nothing has no pairs to show.
            (None, true) => Err(Vec::new()),
        }
    }

    /// Whether `check` holds, without a witness: what judging many models
    /// needs, where building cycles for the models that reject would cost
    /// more than the judging.
    pub fn satisfied(&mut self, check: &Check) -> bool {
        let v = self.get(check.node);
        let n = self.n;
        let nonempty_set = |s: &EventSet| (0..n).any(|e| s.contains(e));
        let broken = match (check.kind, &*v) {
            (CheckKind::Acyclic, Value::Rel(r)) => !r.is_acyclic(),
            (CheckKind::Irreflexive, Value::Rel(r)) => r.reflexive_point().is_some(),
            (CheckKind::Empty, Value::Rel(r)) => !r.is_empty(),
            // A set read as a relation is its identity: a loop on each
            // event.
            (_, Value::Set(s)) => nonempty_set(s),
        };
        broken == check.negate
    }

    /// `p` related to itself: through the middle event of a sequence when
    /// the expression is one (`(rf | fr); cause`), else the loop itself.
    fn loop_witness(&mut self, node: NodeId, p: usize) -> Vec<Edge> {
        if let Node::Seq(a, b) = self.prog.nodes[node] {
            let (ra, rb) = (self.rel(a), self.rel(b));
            let middle = ra.successors(p).find(|&m| rb.contains(m, p));
            if let Some(m) = middle {
                return vec![self.edge(a, p, m), self.edge(b, m, p)];
            }
        }
        vec![self.edge(node, p, p)]
    }

    fn edge(&mut self, node: NodeId, from: usize, to: usize) -> Edge {
        Edge {
            from,
            to,
            label: self.label(node, from, to),
        }
    }

    /// Of the operands of an intersection, the one that says more about
    /// why a pair is there: the one built on the candidate's choices (`rf`
    /// in `ms & rf`), else the left one.
    fn informative(&self, l: NodeId, r: NodeId) -> NodeId {
        let dynamic = |n: NodeId| self.prog.info[n].uses & base::dynamic_mask() != 0;
        if !dynamic(l) && dynamic(r) {
            r
        } else {
            l
        }
    }

    /// The nodes bound to the name `label`, latest first.
    pub fn named(&self, label: &str) -> Vec<NodeId> {
        (0..self.prog.nodes.len())
            .rev()
            .filter(|&id| self.prog.info[id].name == Some(label))
            .collect()
    }

    /// The edge `(a, b)` of node `node` spelled out as a path of base
    /// edges (identity steps dropped), or `None` when no derivation is
    /// found within the depth bound.
    pub fn spell(&mut self, node: NodeId, a: usize, b: usize) -> Option<Vec<Edge>> {
        let mut stack = Vec::new();
        self.spell_in(node, a, b, &mut stack)
    }

    fn spell_in(
        &mut self,
        node: NodeId,
        a: usize,
        b: usize,
        stack: &mut Vec<(NodeId, usize, usize)>,
    ) -> Option<Vec<Edge>> {
        const MAX_DEPTH: usize = 64;
        if stack.len() > MAX_DEPTH || stack.contains(&(node, a, b)) {
            return None;
        }
        if !self.get(node).rel(self.n).contains(a, b) {
            return None;
        }
        stack.push((node, a, b));
        let out = self.spell_node(node, a, b, stack);
        stack.pop();
        out
    }

    fn spell_node(
        &mut self,
        node: NodeId,
        a: usize,
        b: usize,
        stack: &mut Vec<(NodeId, usize, usize)>,
    ) -> Option<Vec<Edge>> {
        let one = |label| {
            Some(vec![Edge {
                from: a,
                to: b,
                label,
            }])
        };
        match self.prog.nodes[node] {
            Node::Base(base) => one(base.name()),
            Node::Id | Node::Bracket(_) => (a == b).then(Vec::new),
            Node::Union(l, r) => self
                .spell_in(l, a, b, stack)
                .or_else(|| self.spell_in(r, a, b, stack)),
            Node::Inter(l, r) => {
                let side = self.informative(l, r);
                self.spell_in(side, a, b, stack)
            }
            Node::Diff(l, _) => self.spell_in(l, a, b, stack),
            Node::Seq(l, r) => {
                let (rl, rr) = (self.rel(l), self.rel(r));
                let mids: Vec<usize> = rl.successors(a).filter(|&m| rr.contains(m, b)).collect();
                mids.into_iter().find_map(|m| {
                    let mut first = self.spell_in(l, a, m, stack)?;
                    first.extend(self.spell_in(r, m, b, stack)?);
                    Some(first)
                })
            }
            Node::Opt(_) | Node::Star(_) if a == b => Some(Vec::new()),
            Node::Opt(r) => self.spell_in(r, a, b, stack),
            Node::Plus(r) | Node::Star(r) => {
                let path = self.rel(r).shortest_path(a, b)?;
                let mut steps = path.clone();
                if a == b {
                    steps.push(a);
                }
                let mut out = Vec::new();
                for w in steps.windows(2) {
                    out.extend(self.spell_in(r, w[0], w[1], stack)?);
                }
                Some(out)
            }
            Node::Inverse(r) => {
                let back = self.spell_in(r, b, a, stack)?;
                Some(
                    back.into_iter()
                        .rev()
                        .map(|e| Edge {
                            from: e.to,
                            to: e.from,
                            label: intern(&format!("{}^-1", e.label)),
                        })
                        .collect(),
                )
            }
            Node::RecVar { group, index } => {
                let body = self.prog.groups[group].bodies[index];
                self.spell_in(body, a, b, stack)
            }
            _ => one(self.prog.info[node].name.unwrap_or("?")),
        }
    }

    /// A name for the part of `node` that holds `(a, b)`: through unions
    /// to the operand that holds it, through `[S]; r` to `r`, then the
    /// name the node was bound to, then a base relation that holds the
    /// pair.
    fn label(&mut self, node: NodeId, a: usize, b: usize) -> &'static str {
        if let Some(name) = self.prog.info[node].name {
            if !matches!(self.prog.nodes[node], Node::Union(..)) {
                return name;
            }
        }
        match self.prog.nodes[node] {
            Node::Union(l, r) => {
                let next = if self.rel(l).contains(a, b) { l } else { r };
                self.label(next, a, b)
            }
            Node::Inter(l, r) => {
                let side = self.informative(l, r);
                self.label(side, a, b)
            }
            Node::Diff(l, _) => self.label(l, a, b),
            Node::Seq(l, r) if matches!(self.prog.nodes[l], Node::Bracket(_)) => {
                self.label(r, a, b)
            }
            Node::Seq(l, r) if matches!(self.prog.nodes[r], Node::Bracket(_)) => {
                self.label(l, a, b)
            }
            Node::Base(base @ Base::Rel(_)) => base.name(),
            _ => EDGE_LABELS
                .iter()
                .find(|&&rb| {
                    base::value(self.x, Base::Rel(rb))
                        .rel(self.n)
                        .contains(a, b)
                })
                .map_or("?", |&rb| Base::Rel(rb).name()),
        }
    }
}
