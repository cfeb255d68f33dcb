//! The `litmus!` macro: a GPU litmus test written as Rust tokens, checked
//! at compile time, expanded to one `#[test]` function.
//!
//! ```
//! use gpu_litmus::litmus;
//!
//! litmus! {
//!     /// Message passing between CTAs with block-scoped fences.
//!     /// PTX allows the stale read: a CTA fence does not order for another CTA.
//!     mp_tfb_inter_cta;
//!     global x = 0, y = 0;
//!     thread t0 @ cta 0 { St(x, 1); TFB; St(y, 1); }
//!     thread t1 @ cta 1 { r0 = Ld(y); TFB; r1 = Ld(x); }
//!     exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
//! }
//! # fn main() {}
//! ```
//!
//! `litmus_ir! { .. }` takes the same input and is an expression: the
//! test's IR ([`Test`](litmus_core::ir::Test)), built without
//! running anything. It is the form to use for tools, and for comparing a
//! test with its `.litmus` file. Its verdict may be left out
//! (`Test::verdict` is then `None`).
//!
//! # Grammar
//!
//! A call holds, in this order: doc comments and attributes, the test's
//! name and `;`; location declarations and threads, in any order; the
//! condition with its verdict, last. Every statement ends with `;` except a
//! thread, which ends with its `}`; the last `;` in a block may be left out.
//!
//! | Part | Example | IR |
//! |---|---|---|
//! | name | `mp_rel_acq;` | `Test::name`; the `#[test] fn` is named after it |
//! | doc | `/// Message passing.` | `Test::doc` and the function's docs |
//! | attributes | `#[ignore = "slow"]` | on the function (`litmus!` only) |
//! | global memory | `global x = 0, y;` | `Space::Global`; no value means 0 |
//! | CTA shared memory | `shared s = 1;` | `Space::Shared` |
//! | cluster shared memory | `cluster_shared d = 0;` | `Space::SharedCluster` |
//! | page-locked host memory | `host h = 0;` | `Space::Host` (global memory to the model) |
//! | another GPU's global memory | `gpu 1 x = 0, y;` | `Space::Global`, `Location::gpu` 1 (GPU 0 unless written; the model ignores it, the harness allocates there) |
//! | PTX 7.5 aliases | `alias y = generic(x), s = surface(x), t = texture(y), c = constant(x);` | `Location::alias` (`y @ generic aliases x` in the dialect) |
//! | thread | `thread t0 @ cta 0 { .. }` | `Thread`, `Placement::cta(0)` |
//! | placement | `@ gpu 1, cluster 0, cta 2, warp 1` | any order, comma separated, `cta` required |
//! | host thread | `thread h @ host { r0 = Ld.acquire(y); .. }` | `Placement::host()`: a CPU thread, its accesses C++ atomics read as `.sys` (no scope written means `.sys`); `host` stands alone |
//! | initial registers | `thread t1 @ cta 1 with r1 = 0, r2 = -1 { .. }` | `Thread::init` |
//!
//! ## Instructions
//!
//! Memory operations are capitalised, after the seed names `St`, `Ld`, `TF`,
//! `TFB`; PTX qualifiers follow as `.name`, in any order. Control flow is
//! lower case. Qualifiers are kept as written: what PTX does not allow
//! (`Ld.release`, a scope on a weak access, a cache operator on a strong
//! one) is a compile error at the qualifier.
//!
//! | Form | Example | PTX |
//! |---|---|---|
//! | weak store | `St(x, 1);` `St(x, r0);` `St.weak(x, -1);` | `st.weak` |
//! | weak load | `r0 = Ld(x);` `r0 = Ld.weak(x);` | `ld.weak` |
//! | strong store | `St.relaxed.gpu(x, 1);` `St.release.sys(x, 1);` | `st.relaxed.gpu`, `st.release.sys` |
//! | strong load | `r0 = Ld.relaxed.cta(x);` `r0 = Ld.acquire.gpu(x);` | `ld.relaxed.cta`, `ld.acquire.gpu` |
//! | volatile | `St.volatile(x, 1);` `r0 = Ld.volatile(x);` | `st.volatile`, `ld.volatile` |
//! | cache operator | `r0 = Ld.ca(x);` (`.ca .cg .cs .lu .cv`), `St.wt(x, 1);` (`.wb .cg .cs .wt`) | `ld.ca`, `st.wt` |
//! | seed fences | `TFB;` `TF;` `TFS;` | `membar.cta`, `membar.gl`, `membar.sys` |
//! | fence | `Fence.sc.gpu;` `Fence.acq_rel.cta;` `Fence.acquire.cluster;` `Fence.release.sys;` | `fence.<sem>.<scope>` |
//! | membar | `Membar.cta;` `Membar.gl;` `Membar.sys;` | `membar.<level>` |
//! | atomic | `r0 = Atom.relaxed.gpu.add(x, 1);` (`.exch .add .sub .and .or .xor .min .max .inc .dec`) | `atom.relaxed.gpu.add` |
//! | compare and swap | `r0 = Atom.acq_rel.gpu.cas(m, 0, 1);` | `atom.acq_rel.gpu.cas` |
//! | reduction | `Red.release.gpu.add(x, 1);` | `red.release.gpu.add` |
//! | default atomic | `r0 = Atom.add(x, 1);` `Red.release.inc(x, 1);` | as in PTX, no semantics is `.relaxed`, no scope `.gpu` (`.sys` on a host thread) |
//! | CTA barrier | `BarSync(1);` `BarSync(1, 64);` `BarArrive(1, 64);` | `bar.sync 1[, 64]`, `bar.arrive 1, 64` |
//! | corpus barrier | `Bar.sync(1, r2, 2);` `Bar.cta.sync(1);` `Bar.arrive(1);` | `bar.cta.sync instance[, id[, quorum]]` |
//! | warp barrier | `SyncWarp;` | `bar.warp.sync` (`__syncwarp()`) |
//! | move | `r0 = 5;` `r1 = r0;` | `mov` |
//! | arithmetic | `r2 = r1 + 1;` (`+ - * & \| ^`, one operation) | `add`, `sub`, `mul`, `and`, `or`, `xor` |
//! | surface load, store | `r0 = Suld(s);` `Sust(s, 1);` (`.weak` only) | `suld.weak`, `sust.weak` |
//! | texture load | `r0 = Tld(t);` | `tld.weak` |
//! | constant load | `r0 = Cold(c);` | `cold.weak` |
//! | proxy fence | `Fence.proxy.alias;` (`.alias .surface .texture .constant`) | `fence.proxy.<kind>` |
//! | label | `L0:` (before an instruction, or alone) | |
//! | branch | `beq(r0, 1, L0);` `bne(r0, r1, L0);` `goto L0;` | `beq`, `bne`, `goto` |
//!
//! `TFB`, `TF` and `TFS` are `membar.cta`, `membar.gl` and `membar.sys`
//! (`fence.sc` of that scope, spelled as membar). `BarSync(n, count)` is the
//! ISA's `bar.sync`; `Bar.sync(instance, id, quorum)` is the corpus
//! dialect's `bar.cta.sync`, where the barrier resource `id` may be a
//! register.
//!
//! PTX 7.5 proxies: `alias y = generic(x)` makes `y` a second virtual
//! address of `x`'s memory; `surface`, `texture` and `constant` aliases are
//! the memory as the surface, texture and constant-bank proxies see it.
//! Each alias is reached through its own proxy (`Suld`/`Sust` a surface
//! alias, `Tld` a texture alias, `Cold` a constant or generic alias, the
//! generic instructions `x` and its generic aliases); textures and the
//! constant bank are read-only. An alias of an unknown location, a cycle of
//! aliases, a store through a read-only proxy, a proxy access with strong
//! semantics and an unknown proxy fence kind are compile errors. Only the
//! model `ptx-7.5` checks proxy tests (`LITMUS_MODEL=ptx-7.5`): under the
//! default `ptx`, or any model without proxies, a `litmus!` test that uses
//! them fails with a message saying so. On the GPU, a generic alias is a
//! second virtual mapping of its target's memory and a texture alias a
//! texture object over it (`fence.proxy.alias` is emitted as written);
//! surface and constant-bank aliases and `fence.proxy.surface`, `.texture`
//! and `.constant` have no hardware form, and such a test's hardware half
//! is reported as not run, with the reason.
//!
//! ## Condition and verdict
//!
//! `exists`, `~exists` (also `not exists`) or `forall`, then an expression
//! over `thread.register`, location names (their final values) and
//! integers, with `==`, `!=`, `!`, `&&`, `||` and parentheses, binding as
//! in Rust; `true` is the empty condition. Then the verdict the author
//! declares for the condition under the model: `=> allowed` or
//! `=> forbidden` (required by `litmus!`), and after it, optionally,
//! whether every execution ends: `=> terminates` or `=> may hang` (checked
//! with `litmus_model::check_termination` when the test runs).
//!
//! ```
//! # use gpu_litmus::litmus_ir;
//! let test = litmus_ir! {
//!     sb_sc_fences;
//!     global x = 0, y = 0;
//!     thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.gpu; r0 = Ld.relaxed.gpu(y); }
//!     thread t1 @ cta 1 { St.relaxed.gpu(y, 1); Fence.sc.gpu; r0 = Ld.relaxed.gpu(x); }
//!     ~exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
//! };
//! assert_eq!(test.threads.len(), 2);
//! ```
//!
//! ## Every form in one test
//!
//! ```
//! # use gpu_litmus::litmus_ir;
//! let test = litmus_ir! {
//!     /// Not a meaningful test: a tour of the grammar.
//!     tour;
//!     global x = 0, y, m = 0;
//!     shared s = 1;
//!     cluster_shared d = 0;
//!     alias xa = generic(x), xs = surface(x), xt = texture(xa), xc = constant(x);
//!     thread t0 @ gpu 0, cluster 0, cta 0, warp 0 with r9 = 3 {
//!         St(x, 1); St.weak(x, r9); St.relaxed.gpu(x, 1); St.release.sys(y, 1);
//!         St.volatile(x, 1); St.wt(x, 2); St.relaxed.cluster(d, 1);
//!         r0 = Ld(x); r1 = Ld.acquire.gpu(y); r2 = Ld.relaxed.cta(s);
//!         r3 = Ld.volatile(x); r4 = Ld.ca(x);
//!         TF; TFB; TFS;
//!         Fence.sc.gpu; Fence.acq_rel.cta; Fence.acquire.cluster; Fence.release.sys;
//!         Membar.cta; Membar.gl; Membar.sys;
//!         r5 = Atom.relaxed.gpu.add(m, 1);
//!         r6 = Atom.acq_rel.gpu.cas(m, 0, r5);
//!         Red.release.gpu.add(x, 1);
//!         BarSync(1); BarSync(1, 64); BarArrive(2, 64); Bar.sync(1, r9, 2);
//!         SyncWarp;
//!         Fence.proxy.alias; r10 = Ld(xa); Sust(xs, 1); Fence.proxy.surface; r11 = Suld(xs);
//!         Fence.proxy.texture; r12 = Tld(xt); Fence.proxy.constant; r13 = Cold.weak(xc);
//!         r7 = 5; r8 = r7; r7 = r8 + 1; r7 = r7 ^ r0;
//!     L0:
//!         beq(r7, 0, L0); bne(r7, r8, L1); goto L1;
//!     L1:
//!         St(y, r7);
//!     }
//!     thread t1 @ cta 0, cluster 0, warp 1 { r0 = Ld(s); SyncWarp; }
//!     forall (x != 0 || !(t0.r0 == -1 && t1.r0 == 1)) => allowed;
//! };
//! assert_eq!(test.name.text, "tour");
//! assert_eq!(test.doc.0, ["Not a meaningful test: a tour of the grammar."]);
//! ```
//!
//! # Errors
//!
//! Every mistake is a compile error at the token at fault, and one
//! compilation shows all of them: grammar mistakes (each statement is read
//! on its own, so one bad instruction does not hide the next), then, if the
//! grammar is right, every mistake `litmus_core::validate` finds (the same
//! checks as for `.litmus` files):
//!
//! ```text
//! error: `ld` does not take `.release` semantics; loads take .weak, .relaxed, .acquire or .volatile
//!  --> tests/ui/fail/ld_release.rs:6:33
//!   |
//! 6 |     thread t0 @ cta 0 { r0 = Ld.release.gpu(x); }
//!   |                                 ^^^^^^^
//! ```
//!
//! # Expansion
//!
//! `litmus! { /// doc  name; .. }` becomes
//!
//! ```text
//! /// doc
//! #[test]
//! fn name() {
//!     let test = /* the IR, as the expression litmus_ir! gives */;
//!     ::gpu_litmus::__private::litmus_runner::run_litmus(
//!         &test,
//!         ::core::option::Option::Some("// gpu-litmus: test `name`, ..\n.version 6.2\n.."),
//!     );
//! }
//! ```
//!
//! The IR is built by plain Rust expressions when the test runs: nothing is
//! parsed at run time. The PTX module is made at compile time by
//! `litmus_ptx::generate`, the generator `.litmus` files get at run
//! time, and embedded as a string literal, so `cargo expand` shows the
//! kernel. It is `None` for a test the GPU harness cannot run (a thread on
//! a second GPU, for instance): that is not a compile error, the
//! runtime reports the hardware half as not run, with the reason, and the
//! model still decides the verdict.
//!
//! # Files
//!
//! `litmus_files!` turns every `.litmus` file matching a glob into its own
//! `#[test]`, at module level in a test file:
//!
//! ```ignore
//! // tests/corpus.rs
//! gpu_litmus::litmus_files!("tests/litmus/**/*.litmus");
//! // or, to keep the tests in a module of their own (`corpus::mp_relaxed`):
//! gpu_litmus::litmus_files!(mod corpus = "tests/litmus/*.litmus");
//! ```
//!
//! The pattern is relative to the crate root (the directory of its
//! `Cargo.toml`), with `/` between names on every platform: `*` is any
//! characters within one name, `?` one character, and `**` (a whole name)
//! any number of directories, none included. Nothing else is special, and
//! names starting with `.` are not: `*` matches them too. `**` does not
//! enter directories that are symbolic links, so a link cycle cannot make
//! the search endless.
//!
//! Each file, in path order, becomes a test named after the file without
//! its extension: `tests/litmus/MP+rel-acq.litmus` expands to
//!
//! ```text
//! #[test]
//! #[allow(non_snake_case)]
//! fn MP_rel_acq() {
//!     ::gpu_litmus::__private::litmus_runner::run_litmus_text(
//!         "tests/litmus/MP+rel-acq.litmus",
//!         ::core::include_str!("/abs/path/to/crate/tests/litmus/MP+rel-acq.litmus"),
//!     );
//! }
//! ```
//!
//! Characters other than ASCII letters, digits and `_` become `_`; a name
//! starting with a digit gets a leading `_`, a Rust keyword a trailing one
//! (`2+2W.litmus` is `_2_2W`, `loop.litmus` is `loop_`). Two files that make
//! the same name are a compile error naming both: rename one, or match them
//! in two calls with a module each. A pattern that matches no file, and a
//! pattern that cannot be read (`[ab]`, an absolute path, `**` inside a
//! name, a trailing `/` or `**`), are compile errors at the pattern.
//!
//! The text is parsed, validated and turned into PTX when the test runs
//! (a file with mistakes fails its own test, with every mistake at its line
//! and column), and read at compile time with `include_str!`, so cargo
//! rebuilds the test file when a `.litmus` file changes. Cargo cannot be
//! told to watch a directory from a macro on stable Rust: after **adding**
//! (or removing) a file, make cargo rebuild the calling test file, for
//! instance with `touch tests/corpus.rs`. Any change to an existing file,
//! or to the crate, also finds the new files.

//!
//! # Families
//!
//! `litmus_family!` makes a family of tests (what `gpu-litmus gen` writes
//! as files) a set of cargo tests with no file on disk, at module level:
//!
//! ```ignore
//! // tests/iriw_family.rs
//! gpu_litmus::litmus_family!(
//!     mod iriw = "IRIW WRC",           // shapes, separated by spaces ("" for none)
//!     cycle = "PodWW Rfe PodRR Fre",   // diy7 cycles, as many as wanted
//!     placements = "all",
//!     scopes = "cta,gpu",
//!     fences = "none,sc",
//!     fence_scopes = "same,cta",       // the fences' scope: the accesses' (same), or another
//!     fence_threads = "each",
//!     sem = "relaxed,acq_rel",
//!     memory = "global",
//! );
//! ```
//!
//! The settings are those of `gpu-litmus gen` (`fence_threads` for
//! `--fence-threads`, `fence_scopes` for `--fence-scopes`), with the same defaults and the same errors, shown
//! at the string at fault. Each test, deduplicated up to renaming, is a
//! function of the module named after it (`IRIW+cta01_2_3+gpu` is
//! `iriw::IRIW_cta01_2_3_gpu`); `iriw::TESTS` lists the names. The IR is
//! built and the PTX generated at compile time, as for `litmus!`.
//!
//! The tests declare **no verdict**: the generator has no model (the
//! macros do not depend on one), so each test asks the model for its
//! outcomes and, on a GPU, fails when the hardware shows one the model
//! forbids. To pin verdicts, so that a model change that flips one fails
//! the suite, write the family with `gpu-litmus gen ... --out DIR` (which
//! writes the model's verdicts in) and use `litmus_files!` on `DIR`.

#![warn(missing_docs)]

extern crate proc_macro;

#[cfg(test)]
mod embedded_ptx;
mod errors;
mod expand;
mod family;
mod files;
mod glob;
mod parse;
#[cfg(test)]
mod robustness;
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

/// One `#[test]` per `.litmus` file matching a glob, at module level:
/// `litmus_files!("tests/litmus/**/*.litmus");`, or, to keep the tests in a
/// module of their own, `litmus_files!(mod corpus = "tests/litmus/*.litmus");`.
/// See [Files](crate#files) in the crate docs.
#[proc_macro]
pub fn litmus_files(input: TokenStream) -> TokenStream {
    let Some(root) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        return syn::Error::new(
            proc_macro2::Span::call_site(),
            "CARGO_MANIFEST_DIR is not set: `litmus_files!` finds its files relative to the crate root, so it must be built by cargo",
        )
        .to_compile_error()
        .into();
    };
    files::expand(input.into(), std::path::Path::new(&root)).into()
}

/// A family of tests, one `#[test]` each, made at compile time with no
/// file on disk: `litmus_family!(mod iriw = "IRIW", placements = "all",
/// fences = "none,sc");`. See [Families](crate#families) in the crate docs.
#[proc_macro]
pub fn litmus_family(input: TokenStream) -> TokenStream {
    family::expand(input.into()).into()
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
        Form::Test => match kernel(&parsed) {
            Ok(ptx) => expand::test_fn(&parsed, ptx.as_deref()),
            Err(e) => e.to_compile_error(),
        },
        Form::Ir => expand::test_expr(&parsed.test),
    }
}

/// The PTX module of a valid test, made at compile time; `None` when the GPU
/// harness cannot run the test: the runtime then reports the hardware half
/// as not run, with the reason, and the model half still decides.
fn kernel(parsed: &parse::Parsed) -> syn::Result<Option<String>> {
    use litmus_ptx::{self as ptx, PtxError};
    match ptx::generate(&parsed.test) {
        Ok(text) => Ok(Some(text)),
        Err(PtxError::Unsupported(_)) => Ok(None),
        // Validation has passed, so the generator and the validator
        // disagree: a bug in litmus-ptx or litmus-core's validation,
        // reported rather than hidden.
        Err(e @ PtxError::Invalid(_)) => Err(syn::Error::new(
            parsed.ident.span(),
            format!("internal error: the PTX generator rejects a test that validation accepts ({e}); please report it"),
        )),
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
