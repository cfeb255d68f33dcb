//! The interface between the enumerator and a memory model.
//!
//! As in herd7 and Dat3M, the enumerator (the "architecture" side) builds
//! candidate executions; a model only judges them. A model also says which
//! choices a candidate must make for it: which writes coherence must order,
//! which fences a Fence-SC order relates, which coherence edges the rest of
//! the execution implies. Adding a model is one file under `models/`
//! implementing [`Model`] plus one line in [`crate::models::MODELS`].

use crate::events::{EventId, Structure};
use crate::relation::{Edge, Relation};

/// How far a candidate execution has been built when a model sees it.
/// Before [`Stage::Complete`], relations may still grow: a model must then
/// report only violations that no extension can repair (every axiom of the
/// shipped models is monotone in rf, co and the Fence-SC order, except
/// PTX's "cause ⊆ co", which the enumerator builds in through
/// [`Model::implied_co`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Some reads have no rf yet; no barrier, Fence-SC or coherence choice.
    Rf,
    /// rf and barriers chosen; the Fence-SC order is partial.
    FenceOrder,
    /// Coherence is partial (initial writes first, implied edges, some
    /// orientations).
    Coherence,
    /// Every choice made.
    Complete,
}

/// A candidate execution, complete or partial (see [`Stage`]).
#[derive(Clone, Debug)]
pub struct Execution<'s> {
    /// The events and static relations of the test.
    pub s: &'s Structure,
    /// How far the candidate is built.
    pub stage: Stage,
    /// Reads-from: write to read.
    pub rf: Relation,
    /// Coherence, transitively closed, initial writes first.
    pub co: Relation,
    /// From-reads: `rf⁻¹ ; co`.
    pub fr: Relation,
    /// The Fence-SC order, transitively closed.
    pub sc: Relation,
    /// Barrier synchronisation edges.
    pub bar: Relation,
}

/// Why a model rejects an execution: the axiom and its witness, a cycle or
/// the offending edges, over event ids of the execution.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Violation {
    /// The axiom broken, by the name the model gives it.
    pub axiom: &'static str,
    /// Its witness, over event ids.
    pub witness: Vec<Edge>,
}

/// Which pairs of same-location writes a candidate's coherence must order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoherenceOrder {
    /// Every pair: coherence is a total order per location.
    Total,
    /// The morally strong pairs only (PTX): racing writes stay unordered.
    MorallyStrong,
}

/// The Fence-SC order a candidate must choose: `fixed` edges (already
/// known), and the pairs whose orientation is free.
#[derive(Clone, Debug)]
pub struct FenceOrder {
    /// Edges already known.
    pub fixed: Relation,
    /// Pairs of fences whose order the candidate must choose.
    pub free: Vec<(EventId, EventId)>,
}

impl FenceOrder {
    /// No Fence-SC order at all.
    pub fn none(n: usize) -> FenceOrder {
        FenceOrder {
            fixed: Relation::new(n),
            free: Vec::new(),
        }
    }
}

/// An axiomatic memory model.
pub trait Model: Send + Sync {
    /// The name users select it by (`ptx`, `sc`, `ptx-2015`).
    fn name(&self) -> &'static str;

    /// One line saying what the model is.
    fn summary(&self) -> &'static str;

    /// Which same-location writes coherence must order.
    fn coherence(&self) -> CoherenceOrder;

    /// The Fence-SC order to enumerate (none by default).
    fn fence_order(&self, s: &Structure) -> FenceOrder {
        FenceOrder::none(s.len())
    }

    /// Coherence edges the rest of the execution implies (rf, barriers and
    /// the Fence-SC order are final when this is asked). None by default.
    fn implied_co(&self, x: &Execution) -> Relation {
        Relation::new(x.s.len())
    }

    /// `x.co` grown by coherence edges that every consistent completion of
    /// `x` has (at any [`Stage`]: rf may still grow), transitively closed;
    /// a co that is not irreflexive says no completion is consistent. Only
    /// for pairs [`Model::coherence`] makes the model order, plus the
    /// [`Model::implied_co`] edges. It must be sound and may be incomplete:
    /// the search uses it to find one consistent coherence order quickly,
    /// and still checks every choice. `x.co` unchanged by default.
    fn forced_co(&self, x: &Execution) -> Relation {
        x.co.clone()
    }

    /// Whether the model has PTX 7.5 proxies and aliases: a model without
    /// them refuses a test that uses them (see [`crate::proxy`]).
    fn proxies(&self) -> bool {
        false
    }

    /// Whether the model has the async proxy (bulk copies, mbarriers,
    /// `fence.proxy.async`): a model without it refuses a test that uses
    /// it.
    fn async_proxy(&self) -> bool {
        false
    }

    /// Checks the axioms, in a fixed order; the first one broken is
    /// reported. See [`Stage`] for partial executions.
    fn check(&self, x: &Execution) -> Result<(), Violation>;

    /// Expands an edge of a derived relation in a witness (PTX's `cause`)
    /// into a path of base edges, for explanations. Unchanged by default.
    fn refine(&self, x: &Execution, edge: &Edge) -> Vec<Edge> {
        let _ = x;
        vec![edge.clone()]
    }
}

impl std::fmt::Debug for dyn Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Model({})", self.name())
    }
}
