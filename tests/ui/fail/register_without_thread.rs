use gpu_litmus::litmus;

litmus! {
    register_without_thread;
    global x = 0;
    thread t1 @ cta 0 { r0 = Ld(x); }
    exists (r0 == 1) => allowed;
}

fn main() {}
