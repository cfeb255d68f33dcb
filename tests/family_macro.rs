//! `litmus_family!` makes a family a set of cargo tests, with no file on
//! disk: the same tests, under the same names, as the library's family.

use std::collections::HashSet;

use gpu_litmus::gen::{cycle, family, shape, FamilySpec};
use gpu_litmus::litmus_family;

litmus_family!(
    mod mp_sb = "MP SB",
    placements = "all",
    fences = "none,sc",
    fence_threads = "each",
);

litmus_family!(
    mod cycles = "",
    cycle = "DpDatadW Rfe DpCtrldW Rfe",
    cycle = "Fence.sc.gpudWW Rfe Fence.sc.gpudRR Fre",
    scopes = "gpu",
);

#[test]
fn the_macro_makes_the_library_family() {
    let mut spec = FamilySpec::default();
    spec.set("placements", "all").unwrap();
    spec.set("fences", "none,sc").unwrap();
    spec.set("fence-threads", "each").unwrap();
    let mut seen = HashSet::new();
    let mut names = Vec::new();
    for s in ["MP", "SB"] {
        let f = family(&shape(s).unwrap(), &spec, &mut seen).unwrap();
        names.extend(f.tests.into_iter().map(|t| t.name.text));
    }
    assert_eq!(mp_sb::TESTS, names.as_slice());
    // SB's fence in thread 1 is its fence in thread 0, renamed: once.
    assert!(mp_sb::TESTS.contains(&"SB+cta0_1+gpu+fence.sc.gpu@0"));
    assert!(!mp_sb::TESTS.contains(&"SB+cta0_1+gpu+fence.sc.gpu@1"));
}

#[test]
fn cycles_are_tests_too() {
    let mut names = Vec::new();
    for c in [
        "DpDatadW Rfe DpCtrldW Rfe",
        "Fence.sc.gpudWW Rfe Fence.sc.gpudRR Fre",
    ] {
        let f = family(
            &cycle::skeleton(c).unwrap(),
            &FamilySpec::default(),
            &mut HashSet::new(),
        );
        names.extend(f.unwrap().tests.into_iter().map(|t| t.name.text));
    }
    assert_eq!(cycles::TESTS, names.as_slice());
}
