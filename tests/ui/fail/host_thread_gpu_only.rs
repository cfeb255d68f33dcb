use gpu_litmus::litmus;

litmus! {
    host_thread_gpu_only;
    host x = 0;
    shared s = 0;
    thread t0 @ cta 0 { St(s, 1); }
    thread h @ host { r0 = Ld.acquire.gpu(x); BarSync(1); r1 = Ld(s); Fence.acquire.sys; }
    exists (h.r0 == 1) => forbidden;
}

litmus! {
    host_placement_alone;
    host x = 0;
    thread h @ host, cta 0 { St(x, 1); }
    exists (x == 1) => allowed;
}

fn main() {}
