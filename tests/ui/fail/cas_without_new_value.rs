use gpu_litmus::litmus;

litmus! {
    cas_without_new_value;
    global m = 0;
    thread t0 @ cta 0 { r0 = Atom.acq_rel.gpu.cas(m, 0); }
    exists (t0.r0 == 0) => allowed;
}

fn main() {}
