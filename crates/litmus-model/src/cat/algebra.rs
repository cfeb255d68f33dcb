//! The values of cat expressions (sets and relations of events) and the
//! operators on them, over the bit matrices of [`crate::relation`].

use crate::relation::{EventSet, Relation};

/// A set of events or a relation over them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Set(EventSet),
    Rel(Relation),
}

/// Whether an expression denotes a set or a relation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Set,
    Rel,
}

impl Ty {
    pub fn describe(self) -> &'static str {
        match self {
            Ty::Set => "a set of events",
            Ty::Rel => "a relation",
        }
    }
}

impl Value {
    /// The relation; the type checker guarantees the kind, so a set here
    /// reads as its identity relation rather than failing.
    pub fn rel(&self, n: usize) -> Relation {
        match self {
            Value::Rel(r) => r.clone(),
            Value::Set(s) => Relation::identity(n, s),
        }
    }

    /// The set; as for [`Value::rel`], a relation reads as its domain.
    pub fn set(&self, n: usize) -> EventSet {
        match self {
            Value::Set(s) => s.clone(),
            Value::Rel(r) => domain(r, n),
        }
    }
}

/// The set operation `f` applied elementwise.
pub(crate) fn set_op(a: &EventSet, b: &EventSet, n: usize, f: fn(bool, bool) -> bool) -> EventSet {
    EventSet::from_fn(n, |i| f(a.contains(i), b.contains(i)))
}

/// The complement of a set.
pub(crate) fn set_complement(a: &EventSet, n: usize) -> EventSet {
    EventSet::from_fn(n, |i| !a.contains(i))
}

/// Every pair not in `r` (the diagonal included).
pub(crate) fn rel_complement(r: &Relation, n: usize) -> Relation {
    let mut out = Relation::new(n);
    for a in 0..n {
        for b in 0..n {
            if !r.contains(a, b) {
                out.insert(a, b);
            }
        }
    }
    out
}

/// `S * T`: every pair of an event of `S` and one of `T`.
pub(crate) fn product(a: &EventSet, b: &EventSet, n: usize) -> Relation {
    let mut out = Relation::new(n);
    for x in (0..n).filter(|&x| a.contains(x)) {
        for y in (0..n).filter(|&y| b.contains(y)) {
            out.insert(x, y);
        }
    }
    out
}

/// The events with a successor in `r`.
pub(crate) fn domain(r: &Relation, n: usize) -> EventSet {
    EventSet::from_fn(n, |a| r.successors(a).next().is_some())
}

/// The events with a predecessor in `r`.
pub(crate) fn range(r: &Relation, n: usize) -> EventSet {
    let mut out = EventSet::new(n);
    for (_, b) in r.pairs() {
        out.insert(b);
    }
    out
}

/// `r*`: the reflexive-transitive closure.
pub(crate) fn star(r: &Relation) -> Relation {
    r.closure().reflexive()
}

/// The identity over every event.
pub(crate) fn identity(n: usize) -> Relation {
    Relation::new(n).reflexive()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_domain_range_complement() {
        let n = 3;
        let a = EventSet::from_fn(n, |i| i == 0);
        let b = EventSet::from_fn(n, |i| i > 0);
        let p = product(&a, &b, n);
        assert_eq!(p.pairs().collect::<Vec<_>>(), vec![(0, 1), (0, 2)]);
        assert_eq!(domain(&p, n), a);
        assert_eq!(range(&p, n), b);
        let c = rel_complement(&p, n);
        assert!(c.contains(0, 0) && !c.contains(0, 1));
        assert!(star(&Relation::new(n)).contains(2, 2));
        assert_eq!(
            set_op(&a, &b, n, |x, y| x || y),
            EventSet::from_fn(n, |_| true)
        );
    }
}
