//! The PTX module `litmus!` embeds is the one a `.litmus` file of the same
//! test gets at run time: the second argument of `run_litmus` in the
//! expansion is compared with `ptx::generate` of the parsed text.

use litmus_ptx::{self as ptx, PtxError};
use litmus_text as text;
use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::{Expr, Lit, Token};

use crate::{expand, Form};

/// The PTX argument of the `run_litmus(..)` call in a `litmus!` expansion:
/// `Some(text)` for `Some("..")`, `None` for `None`.
fn embedded(expansion: TokenStream) -> Option<Option<String>> {
    let mut tokens = expansion.into_iter().peekable();
    while let Some(tt) = tokens.next() {
        match tt {
            TokenTree::Ident(i) if i == "run_litmus" => {
                let Some(TokenTree::Group(args)) = tokens.next() else {
                    panic!("`run_litmus` without arguments");
                };
                let args = syn::parse::Parser::parse2(
                    Punctuated::<Expr, Token![,]>::parse_terminated,
                    args.stream(),
                )
                .expect("the arguments of run_litmus are expressions");
                assert_eq!(args.len(), 2, "run_litmus takes the test and the PTX");
                return Some(match &args[1] {
                    Expr::Path(p) if p.path.segments.last().unwrap().ident == "None" => None,
                    Expr::Call(call) => match &call.args[0] {
                        Expr::Lit(l) => match &l.lit {
                            Lit::Str(s) => Some(s.value()),
                            other => panic!("PTX is not a string: {}", other.to_token_stream()),
                        },
                        other => panic!("PTX is not a literal: {}", other.to_token_stream()),
                    },
                    other => panic!("unexpected PTX argument: {}", other.to_token_stream()),
                });
            }
            TokenTree::Group(g) => {
                if let Some(found) = embedded(g.stream()) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

/// Expands `call` as `litmus!`, parses `file` as a `.litmus` text, and
/// checks that both give the same PTX (or both none); returns it.
fn same_ptx(call: &str, file: &str) -> Option<String> {
    let out = expand(call.parse().unwrap(), Form::Test);
    assert!(!out.to_string().contains("compile_error"), "{out}");
    let from_macro = embedded(out).expect("the expansion calls run_litmus");
    let test = text::parse(file).unwrap_or_else(|e| panic!("{e}\n{file}"));
    let from_text = match ptx::generate(&test) {
        Ok(text) => Some(text),
        Err(PtxError::Unsupported(_)) => None,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(from_macro, from_text, "the macro and the file differ");
    from_macro
}

#[test]
fn message_passing_across_ctas() {
    let ptx = same_ptx(
        "/// Message passing between CTAs with block-scoped fences.
        mp_tfb_inter_cta;
        global x = 0, y = 0;
        thread t0 @ cta 0 { St(x, 1); TFB; St(y, 1); }
        thread t1 @ cta 1 { r0 = Ld(y); TFB; r1 = Ld(x); }
        exists (t1.r0 == 1 && t1.r1 == 0) => allowed;",
        r#"PTX mp_tfb_inter_cta
"Message passing between CTAs with block-scoped fences."
{ x=0; y=0; }
 t0@cta 0,gpu 0 | t1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 membar.cta     | membar.cta     ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (t1:r0 == 1 /\ t1:r1 == 0) => allowed"#,
    )
    .expect("the harness runs MP");
    assert!(ptx.contains("membar.cta"), "{ptx}");
    assert!(ptx.contains(".entry litmus_test("), "{ptx}");
}

#[test]
fn shared_memory_between_warps() {
    same_ptx(
        "mp_shared_fence_cta;
        shared x = 0, y = 0;
        thread P0 @ cta 0, warp 0 { St(x, 1); Fence.sc.cta; St(y, 1); }
        thread P1 @ cta 0, warp 1 { r0 = Ld(y); Fence.sc.cta; r1 = Ld(x); }
        exists (P1.r0 == 1 && P1.r1 == 0) => forbidden;",
        r"PTX mp_shared_fence_cta
{ shared x=0; shared y=0; }
 P0@cta 0,gpu 0,warp 0 | P1@cta 0,gpu 0,warp 1 ;
 st.weak x, 1          | ld.weak r0, y         ;
 fence.sc.cta          | fence.sc.cta          ;
 st.weak y, 1          | ld.weak r1, x         ;
exists (P1:r0 == 1 /\ P1:r1 == 0) => forbidden",
    )
    .expect("the harness runs shared memory");
}

#[test]
fn atomics_and_initial_registers() {
    same_ptx(
        "atomics_cas_exch_red;
        global m = 0, c = 5;
        thread P0 @ cta 0 {
            r0 = Atom.acq_rel.gpu.cas(m, 0, 1);
            Red.release.gpu.add(c, 1);
            Red.relaxed.cta.xor(c, r0);
        }
        thread P1 @ cta 1 with r2 = 1 {
            r0 = Atom.acquire.gpu.exch(m, r2);
            r1 = Atom.relaxed.sys.max(c, -3);
            Red.inc(c, 2);
        }
        exists (P0.r0 == 0 && P1.r0 == 0 || c == 6) => allowed;",
        r"PTX atomics_cas_exch_red
{ m=0; c=5; P1:r2=1; }
 P0@cta 0,gpu 0                   | P1@cta 1,gpu 0                 ;
 atom.acq_rel.gpu.cas r0, m, 0, 1 | atom.acquire.gpu.exch r0, m, r2 ;
 red.release.gpu.add c, 1         | atom.relaxed.sys.max r1, c, -3  ;
 red.relaxed.cta.xor c, r0        | red.inc c, 2                    ;
exists (P0:r0 == 0 /\ P1:r0 == 0 \/ c == 6) => allowed",
    )
    .expect("the harness runs atomics");
}

#[test]
fn branches_and_loops() {
    same_ptx(
        "spin_branch;
        global data = 0, flag = 0;
        thread P0 @ cta 0 { St(data, 42); St.release.gpu(flag, 1); }
        thread P1 @ cta 1 {
        LC00:
            r0 = Ld.acquire.gpu(flag);
            beq(r0, 0, LC00);
            r1 = Ld(data);
            bne(r1, 42, LC01);
            r2 = 1;
            goto LC02;
        LC01:
            r2 = r1;
        LC02:
        }
        exists (P1.r1 != 42 || P1.r2 == 0) => forbidden;",
        r"PTX spin_branch
{ data=0; flag=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0          ;
 st.weak data, 42       | LC00:                   ;
 st.release.gpu flag, 1 | ld.acquire.gpu r0, flag ;
                        | beq r0, 0, LC00         ;
                        | ld.weak r1, data        ;
                        | bne r1, 42, LC01        ;
                        | ld r2, 1                ;
                        | goto LC02               ;
                        | LC01:                   ;
                        | mov r2, r1              ;
                        | LC02:                   ;
exists (P1:r1 != 42 \/ P1:r2 == 0) => forbidden",
    )
    .expect("the harness runs branches");
}

#[test]
fn barriers() {
    same_ptx(
        "bar;
        global x = 0;
        thread P0 @ cta 0, warp 0 { St(x, 1); BarSync(0); }
        thread P1 @ cta 0, warp 1 { BarSync(0); r0 = Ld(x); }
        exists (P1.r0 == 0) => forbidden;",
        r"PTX bar
{ x=0; }
 P0@cta 0,gpu 0,warp 0 | P1@cta 0,gpu 0,warp 1 ;
 st.weak x, 1          | bar.sync 0            ;
 bar.sync 0            | ld.weak r0, x         ;
exists (P1:r0 == 0) => forbidden",
    );
}

/// A test the harness cannot run (a thread on GPU 8, past the most GPUs
/// it runs) still compiles: its PTX is `None`, and the runtime says why
/// the hardware half did not run.
#[test]
fn a_test_the_harness_cannot_run_embeds_none() {
    let ptx = same_ptx(
        "nine_gpus;
        global x = 0;
        thread P0 @ cta 0, gpu 0 { St.relaxed.sys(x, 1); }
        thread P1 @ cta 0, gpu 8 { r0 = Ld.relaxed.sys(x); }
        exists (P1.r0 == 1) => allowed;",
        r"PTX nine_gpus
{ x=0; }
 P0@cta 0,gpu 0        | P1@cta 0,gpu 8        ;
 st.relaxed.sys x, 1   | ld.relaxed.sys r0, x  ;
exists (P1:r0 == 1) => allowed",
    );
    assert_eq!(ptx, None);
}

/// A test on two GPUs: the macro embeds the same PTX as the file, one
/// kernel that takes the start flag and the logical GPU it plays.
#[test]
fn a_test_on_two_gpus_embeds_one_kernel_for_both() {
    let ptx = same_ptx(
        "two_gpus;
        global x = 0;
        thread P0 @ cta 0, gpu 0 { St.relaxed.sys(x, 1); }
        thread P1 @ cta 0, gpu 1 { r0 = Ld.relaxed.sys(x); }
        exists (P1.r0 == 1) => allowed;",
        r"PTX two_gpus
{ x=0; }
 P0@cta 0,gpu 0        | P1@cta 0,gpu 1        ;
 st.relaxed.sys x, 1   | ld.relaxed.sys r0, x  ;
exists (P1:r0 == 1) => allowed",
    )
    .expect("the harness runs two GPUs");
    assert!(ptx.contains(
        ".param .u64 p_go,\n\t.param .u64 p_go_target,\n\t.param .u64 p_gpu,\n\t.param .u64 p_relay0,\n\t.param .u64 p_relay1,\n\t.param .align 4 .b8 p_knobw["
    ));
}

/// A host thread and host memory: the harness runs them, and the macro
/// embeds the same PTX as the file (the host buffer and start flag among
/// its parameters); a host thread that reaches GPU memory it cannot run,
/// and embeds none.
#[test]
fn host_threads_and_host_memory_embed_their_ptx() {
    let host_thread = same_ptx(
        "host_thread;
        host x = 0;
        thread P0 @ cta 0 { St.relaxed.sys(x, 1); }
        thread h @ host { r0 = Ld.relaxed(x); }
        exists (h.r0 == 1) => allowed;",
        r"PTX host_thread
{ host x=0; }
 P0@cta 0,gpu 0      | h@host           ;
 st.relaxed.sys x, 1 | ld.relaxed r0, x ;
exists (h:r0 == 1) => allowed",
    )
    .expect("a host thread on host memory runs");
    assert!(host_thread.contains("p_host") && host_thread.contains("p_go"));
    let gpu_memory = same_ptx(
        "host_thread_gpu_memory;
        global x = 0;
        thread P0 @ cta 0 { St.relaxed.sys(x, 1); }
        thread h @ host { r0 = Ld.relaxed(x); }
        exists (h.r0 == 1) => allowed;",
        r"PTX host_thread_gpu_memory
{ x=0; }
 P0@cta 0,gpu 0      | h@host           ;
 st.relaxed.sys x, 1 | ld.relaxed r0, x ;
exists (h:r0 == 1) => allowed",
    );
    assert_eq!(gpu_memory, None);
    let host_memory = same_ptx(
        "host_memory;
        host x = 0;
        thread P0 @ cta 0 { St.relaxed.sys(x, 1); }
        thread P1 @ cta 1 { r0 = Ld.relaxed.sys(x); }
        exists (P1.r0 == 1) => allowed;",
        r"PTX host_memory
{ host x=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.relaxed.sys x, 1 | ld.relaxed.sys r0, x ;
exists (P1:r0 == 1) => allowed",
    )
    .expect("host memory alone runs");
    assert!(host_memory.contains("p_host") && !host_memory.contains("p_go"));
}
