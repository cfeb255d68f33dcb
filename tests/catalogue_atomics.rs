//! The catalogue: read-modify-write atomics. Atomicity between morally
//! strong RMWs (and its absence when scopes miss each other), message
//! passing with an atomic flag (`exch`, `cas`, `red`), and release
//! sequences continued by RMWs.

use gpu_litmus::litmus;

// Atomicity.

litmus! {
    /// Two `atom.sys.add` of one counter from two CTAs: morally strong RMWs
    /// cannot both read the same value (Atomicity), so the counter always
    /// ends at 2 (reference table).
    atom_add_sys_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { r0 = Atom.relaxed.sys.add(x, 1); }
    thread t1 @ cta 1 { r0 = Atom.relaxed.sys.add(x, 1); }
    forall (x == 2) => forbidden;
}

litmus! {
    /// `atom.cta.add` and `atom.gpu.add` from different CTAs: the `.cta`
    /// scope misses the other thread, the RMWs are not morally strong and
    /// Atomicity does not apply; one increment may be lost (reference table).
    atom_add_cta_gpu_mixed_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { r0 = Atom.relaxed.cta.add(x, 1); }
    thread t1 @ cta 1 { r0 = Atom.relaxed.gpu.add(x, 1); }
    exists (x == 1) => allowed;
}

litmus! {
    /// `atom.cta.add` on a shared counter within one CTA: the scope covers
    /// both threads, Atomicity applies and no increment is lost.
    atom_add_cta_shared;
    shared x = 0;
    thread t0 @ cta 0, warp 0 { r0 = Atom.relaxed.cta.add(x, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Atom.relaxed.cta.add(x, 1); }
    exists (x == 1) => forbidden;
}

litmus! {
    /// Fetch-and-add tickets (`atomicAdd`, default `.relaxed.gpu`) from two
    /// CTAs: Atomicity gives each RMW its own predecessor in `co`, so the two
    /// tickets are never equal.
    atom_add_tickets_unique_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { r0 = Atom.add(x, 1); }
    thread t1 @ cta 1 { r0 = Atom.add(x, 1); }
    exists (t0.r0 == t1.r0) => forbidden;
}

litmus! {
    /// Two `atomicCAS(m, 0, 1)` at `.gpu` scope from two CTAs: both reading 0
    /// would put one RMW's write between the other's read and write
    /// (Atomicity), so at most one wins (written as `~exists`: no execution
    /// satisfies the expression).
    atom_cas_both_win_gpu_inter_cta;
    global m = 0;
    thread t0 @ cta 0 { r0 = Atom.relaxed.gpu.cas(m, 0, 1); }
    thread t1 @ cta 1 { r0 = Atom.relaxed.gpu.cas(m, 0, 1); }
    ~exists (t0.r0 == 0 && t1.r0 == 0) => forbidden;
}

litmus! {
    /// Two `.cta`-scoped CAS from different CTAs: not morally strong, so
    /// Atomicity does not relate them and both may win: a CTA-scoped lock
    /// does not exclude another CTA.
    atom_cas_both_win_cta_inter_cta;
    global m = 0;
    thread t0 @ cta 0 { r0 = Atom.relaxed.cta.cas(m, 0, 1); }
    thread t1 @ cta 1 { r0 = Atom.relaxed.cta.cas(m, 0, 1); }
    exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
}

litmus! {
    /// Two `.cta`-scoped exchanges on shared memory within one CTA: morally
    /// strong, so Atomicity forbids both reading the initial value.
    atom_exch_both_see_init_shared;
    shared m = 0;
    thread t0 @ cta 0, warp 0 { r0 = Atom.relaxed.cta.exch(m, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Atom.relaxed.cta.exch(m, 2); }
    exists (t0.r0 == 0 && t1.r0 == 0) => forbidden;
}

litmus! {
    /// Store buffering with atomic exchanges as the stores: an RMW is no
    /// fence, the exchange's write and the later load of another location
    /// stay unordered, and both stale reads are allowed.
    sb_atom_exch_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { a0 = Atom.relaxed.gpu.exch(x, 1); r0 = Ld.relaxed.gpu(y); }
    thread t1 @ cta 1 { a0 = Atom.relaxed.gpu.exch(y, 1); r0 = Ld.relaxed.gpu(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
}

// Message passing with an atomic flag.

litmus! {
    /// The flag set by `atom.release.gpu.exch`, read by an acquire load: the
    /// RMW's write is release, so `sw` forms and Causality forbids the stale
    /// data.
    mp_atom_exch_release_flag_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); a0 = Atom.release.gpu.exch(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// The flag set by a relaxed `atomicExch`, read by a relaxed load: an
    /// RMW alone orders nothing, no `sw` forms and the stale data is allowed.
    mp_atom_exch_relaxed_flag_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); a0 = Atom.exch(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// `atom.acq_rel.cta.exch` on both sides from different CTAs: the flag
    /// RMWs are not morally strong across CTAs, no `sw`, stale data allowed.
    mp_atom_exch_acq_rel_cta_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); a0 = Atom.acq_rel.cta.exch(y, 1); }
    thread t1 @ cta 1 { r0 = Atom.acq_rel.cta.exch(y, 2); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// The reader consumes the flag with `atom.acquire.gpu.cas(y, 1, 2)`
    /// after a release store: the CAS's read is acquire, `sw` forms and
    /// Causality forbids the stale data.
    mp_atom_cas_acquire_reader_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Atom.acquire.gpu.cas(y, 1, 2); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// The reader consumes the flag with a relaxed `atomicCAS`: no acquire
    /// pattern, no `sw`, so the stale data is allowed.
    mp_atom_cas_relaxed_reader_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Atom.cas(y, 1, 2); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// The flag set by `red.release.gpu.add`: a reduction's write is release
    /// like a store's, the acquire load makes `sw`, stale data forbidden.
    mp_red_release_flag_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); Red.release.gpu.add(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// A third CTA's relaxed RMW continues the release: `obs ; rmw ; obs` is
    /// `obs`, so the reader that acquires the RMW's value synchronises with
    /// the first writer and Causality forbids the stale data.
    mp_release_sequence_rmw_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { a0 = Atom.relaxed.gpu.add(y, 1); }
    thread t2 @ cta 2 { r0 = Ld.acquire.gpu(y); r1 = Ld(x); }
    exists (t1.a0 == 1 && t2.r0 == 2 && t2.r1 == 0) => forbidden;
}

litmus! {
    /// As above with a plain read and relaxed store in the middle thread
    /// instead of an RMW: `obs` does not continue through two accesses, no
    /// `sw` reaches the reader, and the stale data is allowed.
    mp_release_sequence_broken_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { a0 = Ld.relaxed.gpu(y); St.relaxed.gpu(y, 2); }
    thread t2 @ cta 2 { r0 = Ld.acquire.gpu(y); r1 = Ld(x); }
    exists (t1.a0 == 1 && t2.r0 == 2 && t2.r1 == 0) => allowed;
}
