//! The catalogue: shapes with three or four threads, or with coherence
//! order in the condition: IRIW, WRC, RWC, ISA2, 2+2W, S and R. Every
//! thread is in its own CTA unless the name says otherwise.

use gpu_litmus::litmus;

// IRIW: two independent writes, two readers that disagree on their order.

litmus! {
    /// Relaxed `.gpu` accesses: without fences the readers' loads are
    /// unordered, so they may see the two writes in opposite orders (PTX is
    /// not multi-copy atomic for relaxed accesses; seen on H100).
    iriw_relaxed_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); r1 = Ld.relaxed.gpu(y); }
    thread t2 @ cta 2 { St.relaxed.gpu(y, 1); }
    thread t3 @ cta 3 { r0 = Ld.relaxed.gpu(y); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0 && t3.r0 == 1 && t3.r1 == 0) => allowed;
}

litmus! {
    /// `fence.sc.gpu` between the readers' loads: Fence-SC orders the two
    /// fences one way, and with the rf edges that makes one reader's stale
    /// load a Causality violation: forbidden.
    iriw_fence_sc_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); Fence.sc.gpu; r1 = Ld.relaxed.gpu(y); }
    thread t2 @ cta 2 { St.relaxed.gpu(y, 1); }
    thread t3 @ cta 3 { r0 = Ld.relaxed.gpu(y); Fence.sc.gpu; r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0 && t3.r0 == 1 && t3.r1 == 0) => forbidden;
}

litmus! {
    /// Acquire loads in the readers: acquire orders each reader's second
    /// load after its first, but two independent writes still need no common
    /// order without an SC fence; no Causality cycle closes, so allowed.
    iriw_acquire_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.release.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(x); r1 = Ld.acquire.gpu(y); }
    thread t2 @ cta 2 { St.release.gpu(y, 1); }
    thread t3 @ cta 3 { r0 = Ld.acquire.gpu(y); r1 = Ld.acquire.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0 && t3.r0 == 1 && t3.r1 == 0) => allowed;
}

litmus! {
    /// `fence.sc.cta` between the readers' loads, readers in different CTAs:
    /// the fences are not morally strong, Fence-SC does not order them, and
    /// the readers may disagree: allowed.
    iriw_fence_sc_cta_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); Fence.sc.cta; r1 = Ld.relaxed.gpu(y); }
    thread t2 @ cta 2 { St.relaxed.gpu(y, 1); }
    thread t3 @ cta 3 { r0 = Ld.relaxed.gpu(y); Fence.sc.cta; r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0 && t3.r0 == 1 && t3.r1 == 0) => allowed;
}

litmus! {
    /// All four threads in one CTA, shared memory, `fence.sc.cta` in the
    /// readers: the fences are morally strong there, Fence-SC orders them and
    /// Causality forbids the disagreement. (No warps are declared: four
    /// declared warps would need CTAs of at least 128 threads on the GPU.)
    iriw_fence_sc_cta_shared;
    shared x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.cta(x, 1); }
    thread t1 @ cta 0 { r0 = Ld.relaxed.cta(x); Fence.sc.cta; r1 = Ld.relaxed.cta(y); }
    thread t2 @ cta 0 { St.relaxed.cta(y, 1); }
    thread t3 @ cta 0 { r0 = Ld.relaxed.cta(y); Fence.sc.cta; r1 = Ld.relaxed.cta(x); }
    exists (t1.r0 == 1 && t1.r1 == 0 && t3.r0 == 1 && t3.r1 == 0) => forbidden;
}

// WRC: a write, read and forwarded by a second thread, seen by a third.

litmus! {
    /// Relaxed accesses: the middle thread's read and write are unordered
    /// for others, so the last thread may see the flag but not `x`: allowed
    /// (seen on H100).
    wrc_relaxed_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); St.relaxed.gpu(y, 1); }
    thread t2 @ cta 2 { r0 = Ld.relaxed.gpu(y); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t2.r0 == 1 && t2.r1 == 0) => allowed;
}

litmus! {
    /// The middle thread releases `y` after reading `x`, the last acquires
    /// it: `cause` is cumulative (`obs` of `x` then `sw`), so `x`'s write is
    /// a cause of the last read and Causality forbids reading 0.
    wrc_rel_acq_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); St.release.gpu(y, 1); }
    thread t2 @ cta 2 { r0 = Ld.acquire.gpu(y); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t2.r0 == 1 && t2.r1 == 0) => forbidden;
}

litmus! {
    /// `fence.sc.gpu` in the middle and last threads: the fences make `sw`
    /// through `y`, and with `x`'s `obs` edge Causality forbids the stale
    /// read.
    wrc_fence_sc_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); Fence.sc.gpu; St.relaxed.gpu(y, 1); }
    thread t2 @ cta 2 { r0 = Ld.relaxed.gpu(y); Fence.sc.gpu; r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t2.r0 == 1 && t2.r1 == 0) => forbidden;
}

litmus! {
    /// Release/acquire at `.cta` scope, each thread in its own CTA: the
    /// pairs are not morally strong, no `sw` forms, and the stale read is
    /// allowed.
    wrc_rel_acq_cta_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); St.release.cta(y, 1); }
    thread t2 @ cta 2 { r0 = Ld.acquire.cta(y); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t2.r0 == 1 && t2.r1 == 0) => allowed;
}

// RWC: a read that misses a write, then a store-buffering-like pair.

litmus! {
    /// Relaxed accesses: the second and third threads' accesses are
    /// unordered, so the reads may each miss the other writes: allowed.
    rwc_relaxed_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); r1 = Ld.relaxed.gpu(y); }
    thread t2 @ cta 2 { St.relaxed.gpu(y, 1); r0 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0 && t2.r0 == 0) => allowed;
}

litmus! {
    /// `fence.sc.gpu` in the second and third threads: either Fence-SC
    /// orientation makes one stale read a Causality violation: forbidden.
    rwc_fence_sc_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); Fence.sc.gpu; r1 = Ld.relaxed.gpu(y); }
    thread t2 @ cta 2 { St.relaxed.gpu(y, 1); Fence.sc.gpu; r0 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0 && t2.r0 == 0) => forbidden;
}

litmus! {
    /// `fence.acq_rel.gpu` in the second and third threads: acq_rel fences
    /// do not order the third thread's store before its load (an SB pair),
    /// so the outcome is allowed.
    rwc_fence_acq_rel_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); Fence.acq_rel.gpu; r1 = Ld.relaxed.gpu(y); }
    thread t2 @ cta 2 { St.relaxed.gpu(y, 1); Fence.acq_rel.gpu; r0 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0 && t2.r0 == 0) => allowed;
}

// ISA2: message passing forwarded through a chain of three threads.

litmus! {
    /// Relaxed accesses throughout: no `sw` anywhere, so the last thread may
    /// see the end of the chain and stale data: allowed.
    isa2_relaxed_gpu_inter_cta;
    global x = 0, y = 0, z = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); St.relaxed.gpu(z, 1); }
    thread t2 @ cta 2 { r0 = Ld.relaxed.gpu(z); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t2.r0 == 1 && t2.r1 == 0) => allowed;
}

litmus! {
    /// Release/acquire on both links: `sw ; po ; sw` is `cause-base`, so the
    /// write of `x` is a cause of the last read and Causality forbids the
    /// stale value (synchronisation is transitive).
    isa2_rel_acq_gpu_inter_cta;
    global x = 0, y = 0, z = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(y); St.release.gpu(z, 1); }
    thread t2 @ cta 2 { r0 = Ld.acquire.gpu(z); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t2.r0 == 1 && t2.r1 == 0) => forbidden;
}

litmus! {
    /// Release/acquire on the first link, a relaxed second link: the chain
    /// breaks at the middle thread, no `sw` reaches the last one, so the
    /// stale read is allowed.
    isa2_rel_acq_first_link_only_inter_cta;
    global x = 0, y = 0, z = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(y); St.relaxed.gpu(z, 1); }
    thread t2 @ cta 2 { r0 = Ld.relaxed.gpu(z); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t2.r0 == 1 && t2.r1 == 0) => allowed;
}

litmus! {
    /// `.cta` release/acquire between two threads of CTA 0, then `.gpu` to a
    /// thread of CTA 1: each link is morally strong at its own scope, and
    /// `cause-base` chains them, so Causality forbids the stale read.
    isa2_rel_acq_mixed_scopes;
    global x = 0, y = 0, z = 0;
    thread t0 @ cta 0, warp 0 { St.relaxed.gpu(x, 1); St.release.cta(y, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld.acquire.cta(y); St.release.gpu(z, 1); }
    thread t2 @ cta 1 { r0 = Ld.acquire.gpu(z); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t2.r0 == 1 && t2.r1 == 0) => forbidden;
}

// 2+2W: two threads write two locations in opposite orders.

litmus! {
    /// Relaxed stores, no fences: nothing relates the threads, so coherence
    /// may order each location's writes against program order on both
    /// sides; both first writes may win: allowed.
    two_plus_two_w_relaxed_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.relaxed.gpu(y, 2); }
    thread t1 @ cta 1 { St.relaxed.gpu(y, 1); St.relaxed.gpu(x, 2); }
    exists (x == 1 && y == 1) => allowed;
}

litmus! {
    /// `fence.sc.gpu` between the stores: Fence-SC orders the fences, which
    /// makes one thread's first store a cause of the other's second store to
    /// the same location; Coherence puts it first in `co`, so both first
    /// writes cannot win: forbidden.
    two_plus_two_w_fence_sc_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.gpu; St.relaxed.gpu(y, 2); }
    thread t1 @ cta 1 { St.relaxed.gpu(y, 1); Fence.sc.gpu; St.relaxed.gpu(x, 2); }
    exists (x == 1 && y == 1) => forbidden;
}

litmus! {
    /// Release stores: release orders the first store before the second,
    /// but with no reads there is no `obs`, hence no `sw`, and coherence is
    /// free: both first writes may win: allowed.
    two_plus_two_w_release_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.release.gpu(y, 2); }
    thread t1 @ cta 1 { St.relaxed.gpu(y, 1); St.release.gpu(x, 2); }
    exists (x == 1 && y == 1) => allowed;
}

// S: a write-to-write message passing, judged by coherence.

litmus! {
    /// Relaxed accesses: the reader's store to `x` may be coherence-before
    /// the writer's, though the reader saw the writer's later flag: allowed.
    s_relaxed_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 2); St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); St.relaxed.gpu(x, 1); }
    exists (t1.r0 == 1 && x == 2) => allowed;
}

litmus! {
    /// Release/acquire flag: the first write to `x` is a cause of the
    /// reader's write to `x`, Coherence orders them in `co`, so `x` ends as
    /// 1: the outcome with `x == 2` is forbidden.
    s_rel_acq_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 2); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(y); St.relaxed.gpu(x, 1); }
    exists (t1.r0 == 1 && x == 2) => forbidden;
}

litmus! {
    /// Release store and a data dependency from the flag to the second write
    /// (no acquire): dependencies only feed No-thin-air, they make no
    /// `cause`, so coherence may still put the writer's `x` last: allowed.
    s_release_data_dep_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 2); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); St.relaxed.gpu(x, r0); }
    exists (t1.r0 == 1 && x == 2) => allowed;
}

// R: a write-to-write pair against a store-buffering pair.

litmus! {
    /// Relaxed accesses: the second thread's store then load are unordered,
    /// so it may miss `x` although its `y` write came last: allowed.
    r_relaxed_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { St.relaxed.gpu(y, 2); r0 = Ld.relaxed.gpu(x); }
    exists (y == 2 && t1.r0 == 0) => allowed;
}

litmus! {
    /// `fence.sc.gpu` on both sides: either Fence-SC orientation contradicts
    /// the outcome (one way `x`'s write causes the load, the other way `y`'s
    /// writes are cause-ordered so `y` ends as 1): forbidden.
    r_fence_sc_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.gpu; St.relaxed.gpu(y, 1); }
    thread t1 @ cta 1 { St.relaxed.gpu(y, 2); Fence.sc.gpu; r0 = Ld.relaxed.gpu(x); }
    exists (y == 2 && t1.r0 == 0) => forbidden;
}

litmus! {
    /// Release/acquire cannot order the second thread's store before its
    /// load (the SB half of R) and no read sees a release: allowed.
    r_rel_acq_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.release.gpu(y, 1); }
    thread t1 @ cta 1 { St.release.gpu(y, 2); r0 = Ld.acquire.gpu(x); }
    exists (y == 2 && t1.r0 == 0) => allowed;
}
