//! PTX generation, checked without a GPU: snapshots of whole modules (so a
//! change to codegen shows up in review), and the PTX each IR instruction
//! becomes. `LITMUS_UPDATE_SNAPSHOTS=1 cargo test -p litmus-ptx --test
//! ptx_codegen` rewrites the snapshots.

use std::path::PathBuf;

use litmus_ptx::{self as ptx, PtxError};
use litmus_text as text;

fn ptx_of(src: &str) -> Result<String, PtxError> {
    let test = text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("inline")));
    ptx::generate(&test)
}

const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

const SB_SHARED: &str = "PTX SB-shared\n{ shared x=0; shared y=0; }\n P0@cta 0,gpu 0,warp 0 | P1@cta 0,gpu 0,warp 1 ;\n st.weak x, 1 | st.weak y, 1 ;\n fence.acq_rel.cta | membar.cta ;\n ld.weak r0, y | ld.weak r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

const SPINLOCK: &str = "PTX spinlock\n{ m=0; x=5; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n LC00: | LC00: ;\n atom.acquire.gpu.cas r0, m, 0, 1 | atom.acquire.gpu.cas r0, m, 0, 1 ;\n bne r0, 0, LC00 | bne r0, 0, LC00 ;\n ld.weak.cg r1, x | ld.volatile r1, x ;\n add r2, r1, 1 | sub r2, r1, 1 ;\n st.weak.wt x, r2 | st.volatile x, r2 ;\n atom.release.gpu.exch r3, m, 0 | red.release.gpu.add m, -1 ;\n fence.sc.sys | atom.acq_rel.sys.sub r4, x, 2 ;\nexists (x == 5)\n";

fn check_snapshot(name: &str, src: &str) {
    let got = ptx_of(src).unwrap();
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/snapshots/{name}.ptx"));
    if std::env::var("LITMUS_UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with LITMUS_UPDATE_SNAPSHOTS=1 to write it",
            path.display()
        )
    });
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .map_or(0, |l| l + 1);
        panic!(
            "generated PTX for {name} differs from {} (first at line {line}); review the change, then LITMUS_UPDATE_SNAPSHOTS=1",
            path.display()
        );
    }
}

#[test]
fn snapshot_mp() {
    check_snapshot("mp", MP);
}

#[test]
fn snapshot_sb_shared_with_warps() {
    check_snapshot("sb_shared", SB_SHARED);
}

#[test]
fn snapshot_spinlock() {
    check_snapshot("spinlock", SPINLOCK);
}

#[test]
fn module_header_names_the_lowest_isa_and_target_its_instructions_need() {
    // Relaxed accesses: PTX 6.0 on Volta, so every GPU since runs it.
    let ptx = ptx_of(MP).unwrap();
    assert!(
        ptx.contains(".version 6.2\n.target sm_70\n.address_size 64"),
        "{ptx}"
    );
    assert!(ptx.contains(".visible .entry litmus_test("));
    assert!(ptx.contains(".visible .entry litmus_classify("));
}

#[test]
fn accesses_keep_their_semantics_scope_space_and_cache_operator() {
    let mp = ptx_of(MP).unwrap();
    assert!(mp.contains("st.relaxed.gpu.global.u32 ["));
    assert!(mp.contains("ld.relaxed.gpu.global.u32 %t1r0, ["));
    let sb = ptx_of(SB_SHARED).unwrap();
    assert!(sb.contains("st.shared.u32 ["), "weak shared store");
    assert!(sb.contains("ld.shared.u32 %t0r0, ["), "weak shared load");
    assert!(sb.contains("fence.acq_rel.cta;"));
    assert!(sb.contains("membar.cta;"));
    assert!(sb.contains(".extern .shared .align 4 .b32 litmus_smem[];"));
    let sl = ptx_of(SPINLOCK).unwrap();
    assert!(
        sl.contains("ld.global.cg.u32 %t0r1, ["),
        "cache operator on a weak load"
    );
    assert!(
        sl.contains("st.global.wt.u32 ["),
        "cache operator on a weak store"
    );
    assert!(sl.contains("ld.volatile.global.u32 %t1r1, ["));
    assert!(sl.contains("st.volatile.global.u32 ["));
    assert!(sl.contains("fence.sc.sys;"));
}

fn generic_addressing() -> ptx::Codegen {
    ptx::Codegen {
        addressing: ptx::Addressing::Generic,
        ..ptx::Codegen::default()
    }
}

/// The declared-CTA offsets that a module multiplies by `2·lane + 1`: each
/// `shl.b32 s, lane, 1; or.b32 s, s, 1; mad.lo.u32 inst, s, OFFSET, unit`.
fn spread_offsets(ptx: &str) -> Vec<u32> {
    let lines: Vec<&str> = ptx.lines().map(str::trim).collect();
    let mut out = Vec::new();
    for w in lines.windows(3) {
        let Some(rest) = w[0].strip_prefix("shl.b32 ") else {
            continue;
        };
        let Some((s, tail)) = rest.split_once(", ") else {
            continue;
        };
        if !tail.ends_with(", 1;") || w[1] != format!("or.b32 {s}, {s}, 1;") {
            continue;
        }
        let Some(mad) = w[2].strip_prefix("mad.lo.u32 ") else {
            continue;
        };
        let parts: Vec<&str> = mad.trim_end_matches(';').split(", ").collect();
        if parts.len() == 4 && parts[1] == s {
            out.push(parts[2].parse().unwrap());
        }
    }
    out
}

#[test]
fn a_spread_by_lane_is_generated_only_when_asked() {
    let iriw = "PTX IRIW\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 | ld.relaxed.gpu r0, x | ld.relaxed.gpu r2, y ;\n | | ld.relaxed.gpu r1, y | ld.relaxed.gpu r3, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r2 == 1 /\\ P3:r3 == 0)\n";
    let spread = ptx::Codegen {
        spread_by_lane: true,
        ..ptx::Codegen::default()
    };
    for (src, offsets) in [(MP, vec![1]), (iriw, vec![1, 2, 3])] {
        let test = text::parse(src).unwrap();
        let plain = ptx::generate(&test).unwrap();
        assert_eq!(spread_offsets(&plain), Vec::<u32>::new());
        let spread = ptx::generate_with(&test, spread).unwrap();
        assert_eq!(spread_offsets(&spread), offsets, "{}", test.name);
    }
    // Declared warps (one role per warp) keep neighbouring CTAs.
    let sb = text::parse(SB_SHARED).unwrap();
    assert_eq!(
        ptx::generate_with(&sb, spread).unwrap(),
        ptx::generate(&sb).unwrap()
    );
}

#[test]
fn generic_addressing_drops_the_global_space_from_the_roles_accesses_only() {
    let test = text::parse(SPINLOCK).unwrap();
    let global = ptx::generate(&test).unwrap();
    assert_eq!(
        ptx::generate_with(&test, ptx::Codegen::default()).unwrap(),
        global
    );
    let generic = ptx::generate_with(&test, generic_addressing()).unwrap();
    for (g, want) in [
        ("ld.global.cg.u32 %t0r1, [", "ld.cg.u32 %t0r1, ["),
        ("st.global.wt.u32 [", "st.wt.u32 ["),
        (
            "ld.volatile.global.u32 %t1r1, [",
            "ld.volatile.u32 %t1r1, [",
        ),
        ("atom.acquire.gpu.global.cas", "atom.acquire.gpu.cas"),
    ] {
        assert!(global.contains(g), "{g}");
        assert!(!generic.contains(g) && generic.contains(want), "{want}");
    }
    // The harness's own accesses keep theirs: the knob words from the
    // parameter space, the classifier's reads from global memory.
    let harness = |m: &str| {
        (
            m.matches("ld.param.u32").count(),
            m.matches("ld.global.u32").count() + m.matches("atom.global.exch").count(),
        )
    };
    assert!(harness(&generic).0 > 0 && harness(&generic).1 > 0);
    assert_eq!(harness(&generic), harness(&global));
    let mp = ptx::generate_with(&text::parse(MP).unwrap(), generic_addressing()).unwrap();
    assert!(
        mp.contains("ld.relaxed.gpu.u32 %t1r0, [")
            && !mp.contains("ld.relaxed.gpu.global.u32 %t1r0")
    );
}

#[test]
fn atomics_map_to_atom_and_red() {
    let sl = ptx_of(SPINLOCK).unwrap();
    assert!(
        sl.contains("atom.acquire.gpu.global.cas.b32 %t0r0, ["),
        "{sl}"
    );
    assert!(sl.contains("atom.release.gpu.global.exch.b32 %t0r3, ["));
    assert!(sl.contains("red.release.gpu.global.add.u32 ["));
    // PTX has no atomic subtract: the negated operand is added.
    assert!(sl.contains("neg.s32"));
    assert!(sl.contains("atom.acq_rel.sys.global.add.u32 %t1r3, ["));
}

#[test]
fn loops_are_bounded_and_forward_branches_are_not() {
    let sl = ptx_of(SPINLOCK).unwrap();
    // The backward `bne` counts its iterations and gives up past the bound.
    let role0 = &sl[sl.find("// role 0").unwrap()..sl.find("// role 1").unwrap()];
    assert!(
        role0.contains("setp.eq.u32"),
        "bne branches past the jump when equal"
    );
    assert!(role0.contains("bra $L_giveup0_"), "{role0}");
    let fwd = "PTX fwd\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.relaxed.gpu r0, x ;\n beq r0, 0, L1 ;\n st.relaxed.gpu x, 2 ;\n L1: ;\nexists (P0:r0 == 0)\n";
    let p = ptx_of(fwd).unwrap();
    let role = &p[p.find("// role 0").unwrap()..];
    assert!(
        !role.contains("bra $L_giveup0_"),
        "a forward branch needs no bound"
    );
}

#[test]
fn registers_start_at_their_initial_values() {
    let src = "PTX init\n{ x=0; P0:r5=7; }\n P0@cta 0,gpu 0 ;\n st.relaxed.gpu x, r5 ;\nexists (x == 7)\n";
    let p = ptx_of(src).unwrap();
    assert!(p.contains("mov.u32 %t0r0, 7;"), "{p}");
}

const SB_BAR: &str = "PTX sb_bar\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 | st.weak y, 2 ;\n bar.cta.sync 3 | bar.cta.sync 3 | ;\n ld.weak r0, y | ld.weak r1, x | ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

#[test]
fn barriers_run_one_role_per_warp_on_hardware_barriers() {
    let test = text::parse(SB_BAR).unwrap();
    let layout = ptx::Layout::of(&test).unwrap();
    match &layout.mode {
        ptx::layout::Mode::RolePerWarp {
            ctas,
            warps,
            roles_of,
            barriers,
        } => {
            assert_eq!((*ctas, *warps), (2, 2));
            assert_eq!(roles_of, &vec![vec![0, 1], vec![2]]);
            // Both roles of CTA 0 reach barrier 3: 64 threads.
            assert_eq!(barriers.get(&(0, 1)), Some(&(3, 64)));
            assert_eq!(barriers.get(&(1, 1)), Some(&(3, 64)));
        }
        other => panic!("expected role-per-warp, got {other:?}"),
    }
    let p = ptx::generate(&test).unwrap();
    assert_eq!(p.matches("bar.sync 3, 64;").count(), 2, "{p}");
    assert!(p.contains("div.u32"), "CTAs are split by declared CTA");
    check_snapshot("sb_bar", SB_BAR);
}

#[test]
fn what_the_harness_cannot_run_is_refused_with_the_reason() {
    let refused = |src: &str, needle: &str| {
        let e = ptx_of(src).unwrap_err();
        assert!(matches!(e, PtxError::Unsupported(_)), "{e}");
        assert!(e.to_string().contains(needle), "{needle:?} not in: {e}");
    };
    refused(
        &MP.replace("P1@cta 1,gpu 0", "P1@cta 0,gpu 8"),
        "thread `P1` is placed on GPU 8: the harness runs at most 8 GPUs",
    );
    // PTX 7.5 proxies: a surface cannot alias global memory (the other
    // refusals are in ptx_proxies.rs).
    refused(
        &MP.replace("{", "{ xs @ surface aliases x;")
            .replace("ld.relaxed.gpu r1, x", "suld.weak r1, xs"),
        "`xs` is a surface alias of `x`: CUDA surfaces bind only CUDA arrays",
    );
    refused(
        &MP.replace("P0@cta 0,gpu 0", "P0@cta 1,gpu 0,cluster 0")
            .replace("P1@cta 1,gpu 0", "P1@cta 1,gpu 0,cluster 1"),
        "share CTA 1 but not a cluster",
    );
    let nine: Vec<String> = (0..9)
        .map(|c| format!("P{c}@cta {c},gpu 0,cluster 0"))
        .collect();
    let stores: Vec<&str> = (0..9).map(|_| "st.relaxed.gpu x, 1").collect();
    refused(
        &format!(
            "PTX nine\n{{ x=0; }}\n {} ;\n {} ;\nexists (x == 1)\n",
            nine.join(" | "),
            stores.join(" | ")
        ),
        "a cluster of 9 CTAs",
    );
    // A barrier only one of two roles of a CTA takes: a deadlock.
    refused(
        &SB_BAR.replace(
            " bar.cta.sync 3 | bar.cta.sync 3 | ;",
            " bar.cta.sync 3 | bar.cta.sync 4 | ;",
        ),
        "different barriers",
    );
    refused(
        &SB_BAR
            .replace(
                "bar.cta.sync 3 | bar.cta.sync 3",
                "bar.cta.sync 3, r9 | bar.cta.sync 3, r9",
            )
            .replace("{ x=0; y=0; }", "{ x=0; y=0; P0:r9=1; P1:r9=1; }"),
        "register",
    );
    refused(
        &SB_BAR.replace(
            "bar.cta.sync 3 | bar.cta.sync 3",
            "bar.cta.sync 3, 3, 1 | bar.cta.sync 3, 3, 1",
        ),
        "waits for 1 threads but 2 reach it",
    );
    refused(
        &SB_BAR.replace(
            "bar.cta.sync 3 | bar.cta.sync 3",
            "bar.cta.sync 15 | bar.cta.sync 15",
        ),
        "keeps 15",
    );
    let branchy = "PTX b\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n ld.weak r0, x | st.weak x, 1 ;\n beq r0, 1, L | bar.cta.sync 0 ;\n bar.cta.sync 0 | ;\n L: | ;\nexists (P0:r0 == 0)\n";
    refused(branchy, "branches and CTA barriers");
}

#[test]
fn an_invalid_test_gets_no_ptx() {
    let mut test = text::parse(MP).unwrap();
    test.threads[0].name = test.threads[1].name.clone();
    let e = ptx::generate(&test).unwrap_err();
    assert!(matches!(e, PtxError::Invalid(_)), "{e}");
    assert!(e.to_string().contains("duplicate thread"), "{e}");
}

const MP_DSMEM: &str = "PTX mp_dsmem\n{ shared::cluster x=0; shared::cluster y=0; }\n P0@cta 0,gpu 0,cluster 0 | P1@cta 1,gpu 0,cluster 0 ;\n st.relaxed.cluster x, 1 | ld.relaxed.cluster r0, y ;\n st.relaxed.cluster y, 1 | ld.relaxed.cluster r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

#[test]
fn clusters_launch_fixed_size_and_reach_distributed_shared_memory() {
    let test = text::parse(MP_DSMEM).unwrap();
    let layout = ptx::Layout::of(&test).unwrap();
    assert_eq!(layout.cluster_size, 2);
    assert_eq!(
        layout
            .roles
            .iter()
            .map(|r| (r.cluster_offset, r.rank))
            .collect::<Vec<_>>(),
        vec![(0, 0), (0, 1)]
    );
    let p = ptx::generate(&test).unwrap();
    for needle in [
        ".reqnctapercluster 2, 1, 1",
        "%cluster_ctarank;",
        "mapa.shared::cluster.u32",
        "st.relaxed.cluster.shared::cluster.u32 [",
        "ld.relaxed.cluster.shared::cluster.u32 %t1r0, [",
        "barrier.cluster.arrive.release;",
        "barrier.cluster.wait.acquire;",
    ] {
        assert!(p.contains(needle), "{needle:?} missing");
    }
    check_snapshot("mp_dsmem", MP_DSMEM);
    // Global memory between the CTAs of one cluster: no cluster barrier.
    let global = MP_DSMEM.replace("shared::cluster x=0; shared::cluster y=0;", "x=0; y=0;");
    let g = ptx_of(&global).unwrap();
    assert!(g.contains(".reqnctapercluster 2, 1, 1") && !g.contains("barrier.cluster"));
}

/// A test of the catalogue's async-proxy folder (`tests/async` at the
/// workspace's root).
fn async_test(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/async")
        .join(format!("{name}.litmus"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn snapshot_tma_load_wait_read() {
    // A bulk load into a 16-byte slot, completing an 8-byte mbarrier that
    // the set-up initialised, waited on, then read: one thread.
    check_snapshot("tma_load_wait_read", &async_test("tma_load_wait_read"));
}

#[test]
fn snapshot_mp_bulk_store_wait() {
    // A bulk store from shared memory to a global slot, its group
    // committed and waited for, then a release another CTA acquires.
    check_snapshot("mp_bulk_store_wait", &async_test("mp_bulk_store_wait"));
}

#[test]
fn snapshot_mbarrier_remote_arrive_cluster() {
    // A remote arrive on the cluster peer's mbarrier (mapa), waited on in
    // the CTA that holds it.
    check_snapshot(
        "mbarrier_remote_arrive_cluster",
        &async_test("mbarrier_remote_arrive_cluster"),
    );
}
