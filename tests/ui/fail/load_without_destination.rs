use gpu_litmus::litmus;

litmus! {
    load_without_destination;
    global x = 0;
    thread t0 @ cta 0 { Ld.acquire.gpu(x); }
    exists (x == 0) => allowed;
}

fn main() {}
