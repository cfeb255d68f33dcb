use gpu_litmus::litmus;

litmus! {
    async_bulk_size_and_spaces;
    global g = 0;
    shared s = 0, b = 0;
    thread t0 @ cta 0 {
        MbarInit(b, 1);
        MbarArrive.expect_tx.release.cta(b, 24);
        BulkLoad(s, g, 24, b);
        BulkStore(s, g, 16);
        r0 = MbarTryWait.acquire.cta(b);
    }
    exists (t0.r0 == 1) => allowed;
}

litmus! {
    async_mbarrier_in_global_memory;
    global m = 0;
    thread t0 @ cta 0 { MbarInit(m, 1); MbarArrive(m); r0 = MbarTryWait(m); }
    exists (t0.r0 == 1) => allowed;
}

litmus! {
    async_wait_nobody_arrives;
    shared b = 0;
    thread t0 @ cta 0 { MbarInit(b, 1); r0 = MbarTryWait.acquire.cta(b); }
    exists (t0.r0 == 1) => allowed;
}

litmus! {
    async_wrong_semantics_and_scope;
    shared b = 0;
    thread t0 @ cta 0 {
        MbarInit(b, 1);
        MbarArrive.acquire.cta(b);
        r0 = MbarTryWait.acquire.gpu(b);
    }
    exists (t0.r0 == 1) => allowed;
}

litmus! {
    async_unknown_state_space;
    shared s = 0;
    thread t0 @ cta 0 { St(s, 1); Fence.proxy.async.local; }
    exists (s == 1) => allowed;
}

litmus! {
    async_one_way_fence_direction;
    shared s = 0;
    thread t0 @ cta 0 { St(s, 1); Fence.proxy.async::generic.both; }
    exists (s == 1) => allowed;
}

fn main() {}

// Bulk copies move multiples of 16 bytes between global and shared
// memory, mbarriers live in shared memory, and a wait needs an arrival.
