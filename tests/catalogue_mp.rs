//! The catalogue: message passing (MP). A writer stores data `x` then a
//! flag `y`; a reader loads the flag then the data. The weak outcome is the
//! reader seeing the flag (`r0 == 1`) but stale data (`r1 == 0`). The tests
//! walk the PTX qualifiers that forbid it (release/acquire, fences) and the
//! scopes and placements where they stop working.

use gpu_litmus::litmus;

// Plain and relaxed accesses: nothing orders the two stores or the two loads.

litmus! {
    /// Weak accesses between CTAs: no morally strong pair, so no `sw` edge
    /// and no Causality cycle; the stale read is allowed.
    mp_weak_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St(y, 1); }
    thread t1 @ cta 1 { r0 = Ld(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Weak accesses between warps of one CTA: being close does not order
    /// anything; without release/acquire or a fence there is no `sw`, so the
    /// stale read is allowed.
    mp_weak_intra_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0, warp 0 { St(x, 1); St(y, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Relaxed `.gpu` accesses between CTAs: the flag's rf edge is an `obs`
    /// edge, but with no release or acquire pattern it makes no `sw`, so
    /// Causality says nothing and the stale read is allowed.
    mp_relaxed_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Relaxed `.cta` accesses to shared memory between warps of one CTA:
    /// relaxed accesses do not order each other (no `sw`), so the stale read
    /// is allowed even in shared memory.
    mp_relaxed_cta_shared;
    shared x = 0, y = 0;
    thread t0 @ cta 0, warp 0 { St.relaxed.cta(x, 1); St.relaxed.cta(y, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld.relaxed.cta(y); r1 = Ld.relaxed.cta(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

// Release/acquire flags.

litmus! {
    /// A `.gpu` release store and acquire load between CTAs: the flag's rf
    /// is a release pattern, `obs`, acquire pattern, so `sw`; Causality then
    /// forbids reading `x` from before its write (reference table).
    mp_rel_acq_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// Release/acquire at `.sys` scope between CTAs: `.sys` includes every
    /// thread, so the pair is morally strong, forms `sw`, and Causality
    /// forbids the stale read.
    mp_rel_acq_sys_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.release.sys(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.sys(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// Release/acquire at `.cta` scope between CTAs: the scope does not
    /// include the other thread, so the pair is not morally strong, no `sw`
    /// forms and the stale read is allowed.
    mp_rel_acq_cta_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.release.cta(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.cta(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Release/acquire at `.cta` scope within one CTA: the scope includes
    /// both threads, so `sw` forms and Causality forbids the stale read.
    mp_rel_acq_cta_intra_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0, warp 0 { St(x, 1); St.release.cta(y, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld.acquire.cta(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// Release/acquire at `.cta` scope through shared memory: the CTA scope
    /// covers every thread that can reach shared memory, so `sw` forms and
    /// Causality forbids the stale read.
    mp_rel_acq_cta_shared;
    shared x = 0, y = 0;
    thread t0 @ cta 0, warp 0 { St(x, 1); St.release.cta(y, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld.acquire.cta(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// A release store read by a relaxed load: no acquire pattern on the
    /// reader's side, so no `sw`; the two loads stay unordered and the stale
    /// read is allowed.
    mp_release_relaxed_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// A relaxed store read by an acquire load: no release pattern on the
    /// writer's side, so no `sw`; the two stores stay unordered and the stale
    /// read is allowed.
    mp_relaxed_acquire_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

// Fences.

litmus! {
    /// `fence.sc.gpu` on both sides, relaxed accesses, between CTAs: each
    /// fence starts a release or ends an acquire pattern (and the two are
    /// ordered by Fence-SC), so `sw` forms and Causality forbids the stale
    /// read (reference table).
    mp_fence_sc_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.gpu; St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); Fence.sc.gpu; r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// `fence.sc.cta` on both sides between CTAs: the fences' scope does not
    /// include the other thread, so they are not morally strong and make no
    /// `sw`; the stale read is allowed (reference table; seen on H100).
    mp_fence_sc_cta_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.cta; St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); Fence.sc.cta; r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// `fence.sc.cta` on both sides within one CTA: the fences are morally
    /// strong there, `sw` forms and Causality forbids the stale read.
    mp_fence_sc_cta_intra_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0, warp 0 { St.relaxed.gpu(x, 1); Fence.sc.cta; St.relaxed.gpu(y, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld.relaxed.gpu(y); Fence.sc.cta; r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// Weak accesses to shared memory with `fence.sc.cta` on both sides:
    /// the flag accesses are weak, but the two SC fences are morally strong
    /// and ordered by the Fence-SC order, which is `sw` either way; each
    /// orientation closes a Causality cycle, so the stale read is forbidden.
    mp_fence_sc_cta_weak_shared;
    shared x = 0, y = 0;
    thread t0 @ cta 0, warp 0 { St(x, 1); Fence.sc.cta; St(y, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld(y); Fence.sc.cta; r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// `fence.acq_rel.gpu` on both sides, relaxed accesses: a release fence
    /// before a strong store and an acquire fence after a strong load make
    /// `sw`, so Causality forbids the stale read.
    mp_fence_acq_rel_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.acq_rel.gpu; St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); Fence.acq_rel.gpu; r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// `fence.acq_rel.gpu` on both sides with a weak flag: the release
    /// pattern needs a strong store after the fence and `obs` a morally
    /// strong rf, and acq_rel fences have no Fence-SC order to fall back
    /// on, so no `sw` forms and the stale read is allowed.
    mp_fence_acq_rel_gpu_weak_flag;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); Fence.acq_rel.gpu; St(y, 1); }
    thread t1 @ cta 1 { r0 = Ld(y); Fence.acq_rel.gpu; r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// `fence.release.gpu` and `fence.acquire.gpu` (PTX 8.6): the split
    /// fences form the same release and acquire patterns as acq_rel, so
    /// `sw` forms and Causality forbids the stale read.
    mp_fence_release_acquire_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); Fence.release.gpu; St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); Fence.acquire.gpu; r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// `fence.sc.gpu` on the writer, `ld.acquire.gpu` on the reader: under
    /// the ISA's reading an SC fence starts a release pattern, so `sw`
    /// forms and Causality forbids the stale read (pins that reading).
    mp_fence_sc_gpu_then_acquire_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); Fence.sc.gpu; St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// A `.gpu` fence on the writer and a `.cta` fence on the reader in
    /// another CTA: the `.cta` fence's scope misses the writer, so the pair
    /// is not morally strong and makes no `sw`; the stale read is allowed.
    mp_fence_sc_gpu_cta_mixed_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.gpu; St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); Fence.sc.cta; r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

// Two GPUs: `.gpu` scope stops at the device boundary.

litmus! {
    /// Release/acquire at `.gpu` scope between two GPUs: the scope does not
    /// reach the other device, no `sw` forms and the stale read is allowed.
    mp_rel_acq_gpu_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St(x, 1); St.release.gpu(y, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.acquire.gpu(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Release/acquire at `.sys` scope between two GPUs: `.sys` includes
    /// both, `sw` forms and Causality forbids the stale read.
    mp_rel_acq_sys_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St(x, 1); St.release.sys(y, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.acquire.sys(y); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// `__threadfence_system()` on both sides between two GPUs, relaxed
    /// `.sys` accesses: the `.sys` fences are morally strong, `sw` forms and
    /// Causality forbids the stale read.
    mp_tfs_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); TFS; St.relaxed.sys(y, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.relaxed.sys(y); TFS; r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}
