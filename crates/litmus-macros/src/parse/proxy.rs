//! PTX 7.5 forms: alias declarations (`alias y = generic(x);`), the proxy
//! loads and stores (`r = Suld(s)`, `Sust(s, v)`, `r = Tld(t)`,
//! `r = Cold(c)`) and proxy fences (`Fence.proxy.alias`). Which location a
//! proxy may reach is left to `litmus_core::validate`, as for the text
//! format.

use litmus_core::instr::{Instr, InstrKind};
use litmus_core::ir::{Imm, Location, Name, Space};
use litmus_core::proxy::{Alias, Proxy, ProxyFenceKind};
use proc_macro2::Ident;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{parenthesized, Token};

use super::quals::{access, args, arity, instr_site, quals, Quals, Takes};
use super::Ctx;
use crate::errors::Range;

const PROXIES: &str = "`generic(x)`, `surface(x)`, `texture(x)` or `constant(x)`";

/// `alias y = generic(x), t = texture(y);`: each name a second address of
/// the location in parentheses, reached through the proxy named.
pub(super) fn aliases_decl(input: ParseStream, cx: &mut Ctx) -> syn::Result<Vec<Location>> {
    input.parse::<Ident>()?;
    let mut out = Vec::new();
    loop {
        let ident: Ident = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected the alias's name (`alias y = generic(x);`)",
            )
        })?;
        input.parse::<Token![=]>().map_err(|e| {
            syn::Error::new(e.span(), format!("expected `=` and the proxy: {PROXIES}"))
        })?;
        let word = input
            .call(Ident::parse_any)
            .map_err(|e| syn::Error::new(e.span(), format!("expected a proxy: {PROXIES}")))?;
        let Some(proxy) = Proxy::from_word(&word.to_string()) else {
            return Err(syn::Error::new(
                word.span(),
                format!("unknown proxy `{word}`: expected {PROXIES}"),
            ));
        };
        if !input.peek(syn::token::Paren) {
            return Err(input.error(format!(
                "expected the location aliased in parentheses: `{word}(x)`"
            )));
        }
        let content;
        parenthesized!(content in input);
        let target: Ident = content
            .parse()
            .map_err(|e| syn::Error::new(e.span(), "expected the location aliased"))?;
        if !content.is_empty() {
            return Err(content.error("an alias names one location"));
        }
        let name = cx.name(&ident);
        let target = cx.name(&target);
        out.push(Location {
            name,
            space: Space::Global,
            gpu: 0,
            init: Imm::new(0, litmus_core::ir::Origin::NONE),
            alias: Some(Alias { proxy, target }),
        });
        if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
        } else {
            input.parse::<Token![;]>()?;
            return Ok(out);
        }
    }
}

/// Surface, texture and constant accesses: semantics and a scope are read
/// so that validation can say that only `.weak` exists.
const PROXY_ACCESS: Takes = Takes {
    cache: false,
    atom: false,
    sems: ".weak",
    caches: "",
};

/// The macro's word for a proxy load: `Suld`, `Tld`, `Cold`.
pub(super) fn load_proxy(word: &str) -> Option<Proxy> {
    match word {
        "Suld" => Some(Proxy::Surface),
        "Tld" => Some(Proxy::Texture),
        "Cold" => Some(Proxy::Constant),
        _ => None,
    }
}

/// `r = Suld(s)`, `r = Tld(t)`, `r = Cold(c)` (optionally `.weak`).
pub(super) fn load(
    input: ParseStream,
    cx: &mut Ctx,
    op: Ident,
    proxy: Proxy,
    dst: Name,
) -> syn::Result<Instr> {
    let q = quals(input, &op, &PROXY_ACCESS)?;
    let usage = format!("r = {op}(x)");
    let (args, paren) = args(input, &op, &usage)?;
    arity(&args, paren, &[1], &usage)?;
    let origin = instr_site(cx, &op, &q, Some(paren));
    let loc = cx.name(args[0].ident("a location")?);
    let kind = InstrKind::ProxyLoad {
        dst,
        loc,
        proxy,
        access: access(&q),
    };
    Ok(Instr::new(kind, origin))
}

/// `Sust(s, v)`: the only proxy store (textures and the constant bank are
/// read-only; `St` or `Sust` to one of their aliases fails validation).
pub(super) fn store(input: ParseStream, cx: &mut Ctx, op: Ident) -> syn::Result<Instr> {
    let q = quals(input, &op, &PROXY_ACCESS)?;
    const USAGE: &str = "Sust(s, value)";
    let (args, paren) = args(input, &op, USAGE)?;
    arity(&args, paren, &[2], USAGE)?;
    let origin = instr_site(cx, &op, &q, Some(paren));
    let loc = cx.name(args[0].ident("a location")?);
    let value = args[1].operand(cx);
    let kind = InstrKind::ProxyStore {
        loc,
        value,
        proxy: Proxy::Surface,
        access: access(&q),
    };
    Ok(Instr::new(kind, origin))
}

/// `Fence.proxy.<kind>`, called with `Fence` read and `.proxy` next.
pub(super) fn fence(input: ParseStream, cx: &mut Ctx, op: Ident) -> syn::Result<Instr> {
    input.parse::<Token![.]>()?;
    let proxy_word = input.call(Ident::parse_any)?;
    let kinds = ProxyFenceKind::EXPECTED;
    let fork = input.fork();
    if fork.parse::<Token![.]>().is_ok() && fork.call(Ident::parse_any).is_ok_and(|w| w == "async")
    {
        return super::async_ops::proxy_fence(input, cx, &op);
    }
    if !input.peek(Token![.]) {
        return Err(Range::new(op.span(), proxy_word.span()).error(format!(
            "a proxy fence needs a kind: `Fence.proxy.alias` ({kinds})"
        )));
    }
    input.parse::<Token![.]>()?;
    let kind_word = input.call(Ident::parse_any)?;
    let Some(kind) = ProxyFenceKind::from_ptx(&kind_word.to_string()) else {
        return Err(syn::Error::new(
            kind_word.span(),
            format!("unknown proxy fence kind `.{kind_word}`: expected {kinds}"),
        ));
    };
    if input.peek(Token![.]) {
        return Err(input.error(format!("`Fence.proxy.{kind_word}` takes nothing more")));
    }
    let q = Quals {
        last: Some(kind_word.span()),
        ..Quals::default()
    };
    let origin = instr_site(cx, &op, &q, None);
    Ok(Instr::new(InstrKind::ProxyFence(kind), origin))
}
