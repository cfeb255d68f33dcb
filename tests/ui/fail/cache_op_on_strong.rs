use gpu_litmus::litmus;

litmus! {
    cache_op_on_strong;
    global x = 0;
    thread t0 @ cta 0 { St.relaxed.gpu.wt(x, 1); }
    exists (x == 1) => allowed;
}

fn main() {}
