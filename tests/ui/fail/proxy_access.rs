use gpu_litmus::litmus;

litmus! {
    proxy_access;
    global x = 0;
    alias s = surface(x), t = texture(x);
    thread t0 @ cta 0 { r0 = Tld(x); r1 = Ld(t); r2 = Suld.relaxed.gpu(s); Sust(t, 1); }
    exists (t0.r0 == 0) => allowed;
}

fn main() {}

// Each proxy reaches the aliases declared in it, and surface, texture and
// constant accesses are weak.
