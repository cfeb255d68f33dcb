use gpu_litmus::litmus;

litmus! {
    membar_bad_level;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); Membar.gpu; }
    exists (x == 1) => allowed;
}

fn main() {}
