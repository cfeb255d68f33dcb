//! The catalogue: MP, SB and IRIW with threads on two GPUs, `.sys` against
//! `.gpu` scope (issue "System scope on the hardware", point 3). `.gpu`
//! scope stops at the device boundary, so its fences and release/acquire
//! pairs order nothing between the two GPUs; `.sys` reaches both. The
//! release/acquire and `__threadfence_system()` MP variants and both fenced
//! SB variants are in `catalogue_mp.rs` and `catalogue_sb_lb.rs`; these
//! complete the set. Locations live in GPU 0's memory unless a test says
//! otherwise (`gpu 1 x = 0;`): the placement MP variants at the end put
//! them in the reader's or the writer's memory, as `probe/sys_probe.cu`
//! did (`../shared/reference/gpu-notes.md`). On a machine with one GPU the
//! hardware half says it did not run, unless `LITMUS_GPU_MAP=0,0` runs
//! both logical GPUs there (and "GPU 1's memory" is then a second buffer
//! on device 0).

use gpu_litmus::litmus;

// Message passing, writer on GPU 0, reader on GPU 1.

litmus! {
    /// Relaxed `.sys` accesses and no fence: nothing orders the writer's
    /// stores or the reader's loads, and the stale read is allowed (seen
    /// on two H200s at 3.5e-3 of instances).
    mp_relaxed_sys_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); St.relaxed.sys(y, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.relaxed.sys(y); r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// `fence.sc.gpu` on both sides: each fence's scope is its own GPU, so
    /// the pair is not morally strong, makes no `sw`, and the stale read is
    /// allowed.
    mp_fence_sc_gpu_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); Fence.sc.gpu; St.relaxed.sys(y, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.relaxed.sys(y); Fence.sc.gpu; r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// `fence.sc.sys` on both sides: the fences are morally strong, `sw`
    /// forms and Causality forbids the stale read.
    mp_fence_sc_sys_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); Fence.sc.sys; St.relaxed.sys(y, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.relaxed.sys(y); Fence.sc.sys; r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

// Store buffering, one thread per GPU.

litmus! {
    /// Relaxed `.sys` accesses and no fence: both loads may read the
    /// initial values.
    sb_relaxed_sys_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); r0 = Ld.relaxed.sys(y); }
    thread t1 @ gpu 1, cta 0 { St.relaxed.sys(y, 1); r0 = Ld.relaxed.sys(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
}

// IRIW: a writer and a reader on each GPU, the two threads of a GPU in
// different CTAs; the readers disagree on the order of the two writes.

litmus! {
    /// Relaxed `.sys` accesses: PTX is not multi-copy atomic for relaxed
    /// accesses, and the readers may disagree.
    iriw_relaxed_sys_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.relaxed.sys(x); r1 = Ld.relaxed.sys(y); }
    thread t2 @ gpu 1, cta 1 { St.relaxed.sys(y, 1); }
    thread t3 @ gpu 0, cta 1 { r0 = Ld.relaxed.sys(y); r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0 && t3.r0 == 1 && t3.r1 == 0) => allowed;
}

litmus! {
    /// `fence.sc.gpu` between each reader's loads, readers on different
    /// GPUs: the fences are not morally strong, Fence-SC does not order
    /// them, and the readers may disagree.
    iriw_fence_sc_gpu_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.relaxed.sys(x); Fence.sc.gpu; r1 = Ld.relaxed.sys(y); }
    thread t2 @ gpu 1, cta 1 { St.relaxed.sys(y, 1); }
    thread t3 @ gpu 0, cta 1 { r0 = Ld.relaxed.sys(y); Fence.sc.gpu; r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0 && t3.r0 == 1 && t3.r1 == 0) => allowed;
}

litmus! {
    /// `fence.sc.sys` between each reader's loads: Fence-SC orders the two
    /// fences one way, and one reader's stale load closes a Causality
    /// cycle: forbidden.
    iriw_fence_sc_sys_two_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.relaxed.sys(x); Fence.sc.sys; r1 = Ld.relaxed.sys(y); }
    thread t2 @ gpu 1, cta 1 { St.relaxed.sys(y, 1); }
    thread t3 @ gpu 0, cta 1 { r0 = Ld.relaxed.sys(y); Fence.sc.sys; r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0 && t3.r0 == 1 && t3.r1 == 0) => forbidden;
}

// Message passing with the locations in other GPUs' memory. Where memory
// lives changes no PTX semantics (scopes follow the threads), so each
// keeps the verdict of `mp_relaxed_sys_two_gpus`; on the hardware the flag
// and the data cross the link in different directions.

litmus! {
    /// Relaxed `.sys`, the data in the reader's memory (GPU 1) and the flag
    /// in the writer's (GPU 0): the stale read is allowed.
    mp_relaxed_sys_data_at_reader;
    gpu 1 x = 0;
    gpu 0 y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); St.relaxed.sys(y, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.relaxed.sys(y); r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Relaxed `.sys`, the data in the writer's memory (GPU 0) and the flag
    /// in the reader's (GPU 1), the probe's "x in GPU 0's, y in GPU 1's"
    /// row (4.6e-3 of instances on two H200s): allowed.
    mp_relaxed_sys_flag_at_reader;
    global x = 0;
    gpu 1 y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); St.relaxed.sys(y, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.relaxed.sys(y); r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Relaxed `.sys`, both in the reader's memory (GPU 1), the probe's "x
    /// and y in GPU 1's memory" row (3.5e-3 of instances on two H200s):
    /// allowed.
    mp_relaxed_sys_both_at_reader;
    gpu 1 x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); St.relaxed.sys(y, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.relaxed.sys(y); r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// `fence.sc.sys` on both sides, the data in the reader's memory and
    /// the flag in the writer's: the fences still synchronise and the
    /// stale read is forbidden wherever the memory lives.
    mp_fence_sc_sys_data_at_reader;
    gpu 1 x = 0;
    global y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); Fence.sc.sys; St.relaxed.sys(y, 1); }
    thread t1 @ gpu 1, cta 0 { r0 = Ld.relaxed.sys(y); Fence.sc.sys; r1 = Ld.relaxed.sys(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

// IRIW with one thread a GPU, on four GPUs: each write and each reader on
// a device of its own, so every access of a reader crosses a link. On a
// machine with fewer GPUs the hardware half says it did not run.

litmus! {
    /// Relaxed `.sys` accesses: the readers may disagree on the order of
    /// the two writes.
    iriw_relaxed_sys_four_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); }
    thread t1 @ gpu 1, cta 0 { St.relaxed.sys(y, 1); }
    thread t2 @ gpu 2, cta 0 { r0 = Ld.relaxed.sys(x); r1 = Ld.relaxed.sys(y); }
    thread t3 @ gpu 3, cta 0 { r0 = Ld.relaxed.sys(y); r1 = Ld.relaxed.sys(x); }
    exists (t2.r0 == 1 && t2.r1 == 0 && t3.r0 == 1 && t3.r1 == 0) => allowed;
}

litmus! {
    /// `fence.sc.sys` between each reader's loads: forbidden, as on two
    /// GPUs.
    iriw_fence_sc_sys_four_gpus;
    global x = 0, y = 0;
    thread t0 @ gpu 0, cta 0 { St.relaxed.sys(x, 1); }
    thread t1 @ gpu 1, cta 0 { St.relaxed.sys(y, 1); }
    thread t2 @ gpu 2, cta 0 { r0 = Ld.relaxed.sys(x); Fence.sc.sys; r1 = Ld.relaxed.sys(y); }
    thread t3 @ gpu 3, cta 0 { r0 = Ld.relaxed.sys(y); Fence.sc.sys; r1 = Ld.relaxed.sys(x); }
    exists (t2.r0 == 1 && t2.r1 == 0 && t3.r0 == 1 && t3.r1 == 0) => forbidden;
}
