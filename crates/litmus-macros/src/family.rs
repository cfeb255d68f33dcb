//! `litmus_family!`: a family of litmus tests (shapes or diy7 cycles times
//! placements, scopes, fences, semantics, memory) as one `#[test]` each,
//! made at compile time by litmus-gen, with no file on disk.

use std::collections::{BTreeMap, HashSet};

use litmus_core::ir::Test;
use litmus_gen::{cycle, family, shape, FamilySpec, Skeleton};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{LitStr, Token};

use crate::files::identifier;

/// `key = "value"`.
struct Setting {
    key: Ident,
    value: LitStr,
}

impl Parse for Setting {
    fn parse(input: ParseStream) -> syn::Result<Setting> {
        let key = input.call(syn::ext::IdentExt::parse_any)?;
        input.parse::<Token![=]>()?;
        let value = input.parse::<LitStr>().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected the value as a string: `placements = \"all\"`",
            )
        })?;
        Ok(Setting { key, value })
    }
}

/// `mod name = "SHAPE ...", key = "value", ...`.
struct Input {
    module: Ident,
    shapes: LitStr,
    settings: Punctuated<Setting, Token![,]>,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Input> {
        let usage = "expected `mod NAME = \"SHAPE...\"` first: `litmus_family!(mod iriw = \"IRIW\", placements = \"all\")`";
        input
            .parse::<Token![mod]>()
            .map_err(|e| syn::Error::new(e.span(), usage))?;
        let module: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        let shapes = input
            .parse::<LitStr>()
            .map_err(|e| syn::Error::new(e.span(), usage))?;
        let settings = if input.is_empty() {
            Punctuated::new()
        } else {
            input.parse::<Token![,]>()?;
            Punctuated::parse_terminated(input)?
        };
        Ok(Input {
            module,
            shapes,
            settings,
        })
    }
}

/// Expands a call.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    match try_expand(input) {
        Ok(tokens) => tokens,
        Err(e) => e.to_compile_error(),
    }
}

fn try_expand(input: TokenStream) -> syn::Result<TokenStream> {
    let Input {
        module,
        shapes,
        settings,
    } = syn::parse2(input)?;
    let (skeletons, spec) = request(&shapes, &settings)?;
    let mut seen = HashSet::new();
    let mut tests: BTreeMap<String, Test> = BTreeMap::new();
    let mut names = Vec::new();
    for (skeleton, span) in &skeletons {
        let fam = family(skeleton, &spec, &mut seen)
            .map_err(|e| syn::Error::new(*span, e.to_string()))?;
        for test in fam.tests {
            let ident = identifier(&test.name.text);
            if let Some(first) = tests.get(&ident) {
                return Err(syn::Error::new(
                    *span,
                    format!(
                        "`{}` and `{}` both make the test function `{ident}`",
                        first.name, test.name
                    ),
                ));
            }
            names.push(test.name.text.clone());
            tests.insert(ident, test);
        }
    }
    let functions = tests
        .iter()
        .map(|(ident, test)| test_fn(ident, test))
        .collect::<syn::Result<Vec<_>>>()?;
    Ok(quote! {
        mod #module {
            /// The names of the family's tests, in the order they were made.
            #[allow(dead_code)]
            pub const TESTS: &[&str] = &[#(#names),*];
            #(#functions)*
        }
    })
}

/// The skeletons (each with the span its errors point at) and the options.
fn request(
    shapes: &LitStr,
    settings: &Punctuated<Setting, Token![,]>,
) -> syn::Result<(Vec<(Skeleton, Span)>, FamilySpec)> {
    let mut skeletons = Vec::new();
    for name in shapes.value().split_whitespace() {
        let skeleton = shape(name).map_err(|e| syn::Error::new(shapes.span(), e.to_string()))?;
        skeletons.push((skeleton, shapes.span()));
    }
    let mut spec = FamilySpec::default();
    for Setting { key, value } in settings {
        let at = |e: litmus_gen::GenError| syn::Error::new(value.span(), e.to_string());
        match key.to_string().as_str() {
            "cycle" => skeletons.push((cycle::skeleton(&value.value()).map_err(at)?, value.span())),
            k if litmus_gen::spec::OPTIONS.contains(&k.replace('_', "-").as_str()) => {
                spec.set(&k.replace('_', "-"), &value.value()).map_err(at)?
            }
            other => {
                return Err(syn::Error::new(
                    key.span(),
                    format!(
                        "unknown setting `{other}`; the settings are cycle, {}",
                        litmus_gen::spec::OPTIONS.join(", ").replace('-', "_")
                    ),
                ))
            }
        }
    }
    if skeletons.is_empty() {
        return Err(syn::Error::new(
            shapes.span(),
            "no shape and no `cycle = \"...\"`: nothing to generate",
        ));
    }
    for (skeleton, span) in &skeletons {
        litmus_gen::variants(skeleton, &spec).map_err(|e| syn::Error::new(*span, e.to_string()))?;
    }
    Ok((skeletons, spec))
}

/// One test: the IR built in place, and its PTX made now (`None` when the
/// harness cannot run it, as for `litmus!`).
fn test_fn(ident: &str, test: &Test) -> syn::Result<TokenStream> {
    use litmus_ptx::{self as ptx, PtxError};
    let ptx = match ptx::generate(test) {
        Ok(text) => quote!(::core::option::Option::Some(#text)),
        Err(PtxError::Unsupported(_)) => quote!(::core::option::Option::None),
        // The generator made a test the PTX back end calls invalid: a bug
        // in litmus-gen, reported rather than hidden.
        Err(e @ PtxError::Invalid(_)) => {
            return Err(syn::Error::new(
                Span::call_site(),
                format!(
                "internal error: litmus-gen made `{}`, which is not valid ({e}); please report it",
                test.name
            ),
            ))
        }
    };
    let ident = Ident::new(ident, Span::call_site());
    let expr = crate::expand::test_expr(test);
    Ok(quote! {
        #[test]
        #[allow(non_snake_case)]
        fn #ident() {
            let test = #expr;
            ::gpu_litmus::__private::litmus_runner::run_litmus(&test, #ptx);
        }
    })
}
