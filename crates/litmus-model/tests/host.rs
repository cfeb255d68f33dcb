//! Host threads (`P1@host`): a device of their own, sharing only the `.sys`
//! scope with GPU threads and with each other; a strong access written
//! with no scope on one is `.sys`; host memory is global memory. Every
//! model, built in or cat (Dat3M's too, with `LITMUS_CONFORMANCE_DIR`),
//! runs host tests.

mod common;
use common::*;

use litmus_core::corpus;
use litmus_model::{check, model_by_name, Options, MODELS};

/// MP from `p0` (writer, release of `rel`) to `p1` (reader, acquire `acq`).
fn mp(p0: &str, rel: &str, p1: &str, acq: &str) -> String {
    format!(
        "PTX MP-host
{{ host x=0; host y=0; }}
 P0@{p0} | P1@{p1} ;
 st.weak x, 1 | ld.{acq} r0, y ;
 st.{rel} y, 1 | ld.weak r1, x ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)"
    )
}

#[test]
fn no_scope_on_a_host_thread_is_sys() {
    let unwritten = mp("cta 0,gpu 0", "release.sys", "host", "acquire");
    let written = mp("cta 0,gpu 0", "release.sys", "host", "acquire.sys");
    assert_eq!(verdict(&unwritten, "ptx"), FORBIDDEN);
    assert_eq!(verdict(&written, "ptx"), FORBIDDEN);
}

#[test]
fn gpu_scope_does_not_reach_a_host_thread() {
    // Either direction: the GPU side's `.gpu` scope leaves the host out.
    let to_host = mp("cta 0,gpu 0", "release.gpu", "host", "acquire");
    let from_host = mp("host", "release", "cta 0,gpu 0", "acquire.gpu");
    assert_eq!(verdict(&to_host, "ptx"), ALLOWED);
    assert_eq!(verdict(&from_host, "ptx"), ALLOWED);
    let sys = mp("host", "release", "cta 0,gpu 0", "acquire.sys");
    assert_eq!(verdict(&sys, "ptx"), FORBIDDEN);
}

#[test]
fn host_threads_share_the_system_scope() {
    let src = mp("host", "release", "host", "acquire");
    assert_eq!(verdict(&src, "ptx"), FORBIDDEN);
}

#[test]
fn a_host_thread_and_gpu_1_share_only_the_system() {
    // GPU 1 is no nearer to the host than GPU 0: the same verdicts.
    for gpu in ["cta 0,gpu 0", "cta 0,gpu 1"] {
        assert_eq!(
            verdict(&mp(gpu, "release.gpu", "host", "acquire"), "ptx"),
            ALLOWED
        );
        assert_eq!(
            verdict(&mp(gpu, "release.sys", "host", "acquire"), "ptx"),
            FORBIDDEN
        );
    }
}

#[test]
fn every_model_runs_host_tests() {
    let mut cats: Vec<String> = ["ptx", "ptx-2015", "sc"]
        .iter()
        .map(|m| format!("{}/../../models/{m}.cat", env!("CARGO_MANIFEST_DIR")))
        .collect();
    if let Some(dir) = std::env::var_os(corpus::CORPUS_ENV) {
        let dir = std::path::PathBuf::from(dir);
        for f in ["cat/ptx-v6.0.cat", "cat/ptx-v7.5.cat"] {
            cats.push(dir.join(f).to_string_lossy().into_owned());
        }
    }
    let mut models: Vec<&dyn litmus_model::Model> = MODELS.to_vec();
    for c in &cats {
        models.push(model_by_name(c).unwrap_or_else(|e| panic!("{c}: {e}")));
    }
    let srcs = [
        mp("cta 0,gpu 0", "release.sys", "host", "acquire"),
        mp("cta 0,gpu 0", "release.gpu", "host", "acquire"),
        mp("host", "release", "host", "acquire"),
    ];
    for src in &srcs {
        let test = parse(src);
        for m in &models {
            let r = check(&test, *m, &Options::default())
                .unwrap_or_else(|e| panic!("{}: {e}\n{src}", m.name()));
            // Every model keeps the outcomes where the data is seen.
            assert!(
                !r.allowed.is_empty(),
                "{}: nothing allowed\n{src}",
                m.name()
            );
        }
    }
}

#[test]
fn sc_forbids_what_ptx_allows_with_a_host_thread() {
    let src = mp("cta 0,gpu 0", "release.gpu", "host", "acquire");
    assert_eq!(verdict(&src, "sc"), FORBIDDEN);
}
