//! The final condition and the declared verdict:
//! `exists (t1.r0 == 1 && !(x != 2)) => allowed;`.

use litmus_core::ir::{
    CmpOp, Condition, DeclaredTermination, DeclaredVerdict, Expr, Quantifier, Term, Verdict,
};
use proc_macro2::{Ident, Span};
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{parenthesized, LitBool, LitInt, Token};

use super::{lit, Ctx};
use crate::errors::Range;

pub(super) struct ParsedCondition {
    pub condition: Condition,
    pub verdict: Option<DeclaredVerdict>,
    /// `=> terminates` or `=> may hang`, after the verdict.
    pub termination: Option<DeclaredTermination>,
    /// Where the verdict should be, when it is missing.
    pub verdict_missing_at: Option<Span>,
}

pub(super) fn condition(input: ParseStream, cx: &mut Ctx) -> syn::Result<ParsedCondition> {
    let (quantifier, range) = quantifier(input)?;
    let origin = cx.sites.add(range);
    let expr = or(input, cx)?;
    let (verdict, verdict_missing_at) = if input.peek(Token![=>]) {
        input.parse::<Token![=>]>()?;
        let word = input.call(Ident::parse_any).map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected the declared verdict: `allowed` or `forbidden`",
            )
        })?;
        let verdict = match word.to_string().as_str() {
            "allowed" => Verdict::Allowed,
            "forbidden" => Verdict::Forbidden,
            other => {
                return Err(syn::Error::new(
                    word.span(),
                    format!("unknown verdict `{other}`: expected `allowed` or `forbidden`"),
                ))
            }
        };
        let origin = cx.sites.add_span(word.span());
        (Some(DeclaredVerdict { verdict, origin }), None)
    } else if input.peek(Token![;]) {
        (None, Some(input.span()))
    } else {
        return Err(input.error(
            "expected `&&`, `||`, the declared verdict (`=> allowed` or `=> forbidden`) or `;`",
        ));
    };
    let termination = if verdict.is_some() && input.peek(Token![=>]) {
        Some(termination(input, cx)?)
    } else {
        None
    };
    input.parse::<Token![;]>()?;
    Ok(ParsedCondition {
        condition: Condition {
            quantifier,
            expr,
            origin,
        },
        verdict,
        termination,
        verdict_missing_at,
    })
}

/// `=> terminates` or `=> may hang`.
fn termination(input: ParseStream, cx: &mut Ctx) -> syn::Result<DeclaredTermination> {
    input.parse::<Token![=>]>()?;
    let expected = "expected the declared termination: `terminates` or `may hang`";
    let word = input
        .call(Ident::parse_any)
        .map_err(|e| syn::Error::new(e.span(), expected))?;
    let terminates = match word.to_string().as_str() {
        "terminates" => true,
        "may" => {
            expect_word(input, "hang", "`may` must be followed by `hang`")?;
            false
        }
        other => {
            return Err(syn::Error::new(
                word.span(),
                format!("unknown termination `{other}`: {expected}"),
            ))
        }
    };
    let origin = cx.sites.add_span(word.span());
    Ok(DeclaredTermination { terminates, origin })
}

/// `exists`, `~exists`, `not exists`, `forall`.
fn quantifier(input: ParseStream) -> syn::Result<(Quantifier, Range)> {
    if input.peek(Token![~]) {
        let tilde: Token![~] = input.parse()?;
        let exists = expect_word(input, "exists", "`~` must be followed by `exists`")?;
        return Ok((Quantifier::NotExists, Range::new(tilde.span, exists)));
    }
    let word = input.call(Ident::parse_any)?;
    match word.to_string().as_str() {
        "exists" => Ok((Quantifier::Exists, Range::single(word.span()))),
        "forall" => Ok((Quantifier::Forall, Range::single(word.span()))),
        _ => {
            let exists = expect_word(input, "exists", "`not` must be followed by `exists`")?;
            Ok((Quantifier::NotExists, Range::new(word.span(), exists)))
        }
    }
}

fn expect_word(input: ParseStream, word: &str, message: &str) -> syn::Result<Span> {
    let found = input
        .call(Ident::parse_any)
        .map_err(|e| syn::Error::new(e.span(), message))?;
    if found == word {
        Ok(found.span())
    } else {
        Err(syn::Error::new(found.span(), message))
    }
}

fn or(input: ParseStream, cx: &mut Ctx) -> syn::Result<Expr> {
    let mut lhs = and(input, cx)?;
    while input.peek(Token![||]) {
        input.parse::<Token![||]>()?;
        let rhs = and(input, cx)?;
        lhs = Expr::Or(Box::new(lhs), Box::new(rhs));
    }
    Ok(lhs)
}

fn and(input: ParseStream, cx: &mut Ctx) -> syn::Result<Expr> {
    let mut lhs = unary(input, cx)?;
    while input.peek(Token![&&]) {
        input.parse::<Token![&&]>()?;
        let rhs = unary(input, cx)?;
        lhs = Expr::And(Box::new(lhs), Box::new(rhs));
    }
    Ok(lhs)
}

fn unary(input: ParseStream, cx: &mut Ctx) -> syn::Result<Expr> {
    if input.peek(Token![!]) && !input.peek(Token![!=]) {
        input.parse::<Token![!]>()?;
        return Ok(Expr::Not(Box::new(unary(input, cx)?)));
    }
    if input.peek(syn::token::Paren) {
        let content;
        parenthesized!(content in input);
        let inner = or(&content, cx)?;
        if !content.is_empty() {
            return Err(content.error("expected `&&`, `||` or `)`"));
        }
        return Ok(inner);
    }
    if input.peek(LitBool) {
        let b: LitBool = input.parse()?;
        if b.value {
            return Ok(Expr::True);
        }
        return Err(syn::Error::new(
            b.span,
            "`false` is not a condition: write `!true` or drop the test",
        ));
    }
    let lhs = term(input, cx)?;
    let op = if input.peek(Token![==]) {
        input.parse::<Token![==]>()?;
        CmpOp::Eq
    } else if input.peek(Token![!=]) {
        input.parse::<Token![!=]>()?;
        CmpOp::Ne
    } else {
        return Err(input.error("expected `==` or `!=`"));
    };
    let rhs = term(input, cx)?;
    Ok(Expr::Cmp { lhs, op, rhs })
}

/// `t1.r0` (a thread's register), `x` (a location) or an integer.
fn term(input: ParseStream, cx: &mut Ctx) -> syn::Result<Term> {
    if input.peek(LitInt) || input.peek(Token![-]) {
        return Ok(Term::Imm(lit::imm(input, cx)?));
    }
    if !input.peek(syn::Ident::peek_any) {
        return Err(input
            .error("expected a thread's register (`t1.r0`), a location (`x`), an integer or `(`"));
    }
    let first = input.call(Ident::parse_any)?;
    if input.peek(Token![.]) {
        input.parse::<Token![.]>()?;
        let reg = input.call(Ident::parse_any).map_err(|e| {
            syn::Error::new(
                e.span(),
                format!("expected a register of `{first}`: `{first}.r0`"),
            )
        })?;
        let thread = cx.name(&first);
        let reg = cx.name(&reg);
        return Ok(Term::Reg { thread, reg });
    }
    Ok(Term::Loc(cx.name(&first)))
}
