use gpu_litmus::litmus;

litmus! {
    bad_cache_op;
    global x = 0;
    thread t0 @ cta 0 { r0 = Ld.wt(x); }
    exists (t0.r0 == 0) => allowed;
}

fn main() {}
