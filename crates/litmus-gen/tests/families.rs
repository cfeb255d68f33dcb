//! Families: valid IR, readable names, duplicates dropped up to renaming,
//! and every test printed as text reads back to the same IR.

use std::collections::HashSet;

use litmus_core::validate;
use litmus_gen::placement::all_partitions;
use litmus_gen::{canonical, cycle, family, same_up_to_names, shape, FamilySpec, SHAPES};
use litmus_text as text;

fn spec(options: &[(&str, &str)]) -> FamilySpec {
    let mut spec = FamilySpec::default();
    for (o, v) in options {
        spec.set(o, v).unwrap();
    }
    spec
}

fn names(shape_name: &str, options: &[(&str, &str)]) -> Vec<String> {
    let f = family(
        &shape(shape_name).unwrap(),
        &spec(options),
        &mut HashSet::new(),
    )
    .unwrap();
    f.tests.iter().map(|t| t.name.text.clone()).collect()
}

/// The nine 3- and 4-thread shapes of the issue, every option it names.
const CAMPAIGN: [(&str, &str); 6] = [
    ("placements", "all"),
    ("scopes", "cta,gpu"),
    ("fences", "none,sc,acq_rel"),
    ("fence-threads", "each"),
    ("sem", "relaxed,acq_rel"),
    ("memory", "global,shared"),
];
const NINE: [&str; 9] = [
    "IRIW", "ISA2", "RWC", "WRC", "WWC", "Z6.3", "WRW+2W", "2+2W", "3.2W",
];

#[test]
fn every_shape_is_a_valid_test_with_its_threads() {
    let threads = [
        ("MP", 2),
        ("SB", 2),
        ("LB", 2),
        ("S", 2),
        ("R", 2),
        ("2+2W", 2),
        ("WRC", 3),
        ("RWC", 3),
        ("ISA2", 3),
        ("IRIW", 4),
        ("WWC", 3),
        ("Z6.3", 3),
        ("WRW+2W", 3),
        ("3.2W", 3),
        ("CoRR", 2),
        ("CoRW", 2),
        ("CoWR", 2),
        ("CoWW", 1),
    ];
    assert_eq!(threads.len(), SHAPES.len());
    for (name, n) in threads {
        let f = family(
            &shape(name).unwrap(),
            &FamilySpec::default(),
            &mut HashSet::new(),
        )
        .unwrap();
        assert_eq!(f.tests.len(), 1, "{name}");
        let t = &f.tests[0];
        assert_eq!(t.threads.len(), n, "{name}");
        validate(t).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    }
}

#[test]
fn placements_are_the_set_partitions() {
    // Bell numbers.
    let counts: Vec<usize> = (1..=5).map(|n| all_partitions(n).len()).collect();
    assert_eq!(counts, [1, 2, 5, 15, 52]);
    let four: Vec<String> = all_partitions(4).iter().map(|p| p.name()).collect();
    assert_eq!(four.first().map(String::as_str), Some("cta0123"));
    assert_eq!(four.last().map(String::as_str), Some("cta0_1_2_3"));
    assert!(four.contains(&"cta01_2_3".to_string()));
    assert!(four.contains(&"cta03_12".to_string()));
}

#[test]
fn names_say_placement_scope_semantics_fences_and_memory() {
    let n = names("IRIW", &CAMPAIGN);
    for expected in [
        "IRIW+cta01_2_3+gpu+fence.sc.gpu@1,3",
        "IRIW+cta0_1_2_3+rel_acq.cta",
        "IRIW+cta0123+cta+fence.acq_rel.cta@1+shared",
    ] {
        assert!(n.contains(&expected.to_string()), "{expected} missing");
    }
    let unique: HashSet<&String> = n.iter().collect();
    assert_eq!(unique.len(), n.len(), "names are unique");
    assert_eq!(
        names("MP", &[("placements", "inter-gpu"), ("sem", "weak")]),
        ["MP+gpu0_1+weak"]
    );
}

#[test]
fn variants_equal_up_to_renaming_are_written_once() {
    // SB is symmetric: a fence in thread 0 or in thread 1 is one test.
    let sb = names("SB", &[("fences", "sc"), ("fence-threads", "each")]);
    assert_eq!(
        sb,
        [
            "SB+cta0_1+gpu+fence.sc.gpu@0",
            "SB+cta0_1+gpu+fence.sc.gpu@0,1"
        ]
    );
    // MP is not: the writer's fence and the reader's differ.
    let mp = names("MP", &[("fences", "sc"), ("fence-threads", "each")]);
    assert_eq!(mp.len(), 3, "{mp:?}");
    // IRIW: threads 0,1 in one CTA is threads 2,3 in one CTA, renamed.
    let iriw = names("IRIW", &[("placements", "cta01_2_3,cta0_1_23")]);
    assert_eq!(iriw, ["IRIW+cta01_2_3+gpu"]);
    // Weak accesses have no scope: without fences, cta and gpu are one test.
    let weak = names("MP", &[("sem", "weak"), ("scopes", "cta,gpu")]);
    assert_eq!(weak, ["MP+cta0_1+weak"]);
}

#[test]
fn the_canonical_form_ignores_names_and_keeps_meaning() {
    let a = text::parse(
        "PTX a\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
    )
    .unwrap();
    // Threads swapped, locations, registers and CTAs renamed, conjuncts
    // reordered, the flag's value 7 instead of 1.
    let b = text::parse(
        "PTX b\n{ a=0; f=0; }\n t1@cta 4,gpu 0 | t0@cta 2,gpu 0 ;\n ld.relaxed.gpu q5, f | st.relaxed.gpu a, 1 ;\n ld.relaxed.gpu q2, a | st.relaxed.gpu f, 7 ;\nexists (t1:q2 == 0 /\\ t1:q5 == 7)\n",
    )
    .unwrap();
    assert!(
        same_up_to_names(&a, &b),
        "{}\n{}",
        canonical(&a),
        canonical(&b)
    );
    for changed in [
        // Another scope.
        "ld.relaxed.cta q5, f",
        // Another placement: both in one CTA.
        "t1@cta 2,gpu 0",
    ] {
        let (from, to) = if changed.starts_with("t1") {
            ("t1@cta 4,gpu 0", changed)
        } else {
            ("ld.relaxed.gpu q5, f", changed)
        };
        let c = text::print(&b).replace(from, to);
        let c = text::parse(&c).unwrap();
        assert!(!same_up_to_names(&a, &c), "{changed}");
    }
}

#[test]
fn the_campaign_family_round_trips_through_the_text_format() {
    let spec = spec(&CAMPAIGN);
    let mut seen = HashSet::new();
    let mut total = 0;
    for name in NINE {
        let f = family(&shape(name).unwrap(), &spec, &mut seen).unwrap();
        assert!(f.tests.len() <= f.variants && !f.tests.is_empty(), "{name}");
        for t in &f.tests {
            validate(t).unwrap_or_else(|e| panic!("{}: {e:?}", t.name));
            let printed = text::print(t);
            let back = text::parse(&printed).unwrap_or_else(|e| panic!("{printed}\n{e}"));
            assert_eq!(&back, t, "{printed}");
            assert_eq!(back.doc.0, t.doc.0);
        }
        total += f.tests.len();
    }
    assert_eq!(total, seen.len());
}

#[test]
fn dependencies_and_fences_of_a_cycle_are_in_the_test() {
    let sk = cycle::skeleton("DpDatadW Rfe DpCtrldW Rfe").unwrap();
    let t = &family(&sk, &FamilySpec::default(), &mut HashSet::new())
        .unwrap()
        .tests[0];
    validate(t).unwrap_or_else(|e| panic!("{e:?}"));
    let printed = text::print(t);
    // Dependencies the GPU's compiler cannot fold away: the stored value
    // is computed from the read one, and the store is skipped unless the
    // read saw the cycle's value.
    assert!(printed.contains("add r1, r0, 0"), "{printed}");
    assert!(printed.contains("st.relaxed.gpu y, r1"), "{printed}");
    assert!(printed.contains("bne r0, 1, LC0"), "{printed}");
    assert!(!printed.contains("xor"), "{printed}");
    // An internal read-from: the read in the writer's own thread.
    let sk = cycle::skeleton("Rfi PodRR Fre PodWW Wse").unwrap();
    let t = &family(&sk, &FamilySpec::default(), &mut HashSet::new())
        .unwrap()
        .tests[0];
    validate(t).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(t.threads.len(), 2);
    assert_eq!(t.threads[0].body.len(), 3, "{}", text::print(t));
    let sk = cycle::skeleton("Fence.sc.gpudWW Rfe Fence.acq_rel.ctadRR Fre").unwrap();
    let t = &family(&sk, &FamilySpec::default(), &mut HashSet::new())
        .unwrap()
        .tests[0];
    let printed = text::print(t);
    assert!(
        printed.contains("fence.sc.gpu") && printed.contains("fence.acq_rel.cta"),
        "{printed}"
    );
    assert_eq!(
        t.name.text,
        "Fence.sc.gpudWW-Rfe-Fence.acq_rel.ctadRR-Fre+cta0_1+gpu"
    );
}

#[test]
fn every_option_makes_valid_tests_with_distinct_names() {
    let spec = spec(&[
        ("placements", "all,inter-gpu"),
        ("scopes", "cta,cluster,gpu,sys"),
        ("fences", "none,sc,acq_rel,acquire,release"),
        ("fence-threads", "each"),
        ("sem", "relaxed,acq_rel,weak"),
        ("memory", "global,shared"),
    ]);
    let mut seen = HashSet::new();
    let mut names = HashSet::new();
    // Two, three and four threads, one and two threads, coherence shapes.
    for name in ["MP", "WRC", "IRIW", "CoWW", "CoRW"] {
        for t in family(&shape(name).unwrap(), &spec, &mut seen)
            .unwrap()
            .tests
        {
            validate(&t).unwrap_or_else(|e| panic!("{}: {e:?}", t.name));
            assert!(
                names.insert(t.name.text.clone()),
                "two tests named {}",
                t.name
            );
        }
    }
    // A cycle's own `.cluster` fence puts the threads in a cluster too.
    let sk = cycle::skeleton("Fence.sc.clusterdWW Rfe PodRR Fre").unwrap();
    let t = &family(&sk, &FamilySpec::default(), &mut HashSet::new())
        .unwrap()
        .tests[0];
    validate(t).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(t.threads.iter().all(|th| th.placement.cluster == Some(0)));
}

/// `fence-scopes` gives the added fences a scope of their own: gpu-scope
/// accesses with a CTA fence, named for the fence's scope.
#[test]
fn fence_scopes_set_the_fences_scope_apart_from_the_accesses() {
    let mut spec = FamilySpec::default();
    spec.set("fences", "sc").unwrap();
    spec.set("fence-scopes", "cta,same").unwrap();
    spec.set("fence-threads", "1").unwrap();
    let mut seen = std::collections::HashSet::new();
    let fam = litmus_gen::family(&shape("MP").unwrap(), &spec, &mut seen).unwrap();
    let names: Vec<&str> = fam.tests.iter().map(|t| t.name.text.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names.iter().any(|n| n.ends_with("+gpu+fence.sc.cta@1")),
        "{names:?}"
    );
    assert!(
        names.iter().any(|n| n.ends_with("+gpu+fence.sc.gpu@1")),
        "{names:?}"
    );
    let cta = fam
        .tests
        .iter()
        .find(|t| t.name.text.ends_with("cta@1"))
        .unwrap();
    let text = litmus_text::print(cta);
    assert!(
        text.contains("fence.sc.cta") && text.contains("ld.relaxed.gpu"),
        "{text}"
    );
    let err = spec.set("fence-scopes", "warp").unwrap_err().to_string();
    assert!(err.contains("not a fence scope"), "{err}");
}
