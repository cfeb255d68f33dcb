use gpu_litmus::litmus;

litmus! {
    duplicate_location;
    global x = 0, y = 0;
    shared x = 1;
    thread t0 @ cta 0 { St(x, 1); St(y, 1); }
    exists (x == 1) => allowed;
}

fn main() {}
