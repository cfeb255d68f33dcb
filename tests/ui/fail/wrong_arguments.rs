use gpu_litmus::litmus;

// Arguments of the wrong number or kind, each reported at its instruction.
litmus! {
    wrong_arguments;
    global x = 0;
    thread t0 @ cta 0 {
        St(x);
        r0 = Ld(x, 1);
        r1 = Ld(7);
        BarArrive(1);
        BarSync(r0);
        beq(r0, 1);
    }
    exists (x == 1) => allowed;
}

fn main() {}
