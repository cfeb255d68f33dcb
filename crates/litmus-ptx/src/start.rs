//! How the test kernel starts when it waits for others (host threads, or
//! the launches on the other GPUs): the start flag, the relay that counts
//! each launch in at every GPU's word, and, on several GPUs, each GPU's
//! start offset and jitter. The harness's side is `harness/start.rs` in
//! `litmus-hw`.

use crate::common::Common;
use crate::emit::Emitter;
use crate::layout::{knob, start_mode, Layout, START_FLAG_COPIES, START_FLAG_SPACING};
use crate::retry::Retry;

/// In a test with host threads or on several GPUs: waits until the start
/// flag is up and every logical GPU's launch has seen it, or
/// [`knob::HOST_WAIT`] polls have gone by, so that the GPU roles run while
/// the host threads do and every GPU's together, and a host that never
/// starts cannot hang the kernel.
///
/// The flag is in page-locked host memory, where every read crosses the
/// bus, and reads of one word from thousands of warps queue up there: a
/// poll per warp cost about 1 µs each on an H100, 8 ms a launch of 131,072
/// instances on two logical GPUs. So one thread per launch (the relay:
/// thread 0 of CTA 0, always a testing CTA) polls the host flag, and once
/// it is up counts its launch in at the relay word of every launching GPU
/// (`knob::START_RELAY` in that GPU's copy of the knobs); one lane of each
/// warp polls its own GPU's word until it reaches the launch's target
/// ([`crate::layout::START_TARGET`]: every launching GPU's launch counted
/// in, [`Layout::launching_gpus`], when the harness finds that they can
/// all be resident at once), and the warp waits for its lane. Counting,
/// not only relaying, keeps a launch that the GPU starts first from
/// playing its roles before the other GPU's launch has started; a word in
/// each GPU's own memory, not one across the link, lets every GPU see the
/// last count within the time one `red` takes to cross.
///
/// On several GPUs with [`Layout::gpu_start_knob`] set, each CTA's thread
/// 0 polls the host flag instead and its CTA waits at a barrier (every
/// thread of a testing CTA gets here, past `sync_shared`); see
/// [`cta_start`].
pub(super) fn wait_for_host(layout: &Layout, c: &Common, out: &mut Emitter) {
    let Some(go) = &c.go else { return };
    let (polls, v) = (out.r32(), out.r32());
    let (mask, below, lower) = (out.r32(), out.r32(), out.r32());
    let started = out.fresh_label("host_started");
    let relay_start = out.fresh_label("relay_start");
    let cta_started = out.fresh_label("cta_started");
    if layout.multi_gpu() {
        let mode = c.load_word(out, layout.gpu_start_knob());
        let (relayed, paced) = (out.pred(), out.pred());
        let paced_label = out.fresh_label("paced_start");
        out.ins(format!(
            "setp.eq.u32 {relayed}, {mode}, {}",
            start_mode::RELAY
        ));
        out.ins(format!("@{relayed} bra {relay_start}"));
        out.ins(format!(
            "setp.eq.u32 {paced}, {mode}, {}",
            start_mode::PACED
        ));
        out.ins(format!("@{paced} bra {paced_label}"));
        cta_start(layout, c, go, (&v, &polls), out);
        out.ins(format!("bra.uni {cta_started}"));
        out.label(&paced_label);
        paced_start(layout, c, go, (&v, &polls), out);
        out.ins(format!("bra.uni {cta_started}"));
    }
    out.label(&relay_start);
    out.ins(format!("activemask.b32 {mask}"));
    out.ins(format!("mov.u32 {below}, %lanemask_lt"));
    out.ins(format!("and.b32 {lower}, {mask}, {below}"));
    let follower = out.pred();
    out.ins(format!("setp.ne.u32 {follower}, {lower}, 0"));
    out.ins(format!("@{follower} bra {started}"));
    let bound = c.load_word(out, knob::HOST_WAIT);
    let relay = out.r64();
    out.ins(format!(
        "add.u64 {relay}, {}, {}",
        c.knobs,
        knob::START_RELAY * 4
    ));
    let waiter = out.fresh_label("host_waiter");
    let (not_tid0, not_cta0) = (out.pred(), out.pred());
    out.ins(format!("setp.ne.u32 {not_tid0}, {}, 0", c.tid));
    out.ins(format!(
        "setp.ne.or.u32 {not_cta0}, {}, 0, {not_tid0}",
        c.cta
    ));
    out.ins(format!("@{not_cta0} bra {waiter}"));
    // The relay: the host flag, then its launch counted in everywhere.
    poll_until(
        out,
        &format!("[{}]", go.flag),
        (&v, &polls),
        &bound,
        "ne",
        "0",
    );
    count_in(go, out);
    // Every warp's lane, the relay's too: every launch counted in.
    out.label(&waiter);
    poll_until(
        out,
        &format!("[{relay}]"),
        (&v, &polls),
        &bound,
        "ge",
        &go.target,
    );
    out.label(&started);
    out.ins(format!("bar.warp.sync {mask}"));
    out.label(&cta_started);
}

/// The CTA start: thread 0 of each CTA polls the host flag (its CTA's copy
/// of it, [`Layout::gpu_flags_knob`]) and the CTA waits for it at a
/// barrier. The bus serves one read of a word at a time, so with one copy
/// each GPU's CTAs leave about a microsecond apart, as `sys_probe.cu`'s
/// do, and with two about half a microsecond apart, which kept every weak
/// rate and ran 1.6 to 1.8 times the launches a second (two H200s). The
/// relay's one poll a launch lets every warp leave within microseconds
/// instead, and with the data in the writer's memory and the flag in the
/// reader's MP then showed its weak outcome 50,000 times less often
/// (`scripts/probes/split_start.cu`, two H200s). Thread 0 of CTA 0 still
/// counts its launch in at every GPU's relay word, whose count the next
/// launch's target assumes.
fn cta_start(
    layout: &Layout,
    c: &Common,
    go: &crate::common::StartFlag,
    (v, polls): (&str, &str),
    out: &mut Emitter,
) {
    let bound = c.load_word(out, knob::HOST_WAIT);
    let copies = c.load_word(out, layout.gpu_flags_knob());
    thread0_then_barrier(c, "cta_waiting", out, |waiting, out| {
        // This CTA's copy of the flag: the harness checks the knob, the
        // clamp keeps any word inside the buffer.
        let (line, ctaid) = (out.r32(), out.r32());
        let at = out.r64();
        out.ins(format!("max.u32 {copies}, {copies}, 1"));
        out.ins(format!("min.u32 {copies}, {copies}, {START_FLAG_COPIES}"));
        out.ins(format!("mov.u32 {ctaid}, %ctaid.x"));
        out.ins(format!("rem.u32 {line}, {ctaid}, {copies}"));
        out.ins(format!(
            "mul.wide.u32 {at}, {line}, {}",
            START_FLAG_SPACING * 4
        ));
        out.ins(format!("add.u64 {at}, {at}, {}", go.flag));
        poll_until(out, &format!("[{at}]"), (v, polls), &bound, "ne", "0");
        let not_cta0 = out.pred();
        out.ins(format!("setp.ne.u32 {not_cta0}, {}, 0", c.cta));
        out.ins(format!("@{not_cta0} bra {waiting}"));
        count_in(go, out);
    });
}

/// Thread 0 of the CTA runs `body` (given the label it may jump to when
/// done early), while the CTA's other threads wait for it at a barrier:
/// how both the CTA start and the paced start hold a CTA back.
fn thread0_then_barrier(
    c: &Common,
    name: &str,
    out: &mut Emitter,
    body: impl FnOnce(&str, &mut Emitter),
) {
    let waiting = out.fresh_label(name);
    let not_tid0 = out.pred();
    out.ins(format!("setp.ne.u32 {not_tid0}, {}, 0", c.tid));
    out.ins(format!("@{not_tid0} bra {waiting}"));
    body(&waiting, out);
    out.label(&waiting);
    out.ins("bar.sync 0");
}

/// The paced start: the relay counts the launch in as in the relay start,
/// then thread 0 of each CTA polls its GPU's relay word, takes the time
/// the first CTA of this launch on this GPU saw every launch counted in
/// (`t0`, [`Layout::gpu_t0_knob`]), and its CTA leaves at `t0 + ctaid ·
/// pace` ([`Layout::gpu_pace_knob`], nanoseconds): the CTA start's
/// departures one after another, without the bus, at a pace the knob
/// sets. It raised SB and IRIW across two H200s, but not MP with the data
/// in the writer's memory (`docs/host-and-gpus.md`, "The paced start").
fn paced_start(
    layout: &Layout,
    c: &Common,
    go: &crate::common::StartFlag,
    (v, polls): (&str, &str),
    out: &mut Emitter,
) {
    let bound = c.load_word(out, knob::HOST_WAIT);
    let pace = c.load_word(out, layout.gpu_pace_knob());
    let cta = out.r32();
    out.ins(format!("mov.u32 {cta}, %ctaid.x"));
    thread0_then_barrier(c, "paced_waiting", out, |_, out| {
        let counted = out.fresh_label("paced_counted");
        let not_cta0 = out.pred();
        out.ins(format!("setp.ne.u32 {not_cta0}, {cta}, 0"));
        out.ins(format!("@{not_cta0} bra {counted}"));
        poll_until(
            out,
            &format!("[{}]", go.flag),
            (v, polls),
            &bound,
            "ne",
            "0",
        );
        count_in(go, out);
        out.label(&counted);
        let relay = out.r64();
        out.ins(format!(
            "add.u64 {relay}, {}, {}",
            c.knobs,
            knob::START_RELAY * 4
        ));
        poll_until(
            out,
            &format!("[{relay}]"),
            (v, polls),
            &bound,
            "ge",
            &go.target,
        );
        let (t0, now) = launch_t0(layout, c, go, out);
        leave_at(&cta, &pace, (&t0, &now), out);
    });
}

/// The launch's t0 on this GPU, for the paced start: a 64-bit word
/// ([`Layout::gpu_t0_knob`]) holding the launch's target (unique to the
/// launch) above the low half of `%globaltimer` when its first CTA got
/// here; the first CTA sets it by compare-and-swap, the rest read it.
/// Returns t0's register and a scratch register for the timer.
fn launch_t0(
    layout: &Layout,
    c: &Common,
    go: &crate::common::StartFlag,
    out: &mut Emitter,
) -> (String, String) {
    let (t0w, seen, now, tag, t0) = (out.r64(), out.r64(), out.r32(), out.r32(), out.r32());
    let (stale, have) = (out.pred(), out.fresh_label("paced_have_t0"));
    out.ins(format!(
        "add.u64 {t0w}, {}, {}",
        c.knobs,
        layout.gpu_t0_knob() * 4
    ));
    out.ins(format!("ld.relaxed.gpu.global.u64 {seen}, [{t0w}]"));
    out.ins(format!("mov.b64 {{{t0}, {tag}}}, {seen}"));
    out.ins(format!("setp.ne.u32 {stale}, {tag}, {}", go.target));
    out.ins(format!("@!{stale} bra {have}"));
    let mine = out.r64();
    out.ins(format!("mov.u32 {now}, %globaltimer_lo"));
    out.ins(format!("mov.b64 {mine}, {{{now}, {}}}", go.target));
    let old = out.r64();
    out.ins(format!(
        "atom.relaxed.gpu.global.cas.b64 {old}, [{t0w}], {seen}, {mine}"
    ));
    let won = out.pred();
    out.ins(format!("setp.eq.u64 {won}, {old}, {seen}"));
    out.ins(format!("selp.b64 {seen}, {mine}, {old}, {won}"));
    out.ins(format!("mov.b64 {{{t0}, {tag}}}, {seen}"));
    out.label(&have);
    (t0, now)
}

/// Waits until `cta · pace` nanoseconds past `t0` (the paced start's
/// departure): low halves of `%globaltimer`, compared as a difference,
/// so that the timer's wrap does no harm.
fn leave_at(cta: &str, pace: &str, (t0, now): (&str, &str), out: &mut Emitter) {
    let (due, gone) = (out.r32(), out.r32());
    let tick = out.fresh_label("paced_tick");
    out.ins(format!("mul.lo.u32 {due}, {cta}, {pace}"));
    out.label(&tick);
    out.ins(format!("mov.u32 {now}, %globaltimer_lo"));
    out.ins(format!("sub.u32 {gone}, {now}, {t0}"));
    let early = out.pred();
    out.ins(format!("setp.lt.u32 {early}, {gone}, {due}"));
    out.ins(format!("@{early} bra {tick}"));
}

/// In a test on several GPUs, before the start: this GPU's start offset
/// plus this warp's jitter ([`Layout::gpu_delay_knob`],
/// [`Layout::gpu_jitter_knob`]) in nanoseconds, or `None` on one GPU. The
/// knob loads and the draw happen here, with the roles' other set-ups, so
/// that nothing after the start waits on memory but the wait itself.
pub(super) fn gpu_start_delay(layout: &Layout, c: &Common, out: &mut Emitter) -> Option<String> {
    if !layout.multi_gpu() {
        return None;
    }
    let delay = c.load_word(out, layout.gpu_delay_knob());
    let jitter = c.load_word(out, layout.gpu_jitter_knob());
    let (none, h) = (out.pred(), out.r32());
    let no_jitter = out.fresh_label("gpu_no_jitter");
    out.ins(format!("setp.eq.u32 {none}, {jitter}, 0"));
    out.ins(format!("@{none} bra {no_jitter}"));
    // A draw per warp, launch and GPU: the unit and warp mixed with the
    // launch's seed and the logical GPU, so that the same warp of two GPUs
    // (which play one instance's roles with aligned partners) waits
    // differently, and an instance's roles meet at many offsets. Not per
    // thread: a warp leaves the wait with its last lane, so 32 draws made
    // every warp wait nearly the whole jitter and spread nothing (two
    // H200s: no jitter up to 100 µs moved MP with the data at the writer).
    let warp = out.r32();
    out.ins(format!("shr.u32 {warp}, {}, 5", c.tid));
    out.ins(format!("shl.b32 {h}, {}, 10", c.unit));
    out.ins(format!("xor.b32 {h}, {h}, {warp}"));
    if let Some(gpu) = &c.gpu {
        let g = out.r32();
        out.ins(format!("shl.b32 {g}, {gpu}, 28"));
        out.ins(format!("xor.b32 {h}, {h}, {g}"));
    }
    out.ins(format!("mad.lo.u32 {h}, {h}, -1640531535, {}", c.launch));
    let r = crate::draw::draw(out, &h, 0x6a09_e667);
    out.ins(format!("rem.u32 {r}, {r}, {jitter}"));
    out.ins(format!("add.u32 {delay}, {delay}, {r}"));
    out.label(&no_jitter);
    Some(delay)
}

/// Once the start is over: waits `delay` nanoseconds
/// ([`gpu_start_delay`]) on `%globaltimer`, which moves on its own, so the
/// wait ends. Where the roles of an instance on two GPUs meet in time
/// decides which of the other GPU's accesses are still in flight: the
/// offset moves that meeting point, the jitter spreads it.
pub(super) fn gpu_start_wait(delay: Option<&str>, out: &mut Emitter) {
    let Some(delay) = delay else { return };
    let none = out.pred();
    let wait = out.fresh_label("gpu_wait");
    let waited = out.fresh_label("gpu_waited");
    out.ins(format!("setp.eq.u32 {none}, {delay}, 0"));
    out.ins(format!("@{none} bra {waited}"));
    let (t0, t, d) = (out.r64(), out.r64(), out.r64());
    out.ins(format!("mov.u64 {t0}, %globaltimer"));
    out.ins(format!("cvt.u64.u32 {d}, {delay}"));
    out.label(&wait);
    out.ins(format!("mov.u64 {t}, %globaltimer"));
    out.ins(format!("sub.u64 {t}, {t}, {t0}"));
    let more = out.pred();
    out.ins(format!("setp.lt.u64 {more}, {t}, {d}"));
    out.ins(format!("@{more} bra {wait}"));
    out.label(&waited);
}

/// Counts this launch in at the relay word of every launching GPU (or its
/// own, with host threads): what each start's relay thread does once the
/// host flag is up.
fn count_in(go: &crate::common::StartFlag, out: &mut Emitter) {
    for word in &go.relays {
        out.ins(format!("red.relaxed.sys.global.add.u32 [{word}], 1"));
    }
}

/// Polls `addr` (a `.sys` load: the host or another GPU writes it) until
/// its word compares `cmp` to `value` or `bound` polls have gone by.
fn poll_until(
    out: &mut Emitter,
    addr: &str,
    (v, polls): (&str, &str),
    bound: &str,
    cmp: &str,
    value: &str,
) {
    let lp = out.fresh_label("start_poll");
    let done = out.fresh_label("start_polled");
    let (hit, more) = (out.pred(), out.pred());
    Retry {
        again: &lp,
        out_to: &done,
        hit: &hit,
        more: &more,
        count: polls,
        limit: bound,
    }
    .emit(
        &[
            format!("ld.relaxed.sys.global.u32 {v}, {addr}"),
            format!("setp.{cmp}.u32 {hit}, {v}, {value}"),
        ],
        out,
    );
    out.label(&done);
}
