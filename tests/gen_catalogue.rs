//! The diy7 cycles of the classic shapes give the catalogue's hand-written
//! tests: the same IR up to names (threads, locations, registers, CTAs and
//! the numbering of written values), compared by the generator's canonical
//! form.
//!
//! The catalogue is reached without a copy, as `outcome_search.rs` does:
//! each `tests/catalogue_*.rs` is compiled again as a module of this test,
//! where the file's `use gpu_litmus::litmus` picks up the `litmus!` below,
//! which turns each call into a function giving the call's IR.

extern crate gpu_litmus as library;
extern crate self as gpu_litmus;

use std::collections::HashSet;

use library::core::ir::Test;
use library::gen::{canonical, cycle, family, same_up_to_names, shape, FamilySpec};

/// Each catalogue call becomes a function returning its IR (most are not
/// compared with a cycle).
macro_rules! catalogue_ir {
    ($(#[doc = $doc:literal])* $name:ident; $($body:tt)*) => {
        #[allow(dead_code)]
        pub fn $name() -> library::core::ir::Test {
            library::litmus_ir! { $name; $($body)* }
        }
    };
}
pub(crate) use catalogue_ir as litmus;

include!("catalogue_support/modules.rs");

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
    let t = catalogue_mp::mp_relaxed_gpu_inter_cta();
    assert_same("PodWW Rfe PodRR Fre", t.clone());
    // Where the cycle starts does not matter.
    assert_same("Rfe PodRR Fre PodWW", t);
}

#[test]
fn mp_with_fences_from_fenced_edges() {
    let t = catalogue_mp::mp_fence_sc_gpu_inter_cta();
    assert_same("Fence.sc.gpudWW Rfe Fence.sc.gpudRR Fre", t.clone());
    // The comparison sees the fences: MP without them is another test.
    assert!(!same_up_to_names(&from_cycle("PodWW Rfe PodRR Fre"), &t));
}

#[test]
fn sb() {
    assert_same(
        "PodWR Fre PodWR Fre",
        catalogue_sb_lb::sb_relaxed_gpu_inter_cta(),
    );
}

#[test]
fn lb() {
    assert_same(
        "PodRW Rfe PodRW Rfe",
        catalogue_sb_lb::lb_relaxed_gpu_inter_cta(),
    );
}

#[test]
fn wrc() {
    assert_same(
        "Rfe PodRW Rfe PodRR Fre",
        catalogue_multi::wrc_relaxed_gpu_inter_cta(),
    );
}

#[test]
fn iriw() {
    assert_same(
        "Rfe PodRR Fre Rfe PodRR Fre",
        catalogue_multi::iriw_relaxed_gpu_inter_cta(),
    );
}

#[test]
fn isa2() {
    assert_same(
        "PodWW Rfe PodRW Rfe PodRR Fre",
        catalogue_multi::isa2_relaxed_gpu_inter_cta(),
    );
}

#[test]
fn two_plus_two_w() {
    // The catalogue numbers each thread's writes 1, 2 in program order,
    // diy7 by coherence: the same test once values are renamed.
    assert_same(
        "PodWW Wse PodWW Wse",
        catalogue_multi::two_plus_two_w_relaxed_gpu_inter_cta(),
    );
}

#[test]
fn r() {
    assert_same(
        "PodWW Wse PodWR Fre",
        catalogue_multi::r_relaxed_gpu_inter_cta(),
    );
}

#[test]
fn s() {
    assert_same(
        "PodWW Rfe PodRW Wse",
        catalogue_multi::s_relaxed_gpu_inter_cta(),
    );
}

#[test]
fn shapes_by_name_are_their_cycles() {
    for (name, text) in library::gen::SHAPES {
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
    let all: Vec<String> = library::gen::SHAPES
        .iter()
        .map(|(_, text)| canonical(&from_cycle(text)))
        .collect();
    let unique: HashSet<&String> = all.iter().collect();
    assert_eq!(unique.len(), all.len());
}
