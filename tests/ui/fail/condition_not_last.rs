use gpu_litmus::litmus;

litmus! {
    condition_not_last;
    global x = 0;
    exists (t0.r0 == 1) => allowed;
    thread t0 @ cta 0 { r0 = Ld(x); }
}

fn main() {}
