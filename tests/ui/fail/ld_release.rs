use gpu_litmus::litmus;

litmus! {
    ld_release;
    global x = 0;
    thread t0 @ cta 0 { r0 = Ld.release.gpu(x); }
    exists (t0.r0 == 1) => forbidden;
}

fn main() {}
