//! Testing CTAs spread among the stressing ones, in a share of launches.

use std::collections::BTreeMap;

use crate::draw::chance_of;
use crate::emit::Emitter;
use crate::layout::knob;

/// Salts this draw apart from the environment's others.
const SALT_INTERLEAVE: u32 = 0x3c6e_f372;

/// In [`knob::INTERLEAVE_PCT`] percent of launches, renames the CTA index
/// `cta` so that the testing units (runs of `per_unit` CTAs) lie evenly
/// among the stressing CTAs instead of before them, as the published
/// harnesses get by shuffling every workgroup: block `b` of the `B` blocks
/// of `per_unit` hardware CTAs is testing unit ⌊b·U/B⌋ when that count
/// steps at `b`, else stressing block `b − ⌊b·U/B⌋` (after the `U`
/// testing units). A bijection on blocks that keeps each block's CTAs
/// together (a cluster stays a hardware cluster), so placement holds; the
/// harness launches whole blocks of stressing CTAs when this is on. Kept
/// in `cta`, which everything after reads, logical CTA 0 (the start
/// flag's relay) included.
pub(crate) fn interleave_ctas(
    out: &mut Emitter,
    launch: &str,
    knobs: &BTreeMap<usize, String>,
    cta: &str,
    per_unit: u32,
) {
    let skip = out.fresh_label("nointerleave");
    let p = chance_of(out, launch, SALT_INTERLEAVE, &knobs[&knob::INTERLEAVE_PCT]);
    out.ins(format!("@!{p} bra {skip}"));
    let (grid, blocks, units, b, r) = (out.r32(), out.r32(), out.r32(), out.r32(), out.r32());
    out.ins(format!("mov.u32 {grid}, %nctaid.x"));
    out.ins(format!("div.u32 {blocks}, {grid}, {per_unit}"));
    out.ins(format!("add.u32 {units}, {}, 1", knobs[&knob::CTA_MASK]));
    out.ins(format!("div.u32 {b}, {cta}, {per_unit}"));
    out.ins(format!("rem.u32 {r}, {cta}, {per_unit}"));
    // ⌊b·U/B⌋ and ⌊(b+1)·U/B⌋ in 64 bits: b·U passes 2^32 on big grids.
    let (wide, blocks64) = (out.r64(), out.r64());
    out.ins(format!("cvt.u64.u32 {blocks64}, {blocks}"));
    let floor_at = |out: &mut Emitter, at: &str| {
        let v = out.r32();
        out.ins(format!("mul.wide.u32 {wide}, {at}, {units}"));
        out.ins(format!("div.u64 {wide}, {wide}, {blocks64}"));
        out.ins(format!("cvt.u32.u64 {v}, {wide}"));
        v
    };
    let before = floor_at(out, &b);
    let next = out.r32();
    out.ins(format!("add.u32 {next}, {b}, 1"));
    let upto = floor_at(out, &next);
    let (testing, stress) = (out.pred(), out.r32());
    out.ins(format!("setp.ne.u32 {testing}, {upto}, {before}"));
    out.ins(format!("sub.u32 {stress}, {b}, {before}"));
    out.ins(format!("add.u32 {stress}, {stress}, {units}"));
    out.ins(format!("selp.u32 {b}, {before}, {stress}, {testing}"));
    out.ins(format!("mad.lo.u32 {cta}, {b}, {per_unit}, {r}"));
    out.label(&skip);
}
