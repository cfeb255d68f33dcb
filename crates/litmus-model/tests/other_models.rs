//! `sc` and `ptx-2015` on the classic shapes (MP, SB, LB, IRIW, WRC, CoRR),
//! without fences and with `membar` at each scope, threads in one CTA, in
//! different CTAs, or on different GPUs.

mod common;
use common::*;

use litmus_core::ir::Verdict;

#[derive(Clone, Copy, Debug)]
enum Shape {
    Mp,
    Sb,
    Lb,
    Iriw,
    Wrc,
    CoRR,
}

#[derive(Clone, Copy, Debug)]
enum Place {
    OneCta,
    Ctas,
    Gpus,
}

/// The placements and fences each shape is checked with.
const CONFIGS: [(Option<&str>, Place); 6] = [
    (None, Place::Ctas),
    (Some("membar.cta"), Place::OneCta),
    (Some("membar.cta"), Place::Ctas),
    (Some("membar.gl"), Place::Ctas),
    (Some("membar.gl"), Place::Gpus),
    (Some("membar.sys"), Place::Gpus),
];

/// The test text: `F` in a thread's code stands for the fence.
fn text(shape: Shape, fence: Option<&str>, place: Place) -> String {
    let (threads, cond): (Vec<Vec<&str>>, &str) = match shape {
        Shape::Mp => (
            vec![
                vec!["st.weak x, 1", "F", "st.weak y, 1"],
                vec!["ld.weak r0, y", "F", "ld.weak r1, x"],
            ],
            "P1:r0 == 1 /\\ P1:r1 == 0",
        ),
        Shape::Sb => (
            vec![
                vec!["st.weak x, 1", "F", "ld.weak r0, y"],
                vec!["st.weak y, 1", "F", "ld.weak r1, x"],
            ],
            "P0:r0 == 0 /\\ P1:r1 == 0",
        ),
        Shape::Lb => (
            vec![
                vec!["ld.weak r0, x", "F", "st.weak y, 1"],
                vec!["ld.weak r1, y", "F", "st.weak x, 1"],
            ],
            "P0:r0 == 1 /\\ P1:r1 == 1",
        ),
        Shape::Iriw => (
            vec![
                vec!["st.weak x, 1"],
                vec!["st.weak y, 1"],
                vec!["ld.weak r0, x", "F", "ld.weak r1, y"],
                vec!["ld.weak r0, y", "F", "ld.weak r1, x"],
            ],
            "P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0",
        ),
        Shape::Wrc => (
            vec![
                vec!["st.weak x, 1"],
                vec!["ld.weak r0, x", "F", "st.weak y, 1"],
                vec!["ld.weak r0, y", "F", "ld.weak r1, x"],
            ],
            "P1:r0 == 1 /\\ P2:r0 == 1 /\\ P2:r1 == 0",
        ),
        Shape::CoRR => (
            vec![
                vec!["st.weak x, 1"],
                vec!["ld.weak r0, x", "F", "ld.weak r1, x"],
            ],
            "P1:r0 == 1 /\\ P1:r1 == 0",
        ),
    };
    let header: Vec<String> = (0..threads.len())
        .map(|t| match place {
            Place::OneCta => format!("P{t}@cta 0,gpu 0"),
            Place::Ctas => format!("P{t}@cta {t},gpu 0"),
            Place::Gpus => format!("P{t}@cta 0,gpu {t}"),
        })
        .collect();
    let code: Vec<Vec<&str>> = threads
        .iter()
        .map(|c| {
            c.iter()
                .filter_map(|&i| if i == "F" { fence } else { Some(i) })
                .collect()
        })
        .collect();
    let rows = code.iter().map(Vec::len).max().unwrap_or(0);
    let mut src = format!(
        "PTX {shape:?}\n{{ x=0; y=0; }}\n {} ;\n",
        header.join(" | ")
    );
    for r in 0..rows {
        let cells: Vec<&str> = code
            .iter()
            .map(|c| c.get(r).copied().unwrap_or(""))
            .collect();
        src.push_str(&format!(" {} ;\n", cells.join(" | ")));
    }
    src.push_str(&format!("exists ({cond})\n"));
    src
}

/// Checks every configuration of `shape` under `model` against `expected`
/// (one verdict per entry of [`CONFIGS`]) and reports every mismatch.
fn table(shape: Shape, model: &str, expected: [Verdict; 6]) {
    let mut wrong = Vec::new();
    for ((fence, place), want) in CONFIGS.iter().zip(expected) {
        let src = text(shape, *fence, *place);
        let got = verdict(&src, model);
        if got != want {
            wrong.push(format!(
                "{shape:?} {fence:?} {place:?}: {got:?}, expected {want:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{model}:\n{}", wrong.join("\n"));
}

const F: Verdict = FORBIDDEN;
const A: Verdict = ALLOWED;
/// Scoped RMO: a membar orders only among threads within its scope.
const SCOPED: [Verdict; 6] = [A, F, A, F, A, F];

#[test]
fn sc_forbids_every_weak_shape_whatever_the_fences() {
    for shape in [
        Shape::Mp,
        Shape::Sb,
        Shape::Lb,
        Shape::Iriw,
        Shape::Wrc,
        Shape::CoRR,
    ] {
        table(shape, "sc", [F; 6]);
    }
}

#[test]
fn ptx2015_mp() {
    table(Shape::Mp, "ptx-2015", SCOPED);
}

#[test]
fn ptx2015_sb() {
    table(Shape::Sb, "ptx-2015", SCOPED);
}

#[test]
fn ptx2015_lb() {
    table(Shape::Lb, "ptx-2015", SCOPED);
}

#[test]
fn ptx2015_iriw() {
    table(Shape::Iriw, "ptx-2015", SCOPED);
}

#[test]
fn ptx2015_wrc() {
    table(Shape::Wrc, "ptx-2015", SCOPED);
}

#[test]
fn ptx2015_corr() {
    table(Shape::CoRR, "ptx-2015", SCOPED);
}

/// The pins the issue names for `ptx-2015`.
#[test]
fn ptx2015_named_verdicts() {
    assert_eq!(
        verdict(&text(Shape::Mp, Some("membar.gl"), Place::Ctas), "ptx-2015"),
        F
    );
    assert_eq!(
        verdict(
            &text(Shape::Mp, Some("membar.cta"), Place::Ctas),
            "ptx-2015"
        ),
        A
    );
    assert_eq!(
        verdict(&text(Shape::CoRR, None, Place::Ctas), "ptx-2015"),
        A
    );
    assert_eq!(verdict(&text(Shape::Lb, None, Place::Ctas), "ptx-2015"), A);
    assert_eq!(verdict(&text(Shape::Sb, None, Place::Ctas), "ptx-2015"), A);
}

/// Relaxed atomics and SC: both incs land under sc; ptx-2015 keeps RMW
/// atomicity whatever the scope; ptx drops it across CTAs at cta scope.
#[test]
fn rmw_atomicity_differs_between_models() {
    let src = "PTX inc-cta
{ x=0; }
 P0@cta 0,gpu 0               | P1@cta 1,gpu 0               ;
 atom.relaxed.cta.add r0, x, 1 | atom.relaxed.cta.add r0, x, 1 ;
exists (x == 1)";
    assert_eq!(verdict(src, "sc"), F);
    assert_eq!(verdict(src, "ptx-2015"), F);
    assert_eq!(verdict(src, "ptx"), A);
}

/// The same suite judged by two models: the weak outcome of MP with
/// release/acquire is forbidden by ptx, allowed by ptx-2015 (which knows no
/// acquire or release).
#[test]
fn release_acquire_means_nothing_to_ptx2015() {
    let src = "PTX MP-relacq
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.weak x, 1        | ld.acquire.gpu r0, y ;
 st.release.gpu y, 1 | ld.weak r1, x        ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)";
    assert_eq!(verdict(src, "ptx"), F);
    assert_eq!(verdict(src, "ptx-2015"), A);
    assert_eq!(verdict(src, "sc"), F);
}
