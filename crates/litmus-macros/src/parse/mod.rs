//! The macro's grammar: Rust tokens to a [`Test`], with every origin an
//! index into the [`Sites`] table.
//!
//! The input is cut into items (ended by `;` or by a thread's `{ ... }`) and
//! each thread body into statements (ended by `;`) before anything is
//! parsed, and each piece is parsed on its own: a mistake in one instruction
//! is reported and the next one is still read, so one compilation shows
//! every grammar mistake of the call.

mod async_ops;
mod cond;
mod instr;
mod lit;
mod proxy;
mod quals;

use litmus_core::ir::{Location, Name, Placement, RegInit, Space, Test, Thread};
use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Expr, Lit, Meta, Token};

use crate::errors::{Errors, Range};
use crate::sites::Sites;

/// What the parser and the checks after it share: the span table and the
/// errors found so far.
#[derive(Default)]
pub(crate) struct Ctx {
    pub sites: Sites,
    pub errors: Errors,
    /// Whether the thread whose body is being read runs on the host, where
    /// an atomic with no scope written is `.sys` rather than `.gpu`.
    pub on_host: bool,
}

impl Ctx {
    /// A [`Name`] for an identifier, recording where it was written.
    pub fn name(&mut self, ident: &Ident) -> Name {
        Name::new(ident.unraw().to_string(), self.sites.add_span(ident.span()))
    }

    /// Runs `parser` over `tokens`, recording its error if it fails.
    fn parse_piece<T>(
        &mut self,
        tokens: TokenStream,
        parser: impl FnOnce(ParseStream, &mut Ctx) -> syn::Result<T>,
    ) -> Option<T> {
        let result = (|input: ParseStream| parser(input, self)).parse2(tokens);
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                self.errors.push(e);
                None
            }
        }
    }
}

/// A parsed call.
pub(crate) struct Parsed {
    /// The test, origins pointing into the context's sites.
    pub test: Test,
    /// The test's name as written: the name of the generated function.
    pub ident: Ident,
    /// `#[doc]` attributes, kept for the generated function.
    pub docs: Vec<Attribute>,
    /// Other attributes (`#[ignore]`, `#[cfg(..)]`), for the generated
    /// function.
    pub attrs: Vec<Attribute>,
    /// Where a missing verdict should have been written.
    pub verdict_missing_at: Option<Span>,
}

/// Parses a whole call. Returns `None` when a mistake leaves no test to
/// check; the mistakes are in `cx.errors` either way.
pub(crate) fn parse(input: TokenStream, cx: &mut Ctx) -> Option<Parsed> {
    let end = last_span(&input);
    let mut items = split(input, end, true).into_iter();

    let header = match items.next() {
        Some(first) => cx.parse_piece(first, header),
        None => {
            cx.errors.at(
                Span::call_site(),
                "empty litmus test: expected a name (`my_test;`), locations, threads and a condition",
            );
            return None;
        }
    };

    let mut locations = Vec::new();
    let mut threads = Vec::new();
    let mut condition = None;
    // Whether a condition was written, even one that did not parse: a
    // broken condition is not also a missing one.
    let mut condition_written = false;
    for item in items {
        let Some(first) = item.clone().into_iter().next() else {
            continue;
        };
        let word = match &first {
            TokenTree::Ident(i) => i.to_string(),
            TokenTree::Punct(p) if p.as_char() == '~' => "~".to_string(),
            // A stray `;` after a thread's braces.
            TokenTree::Punct(p) if p.as_char() == ';' => continue,
            _ => String::new(),
        };
        let is_condition = matches!(word.as_str(), "exists" | "~" | "not" | "forall");
        if condition_written && !is_condition {
            cx.errors.at(
                first.span(),
                "the condition comes last: move this before it",
            );
            continue;
        }
        match word.as_str() {
            "global" | "shared" | "cluster_shared" | "host" | "gpu" => {
                if let Some(mut locs) = cx.parse_piece(item, locations_decl) {
                    locations.append(&mut locs);
                }
            }
            "alias" => {
                if let Some(mut locs) = cx.parse_piece(item, proxy::aliases_decl) {
                    locations.append(&mut locs);
                }
            }
            "thread" => {
                if let Some(t) = cx.parse_piece(item, thread) {
                    threads.push(t);
                }
            }
            "exists" | "~" | "not" | "forall" => {
                let parsed = cx.parse_piece(item, cond::condition);
                if std::mem::replace(&mut condition_written, true) {
                    cx.errors
                        .at(first.span(), "a test has one condition; this is a second one");
                } else {
                    condition = parsed;
                }
            }
            _ => cx.errors.at(
                first.span(),
                format!(
                    "expected `global`, `shared`, `cluster_shared`, `host`, `alias`, `thread`, `exists`, `~exists`, `not exists` or `forall`, found `{}`",
                    first
                ),
            ),
        }
    }

    let (attrs, ident) = header?;
    let Some(condition) = condition else {
        if condition_written {
            return None;
        }
        cx.errors.at(
            end,
            "missing condition: end the test with e.g. `exists (t1.r0 == 1) => allowed;`",
        );
        return None;
    };
    let (docs, attrs): (Vec<Attribute>, Vec<Attribute>) =
        attrs.into_iter().partition(|a| a.path().is_ident("doc"));
    let mut test = Test::new(ident.unraw().to_string());
    test.name = cx.name(&ident);
    test.doc.0 = docs.iter().filter_map(doc_line).collect();
    test.locations = locations;
    test.threads = threads;
    test.condition = condition.condition;
    test.verdict = condition.verdict;
    test.termination = condition.termination;
    Some(Parsed {
        test,
        ident,
        docs,
        attrs,
        verdict_missing_at: condition.verdict_missing_at,
    })
}

/// The text of one `///` line, without the space after the slashes.
fn doc_line(attr: &Attribute) -> Option<String> {
    let Meta::NameValue(nv) = &attr.meta else {
        return None;
    };
    let Expr::Lit(lit) = &nv.value else {
        return None;
    };
    let Lit::Str(s) = &lit.lit else {
        return None;
    };
    let text = s.value();
    Some(text.strip_prefix(' ').unwrap_or(&text).to_string())
}

/// `/// doc` lines, other attributes and the test's name: `mp_tfb;`.
fn header(input: ParseStream, _: &mut Ctx) -> syn::Result<(Vec<Attribute>, Ident)> {
    let attrs = input.call(Attribute::parse_outer)?;
    let ident = if input.peek(syn::Ident) {
        let ident = input.call(Ident::parse_any)?;
        // `gpu` is a declaration only before a number (`gpu 1 x = 0;`): a
        // test may be called `gpu`.
        if is_item_keyword(&ident) || (ident == "gpu" && input.peek(syn::LitInt)) {
            return Err(syn::Error::new(
                ident.span(),
                "expected the test's name first (`my_test;`), before the locations and threads",
            ));
        }
        ident
    } else {
        return Err(input.error("expected the test's name (`my_test;`)"));
    };
    input.parse::<Token![;]>()?;
    Ok((attrs, ident))
}

fn is_item_keyword(ident: &Ident) -> bool {
    [
        "global",
        "shared",
        "cluster_shared",
        "host",
        "alias",
        "thread",
        "exists",
        "not",
        "forall",
    ]
    .iter()
    .any(|k| ident == k)
}

/// `global x = 0, y;` (a missing value is 0), `shared s = 1;`,
/// `cluster_shared d = 0;`, `host h = 0;` (page-locked host memory),
/// `gpu 1 x = 0;` (global memory of logical GPU 1). A space keyword may
/// follow `gpu N` (`gpu 1 shared s;`) so that validation, not the parser,
/// says why only global memory has a home GPU.
fn locations_decl(input: ParseStream, cx: &mut Ctx) -> syn::Result<Vec<Location>> {
    let mut kw: Ident = input.parse()?;
    let mut gpu = 0;
    if kw == "gpu" {
        let n: syn::LitInt = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), "expected the GPU's number (`gpu 1 x = 0;`)"))?;
        gpu = n.base10_parse::<u32>().map_err(|_| {
            syn::Error::new(
                n.span(),
                "expected a GPU number that fits 32 bits unsigned (0 ..= 4294967295)",
            )
        })?;
        // A keyword counts only before a name: `gpu 1 host = 0;` declares
        // a location called `host`.
        let fork = input.fork();
        let space_follows = fork.call(Ident::parse_any).is_ok_and(|w| {
            ["global", "shared", "cluster_shared", "host"]
                .iter()
                .any(|k| w == k)
        }) && fork.peek(syn::Ident);
        if space_follows {
            kw = input.parse()?;
        }
    }
    let space = match kw.to_string().as_str() {
        "shared" => Space::Shared,
        "cluster_shared" => Space::SharedCluster,
        "host" => Space::Host,
        _ => Space::Global,
    };
    let mut out = Vec::new();
    loop {
        let ident: Ident = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), "expected a location name"))?;
        let name = cx.name(&ident);
        let init = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            lit::imm(input, cx)?
        } else {
            litmus_core::ir::Imm::new(0, cx.sites.add_span(ident.span()))
        };
        out.push(Location {
            name,
            space,
            gpu,
            init,
            alias: None,
        });
        if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
        } else {
            input.parse::<Token![;]>()?;
            return Ok(out);
        }
    }
}

/// `thread t1 @ cta 1, gpu 0 with r1 = 0 { ... }`.
fn thread(input: ParseStream, cx: &mut Ctx) -> syn::Result<Thread> {
    input.parse::<Ident>()?;
    let ident: Ident = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), "expected the thread's name"))?;
    let name = cx.name(&ident);
    if !input.peek(Token![@]) {
        return Err(input.error(
            "expected the thread's placement: `@ cta N` (optionally with `gpu N`, `cluster N`, `warp N`) or `@ host`",
        ));
    }
    let at: Token![@] = input.parse()?;
    let placement = placement(input, at.span)?;
    let mut init = Vec::new();
    if input.peek(syn::Ident) && !input.peek(syn::token::Brace) {
        let with = input.call(Ident::parse_any)?;
        if with != "with" {
            return Err(syn::Error::new(
                with.span(),
                format!("expected `,`, `with` or the thread's `{{ ... }}`, found `{with}`"),
            ));
        }
        loop {
            let reg: Ident = input
                .parse()
                .map_err(|e| syn::Error::new(e.span(), "expected a register name"))?;
            let reg = cx.name(&reg);
            input.parse::<Token![=]>()?;
            let value = lit::imm(input, cx)?;
            init.push(RegInit { reg, value });
            if !input.peek(Token![,]) {
                break;
            }
            input.parse::<Token![,]>()?;
        }
    }
    let body: Group = match input.parse::<Group>() {
        Ok(g) if g.delimiter() == Delimiter::Brace => g,
        _ => return Err(input.error("expected the thread's body: `{ St(x, 1); ... }`")),
    };
    if !input.is_empty() {
        return Err(
            input.error("expected `thread`, a location or the condition after a thread's `}`")
        );
    }
    let mut instrs = Vec::new();
    cx.on_host = placement.host;
    for stmt in split(body.stream(), body.span_close(), false) {
        if let Some(mut found) = cx.parse_piece(stmt, instr::statement) {
            instrs.append(&mut found);
        }
    }
    cx.on_host = false;
    Ok(Thread {
        name,
        placement,
        init,
        body: instrs,
    })
}

/// `cta 1`, `gpu 0, cta 1`, `cta 0, cluster 1, warp 2`: any order, comma
/// separated, `cta` required; or `host` alone (a thread on the CPU).
fn placement(input: ParseStream, at: Span) -> syn::Result<Placement> {
    if input.peek(Ident::peek_any) && input.fork().call(Ident::parse_any)? == "host" {
        let host = input.call(Ident::parse_any)?;
        if input.peek(Token![,]) {
            return Err(syn::Error::new(
                host.span(),
                "`host` stands alone: a host thread has no CTA, cluster, GPU or warp",
            ));
        }
        return Ok(Placement::host());
    }
    let mut placement = Placement::default();
    let (mut cta, mut gpu, mut cluster, mut warp) = (false, false, false, false);
    loop {
        let key = input.call(Ident::parse_any).map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected a placement: `cta N`, `gpu N`, `cluster N` or `warp N`",
            )
        })?;
        let seen = match key.to_string().as_str() {
            "cta" => &mut cta,
            "gpu" => &mut gpu,
            "cluster" => &mut cluster,
            "warp" => &mut warp,
            other => {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown placement `{other}`: expected `cta`, `gpu`, `cluster` or `warp`"
                    ),
                ))
            }
        };
        if std::mem::replace(seen, true) {
            return Err(syn::Error::new(
                key.span(),
                format!("`{key}` is placed twice"),
            ));
        }
        let n = lit::index(input, &key)?;
        match key.to_string().as_str() {
            "cta" => placement.cta = n,
            "gpu" => placement.gpu = n,
            "cluster" => placement.cluster = Some(n),
            _ => placement.warp = Some(n),
        }
        if !input.peek(Token![,]) {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    if !cta {
        return Err(Range::single(at).error("the placement needs a CTA: `@ cta N`"));
    }
    Ok(placement)
}

/// The span of the last token of `tokens` (or the call site if empty):
/// where "unexpected end" errors of the last piece point.
fn last_span(tokens: &TokenStream) -> Span {
    tokens
        .clone()
        .into_iter()
        .last()
        .map_or_else(Span::call_site, |t| match t {
            TokenTree::Group(g) => g.span_close(),
            other => other.span(),
        })
}

/// Cuts `tokens` after every `;` (and, with `braces`, after every `{...}`
/// group). A last piece without its `;` gets one, spanned at `end`, so that
/// the parsers can always expect one and errors at the end of a piece point
/// into the user's code rather than at the whole macro call.
fn split(tokens: TokenStream, end: Span, braces: bool) -> Vec<TokenStream> {
    let mut pieces = Vec::new();
    let mut current = Vec::new();
    for tt in tokens {
        let ends = match &tt {
            TokenTree::Punct(p) => p.as_char() == ';',
            TokenTree::Group(g) => braces && g.delimiter() == Delimiter::Brace,
            _ => false,
        };
        current.push(tt);
        if ends {
            pieces.push(current.drain(..).collect());
        }
    }
    if !current.is_empty() {
        let mut semi = proc_macro2::Punct::new(';', proc_macro2::Spacing::Alone);
        semi.set_span(end);
        current.push(TokenTree::Punct(semi));
        pieces.push(current.into_iter().collect());
    }
    pieces
}
