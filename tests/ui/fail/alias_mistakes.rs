use gpu_litmus::litmus;

litmus! {
    alias_mistakes;
    global x = 0;
    alias y = generic(q), a = generic(b), b = generic(a);
    thread t0 @ cta 0 { St(x, 1); r0 = Ld(y); r1 = Ld(a); }
    exists (t0.r0 == 0) => allowed;
}

litmus! {
    alias_bad_proxy;
    global x = 0;
    alias y = virtual(x);
    thread t0 @ cta 0 { r0 = Ld(y); }
    exists (t0.r0 == 0) => allowed;
}

fn main() {}

// An alias names a declared location, the chain of aliases ends at real
// memory, and the proxy is one PTX has.
