//! Coherence edges that a partial execution already forces, so that the
//! search finds a consistent coherence order (or learns there is none)
//! without trying orientations one pair at a time.
//!
//! The reasoning is the one an acyclicity axiom allows: when orienting a
//! pair of writes `a → b` would add an edge `u → v` (of co, or of the fr
//! that co makes with rf) to a graph in which `v` already reaches `u`, the
//! orientation closes a cycle in every extension (the axioms are monotone),
//! so a pair that must be ordered goes `b → a`. Each orientation found
//! changes the graph, so the pairs are looked at again until none is.
//! Each step is sound on its own; the reasoning is incomplete by design (it
//! looks at one new edge at a time) and the search still checks every
//! choice with the model.

use crate::events::EventId;
use crate::model::Execution;
use crate::relation::Relation;

/// The acyclicity axiom to reason with: `base ∪ (co ∪ fr) ∩ mask` must be
/// acyclic, and fr must avoid `no_fr`.
pub(crate) struct Acyclicity<'a> {
    /// The edges that do not depend on co (po-loc and rf, say).
    pub base: Relation,
    /// Which co and fr edges take part (PTX: morally strong pairs); `None`
    /// for all of them.
    pub mask: Option<&'a Relation>,
    /// fr edges that break some other axiom outright (PTX's Causality:
    /// `fr ; cause` irreflexive, so fr must avoid `cause⁻¹`).
    pub no_fr: Option<Relation>,
}

impl Acyclicity<'_> {
    fn masked(&self, a: EventId, b: EventId) -> bool {
        self.mask.is_none_or(|m| m.contains(a, b))
    }
}

/// `x.co` (transitively closed) grown by every orientation the axiom
/// forces on the pairs `required` says coherence must order, to a fixed
/// point. An inconsistent execution shows as a co that is not irreflexive.
pub(crate) fn forced_co(
    x: &Execution,
    axiom: &Acyclicity,
    required: &dyn Fn(EventId, EventId) -> bool,
) -> Relation {
    let s = x.s;
    let mut co = x.co.clone();
    let rf_inv = x.rf.inverse();
    loop {
        let fr = rf_inv.compose(&co);
        let moving = co.union(&fr);
        let reach = match axiom.mask {
            Some(m) => axiom.base.union(&moving.intersect(m)),
            None => axiom.base.union(&moving),
        }
        .closure();
        let mut changed = false;
        for ws in &s.writes_by_loc {
            for (i, &a) in ws.iter().enumerate() {
                for &b in &ws[i + 1..] {
                    if co.contains(a, b) || co.contains(b, a) || !required(a, b) {
                        continue;
                    }
                    // reach is stale once the round adds edges: smaller,
                    // so what it rules out stays ruled out.
                    let ab = impossible(x, axiom, &reach, a, b);
                    let ba = impossible(x, axiom, &reach, b, a);
                    match (ab, ba) {
                        (true, true) => {
                            // No orientation works: say so with a cycle.
                            co.insert(a, b);
                            co.insert(b, a);
                            return co.closure();
                        }
                        (true, false) => co.insert_closed(b, a),
                        (false, true) => co.insert_closed(a, b),
                        (false, false) => continue,
                    }
                    changed = true;
                }
            }
        }
        if !changed {
            return co;
        }
    }
}

/// Whether `co(a, b)` breaks the axiom in every extension: the co edge
/// itself, or an fr edge it makes from a read of `a` to `b`, closes a cycle
/// on its own (or is an fr the axiom rules out). Edges to and from the
/// co-neighbours of `a` and `b` are their own pairs, met in the same
/// fixed-point loop.
fn impossible(x: &Execution, axiom: &Acyclicity, reach: &Relation, a: EventId, b: EventId) -> bool {
    if axiom.masked(a, b) && reach.contains(b, a) {
        return true;
    }
    x.rf.successors(a).any(|r| {
        axiom.no_fr.as_ref().is_some_and(|no| no.contains(r, b))
            || (axiom.masked(r, b) && reach.contains(b, r))
    })
}
