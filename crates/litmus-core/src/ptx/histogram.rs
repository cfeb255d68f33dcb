//! The histogram in GPU memory: an open-addressing hash table of outcomes
//! and their counts, which the host reads after the run.

use super::emit::Emitter;
use super::layout::{counter, Layout};

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
