use gpu_litmus::litmus;

litmus! {
    bad_verdict;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); }
    exists (x == 1) => observed;
}

fn main() {}
