use gpu_litmus::litmus;

litmus! {
    read_before_write;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, r0); r0 = Ld(y); }
    exists (x == 1) => allowed;
}

fn main() {}
