//! Every malformed shape, cycle and option value is an error that says what
//! and where: the option and its value, the edge and its position.

use litmus_gen::{cycle, shape, FamilySpec, GenError};

fn cycle_err(text: &str) -> GenError {
    cycle::skeleton(text).expect_err(text)
}

fn option_err(option: &str, value: &str) -> GenError {
    FamilySpec::default()
        .set(option, value)
        .expect_err(&format!("{option} {value}"))
}

/// Options valid in syntax but not for this shape: found when the family
/// is made.
fn family_err(shape_name: &str, options: &[(&str, &str)]) -> GenError {
    let mut spec = FamilySpec::default();
    for (o, v) in options {
        spec.set(o, v).unwrap();
    }
    litmus_gen::variants(&shape(shape_name).unwrap(), &spec).expect_err(shape_name)
}

fn edge_index(e: &GenError) -> (usize, String) {
    match e {
        GenError::BadEdge { index, edge, .. } | GenError::Inexpressible { index, edge, .. } => {
            (*index, edge.clone())
        }
        other => panic!("not an edge error: {other}"),
    }
}

#[test]
fn unknown_shape_lists_the_known_ones() {
    let e = shape("MPP").unwrap_err();
    assert!(matches!(&e, GenError::UnknownShape { name, .. } if name == "MPP"));
    assert!(e.to_string().contains("IRIW"), "{e}");
}

#[test]
fn unknown_edges_are_named_with_their_position() {
    for (text, index, edge) in [
        ("PodWW Rfe PodXR Fre", 3, "PodXR"),
        ("PodWW Rfx PodRR Fre", 2, "Rfx"),
        ("PodWW Rfe PodRR Fre Bogus", 5, "Bogus"),
        ("Fence.sc.gpuWW Rfe PodRR Fre", 1, "Fence.sc.gpuWW"),
        ("Fence.sc.gridWW Rfe PodRR Fre", 1, "Fence.sc.gridWW"),
        ("Fence.foo.gpudWW Rfe PodRR Fre", 1, "Fence.foo.gpudWW"),
        ("DpDatadR Fre PodWR Fre", 1, "DpDatadR"),
        ("DpCtrldX Rfe PodRR Fre", 1, "DpCtrldX"),
        ("PodWW Rfé", 2, "Rfé"),
    ] {
        let e = cycle_err(text);
        assert_eq!(edge_index(&e), (index, edge.to_string()), "{text}: {e}");
        assert!(
            e.to_string().contains(&format!("edge {index} `{edge}`")),
            "{e}"
        );
    }
}

#[test]
fn an_address_dependency_says_the_ir_cannot_express_it() {
    let e = cycle_err("PodWW Rfe DpAddrdR Fre");
    assert!(
        matches!(&e, GenError::Inexpressible { index: 3, edge, .. } if edge == "DpAddrdR"),
        "{e}"
    );
    assert!(e.to_string().contains("address"), "{e}");
}

#[test]
fn cycles_that_do_not_close_say_why() {
    for (text, says) in [
        ("", "two edges"),
        ("Rfe", "two edges"),
        (
            "PodWW Rfe PodWR Fre",
            "edge 2 `Rfe` ends in a read but edge 3 `PodWR` starts from a write",
        ),
        ("PodWW PodWW", "no communication edge"),
        ("PodWW Rfe PodRR Fri", "one external edge"),
        ("PosWW Rfe PodRR Fre", "edge 3 `PodRR` needs two locations"),
        ("Wse Wse", "coherence edges on location x form a cycle"),
        (
            "Rfe Fre",
            "a read reads from the write its `Fr` edge leads to",
        ),
    ] {
        let e = cycle_err(text);
        assert!(matches!(e, GenError::BadCycle { .. }), "{text}: {e}");
        assert!(e.to_string().contains(says), "{text}: {e}");
    }
}

#[test]
fn malformed_option_values_name_the_option_and_the_value() {
    for (option, value, says) in [
        ("placements", "cta0_0", "thread 0 is in two groups"),
        ("placements", "cta0__1", "group 2 is empty"),
        ("placements", "ctaX", "`X` is not a thread index"),
        ("placements", "all,", "item 2 is empty"),
        ("scopes", "grid", "not a scope"),
        ("fences", "full", "not a fence"),
        ("fences", "weak", "not a fence"),
        ("fence-threads", "1,x", "`x` is not a thread index"),
        ("fence-threads", "1,1", "thread 1 is listed twice"),
        ("sem", "strong", "not an access semantics"),
        ("memory", "local", "not a memory"),
    ] {
        let e = option_err(option, value);
        let text = e.to_string();
        assert!(text.contains(says), "{option} {value}: {text}");
        assert!(text.contains(value), "{option} {value}: {text}");
    }
}

#[test]
fn an_unknown_option_is_named() {
    let e = option_err("colour", "red").to_string();
    assert!(e.contains("`colour`: unknown"), "{e}");
}

#[test]
fn options_that_do_not_fit_the_shape_say_which_thread() {
    let e = family_err("IRIW", &[("placements", "cta012")]);
    assert!(e.to_string().contains("thread 3 is in no group"), "{e}");
    let e = family_err("MP", &[("placements", "cta0_1_2")]);
    assert!(e.to_string().contains("thread 2 does not exist"), "{e}");
    let e = family_err("IRIW", &[("fences", "sc"), ("fence-threads", "0")]);
    assert!(
        e.to_string()
            .contains("thread 0 of IRIW has fewer than two accesses"),
        "{e}"
    );
    let e = family_err("MP", &[("fence-threads", "0,9")]);
    assert!(e.to_string().contains("MP has no thread 9"), "{e}");
    // IRIW's half twelve times: 24 threads, 12 of them readers.
    let long = ["Rfe PodRR Fre"; 12].join(" ");
    let sk = cycle::skeleton(&long).unwrap_or_else(|e| panic!("{long}: {e}"));
    assert_eq!(sk.threads.len(), 24);
    let mut spec = FamilySpec::default();
    spec.set("placements", "all").unwrap();
    let e = litmus_gen::variants(&sk, &spec).unwrap_err();
    assert!(e.to_string().contains("too many set partitions"), "{e}");
    let mut spec = FamilySpec::default();
    spec.set("fence-threads", "each").unwrap();
    let e = litmus_gen::variants(&sk, &spec).unwrap_err();
    assert!(e.to_string().contains("threads to fence"), "{e}");
    let e = family_err("MP", &[("memory", "shared")]);
    assert!(matches!(e, GenError::NoVariant { .. }), "{e}");
}
