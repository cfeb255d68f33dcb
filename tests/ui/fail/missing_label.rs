use gpu_litmus::litmus;

litmus! {
    missing_label;
    global x = 0;
    thread t0 @ cta 0 {
    L0:
        r0 = Ld(x);
        beq(r0, 0, L0);
        goto L9;
    }
    exists (t0.r0 == 1) => allowed;
}

fn main() {}
