//! The error collector: every mistake in one `litmus!` call is reported in
//! one compilation, each at its own span (after cxx's `syntax::Errors`).

use std::fmt::Display;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// The span of a run of tokens, from its first token to its last.
///
/// Stable Rust cannot join two spans into one; syn can still underline the
/// whole run when an error is built from a first and a last token, which is
/// what [`Range::error`] does.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Range {
    pub first: Span,
    pub last: Span,
}

impl Range {
    pub fn new(first: Span, last: Span) -> Range {
        Range { first, last }
    }

    pub fn single(span: Span) -> Range {
        Range::new(span, span)
    }

    /// An error underlining the whole range.
    pub fn error(self, message: impl Display) -> syn::Error {
        let first = Ident::new("first", self.first);
        let last = Ident::new("last", self.last);
        let tokens: TokenStream = quote!(#first #last);
        syn::Error::new_spanned(tokens, message)
    }
}

/// Collects errors instead of stopping at the first.
#[derive(Default)]
pub(crate) struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    pub fn at(&mut self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// Every collected error as one, or `Ok` if there were none.
    pub fn into_result(self) -> syn::Result<()> {
        let mut all = self.errors.into_iter();
        match all.next() {
            None => Ok(()),
            Some(mut first) => {
                for e in all {
                    first.combine(e);
                }
                Err(first)
            }
        }
    }
}
