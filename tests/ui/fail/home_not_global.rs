use gpu_litmus::litmus;

litmus! {
    home_not_global;
    global x = 0;
    gpu 1 shared s = 0;
    gpu 1 host h = 0;
    thread t0 @ cta 0 { St(s, 1); St(h, 1); }
    thread t1 @ cta 0, gpu 1 { r0 = Ld(x); }
    exists (t1.r0 == 1) => allowed;
}

litmus! {
    home_number;
    gpu x = 0;
    thread t0 @ cta 0 { St(x, 1); }
    exists (x == 1) => allowed;
}

litmus! {
    gpu 1 x = 0;
    thread t0 @ cta 0 { St(x, 1); }
    exists (x == 1) => allowed;
}

litmus! {
    home_too_large;
    gpu 4294967296 x = 0;
    thread t0 @ cta 0 { St(x, 1); }
    exists (x == 1) => allowed;
}

fn main() {}
