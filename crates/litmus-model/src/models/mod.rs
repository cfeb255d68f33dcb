//! The built-in models, one file each, the helpers they share, and the
//! registry that finds a model by name (`registry.rs`).

pub mod ptx;
pub mod ptx2015;
pub mod ptx75;
pub mod ptx_async;
mod registry;
pub mod sc;

pub use registry::{
    model_by_name, model_from_env, model_from_env_for, model_names, UnknownModel,
    ASYNC_DEFAULT_MODEL, DEFAULT_MODEL, MODELS, MODEL_ENV,
};

use crate::events::Structure;
use crate::model::Execution;
use crate::relation::{Edge, Relation};

/// Orders events of one thread across a barrier they synchronised on:
/// `po ; bar ; po` between non-barrier events. Models without a notion of
/// synchronises-with use it as plain ordering.
pub(crate) fn barrier_order(x: &Execution) -> Relation {
    let s: &Structure = x.s;
    let po_r = s.po.reflexive();
    let ord = po_r.compose(&x.bar).compose(&po_r);
    Relation::from_fn(s.len(), |a, b| {
        ord.contains(a, b) && s.events[a].barrier.is_none() && s.events[b].barrier.is_none()
    })
}

/// Atomicity: `(fr ; co) ∩ rmw = ∅` (callers pass `fr` and `co` already
/// restricted as their model says). The witness: the rmw's read, the write
/// that slipped in between, the rmw's write.
pub(crate) fn atomicity_witness(rmw: &Relation, fr: &Relation, co: &Relation) -> Option<Vec<Edge>> {
    rmw.pairs().find_map(|(r, w)| {
        let mid = fr.successors(r).find(|&m| co.contains(m, w))?;
        Some(vec![
            Edge {
                from: r,
                to: mid,
                label: "fr",
            },
            Edge {
                from: mid,
                to: w,
                label: "co",
            },
            Edge {
                from: r,
                to: w,
                label: "rmw",
            },
        ])
    })
}

/// The witness of a broken irreflexivity `r1 ; r2`: an edge of `r1` from
/// `a` to `b` and an edge of `r2` back.
pub(crate) fn irreflexive_witness(
    first: &[(&'static str, &Relation)],
    second_label: &'static str,
    second: &Relation,
) -> Option<Vec<Edge>> {
    let n = second.size();
    for a in 0..n {
        for b in 0..n {
            if !second.contains(b, a) {
                continue;
            }
            if let Some((label, _)) = first.iter().find(|(_, r)| r.contains(a, b)) {
                return Some(vec![
                    Edge {
                        from: a,
                        to: b,
                        label,
                    },
                    Edge {
                        from: b,
                        to: a,
                        label: second_label,
                    },
                ]);
            }
        }
    }
    None
}

/// PTX's Coherence axiom (`ptx` and `ptx-7.5`): `cause` between
/// same-location writes lies in co (the enumerator adds it through
/// `implied_co`, so a conflict shows as a cycle), and on a complete
/// candidate every morally strong pair of writes is ordered.
pub(crate) fn ptx_coherence(x: &Execution, cause_ww: &Relation) -> Option<Vec<Edge>> {
    if let Some(w) = crate::relation::labelled_cycle(&[("co", &x.co), ("cause", cause_ww)]) {
        return Some(w);
    }
    if x.stage == crate::model::Stage::Complete {
        return unordered_strong_writes(x);
    }
    None
}

/// Every morally strong pair of writes (of one location, as `ms` implies)
/// is ordered by coherence. The witness: the first unordered pair,
/// labelled `ms`.
fn unordered_strong_writes(x: &Execution) -> Option<Vec<Edge>> {
    let s = x.s;
    s.ms.pairs()
        .find(|&(a, b)| {
            a < b
                && s.write_set.contains(a)
                && s.write_set.contains(b)
                && !x.co.contains(a, b)
                && !x.co.contains(b, a)
        })
        .map(|(a, b)| {
            vec![Edge {
                from: a,
                to: b,
                label: "ms",
            }]
        })
}
