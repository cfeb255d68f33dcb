//! The diy7 cycles of the classic shapes give the catalogue's hand-written
//! tests: the same IR up to names (threads, locations, registers, CTAs and
//! the numbering of written values), compared by the generator's canonical
//! form. The catalogue's tests are written out here with `litmus_ir!`, each
//! as in `tests/catalogue_*.rs` under the name given.

use std::collections::HashSet;

use gpu_litmus::core::ir::Test;
use gpu_litmus::gen::{canonical, cycle, family, same_up_to_names, shape, FamilySpec};
use gpu_litmus::litmus_ir;

/// The one test of `cycle` with the default options: threads in CTAs of
/// their own, relaxed `.gpu` accesses, global memory.
fn from_cycle(text: &str) -> Test {
    let skeleton = cycle::skeleton(text).unwrap_or_else(|e| panic!("{e}"));
    let mut f = family(&skeleton, &FamilySpec::default(), &mut HashSet::new()).unwrap();
    assert_eq!(f.tests.len(), 1);
    f.tests.remove(0)
}

fn assert_same(text: &str, catalogue: Test) {
    let generated = from_cycle(text);
    assert!(
        same_up_to_names(&generated, &catalogue),
        "`{text}` and {} differ:\n{}\n{}",
        catalogue.name,
        canonical(&generated),
        canonical(&catalogue)
    );
}

#[test]
fn mp() {
    let t = litmus_ir! {
        mp_relaxed_gpu_inter_cta;
        global x = 0, y = 0;
        thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.relaxed.gpu(y, 1); }
        thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); r1 = Ld.relaxed.gpu(x); }
        exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
    };
    assert_same("PodWW Rfe PodRR Fre", t.clone());
    // Where the cycle starts does not matter.
    assert_same("Rfe PodRR Fre PodWW", t);
}

#[test]
fn mp_with_fences_from_fenced_edges() {
    let t = litmus_ir! {
        mp_fence_sc_gpu_inter_cta;
        global x = 0, y = 0;
        thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.gpu; St.relaxed.gpu(y, 1); }
        thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); Fence.sc.gpu; r1 = Ld.relaxed.gpu(x); }
        exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
    };
    assert_same("Fence.sc.gpudWW Rfe Fence.sc.gpudRR Fre", t.clone());
    // The comparison sees the fences: MP without them is another test.
    assert!(!same_up_to_names(&from_cycle("PodWW Rfe PodRR Fre"), &t));
}

#[test]
fn sb() {
    assert_same(
        "PodWR Fre PodWR Fre",
        litmus_ir! {
            sb_relaxed_gpu_inter_cta;
            global x = 0, y = 0;
            thread t0 @ cta 0 { St.relaxed.gpu(x, 1); r0 = Ld.relaxed.gpu(y); }
            thread t1 @ cta 1 { St.relaxed.gpu(y, 1); r0 = Ld.relaxed.gpu(x); }
            exists (t0.r0 == 0 && t1.r0 == 0) => allowed;
        },
    );
}

#[test]
fn lb() {
    assert_same(
        "PodRW Rfe PodRW Rfe",
        litmus_ir! {
            lb_relaxed_gpu_inter_cta;
            global x = 0, y = 0;
            thread t0 @ cta 0 { r0 = Ld.relaxed.gpu(x); St.relaxed.gpu(y, 1); }
            thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); St.relaxed.gpu(x, 1); }
            exists (t0.r0 == 1 && t1.r0 == 1) => allowed;
        },
    );
}

#[test]
fn wrc() {
    assert_same(
        "Rfe PodRW Rfe PodRR Fre",
        litmus_ir! {
            wrc_relaxed_gpu_inter_cta;
            global x = 0, y = 0;
            thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
            thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); St.relaxed.gpu(y, 1); }
            thread t2 @ cta 2 { r0 = Ld.relaxed.gpu(y); r1 = Ld.relaxed.gpu(x); }
            exists (t1.r0 == 1 && t2.r0 == 1 && t2.r1 == 0) => allowed;
        },
    );
}

#[test]
fn iriw() {
    assert_same(
        "Rfe PodRR Fre Rfe PodRR Fre",
        litmus_ir! {
            iriw_relaxed_gpu_inter_cta;
            global x = 0, y = 0;
            thread t0 @ cta 0 { St.relaxed.gpu(x, 1); }
            thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(x); r1 = Ld.relaxed.gpu(y); }
            thread t2 @ cta 2 { St.relaxed.gpu(y, 1); }
            thread t3 @ cta 3 { r0 = Ld.relaxed.gpu(y); r1 = Ld.relaxed.gpu(x); }
            exists (t1.r0 == 1 && t1.r1 == 0 && t3.r0 == 1 && t3.r1 == 0) => allowed;
        },
    );
}

#[test]
fn isa2() {
    assert_same(
        "PodWW Rfe PodRW Rfe PodRR Fre",
        litmus_ir! {
            isa2_relaxed_gpu_inter_cta;
            global x = 0, y = 0, z = 0;
            thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.relaxed.gpu(y, 1); }
            thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); St.relaxed.gpu(z, 1); }
            thread t2 @ cta 2 { r0 = Ld.relaxed.gpu(z); r1 = Ld.relaxed.gpu(x); }
            exists (t1.r0 == 1 && t2.r0 == 1 && t2.r1 == 0) => allowed;
        },
    );
}

#[test]
fn two_plus_two_w() {
    // The catalogue numbers each thread's writes 1, 2 in program order,
    // diy7 by coherence: the same test once values are renamed.
    assert_same(
        "PodWW Wse PodWW Wse",
        litmus_ir! {
            two_plus_two_w_relaxed_gpu_inter_cta;
            global x = 0, y = 0;
            thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.relaxed.gpu(y, 2); }
            thread t1 @ cta 1 { St.relaxed.gpu(y, 1); St.relaxed.gpu(x, 2); }
            exists (x == 1 && y == 1) => allowed;
        },
    );
}

#[test]
fn r() {
    assert_same(
        "PodWW Wse PodWR Fre",
        litmus_ir! {
            r_relaxed_gpu_inter_cta;
            global x = 0, y = 0;
            thread t0 @ cta 0 { St.relaxed.gpu(x, 1); St.relaxed.gpu(y, 1); }
            thread t1 @ cta 1 { St.relaxed.gpu(y, 2); r0 = Ld.relaxed.gpu(x); }
            exists (y == 2 && t1.r0 == 0) => allowed;
        },
    );
}

#[test]
fn s() {
    assert_same(
        "PodWW Rfe PodRW Wse",
        litmus_ir! {
            s_relaxed_gpu_inter_cta;
            global x = 0, y = 0;
            thread t0 @ cta 0 { St.relaxed.gpu(x, 2); St.relaxed.gpu(y, 1); }
            thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); St.relaxed.gpu(x, 1); }
            exists (t1.r0 == 1 && x == 2) => allowed;
        },
    );
}

#[test]
fn shapes_by_name_are_their_cycles() {
    for (name, text) in gpu_litmus::gen::SHAPES {
        let by_name = family(
            &shape(name).unwrap(),
            &FamilySpec::default(),
            &mut HashSet::new(),
        )
        .unwrap()
        .tests
        .remove(0);
        assert!(same_up_to_names(&by_name, &from_cycle(text)), "{name}");
    }
}

#[test]
fn different_shapes_are_different_tests() {
    let all: Vec<String> = gpu_litmus::gen::SHAPES
        .iter()
        .map(|(_, text)| canonical(&from_cycle(text)))
        .collect();
    let unique: HashSet<&String> = all.iter().collect();
    assert_eq!(unique.len(), all.len());
}
