//! The environment around the roles, as the published tuned harnesses
//! build it (MC Mutants, GPUHarbor, cuda-litmus): memory stress by CTAs
//! that run no instance, pre-stress by the testing threads right before
//! their roles, and the per-launch draws that decide whether this launch
//! stresses, pre-stresses, lines its roles up behind the spin barrier, or
//! shuffles which CTA plays which instances (spreading the testing CTAs
//! among the stressing ones is `interleave.rs`'s, as it comes before the
//! registers every role shares).
//!
//! Every draw comes from the launch's seed (a kernel parameter the host
//! derives from the run's seed and the launch's index), so a run is
//! reproduced by its seed and knobs alone.

use crate::common::Common;
use crate::draw::{chance_of, draw};
use crate::emit::Emitter;
use crate::layout::knob;

/// Salts that keep the draws of one launch independent of each other.
const SALT_STRESS: u32 = 0x51ed_27a3;
const SALT_PRE: u32 = 0x2f6b_09c1;
const SALT_SPIN: u32 = 0x7a3d_5e11;
const SALT_SHUFFLE: u32 = 0x1b87_3593;
const SALT_SHUFFLE_ADD: u32 = 0x6c62_272e;

/// A predicate that holds in `pct` percent of launches (the knob word
/// `pct`), drawn with `salt`.
fn chance(out: &mut Emitter, c: &Common, salt: u32, pct: usize) -> String {
    chance_of(out, &c.launch, salt, &c.knob[&pct])
}

/// Whether this launch's roles wait at the spin barrier: the barrier is on
/// ([`knob::SPIN`] > 0) and the launch drew it ([`knob::SPIN_PCT`]).
pub(crate) fn spin_this_launch(out: &mut Emitter, c: &Common) -> String {
    let p = chance(out, c, SALT_SPIN, knob::SPIN_PCT);
    let on = out.pred();
    out.ins(format!("setp.ne.u32 {on}, {}, 0", c.knob[&knob::SPIN]));
    out.ins(format!("and.pred {p}, {p}, {on}"));
    p
}

/// In [`knob::SHUFFLE_PCT`] percent of launches, renames the units (CTAs,
/// clusters, or groups of 32 instances) that play the instances by an odd
/// multiplier and an addend drawn from the launch seed: a bijection modulo
/// the (power-of-two) unit count, so every instance is still played once
/// per role, roles declared in different CTAs stay in different CTAs, and
/// which hardware CTA (and SM) meets which changes from launch to launch.
pub(crate) fn shuffle_units(out: &mut Emitter, c: &Common) {
    let skip = out.fresh_label("noshuffle");
    let p = chance(out, c, SALT_SHUFFLE, knob::SHUFFLE_PCT);
    out.ins(format!("@!{p} bra {skip}"));
    let m = draw(out, &c.launch, SALT_SHUFFLE ^ 0xffff_ffff);
    let a = draw(out, &c.launch, SALT_SHUFFLE_ADD);
    out.ins(format!("or.b32 {m}, {m}, 1"));
    out.ins(format!("mad.lo.u32 {u}, {u}, {m}, {a}", u = c.unit));
    out.ins(format!(
        "and.b32 {u}, {u}, {}",
        c.knob[&knob::CTA_MASK],
        u = c.unit
    ));
    out.label(&skip);
}

/// The testing threads' pre-stress: in [`knob::PRE_PCT`] percent of
/// launches, [`knob::PRE_STRESS`] iterations of the pattern
/// [`knob::PRE_PATTERN`] on the scratch line of this thread's unit, right
/// before the roles start.
pub(crate) fn pre_stress(out: &mut Emitter, c: &Common, scratch: &str) {
    let skip = out.fresh_label("nopre");
    let p = chance(out, c, SALT_PRE, knob::PRE_PCT);
    out.ins(format!("@!{p} bra {skip}"));
    let line = out.r32();
    out.ins(format!(
        "rem.u32 {line}, {}, {}",
        c.unit,
        c.knob[&knob::STRESS_LINES]
    ));
    let addr = line_addr(out, c, scratch, &line);
    let pattern = c.knob[&knob::PRE_PATTERN].clone();
    let iters = c.knob[&knob::PRE_STRESS].clone();
    stress_loop(out, &addr, &pattern, &iters, &skip);
    out.label(&skip);
}

/// The stressing CTAs' work, then a jump to `done`: in
/// [`knob::STRESS_PCT`] percent of launches, [`knob::STRESS`] iterations
/// of [`knob::STRESS_PATTERN`] on a scratch line chosen by the CTA's place
/// among the stressing CTAs, round-robin or in chunks
/// ([`knob::STRESS_ASSIGN`]). Stressing CTAs play no instance, so the
/// histogram never sees them.
pub(crate) fn memory_stress(out: &mut Emitter, c: &Common, scratch: &str, done: &str) {
    let p = chance(out, c, SALT_STRESS, knob::STRESS_PCT);
    out.ins(format!("@!{p} bra {done}"));
    // This CTA's place among the stressing CTAs, which come last.
    let (n, s) = (out.r32(), out.r32());
    out.ins(format!("mov.u32 {n}, %nctaid.x"));
    out.ins(format!("sub.u32 {s}, {n}, {}", c.cta));
    out.ins(format!("sub.u32 {s}, {s}, 1"));
    let lines = &c.knob[&knob::STRESS_LINES];
    let (line, chunk) = (out.r32(), out.pred());
    out.ins(format!(
        "setp.ne.u32 {chunk}, {}, 0",
        c.knob[&knob::STRESS_ASSIGN]
    ));
    // Round-robin: s mod lines; in chunks: s·lines / stressing CTAs.
    out.ins(format!("rem.u32 {line}, {s}, {lines}"));
    let t = out.r32();
    out.ins(format!("mul.lo.u32 {t}, {s}, {lines}"));
    out.ins(format!("div.u32 {t}, {t}, {}", c.knob[&knob::STRESS_CTAS]));
    out.ins(format!("selp.u32 {line}, {t}, {line}, {chunk}"));
    let addr = line_addr(out, c, scratch, &line);
    let pattern = c.knob[&knob::STRESS_PATTERN].clone();
    let iters = c.knob[&knob::STRESS].clone();
    stress_loop(out, &addr, &pattern, &iters, done);
}

/// This thread's word of scratch line `line`: the threads of a CTA hammer
/// the line's words, `tid mod line_words`, so that they contend for the
/// same cache lines as the tuned harnesses' stress does.
fn line_addr(out: &mut Emitter, c: &Common, scratch: &str, line: &str) -> String {
    let words = &c.knob[&knob::STRESS_LINE_WORDS];
    let (w, m, word) = (out.r32(), out.r32(), out.r32());
    out.ins(format!("sub.u32 {m}, {words}, 1"));
    out.ins(format!("and.b32 {w}, {}, {m}", c.tid));
    out.ins(format!("mad.lo.u32 {word}, {line}, {words}, {w}"));
    let a = out.r64();
    out.ins(format!("mul.wide.u32 {a}, {word}, 4"));
    out.ins(format!("add.u64 {a}, {a}, {scratch}"));
    a
}

/// `iters` iterations of two accesses to `addr`, stores or loads as the
/// pattern says (0 st-st, 1 ld-ld, 2 st-ld, 3 ld-st), then on to `exit`.
/// Volatile accesses, so that neither the JIT nor the caches fold them.
fn stress_loop(out: &mut Emitter, addr: &str, pattern: &str, iters: &str, exit: &str) {
    let (i, v, w) = (out.r32(), out.r32(), out.r32());
    let (first_st, second_st, p) = (out.pred(), out.pred(), out.pred());
    // The first access stores in st-st and st-ld (even patterns), the
    // second in st-st and ld-st.
    let b0 = out.r32();
    out.ins(format!("and.b32 {b0}, {pattern}, 1"));
    out.ins(format!("setp.eq.u32 {first_st}, {b0}, 0"));
    out.ins(format!("setp.eq.u32 {second_st}, {pattern}, 0"));
    out.ins(format!("setp.eq.u32 {p}, {pattern}, 3"));
    out.ins(format!("or.pred {second_st}, {second_st}, {p}"));
    let lp = out.fresh_label("stress_loop");
    out.ins(format!("mov.u32 {i}, 0"));
    out.ins(format!("mov.u32 {v}, 0"));
    out.label(&lp);
    out.ins(format!("setp.ge.u32 {p}, {i}, {iters}"));
    out.ins(format!("@{p} bra {exit}"));
    out.ins(format!("@{first_st} st.volatile.global.u32 [{addr}], {i}"));
    out.ins(format!("@!{first_st} ld.volatile.global.u32 {w}, [{addr}]"));
    out.ins(format!("@!{first_st} add.u32 {v}, {v}, {w}"));
    out.ins(format!("@{second_st} st.volatile.global.u32 [{addr}], {v}"));
    out.ins(format!(
        "@!{second_st} ld.volatile.global.u32 {w}, [{addr}]"
    ));
    out.ins(format!("@!{second_st} add.u32 {v}, {v}, {w}"));
    out.ins(format!("add.u32 {i}, {i}, 1"));
    out.ins(format!("bra.uni {lp}"));
}
