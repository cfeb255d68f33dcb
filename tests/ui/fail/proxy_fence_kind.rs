use gpu_litmus::litmus;

litmus! {
    proxy_fence_kind;
    global x = 0;
    alias y = generic(x);
    thread t0 @ cta 0 { St(x, 1); Fence.proxy.generic; Fence.proxy; r0 = Ld(y); }
    exists (t0.r0 == 0) => allowed;
}

fn main() {}

// PTX has `fence.proxy.alias`, `.surface`, `.texture` and `.constant`.
