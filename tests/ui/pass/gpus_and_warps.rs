// Placement in every coordinate, in any order.
use gpu_litmus::litmus;

litmus! {
    mp_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0, warp 0 { St.relaxed.sys(x, 1); Fence.sc.sys; St.relaxed.sys(y, 1); }
    thread t1 @ cta 0, gpu 1 { r0 = Ld.relaxed.sys(y); TFS; r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

fn main() {}
