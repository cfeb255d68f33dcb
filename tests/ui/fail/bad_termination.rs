use gpu_litmus::litmus;

litmus! {
    bad_termination;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); }
    exists (x == 1) => allowed => hangs;
}

fn main() {}
