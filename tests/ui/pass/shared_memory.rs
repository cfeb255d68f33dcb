// Shared memory, used by threads of one CTA.
use gpu_litmus::litmus;

litmus! {
    /// Message passing through shared memory within one CTA.
    mp_shared;
    shared x = 0, y = 0;
    thread t0 @ cta 0, warp 0 { St(x, 1); Fence.sc.cta; St(y, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld(y); Fence.sc.cta; r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

fn main() {}
