use gpu_litmus::litmus;

litmus! {
    duplicate_label;
    global x = 0;
    thread t0 @ cta 0 {
    L0:
        r0 = Ld(x);
    L0:
        bne(r0, 1, L0);
    }
    exists (t0.r0 == 1) => allowed;
}

fn main() {}
