//! DOCS
extern crate proc_macro;

mod errors;
mod expand;
mod parse;
mod sites;
mod valid;

use proc_macro::TokenStream;

/// Which macro is expanding: they share the grammar and differ in what they
/// require and produce.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    Test,
    Ir,
}

/// One litmus test as a `#[test]` function. See the [crate docs](crate) for
/// the syntax.
#[proc_macro]
pub fn litmus(input: TokenStream) -> TokenStream {
    expand(input.into(), Form::Test).into()
}

/// The IR of one litmus test, as an expression of type
/// `gpu_litmus::core::ir::Test`, without running anything: the same grammar
/// as [`litmus!`](macro@litmus), the verdict optional. See the
/// [crate docs](crate).
#[proc_macro]
pub fn litmus_ir(input: TokenStream) -> TokenStream {
    expand(input.into(), Form::Ir).into()
}

fn expand(input: proc_macro2::TokenStream, form: Form) -> proc_macro2::TokenStream {
    let mut cx = parse::Ctx::default();
    let parsed = parse::parse(input, &mut cx);
    let Some(parsed) = parsed else {
        return to_compile_errors(cx, form);
    };
    // Validation of a test with grammar mistakes would report their
    // consequences (a register "read before any write" because the
    // instruction writing it did not parse): the grammar mistakes come alone.
    if !cx.errors.is_empty() {
        return to_compile_errors(cx, form);
    }
    if form == Form::Test {
        if let Some(at) = parsed.verdict_missing_at {
            cx.errors.at(
                at,
                "missing verdict: a litmus test declares what the model decides, `=> allowed` or `=> forbidden`",
            );
        }
    }
    if form == Form::Ir {
        for attr in &parsed.attrs {
            cx.errors.push(syn::Error::new_spanned(
                attr,
                "`litmus_ir!` makes a value, not a function: only `///` doc comments are allowed",
            ));
        }
    }
    valid::check(&parsed.test, &mut cx);
    if !cx.errors.is_empty() {
        return to_compile_errors(cx, form);
    }
    match form {
        Form::Test => expand::test_fn(&parsed),
        Form::Ir => expand::test_expr(&parsed.test),
    }
}

/// The errors as `compile_error!` invocations, in a form valid where the
/// macro was called: items for `litmus!`; for `litmus_ir!` one block
/// expression of the right type, so that the user sees only the errors.
fn to_compile_errors(cx: parse::Ctx, form: Form) -> proc_macro2::TokenStream {
    let errors = match cx.errors.into_result() {
        Ok(()) => proc_macro2::TokenStream::new(),
        Err(e) => e.to_compile_error(),
    };
    match form {
        Form::Test => errors,
        Form::Ir => quote::quote! {{
            #errors
            ::gpu_litmus::__private::litmus_core::ir::Test::new("")
        }},
    }
}
