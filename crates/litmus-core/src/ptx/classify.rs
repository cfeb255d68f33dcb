//! The classification kernel: one thread per instance reads the instance's
//! outcome (stored registers, final memory), hashes it, and adds it to an
//! open-addressing histogram in GPU memory.
//!
//! Nearly every instance has one of a handful of outcomes, so counting
//! each in GPU memory would serialise the whole launch on a few counters
//! (measured on an H100: two same-address atomics per warp cost a quarter
//! of a launch of 2M instances). So the count is folded in two steps:
//! threads of a warp with the same outcome are counted by one leader
//! (`match.any.sync`), the leaders of a CTA fold into a small table in
//! shared memory, and after a barrier each entry of that table is added
//! to the histogram in GPU memory once per CTA.

use crate::instr::InstrKind;
use crate::ir::Test;
use crate::outcome::Observable;

use super::common::global_param;
use super::emit::Emitter;
use super::kernel::global_addr;
use super::layout::{counter, knob, Layout, CLASSIFY_BLOCK, CLASSIFY_KERNEL};

/// Entries of a CTA's table in shared memory; a power of two. A CTA whose
/// instances have more distinct outcomes than this folds the rest straight
/// into GPU memory.
const CTA_TABLE: u32 = 32;

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
    // Past the first barrier, a thread with nothing (more) to count jumps
    // here: every thread of the CTA must reach the second barrier.
    let folded = out.fresh_label("folded");

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
    let spin_knob = load_knob(out, knob::SPIN);
    let cta_table = CtaTable::declare(layout, out);
    cta_table.clear(&tid, out);
    out.ins("bar.sync 0");
    let p = out.pred();
    out.ins(format!("setp.ge.u32 {p}, {gid}, {n}"));
    out.ins(format!("@{p} bra {folded}"));

    // The instance's slots of the global locations: read for the outcome,
    // then reset to their initial values for the next launch, which saves
    // a memset per location per launch.
    let slots: Vec<String> = (0..layout.global_locs.len())
        .map(|j| global_addr(layout, &knobs, &mem, [&n, &n_mask, &stride], j, &gid, out))
        .collect();
    let sa = out.r64();
    let spin = out.r64();
    out.ins(format!("mul.wide.u32 {sa}, {gid}, 4"));
    out.ins(format!("add.u64 {sa}, {sa}, {status}"));
    out.ins(format!("mul.wide.u32 {spin}, {n}, 4"));
    out.ins(format!("add.u64 {spin}, {spin}, {sa}"));
    // Only a role with a loop can give up, and only the spin barrier
    // counts on the spin words: a test without either leaves them alone,
    // and not reading and resetting them saves a tenth of the traffic.
    let gives_up = may_give_up(test);
    let st = out.r32();
    if gives_up {
        out.ins(format!("ld.global.u32 {st}, [{sa}]"));
    }

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
    if gives_up {
        out.ins(format!("st.global.u32 [{sa}], 0"));
    }
    let spin_on = out.pred();
    out.ins(format!("setp.ne.u32 {spin_on}, {spin_knob}, 0"));
    out.ins(format!("@{spin_on} st.global.u32 [{spin}], 0"));

    if gives_up {
        // An instance in which a role gave up on a loop has no outcome.
        let finished = out.fresh_label("finished");
        let pf = out.pred();
        out.ins(format!("setp.eq.u32 {pf}, {st}, 0"));
        out.ins(format!("@{pf} bra {finished}"));
        out.ins(format!(
            "red.global.add.u64 [{counters}+{}], 1",
            counter::UNFINISHED * 8
        ));
        out.ins(format!("bra.uni {folded}"));
        out.label(&finished);
    }

    let h = outcome_hash(&values, out);
    let cnt64 = warp_leader(&h, &folded, out);
    let table = Table {
        table: &table,
        mask: &table_mask,
        counters: &counters,
    };
    // One copy of the fold into GPU memory serves both the leaders that
    // find the CTA's table full (before the barrier; they return to it)
    // and the flush of the table's entries (after it): the JIT of every
    // test pays for the code once.
    let full = out.fresh_label("cta_table_full");
    let global_fold = out.fresh_label("global_fold");
    let after_fold = out.fresh_label("after_fold");
    let fold = GlobalFold {
        h: out.r64(),
        values: (0..values.len()).map(|_| out.r32()).collect(),
        cnt64: out.r64(),
        before_barrier: out.r32(),
    };
    cta_table.fold(&h, &values, &cnt64, &full, &folded, out);
    out.label(&full);
    out.ins(format!("mov.b64 {}, {h}", fold.h));
    for (f, v) in fold.values.iter().zip(&values) {
        out.ins(format!("mov.b32 {f}, {v}"));
    }
    out.ins(format!("mov.b64 {}, {cnt64}", fold.cnt64));
    out.ins(format!("mov.u32 {}, 1", fold.before_barrier));
    out.ins(format!("bra.uni {global_fold}"));
    out.label(&folded);
    out.ins("bar.sync 0");
    out.ins(format!("mov.u32 {}, 0", fold.before_barrier));
    cta_table.entry(&tid, &fold, &done, out);
    out.label(&global_fold);
    fold_into_table(
        layout,
        &table,
        &fold.h,
        &fold.values,
        &fold.cnt64,
        &after_fold,
        out,
    );
    out.label(&after_fold);
    let back = out.pred();
    out.ins(format!("setp.ne.u32 {back}, {}, 0", fold.before_barrier));
    out.ins(format!("@{back} bra {folded}"));
    out.label(&done);

    out.end_kernel(&format!(
        ".visible .entry {CLASSIFY_KERNEL}(\n\t.param .u64 p_mem,\n\t.param .u64 p_regs,\n\t.param .u64 p_shfinal,\n\t.param .u64 p_status,\n\t.param .u64 p_knobs,\n\t.param .u64 p_table,\n\t.param .u64 p_counters\n) .maxntid {CLASSIFY_BLOCK}, 1, 1"
    ));
}

/// A CTA's table of outcomes in shared memory: [`CTA_TABLE`] keys (the
/// outcome's hash, 0 when free), their counts, and their words.
struct CtaTable {
    /// Registers holding the shared-window addresses of the three arrays.
    keys: String,
    counts: String,
    words: String,
    /// Words per outcome.
    width: usize,
}

impl CtaTable {
    fn declare(layout: &Layout, out: &mut Emitter) -> CtaTable {
        let width = layout.observables.len();
        out.declare(format!(".shared .align 8 .b64 cta_keys[{CTA_TABLE}]"));
        out.declare(format!(".shared .align 8 .b64 cta_counts[{CTA_TABLE}]"));
        // At least one word, so that the array is never empty.
        out.declare(format!(
            ".shared .align 4 .b32 cta_words[{}]",
            CTA_TABLE as usize * width.max(1)
        ));
        let t = CtaTable {
            keys: out.r32(),
            counts: out.r32(),
            words: out.r32(),
            width,
        };
        out.ins(format!("mov.u32 {}, cta_keys", t.keys));
        out.ins(format!("mov.u32 {}, cta_counts", t.counts));
        out.ins(format!("mov.u32 {}, cta_words", t.words));
        t
    }

    /// The shared addresses of entry `slot`: its key and count, its words.
    fn addresses(&self, slot: &str, out: &mut Emitter) -> (String, String, String) {
        let (off, key, count, words) = (out.r32(), out.r32(), out.r32(), out.r32());
        out.ins(format!("shl.b32 {off}, {slot}, 3"));
        out.ins(format!("add.u32 {key}, {}, {off}", self.keys));
        out.ins(format!("add.u32 {count}, {}, {off}", self.counts));
        out.ins(format!(
            "mad.lo.u32 {words}, {slot}, {}, {}",
            self.width * 4,
            self.words
        ));
        (key, count, words)
    }

    /// Shared memory is not zeroed at launch: the first threads clear it.
    fn clear(&self, tid: &str, out: &mut Emitter) {
        let skip = out.fresh_label("cleared");
        let p = out.pred();
        out.ins(format!("setp.ge.u32 {p}, {tid}, {CTA_TABLE}"));
        out.ins(format!("@{p} bra {skip}"));
        let (key, count, _) = self.addresses(tid, out);
        out.ins(format!("st.shared.u64 [{key}], 0"));
        out.ins(format!("st.shared.u64 [{count}], 0"));
        out.label(&skip);
    }

    /// Adds `cnt64` instances of the outcome to the CTA's table, then jumps
    /// to `next`; jumps to `full` when every entry holds another outcome.
    fn fold(
        &self,
        h: &str,
        values: &[String],
        cnt64: &str,
        full: &str,
        next: &str,
        out: &mut Emitter,
    ) {
        let (slot, probes) = (out.r32(), out.r32());
        let old = out.r64();
        let probe = out.fresh_label("cta_probe");
        let claim = out.fresh_label("cta_claim");
        let count = out.fresh_label("cta_count");
        out.ins(format!("cvt.u32.u64 {slot}, {h}"));
        out.ins(format!("and.b32 {slot}, {slot}, {}", CTA_TABLE - 1));
        out.ins(format!("mov.u32 {probes}, 0"));
        out.label(&probe);
        let (key, counter, words) = self.addresses(&slot, out);
        out.ins(format!("atom.shared.cas.b64 {old}, [{key}], 0, {h}"));
        let (pn, ph, pfull) = (out.pred(), out.pred(), out.pred());
        out.ins(format!("setp.eq.u64 {pn}, {old}, 0"));
        out.ins(format!("@{pn} bra {claim}"));
        out.ins(format!("setp.eq.u64 {ph}, {old}, {h}"));
        out.ins(format!("@{ph} bra {count}"));
        out.ins(format!("add.u32 {probes}, {probes}, 1"));
        out.ins(format!("setp.ge.u32 {pfull}, {probes}, {CTA_TABLE}"));
        out.ins(format!("@{pfull} bra {full}"));
        out.ins(format!("add.u32 {slot}, {slot}, 1"));
        out.ins(format!("and.b32 {slot}, {slot}, {}", CTA_TABLE - 1));
        out.ins(format!("bra.uni {probe}"));
        // The words are read only after the barrier, so a second leader
        // that counts before the claimer has written them does no harm.
        out.label(&claim);
        for (m, v) in values.iter().enumerate() {
            out.ins(format!("st.shared.u32 [{words}+{}], {v}", 4 * m));
        }
        out.label(&count);
        out.ins(format!("red.shared.add.u64 [{counter}], {cnt64}"));
        out.ins(format!("bra.uni {next}"));
    }

    /// Loads thread `tid`'s entry of the table into `into`, for `tid` <
    /// [`CTA_TABLE`]; threads without a used entry jump to `done`.
    fn entry(&self, tid: &str, into: &GlobalFold, done: &str, out: &mut Emitter) {
        let p = out.pred();
        out.ins(format!("setp.ge.u32 {p}, {tid}, {CTA_TABLE}"));
        out.ins(format!("@{p} bra {done}"));
        let (key, counter, words) = self.addresses(tid, out);
        out.ins(format!("ld.shared.u64 {}, [{key}]", into.h));
        let pe = out.pred();
        out.ins(format!("setp.eq.u64 {pe}, {}, 0", into.h));
        out.ins(format!("@{pe} bra {done}"));
        out.ins(format!("ld.shared.u64 {}, [{counter}]", into.cnt64));
        for (m, v) in into.values.iter().enumerate() {
            out.ins(format!("ld.shared.u32 {v}, [{words}+{}]", 4 * m));
        }
    }
}

/// What goes into the histogram in GPU memory: an outcome's hash, words
/// and count, and whether it comes from before the CTA's barrier (a leader
/// that found the CTA's table full, which then returns to the barrier).
struct GlobalFold {
    h: String,
    values: Vec<String>,
    cnt64: String,
    before_barrier: String,
}

/// Whether a role of the test can give up on a loop (a backward branch),
/// leaving its instance unfinished.
fn may_give_up(test: &Test) -> bool {
    test.threads.iter().any(|t| {
        t.body.iter().enumerate().any(|(i, ins)| match &ins.kind {
            InstrKind::Branch { target, .. } => t.body[..=i]
                .iter()
                .any(|l| matches!(&l.kind, InstrKind::Label(n) if n.text == target.text)),
            _ => false,
        })
    })
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
    // A key, once set, never changes: a plain read finds a taken entry
    // without an atomic, and only a free one is claimed by compare-and-swap.
    let (pn, ph, pfull, po) = (out.pred(), out.pred(), out.pred(), out.pred());
    let next = out.fresh_label("next");
    out.ins(format!("ld.relaxed.gpu.global.u64 {old}, [{entry}]"));
    out.ins(format!("setp.eq.u64 {ph}, {old}, {h}"));
    out.ins(format!("@{ph} bra {count}"));
    out.ins(format!("setp.ne.u64 {po}, {old}, 0"));
    out.ins(format!("@{po} bra {next}"));
    out.ins(format!("atom.global.cas.b64 {old}, [{entry}], 0, {h}"));
    out.ins(format!("setp.eq.u64 {pn}, {old}, 0"));
    out.ins(format!("@{pn} bra {claim}"));
    out.ins(format!("setp.eq.u64 {ph}, {old}, {h}"));
    out.ins(format!("@{ph} bra {count}"));
    out.label(&next);
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
