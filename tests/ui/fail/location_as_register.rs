use gpu_litmus::litmus;

litmus! {
    location_as_register;
    global x = 0, y = 0;
    thread t0 @ cta 0 { x = 1; St(y, x); }
    exists (y == 1) => allowed;
}

fn main() {}
