//! The async proxy's forms: `BulkLoad(s, g, 16, b)`,
//! `BulkStore(g, s, 16)`, `BulkCommit`, `BulkWait(0)` / `BulkWait.read(0)`,
//! `MbarInit(b, 1)`, `MbarArrive.release.cluster(b)` /
//! `MbarArrive.expect_tx.release.cta(b, 16)`,
//! `r = MbarTryWait.acquire.cta(b)` / `r = MbarTryWait.parity.acquire.cta(b, 0)`,
//! `Fence.proxy.async{.global,.shared::cta,.shared::cluster}` and
//! `Fence.mbarrier_init.release.cluster`. Which memory each location is in,
//! sizes and counts are checked by `litmus_core::validate`, as for the text
//! format.

use litmus_core::async_proxy::{AsyncOp, AsyncSpace, OneWay};
use litmus_core::instr::{Instr, InstrKind, Scope, Sem};
use litmus_core::ir::Name;
use proc_macro2::Ident;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::Token;

use super::quals::{args, arity, instr_site, Quals};
use super::Ctx;
use crate::errors::Range;

/// Whether `word` starts an async-proxy statement (`r = MbarTryWait` is
/// read by [`try_wait`]).
pub(super) fn is_async(word: &str) -> bool {
    matches!(
        word,
        "BulkLoad" | "BulkStore" | "BulkCommit" | "BulkWait" | "MbarInit" | "MbarArrive"
    )
}

/// The qualifiers of an mbarrier or bulk-wait opcode: semantics, a scope
/// and the one flag the opcode takes (`expect_tx`, `parity`, `read`).
fn flags(input: ParseStream, op: &Ident, flag: Option<&str>) -> syn::Result<(Quals, bool)> {
    let mut q = Quals::default();
    let mut set = false;
    while input.peek(Token![.]) {
        input.parse::<Token![.]>()?;
        let ident = input.call(Ident::parse_any)?;
        let word = ident.to_string();
        let span = ident.span();
        q.last = Some(span);
        if let (None, Some(s)) = (q.sem, Sem::from_ptx(&word)) {
            q.sem = Some((s, span));
        } else if let (None, Some(s)) = (q.scope, Scope::from_ptx(&word)) {
            q.scope = Some((s, span));
        } else if flag == Some(word.as_str()) && !set {
            set = true;
        } else {
            let mut expected = String::from("semantics and a scope (.cta or .cluster)");
            if let Some(f) = flag {
                expected = format!("`.{f}`, {expected}");
            }
            return Err(syn::Error::new(
                span,
                format!("unexpected qualifier `.{word}` on `{op}`: expected {expected}"),
            ));
        }
    }
    Ok((q, set))
}

/// An async-proxy statement with no result register.
pub(super) fn statement(input: ParseStream, cx: &mut Ctx, op: Ident) -> syn::Result<Instr> {
    let word = op.to_string();
    let (q, flag, usage, counts): (Quals, bool, &str, &[usize]) = match word.as_str() {
        "BulkLoad" => (
            Quals::default(),
            false,
            "BulkLoad(dst, src, size, mbar)",
            &[4],
        ),
        "BulkStore" => (Quals::default(), false, "BulkStore(dst, src, size)", &[3]),
        "BulkCommit" => {
            let origin = instr_site(cx, &op, &Quals::default(), None);
            return Ok(Instr::new(InstrKind::Async(AsyncOp::CommitGroup), origin));
        }
        "BulkWait" => {
            let (q, read) = flags(input, &op, Some("read"))?;
            (q, read, "BulkWait(pending)", &[1])
        }
        "MbarInit" => (Quals::default(), false, "MbarInit(mbar, count)", &[2]),
        _ => {
            let (q, tx) = flags(input, &op, Some("expect_tx"))?;
            let counts: &[usize] = if tx { &[2] } else { &[1] };
            let usage = if tx {
                "MbarArrive.expect_tx(mbar, bytes)"
            } else {
                "MbarArrive(mbar)"
            };
            (q, tx, usage, counts)
        }
    };
    let (a, paren) = args(input, &op, usage)?;
    arity(&a, paren, counts, usage)?;
    let origin = instr_site(cx, &op, &q, Some(paren));
    let loc =
        |cx: &mut Ctx, i: usize| -> syn::Result<Name> { Ok(cx.name(a[i].ident("a location")?)) };
    let op = match word.as_str() {
        "BulkLoad" => AsyncOp::BulkLoad {
            dst: loc(cx, 0)?,
            src: loc(cx, 1)?,
            size: a[2].int(cx, "the size")?,
            mbar: loc(cx, 3)?,
        },
        "BulkStore" => AsyncOp::BulkStore {
            dst: loc(cx, 0)?,
            src: loc(cx, 1)?,
            size: a[2].int(cx, "the size")?,
        },
        "BulkWait" => AsyncOp::WaitGroup {
            read: flag,
            pending: a[0].int(cx, "the groups that may stay pending")?,
        },
        "MbarInit" => AsyncOp::MbarrierInit {
            mbar: loc(cx, 0)?,
            count: a[1].int(cx, "the arrival count")?,
        },
        _ => AsyncOp::MbarrierArrive {
            mbar: loc(cx, 0)?,
            sem: q.sem.map_or(Sem::Release, |s| s.0),
            scope: q.scope.map_or(Scope::Cta, |s| s.0),
            expect_tx: if flag {
                Some(a[1].int(cx, "the bytes expected")?)
            } else {
                None
            },
        },
    };
    Ok(Instr::new(InstrKind::Async(op), origin))
}

/// `r = MbarTryWait{.parity}.<sem>.<scope>(mbar{, parity})`.
pub(super) fn try_wait(
    input: ParseStream,
    cx: &mut Ctx,
    op: Ident,
    dst: Name,
) -> syn::Result<Instr> {
    let (q, parity) = flags(input, &op, Some("parity"))?;
    let usage = if parity {
        "r = MbarTryWait.parity(mbar, phase)"
    } else {
        "r = MbarTryWait(mbar)"
    };
    let (a, paren) = args(input, &op, usage)?;
    arity(&a, paren, if parity { &[2] } else { &[1] }, usage)?;
    let origin = instr_site(cx, &op, &q, Some(paren));
    let kind = AsyncOp::MbarrierTryWait {
        dst,
        mbar: cx.name(a[0].ident("a location")?),
        sem: q.sem.map_or(Sem::Acquire, |s| s.0),
        scope: q.scope.map_or(Scope::Cta, |s| s.0),
        parity: if parity {
            Some(a[1].int(cx, "the phase parity")?)
        } else {
            None
        },
    };
    Ok(Instr::new(InstrKind::Async(kind), origin))
}

/// `Fence.proxy.async{.global,.shared::cta,.shared::cluster}`, with
/// `Fence.proxy` read and `.async` next.
pub(super) fn proxy_fence(input: ParseStream, cx: &mut Ctx, op: &Ident) -> syn::Result<Instr> {
    input.parse::<Token![.]>()?;
    let async_word = input.call(Ident::parse_any)?;
    let mut last = async_word.span();
    if input.peek(Token![::]) {
        return one_way_proxy_fence(input, cx, op);
    }
    let space = if input.peek(Token![.]) {
        input.parse::<Token![.]>()?;
        let w = input.call(Ident::parse_any)?;
        let mut word = w.to_string();
        last = w.span();
        if input.peek(Token![::]) {
            input.parse::<Token![::]>()?;
            let sub = input.call(Ident::parse_any)?;
            last = sub.span();
            word = format!("{word}::{sub}");
        }
        AsyncSpace::from_ptx(&word).ok_or_else(|| {
            Range::new(w.span(), last).error(format!(
                "unknown state space `.{word}` of `Fence.proxy.async`: expected {}",
                AsyncSpace::EXPECTED
            ))
        })?
    } else {
        AsyncSpace::All
    };
    if input.peek(Token![.]) {
        return Err(input.error("`Fence.proxy.async.<space>` takes nothing more"));
    }
    let q = Quals {
        last: Some(last),
        ..Quals::default()
    };
    let origin = instr_site(cx, op, &q, None);
    Ok(Instr::new(
        InstrKind::Async(AsyncOp::ProxyFence(space)),
        origin,
    ))
}

/// `Fence.proxy.async::generic.release` or `.acquire`, with
/// `Fence.proxy.async` read and `::generic` next: the one-way proxy fences
/// (their `.sync_restrict::shared::*` and `.cluster` are implied, each
/// having one form).
fn one_way_proxy_fence(input: ParseStream, cx: &mut Ctx, op: &Ident) -> syn::Result<Instr> {
    const USAGE: &str =
        "`Fence.proxy.async::generic.release` or `Fence.proxy.async::generic.acquire`";
    input.parse::<Token![::]>()?;
    let generic = input.call(Ident::parse_any)?;
    if generic != "generic" || !input.peek(Token![.]) {
        return Err(Range::new(op.span(), generic.span())
            .error(format!("a one-way proxy fence is {USAGE}")));
    }
    input.parse::<Token![.]>()?;
    let w = input.call(Ident::parse_any)?;
    let Some(way) = OneWay::ALL.into_iter().find(|x| w == x.as_str()) else {
        return Err(syn::Error::new(
            w.span(),
            format!("a one-way proxy fence is {USAGE}"),
        ));
    };
    if input.peek(Token![.]) {
        return Err(input.error(format!("{USAGE} takes nothing more")));
    }
    let q = Quals {
        last: Some(w.span()),
        ..Quals::default()
    };
    let origin = instr_site(cx, op, &q, None);
    Ok(Instr::new(
        InstrKind::Async(AsyncOp::ProxyFenceOneWay(way)),
        origin,
    ))
}

/// `Fence.mbarrier_init.release.cluster`, its one form, with `Fence` read.
pub(super) fn mbarrier_init_fence(
    input: ParseStream,
    cx: &mut Ctx,
    op: &Ident,
) -> syn::Result<Instr> {
    let mut words = Vec::new();
    let mut last = op.span();
    while input.peek(Token![.]) {
        input.parse::<Token![.]>()?;
        let w = input.call(Ident::parse_any)?;
        last = w.span();
        words.push(w.to_string());
    }
    if words != ["mbarrier_init", "release", "cluster"] {
        return Err(Range::new(op.span(), last)
            .error("the mbarrier-init fence has one form: `Fence.mbarrier_init.release.cluster`"));
    }
    let q = Quals {
        last: Some(last),
        ..Quals::default()
    };
    let origin = instr_site(cx, op, &q, None);
    Ok(Instr::new(
        InstrKind::Async(AsyncOp::MbarrierInitFence),
        origin,
    ))
}
