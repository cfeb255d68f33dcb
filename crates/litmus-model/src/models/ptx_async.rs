//! `ptx-async`: `ptx-7.5` with the async proxy (PTX ISA 8.0, sm_90):
//! bulk copies (TMA), their completion through an mbarrier or a bulk
//! group, mbarrier arrive/wait, and `fence.proxy.async`. Its cat twin is
//! `models/ptx-async.cat`.
//!
//! The rules, each with the PTX ISA section it comes from (the choices
//! where the ISA is silent are in `docs/models.md`):
//!
//! 1. A bulk copy's reads and writes are events of the async proxy
//!    ("Data Movement and Conversion Instructions: cp.async.bulk"; the
//!    memory model's "Proxies"), so `same-proxy` confines morally strong
//!    pairs and causality to the proxy as for surfaces and textures.
//! 2. A copy is performed asynchronously: it is in program order after
//!    what its thread did before issuing it, and before what the thread
//!    does after only through a completion (`cp.async.bulk`,
//!    "cp.async.bulk.wait_group"). Built into `po` by the events
//!    (`crate::proxy::ProxyTag::po_before`).
//! 3. Completion carries the implicit generic-async proxy fence: the
//!    copy's own fence before `complete_tx`, and the fence that
//!    `wait_group` is ("cp.async.bulk": "completion ... is followed by an
//!    implicit generic-async proxy fence").
//! 4. `complete_tx` is a `.release.cluster` increment of the mbarrier, in
//!    the generic proxy ("mbarrier: complete-tx operation"), and an
//!    arrive a `.release`/`.relaxed` increment at its scope; `try_wait`
//!    is an `.acquire`/`.relaxed` read at its scope ("mbarrier.arrive",
//!    "mbarrier.test_wait/try_wait": "release/acquire patterns" of the
//!    memory model). A `.cta`-scoped arrive from another CTA is not
//!    morally strong with the waiter, so it does not synchronise.
//! 5. `fence.proxy.async{.space}` orders the thread's accesses of the
//!    generic and the async proxy to memory of its state space
//!    ("membar/fence": `fence.proxy.async`); this is the one rule that
//!    is a change to `ptx-7.5`'s relations: `proxy-fence-ops` is
//!    restricted to the fence's state space. The one-way fences of PTX
//!    8.6 (`fence.proxy.async::generic.release` / `.acquire`, "membar/
//!    fence") order one direction each: a `.release` hands on only the
//!    generic accesses before it to async ones after it, an `.acquire`
//!    only async accesses before it to generic ones after it.
//!
//! On a test without async operations no event is in the async proxy,
//! no fence has a state space and `po` is `ptx-7.5`'s, so the model
//! gives `ptx-7.5`'s verdicts (checked over Dat3M's corpus and the
//! catalogue by `tests/async_agrees_with_ptx75.rs`).

use crate::events::Structure;
use crate::model::{CoherenceOrder, Execution, FenceOrder, Model, Violation};
use crate::models::ptx75::Ptx75;
use crate::relation::Relation;

/// The PTX model with the async proxy.
pub struct PtxAsync;

impl Model for PtxAsync {
    fn name(&self) -> &'static str {
        "ptx-async"
    }

    fn summary(&self) -> &'static str {
        "ptx-7.5 with the async proxy: bulk copies (TMA), mbarriers, bulk groups and fence.proxy.async"
    }

    fn coherence(&self) -> CoherenceOrder {
        Ptx75.coherence()
    }

    fn proxies(&self) -> bool {
        true
    }

    fn async_proxy(&self) -> bool {
        true
    }

    fn fence_order(&self, s: &Structure) -> FenceOrder {
        Ptx75.fence_order(s)
    }

    fn implied_co(&self, x: &Execution) -> Relation {
        Ptx75::implied_co_with(x, true)
    }

    fn check(&self, x: &Execution) -> Result<(), Violation> {
        Ptx75::check_with(x, true)
    }
}
