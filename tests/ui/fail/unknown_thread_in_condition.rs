use gpu_litmus::litmus;

litmus! {
    unknown_thread_in_condition;
    global x = 0;
    thread t0 @ cta 0 { r0 = Ld(x); }
    exists (t1.r0 == 1) => allowed;
}

fn main() {}
