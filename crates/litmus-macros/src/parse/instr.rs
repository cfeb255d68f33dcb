//! Statements of a thread body: labels and instructions.
//!
//! Opcodes and qualifiers are read as written and stored in the IR as
//! written; whether PTX allows a combination (`Ld.release`, a scope on a
//! weak access, ...) is decided by `litmus_core::validate`, which serves the
//! text format too. The parser rejects only what the IR cannot hold.

use litmus_core::instr::{
    Access, AtomOp, BarrierKind, BinOp, BranchCond, FenceSpelling, Instr, InstrKind, Scope, Sem,
};
use litmus_core::ir::{Name, Operand};
use proc_macro2::Ident;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::Token;

use super::lit::{self, Arg};
use super::quals::{access, args, arity, instr_site, quals, Quals, Takes};
use super::Ctx;
use crate::errors::Range;
use crate::sites::InstrParts;

const INSTRUCTIONS: &str =
    "`St`, `r = Ld`, `TF`, `TFB`, `TFS`, `Fence`, `Membar`, `r = Atom`, `Red`, \
                            `Sust`, `r = Suld`, `r = Tld`, `r = Cold`, `Fence.proxy`, `BarSync`, \
                            `BarArrive`, `Bar`, `SyncWarp`, `BulkLoad`, `BulkStore`, `BulkCommit`, \
                            `BulkWait`, `MbarInit`, `MbarArrive`, `r = MbarTryWait`, `goto`, `beq`, \
                            `bne`, `r = <value>` \
                            or a label `L0:`";

/// One statement: any labels, then at most one instruction, then `;`.
pub(super) fn statement(input: ParseStream, cx: &mut Ctx) -> syn::Result<Vec<Instr>> {
    let mut out = Vec::new();
    while input.peek(syn::Ident::peek_any) && input.peek2(Token![:]) && !input.peek2(Token![::]) {
        let label = input.call(Ident::parse_any)?;
        let colon: Token![:] = input.parse()?;
        let name = cx.name(&label);
        let origin = cx.sites.add(Range::new(label.span(), colon.span));
        out.push(Instr::new(InstrKind::Label(name), origin));
    }
    if !input.peek(Token![;]) {
        out.push(instruction(input, cx)?);
        if input.peek(Token![+])
            || input.peek(Token![-])
            || input.peek(Token![*])
            || input.peek(Token![&])
            || input.peek(Token![|])
            || input.peek(Token![^])
        {
            return Err(input.error("one operation per instruction: compute into a register first"));
        }
    }
    input.parse::<Token![;]>()?;
    Ok(out)
}

fn instruction(input: ParseStream, cx: &mut Ctx) -> syn::Result<Instr> {
    if !input.peek(syn::Ident::peek_any) {
        return Err(input.error(format!("expected an instruction: {INSTRUCTIONS}")));
    }
    if input.peek2(Token![=]) && !input.peek2(Token![==]) && !input.peek2(Token![=>]) {
        return assignment(input, cx);
    }
    let op = input.call(Ident::parse_any)?;
    let word = op.to_string();
    match word.as_str() {
        "St" => store(input, cx, op),
        "Sust" => super::proxy::store(input, cx, op),
        "TF" | "TFB" | "TFS" => {
            let scope = match word.as_str() {
                "TFB" => Scope::Cta,
                "TF" => Scope::Gpu,
                _ => Scope::Sys,
            };
            let kind = InstrKind::Fence {
                sem: Sem::Sc,
                scope,
                spelling: FenceSpelling::Membar,
            };
            Ok(Instr::new(kind, simple_site(cx, &op)))
        }
        "Fence" => fence(input, cx, op),
        "Membar" => membar(input, cx, op),
        "Red" => atom(input, cx, op, None),
        "BarSync" | "BarArrive" | "Bar" => barrier(input, cx, op),
        "SyncWarp" => Ok(Instr::new(InstrKind::WarpSync, simple_site(cx, &op))),
        "goto" => {
            let target = input
                .call(Ident::parse_any)
                .map_err(|e| syn::Error::new(e.span(), "expected a label: `goto L0`"))?;
            let origin = cx.sites.add(Range::new(op.span(), target.span()));
            let target = cx.name(&target);
            Ok(Instr::new(InstrKind::Branch { cond: None, target }, origin))
        }
        "beq" | "bne" => branch(input, cx, op),
        w if super::async_ops::is_async(w) => super::async_ops::statement(input, cx, op),
        "MbarTryWait" => Err(syn::Error::new(
            op.span(),
            "a wait needs a result register: `r0 = MbarTryWait.acquire.cta(b)`",
        )),
        "Ld" | "Suld" | "Tld" | "Cold" => Err(syn::Error::new(
            op.span(),
            format!("a load needs a destination register: `r0 = {op}(x)`"),
        )),
        "Atom" => Err(syn::Error::new(
            op.span(),
            "`Atom` needs a result register (`r0 = Atom.relaxed.gpu.add(x, 1)`); `Red` is the form without one",
        )),
        _ => Err(syn::Error::new(
            op.span(),
            match spelling(&word) {
                Some(s) => format!("unknown instruction `{op}`: the macro writes it `{s}`"),
                None => format!("unknown instruction `{op}`: expected {INSTRUCTIONS}"),
            },
        )),
    }
}

/// The macro's spelling of a PTX-style word (`st`, `ld`, `bar`), if any.
fn spelling(word: &str) -> Option<&'static str> {
    Some(match word.to_ascii_lowercase().as_str() {
        "ld" => "r0 = Ld(x)",
        "st" => "St(x, 1)",
        "fence" => "Fence.sc.gpu",
        "membar" => "Membar.gl",
        "suld" => "r0 = Suld(s)",
        "sust" => "Sust(s, 1)",
        "tld" => "r0 = Tld(t)",
        "cold" => "r0 = Cold(c)",
        "atom" => "r0 = Atom.relaxed.gpu.add(x, 1)",
        "red" => "Red.relaxed.gpu.add(x, 1)",
        "bar" | "barsync" | "bar_sync" => "BarSync(0)",
        "syncwarp" | "__syncwarp" => "SyncWarp",
        "beq" | "bne" | "goto" => "beq(r0, 1, L0)` / `bne(..)` / `goto L0",
        _ => return None,
    })
}

fn simple_site(cx: &mut Ctx, op: &Ident) -> litmus_core::ir::Origin {
    let head = Range::single(op.span());
    cx.sites.add_instr(
        head,
        InstrParts {
            head,
            sem: None,
            scope: None,
            cache: None,
            args: None,
        },
    )
}

/// `r = Ld...(x)`, `r = Atom...(..)`, `r = 5`, `r = r1`, `r = r1 + 1`.
fn assignment(input: ParseStream, cx: &mut Ctx) -> syn::Result<Instr> {
    let dst_ident = input.call(Ident::parse_any)?;
    input.parse::<Token![=]>()?;
    if input.peek(syn::Ident::peek_any) {
        let fork = input.fork();
        let word = fork.call(Ident::parse_any)?.to_string();
        let memory_op = fork.peek(Token![.]) || fork.peek(syn::token::Paren);
        if memory_op {
            let op = input.call(Ident::parse_any)?;
            let dst = cx.name(&dst_ident);
            if let Some(proxy) = super::proxy::load_proxy(&word) {
                return super::proxy::load(input, cx, op, proxy, dst);
            }
            return match word.as_str() {
                "Ld" => load(input, cx, op, dst),
                "MbarTryWait" => super::async_ops::try_wait(input, cx, op, dst),
                "Atom" => atom(input, cx, op, Some(dst)),
                "Red" => Err(syn::Error::new(
                    op.span(),
                    "`Red` has no result register: write `r = Atom...` for one, or drop `r =`",
                )),
                _ => Err(syn::Error::new(
                    op.span(),
                    match spelling(&word) {
                        Some(s) => format!("`{op}` gives no value: the macro writes `{s}`"),
                        None => format!(
                            "`{op}` gives no value: expected `Ld(..)`, `Atom...(..)`, a register, a literal or `a + b`"
                        ),
                    },
                )),
            };
        }
    }
    let a = operand_arg(input)?;
    let bin = if input.peek(Token![+]) {
        Some(BinOp::Add)
    } else if input.peek(Token![-]) {
        Some(BinOp::Sub)
    } else if input.peek(Token![*]) {
        Some(BinOp::Mul)
    } else if input.peek(Token![&]) && !input.peek(Token![&&]) {
        Some(BinOp::And)
    } else if input.peek(Token![|]) && !input.peek(Token![||]) {
        Some(BinOp::Or)
    } else if input.peek(Token![^]) {
        Some(BinOp::Xor)
    } else {
        None
    };
    let Some(bin) = bin else {
        let origin = cx.sites.add(Range::new(dst_ident.span(), a.range().last));
        let dst = cx.name(&dst_ident);
        let src = a.operand(cx);
        return Ok(Instr::new(InstrKind::Mov { dst, src }, origin));
    };
    // The operator is one punctuation token.
    let _: proc_macro2::Punct = input.parse()?;
    let b = operand_arg(input)?;
    let origin = cx.sites.add(Range::new(dst_ident.span(), b.range().last));
    let dst = cx.name(&dst_ident);
    let (a, b) = (a.operand(cx), b.operand(cx));
    Ok(Instr::new(InstrKind::BinOp { dst, op: bin, a, b }, origin))
}

fn operand_arg(input: ParseStream) -> syn::Result<Arg> {
    lit::arg(input).map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected a value: a register, an integer, `Ld(..)`, `Atom...(..)` or `a + b` (one of + - * & | ^)",
        )
    })
}

const LD: Takes = Takes {
    cache: true,
    atom: false,
    sems: ".weak, .relaxed, .acquire, .volatile",
    caches: ".ca, .cg, .cs, .lu, .cv",
};
const ST: Takes = Takes {
    cache: true,
    atom: false,
    sems: ".weak, .relaxed, .release, .volatile",
    caches: ".wb, .cg, .cs, .wt",
};
const FENCE: Takes = Takes {
    cache: false,
    atom: false,
    sems: ".sc, .acq_rel, .acquire, .release",
    caches: "",
};
const ATOM: Takes = Takes {
    cache: false,
    atom: true,
    sems: ".relaxed, .acquire, .release, .acq_rel",
    caches: "",
};

fn load(input: ParseStream, cx: &mut Ctx, op: Ident, dst: Name) -> syn::Result<Instr> {
    let q = quals(input, &op, &LD)?;
    const USAGE: &str = "r = Ld(x)";
    let (args, paren) = args(input, &op, USAGE)?;
    arity(&args, paren, &[1], USAGE)?;
    let origin = instr_site(cx, &op, &q, Some(paren));
    let loc = cx.name(args[0].ident("a location")?);
    let kind = InstrKind::Load {
        dst,
        loc,
        access: access(&q),
        cache: q.cache.map(|c| c.0),
    };
    Ok(Instr::new(kind, origin))
}

fn store(input: ParseStream, cx: &mut Ctx, op: Ident) -> syn::Result<Instr> {
    let q = quals(input, &op, &ST)?;
    const USAGE: &str = "St(x, value)";
    let (args, paren) = args(input, &op, USAGE)?;
    arity(&args, paren, &[2], USAGE)?;
    let origin = instr_site(cx, &op, &q, Some(paren));
    let loc = cx.name(args[0].ident("a location")?);
    let value = args[1].operand(cx);
    let kind = InstrKind::Store {
        loc,
        value,
        access: access(&q),
        cache: q.cache.map(|c| c.0),
    };
    Ok(Instr::new(kind, origin))
}

/// `Fence.sc.gpu`, `Fence.acq_rel.cta`, ...
fn fence(input: ParseStream, cx: &mut Ctx, op: Ident) -> syn::Result<Instr> {
    let fork = input.fork();
    let proxy = fork.parse::<Token![.]>().is_ok()
        && fork.call(Ident::parse_any).is_ok_and(|w| w == "proxy");
    if proxy {
        return super::proxy::fence(input, cx, op);
    }
    let fork = input.fork();
    if fork.parse::<Token![.]>().is_ok()
        && fork
            .call(Ident::parse_any)
            .is_ok_and(|w| w == "mbarrier_init")
    {
        return super::async_ops::mbarrier_init_fence(input, cx, &op);
    }
    let q = quals(input, &op, &FENCE)?;
    let head = Range::new(op.span(), q.last.unwrap_or(op.span()));
    let Some((sem, _)) = q.sem else {
        return Err(head.error(format!(
            "a fence needs semantics: `Fence.sc.gpu` (one of {})",
            FENCE.sems
        )));
    };
    let Some((scope, _)) = q.scope else {
        return Err(head.error("a fence needs a scope: `.cta`, `.cluster`, `.gpu` or `.sys`"));
    };
    let origin = instr_site(cx, &op, &q, None);
    let kind = InstrKind::Fence {
        sem,
        scope,
        spelling: FenceSpelling::Fence,
    };
    Ok(Instr::new(kind, origin))
}

/// `Membar.cta`, `Membar.gl`, `Membar.sys`.
fn membar(input: ParseStream, cx: &mut Ctx, op: Ident) -> syn::Result<Instr> {
    const LEVELS: &str = "`Membar.cta`, `Membar.gl` or `Membar.sys`";
    if !input.peek(Token![.]) {
        return Err(syn::Error::new(
            op.span(),
            format!("`Membar` needs a level: {LEVELS}"),
        ));
    }
    input.parse::<Token![.]>()?;
    let level = input.call(Ident::parse_any)?;
    let scope = match level.to_string().as_str() {
        "cta" => Scope::Cta,
        "gl" => Scope::Gpu,
        "sys" => Scope::Sys,
        other => {
            return Err(syn::Error::new(
                level.span(),
                format!("unknown membar level `.{other}`: expected {LEVELS}"),
            ))
        }
    };
    let q = Quals {
        last: Some(level.span()),
        ..Quals::default()
    };
    let origin = instr_site(cx, &op, &q, None);
    let kind = InstrKind::Fence {
        sem: Sem::Sc,
        scope,
        spelling: FenceSpelling::Membar,
    };
    Ok(Instr::new(kind, origin))
}

/// `r = Atom.sem.scope.op(x, v[, new])` (with `dst`) and
/// `Red.sem.scope.op(x, v)` (without).
fn atom(input: ParseStream, cx: &mut Ctx, op: Ident, dst: Option<Name>) -> syn::Result<Instr> {
    let q = quals(input, &op, &ATOM)?;
    let head = Range::new(op.span(), q.last.unwrap_or(op.span()));
    let Some((atom_op, op_span)) = q.atom else {
        return Err(head.error(format!(
            "`{op}` needs an operation: `.add`, `.exch`, `.cas`, ... (`{op}.relaxed.gpu.add`)"
        )));
    };
    if dst.is_none() && atom_op == AtomOp::Cas {
        return Err(syn::Error::new(
            op_span,
            "`Red` has no `.cas`: write `r = Atom.<sem>.<scope>.cas(x, compare, new)`",
        ));
    }
    let usage = if atom_op == AtomOp::Cas {
        "r = Atom.<sem>.<scope>.cas(x, compare, new)"
    } else if dst.is_some() {
        "r = Atom.<sem>.<scope>.<op>(x, value)"
    } else {
        "Red.<sem>.<scope>.<op>(x, value)"
    };
    let (args, paren) = args(input, &op, usage)?;
    // A `cas` missing its new value, or another op given one, is left to
    // validation, which names the mistake.
    arity(&args, paren, &[2, 3], usage)?;
    let origin = instr_site(cx, &op, &q, Some(paren));
    let loc = cx.name(args[0].ident("a location")?);
    let operand = args[1].operand(cx);
    let new = args.get(2).map(|a| a.operand(cx));
    // As in PTX (and the text format): `atom.add` is `atom.relaxed.gpu.add`;
    // on a host thread, whose atomics are system-wide, `atom.relaxed.sys.add`.
    let default_scope = if cx.on_host { Scope::Sys } else { Scope::Gpu };
    let access = Access {
        sem: q.sem.map_or(Sem::Relaxed, |s| s.0),
        scope: Some(q.scope.map_or(default_scope, |s| s.0)),
    };
    let kind = InstrKind::Atom {
        dst,
        op: atom_op,
        loc,
        access,
        operand,
        new,
    };
    Ok(Instr::new(kind, origin))
}

/// `BarSync(id[, count])`, `BarArrive(id, count)` (the ISA's `bar.sync` and
/// `bar.arrive`) and the corpus form `Bar.sync(instance[, id[, quorum]])`,
/// `Bar.arrive(..)` (also `Bar.cta.sync`).
fn barrier(input: ParseStream, cx: &mut Ctx, op: Ident) -> syn::Result<Instr> {
    let word = op.to_string();
    let (kind, corpus, last) = if word == "Bar" {
        let mut last = op.span();
        let mut words = Vec::new();
        while input.peek(Token![.]) {
            input.parse::<Token![.]>()?;
            let w = input.call(Ident::parse_any)?;
            last = w.span();
            words.push(w);
        }
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let kind = match words.as_slice() {
            ["sync"] | ["cta", "sync"] => BarrierKind::Sync,
            ["arrive"] | ["cta", "arrive"] => BarrierKind::Arrive,
            _ => {
                return Err(Range::new(op.span(), last).error(
                    "expected `Bar.sync(instance[, id[, quorum]])` or `Bar.arrive(..)` (`.cta` may come before `sync`)",
                ))
            }
        };
        (kind, true, last)
    } else if word == "BarSync" {
        (BarrierKind::Sync, false, op.span())
    } else {
        (BarrierKind::Arrive, false, op.span())
    };
    let usage = match (corpus, kind) {
        (true, _) => "Bar.sync(instance[, id[, quorum]])",
        (false, BarrierKind::Sync) => "BarSync(id[, count])",
        (false, BarrierKind::Arrive) => "BarArrive(id, count)",
    };
    let (args, paren) = args(input, &op, usage)?;
    let counts: &[usize] = match (corpus, kind) {
        (true, _) => &[1, 2, 3],
        (false, BarrierKind::Sync) => &[1, 2],
        (false, BarrierKind::Arrive) => &[2],
    };
    arity(&args, paren, counts, usage)?;
    let q = Quals {
        last: Some(last),
        ..Quals::default()
    };
    let origin = instr_site(cx, &op, &q, Some(paren));
    let instance = args[0].int(cx, "the barrier number")?;
    let rest: Vec<Operand> = args[1..].iter().map(|a| a.operand(cx)).collect();
    let (id, quorum) = if corpus {
        (rest.first().cloned(), rest.get(1).cloned())
    } else {
        // The ISA form names the barrier by its number; the IR calls that
        // the instance and leaves `id` for the corpus's separate resource.
        (None, rest.first().cloned())
    };
    Ok(Instr::new(
        InstrKind::Barrier {
            kind,
            instance,
            id,
            quorum,
        },
        origin,
    ))
}

/// `beq(a, b, L)`, `bne(a, b, L)`.
fn branch(input: ParseStream, cx: &mut Ctx, op: Ident) -> syn::Result<Instr> {
    let cond = if op == "beq" {
        BranchCond::Eq
    } else {
        BranchCond::Ne
    };
    let usage = format!("{op}(a, b, label)");
    let (args, paren) = args(input, &op, &usage)?;
    arity(&args, paren, &[3], &usage)?;
    let origin = instr_site(cx, &op, &Quals::default(), Some(paren));
    let a = args[0].operand(cx);
    let b = args[1].operand(cx);
    let target = cx.name(args[2].ident("a label")?);
    Ok(Instr::new(
        InstrKind::Branch {
            cond: Some((cond, a, b)),
            target,
        },
        origin,
    ))
}
