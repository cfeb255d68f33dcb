//! The catalogue: host threads and host memory (PTX `.sys` scope with the
//! CPU). A host thread (`thread h @ host`) runs on the CPU and its accesses
//! are the host's C++ atomics, read as the PTX model's `.sys` operations
//! (the README's "Host threads" gives the mapping); locations declared
//! `host` live in page-locked host memory, global memory to the model. A
//! host thread shares only the `.sys` scope with a GPU thread, so a `.gpu`
//! or narrower operation of the GPU side is never morally strong with it.
//! With a GPU the hardware halves run too: CPU threads play the host
//! roles while the kernel plays the GPU ones, on page-locked memory (the
//! README's "Host threads on the hardware").

use gpu_litmus::litmus;

litmus! {
    /// MP from a GPU producer to a host consumer: the GPU's `st.release.sys`
    /// flag and the host's acquire load (C++ `memory_order_acquire`, so
    /// `ld.acquire.sys`) are both strong and each `.sys` scope holds the
    /// other thread: morally strong, the release and acquire patterns form
    /// `sw`, and Causality forbids reading the flag and stale data.
    mp_gpu_release_sys_host_acquire;
    host x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.release.sys(y, 1); }
    thread h @ host { r0 = Ld.acquire(y); r1 = Ld(x); }
    exists (h.r0 == 1 && h.r1 == 0) => forbidden;
}

litmus! {
    /// The same with `st.release.gpu` on the GPU side: the `.gpu` scope does
    /// not include the host thread, so the flag's write and read are not
    /// morally strong, no `sw` forms, and the stale read is allowed.
    mp_gpu_release_gpu_host_acquire;
    host x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.release.gpu(y, 1); }
    thread h @ host { r0 = Ld.acquire(y); r1 = Ld(x); }
    exists (h.r0 == 1 && h.r1 == 0) => allowed;
}

litmus! {
    /// MP from a host producer to a GPU consumer: the host's release store
    /// (`st.release.sys`) and the GPU's `ld.acquire.sys` are morally strong,
    /// `sw` orders the data store before the data load, and the stale read
    /// is forbidden.
    mp_host_release_gpu_acquire_sys;
    host x = 0, y = 0;
    thread h @ host { St(x, 1); St.release(y, 1); }
    thread t1 @ cta 0 { r0 = Ld.acquire.sys(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// The `__threadfence_system()` pattern: the GPU stores the data, runs
    /// `fence.sc.sys` and raises the flag with `st.relaxed.sys`; the host
    /// reads the flag with an acquire load, then the data. The fence starts
    /// a release pattern ending at the flag store, the host's load is an
    /// acquire pattern, the flag pair is morally strong at `.sys`: `sw`
    /// forms and the stale read is forbidden.
    mp_tfs_gpu_host_acquire;
    host x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); TFS; St.relaxed.sys(y, 1); }
    thread h @ host { r0 = Ld.acquire(y); r1 = Ld(x); }
    exists (h.r0 == 1 && h.r1 == 0) => forbidden;
}

litmus! {
    /// MP with relaxed `.sys` accesses on both sides (the host's
    /// `memory_order_relaxed`), as the two-GPU probe ran it between a GPU
    /// and the host: morally strong but no release or acquire pattern, so
    /// no `sw`, and the stale read is allowed (the probe saw it 1.5e-3 of
    /// the time).
    mp_relaxed_sys_gpu_host;
    host x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.sys(x, 1); St.relaxed.sys(y, 1); }
    thread h @ host { r0 = Ld.relaxed(y); r1 = Ld.relaxed(x); }
    exists (h.r0 == 1 && h.r1 == 0) => allowed;
}

litmus! {
    /// The probe's fenced run: `__threadfence_system()` on the GPU,
    /// `atomic_thread_fence(memory_order_seq_cst)` (`fence.sc.sys`) on the
    /// host, relaxed `.sys` accesses. Each fence starts or ends a pattern
    /// whose `.sys` scope holds both threads, `sw` forms and the stale read
    /// is forbidden (the probe saw it 0 times in 6.55M).
    mp_fences_sys_gpu_host;
    host x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.sys(x, 1); TFS; St.relaxed.sys(y, 1); }
    thread h @ host { r0 = Ld.relaxed(y); Fence.sc.sys; r1 = Ld.relaxed(x); }
    exists (h.r0 == 1 && h.r1 == 0) => forbidden;
}

litmus! {
    /// SB between a GPU thread and the host with `fence.sc.sys` on both
    /// sides: the two fences are morally strong, the Fence-SC order puts
    /// one before the other, and the later thread's load must see the
    /// earlier thread's store, so both loads reading 0 is forbidden.
    sb_fences_sys_gpu_host;
    host x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.sys(x, 1); Fence.sc.sys; r0 = Ld.relaxed.sys(y); }
    thread h @ host { St.relaxed(y, 1); Fence.sc.sys; r1 = Ld.relaxed(x); }
    exists (t0.r0 == 0 && h.r1 == 0) => forbidden;
}

litmus! {
    /// SB between a GPU thread and the host without fences: nothing orders
    /// a store before the later load of the other location, and both loads
    /// may read the initial values.
    sb_relaxed_sys_gpu_host;
    host x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.sys(x, 1); r0 = Ld.relaxed.sys(y); }
    thread h @ host { St.relaxed(y, 1); r1 = Ld.relaxed(x); }
    exists (t0.r0 == 0 && h.r1 == 0) => allowed;
}

litmus! {
    /// IRIW with two GPU writers (on two CTAs) and two host readers using
    /// acquire loads: each reader's acquire orders its own two loads, but
    /// PTX is not multi-copy atomic without `fence.sc`, so the readers may
    /// see the two writes in opposite orders.
    iriw_acquire_host_readers;
    host x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.sys(x, 1); }
    thread t1 @ cta 1 { St.relaxed.sys(y, 1); }
    thread h0 @ host { r0 = Ld.acquire(x); r1 = Ld.acquire(y); }
    thread h1 @ host { r0 = Ld.acquire(y); r1 = Ld.acquire(x); }
    exists (h0.r0 == 1 && h0.r1 == 0 && h1.r0 == 1 && h1.r1 == 0) => allowed;
}

litmus! {
    /// IRIW with `fence.sc.sys` between each host reader's loads (the two
    /// host threads share the `.sys` scope, so their fences are morally
    /// strong): the Fence-SC order puts one reader's fence first, and that
    /// reader's second load cannot miss a write the other reader saw before
    /// its fence. Forbidden.
    iriw_fences_host_readers;
    host x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.sys(x, 1); }
    thread t1 @ cta 1 { St.relaxed.sys(y, 1); }
    thread h0 @ host { r0 = Ld.relaxed(x); Fence.sc.sys; r1 = Ld.relaxed(y); }
    thread h1 @ host { r0 = Ld.relaxed(y); Fence.sc.sys; r1 = Ld.relaxed(x); }
    exists (h0.r0 == 1 && h0.r1 == 0 && h1.r0 == 1 && h1.r1 == 0) => forbidden;
}

litmus! {
    /// A host RMW and a GPU RMW of one counter: the host's
    /// `fetch_add(1, memory_order_relaxed)` (`Atom.add`, with no scope
    /// written: `.sys` on a host thread) and the GPU's
    /// `atom.relaxed.sys.add` are morally strong, so Atomicity forbids both
    /// reading 0 (a lost update). Its hardware half runs only where the
    /// GPU has native host atomics: over PCIe an H100 lost the update
    /// (README, "Atomics across the bus"), and says `hardware: not run`.
    atom_add_sys_gpu_host;
    host c = 0;
    thread t0 @ cta 0 { r0 = Atom.relaxed.sys.add(c, 1); }
    thread h @ host { r0 = Atom.add(c, 1); }
    exists (t0.r0 == 0 && h.r0 == 0) => forbidden;
}

litmus! {
    /// The same with `.gpu` on the GPU's RMW: its scope does not hold the
    /// host thread, the pair is not morally strong, and Atomicity does not
    /// apply: the lost update is allowed.
    atom_add_gpu_vs_host;
    host c = 0;
    thread t0 @ cta 0 { r0 = Atom.relaxed.gpu.add(c, 1); }
    thread h @ host { r0 = Atom.relaxed.sys.add(c, 1); }
    exists (t0.r0 == 0 && h.r0 == 0) => allowed;
}
