use gpu_litmus::litmus;

litmus! {
    bad_placement;
    global x = 0;
    thread t0 @ block 0 { St(x, 1); }
    exists (x == 1) => allowed;
}

fn main() {}
