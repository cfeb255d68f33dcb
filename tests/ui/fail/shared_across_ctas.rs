use gpu_litmus::litmus;

litmus! {
    shared_across_ctas;
    shared s = 0;
    thread t0 @ cta 0 { St(s, 1); }
    thread t1 @ cta 1 { r0 = Ld(s); }
    exists (t1.r0 == 1) => allowed;
}

fn main() {}
