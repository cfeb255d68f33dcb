// The sketch from DESIGN.md, as written there.
use gpu_litmus::litmus;

litmus! {
    /// Message passing between CTAs with block-scoped fences.
    /// PTX allows the stale read: a CTA fence does not order for another CTA.
    mp_tfb_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); TFB; St(y, 1); }
    thread t1 @ cta 1 { r0 = Ld(y); TFB; r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

fn main() {}
