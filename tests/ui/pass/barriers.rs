// CTA barriers (ISA and corpus forms) and the warp barrier.
use gpu_litmus::litmus;

litmus! {
    barrier_mp;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); BarSync(0); }
    thread t1 @ cta 0 { BarSync(0); r0 = Ld(x); }
    exists (t1.r0 == 0) => forbidden;
}

litmus! {
    barrier_quorum;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); BarArrive(1, 64); }
    thread t1 @ cta 0 with r2 = 1 { Bar.sync(1, r2, 2); r0 = Ld(x); }
    thread t2 @ cta 0 { Bar.cta.sync(1, 1, 2); BarSync(1, 64); Bar.arrive(1); }
    exists (t1.r0 == 0) => forbidden;
}

litmus! {
    warp_sync;
    global x = 0;
    thread t0 @ cta 0, warp 0 { St(x, 1); SyncWarp; }
    thread t1 @ cta 0, warp 0 { SyncWarp; r0 = Ld(x); }
    exists (t1.r0 == 0) => forbidden;
}

fn main() {}
