//! Each instance's slots of the shared locations, as this thread holds
//! them: the walk over them that the kernel's set-up and publishing and
//! the async proxy's drain all take, and which CTA holds a slot's value.

use crate::common::Common;
use crate::emit::Emitter;
use crate::layout::{knob, Layout};
use crate::role::slot_addr;

/// Calls `f` with the shared address of this thread's slot of each shared
/// location: slot `s·T + tid`, for the threads below T (the slots per
/// location: threads per CTA, or 32 in role-per-warp mode).
pub(crate) fn shared_slots(
    layout: &Layout,
    common: &Common,
    out: &mut Emitter,
    mut f: impl FnMut(&mut Emitter, &str, usize),
) {
    if layout.shared_locs.is_empty() {
        return;
    }
    let skip = out.fresh_label("no_slots");
    let p = out.pred();
    out.ins(format!(
        "setp.gt.u32 {p}, {}, {}",
        common.tid,
        common.knob[&knob::LANE_MASK]
    ));
    out.ins(format!("@{p} bra {skip}"));
    for s in 0..layout.shared_locs.len() {
        let addr = slot_addr(layout, common, s, &common.tid, out);
        f(out, &addr, s);
    }
    out.label(&skip);
}

/// Jumps to `skip` unless this CTA holds the values of shared location
/// `s`'s slots: in role-per-warp mode the CTAs of its declared CTA, in a
/// cluster those of its rank; every CTA otherwise.
pub(crate) fn skip_unless_holder(
    layout: &Layout,
    common: &Common,
    s: usize,
    skip: &str,
    out: &mut Emitter,
) {
    let holder = match &common.rpw {
        Some((d, _)) => Some((d, layout.shared_locs[s].cluster_offset)),
        None if layout.cluster_size > 1 => Some((&common.rank, layout.shared_locs[s].rank)),
        None => None,
    };
    if let Some((reg, want)) = holder {
        let p = out.pred();
        out.ins(format!("setp.ne.u32 {p}, {reg}, {want}"));
        out.ins(format!("@{p} bra {skip}"));
    }
}
