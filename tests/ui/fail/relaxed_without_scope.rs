use gpu_litmus::litmus;

litmus! {
    relaxed_without_scope;
    global x = 0;
    thread t0 @ cta 0 { St.relaxed(x, 1); }
    exists (x == 1) => allowed;
}

fn main() {}
