//! The catalogue: store buffering (SB) and load buffering (LB).
//!
//! SB: each thread stores to its own location, then loads the other's; the
//! weak outcome is both loads missing both stores (`r0 == 0` twice). Only
//! SC fences whose scopes cover both threads forbid it: release/acquire
//! does not. LB: each thread loads one location, then stores the other; the
//! weak outcome is each load seeing the other thread's later store. A
//! dependency on both sides forbids it (No-thin-air), as does `sw`.

use gpu_litmus::litmus;

// Store buffering.

litmus! {
    /// Weak accesses between CTAs: nothing relates a store to the later load
    /// of another location, so both loads may read the initial values.
    sb_weak_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); r0 = Ld(y); }
    thread t1 @ cta 1 { St(y, 1); r0 = Ld(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
}

litmus! {
    /// Relaxed `.gpu` accesses between CTAs: relaxed accesses make no `sw`,
    /// so no Causality cycle closes and both stale reads are allowed (seen
    /// on H100).
    sb_relaxed_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); r0 = Ld.relaxed.gpu(y); }
    thread t1 @ cta 1 { St.relaxed.gpu(y, 1); r0 = Ld.relaxed.gpu(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
}

litmus! {
    /// Relaxed `.cta` accesses to shared memory within one CTA: still no
    /// `sw`, so both stale reads are allowed by the model.
    sb_relaxed_cta_shared;
    shared x = 0, y = 0;
    thread t0 @ cta 0, warp 0 { St.relaxed.cta(x, 1); r0 = Ld.relaxed.cta(y); }
    thread t1 @ cta 0, warp 1 { St.relaxed.cta(y, 1); r0 = Ld.relaxed.cta(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
}

litmus! {
    /// Release stores and acquire loads: release orders what comes before a
    /// store, acquire what comes after a load, and neither orders a store
    /// before a later load; no `sw` forms (no rf between the threads), so
    /// both stale reads are allowed.
    sb_rel_acq_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.release.gpu(x, 1); r0 = Ld.acquire.gpu(y); }
    thread t1 @ cta 1 { St.release.gpu(y, 1); r0 = Ld.acquire.gpu(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
}

litmus! {
    /// `fence.sc.gpu` between store and load on both sides: the two fences
    /// are morally strong and Fence-SC orders them; either orientation is
    /// `sw` making one thread's store a cause of the other's load, which then
    /// cannot read the initial value (Causality): forbidden (reference table).
    sb_fence_sc_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.gpu; r0 = Ld.relaxed.gpu(y); }
    thread t1 @ cta 1 { St.relaxed.gpu(y, 1); Fence.sc.gpu; r0 = Ld.relaxed.gpu(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => forbidden;
}

litmus! {
    /// `__threadfence()` between volatile accesses on both sides: `membar.gl`
    /// is `fence.sc.gpu`, so Fence-SC and Causality forbid both stale reads.
    sb_tf_volatile_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.volatile(x, 1); TF; r0 = Ld.volatile(y); }
    thread t1 @ cta 1 { St.volatile(y, 1); TF; r0 = Ld.volatile(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => forbidden;
}

litmus! {
    /// `fence.sc.cta` between CTAs: the fences' scope misses the other
    /// thread, they are not morally strong, Fence-SC does not order them, and
    /// both stale reads are allowed.
    sb_fence_sc_cta_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.cta; r0 = Ld.relaxed.gpu(y); }
    thread t1 @ cta 1 { St.relaxed.gpu(y, 1); Fence.sc.cta; r0 = Ld.relaxed.gpu(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
}

litmus! {
    /// `fence.sc.cta` within one CTA: the fences are morally strong, Fence-SC
    /// orders them, and Causality forbids both stale reads.
    sb_fence_sc_cta_intra_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0, warp 0 { St.relaxed.gpu(x, 1); Fence.sc.cta; r0 = Ld.relaxed.gpu(y); }
    thread t1 @ cta 0, warp 1 { St.relaxed.gpu(y, 1); Fence.sc.cta; r0 = Ld.relaxed.gpu(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => forbidden;
}

litmus! {
    /// `__threadfence_block()` between weak accesses to shared memory: the
    /// two `fence.sc.cta` are morally strong within the CTA, so Fence-SC and
    /// Causality forbid both stale reads even though the accesses are weak.
    sb_tfb_weak_shared;
    shared x = 0, y = 0;
    thread t0 @ cta 0, warp 0 { St(x, 1); TFB; r0 = Ld(y); }
    thread t1 @ cta 0, warp 1 { St(y, 1); TFB; r0 = Ld(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => forbidden;
}

litmus! {
    /// `fence.acq_rel.gpu` on both sides: acq_rel fences order loads before
    /// them and stores after them, not a store before a later load, and they
    /// have no Fence-SC order: both stale reads are allowed.
    sb_fence_acq_rel_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.acq_rel.gpu; r0 = Ld.relaxed.gpu(y); }
    thread t1 @ cta 1 { St.relaxed.gpu(y, 1); Fence.acq_rel.gpu; r0 = Ld.relaxed.gpu(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
}

litmus! {
    /// `fence.sc.gpu` on one side only: the lone fence has no partner in the
    /// Fence-SC order, the unfenced thread's store and load stay unordered,
    /// so both stale reads are allowed.
    sb_fence_sc_gpu_one_side_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.gpu; r0 = Ld.relaxed.gpu(y); }
    thread t1 @ cta 1 { St.relaxed.gpu(y, 1); r0 = Ld.relaxed.gpu(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
}

litmus! {
    /// `fence.sc.gpu` between two GPUs: the `.gpu` fences do not include each
    /// other's thread, are not morally strong, and both stale reads are
    /// allowed.
    sb_fence_sc_gpu_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); Fence.sc.gpu; r0 = Ld.relaxed.sys(y); }
    thread t1 @ gpu 1, cta 0 { St.relaxed.sys(y, 1); Fence.sc.gpu; r0 = Ld.relaxed.sys(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
}

litmus! {
    /// `fence.sc.sys` between two GPUs: `.sys` fences are morally strong
    /// everywhere, Fence-SC orders them and Causality forbids both stale
    /// reads.
    sb_fence_sc_sys_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); Fence.sc.sys; r0 = Ld.relaxed.sys(y); }
    thread t1 @ gpu 1, cta 0 { St.relaxed.sys(y, 1); Fence.sc.sys; r0 = Ld.relaxed.sys(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => forbidden;
}

// Load buffering.

litmus! {
    /// Relaxed accesses, no dependencies: nothing orders a load before the
    /// later store of another location, so each load may see the other
    /// thread's store (reference table; never seen on H100).
    lb_relaxed_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { r0 = Ld.relaxed.gpu(x); St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); St.relaxed.gpu(x, 1); }
    exists (t0.r0 == 1 && t1.r0 == 1) => allowed;
}

litmus! {
    /// Data dependencies on both sides, each thread storing the value it
    /// loaded: 42 could only come from thin air, `rf ∪ dep` would be cyclic,
    /// and No-thin-air forbids it (reference table).
    lb_data_dep_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { r0 = Ld(x); St(y, r0); }
    thread t1 @ cta 1 { r0 = Ld(y); St(x, r0); }
    exists (t0.r0 == 42 && t1.r0 == 42) => forbidden;
}

litmus! {
    /// Data dependencies on both sides with constant-looking values: each
    /// store's value is computed from the loaded register, so reading the
    /// other's store needs an `rf ∪ dep` cycle, which No-thin-air forbids.
    lb_data_dep_values_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { r0 = Ld.relaxed.gpu(x); r1 = r0 + 1; St.relaxed.gpu(y, r1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); r1 = r0 + 1; St.relaxed.gpu(x, r1); }
    exists (t0.r0 != 0 && t1.r0 != 0) => forbidden;
}

litmus! {
    /// Control dependencies on both sides (store only if the load saw 1):
    /// `dep` includes control dependencies, so the weak outcome needs an
    /// `rf ∪ dep` cycle and No-thin-air forbids it.
    lb_ctrl_dep_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { r0 = Ld(x); bne(r0, 1, done); St(y, 1); done: }
    thread t1 @ cta 1 { r0 = Ld(y); bne(r0, 1, done); St(x, 1); done: }
    exists (t0.r0 == 1 && t1.r0 == 1) => forbidden;
}

litmus! {
    /// A data dependency on one side only: the other thread's load and store
    /// are unordered, `rf ∪ dep` stays acyclic and no `sw` exists, so the
    /// weak outcome is allowed.
    lb_data_dep_one_side_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { r0 = Ld.relaxed.gpu(x); St.relaxed.gpu(y, r0); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); St.relaxed.gpu(x, 1); }
    exists (t0.r0 == 1 && t1.r0 == 1) => allowed;
}

litmus! {
    /// Acquire loads and release stores: each rf is then `sw`, the load
    /// before the store a cause of the other thread's load, and Causality
    /// forbids the cycle.
    lb_rel_acq_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { r0 = Ld.acquire.gpu(x); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(y); St.release.gpu(x, 1); }
    exists (t0.r0 == 1 && t1.r0 == 1) => forbidden;
}

litmus! {
    /// `fence.sc.cta` between CTAs: not morally strong, so no `sw` and no
    /// Fence-SC order; without dependencies the weak outcome is allowed.
    lb_fence_sc_cta_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { r0 = Ld.relaxed.gpu(x); Fence.sc.cta; St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); Fence.sc.cta; St.relaxed.gpu(x, 1); }
    exists (t0.r0 == 1 && t1.r0 == 1) => allowed;
}

litmus! {
    /// `fence.acq_rel.cta` in shared memory within one CTA, relaxed
    /// accesses: each fence is both the acquire end and the release start of
    /// a pattern, the rfs become `sw`, and Causality forbids the cycle.
    lb_fence_acq_rel_cta_shared;
    shared x = 0, y = 0;
    thread t0 @ cta 0, warp 0 { r0 = Ld.relaxed.cta(x); Fence.acq_rel.cta; St.relaxed.cta(y, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld.relaxed.cta(y); Fence.acq_rel.cta; St.relaxed.cta(x, 1); }
    exists (t0.r0 == 1 && t1.r0 == 1) => forbidden;
}
