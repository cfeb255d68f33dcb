//! The catalogue: coherence of one location (CoRR, CoRW, CoWR, CoWW).
//!
//! PTX keeps per-location order only among morally strong accesses
//! (SC-per-location) and along program order on one location: weak
//! accesses of different threads may see a location's writes in different
//! orders, and so may strong accesses whose scopes miss each other.

use gpu_litmus::litmus;

// CoRR: two reads of one location in program order.

litmus! {
    /// Relaxed `.gpu` loads between CTAs: reading the new value then the old
    /// one makes `po-loc ; fr ; rf` a cycle of morally strong edges, which
    /// SC-per-location forbids (reference table).
    corr_relaxed_gpu_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// Weak loads between CTAs: the rf and fr edges to the other thread's
    /// write are not morally strong, SC-per-location has no cycle, and new
    /// then old is allowed (reference table).
    corr_weak_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); }
    thread t1 @ cta 1 { r0 = Ld(x); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Volatile loads and store between CTAs: `.volatile` is `relaxed.sys`,
    /// so the accesses are morally strong and SC-per-location forbids new
    /// then old.
    corr_volatile_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { St.volatile(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.volatile(x); r1 = Ld.volatile(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// Relaxed `.cta` accesses between CTAs: the scopes miss the other
    /// thread, so the rf and fr edges are not morally strong and new then
    /// old is allowed, as for weak accesses.
    corr_relaxed_cta_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { St.relaxed.cta(x, 1); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.cta(x); r1 = Ld.relaxed.cta(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Relaxed `.cta` accesses to shared memory within one CTA: morally
    /// strong, so SC-per-location forbids new then old.
    corr_relaxed_cta_shared;
    shared x = 0;
    thread t0 @ cta 0, warp 0 { St.relaxed.cta(x, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld.relaxed.cta(x); r1 = Ld.relaxed.cta(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// Weak accesses to shared memory within one CTA: not morally strong
    /// (both must be strong), so new then old is allowed by the model.
    corr_weak_shared;
    shared x = 0;
    thread t0 @ cta 0, warp 0 { St(x, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld(x); r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Two writers, two readers that see them in opposite orders, relaxed
    /// `.gpu`: the writes are morally strong so `co` orders them, and one
    /// reader's `po-loc` then contradicts it (SC-per-location): forbidden.
    corr_two_writers_relaxed_gpu_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { St.relaxed.gpu(x, 2); }
    thread t2 @ cta 2 { r0 = Ld.relaxed.gpu(x); r1 = Ld.relaxed.gpu(x); }
    thread t3 @ cta 3 { r0 = Ld.relaxed.gpu(x); r1 = Ld.relaxed.gpu(x); }
    exists (t2.r0 == 1 && t2.r1 == 2 && t3.r0 == 2 && t3.r1 == 1) => forbidden;
}

litmus! {
    /// Two weak writers, two weak readers: the racing writes stay unordered
    /// in PTX's partial `co`, and the readers may disagree on their order.
    corr_two_writers_weak_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); }
    thread t1 @ cta 1 { St(x, 2); }
    thread t2 @ cta 2 { r0 = Ld(x); r1 = Ld(x); }
    thread t3 @ cta 3 { r0 = Ld(x); r1 = Ld(x); }
    exists (t2.r0 == 1 && t2.r1 == 2 && t3.r0 == 2 && t3.r1 == 1) => allowed;
}

// CoRW: a read, then a write of the same location.

litmus! {
    /// One thread reads `x` then writes it: reading its own later write would
    /// be a `po-loc ; rf` cycle, and a thread's accesses are always morally
    /// strong with each other, so SC-per-location forbids it even for weak
    /// accesses.
    corw1_weak_one_thread;
    global x = 0;
    thread t0 @ cta 0 { r0 = Ld(x); St(x, 1); }
    exists (t0.r0 == 1) => forbidden;
}

litmus! {
    /// Relaxed `.gpu`: reading the other thread's write and then writing
    /// orders the two writes, `co` must agree, so the other write cannot end
    /// last (SC-per-location).
    corw2_relaxed_gpu_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { r0 = Ld.relaxed.gpu(x); St.relaxed.gpu(x, 1); }
    thread t1 @ cta 1 { St.relaxed.gpu(x, 2); }
    exists (t0.r0 == 2 && x == 2) => forbidden;
}

litmus! {
    /// Weak accesses: the two writes race, `co` leaves them unordered, both
    /// are co-maximal and `x` may end as either: the outcome is allowed.
    corw2_weak_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { r0 = Ld(x); St(x, 1); }
    thread t1 @ cta 1 { St(x, 2); }
    exists (t0.r0 == 2 && x == 2) => allowed;
}

// CoWR: a write, then a read of the same location.

litmus! {
    /// One thread writes `x` then reads it while another writes it too:
    /// reading the initial value would be `po-loc ; fr` back to its own
    /// write, a cycle SC-per-location forbids even for weak accesses.
    cowr_weak_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); r0 = Ld(x); }
    thread t1 @ cta 1 { St(x, 2); }
    exists (t0.r0 == 0) => forbidden;
}

litmus! {
    /// Relaxed `.gpu`: reading the other thread's write after one's own puts
    /// the own write first in `co` (SC-per-location), so `x` cannot end as
    /// the own write's value.
    cowr_relaxed_gpu_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); r0 = Ld.relaxed.gpu(x); }
    thread t1 @ cta 1 { St.relaxed.gpu(x, 2); }
    exists (t0.r0 == 2 && x == 1) => forbidden;
}

litmus! {
    /// Weak accesses: the writes race and stay unordered in `co`, so after
    /// reading the other's write `x` may still end as the own write's value.
    cowr_weak_final_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); r0 = Ld(x); }
    thread t1 @ cta 1 { St(x, 2); }
    exists (t0.r0 == 2 && x == 1) => allowed;
}

// CoWW: two writes of one location in program order.

litmus! {
    /// Two weak writes by one thread: they are morally strong with each
    /// other (same thread), so `co` follows program order (SC-per-location)
    /// and the first cannot end last.
    coww_weak_one_thread;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); St(x, 2); }
    exists (x == 1) => forbidden;
}

litmus! {
    /// Two relaxed writes observed by another CTA's relaxed loads in
    /// reverse order: `co` follows program order and the observer's
    /// `po-loc` would contradict it (SC-per-location): forbidden.
    coww_observed_relaxed_gpu_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.relaxed.gpu(x, 2); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); r1 = Ld.relaxed.gpu(x); }
    exists (t1.r0 == 2 && t1.r1 == 1) => forbidden;
}

litmus! {
    /// Two weak writes observed by another CTA's weak loads in reverse order:
    /// the observer's rf and fr edges are not morally strong, so nothing
    /// forbids it: allowed.
    coww_observed_weak_inter_cta;
    global x = 0;
    thread t0 @ cta 0 { St(x, 1); St(x, 2); }
    thread t1 @ cta 1 { r0 = Ld(x); r1 = Ld(x); }
    exists (t1.r0 == 2 && t1.r1 == 1) => allowed;
}
