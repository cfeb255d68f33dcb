//! The events of the async proxy's instructions (`ptx-async`; the rules
//! and the PTX ISA sections they come from are in `docs/models.md`):
//!
//! - a bulk copy is a read of its source and a write of its destination,
//!   both weak and in the async proxy, numbered so that program order
//!   leaves them unordered with what the thread does after issuing it
//!   until a completion waits for them (`ProxyTag::po_before`);
//! - a copy that completes on an mbarrier ends with the implicit
//!   generic-async proxy fence and `complete_tx`, a `.release.cluster`
//!   increment of the mbarrier's word in the generic proxy;
//! - `cp.async.bulk.wait_group` is that same implicit proxy fence, after
//!   (in program order) the copies of the groups it waits for;
//! - an arrive is an atomic increment of the mbarrier's word, `.release`
//!   or `.relaxed` at its scope; `try_wait` is an `.acquire` or
//!   `.relaxed` read of it that succeeds when the word holds every
//!   completion the phase waits for;
//! - `fence.proxy.async` is a fence of the async proxy, restricted to its
//!   state space;
//! - `mbarrier.init` and `fence.mbarrier_init` add no event: the model
//!   takes each mbarrier's word as initialised before the threads start.

use litmus_core::async_proxy::{AsyncOp, AsyncSpace};
use litmus_core::instr::{AtomOp, BinOp, InstrKind, Scope, Sem};
use litmus_core::ir::{Name, Test};
use litmus_core::proxy::Proxy;

use super::state::State;
use super::{Event, EventKind, PathError, Sym};
use crate::proxy::{addresses, ProxyTag};

/// The copies a thread's path may issue: one bit each in a completion.
const MAX_COPIES: u32 = 64;

/// Adds the events of `op`, instruction `pc` of thread `t`.
pub(super) fn run(
    test: &Test,
    t: usize,
    pc: usize,
    st: &mut State,
    op: &AsyncOp,
) -> Result<(), PathError> {
    let at = At { t, pc };
    match op {
        AsyncOp::BulkLoad { dst, src, mbar, .. } => {
            let copy = next_copy(test, t, st)?;
            copy_data(test, st, copy, src, dst, at)?;
            let fence = ProxyTag {
                copy: Some(copy),
                ..ProxyTag::async_fence(AsyncSpace::All)
            };
            st.push(at.event(EventKind::Fence, None, Sem::Weak, None, None, fence));
            increment(
                test,
                t,
                pc,
                st,
                mbar,
                Sem::Release,
                Scope::Cluster,
                Some(copy),
            )?;
        }
        AsyncOp::BulkStore { dst, src, .. } => {
            let copy = next_copy(test, t, st)?;
            copy_data(test, st, copy, src, dst, at)?;
            st.bulk.open |= 1 << copy;
        }
        AsyncOp::CommitGroup => {
            // An empty group completes at once: nothing to remember.
            if st.bulk.open != 0 {
                let open = std::mem::take(&mut st.bulk.open);
                st.bulk.groups.push(open);
            }
        }
        AsyncOp::WaitGroup { read, pending } => {
            let keep = usize::try_from(pending.value).unwrap_or(0);
            let done = st.bulk.groups.len().saturating_sub(keep);
            let completes = st.bulk.groups[..done].iter().fold(0, |m, g| m | g);
            let tag = ProxyTag {
                completes,
                completes_reads_only: *read,
                ..ProxyTag::async_fence(AsyncSpace::All)
            };
            st.push(at.event(EventKind::Fence, None, Sem::Weak, None, None, tag));
        }
        AsyncOp::MbarrierArrive {
            mbar, sem, scope, ..
        } => increment(test, t, pc, st, mbar, *sem, *scope, None)?,
        AsyncOp::MbarrierTryWait {
            dst,
            mbar,
            sem,
            scope,
            ..
        } => {
            let (phys, virt) = addresses(test, &mbar.text)?;
            let id = st.path.events.len();
            let seen = st.sym(Sym::Read(id));
            let tag = ProxyTag::access(Proxy::Generic, virt);
            st.push(at.event(
                EventKind::Read,
                Some(phys),
                *sem,
                Some(*scope),
                Some(seen),
                tag,
            ));
            // 1 when the word holds every completion, else 0: `inc` with
            // bound 1 maps 0 to 1 and everything else to 0.
            let expected = st.sym(Sym::Const(completions(test, mbar)));
            let diff = st.sym(Sym::Bin(BinOp::Xor, seen, expected));
            let one = st.sym(Sym::Const(1));
            let done = st.sym(Sym::Rmw {
                op: AtomOp::Inc,
                old: diff,
                operand: one,
                new: None,
            });
            st.regs.insert(dst.text.clone(), done);
        }
        AsyncOp::ProxyFence(space) => {
            let tag = ProxyTag::async_fence(*space);
            st.push(at.event(EventKind::Fence, None, Sem::Weak, None, None, tag));
        }
        AsyncOp::ProxyFenceOneWay(way) => {
            let tag = ProxyTag::one_way_fence(*way);
            st.push(at.event(EventKind::Fence, None, Sem::Weak, None, None, tag));
        }
        AsyncOp::MbarrierInit { .. } | AsyncOp::MbarrierInitFence => {}
    }
    Ok(())
}

/// The thread and instruction an event comes from.
#[derive(Clone, Copy)]
struct At {
    t: usize,
    pc: usize,
}

impl At {
    /// An event of this instruction that is no barrier and no RMW half.
    fn event(
        self,
        kind: EventKind,
        loc: Option<usize>,
        sem: Sem,
        scope: Option<Scope>,
        value: Option<usize>,
        proxy: ProxyTag,
    ) -> Event {
        Event {
            thread: Some(self.t),
            instr: Some(self.pc),
            kind,
            loc,
            sem,
            scope,
            value,
            barrier: None,
            rmw_partner: None,
            proxy,
        }
    }
}

/// The number of the next bulk copy of thread `t`.
fn next_copy(test: &Test, t: usize, st: &mut State) -> Result<u32, PathError> {
    let copy = st.bulk.issued;
    if copy >= MAX_COPIES {
        return Err(PathError::TooManyCopies {
            thread: test.threads[t].name.text.clone(),
            limit: MAX_COPIES as usize,
        });
    }
    st.bulk.issued += 1;
    Ok(copy)
}

/// The async read of `src` and the write of its value to `dst`.
fn copy_data(
    test: &Test,
    st: &mut State,
    copy: u32,
    src: &Name,
    dst: &Name,
    at: At,
) -> Result<(), PathError> {
    let (sphys, svirt) = addresses(test, &src.text)?;
    let (dphys, dvirt) = addresses(test, &dst.text)?;
    let in_copy = |tag: ProxyTag| ProxyTag {
        copy: Some(copy),
        ..tag
    };
    let id = st.path.events.len();
    let value = st.sym(Sym::Read(id));
    st.push(at.event(
        EventKind::Read,
        Some(sphys),
        Sem::Weak,
        None,
        Some(value),
        in_copy(ProxyTag::access(Proxy::Async, svirt)),
    ));
    st.push(at.event(
        EventKind::Write,
        Some(dphys),
        Sem::Weak,
        None,
        Some(value),
        in_copy(ProxyTag::access(Proxy::Async, dvirt)),
    ));
    Ok(())
}

/// One completion of `mbar`'s phase: an atomic increment of its word, the
/// read half relaxed and the write half `sem`, at `scope`; `copy` when it
/// is a bulk copy's `complete_tx`.
#[allow(clippy::too_many_arguments)]
fn increment(
    test: &Test,
    t: usize,
    pc: usize,
    st: &mut State,
    mbar: &Name,
    sem: Sem,
    scope: Scope,
    copy: Option<u32>,
) -> Result<(), PathError> {
    let (phys, virt) = addresses(test, &mbar.text)?;
    let tag = ProxyTag {
        copy,
        ..ProxyTag::access(Proxy::Generic, virt)
    };
    let rid = st.path.events.len();
    let old = st.sym(Sym::Read(rid));
    let one = st.sym(Sym::Const(1));
    let new = st.sym(Sym::Rmw {
        op: AtomOp::Add,
        old,
        operand: one,
        new: None,
    });
    let half = |kind, sem, value, partner| Event {
        thread: Some(t),
        instr: Some(pc),
        kind,
        loc: Some(phys),
        sem,
        scope: Some(scope),
        value: Some(value),
        barrier: None,
        rmw_partner: Some(partner),
        proxy: tag,
    };
    st.push(half(EventKind::Read, Sem::Relaxed, old, rid + 1));
    st.push(half(EventKind::Write, sem, new, rid));
    Ok(())
}

/// The value of `mbar`'s word once its first phase is complete: its
/// initial value, plus the arrivals `mbarrier.init` asks for, plus one
/// `complete_tx` per bulk copy that signals it.
fn completions(test: &Test, mbar: &Name) -> u32 {
    let init = test.location(&mbar.text).map_or(0, |l| l.init.value as u32);
    let ops = test
        .threads
        .iter()
        .flat_map(|t| &t.body)
        .filter_map(|i| match &i.kind {
            InstrKind::Async(op) if op.mbar().is_some_and(|m| m.text == mbar.text) => Some(op),
            _ => None,
        });
    let mut arrivals = 0u32;
    let mut copies = 0u32;
    for op in ops {
        match op {
            AsyncOp::MbarrierInit { count, .. } if arrivals == 0 => {
                arrivals = count.value as u32;
            }
            AsyncOp::BulkLoad { .. } => copies += 1,
            _ => {}
        }
    }
    init.wrapping_add(arrivals).wrapping_add(copies)
}
