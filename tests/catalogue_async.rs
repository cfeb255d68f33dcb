//! The catalogue: the asynchronous proxy (sm_90). Bulk copies (TMA)
//! between global and shared memory, their completion through an
//! mbarrier's transaction count or a bulk group, mbarrier arrive/wait
//! across a cluster, and `fence.proxy.async`: the patterns CUTLASS,
//! DeepEP and ThunderKittens write by hand, each with and without its
//! fence, wait or scope. The `.litmus` files of `tests/async` hold the
//! whole set (`gpu-litmus mutants` reads them); the calls below write the
//! kernels' three classic mistakes with `litmus!`.
//!
//! With no `LITMUS_MODEL`, these tests are judged by `ptx-async`;
//! `LITMUS_MODEL=$PWD/models/ptx-async.cat` judges them by its cat twin.

use gpu_litmus::{litmus, litmus_files};

litmus_files!(mod files = "tests/async/*.litmus");

litmus! {
    /// Generic stores to a shared tile, then a TMA store of the tile with
    /// no `fence.proxy.async.shared::cta` (NVIDIA/cutlass#2960,
    /// MoonshotAI/FlashKDA#24): the async proxy may read the stale tile.
    tma_store_without_proxy_fence;
    shared s = 0;
    global g = 0;
    thread t0 @ cta 0 {
        St(s, 1);
        BulkStore(g, s, 16);
        BulkCommit;
        BulkWait(0);
    }
    exists (g == 0) => allowed;
}

litmus! {
    /// The same with CUTLASS's `fence_view_async_shared()`: the TMA store
    /// reads the new tile.
    tma_store_with_proxy_fence;
    shared s = 0;
    global g = 0;
    thread t0 @ cta 0 {
        St(s, 1);
        Fence.proxy.async.shared::cta;
        BulkStore(g, s, 16);
        BulkCommit;
        BulkWait(0);
    }
    exists (g == 0) => forbidden;
}

litmus! {
    /// The same with the one-way `.release` proxy fence of PTX 8.6, which
    /// orders the generic store before the async proxy's read as the
    /// two-way fence does.
    tma_store_with_one_way_release_fence;
    shared s = 0;
    global g = 0;
    thread t0 @ cta 0 {
        St(s, 1);
        Fence.proxy.async::generic.release;
        BulkStore(g, s, 16);
        BulkCommit;
        BulkWait(0);
    }
    exists (g == 0) => forbidden;
}

litmus! {
    /// A generic read of a shared buffer, then a TMA load into it with no
    /// proxy fence (DeepEP#621): the read may see the load's data.
    war_across_proxies_without_fence;
    global g = 1;
    shared s = 0, b = 0;
    thread t0 @ cta 0 {
        r0 = Ld(s);
        MbarInit(b, 1);
        MbarArrive.expect_tx.release.cta(b, 16);
        BulkLoad(s, g, 16, b);
        r1 = MbarTryWait.acquire.cta(b);
    }
    exists (t0.r0 == 1) => allowed;
}

litmus! {
    /// The DeepEP#642 fix: `fence.proxy.async.shared::cta` between the read
    /// and the TMA load.
    war_across_proxies_with_fence;
    global g = 1;
    shared s = 0, b = 0;
    thread t0 @ cta 0 {
        r0 = Ld(s);
        Fence.proxy.async.shared::cta;
        MbarInit(b, 1);
        MbarArrive.expect_tx.release.cta(b, 16);
        BulkLoad(s, g, 16, b);
        r1 = MbarTryWait.acquire.cta(b);
    }
    exists (t0.r0 == 1) => forbidden;
}

litmus! {
    /// A remote arrive at `.cta` scope from another CTA of the cluster
    /// (NVIDIA/cutlass#3643): no synchronisation, the data may be missed.
    remote_arrive_cta_scope;
    global d = 0;
    cluster_shared b = 0;
    thread t0 @ cta 0, cluster 0 {
        MbarInit(b, 1);
        r0 = MbarTryWait.acquire.cluster(b);
        r1 = Ld(d);
    }
    thread t1 @ cta 1, cluster 0 { St(d, 1); MbarArrive.release.cta(b); }
    exists (t0.r0 == 1 && t0.r1 == 0) => allowed;
}

litmus! {
    /// The fix: the remote arrive at `.release.cluster`.
    remote_arrive_cluster_scope;
    global d = 0;
    cluster_shared b = 0;
    thread t0 @ cta 0, cluster 0 {
        MbarInit(b, 1);
        r0 = MbarTryWait.acquire.cluster(b);
        r1 = Ld(d);
    }
    thread t1 @ cta 1, cluster 0 { St(d, 1); MbarArrive.release.cluster(b); }
    exists (t0.r0 == 1 && t0.r1 == 0) => forbidden;
}
