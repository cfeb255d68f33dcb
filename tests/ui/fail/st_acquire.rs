use gpu_litmus::litmus;

litmus! {
    st_acquire;
    global x = 0;
    thread t0 @ cta 0 { St.acquire.gpu(x, 1); }
    exists (x == 1) => allowed;
}

fn main() {}
