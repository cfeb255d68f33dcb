//! The histogram in GPU memory: an open-addressing hash table of outcomes
//! and their counts, which the host reads after the run.

use crate::emit::Emitter;
use crate::layout::{counter, Layout};

/// What goes into the histogram in GPU memory: an outcome's hash, words
/// and count, and whether it comes from before the CTA's barrier (a leader
/// that found the CTA's table full, which then returns to the barrier).
pub(super) struct GlobalFold {
    pub(super) h: String,
    pub(super) values: Vec<String>,
    pub(super) cnt64: String,
    pub(super) before_barrier: String,
}

/// The histogram: its buffer, its entries minus one, the counters.
pub(super) struct Table<'a> {
    pub(super) table: &'a str,
    pub(super) mask: &'a str,
    pub(super) counters: &'a str,
}

/// The instructions that read a key of an open-addressing table of
/// outcomes and claim a free one: the histogram's in GPU memory, or a
/// CTA's in shared memory (`cta_table.rs`).
pub(super) struct KeyOps {
    load: &'static str,
    cas: &'static str,
}

/// The keys of the histogram in GPU memory.
pub(super) const GLOBAL_KEYS: KeyOps = KeyOps {
    load: "ld.relaxed.gpu.global.u64",
    cas: "atom.global.cas.b64",
};

/// The keys of a CTA's table in shared memory.
pub(super) const SHARED_KEYS: KeyOps = KeyOps {
    load: "ld.shared.u64",
    cas: "atom.shared.cas.b64",
};

/// Looks for the outcome's hash `h` in the entry whose key is at `key`:
/// jumps to `count` when the entry holds it, to `claim` when this thread
/// has just claimed the free entry for it, and falls through when another
/// outcome holds the entry (`old`: a scratch register). A key, once set,
/// stays for the launch: a plain read finds a taken entry without an
/// atomic, and only a free one is claimed by compare-and-swap.
pub(super) fn find_or_claim(
    ops: &KeyOps,
    key: &str,
    h: &str,
    old: &str,
    [claim, count]: [&str; 2],
    out: &mut Emitter,
) {
    let (pn, ph, po) = (out.pred(), out.pred(), out.pred());
    let taken = out.fresh_label("taken");
    out.ins(format!("{} {old}, [{key}]", ops.load));
    out.ins(format!("setp.eq.u64 {ph}, {old}, {h}"));
    out.ins(format!("@{ph} bra {count}"));
    out.ins(format!("setp.ne.u64 {po}, {old}, 0"));
    out.ins(format!("@{po} bra {taken}"));
    out.ins(format!("{} {old}, [{key}], 0, {h}", ops.cas));
    out.ins(format!("setp.eq.u64 {pn}, {old}, 0"));
    out.ins(format!("@{pn} bra {claim}"));
    out.ins(format!("setp.eq.u64 {ph}, {old}, {h}"));
    out.ins(format!("@{ph} bra {count}"));
    out.label(&taken);
}

/// Adds `cnt64` instances of the outcome (hash `h`, words `values`) to the
/// open-addressing hash table: claims a free entry or finds the outcome's,
/// and counts an overflow when every entry is taken.
pub(super) fn fold_into_table(
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
    find_or_claim(&GLOBAL_KEYS, &entry, h, &old, [&claim, &count], out);
    let pfull = out.pred();
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
