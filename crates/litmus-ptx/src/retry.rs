//! A bounded retry loop: a check run again while it says no, at most a
//! bound of times, so that a wait on the hardware (a start flag another
//! GPU or the host raises, an mbarrier phase) can never hang a launch.

use crate::emit::Emitter;

/// The loop's registers and labels, which the caller allocates in its own
/// order (the module's names follow that order). The check sets `hit`; on
/// a hit the loop branches to `out_to`, which the caller places; else it
/// counts in `count` and goes round again from `again` while `count` is
/// under `limit` (a literal or a register).
pub(crate) struct Retry<'a> {
    pub(crate) again: &'a str,
    pub(crate) out_to: &'a str,
    pub(crate) hit: &'a str,
    pub(crate) more: &'a str,
    pub(crate) count: &'a str,
    pub(crate) limit: &'a str,
}

impl Retry<'_> {
    /// Emits the loop around `check`, the instructions that set `hit`.
    pub(crate) fn emit(&self, check: &[String], out: &mut Emitter) {
        let Retry {
            again,
            out_to,
            hit,
            more,
            count,
            limit,
        } = self;
        out.ins(format!("mov.u32 {count}, 0"));
        out.label(again);
        for ins in check {
            out.ins(ins);
        }
        out.ins(format!("@{hit} bra {out_to}"));
        out.ins(format!("add.u32 {count}, {count}, 1"));
        out.ins(format!("setp.lt.u32 {more}, {count}, {limit}"));
        out.ins(format!("@{more} bra {again}"));
    }
}
