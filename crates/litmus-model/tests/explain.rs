//! Explanations of forbidden outcomes.

mod common;
use common::*;

use litmus_model::{explain_condition, explain_outcome, model_by_name, Options};

const MP: &str = "PTX MP-relacq
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.weak x, 1        | ld.acquire.gpu r0, y ;
 st.release.gpu y, 1 | ld.weak r1, x        ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)";

#[test]
fn forbidden_mp_names_causality_and_its_cycle() {
    let test = parse(MP);
    let e = explain_condition(&test, model_by_name("ptx").unwrap(), &Options::default()).unwrap();
    assert!(e.forbidden());
    let first = &e.rejections[0];
    assert_eq!(first.axiom, "Causality", "{}", e.to_text(5));
    assert_eq!(first.outcome, "P1:r0=1; P1:r1=0");
    // The witness is a cycle: each edge starts where the previous ended.
    let w = &first.witness;
    for i in 0..w.len() {
        assert_eq!(w[i].to, w[(i + 1) % w.len()].from, "not a cycle: {w:?}");
    }
    let labels: Vec<&str> = w.iter().map(|e| e.label).collect();
    // fr from the stale read back to the data write, then cause spelled
    // out: po to the release, sw to the acquire, po to the read.
    assert_eq!(labels, ["fr", "po", "sw", "po"], "{}", e.to_text(5));
    let fr = &w[0];
    assert_eq!(fr.from.thread.as_deref(), Some("P1"));
    assert_eq!(fr.from.location.as_deref(), Some("x"));
    assert_eq!(fr.from.value, Some(0));
    assert_eq!(fr.to.access, "W.weak");
    assert_eq!(fr.to.value, Some(1));

    let text = e.to_text(5);
    assert!(text.contains("forbids"), "{text}");
    assert!(text.contains("Causality"), "{text}");
    assert!(text.contains("P1#1 R.weak x=0 -fr-> P0#0 W.weak x=1 -po-> P0#1 W.release.gpu y=1 -sw-> P1#0 R.acquire.gpu y=1 -po-> P1#1 R.weak x=0"), "{text}");
}

#[test]
fn dot_output_is_a_digraph_with_the_labelled_edges() {
    let test = parse(MP);
    let e = explain_condition(&test, model_by_name("ptx").unwrap(), &Options::default()).unwrap();
    let dot = e.to_dot(1);
    assert!(
        dot.starts_with("digraph \"MP-relacq under ptx\" {"),
        "{dot}"
    );
    assert!(dot.trim_end().ends_with('}'), "{dot}");
    assert_eq!(dot.matches('{').count(), dot.matches('}').count(), "{dot}");
    for label in ["fr", "po", "sw"] {
        assert!(
            dot.contains(&format!("[label=\"{label}\"];")),
            "no {label} edge:\n{dot}"
        );
    }
    // Four edges, four distinct events.
    assert_eq!(dot.matches(" -> ").count(), 4, "{dot}");
    assert_eq!(dot.matches("[label=\"P").count(), 4, "{dot}");
}

#[test]
fn allowed_outcome_is_reported_as_allowed() {
    let test = parse(MP);
    let e = explain_outcome(
        &test,
        model_by_name("ptx").unwrap(),
        &Options::default(),
        &[1, 1],
    )
    .unwrap();
    assert!(!e.forbidden());
    assert!(e.to_text(3).contains("allows"));
}

#[test]
fn thin_air_and_coherence_name_their_axioms() {
    let lb = "PTX LB-data
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 ld.weak r0, x  | ld.weak r1, y  ;
 st.weak y, r0  | st.weak x, r1  ;
exists (P0:r0 == 42 /\\ P1:r1 == 42)";
    let e = explain_condition(
        &parse(lb),
        model_by_name("ptx").unwrap(),
        &Options::default(),
    )
    .unwrap();
    // 42 comes from nowhere: no candidate execution produces it at all.
    assert!(e.forbidden() && e.rejections.is_empty(), "{}", e.to_text(3));

    let corr = "PTX CoRR
{ x=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x ;
                     | ld.relaxed.gpu r1, x ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)";
    let e = explain_condition(
        &parse(corr),
        model_by_name("ptx").unwrap(),
        &Options::default(),
    )
    .unwrap();
    assert_eq!(e.rejections[0].axiom, "SC-per-location", "{}", e.to_text(3));
    let labels: Vec<&str> = e.rejections[0].witness.iter().map(|w| w.label).collect();
    assert_eq!(labels.len(), 3);
    for l in ["rf", "po", "fr"] {
        assert!(labels.contains(&l), "{labels:?}");
    }
}

#[test]
fn atomicity_witness_shows_the_intervening_write() {
    let src = "PTX inc-sys
{ x=0; }
 P0@cta 0,gpu 0                | P1@cta 1,gpu 0                ;
 atom.relaxed.sys.add r0, x, 1 | atom.relaxed.sys.add r0, x, 1 ;
exists (P0:r0 == 0 /\\ P1:r0 == 0)";
    let e = explain_condition(
        &parse(src),
        model_by_name("ptx").unwrap(),
        &Options::default(),
    )
    .unwrap();
    assert!(e.forbidden());
    let axioms: Vec<&str> = e.rejections.iter().map(|r| r.axiom).collect();
    assert!(axioms.contains(&"Atomicity"), "{}", e.to_text(9));
}

/// An outcome that needs coherence against cause: the candidate that
/// orders the writes the other way is shown, and Coherence rejects it.
#[test]
fn coherence_against_cause_is_explained_with_the_cause_path() {
    let src = "PTX CoRW
{ x=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.release.gpu x, 1 | ld.acquire.gpu r1, x ;
                     | st.weak x, 2         ;
exists (P1:r1 == 1 /\\ x == 1)";
    let e = explain_condition(
        &parse(src),
        model_by_name("ptx").unwrap(),
        &Options::default(),
    )
    .unwrap();
    assert!(e.forbidden());
    let r = &e.rejections[0];
    assert_eq!(r.axiom, "Coherence", "{}", e.to_text(3));
    let labels: Vec<&str> = r.witness.iter().map(|w| w.label).collect();
    assert_eq!(labels, ["sw", "po", "co"], "{}", e.to_text(3));
    // The check itself agrees: nothing allows the outcome.
    assert_eq!(verdict(src, "ptx"), FORBIDDEN);
}
