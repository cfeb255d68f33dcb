//! One IR instruction → the PTX instruction with the same semantics and
//! scope.

use litmus_core::instr::{
    AtomOp, BarrierKind, BinOp, BranchCond, FenceSpelling, InstrKind, Scope, Sem,
};
use litmus_core::proxy::{Proxy, ProxyFenceKind};

use crate::emit::Emitter;
use crate::role_ctx::RoleCtx;
use crate::PtxError;

/// The `.sem.scope` qualifiers of a load or store.
fn access_quals(sem: Sem, scope: Option<Scope>) -> String {
    match (sem, scope) {
        (Sem::Weak, _) => String::new(),
        (Sem::Volatile, _) => ".volatile".into(),
        (sem, Some(scope)) => format!(".{}.{}", sem.as_str(), scope.as_str()),
        (sem, None) => format!(".{}", sem.as_str()),
    }
}

fn atom_type(op: AtomOp) -> &'static str {
    match op {
        AtomOp::Exch | AtomOp::And | AtomOp::Or | AtomOp::Xor | AtomOp::Cas => "b32",
        AtomOp::Add | AtomOp::Sub | AtomOp::Min | AtomOp::Max | AtomOp::Inc | AtomOp::Dec => "u32",
    }
}

pub(crate) fn emit_instr(
    ctx: &RoleCtx,
    index: usize,
    kind: &InstrKind,
    out: &mut Emitter,
) -> Result<(), PtxError> {
    match kind {
        InstrKind::Async(op) => crate::async_ops::emit(ctx, op, out)?,
        InstrKind::Load {
            dst,
            loc,
            access,
            cache,
        } => {
            let (space, addr) = ctx.addr(&loc.text)?;
            let cache = cache
                .map(|c| format!(".{}", c.as_str()))
                .unwrap_or_default();
            let quals = access_quals(access.sem, access.scope);
            out.ins(format!(
                "ld{quals}{space}{cache}.u32 {}, {addr}",
                ctx.reg(&dst.text)?
            ));
        }
        InstrKind::Store {
            loc,
            value,
            access,
            cache,
        } => {
            let (space, addr) = ctx.addr(&loc.text)?;
            let v = ctx.value(value, out)?;
            let cache = cache
                .map(|c| format!(".{}", c.as_str()))
                .unwrap_or_default();
            let quals = access_quals(access.sem, access.scope);
            out.ins(format!("st{quals}{space}{cache}.u32 {addr}, {v}"));
        }
        InstrKind::Fence {
            sem,
            scope,
            spelling: FenceSpelling::Membar,
        } => {
            let level = match scope {
                Scope::Cta => "cta",
                Scope::Gpu => "gl",
                Scope::Sys => "sys",
                Scope::Cluster => {
                    return Err(PtxError::Invalid("`membar` has no cluster level".into()))
                }
            };
            let _ = sem;
            out.ins(format!("membar.{level}"));
        }
        InstrKind::Fence {
            sem,
            scope,
            spelling: FenceSpelling::Fence,
        } => out.ins(format!("fence.{}.{}", sem.as_str(), scope.as_str())),
        InstrKind::Atom {
            dst,
            op,
            loc,
            access,
            operand,
            new,
        } => {
            let (space, addr) = ctx.addr(&loc.text)?;
            let mut b = ctx.value(operand, out)?;
            // PTX has no atomic subtract: add the negation.
            let ptx_op = if *op == AtomOp::Sub {
                let neg = out.r32();
                out.ins(format!("neg.s32 {neg}, {b}"));
                b = neg;
                "add"
            } else {
                op.as_str()
            };
            let c = match new {
                Some(n) => format!(", {}", ctx.value(n, out)?),
                None => String::new(),
            };
            let scope = access
                .scope
                .map(|s| format!(".{}", s.as_str()))
                .unwrap_or_default();
            let sem = access.sem.as_str();
            let ty = atom_type(*op);
            // `red` exists only as relaxed or release, and not for exch or
            // cas: anything else is an `atom` whose result nobody reads.
            let as_red = dst.is_none()
                && matches!(access.sem, Sem::Relaxed | Sem::Release)
                && !matches!(op, AtomOp::Exch | AtomOp::Cas);
            if as_red {
                out.ins(format!("red.{sem}{scope}{space}.{ptx_op}.{ty} {addr}, {b}"));
            } else {
                let d = match dst {
                    Some(d) => ctx.reg(&d.text)?.to_string(),
                    None => out.r32(),
                };
                out.ins(format!(
                    "atom.{sem}{scope}{space}.{ptx_op}.{ty} {d}, {addr}, {b}{c}"
                ));
            }
        }
        InstrKind::Barrier { kind, .. } => {
            let (id, count) = ctx.barriers.get(&index).ok_or_else(|| {
                PtxError::Unsupported("a CTA barrier outside role-per-warp mode".into())
            })?;
            let op = match kind {
                BarrierKind::Sync => "bar.sync",
                BarrierKind::Arrive => "bar.arrive",
            };
            out.ins(format!("{op} {id}, {count}"));
        }

        InstrKind::WarpSync => out.ins("bar.warp.sync -1"),
        InstrKind::ProxyLoad {
            dst,
            loc,
            proxy: Proxy::Texture,
            ..
        } => {
            let (tex, texel) = ctx.textures.get(&loc.text).ok_or_else(|| {
                PtxError::Invalid(format!("`{loc}` is read as a texture but is none"))
            })?;
            // A 1D fetch from linear memory returns four channels; the
            // texture has one, the other three are padding.
            let pad: Vec<String> = (0..3).map(|_| out.r32()).collect();
            out.ins(format!(
                "tex.1d.v4.u32.s32 {{{}, {}}}, [{tex}, {{{texel}}}]",
                ctx.reg(&dst.text)?,
                pad.join(", ")
            ));
        }
        InstrKind::ProxyFence(ProxyFenceKind::Alias) => out.ins("fence.proxy.alias"),
        // `Layout::of` refuses these first, with the reason; kept as an
        // error so that a caller with a hand-made layout gets one too.
        InstrKind::ProxyLoad { proxy, .. } | InstrKind::ProxyStore { proxy, .. } => {
            return Err(PtxError::Unsupported(format!(
                "the {} proxy has no form the harness can generate",
                proxy.as_str()
            )))
        }
        InstrKind::ProxyFence(kind) => {
            return Err(PtxError::Unsupported(format!(
                "`fence.proxy.{}` has no PTX instruction",
                kind.as_str()
            )))
        }
        InstrKind::Mov { dst, src } => {
            let v = ctx.value(src, out)?;
            out.ins(format!("mov.u32 {}, {v}", ctx.reg(&dst.text)?));
        }
        InstrKind::BinOp { dst, op, a, b } => {
            let a = ctx.value(a, out)?;
            let b = ctx.value(b, out)?;
            let opcode = match op {
                BinOp::Add => "add.u32",
                BinOp::Sub => "sub.u32",
                BinOp::Mul => "mul.lo.u32",
                BinOp::And => "and.b32",
                BinOp::Or => "or.b32",
                BinOp::Xor => "xor.b32",
            };
            out.ins(format!("{opcode} {}, {a}, {b}", ctx.reg(&dst.text)?));
        }
        InstrKind::Label(l) => {
            let (_, ptx) = &ctx.labels[&l.text];
            out.label(ptx);
        }
        InstrKind::Branch { cond, target } => {
            let (target_index, label) = ctx
                .labels
                .get(&target.text)
                .ok_or_else(|| PtxError::Invalid(format!("missing label `{target}`")))?;
            let backward = *target_index <= index;
            let skip = out.fresh_label("fallthrough");
            if let Some((c, a, b)) = cond {
                let a = ctx.value(a, out)?;
                let b = ctx.value(b, out)?;
                let p = out.pred();
                let cmp = match c {
                    BranchCond::Eq => "ne",
                    BranchCond::Ne => "eq",
                };
                // Branch past the jump when the condition fails.
                out.ins(format!("setp.{cmp}.u32 {p}, {a}, {b}"));
                out.ins(format!("@{p} bra {skip}"));
            }
            if backward {
                // A loop: bounded, so that a role can never hang.
                let p = out.pred();
                out.ins(format!("add.u32 {0}, {0}, 1", ctx.iters));
                out.ins(format!(
                    "setp.gt.u32 {p}, {}, {}",
                    ctx.iters, ctx.loop_bound
                ));
                out.ins(format!("@{p} bra {}", ctx.giveup));
            }
            out.ins(format!("bra.uni {label}"));
            out.label(&skip);
        }
    }
    Ok(())
}
