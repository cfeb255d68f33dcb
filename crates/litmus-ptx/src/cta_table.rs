//! A CTA's table of outcomes in shared memory: the classification
//! kernel's warp leaders fold their counts into it, and after a barrier its
//! entries go to the histogram in GPU memory once per CTA (see
//! `classify.rs` for why).

use crate::emit::Emitter;
use crate::histogram::{find_or_claim, GlobalFold, SHARED_KEYS};
use crate::layout::Layout;

/// Entries of a CTA's table in shared memory; a power of two. A CTA whose
/// instances have more distinct outcomes than this folds the rest straight
/// into GPU memory.
pub(super) const CTA_TABLE: u32 = 32;

/// A CTA's table of outcomes in shared memory: [`CTA_TABLE`] keys (the
/// outcome's hash, 0 when free), their counts, and their words.
///
/// The counts are 32-bit: a CTA counts at most its own threads, and a
/// 64-bit add to shared memory has no instruction of its own (ptxas makes
/// it a compare-and-swap loop, which every leader of a CTA's few outcomes
/// retried; `ncu` of SB on an H100 put a tenth of the classifier there).
pub(super) struct CtaTable {
    /// Registers holding the shared-window addresses of the three arrays.
    keys: String,
    counts: String,
    words: String,
    /// Words per outcome.
    width: usize,
}

impl CtaTable {
    pub(super) fn declare(layout: &Layout, out: &mut Emitter) -> CtaTable {
        let width = layout.observables.len();
        out.declare(format!(".shared .align 8 .b64 cta_keys[{CTA_TABLE}]"));
        out.declare(format!(".shared .align 4 .b32 cta_counts[{CTA_TABLE}]"));
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
        out.ins(format!("mad.lo.u32 {count}, {slot}, 4, {}", self.counts));
        out.ins(format!(
            "mad.lo.u32 {words}, {slot}, {}, {}",
            self.width * 4,
            self.words
        ));
        (key, count, words)
    }

    /// Shared memory is not zeroed at launch: the first threads clear it.
    pub(super) fn clear(&self, tid: &str, out: &mut Emitter) {
        let skip = out.fresh_label("cleared");
        let p = out.pred();
        out.ins(format!("setp.ge.u32 {p}, {tid}, {CTA_TABLE}"));
        out.ins(format!("@{p} bra {skip}"));
        let (key, count, _) = self.addresses(tid, out);
        out.ins(format!("st.shared.u64 [{key}], 0"));
        out.ins(format!("st.shared.u32 [{count}], 0"));
        out.label(&skip);
    }

    /// Adds `cnt` (32-bit) instances of the outcome to the CTA's table, then
    /// jumps to `next`; jumps to `full` when every entry holds another
    /// outcome.
    pub(super) fn fold(
        &self,
        h: &str,
        values: &[String],
        cnt: &str,
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
        // After a CTA's first warps the outcome's entry is nearly always
        // there: the read finds it without a compare-and-swap.
        find_or_claim(&SHARED_KEYS, &key, h, &old, [&claim, &count], out);
        let pfull = out.pred();
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
        out.ins(format!("red.shared.add.u32 [{counter}], {cnt}"));
        out.ins(format!("bra.uni {next}"));
    }

    /// Loads thread `tid`'s entry of the table into `into`, for `tid` <
    /// [`CTA_TABLE`]; threads without a used entry jump to `done`.
    pub(super) fn entry(&self, tid: &str, into: &GlobalFold, done: &str, out: &mut Emitter) {
        let p = out.pred();
        out.ins(format!("setp.ge.u32 {p}, {tid}, {CTA_TABLE}"));
        out.ins(format!("@{p} bra {done}"));
        let (key, counter, words) = self.addresses(tid, out);
        out.ins(format!("ld.shared.u64 {}, [{key}]", into.h));
        let pe = out.pred();
        out.ins(format!("setp.eq.u64 {pe}, {}, 0", into.h));
        out.ins(format!("@{pe} bra {done}"));
        let cnt = out.r32();
        out.ins(format!("ld.shared.u32 {cnt}, [{counter}]"));
        out.ins(format!("cvt.u64.u32 {}, {cnt}", into.cnt64));
        for (m, v) in into.values.iter().enumerate() {
            out.ins(format!("ld.shared.u32 {v}, [{words}+{}]", 4 * m));
        }
    }
}
