use gpu_litmus::litmus;

litmus! {
    missing_condition;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); }
}

fn main() {}
