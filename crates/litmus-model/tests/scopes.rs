//! Scope inclusion under `ptx`: cta, cluster, gpu, sys.

mod common;
use common::*;

fn mp(scope: &str, p0: &str, p1: &str) -> String {
    format!(
        "PTX MP-{scope}
{{ x=0; y=0; }}
 P0@{p0} | P1@{p1} ;
 st.weak x, 1 | ld.acquire.{scope} r0, y ;
 st.release.{scope} y, 1 | ld.weak r1, x ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)"
    )
}

#[test]
fn cluster_scope_synchronises_within_a_cluster_only() {
    let same = mp("cluster", "cta 0,gpu 0,cluster 0", "cta 1,gpu 0,cluster 0");
    let other = mp("cluster", "cta 0,gpu 0,cluster 0", "cta 1,gpu 0,cluster 1");
    assert_eq!(verdict(&same, "ptx"), FORBIDDEN);
    assert_eq!(verdict(&other, "ptx"), ALLOWED);
}

#[test]
fn cta_scope_does_not_reach_another_cta_of_the_cluster() {
    let src = mp("cta", "cta 0,gpu 0,cluster 0", "cta 1,gpu 0,cluster 0");
    assert_eq!(verdict(&src, "ptx"), ALLOWED);
}

#[test]
fn gpu_scope_does_not_reach_another_gpu_but_sys_does() {
    assert_eq!(
        verdict(&mp("gpu", "cta 0,gpu 0", "cta 0,gpu 1"), "ptx"),
        ALLOWED
    );
    assert_eq!(
        verdict(&mp("sys", "cta 0,gpu 0", "cta 0,gpu 1"), "ptx"),
        FORBIDDEN
    );
}

#[test]
fn both_sides_must_include_each_other() {
    // A sys release and a cta acquire across CTAs: the acquire's scope does
    // not include the writer, so they are not morally strong.
    let src = "PTX MP-sys-cta
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.weak x, 1        | ld.acquire.cta r0, y ;
 st.release.sys y, 1 | ld.weak r1, x        ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)";
    assert_eq!(verdict(src, "ptx"), ALLOWED);
}

#[test]
fn volatile_is_relaxed_sys() {
    // Volatile accesses are morally strong across GPUs, so CoRR holds.
    let src = "PTX CoRR-volatile
{ x=0; }
 P0@cta 0,gpu 0    | P1@cta 0,gpu 1     ;
 st.volatile x, 1  | ld.volatile r0, x  ;
                   | ld.volatile r1, x  ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)";
    assert_eq!(verdict(src, "ptx"), FORBIDDEN);
}
