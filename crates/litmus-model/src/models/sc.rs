//! `sc`: sequential consistency. One total order of all memory events that
//! respects program order, every read seeing the latest write before it:
//! `po ∪ rf ∪ co ∪ fr` is acyclic and no write comes between the read and
//! the write of an RMW. Scopes, semantics and fences mean nothing here;
//! barriers order the events around them.

use crate::forced::{forced_co, Acyclicity};
use crate::model::{CoherenceOrder, Execution, Model, Violation};
use crate::models::{atomicity_witness, barrier_order};
use crate::relation::{labelled_cycle, Relation};

/// Sequential consistency.
pub struct Sc;

impl Model for Sc {
    fn name(&self) -> &'static str {
        "sc"
    }

    fn summary(&self) -> &'static str {
        "sequential consistency (one interleaving; outcomes it forbids are weak behaviours)"
    }

    fn coherence(&self) -> CoherenceOrder {
        CoherenceOrder::Total
    }

    /// `po ∪ rf ∪ co ∪ fr` acyclic forces the orientations `forced::forced_co`
    /// finds, every pair of same-location writes being ordered.
    fn forced_co(&self, x: &Execution) -> Relation {
        let axiom = Acyclicity {
            base: x.s.po.union(&x.rf).union(&barrier_order(x)),
            mask: None,
            no_fr: None,
        };
        forced_co(x, &axiom, &|_, _| true)
    }

    fn check(&self, x: &Execution) -> Result<(), Violation> {
        let s = x.s;
        if let Some(witness) = atomicity_witness(&s.rmw, &x.fr, &x.co) {
            return Err(Violation {
                axiom: "Atomicity",
                witness,
            });
        }
        let bar = barrier_order(x);
        match labelled_cycle(&[
            ("po", &s.po),
            ("rf", &x.rf),
            ("co", &x.co),
            ("fr", &x.fr),
            ("sw", &bar),
        ]) {
            Some(witness) => Err(Violation {
                axiom: "Sequential consistency",
                witness,
            }),
            None => Ok(()),
        }
    }
}
