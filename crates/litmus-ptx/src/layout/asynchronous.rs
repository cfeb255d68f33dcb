//! What the async proxy (PTX ISA 8.0, sm_90) asks of the layout: shared
//! slots wide and aligned enough for the bulk copies and the mbarriers,
//! the global slots' words the copies reach, the CTA that holds a
//! cluster-shared location some instruction must reach in its own window,
//! and the refusal, in one line, of what the harness cannot run faithfully.
//!
//! Two of the refusals keep the kernel from leaving work in flight. A CTA
//! must not exit while a bulk copy still writes its shared memory or
//! signals its mbarrier, so before the CTAs exit the kernel waits for each
//! mbarrier's first phase to end (`async_ops::drain`), and that phase ends
//! exactly when the arrivals `mbarrier.init` asks for have all come and the
//! copies have landed. The harness can count on that only when every
//! arrival and every bulk load runs exactly once: so no arrive or bulk
//! load after a label or branch of its thread, and as many arrive
//! instructions as the init count.

use std::collections::BTreeMap;

use litmus_core::async_proxy::AsyncOp;
use litmus_core::instr::InstrKind;
use litmus_core::ir::{Name, Space, Test};
use litmus_core::outcome::{observables, Observable};

use super::{Role, SharedLoc};
use crate::PtxError;

/// What the layout keeps of the plan besides the shared slots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Plan {
    /// The test uses the async proxy.
    pub(super) asynchronous: bool,
    /// See [`super::Layout::bulk_words`].
    pub(super) bulk_words: u32,
    /// See [`super::Layout::bulk_stores`].
    pub(super) bulk_stores: bool,
}

/// A refusal: the harness cannot run the test as written.
fn refuse<T>(why: String) -> Result<T, PtxError> {
    Err(PtxError::Unsupported(why))
}

/// What the test does with one shared location, over every thread.
#[derive(Default)]
struct Uses {
    /// The largest bulk copy that reads or writes it, in bytes.
    copied: u32,
    /// `mbarrier.init`'s arrival count, for an mbarrier.
    init: Option<u32>,
    /// Arrive instructions that name it.
    arrivals: u32,
    /// The ranks of the CTAs whose threads reach it in their own window
    /// (`try_wait`, a bulk store's source), with the first such thread.
    own_window: Vec<(u32, String, &'static str)>,
}

/// Plans the async proxy's slots: widens the shared locations the bulk
/// copies and mbarriers use, places each cluster-shared one in the CTA
/// that must reach it in its own window, and refuses what the harness
/// cannot run. A test without async operations is left as it was.
pub(super) fn plan(
    test: &Test,
    roles: &[Role],
    shared: &mut [SharedLoc],
) -> Result<Plan, PtxError> {
    if test.first_async_use().is_none() {
        return Ok(Plan::default());
    }
    let mut plan = Plan {
        asynchronous: true,
        ..Plan::default()
    };
    let mut uses: BTreeMap<&str, Uses> = BTreeMap::new();
    for (k, thread) in test.threads.iter().enumerate() {
        let mut straight = true;
        for ins in &thread.body {
            let op = match &ins.kind {
                InstrKind::Label(_) | InstrKind::Branch { .. } => {
                    straight = false;
                    continue;
                }
                InstrKind::Async(op) => op,
                _ => continue,
            };
            once_only(thread.name.text.as_str(), op, straight)?;
            not_an_alias(test, thread.name.text.as_str(), op)?;
            let rank = roles[k].rank;
            let name = thread.name.text.clone();
            match op {
                AsyncOp::BulkLoad { dst, size, .. } => {
                    // Its source is global: the stride covers it.
                    let bytes = size.value.max(0) as u32;
                    widen(&mut uses, dst, bytes);
                    plan.bulk_words = plan.bulk_words.max(bytes.div_ceil(4));
                }
                AsyncOp::BulkStore { src, size, .. } => {
                    let bytes = size.value.max(0) as u32;
                    let u = widen(&mut uses, src, bytes);
                    u.own_window.push((rank, name, "a bulk store's source"));
                    plan.bulk_words = plan.bulk_words.max(bytes.div_ceil(4));
                    plan.bulk_stores = true;
                }
                AsyncOp::MbarrierInit { mbar, count } => {
                    uses.entry(mbar.text.as_str()).or_default().init =
                        Some(count.value.max(0) as u32);
                }
                AsyncOp::MbarrierArrive { mbar, .. } => {
                    uses.entry(mbar.text.as_str()).or_default().arrivals += 1;
                }
                AsyncOp::MbarrierTryWait { mbar, .. } => {
                    let u = uses.entry(mbar.text.as_str()).or_default();
                    u.own_window.push((rank, name, "mbarrier.try_wait"));
                }
                AsyncOp::CommitGroup
                | AsyncOp::WaitGroup { .. }
                | AsyncOp::ProxyFence(_)
                | AsyncOp::ProxyFenceOneWay(_)
                | AsyncOp::MbarrierInitFence => {}
            }
        }
    }
    for s in shared.iter_mut() {
        let loc = &test.locations[s.loc];
        let Some(u) = uses.get(loc.name.text.as_str()) else {
            continue;
        };
        if let Some(count) = u.init {
            if u.arrivals != count {
                return refuse(format!(
                    "mbarrier `{}` is initialised for {count} arrivals and {} arrive \
                     instructions reach it: the harness waits for each mbarrier's first phase \
                     to end before its CTA exits, so that no bulk copy is left in flight, and \
                     that phase ends only when the arrivals match the count",
                    loc.name, u.arrivals
                ));
            }
            s.mbarrier = Some(count);
            s.bytes = 8;
        } else if u.copied > 0 {
            s.bytes = u.copied.next_multiple_of(16);
        }
        if s.space == Space::SharedCluster {
            s.rank = own_window_rank(&loc.name, &u.own_window)?;
        }
    }
    same_cta_for_loads(test, roles, shared)?;
    no_final_mbarrier(test, shared)?;
    Ok(plan)
}

/// Records a bulk copy of `bytes` through shared location `loc`.
fn widen<'a, 'b>(uses: &'b mut BTreeMap<&'a str, Uses>, loc: &'a Name, bytes: u32) -> &'b mut Uses {
    let u = uses.entry(loc.text.as_str()).or_default();
    u.copied = u.copied.max(bytes);
    u
}

/// Refuses an arrive or a bulk load that may run other than once: after
/// a label (a loop may come back to it) or a branch (it may be skipped).
fn once_only(thread: &str, op: &AsyncOp, straight: bool) -> Result<(), PtxError> {
    let counted = matches!(
        op,
        AsyncOp::MbarrierArrive { .. } | AsyncOp::BulkLoad { .. }
    );
    if counted && !straight {
        return refuse(format!(
            "`{}` in thread `{thread}` comes after a label or branch: the harness waits for \
             each mbarrier's first phase to end before its CTA exits, and needs every arrival \
             and bulk load to run exactly once",
            op.head()
        ));
    }
    Ok(())
}

/// Refuses a bulk copy of an alias: the harness copies only locations
/// with memory of their own.
fn not_an_alias(test: &Test, thread: &str, op: &AsyncOp) -> Result<(), PtxError> {
    let (AsyncOp::BulkLoad { dst, src, .. } | AsyncOp::BulkStore { dst, src, .. }) = op else {
        return Ok(());
    };
    for name in [dst, src] {
        if test.location(&name.text).is_some_and(|l| l.alias.is_some()) {
            return refuse(format!(
                "`{}` in thread `{thread}` copies alias `{name}`: the harness runs bulk copies \
                 of locations with memory of their own only",
                op.head()
            ));
        }
    }
    Ok(())
}

/// The rank of the CTA that holds a cluster-shared location: the one
/// whose threads reach it in their own window (PTX's `try_wait` and a
/// bulk store's source take `.shared::cta` addresses only), or 0.
fn own_window_rank(name: &Name, users: &[(u32, String, &'static str)]) -> Result<u32, PtxError> {
    let Some((rank, first, what)) = users.first() else {
        return Ok(0);
    };
    if let Some((_, other, other_what)) = users.iter().find(|(r, ..)| r != rank) {
        return refuse(format!(
            "`{name}` is reached as {what} by thread `{first}` and as {other_what} by thread \
             `{other}` in another CTA of the cluster: each instruction reaches only its own \
             CTA's shared memory, and the location lives in one"
        ));
    }
    Ok(*rank)
}

/// Refuses a bulk load whose destination and mbarrier would sit in
/// different CTAs: PTX signals completion on an mbarrier in the
/// destination's CTA.
fn same_cta_for_loads(test: &Test, roles: &[Role], shared: &[SharedLoc]) -> Result<(), PtxError> {
    let cta_of = |name: &Name, rank: u32| -> u32 {
        let s = shared
            .iter()
            .find(|s| test.locations[s.loc].name.text == name.text);
        match s {
            Some(s) if s.space == Space::SharedCluster => s.rank,
            _ => rank,
        }
    };
    for (k, thread) in test.threads.iter().enumerate() {
        for ins in &thread.body {
            let InstrKind::Async(op @ AsyncOp::BulkLoad { dst, mbar, .. }) = &ins.kind else {
                continue;
            };
            let rank = roles[k].rank;
            if cta_of(dst, rank) != cta_of(mbar, rank) {
                return refuse(format!(
                    "`{}` in thread `{}` writes `{dst}` and signals `{mbar}` in different CTAs of \
                     the cluster: PTX needs the mbarrier in the destination's CTA",
                    op.head(),
                    thread.name
                ));
            }
        }
    }
    Ok(())
}

/// Refuses a final condition on an mbarrier: its word on the GPU is the
/// hardware's encoding of the phase, not the model's count.
fn no_final_mbarrier(test: &Test, shared: &[SharedLoc]) -> Result<(), PtxError> {
    for o in observables(test) {
        let Observable::Loc { loc } = o else { continue };
        if shared.iter().any(|s| s.loc == loc && s.mbarrier.is_some()) {
            return refuse(format!(
                "the final condition reads mbarrier `{}`: its word on the GPU encodes the \
                 hardware's phase, not the model's count of completions",
                test.locations[loc].name
            ));
        }
    }
    Ok(())
}
