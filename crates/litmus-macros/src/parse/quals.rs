//! An opcode's qualifiers (`.relaxed.gpu`, `.cg`, `.add`) and its
//! parenthesised arguments, read for every instruction form, and the site
//! each instruction is recorded at for error messages.

use litmus_core::instr::{Access, AtomOp, CacheOp, Scope, Sem};
use proc_macro2::{Ident, Span};
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::{parenthesized, Token};

use super::lit::{self, Arg};
use super::Ctx;
use crate::errors::Range;
use crate::sites::InstrParts;

/// The qualifiers after an opcode (`.relaxed.gpu`), classified.
#[derive(Default)]
pub(super) struct Quals {
    pub(super) sem: Option<(Sem, Span)>,
    pub(super) scope: Option<(Scope, Span)>,
    pub(super) cache: Option<(CacheOp, Span)>,
    pub(super) atom: Option<(AtomOp, Span)>,
    /// The last token of the head.
    pub(super) last: Option<Span>,
}

/// Which kinds of qualifier an opcode takes, and how to list them in a
/// message.
pub(super) struct Takes {
    pub(super) cache: bool,
    pub(super) atom: bool,
    pub(super) sems: &'static str,
    pub(super) caches: &'static str,
}

pub(super) fn quals(input: ParseStream, op: &Ident, takes: &Takes) -> syn::Result<Quals> {
    let mut q = Quals::default();
    while input.peek(Token![.]) {
        input.parse::<Token![.]>()?;
        let ident = input.call(Ident::parse_any).map_err(|e| {
            syn::Error::new(e.span(), format!("expected a qualifier after `{op}.`"))
        })?;
        let word = ident.to_string();
        let span = ident.span();
        q.last = Some(span);
        let (slot, what) = if let Some(sem) = Sem::from_ptx(&word) {
            (set(&mut q.sem, sem, span), "semantics")
        } else if let Some(scope) = Scope::from_ptx(&word) {
            (set(&mut q.scope, scope, span), "scope")
        } else if let (true, Some(c)) = (takes.cache, CacheOp::from_ptx(&word)) {
            (set(&mut q.cache, c, span), "cache operator")
        } else if let (true, Some(a)) = (takes.atom, AtomOp::from_ptx(&word)) {
            (set(&mut q.atom, a, span), "operation")
        } else {
            let mut expected = format!(
                "semantics ({}), a scope (.cta, .cluster, .gpu, .sys)",
                takes.sems
            );
            if takes.cache {
                expected += &format!(" or a cache operator ({})", takes.caches);
            }
            if takes.atom {
                expected += " or an operation (.exch, .add, .sub, .and, .or, .xor, .min, .max, .inc, .dec, .cas)";
            }
            return Err(syn::Error::new(
                span,
                format!("unknown qualifier `.{word}` on `{op}`: expected {expected}"),
            ));
        };
        if !slot {
            return Err(syn::Error::new(
                span,
                format!("`{op}` has a second {what}: `.{word}`"),
            ));
        }
    }
    Ok(q)
}

/// Fills an empty slot; `false` if it was already filled.
fn set<T>(slot: &mut Option<(T, Span)>, value: T, span: Span) -> bool {
    if slot.is_some() {
        return false;
    }
    *slot = Some((value, span));
    true
}

pub(super) fn access(q: &Quals) -> Access {
    Access {
        sem: q.sem.map_or(Sem::Weak, |s| s.0),
        scope: q.scope.map(|s| s.0),
    }
}

/// `( a, b, ... )` with the span of the parentheses.
pub(super) fn args(input: ParseStream, op: &Ident, usage: &str) -> syn::Result<(Vec<Arg>, Span)> {
    if !input.peek(syn::token::Paren) {
        return Err(input.error(format!("expected the arguments of `{op}`: `{usage}`")));
    }
    let content;
    let paren = parenthesized!(content in input);
    let list = Punctuated::<Arg, Token![,]>::parse_terminated_with(&content, lit::arg)?;
    Ok((list.into_iter().collect(), paren.span.join()))
}

/// Records an instruction whose head is `op` and `q`, with `args` after it.
pub(super) fn instr_site(
    cx: &mut Ctx,
    op: &Ident,
    q: &Quals,
    args: Option<Span>,
) -> litmus_core::ir::Origin {
    let head = Range::new(op.span(), q.last.unwrap_or(op.span()));
    cx.sites.add_instr(
        Range::new(op.span(), args.unwrap_or(head.last)),
        InstrParts {
            head,
            sem: q.sem.map(|s| s.1),
            scope: q.scope.map(|s| s.1),
            cache: q.cache.map(|s| s.1),
            args,
        },
    )
}

pub(super) fn arity(args: &[Arg], paren: Span, n: &[usize], usage: &str) -> syn::Result<()> {
    if n.contains(&args.len()) {
        Ok(())
    } else {
        Err(syn::Error::new(
            paren,
            format!("expected `{usage}`, found {} argument(s)", args.len()),
        ))
    }
}
