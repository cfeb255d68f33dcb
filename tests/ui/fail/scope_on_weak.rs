use gpu_litmus::litmus;

litmus! {
    scope_on_weak;
    global x = 0;
    thread t0 @ cta 0 { r0 = Ld.weak.gpu(x); }
    exists (t0.r0 == 0) => allowed;
}

fn main() {}
