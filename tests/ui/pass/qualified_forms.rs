// Every qualified form of loads, stores, fences and read-modify-writes.
use gpu_litmus::{litmus, litmus_ir};

litmus! {
    /// Release/acquire message passing.
    mp_rel_acq;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(y); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    every_access;
    global x = 0, m = 0;
    thread t0 @ cta 0 {
        St(x, 1); St.weak(x, 2); St.wt(x, 3); St.cg(x, 4); St.cs(x, 5); St.wb(x, 6);
        St.volatile(x, 7); St.relaxed.cta(x, 8); St.release.sys(x, 9);
        r0 = Ld(x); r1 = Ld.weak(x); r2 = Ld.ca(x); r3 = Ld.cg(x); r4 = Ld.cs(x);
        r5 = Ld.lu(x); r6 = Ld.cv(x); r7 = Ld.volatile(x);
        r8 = Ld.relaxed.sys(x); r9 = Ld.acquire.cta(x);
        TF; TFB; TFS;
        Fence.sc.cta; Fence.sc.gpu; Fence.sc.sys;
        Fence.acq_rel.cta; Fence.acq_rel.gpu; Fence.acq_rel.sys;
        Fence.acquire.gpu; Fence.release.gpu;
        Membar.cta; Membar.gl; Membar.sys;
        a0 = Atom.relaxed.gpu.exch(m, 1);
        a1 = Atom.acquire.gpu.add(m, 1);
        a2 = Atom.release.gpu.sub(m, 1);
        a3 = Atom.acq_rel.gpu.and(m, 1);
        a4 = Atom.relaxed.cta.or(m, r0);
        a5 = Atom.relaxed.sys.xor(m, -1);
        a6 = Atom.relaxed.gpu.min(m, 0);
        a7 = Atom.relaxed.gpu.max(m, 0);
        a8 = Atom.relaxed.gpu.inc(m, 10);
        a9 = Atom.relaxed.gpu.dec(m, 10);
        b0 = Atom.acq_rel.gpu.cas(m, 0, 1);
        Red.release.gpu.add(x, 1);
        Red.relaxed.sys.xor(x, a9);
    }
    forall (m == 0 || m != 0) => allowed;
}

fn main() {
    // The same grammar as a value: checked by the type checker too.
    let test = litmus_ir! {
        sb_fences;
        global x = 0, y = 0;
        thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.gpu; r0 = Ld.relaxed.gpu(y); }
        thread t1 @ cta 1 { St.relaxed.gpu(y, 1); Fence.sc.gpu; r0 = Ld.relaxed.gpu(x); }
        ~exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
    };
    assert_eq!(test.threads.len(), 2);
}
