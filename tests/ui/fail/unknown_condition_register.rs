use gpu_litmus::litmus;

litmus! {
    unknown_condition_register;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); }
    thread t1 @ cta 1 { r0 = Ld(x); }
    exists (t1.r0 == 1 && t1.r5 == 0) => allowed;
}

fn main() {}
