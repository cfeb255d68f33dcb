//! The async proxy in the test kernel (PTX ISA 8.0, sm_90): each
//! instruction of `litmus_core::async_proxy` as the PTX it names, the
//! set-up that makes every instance's shared memory and mbarriers ready
//! for the async proxy before the roles start, and the drain that waits
//! for what is still in flight before the CTAs exit.
//!
//! The litmus-level word of a location is the first word of its slot; a
//! bulk copy of `size` bytes moves that word and the bytes after it, so
//! the layout gives every slot a bulk copy reaches `size` bytes, 16-byte
//! aligned (shared slots through [`crate::layout::SharedLoc::bytes`],
//! global ones through the stride: [`crate::Layout::stride_fits`]).

use litmus_core::async_proxy::AsyncOp;
use litmus_core::ir::Space;

use crate::common::Common;
use crate::emit::Emitter;
use crate::layout::Layout;
use crate::retry::Retry;
use crate::role_ctx::RoleCtx;
use crate::shared_slots::{shared_slots, skip_unless_holder};
use crate::PtxError;

/// Polls of an mbarrier's phase before a CTA exits anyway (see [`drain`]).
/// The layout accepts only tests whose first phases all end, so the bound
/// is a guard against a hang, never a wait the test relies on: at some
/// tens of nanoseconds a `test_wait` (a guess, not measured), it gives up
/// after some tens of milliseconds.
pub(crate) const DRAIN_POLLS: u32 = 1 << 20;

/// The tries of one `mbarrier.try_wait` before its register says it
/// failed (see [`emit`]). Validation accepts only waits that some arrive
/// completes, so a wait that runs out is one whose arrivals came late, as
/// the model allows; a bound, so that it never hangs.
pub(crate) const TRY_WAIT_TRIES: u32 = 1 << 10;

impl RoleCtx {
    /// The address of a global location's slot (the `.global` window:
    /// the location buffers' bases are global addresses whatever the
    /// role's addressing).
    fn global(&self, loc: &str) -> Result<&str, PtxError> {
        match self.addrs.get(loc) {
            Some((Space::Global | Space::Host, reg)) => Ok(reg),
            _ => Err(PtxError::Invalid(format!(
                "`{loc}` is no global location this role reaches"
            ))),
        }
    }

    /// The address of a shared location's slot in the cluster's window
    /// (`.shared::cluster`): a cluster-shared location's in the CTA that
    /// holds it, a CTA's own location's in this CTA (a `.shared::cta`
    /// address is one of the cluster window, naming this CTA).
    fn cluster_window(&self, loc: &str) -> Result<&str, PtxError> {
        match self.addrs.get(loc) {
            Some((Space::Shared | Space::SharedCluster, reg)) => Ok(reg),
            _ => Err(PtxError::Invalid(format!(
                "`{loc}` is no shared location this role reaches"
            ))),
        }
    }

    /// The address of a shared location's slot in this CTA's own window
    /// (`.shared::cta`), which `try_wait` and a bulk store's source need:
    /// the layout refuses a test whose thread would need one of a location
    /// another CTA holds.
    fn own_window(&self, loc: &str) -> Result<&str, PtxError> {
        self.local.get(loc).map(String::as_str).ok_or_else(|| {
            PtxError::Unsupported(format!(
                "`{loc}` lives in another CTA's shared memory, and the instruction reaches only \
                 its own CTA's"
            ))
        })
    }
}

/// Emits one async-proxy instruction of a role. Where the PTX is the
/// instruction as written, its head is the IR's ([`AsyncOp::head`]); the
/// mbarrier operations pick their state space and wait form here.
pub(crate) fn emit(ctx: &RoleCtx, op: &AsyncOp, out: &mut Emitter) -> Result<(), PtxError> {
    let head = op.head();
    match op {
        AsyncOp::BulkLoad {
            dst,
            src,
            size,
            mbar,
        } => out.ins(format!(
            "{head} [{}], [{}], {}, [{}]",
            ctx.cluster_window(&dst.text)?,
            ctx.global(&src.text)?,
            size.value,
            ctx.cluster_window(&mbar.text)?
        )),
        AsyncOp::BulkStore { dst, src, size } => out.ins(format!(
            "{head} [{}], [{}], {}",
            ctx.global(&dst.text)?,
            ctx.own_window(&src.text)?,
            size.value
        )),
        AsyncOp::WaitGroup { pending, .. } => out.ins(format!("{head} {}", pending.value)),
        // The set-up initialised every instance's barrier before the
        // roles started, as the model does; initialising it again here
        // would race with an arrival from another thread of the instance.
        AsyncOp::MbarrierInit { .. } => {
            out.comment("(mbarrier.init: done for every instance before the roles start)")
        }
        AsyncOp::MbarrierArrive {
            mbar,
            sem,
            scope,
            expect_tx,
        } => {
            // The cluster window for a cluster-shared barrier (a peer's,
            // or this CTA's through its cluster address), the CTA's own
            // otherwise; no state is kept (`_`): waits test the parity.
            let window = match ctx.addrs.get(&mbar.text) {
                Some((Space::SharedCluster, _)) => "shared::cluster",
                _ => "shared::cta",
            };
            let tx = expect_tx
                .map(|t| format!(", {}", t.value))
                .unwrap_or_default();
            out.ins(format!(
                "mbarrier.arrive{}.{}.{}.{window}.b64 _, [{}]{tx}",
                if expect_tx.is_some() {
                    ".expect_tx"
                } else {
                    ""
                },
                sem.as_str(),
                scope.as_str(),
                ctx.cluster_window(&mbar.text)?
            ));
        }
        AsyncOp::MbarrierTryWait {
            dst,
            mbar,
            sem,
            scope,
            ..
        } => {
            // The test follows the first phase (parity 0, which validation
            // checks): the parity form needs no state from an arrive of
            // this thread, which a waiter that does not arrive lacks.
            //
            // Tried again while it says no, up to TRY_WAIT_TRIES times:
            // how long one try_wait suspends is the hardware's choice
            // (the ISA leaves the limit to the system), so this is one
            // try_wait with a longer limit. And the branch on its result
            // is what orders the accesses after it: without one, ptxas
            // lets the next shared load issue before the phase check
            // resolves and the load reads the value from before the copy
            // (docs/findings.md, "A try_wait nobody branches on"); a
            // kernel always branches on it.
            let (p, more) = (out.pred(), out.pred());
            let tries = out.r32();
            let (again, waited) = (out.fresh_label("try_wait"), out.fresh_label("waited"));
            let check = format!(
                "mbarrier.try_wait.parity.{}.{}.shared::cta.b64 {p}, [{}], 0",
                sem.as_str(),
                scope.as_str(),
                ctx.own_window(&mbar.text)?
            );
            Retry {
                again: &again,
                out_to: &waited,
                hit: &p,
                more: &more,
                count: &tries,
                limit: &TRY_WAIT_TRIES.to_string(),
            }
            .emit(&[check], out);
            out.label(&waited);
            out.ins(format!("selp.u32 {}, 1, 0, {p}", ctx.reg(&dst.text)?));
        }
        AsyncOp::CommitGroup
        | AsyncOp::ProxyFence(_)
        | AsyncOp::MbarrierInitFence
        | AsyncOp::ProxyFenceOneWay(_) => out.ins(head),
    }
    Ok(())
}

/// In a test with async operations, after each thread has written the
/// initial values of its shared slots and initialised its mbarriers, and
/// before the barrier that lets the roles start: the model's initial
/// state is every proxy's, so each thread orders its generic writes
/// before any bulk copy that reads or writes those slots
/// (`fence.proxy.async.shared::cta`, CUTLASS's `fence_view_async_shared`)
/// and makes its `mbarrier.init`s visible to the cluster
/// (`fence.mbarrier_init.release.cluster`, CUTLASS's
/// `fence_barrier_init`). Without the first, a TMA store could read the
/// slot's value from the launch before.
pub(crate) fn initial_values_to_async_proxy(layout: &Layout, out: &mut Emitter) {
    if !layout.asynchronous || layout.shared_locs.is_empty() {
        return;
    }
    out.comment("the initial values and mbarriers, for the async proxy and the cluster");
    out.ins("fence.proxy.async.shared::cta");
    if layout.shared_locs.iter().any(|l| l.mbarrier.is_some()) {
        out.ins("fence.mbarrier_init.release.cluster");
    }
}

/// Once every role of the thread has run, in a test with async
/// operations: waits for what is still in flight, so that no bulk copy
/// writes the shared memory of a CTA that has exited (or the next one on
/// its SM) and the final values are complete. Each thread waits for its
/// own bulk groups (`wait_group` is per thread; a commit first closes
/// any group a role left open); then each instance's mbarrier, in the CTA
/// that holds it, until its first phase has ended: by then every bulk
/// load that signals it has landed. Before `publish_shared`, whose
/// barrier then keeps every CTA of a cluster alive until the holders are
/// done.
pub(crate) fn drain(layout: &Layout, common: &Common, out: &mut Emitter) {
    if !layout.asynchronous {
        return;
    }
    if layout.bulk_stores {
        out.comment("drain: this thread's bulk stores");
        out.ins("cp.async.bulk.commit_group");
        out.ins("cp.async.bulk.wait_group 0");
    }
    if !layout.shared_locs.iter().any(|l| l.mbarrier.is_some()) {
        return;
    }
    out.comment("drain: each instance's mbarrier, until its first phase has ended");
    shared_slots(layout, common, out, |out, addr, s| {
        if layout.shared_locs[s].mbarrier.is_none() {
            return;
        }
        let skip = out.fresh_label("drained");
        skip_unless_holder(layout, common, s, &skip, out);
        let poll = out.fresh_label("drain");
        let (done, more) = (out.pred(), out.pred());
        let polls = out.r32();
        // `test_wait` returns at once: the bound counts polls, not the
        // hardware's suspension time of `try_wait`.
        Retry {
            again: &poll,
            out_to: &skip,
            hit: &done,
            more: &more,
            count: &polls,
            limit: &DRAIN_POLLS.to_string(),
        }
        .emit(
            &[format!(
                "mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 {done}, [{addr}], 0"
            )],
            out,
        );
        out.label(&skip);
    });
}
