use gpu_litmus::litmus;

litmus! {
    no_threads;
    global x = 0;
    exists (x == 0) => allowed;
}

fn main() {}
