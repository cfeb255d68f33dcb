use gpu_litmus::litmus;

litmus! {
    unknown_instruction;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); Flush(x); }
    exists (x == 1) => allowed;
}

fn main() {}
