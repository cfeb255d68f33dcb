use gpu_litmus::litmus;

litmus! {
    cluster_scope_without_clusters;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); Fence.sc.cluster; }
    exists (x == 1) => allowed;
}

fn main() {}
