use gpu_litmus::litmus;

litmus! {
    unknown_location;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); St(z, 1); }
    exists (x == 1) => allowed;
}

fn main() {}
