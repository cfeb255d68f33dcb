use gpu_litmus::litmus;

litmus! {
    duplicate_thread;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); }
    thread t0 @ cta 1 { r0 = Ld(x); }
    exists (x == 1) => allowed;
}

fn main() {}
