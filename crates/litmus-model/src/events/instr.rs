//! What each instruction adds to a thread's path: its events (reads,
//! writes, fences, barrier arrivals, both halves of an atomic) and the
//! symbolic values of the registers it writes. Branches are followed in
//! `paths.rs`.

use litmus_core::instr::{BarrierKind, Instr, InstrKind, Scope, Sem};
use litmus_core::ir::Test;

use litmus_core::proxy::Proxy;

use super::state::State;
use super::{BarrierScope, BarrierSpec, Event, EventKind, PathError, Sym};
use crate::proxy::{addresses, ProxyTag};

/// Runs instruction `pc` of thread `t` on `st`: adds its events and sets
/// the registers it writes.
pub(super) fn run_instruction(
    test: &Test,
    t: usize,
    pc: usize,
    st: &mut State,
    instr: &Instr,
) -> Result<(), PathError> {
    match &instr.kind {
        InstrKind::Load {
            dst,
            loc,
            access: a,
            ..
        }
        | InstrKind::ProxyLoad {
            dst,
            loc,
            access: a,
            ..
        } => {
            let (sem, scope) = access(test, t, a.sem, a.scope);
            let (phys, virt) = addresses(test, &loc.text)?;
            let proxy = instr.kind.proxy().unwrap_or(Proxy::Generic);
            let id = st.path.events.len();
            let value = st.sym(Sym::Read(id));
            st.push(Event {
                thread: Some(t),
                instr: Some(pc),
                kind: EventKind::Read,
                loc: Some(phys),
                sem,
                scope,
                value: Some(value),
                barrier: None,
                rmw_partner: None,
                proxy: ProxyTag::access(proxy, virt),
            });
            st.regs.insert(dst.text.clone(), value);
        }
        InstrKind::Store {
            loc,
            value,
            access: a,
            ..
        }
        | InstrKind::ProxyStore {
            loc,
            value,
            access: a,
            ..
        } => {
            let (sem, scope) = access(test, t, a.sem, a.scope);
            let (phys, virt) = addresses(test, &loc.text)?;
            let proxy = instr.kind.proxy().unwrap_or(Proxy::Generic);
            let v = st.operand(value);
            st.push(Event {
                thread: Some(t),
                instr: Some(pc),
                kind: EventKind::Write,
                loc: Some(phys),
                sem,
                scope,
                value: Some(v),
                barrier: None,
                rmw_partner: None,
                proxy: ProxyTag::access(proxy, virt),
            });
        }
        // No semantics and no scope: never a release or acquire fence,
        // never strong with another thread.
        InstrKind::ProxyFence(kind) => {
            st.push(Event {
                thread: Some(t),
                instr: Some(pc),
                kind: EventKind::Fence,
                loc: None,
                sem: Sem::Weak,
                scope: None,
                value: None,
                barrier: None,
                rmw_partner: None,
                proxy: ProxyTag::proxy_fence(*kind),
            });
        }
        InstrKind::Fence { sem, scope, .. } => {
            st.push(Event {
                thread: Some(t),
                instr: Some(pc),
                kind: EventKind::Fence,
                loc: None,
                sem: *sem,
                scope: Some(*scope),
                value: None,
                barrier: None,
                rmw_partner: None,
                proxy: ProxyTag::GENERIC,
            });
        }
        InstrKind::Atom {
            dst,
            op,
            loc,
            access: a,
            operand,
            new,
        } => {
            let (_, scope) = access(test, t, a.sem, a.scope);
            let (l, virt) = addresses(test, &loc.text)?;
            let (rsem, wsem) = match a.sem {
                Sem::Acquire => (Sem::Acquire, Sem::Relaxed),
                Sem::Release => (Sem::Relaxed, Sem::Release),
                Sem::AcqRel => (Sem::Acquire, Sem::Release),
                s => (s, s),
            };
            let operand = st.operand(operand);
            let new = new.as_ref().map(|n| st.operand(n));
            let rid = st.path.events.len();
            let old = st.sym(Sym::Read(rid));
            let wval = st.sym(Sym::Rmw {
                op: *op,
                old,
                operand,
                new,
            });
            let mk = |kind, sem, value, partner| Event {
                thread: Some(t),
                instr: Some(pc),
                kind,
                loc: Some(l),
                sem,
                scope,
                value: Some(value),
                barrier: None,
                rmw_partner: Some(partner),
                proxy: ProxyTag::access(Proxy::Generic, virt),
            };
            st.push(mk(EventKind::Read, rsem, old, rid + 1));
            st.push(mk(EventKind::Write, wsem, wval, rid));
            if let Some(d) = dst {
                st.regs.insert(d.text.clone(), old);
            }
        }
        InstrKind::Barrier {
            kind,
            instance,
            id,
            quorum,
        } => {
            let id = id.as_ref().map(|o| st.operand(o));
            let quorum = quorum.as_ref().map(|o| st.operand(o));
            let spec = BarrierSpec {
                kind: *kind,
                scope: BarrierScope::Cta {
                    instance: instance.value as u32,
                },
                id,
                quorum,
            };
            st.push(barrier_event(t, pc, spec));
        }
        InstrKind::WarpSync => {
            let spec = BarrierSpec {
                kind: BarrierKind::Sync,
                scope: BarrierScope::Warp,
                id: None,
                quorum: None,
            };
            st.push(barrier_event(t, pc, spec));
        }
        InstrKind::Mov { dst, src } => {
            let v = st.operand(src);
            st.regs.insert(dst.text.clone(), v);
        }
        InstrKind::BinOp { dst, op, a, b } => {
            let a = st.operand(a);
            let b = st.operand(b);
            let v = st.sym(Sym::Bin(*op, a, b));
            st.regs.insert(dst.text.clone(), v);
        }
        InstrKind::Async(op) => super::async_ops::run(test, t, pc, st, op)?,
        InstrKind::Label(_) => {}
        // Followed by the walk over control paths (`paths.rs`).
        InstrKind::Branch { .. } => {}
    }
    Ok(())
}

/// The event of a CTA barrier or a warp sync by thread `t` at `pc`.
fn barrier_event(t: usize, pc: usize, spec: BarrierSpec) -> Event {
    Event {
        thread: Some(t),
        instr: Some(pc),
        kind: EventKind::Barrier,
        loc: None,
        sem: Sem::Weak,
        scope: Some(Scope::Cta),
        value: None,
        barrier: Some(spec),
        rmw_partner: None,
        proxy: ProxyTag::GENERIC,
    }
}

/// The semantics and scope of thread `t`'s access as the model reads
/// them: `.volatile` is `relaxed.sys`, and a strong access of a host
/// thread written with no scope is `.sys` (the host's C++ atomics are
/// system-wide).
fn access(test: &Test, t: usize, sem: Sem, scope: Option<Scope>) -> (Sem, Option<Scope>) {
    let host = test.threads.get(t).is_some_and(|th| th.placement.host);
    match sem {
        Sem::Volatile => (Sem::Relaxed, Some(Scope::Sys)),
        Sem::Weak => (Sem::Weak, scope),
        s if host && scope.is_none() => (s, Some(Scope::Sys)),
        s => (s, scope),
    }
}
