//! Literals and operands: integers (negative ones too), registers.

use litmus_core::ir::{Imm, Operand, Value};
use proc_macro2::Ident;
use syn::ext::IdentExt;
use syn::parse::ParseStream;
use syn::{LitInt, Token};

use super::Ctx;
use crate::errors::Range;

/// An integer as written, `-` included, with its range.
pub(super) fn int(input: ParseStream) -> syn::Result<(Value, Range)> {
    let minus: Option<Token![-]> = input.parse()?;
    let lit: LitInt = input
        .parse()
        .map_err(|e| syn::Error::new(e.span(), "expected an integer"))?;
    let range = Range::new(minus.map_or(lit.span(), |m| m.span), lit.span());
    if !lit.suffix().is_empty() {
        return Err(syn::Error::new(
            lit.span(),
            format!(
                "integer with a type suffix `{}`: write the bare number",
                lit.suffix()
            ),
        ));
    }
    let magnitude: u128 = lit
        .base10_digits()
        .parse()
        .map_err(|_| range.error("integer too large"))?;
    let value = i128::try_from(magnitude)
        .ok()
        .map(|m| if minus.is_some() { -m } else { m })
        .and_then(|v| Value::try_from(v).ok());
    match value {
        Some(v) => Ok((v, range)),
        // Checked here rather than by validation, which sees only values
        // that fit the IR's `i64`: the message is validation's own.
        None => Err(range.error(format!(
            "value {}{} does not fit 32 bits (expected -2147483648 ..= 4294967295)",
            if minus.is_some() { "-" } else { "" },
            lit.base10_digits()
        ))),
    }
}

/// An integer literal as an [`Imm`].
pub(super) fn imm(input: ParseStream, cx: &mut Ctx) -> syn::Result<Imm> {
    let (value, range) = int(input)?;
    Ok(Imm::new(value, cx.sites.add(range)))
}

/// A placement index (`cta 1`): a non-negative integer that fits `u32`.
pub(super) fn index(input: ParseStream, key: &Ident) -> syn::Result<u32> {
    if !input.peek(LitInt) {
        return Err(input.error(format!("expected a number after `{key}`: `{key} 0`")));
    }
    let (value, range) = int(input)?;
    u32::try_from(value)
        .map_err(|_| range.error(format!("`{key}` must be a number from 0 to 4294967295")))
}

/// An instruction argument before the instruction knows what it needs.
pub(super) enum Arg {
    Ident(Ident),
    Int(Value, Range),
}

impl Arg {
    pub fn range(&self) -> Range {
        match self {
            Arg::Ident(i) => Range::single(i.span()),
            Arg::Int(_, r) => *r,
        }
    }

    /// A register or a literal.
    pub fn operand(&self, cx: &mut Ctx) -> Operand {
        match self {
            Arg::Ident(i) => Operand::Reg(cx.name(i)),
            Arg::Int(v, r) => Operand::Imm(Imm::new(*v, cx.sites.add(*r))),
        }
    }

    /// A name (a location or a label); `what` says which, for the error.
    pub fn ident(&self, what: &str) -> syn::Result<&Ident> {
        match self {
            Arg::Ident(i) => Ok(i),
            Arg::Int(_, r) => Err(r.error(format!("expected {what}, found a number"))),
        }
    }

    /// A literal (barrier numbers).
    pub fn int(&self, cx: &mut Ctx, what: &str) -> syn::Result<Imm> {
        match self {
            Arg::Int(v, r) => Ok(Imm::new(*v, cx.sites.add(*r))),
            Arg::Ident(i) => Err(syn::Error::new(
                i.span(),
                format!("{what} must be an integer literal, found `{i}`"),
            )),
        }
    }
}

/// One argument: an identifier or an integer.
pub(super) fn arg(input: ParseStream) -> syn::Result<Arg> {
    if input.peek(syn::Ident::peek_any) {
        Ok(Arg::Ident(input.call(Ident::parse_any)?))
    } else if input.peek(LitInt) || input.peek(Token![-]) {
        let (v, r) = int(input)?;
        Ok(Arg::Int(v, r))
    } else {
        Err(input.error("expected a register, a location or an integer"))
    }
}
