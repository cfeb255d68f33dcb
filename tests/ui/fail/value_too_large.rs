use gpu_litmus::litmus;

litmus! {
    value_too_large;
    global x = 0;
    thread t0 @ cta 0 { St(x, 4294967296); }
    exists (x == 1) => allowed;
}

fn main() {}
