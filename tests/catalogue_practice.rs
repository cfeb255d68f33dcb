//! The catalogue: patterns from CUDA code in practice, as their authors
//! write them (`volatile`, `__threadfence()`, `__threadfence_block()`,
//! `atomicAdd`, `atomicCAS`, `atomicExch`), with the verdicts PTX gives
//! them. `volatile` compiles to `.volatile` (`relaxed.sys`), `atomicX` to
//! `atom.relaxed.gpu`, `__threadfence()` to `fence.sc.gpu` and
//! `__threadfence_block()` to `fence.sc.cta`.

use gpu_litmus::litmus;

// Message passing as users write it.

litmus! {
    /// Volatile data and flag, no fence: volatile accesses are relaxed, they
    /// make no `sw`, so the reader may see the flag and stale data: allowed.
    practice_mp_volatile_inter_cta;
    global data = 0, flag = 0;
    thread t0 @ cta 0 { St.volatile(data, 1); St.volatile(flag, 1); }
    thread t1 @ cta 1 { r0 = Ld.volatile(flag); r1 = Ld.volatile(data); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Volatile accesses with `__threadfence()` on both sides: the `.gpu` SC
    /// fences make `sw` through the flag, and Causality forbids the stale
    /// data.
    practice_mp_volatile_tf_inter_cta;
    global data = 0, flag = 0;
    thread t0 @ cta 0 { St.volatile(data, 1); TF; St.volatile(flag, 1); }
    thread t1 @ cta 1 { r0 = Ld.volatile(flag); TF; r1 = Ld.volatile(data); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// Plain (weak) accesses with `__threadfence()` on both sides: the flag
    /// accesses make no `obs`, but the two SC fences are morally strong and
    /// Fence-SC orders them either way; each way closes a Causality cycle,
    /// so the stale data is forbidden.
    practice_mp_plain_tf_inter_cta;
    global data = 0, flag = 0;
    thread t0 @ cta 0 { St(data, 1); TF; St(flag, 1); }
    thread t1 @ cta 1 { r0 = Ld(flag); TF; r1 = Ld(data); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// `__threadfence()` on the writer only: the reader's two loads stay
    /// unordered (no acquire pattern), so the stale data is allowed: the
    /// reader needs its own fence.
    practice_mp_volatile_tf_writer_only_inter_cta;
    global data = 0, flag = 0;
    thread t0 @ cta 0 { St.volatile(data, 1); TF; St.volatile(flag, 1); }
    thread t1 @ cta 1 { r0 = Ld.volatile(flag); r1 = Ld.volatile(data); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// `__threadfence_block()` on both sides, writer and reader in different
    /// CTAs: `fence.sc.cta` does not reach the other CTA, the fences are not
    /// morally strong and make no `sw`: the stale data is allowed.
    practice_mp_volatile_tfb_inter_cta;
    global data = 0, flag = 0;
    thread t0 @ cta 0 { St.volatile(data, 1); TFB; St.volatile(flag, 1); }
    thread t1 @ cta 1 { r0 = Ld.volatile(flag); TFB; r1 = Ld.volatile(data); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// `__threadfence_block()` on both sides within one CTA: the CTA fences
    /// are morally strong there, `sw` forms and Causality forbids the stale
    /// data.
    practice_mp_volatile_tfb_intra_cta;
    global data = 0, flag = 0;
    thread t0 @ cta 0, warp 0 { St.volatile(data, 1); TFB; St.volatile(flag, 1); }
    thread t1 @ cta 0, warp 1 { r0 = Ld.volatile(flag); TFB; r1 = Ld.volatile(data); }
    exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
}

litmus! {
    /// A release/acquire flag (`cuda::atomic_ref` store release, load
    /// acquire in a spin loop): once the loop exits, `sw` makes the data
    /// store a cause of the data load, and Causality forbids the stale
    /// value. Executions that need a second poll are past the model's loop
    /// bound; the outcome does not need one.
    practice_mp_release_acquire_spin_inter_cta;
    global data = 0, flag = 0;
    thread t0 @ cta 0 { St(data, 42); St.release.gpu(flag, 1); }
    thread t1 @ cta 1 {
    spin:
        r0 = Ld.acquire.gpu(flag);
        beq(r0, 0, spin);
        r1 = Ld(data);
    }
    exists (t1.r1 != 42) => forbidden;
}

// Decoupled look-back (single-pass scan). A tile descriptor packs a status
// and a value into one word, `value * 4 + status`, status 1 = aggregate
// available (A), 2 = inclusive prefix available (P): 21 is A(5), 38 is P(9).

litmus! {
    /// Status and value in two words, relaxed accesses, no fence: the
    /// successor may see the status but not the value (no `sw`): allowed.
    /// This is why look-back packs them.
    lookback_split_status_value_relaxed;
    global value = 0, status = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(value, 9); St.relaxed.gpu(status, 2); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(status); r1 = Ld.relaxed.gpu(value); }
    exists (t1.r0 == 2 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Status and value packed in one word, written with one store and read
    /// with one load: a read returns a whole write (rf), so a P status always
    /// comes with its value; the split outcome is forbidden without any fence.
    lookback_packed_descriptor_relaxed;
    global d = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(d, 38); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(d); r1 = r0 & 3; r2 = r0 - r1; }
    exists (t1.r1 == 2 && t1.r2 != 36) => forbidden;
}

litmus! {
    /// The descriptor goes from A(5) (a store) to P(9) (one `atomicExch`);
    /// the successor polls twice with relaxed loads: SC-per-location forbids
    /// seeing P then A again, so a status never regresses.
    lookback_descriptor_polls_relaxed;
    global d = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(d, 21); a0 = Atom.relaxed.gpu.exch(d, 38); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(d); r1 = Ld.relaxed.gpu(d); }
    exists (t1.r0 == 38 && t1.r1 == 21) => forbidden;
}

litmus! {
    /// The same polls with plain (weak) loads: the rf and fr edges are not
    /// morally strong, CoRR does not hold, and the status may regress from
    /// P to A: allowed. Look-back polls need volatile or relaxed loads.
    lookback_descriptor_polls_weak;
    global d = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(d, 21); a0 = Atom.relaxed.gpu.exch(d, 38); }
    thread t1 @ cta 1 { r0 = Ld(d); r1 = Ld(d); }
    exists (t1.r0 == 38 && t1.r1 == 21) => allowed;
}

litmus! {
    /// A packed descriptor plus the tile's aggregate in a separate location,
    /// both relaxed: the packed word is consistent, but nothing orders the
    /// aggregate before it (no `sw`): a stale aggregate is allowed.
    lookback_aggregate_relaxed;
    global agg = 0, d = 0;
    thread t0 @ cta 0 { St(agg, 5); St.relaxed.gpu(d, 38); }
    thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(d); r1 = Ld(agg); }
    exists (t1.r0 == 38 && t1.r1 == 0) => allowed;
}

litmus! {
    /// The descriptor published with release and polled with acquire: `sw`
    /// makes the aggregate store a cause of its load, and Causality forbids
    /// the stale aggregate.
    lookback_aggregate_release_acquire;
    global agg = 0, d = 0;
    thread t0 @ cta 0 { St(agg, 5); St.release.gpu(d, 38); }
    thread t1 @ cta 1 { r0 = Ld.acquire.gpu(d); r1 = Ld(agg); }
    exists (t1.r0 == 38 && t1.r1 == 0) => forbidden;
}

// Last-block reduction: each block stores its partial result, then takes a
// ticket with `atomicAdd`; the block that draws the last ticket (1 of 2)
// reads every partial result.

litmus! {
    /// No fence: the partial results and the counter are unordered, so the
    /// last block may read a stale partial result: allowed.
    lastblock_reduction_no_fence;
    global res0 = 0, res1 = 0, count = 0;
    thread t0 @ cta 0 {
        St(res0, 10); r0 = Atom.add(count, 1);
        bne(r0, 1, done); r1 = Ld(res0); r2 = Ld(res1);
    done:
    }
    thread t1 @ cta 1 {
        St(res1, 20); r0 = Atom.add(count, 1);
        bne(r0, 1, done); r1 = Ld(res0); r2 = Ld(res1);
    done:
    }
    exists ((t0.r0 == 1 && t0.r2 == 0) || (t1.r0 == 1 && t1.r1 == 0)) => allowed;
}

litmus! {
    /// `__threadfence()` before the `atomicAdd` only (the CUDA sample's
    /// shape): the fence starts a release pattern, but the last block's
    /// relaxed atomic and plain loads end no acquire pattern, so no `sw`
    /// forms (and Fence-SC may order the last block's fence first): the
    /// stale read is allowed by PTX.
    lastblock_reduction_fence_before_add;
    global res0 = 0, res1 = 0, count = 0;
    thread t0 @ cta 0 {
        St(res0, 10); TF; r0 = Atom.add(count, 1);
        bne(r0, 1, done); r1 = Ld(res0); r2 = Ld(res1);
    done:
    }
    thread t1 @ cta 1 {
        St(res1, 20); TF; r0 = Atom.add(count, 1);
        bne(r0, 1, done); r1 = Ld(res0); r2 = Ld(res1);
    done:
    }
    exists ((t0.r0 == 1 && t0.r2 == 0) || (t1.r0 == 1 && t1.r1 == 0)) => allowed;
}

litmus! {
    /// `__threadfence()` before the `atomicAdd`, and again in the last block
    /// after it: release fence, `obs` through the counter, acquire fence
    /// make `sw`, and Causality forbids the stale read.
    lastblock_reduction_fence_both_sides;
    global res0 = 0, res1 = 0, count = 0;
    thread t0 @ cta 0 {
        St(res0, 10); TF; r0 = Atom.add(count, 1);
        bne(r0, 1, done); TF; r1 = Ld(res0); r2 = Ld(res1);
    done:
    }
    thread t1 @ cta 1 {
        St(res1, 20); TF; r0 = Atom.add(count, 1);
        bne(r0, 1, done); TF; r1 = Ld(res0); r2 = Ld(res1);
    done:
    }
    exists ((t0.r0 == 1 && t0.r2 == 0) || (t1.r0 == 1 && t1.r1 == 0)) => forbidden;
}

litmus! {
    /// An `atom.acq_rel.gpu.add` ticket, no fence: its write is release and
    /// its read acquire, the counter's rf makes `sw`, and Causality forbids
    /// the stale read.
    lastblock_reduction_acq_rel_add;
    global res0 = 0, res1 = 0, count = 0;
    thread t0 @ cta 0 {
        St(res0, 10); r0 = Atom.acq_rel.gpu.add(count, 1);
        bne(r0, 1, done); r1 = Ld(res0); r2 = Ld(res1);
    done:
    }
    thread t1 @ cta 1 {
        St(res1, 20); r0 = Atom.acq_rel.gpu.add(count, 1);
        bne(r0, 1, done); r1 = Ld(res0); r2 = Ld(res1);
    done:
    }
    exists ((t0.r0 == 1 && t0.r2 == 0) || (t1.r0 == 1 && t1.r1 == 0)) => forbidden;
}

litmus! {
    /// `__threadfence_block()` on both sides of the `atomicAdd`, blocks in
    /// different CTAs: CTA fences are not morally strong across CTAs, no
    /// `sw` forms and the stale read is allowed.
    lastblock_reduction_tfb_both_sides;
    global res0 = 0, res1 = 0, count = 0;
    thread t0 @ cta 0 {
        St(res0, 10); TFB; r0 = Atom.add(count, 1);
        bne(r0, 1, done); TFB; r1 = Ld(res0); r2 = Ld(res1);
    done:
    }
    thread t1 @ cta 1 {
        St(res1, 20); TFB; r0 = Atom.add(count, 1);
        bne(r0, 1, done); TFB; r1 = Ld(res0); r2 = Ld(res1);
    done:
    }
    exists ((t0.r0 == 1 && t0.r2 == 0) || (t1.r0 == 1 && t1.r1 == 0)) => allowed;
}

// Spin lock on `atomicCAS(lock, 0, 1)`, released with `atomicExch(lock, 0)`;
// the critical section increments `x` with plain accesses. Both threads
// finish only if both acquired the lock; within the model's loop bound (1)
// each acquired it on its first try, the other having already released it.
// A lost update (`x == 1`) means mutual exclusion failed to order the
// critical sections.

litmus! {
    /// No fences: the RMWs exclude each other (Atomicity) but order nothing
    /// else, so the second critical section may read `x` before the first
    /// one's write: a lost update is allowed.
    spinlock_cas_no_fence_inter_cta;
    global lock = 0, x = 0;
    thread t0 @ cta 0 {
    acquire:
        r0 = Atom.cas(lock, 0, 1); bne(r0, 0, acquire);
        r1 = Ld(x); r2 = r1 + 1; St(x, r2);
        a0 = Atom.exch(lock, 0);
    }
    thread t1 @ cta 1 {
    acquire:
        r0 = Atom.cas(lock, 0, 1); bne(r0, 0, acquire);
        r1 = Ld(x); r2 = r1 + 1; St(x, r2);
        a0 = Atom.exch(lock, 0);
    }
    exists (t0.r0 == 0 && t1.r0 == 0 && x == 1) => allowed;
}

litmus! {
    /// `__threadfence()` after acquiring and before releasing: release
    /// fence, `obs` through the lock word, acquire fence make `sw`, so the
    /// first critical section causes the second (Causality, Coherence): no
    /// lost update.
    spinlock_cas_tf_inter_cta;
    global lock = 0, x = 0;
    thread t0 @ cta 0 {
    acquire:
        r0 = Atom.cas(lock, 0, 1); bne(r0, 0, acquire);
        TF; r1 = Ld(x); r2 = r1 + 1; St(x, r2); TF;
        a0 = Atom.exch(lock, 0);
    }
    thread t1 @ cta 1 {
    acquire:
        r0 = Atom.cas(lock, 0, 1); bne(r0, 0, acquire);
        TF; r1 = Ld(x); r2 = r1 + 1; St(x, r2); TF;
        a0 = Atom.exch(lock, 0);
    }
    exists (t0.r0 == 0 && t1.r0 == 0 && x == 1) => forbidden;
}

litmus! {
    /// `__threadfence()` after acquiring only, none before releasing: the
    /// critical section's store may pass the unlock (no release pattern), so
    /// a lost update is allowed.
    spinlock_cas_tf_acquire_only_inter_cta;
    global lock = 0, x = 0;
    thread t0 @ cta 0 {
    acquire:
        r0 = Atom.cas(lock, 0, 1); bne(r0, 0, acquire);
        TF; r1 = Ld(x); r2 = r1 + 1; St(x, r2);
        a0 = Atom.exch(lock, 0);
    }
    thread t1 @ cta 1 {
    acquire:
        r0 = Atom.cas(lock, 0, 1); bne(r0, 0, acquire);
        TF; r1 = Ld(x); r2 = r1 + 1; St(x, r2);
        a0 = Atom.exch(lock, 0);
    }
    exists (t0.r0 == 0 && t1.r0 == 0 && x == 1) => allowed;
}

litmus! {
    /// `__threadfence_block()` fences with the threads in different CTAs:
    /// the CTA fences are not morally strong there, no `sw` forms, and a
    /// lost update is allowed.
    spinlock_cas_tfb_inter_cta;
    global lock = 0, x = 0;
    thread t0 @ cta 0 {
    acquire:
        r0 = Atom.cas(lock, 0, 1); bne(r0, 0, acquire);
        TFB; r1 = Ld(x); r2 = r1 + 1; St(x, r2); TFB;
        a0 = Atom.exch(lock, 0);
    }
    thread t1 @ cta 1 {
    acquire:
        r0 = Atom.cas(lock, 0, 1); bne(r0, 0, acquire);
        TFB; r1 = Ld(x); r2 = r1 + 1; St(x, r2); TFB;
        a0 = Atom.exch(lock, 0);
    }
    exists (t0.r0 == 0 && t1.r0 == 0 && x == 1) => allowed;
}

litmus! {
    /// `__threadfence_block()` fences with both threads in one CTA: the
    /// fences are morally strong, `sw` forms through the lock word and
    /// Causality rules out a lost update.
    spinlock_cas_tfb_intra_cta;
    global lock = 0, x = 0;
    thread t0 @ cta 0, warp 0 {
    acquire:
        r0 = Atom.cas(lock, 0, 1); bne(r0, 0, acquire);
        TFB; r1 = Ld(x); r2 = r1 + 1; St(x, r2); TFB;
        a0 = Atom.exch(lock, 0);
    }
    thread t1 @ cta 0, warp 1 {
    acquire:
        r0 = Atom.cas(lock, 0, 1); bne(r0, 0, acquire);
        TFB; r1 = Ld(x); r2 = r1 + 1; St(x, r2); TFB;
        a0 = Atom.exch(lock, 0);
    }
    exists (t0.r0 == 0 && t1.r0 == 0 && x == 1) => forbidden;
}

litmus! {
    /// `atom.acquire.gpu.cas` to lock, `atom.release.gpu.exch` to unlock:
    /// the unlock's release write is read by the next acquire CAS, `sw`
    /// forms, and Causality rules out a lost update.
    spinlock_cas_acquire_release_inter_cta;
    global lock = 0, x = 0;
    thread t0 @ cta 0 {
    acquire:
        r0 = Atom.acquire.gpu.cas(lock, 0, 1); bne(r0, 0, acquire);
        r1 = Ld(x); r2 = r1 + 1; St(x, r2);
        a0 = Atom.release.gpu.exch(lock, 0);
    }
    thread t1 @ cta 1 {
    acquire:
        r0 = Atom.acquire.gpu.cas(lock, 0, 1); bne(r0, 0, acquire);
        r1 = Ld(x); r2 = r1 + 1; St(x, r2);
        a0 = Atom.release.gpu.exch(lock, 0);
    }
    exists (t0.r0 == 0 && t1.r0 == 0 && x == 1) => forbidden;
}

litmus! {
    /// A shared-memory lock and counter within one CTA, `.cta` acquire CAS
    /// and release exchange: the CTA scope covers both threads, `sw` forms
    /// and Causality rules out a lost update.
    spinlock_cas_acquire_release_cta_shared;
    shared lock = 0, x = 0;
    thread t0 @ cta 0, warp 0 {
    acquire:
        r0 = Atom.acquire.cta.cas(lock, 0, 1); bne(r0, 0, acquire);
        r1 = Ld(x); r2 = r1 + 1; St(x, r2);
        a0 = Atom.release.cta.exch(lock, 0);
    }
    thread t1 @ cta 0, warp 1 {
    acquire:
        r0 = Atom.acquire.cta.cas(lock, 0, 1); bne(r0, 0, acquire);
        r1 = Ld(x); r2 = r1 + 1; St(x, r2);
        a0 = Atom.release.cta.exch(lock, 0);
    }
    exists (t0.r0 == 0 && t1.r0 == 0 && x == 1) => forbidden;
}
