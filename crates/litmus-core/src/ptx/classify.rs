//! The classification kernel: one thread per instance reads the instance's
//! outcome (stored registers, final memory), hashes it, and adds it to an
//! open-addressing histogram in GPU memory. Threads of a warp with the same
//! outcome are counted by one leader (`match.any.sync`), so a handful of
//! distinct outcomes do not serialise on one counter.

use crate::ir::Test;
use crate::outcome::Observable;

use super::common::global_param;
use super::emit::Emitter;
use super::kernel::global_addr;
use super::layout::{counter, knob, Layout, CLASSIFY_KERNEL};

pub(crate) fn classify_kernel(test: &Test, layout: &Layout, out: &mut Emitter) {
    let param = |out: &mut Emitter, name: &str| global_param(out, name).1;
    let mem = param(out, "p_mem");
    let regs = param(out, "p_regs");
    let shfinal = param(out, "p_shfinal");
    let status = param(out, "p_status");
    let knobs = param(out, "p_knobs");
    let table = param(out, "p_table");
    let counters = param(out, "p_counters");
    let done = out.fresh_label("done");

    let (gid, ntid, cta, tid) = (out.r32(), out.r32(), out.r32(), out.r32());
    out.ins(format!("mov.u32 {ntid}, %ntid.x"));
    out.ins(format!("mov.u32 {cta}, %ctaid.x"));
    out.ins(format!("mov.u32 {tid}, %tid.x"));
    out.ins(format!("mad.lo.u32 {gid}, {cta}, {ntid}, {tid}"));
    let load_knob = |out: &mut Emitter, k: usize| {
        let r = out.r32();
        out.ins(format!("ld.global.u32 {r}, [{knobs}+{}]", k * 4));
        r
    };
    let n = load_knob(out, knob::N);
    let n_mask = load_knob(out, knob::N_MASK);
    let stride = load_knob(out, knob::STRIDE);
    let table_mask = load_knob(out, knob::TABLE_MASK);
    let p = out.pred();
    out.ins(format!("setp.ge.u32 {p}, {gid}, {n}"));
    out.ins(format!("@{p} bra {done}"));

    // The instance's slots of the global locations: read for the outcome,
    // then reset to their initial values for the next launch, which saves
    // a memset per location per launch.
    let slots: Vec<String> = (0..layout.global_locs.len())
        .map(|j| global_addr(layout, &knobs, &mem, [&n, &n_mask, &stride], j, &gid, out))
        .collect();
    let st = out.r32();
    let sa = out.r64();
    let spin = out.r64();
    out.ins(format!("mul.wide.u32 {sa}, {gid}, 4"));
    out.ins(format!("add.u64 {sa}, {sa}, {status}"));
    out.ins(format!("mul.wide.u32 {spin}, {n}, 4"));
    out.ins(format!("add.u64 {spin}, {spin}, {sa}"));
    out.ins(format!("ld.global.u32 {st}, [{sa}]"));

    let at = Instance {
        gid: &gid,
        n: &n,
        regs: &regs,
        shfinal: &shfinal,
        slots: &slots,
    };
    let values = read_outcome(layout, &at, out);
    for (j, slot) in slots.iter().enumerate() {
        let init = test.locations[layout.global_locs[j]].init.value as u32;
        out.ins(format!("st.global.u32 [{slot}], {init}"));
    }
    out.ins(format!("st.global.u32 [{sa}], 0"));
    out.ins(format!("st.global.u32 [{spin}], 0"));

    // An instance in which a role gave up on a loop has no outcome.
    let finished = out.fresh_label("finished");
    let pf = out.pred();
    out.ins(format!("setp.eq.u32 {pf}, {st}, 0"));
    out.ins(format!("@{pf} bra {finished}"));
    out.ins(format!(
        "red.global.add.u64 [{counters}+{}], 1",
        counter::UNFINISHED * 8
    ));
    out.ins(format!("bra.uni {done}"));
    out.label(&finished);

    let h = outcome_hash(&values, out);
    let cnt64 = warp_leader(&h, &done, out);
    let table = Table {
        table: &table,
        mask: &table_mask,
        counters: &counters,
    };
    fold_into_table(layout, &table, &h, &values, &cnt64, &done, out);
    out.label(&done);

    out.end_kernel(&format!(
        ".visible .entry {CLASSIFY_KERNEL}(\n\t.param .u64 p_mem,\n\t.param .u64 p_regs,\n\t.param .u64 p_shfinal,\n\t.param .u64 p_status,\n\t.param .u64 p_knobs,\n\t.param .u64 p_table,\n\t.param .u64 p_counters\n)"
    ));
}

/// Where one instance's results are: its index, the instances per
/// launch, the registers and shared-final buffers, its location slots.
struct Instance<'a> {
    gid: &'a str,
    n: &'a str,
    regs: &'a str,
    shfinal: &'a str,
    slots: &'a [String],
}

/// The outcome, one word per observable, in the registers returned.
fn read_outcome(layout: &Layout, at: &Instance, out: &mut Emitter) -> Vec<String> {
    let Instance {
        gid,
        n,
        regs,
        shfinal,
        slots,
    } = at;
    let mut values = Vec::new();
    for o in &layout.observables {
        let v = out.r32();
        let a = match o {
            Observable::Reg { thread, reg } => {
                let idx = layout
                    .stored_regs
                    .iter()
                    .position(|(t, r)| t == thread && r == reg)
                    .unwrap_or(0);
                let slot = out.r32();
                let a = out.r64();
                out.ins(format!(
                    "mad.lo.u32 {slot}, {gid}, {}, {idx}",
                    layout.stored_regs.len()
                ));
                out.ins(format!("mul.wide.u32 {a}, {slot}, 4"));
                out.ins(format!("add.u64 {a}, {a}, {regs}"));
                a
            }
            // An alias's final value is its root's.
            Observable::Loc { loc } => match layout.slot_of.get(*loc).copied().flatten() {
                Some(j) => slots[j].clone(),
                None => {
                    let s = layout
                        .shared_locs
                        .iter()
                        .position(|s| s.loc == *loc)
                        .unwrap_or(0);
                    let slot = out.r32();
                    let a = out.r64();
                    out.ins(format!("mad.lo.u32 {slot}, {n}, {s}, {gid}"));
                    out.ins(format!("mul.wide.u32 {a}, {slot}, 4"));
                    out.ins(format!("add.u64 {a}, {a}, {shfinal}"));
                    a
                }
            },
        };
        out.ins(format!("ld.global.u32 {v}, [{a}]"));
        values.push(v);
    }
    values
}

/// The outcome's FNV-1a hash, never 0 (key 0 marks a free entry).
fn outcome_hash(values: &[String], out: &mut Emitter) -> String {
    let h = out.r64();
    let w = out.r64();
    out.ins(format!("mov.u64 {h}, 0xcbf29ce484222325"));
    for v in values {
        out.ins(format!("cvt.u64.u32 {w}, {v}"));
        out.ins(format!("xor.b64 {h}, {h}, {w}"));
        out.ins(format!("mul.lo.u64 {h}, {h}, 0x100000001b3"));
    }
    out.ins(format!("or.b64 {h}, {h}, 1"));
    h
}

/// One leader per distinct outcome in the warp goes on (the others jump to
/// `done`); returns the register counting the leader's peers.
fn warp_leader(h: &str, done: &str, out: &mut Emitter) -> String {
    let (mask, peers, lt, low) = (out.r32(), out.r32(), out.r32(), out.r32());
    out.ins(format!("activemask.b32 {mask}"));
    out.ins(format!("match.any.sync.b64 {peers}, {h}, {mask}"));
    out.ins(format!("mov.u32 {lt}, %lanemask_lt"));
    out.ins(format!("and.b32 {low}, {peers}, {lt}"));
    let pl = out.pred();
    out.ins(format!("setp.ne.u32 {pl}, {low}, 0"));
    out.ins(format!("@{pl} bra {done}"));
    let cnt = out.r32();
    let cnt64 = out.r64();
    out.ins(format!("popc.b32 {cnt}, {peers}"));
    out.ins(format!("cvt.u64.u32 {cnt64}, {cnt}"));
    cnt64
}

/// The histogram: its buffer, its entries minus one, the counters.
struct Table<'a> {
    table: &'a str,
    mask: &'a str,
    counters: &'a str,
}

/// Adds `cnt64` instances of the outcome (hash `h`, words `values`) to the
/// open-addressing hash table: claims a free entry or finds the outcome's,
/// and counts an overflow when every entry is taken.
fn fold_into_table(
    layout: &Layout,
    t: &Table,
    h: &str,
    values: &[String],
    cnt64: &str,
    done: &str,
    out: &mut Emitter,
) {
    let Table {
        table,
        mask: table_mask,
        counters,
    } = t;
    let (slot, probes) = (out.r32(), out.r32());
    let entry = out.r64();
    let old = out.r64();
    out.ins(format!("cvt.u32.u64 {slot}, {h}"));
    out.ins(format!("and.b32 {slot}, {slot}, {table_mask}"));
    out.ins(format!("mov.u32 {probes}, 0"));
    let probe = out.fresh_label("probe");
    let claim = out.fresh_label("claim");
    let count = out.fresh_label("count");
    let overflow = out.fresh_label("overflow");
    out.label(&probe);
    out.ins(format!(
        "mul.wide.u32 {entry}, {slot}, {}",
        layout.entry_words() * 4
    ));
    out.ins(format!("add.u64 {entry}, {entry}, {table}"));
    out.ins(format!("atom.global.cas.b64 {old}, [{entry}], 0, {h}"));
    let (pn, ph, pfull) = (out.pred(), out.pred(), out.pred());
    out.ins(format!("setp.eq.u64 {pn}, {old}, 0"));
    out.ins(format!("@{pn} bra {claim}"));
    out.ins(format!("setp.eq.u64 {ph}, {old}, {h}"));
    out.ins(format!("@{ph} bra {count}"));
    out.ins(format!("add.u32 {probes}, {probes}, 1"));
    out.ins(format!("setp.gt.u32 {pfull}, {probes}, {table_mask}"));
    out.ins(format!("@{pfull} bra {overflow}"));
    out.ins(format!("add.u32 {slot}, {slot}, 1"));
    out.ins(format!("and.b32 {slot}, {slot}, {table_mask}"));
    out.ins(format!("bra.uni {probe}"));
    out.label(&claim);
    for (m, v) in values.iter().enumerate() {
        out.ins(format!("st.global.u32 [{entry}+{}], {v}", 16 + 4 * m));
    }
    out.label(&count);
    out.ins(format!("red.global.add.u64 [{entry}+8], {cnt64}"));
    out.ins(format!("bra.uni {done}"));
    out.label(&overflow);
    out.ins(format!(
        "red.global.add.u64 [{counters}+{}], {cnt64}",
        counter::OVERFLOW * 8
    ));
}
