use gpu_litmus::litmus;

// Every validation mistake of one call is reported in one compilation.
litmus! {
    several_mistakes;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.acquire.gpu(x, 1); St(z, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed(y); St(x, r1); }
    exists (t1.r0 == 1 && t2.r0 == 0) => allowed;
}

fn main() {}
