// Thread-block clusters and distributed shared memory (sm_90).
use gpu_litmus::litmus;

litmus! {
    mp_cluster;
    cluster_shared d = 0;
    global f = 0;
    thread t0 @ cluster 0, cta 0 { St.relaxed.cluster(d, 1); Fence.release.cluster; St.relaxed.cluster(f, 1); }
    thread t1 @ cta 1, cluster 0, gpu 0 { r0 = Ld.relaxed.cluster(f); Fence.acquire.cluster; r1 = Ld.relaxed.cluster(d); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

fn main() {}
