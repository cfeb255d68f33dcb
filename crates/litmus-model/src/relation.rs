//! Binary relations over the events of one candidate execution, as bit
//! matrices: one row of 64-bit words per event. Litmus tests have tens of
//! events, so every operation here is a handful of word operations per row.

use std::collections::VecDeque;

/// A set of events, as a bit vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventSet {
    bits: Vec<u64>,
}

impl EventSet {
    /// The empty set over `n` events.
    pub fn new(n: usize) -> EventSet {
        EventSet {
            bits: vec![0; n.div_ceil(64).max(1)],
        }
    }

    /// The set of the events `i` in `0..n` for which `f(i)` holds.
    pub fn from_fn(n: usize, f: impl Fn(usize) -> bool) -> EventSet {
        let mut s = EventSet::new(n);
        for i in (0..n).filter(|&i| f(i)) {
            s.insert(i);
        }
        s
    }

    /// Adds event `i`.
    pub fn insert(&mut self, i: usize) {
        self.bits[i / 64] |= 1 << (i % 64);
    }

    /// Whether event `i` is in the set.
    pub fn contains(&self, i: usize) -> bool {
        self.bits[i / 64] >> (i % 64) & 1 == 1
    }
}

/// A binary relation over `n` events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relation {
    n: usize,
    words: usize,
    bits: Vec<u64>,
}

impl Relation {
    /// The empty relation over `n` events.
    pub fn new(n: usize) -> Relation {
        let words = n.div_ceil(64).max(1);
        Relation {
            n,
            words,
            bits: vec![0; n * words],
        }
    }

    /// The identity over the events of `set`.
    pub fn identity(n: usize, set: &EventSet) -> Relation {
        let mut r = Relation::new(n);
        for i in (0..n).filter(|&i| set.contains(i)) {
            r.insert(i, i);
        }
        r
    }

    /// The pairs `(a, b)` with `a != b` for which `f(a, b)` holds.
    pub fn from_fn(n: usize, f: impl Fn(usize, usize) -> bool) -> Relation {
        let mut r = Relation::new(n);
        for a in 0..n {
            for b in 0..n {
                if a != b && f(a, b) {
                    r.insert(a, b);
                }
            }
        }
        r
    }

    /// The number of events the relation is over.
    pub fn size(&self) -> usize {
        self.n
    }

    fn row(&self, a: usize) -> &[u64] {
        &self.bits[a * self.words..(a + 1) * self.words]
    }

    fn row_mut(&mut self, a: usize) -> &mut [u64] {
        &mut self.bits[a * self.words..(a + 1) * self.words]
    }

    /// Adds the pair `(a, b)`.
    pub fn insert(&mut self, a: usize, b: usize) {
        self.bits[a * self.words + b / 64] |= 1 << (b % 64);
    }

    /// Removes the pair `(a, b)`.
    pub fn remove(&mut self, a: usize, b: usize) {
        self.bits[a * self.words + b / 64] &= !(1 << (b % 64));
    }

    /// Whether `(a, b)` is in the relation.
    pub fn contains(&self, a: usize, b: usize) -> bool {
        self.bits[a * self.words + b / 64] >> (b % 64) & 1 == 1
    }

    /// Whether the relation holds no pair.
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }

    /// The pairs of the relation, in order.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.n).flat_map(move |a| self.successors(a).map(move |b| (a, b)))
    }

    /// The `b` with `(a, b)` in the relation, in order.
    pub fn successors(&self, a: usize) -> impl Iterator<Item = usize> + '_ {
        self.row(a).iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + i)
            })
        })
    }

    /// `self ∪ other`.
    pub fn union(&self, other: &Relation) -> Relation {
        let mut r = self.clone();
        r.union_with(other);
        r
    }

    /// Adds the pairs of `other` (`self ∪= other`); both must be over the
    /// same events.
    pub fn union_with(&mut self, other: &Relation) {
        for (x, y) in self.bits.iter_mut().zip(&other.bits) {
            *x |= *y;
        }
    }

    /// `self ∩ other`.
    pub fn intersect(&self, other: &Relation) -> Relation {
        let mut r = self.clone();
        for (x, y) in r.bits.iter_mut().zip(&other.bits) {
            *x &= *y;
        }
        r
    }

    /// `self \ other`.
    pub fn minus(&self, other: &Relation) -> Relation {
        let mut r = self.clone();
        for (x, y) in r.bits.iter_mut().zip(&other.bits) {
            *x &= !*y;
        }
        r
    }

    /// `self⁻¹`.
    pub fn inverse(&self) -> Relation {
        let mut r = Relation::new(self.n);
        for (a, b) in self.pairs() {
            r.insert(b, a);
        }
        r
    }

    /// `self ; other`.
    pub fn compose(&self, other: &Relation) -> Relation {
        let mut r = Relation::new(self.n);
        let mut acc = vec![0u64; self.words];
        for a in 0..self.n {
            acc.fill(0);
            for m in self.successors(a) {
                for (x, y) in acc.iter_mut().zip(other.row(m)) {
                    *x |= *y;
                }
            }
            r.row_mut(a).copy_from_slice(&acc);
        }
        r
    }

    /// `[dom] ; self ; [ran]`.
    pub fn restrict(&self, dom: &EventSet, ran: &EventSet) -> Relation {
        let mut r = self.clone();
        for a in 0..self.n {
            let row = r.row_mut(a);
            if dom.contains(a) {
                for (x, y) in row.iter_mut().zip(&ran.bits) {
                    *x &= *y;
                }
            } else {
                row.fill(0);
            }
        }
        r
    }

    /// `self?`: the reflexive closure over all events.
    pub fn reflexive(&self) -> Relation {
        let mut r = self.clone();
        for i in 0..self.n {
            r.insert(i, i);
        }
        r
    }

    /// `self⁺`: the transitive closure (Warshall, a row at a time).
    pub fn closure(&self) -> Relation {
        let mut r = self.clone();
        let mut row_k = vec![0u64; self.words];
        for k in 0..self.n {
            row_k.copy_from_slice(r.row(k));
            for a in 0..self.n {
                if r.contains(a, k) {
                    for (x, y) in r.row_mut(a).iter_mut().zip(&row_k) {
                        *x |= *y;
                    }
                }
            }
        }
        r
    }

    /// Adds `(a, b)` to a transitively closed relation and keeps it closed.
    pub fn insert_closed(&mut self, a: usize, b: usize) {
        let mut add = self.row(b).to_vec();
        add[b / 64] |= 1 << (b % 64);
        for x in 0..self.n {
            if x == a || self.contains(x, a) {
                for (w, y) in self.row_mut(x).iter_mut().zip(&add) {
                    *w |= *y;
                }
            }
        }
    }

    /// Whether no event is related to itself.
    pub fn is_irreflexive(&self) -> bool {
        (0..self.n).all(|i| !self.contains(i, i))
    }

    /// An event related to itself, if any.
    pub fn reflexive_point(&self) -> Option<usize> {
        (0..self.n).find(|&i| self.contains(i, i))
    }

    /// Whether the relation has no cycle.
    pub fn is_acyclic(&self) -> bool {
        // A topological order exists exactly when there is no cycle, and
        // costs one pass where finding the shortest cycle costs one search
        // per event.
        self.topological_order().is_some()
    }

    /// A shortest cycle, as the list of its events (the last one relates
    /// back to the first), or `None` when the relation is acyclic.
    pub fn find_cycle(&self) -> Option<Vec<usize>> {
        // Cheap test first: most calls are on acyclic relations.
        if self.topological_order().is_some() {
            return None;
        }
        let mut best: Option<Vec<usize>> = None;
        for start in 0..self.n {
            if let Some(path) = self.shortest_path(start, start) {
                if best.as_ref().is_none_or(|b| path.len() < b.len()) {
                    best = Some(path);
                }
            }
        }
        best
    }

    /// A shortest non-empty path from `from` to `to`, as the events it
    /// visits, `from` first and `to` not repeated at the end (so that for
    /// `from == to` it lists a cycle).
    pub fn shortest_path(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let mut parent = vec![usize::MAX; self.n];
        let mut queue = VecDeque::new();
        for s in self.successors(from) {
            if parent[s] == usize::MAX {
                parent[s] = from;
                queue.push_back(s);
            }
        }
        while let Some(x) = queue.pop_front() {
            if x == to {
                let mut path = vec![];
                let mut cur = x;
                loop {
                    let p = parent[cur];
                    path.push(p);
                    if p == from {
                        break;
                    }
                    cur = p;
                }
                path.reverse();
                if from != to {
                    path.push(to);
                }
                return Some(path);
            }
            for s in self.successors(x) {
                if parent[s] == usize::MAX {
                    parent[s] = x;
                    queue.push_back(s);
                }
            }
        }
        None
    }

    fn topological_order(&self) -> Option<Vec<usize>> {
        let mut indeg = vec![0usize; self.n];
        for (_, b) in self.pairs() {
            indeg[b] += 1;
        }
        let mut ready: Vec<usize> = (0..self.n).filter(|&i| indeg[i] == 0).collect();
        let mut order = Vec::with_capacity(self.n);
        while let Some(x) = ready.pop() {
            order.push(x);
            for s in self.successors(x) {
                indeg[s] -= 1;
                if indeg[s] == 0 {
                    ready.push(s);
                }
            }
        }
        (order.len() == self.n).then_some(order)
    }
}

/// A labelled edge of a witness: `from` relates to `to` by `label`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    /// The source event id.
    pub from: usize,
    /// The target event id.
    pub to: usize,
    /// The relation the edge belongs to (`po`, `rf`, ...).
    pub label: &'static str,
}

/// A shortest cycle in the union of labelled relations, each edge labelled
/// by the first relation that contains it.
pub fn labelled_cycle(parts: &[(&'static str, &Relation)]) -> Option<Vec<Edge>> {
    let (_, first) = parts.first()?;
    let mut all = Relation::new(first.size());
    for (_, r) in parts {
        all.union_with(r);
    }
    let cycle = all.find_cycle()?;
    Some(label_path(parts, &cycle, true))
}

/// Labels the consecutive pairs of `path` (and the closing pair when
/// `closed`) by the first relation of `parts` that contains each.
pub fn label_path(parts: &[(&'static str, &Relation)], path: &[usize], closed: bool) -> Vec<Edge> {
    let steps = if closed {
        path.len()
    } else {
        path.len().saturating_sub(1)
    };
    (0..steps)
        .map(|i| {
            let (from, to) = (path[i], path[(i + 1) % path.len()]);
            let label = parts
                .iter()
                .find(|(_, r)| r.contains(from, to))
                .map_or("?", |(l, _)| l);
            Edge { from, to, label }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(n: usize, pairs: &[(usize, usize)]) -> Relation {
        let mut r = Relation::new(n);
        for &(a, b) in pairs {
            r.insert(a, b);
        }
        r
    }

    #[test]
    fn closure_and_compose() {
        let r = rel(4, &[(0, 1), (1, 2), (2, 3)]);
        let c = r.closure();
        assert!(c.contains(0, 3) && c.contains(1, 3) && !c.contains(3, 0));
        let rr = r.compose(&r);
        assert_eq!(rr.pairs().collect::<Vec<_>>(), vec![(0, 2), (1, 3)]);
        assert_eq!(
            r.inverse().pairs().collect::<Vec<_>>(),
            vec![(1, 0), (2, 1), (3, 2)]
        );
    }

    #[test]
    fn cycles_are_found_shortest() {
        let r = rel(5, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 2)]);
        let c = r.find_cycle().unwrap();
        assert_eq!(c.len(), 2, "{c:?}");
        assert!(rel(3, &[(0, 1), (1, 2)]).is_acyclic());
        assert!(!rel(2, &[(1, 1)]).is_irreflexive());
    }

    #[test]
    fn wide_relations_work_across_words() {
        let n = 130;
        let mut r = Relation::new(n);
        for i in 0..n - 1 {
            r.insert(i, i + 1);
        }
        assert!(r.is_acyclic());
        let c = r.closure();
        assert!(c.contains(0, 129));
        let mut closed = c.clone();
        closed.insert_closed(129, 0);
        assert!(closed.contains(64, 64));
        r.insert(129, 0);
        assert_eq!(r.find_cycle().unwrap().len(), 130);
    }

    #[test]
    fn insert_closed_keeps_closure() {
        let mut c = rel(4, &[(0, 1), (2, 3)]).closure();
        c.insert_closed(1, 2);
        assert_eq!(c, rel(4, &[(0, 1), (1, 2), (2, 3)]).closure());
    }

    #[test]
    fn labels_follow_part_order() {
        let po = rel(3, &[(0, 1)]);
        let rf = rel(3, &[(1, 2), (2, 0)]);
        let cyc = labelled_cycle(&[("po", &po), ("rf", &rf)]).unwrap();
        let labels: Vec<_> = cyc.iter().map(|e| e.label).collect();
        assert_eq!(labels.len(), 3);
        assert!(labels.contains(&"po"));
        assert_eq!(labels.iter().filter(|l| **l == "rf").count(), 2);
    }
}
