//! The catalogue: thread-block clusters (sm_90). Two CTAs of one cluster
//! pass a message through distributed shared memory (`cluster_shared`) or
//! global memory, with `.cluster`-scoped accesses and fences. No published
//! GPU litmus work covers cluster scope; the H100 figures are in the README.

use gpu_litmus::litmus;

litmus! {
    /// Relaxed `.cluster` accesses to distributed shared memory between the
    /// CTAs of one cluster: morally strong, but no release or acquire
    /// pattern, so no `sw` and the stale read is allowed.
    mp_dsmem_relaxed_cluster;
    cluster_shared x = 0, y = 0;
    thread t0 @ cta 0, cluster 0 { St.relaxed.cluster(x, 1); St.relaxed.cluster(y, 1); }
    thread t1 @ cta 1, cluster 0 { r0 = Ld.relaxed.cluster(y); r1 = Ld.relaxed.cluster(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Release/acquire at `.cluster` scope inside one cluster: the flag's
    /// release and acquire patterns are morally strong (both threads are in
    /// the cluster), so `sw` orders the data and Causality forbids the
    /// stale read.
    mp_dsmem_rel_acq_cluster;
    cluster_shared x = 0, y = 0;
    thread t0 @ cta 0, cluster 0 { St.relaxed.cluster(x, 1); St.release.cluster(y, 1); }
    thread t1 @ cta 1, cluster 0 { r0 = Ld.acquire.cluster(y); r1 = Ld.relaxed.cluster(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// `fence.acq_rel.cluster` on both sides, relaxed `.cluster` accesses:
    /// the fences start and end release and acquire patterns whose scope
    /// holds both threads, so the stale read is forbidden.
    mp_dsmem_fence_acq_rel_cluster;
    cluster_shared x = 0, y = 0;
    thread t0 @ cta 0, cluster 0 { St.relaxed.cluster(x, 1); Fence.acq_rel.cluster; St.relaxed.cluster(y, 1); }
    thread t1 @ cta 1, cluster 0 { r0 = Ld.relaxed.cluster(y); Fence.acq_rel.cluster; r1 = Ld.relaxed.cluster(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// `fence.sc.cta` on both sides between two CTAs of one cluster: a CTA
    /// fence's scope does not hold the other CTA, so the fences are not
    /// morally strong with each other and the stale read stays allowed.
    mp_dsmem_fence_sc_cta;
    cluster_shared x = 0, y = 0;
    thread t0 @ cta 0, cluster 0 { St.relaxed.cluster(x, 1); Fence.sc.cta; St.relaxed.cluster(y, 1); }
    thread t1 @ cta 1, cluster 0 { r0 = Ld.relaxed.cluster(y); Fence.sc.cta; r1 = Ld.relaxed.cluster(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Global memory, relaxed `.cluster` accesses between the CTAs of one
    /// cluster: as in distributed shared memory, nothing orders them.
    mp_global_relaxed_cluster;
    global x = 0, y = 0;
    thread t0 @ cta 0, cluster 0 { St.relaxed.cluster(x, 1); St.relaxed.cluster(y, 1); }
    thread t1 @ cta 1, cluster 0 { r0 = Ld.relaxed.cluster(y); r1 = Ld.relaxed.cluster(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Release/acquire at `.cluster` scope between CTAs of different
    /// clusters: the scope does not hold the other thread, the patterns are
    /// not morally strong, and the stale read is allowed.
    mp_global_rel_acq_cluster_across_clusters;
    global x = 0, y = 0;
    thread t0 @ cta 0, cluster 0 { St.relaxed.gpu(x, 1); St.release.cluster(y, 1); }
    thread t1 @ cta 1, cluster 1 { r0 = Ld.acquire.cluster(y); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Coherence in distributed shared memory: two relaxed `.cluster` reads
    /// of one location by a thread of another CTA of the cluster cannot
    /// see the new value and then the old one.
    corr_dsmem_relaxed_cluster;
    cluster_shared x = 0;
    thread t0 @ cta 0, cluster 0 { St.relaxed.cluster(x, 1); }
    thread t1 @ cta 1, cluster 0 { r0 = Ld.relaxed.cluster(x); r1 = Ld.relaxed.cluster(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}
