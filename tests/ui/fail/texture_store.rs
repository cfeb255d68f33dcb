use gpu_litmus::litmus;

litmus! {
    texture_store;
    global x = 0;
    alias t = texture(x), c = constant(x);
    thread t0 @ cta 0 { St(t, 1); Sust(c, 1); }
    exists (x == 1) => allowed;
}

fn main() {}

// Textures and the constant bank are read-only: no store reaches memory
// through them, whatever instruction is used.
