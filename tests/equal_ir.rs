//! The same tests written with `litmus_ir!` and as `.litmus` files
//! (`tests/litmus/equal/<name>.litmus`) give equal IR: the two front ends
//! agree, form for form.

use gpu_litmus::core::ir::Test;
use gpu_litmus::litmus_ir;
use gpu_litmus::text;

/// Asserts that `from_macro` equals the test in `file`, docs included
/// (`Doc` equality ignores them), and that printing the macro's IR as text
/// reads back to the same IR.
fn assert_same(from_macro: Test, file: &str) {
    let path = format!("{}/tests/litmus/equal/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let from_text = text::parse(&src).unwrap_or_else(|e| panic!("{path}:\n{e}"));
    assert_eq!(
        from_macro, from_text,
        "{file}: the macro and the text differ"
    );
    assert_eq!(from_macro.doc.0, from_text.doc.0, "{file}: docs differ");
    assert_eq!(
        format!("{}.litmus", from_macro.name.text),
        file,
        "the file is named after the test"
    );
    let printed = text::print(&from_macro);
    let reread = text::parse(&printed).unwrap_or_else(|e| panic!("{printed}\n{e}"));
    assert_eq!(from_macro, reread, "printed:\n{printed}");
}

#[test]
fn mp_tfb_inter_cta() {
    let t = litmus_ir! {
        /// Message passing between CTAs with block-scoped fences.
        mp_tfb_inter_cta;
        global x = 0, y = 0;
        thread t0 @ cta 0 { St(x, 1); TFB; St(y, 1); }
        thread t1 @ cta 1 { r0 = Ld(y); TFB; r1 = Ld(x); }
        exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
    };
    assert_same(t, "mp_tfb_inter_cta.litmus");
}

#[test]
fn mp_shared_fence_cta() {
    let t = litmus_ir! {
        /// Message passing through shared memory, between warps of one CTA.
        mp_shared_fence_cta;
        shared x = 0, y = 0;
        thread P0 @ cta 0, warp 0 { St(x, 1); Fence.sc.cta; St(y, 1); }
        thread P1 @ cta 0, warp 1 { r0 = Ld(y); Fence.sc.cta; r1 = Ld(x); }
        exists (P1.r0 == 1 && P1.r1 == 0) => forbidden;
    };
    assert_same(t, "mp_shared_fence_cta.litmus");
}

#[test]
fn atomics_cas_exch_red() {
    let t = litmus_ir! {
        /// Atomics of several kinds on one lock word and one counter.
        atomics_cas_exch_red;
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
        exists (P0.r0 == 0 && P1.r0 == 0 || c == 6) => allowed;
    };
    assert_same(t, "atomics_cas_exch_red.litmus");
}

#[test]
fn sb_fence_scopes() {
    let t = litmus_ir! {
        /// Store buffering with fences of several scopes, across two GPUs.
        sb_fence_scopes;
        global x = 0, y = 0, z = 0;
        thread P0 @ cta 0, gpu 0 { St.relaxed.sys(x, 1); Fence.sc.sys; r0 = Ld.relaxed.sys(y); }
        thread P1 @ cta 0, gpu 1 { St.relaxed.sys(y, 1); Membar.sys; r0 = Ld.relaxed.sys(x); }
        thread P2 @ cta 1 {
            St.relaxed.gpu(z, 1);
            Fence.acq_rel.cta;
            Fence.sc.gpu;
            TF;
            r0 = Ld.relaxed.gpu(x);
        }
        ~exists (P0.r0 == 0 && P1.r0 == 0) => forbidden;
    };
    assert_same(t, "sb_fence_scopes.litmus");
}

#[test]
fn barrier_quorum() {
    let t = litmus_ir! {
        /// CTA barriers in the corpus and ISA forms, and the warp barrier.
        barrier_quorum;
        global x = 0, y = 0;
        thread P0 @ cta 0, warp 0 { St(x, 1); Bar.sync(1, 1, 2); BarSync(0); Bar.arrive(2); }
        thread P1 @ cta 0, warp 1 with r2 = 1 { Bar.cta.sync(1, r2, 2); r0 = Ld(x); BarSync(0); }
        thread P2 @ cta 0, warp 0 { St(y, 1); SyncWarp; BarArrive(3, 64); BarSync(0, 96); }
        exists (P1.r0 == 0) => forbidden;
    };
    assert_same(t, "barrier_quorum.litmus");
}

#[test]
fn lb_data_dependency() {
    let t = litmus_ir! {
        /// Load buffering where each store writes a value computed from the load.
        lb_data_dependency;
        global x = 0, y = 0;
        thread P0 @ cta 0 { r0 = Ld.relaxed.gpu(x); r1 = r0 + 1; St.relaxed.gpu(y, r1); }
        thread P1 @ cta 1 {
            r0 = Ld.relaxed.gpu(y);
            r1 = r0 ^ r0;
            r2 = r1 * 7;
            St.relaxed.gpu(x, r2);
        }
        exists (P0.r0 == 1 && !(P1.r0 != 1)) => forbidden;
    };
    assert_same(t, "lb_data_dependency.litmus");
}

#[test]
fn spin_branch() {
    let t = litmus_ir! {
        /// A consumer spins on a flag, then branches on the data it reads.
        spin_branch;
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
        exists (P1.r1 != 42 || P1.r2 == 0) => forbidden;
    };
    assert_same(t, "spin_branch.litmus");
}

#[test]
fn mp_cluster_cache() {
    let t = litmus_ir! {
        /// Distributed shared memory in a cluster, and cache operators on weak accesses.
        mp_cluster_cache;
        cluster_shared d = 0;
        global f = 0, g = -1;
        thread P0 @ cta 0, cluster 0 {
            St.wt(g, 7);
            St.relaxed.cluster(d, 1);
            Fence.release.cluster;
            St.relaxed.cluster(f, 1);
        }
        thread P1 @ cta 1, cluster 0 {
            r0 = Ld.relaxed.cluster(f);
            Fence.acquire.cluster;
            r1 = Ld.weak.cg(d);
            r2 = Ld.volatile(g);
            r3 = Ld.ca(g);
        }
        exists (P1.r0 == 1 && P1.r1 == 0) => forbidden;
    };
    assert_same(t, "mp_cluster_cache.litmus");
}

/// PTX 7.5: every alias declaration, proxy access and proxy fence of the
/// macro reads as the same IR as the dialect's (inline, since the model
/// cannot yet check proxy tests that `tests/litmus` would run).
#[test]
fn proxies_and_aliases() {
    let from_macro = litmus_ir! {
        proxies;
        global x = 0;
        alias y = generic(x), s = surface(x), t = texture(y), c = constant(x);
        thread P0 @ cta 0 {
            St(x, 1); Fence.proxy.alias; r0 = Ld(y);
            Sust(s, 2); Fence.proxy.surface; r1 = Suld(s);
            Fence.proxy.texture; r2 = Tld.weak(t);
            Fence.proxy.constant; r3 = Cold(c);
        }
        exists (P0.r0 == 1 && P0.r2 == 1);
    };
    let src = "PTX proxies\n{ x=0; y @ generic aliases x; s @ surface aliases x; t @ texture aliases y; c @ constant aliases x; }\n\
         P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n fence.proxy.alias ;\n ld.weak r0, y ;\n sust.weak s, 2 ;\n\
         fence.proxy.surface ;\n suld.weak r1, s ;\n fence.proxy.texture ;\n tld.weak r2, t ;\n\
         fence.proxy.constant ;\n cold.weak r3, c ;\nexists (P0:r0 == 1 /\\ P0:r2 == 1)";
    let from_text = text::parse(src).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(from_macro, from_text);
    let printed = text::print(&from_macro);
    assert_eq!(text::parse(&printed).unwrap(), from_macro, "{printed}");
}

#[test]
fn mp_host_consumer() {
    let t = litmus_ir! {
        /// A GPU producer, a host consumer, the flag and data in host memory.
        mp_host_consumer;
        host x = 0, y = 0;
        global g = 0;
        thread t0 @ cta 0 { St(x, 1); St.release.sys(y, 1); St.relaxed.gpu(g, 1); }
        thread h @ host {
            r0 = Ld.acquire(y); r1 = Ld(x); Fence.sc.sys; r2 = Ld.relaxed(g);
            r3 = Atom.add(x, 1);
        }
        exists (h.r0 == 1 && h.r1 == 0) => forbidden;
    };
    assert!(t.threads[1].placement.host);
    assert_eq!(t.locations[0].space, gpu_litmus::core::ir::Space::Host);
    // No scope on a host thread's atomic: `.sys`, in both front ends.
    let gpu_litmus::core::instr::InstrKind::Atom { access, .. } = &t.threads[1].body[4].kind else {
        panic!("{:?}", t.threads[1].body[4]);
    };
    assert_eq!(access.scope, Some(gpu_litmus::core::instr::Scope::Sys));
    assert_same(t, "mp_host_consumer.litmus");
}

#[test]
fn mp_homes() {
    let t = litmus_ir! {
        /// MP across two GPUs: the data in the reader's memory, the flag in
        /// the writer's, `gpu 0` written out once to show it is the default.
        mp_homes;
        gpu 1 x = 0;
        gpu 0 y = 0;
        global z = 0;
        thread t0 @ cta 0, gpu 0 { St.relaxed.sys(x, 1); St.relaxed.sys(y, 1); }
        thread t1 @ cta 0, gpu 1 { r0 = Ld.relaxed.sys(y); r1 = Ld.relaxed.sys(x); St(z, 1); }
        exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
    };
    let homes: Vec<u32> = t.locations.iter().map(|l| l.gpu).collect();
    assert_eq!(homes, [1, 0, 0]);
    assert_same(t, "mp_homes.litmus");
}
