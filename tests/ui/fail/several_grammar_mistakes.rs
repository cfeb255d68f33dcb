use gpu_litmus::litmus;

// A grammar mistake does not hide the ones after it.
litmus! {
    several_grammar_mistakes;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); Ld(x); Fence.sc; }
    thread t1 @ cta 1 { r0 = Ld.foo(x); r1 = Atom.relaxed.gpu(x, 1); }
    exists (t1.r0 = 1) => allowed;
}

fn main() {}
