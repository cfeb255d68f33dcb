//! `ptx-2015`: the scoped-RMO model of Alglave et al., "GPU concurrency:
//! weak behaviours and programming assumptions" (ASPLOS 2015).
//!
//! SC-per-location without read-read pairs, `acyclic (dep ∪ rf)`, RMW
//! atomicity, and for each scope s in {cta, gpu, sys}:
//! `acyclic ((dep ∪ fence≥s ∪ rfe ∪ co ∪ fr) ∩ same-s)`, where `fence≥s`
//! relates memory events separated in program order by a fence of scope s
//! or wider. The model predates acquire/release and scoped accesses: they
//! count as plain accesses, `fence.acq_rel` counts as a `membar` of its
//! scope, and a `.cluster` fence orders at CTA level only. Barriers order
//! the events around them within their CTA.

use litmus_core::instr::Scope;

use crate::events::{EventKind, Structure};
use crate::forced::{forced_co, Acyclicity};
use crate::model::{CoherenceOrder, Execution, Model, Violation};
use crate::models::{atomicity_witness, barrier_order};
use crate::relation::{labelled_cycle, Relation};

/// Program order between accesses of one location, read-read pairs left
/// out.
fn po_loc_llh(s: &Structure) -> Relation {
    Relation::from_fn(s.len(), |a, b| {
        s.po_loc.contains(a, b) && !(s.read_set.contains(a) && s.read_set.contains(b))
    })
}

/// The ASPLOS 2015 scoped model.
pub struct Ptx2015;

impl Model for Ptx2015 {
    fn name(&self) -> &'static str {
        "ptx-2015"
    }

    fn summary(&self) -> &'static str {
        "scoped RMO of Alglave et al., ASPLOS 2015 (membar scopes, no acquire/release)"
    }

    fn coherence(&self) -> CoherenceOrder {
        CoherenceOrder::Total
    }

    /// SC-per-location forces the orientations `forced::forced_co` finds, every
    /// pair of same-location writes being ordered.
    fn forced_co(&self, x: &Execution) -> Relation {
        let axiom = Acyclicity {
            base: po_loc_llh(x.s).union(&x.rf),
            mask: None,
            no_fr: None,
        };
        forced_co(x, &axiom, &|_, _| true)
    }

    fn check(&self, x: &Execution) -> Result<(), Violation> {
        let s = x.s;
        let n = s.len();
        let fail = |axiom, witness| Err(Violation { axiom, witness });

        let po_loc_llh = po_loc_llh(s);
        if let Some(w) = labelled_cycle(&[
            ("po", &po_loc_llh),
            ("rf", &x.rf),
            ("co", &x.co),
            ("fr", &x.fr),
        ]) {
            return fail("SC-per-location (no read-read)", w);
        }
        if let Some(w) = labelled_cycle(&[("rf", &x.rf), ("dep", &s.dep)]) {
            return fail("No-thin-air", w);
        }
        if let Some(w) = atomicity_witness(&s.rmw, &x.fr, &x.co) {
            return fail("Atomicity", w);
        }
        let rfe = Relation::from_fn(n, |a, b| {
            x.rf.contains(a, b) && s.events[a].thread != s.events[b].thread
        });
        let bar = barrier_order(x);
        for (scope, axiom) in [
            (Scope::Cta, "Order (cta)"),
            (Scope::Gpu, "Order (gpu)"),
            (Scope::Sys, "Order (sys)"),
        ] {
            let same = |a: usize, b: usize| s.events_in_same(scope, a, b);
            let fenced = Relation::from_fn(n, |a, b| {
                s.events[a].is_memory()
                    && s.events[b].is_memory()
                    && same(a, b)
                    && s.po.successors(a).any(|f| {
                        let ef = &s.events[f];
                        ef.kind == EventKind::Fence
                            && ef.scope.is_some_and(|fs| fs >= scope)
                            && s.po.contains(f, b)
                    })
            });
            let keep = |r: &Relation| Relation::from_fn(n, |a, b| r.contains(a, b) && same(a, b));
            let parts = [
                ("dep", keep(&s.dep)),
                ("fence", fenced),
                ("rf", keep(&rfe)),
                ("co", keep(&x.co)),
                ("fr", keep(&x.fr)),
                ("sw", keep(&bar)),
            ];
            let refs: Vec<(&'static str, &Relation)> = parts.iter().map(|(l, r)| (*l, r)).collect();
            if let Some(w) = labelled_cycle(&refs) {
                return fail(axiom, w);
            }
        }
        Ok(())
    }
}
