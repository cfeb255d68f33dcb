//! A location's home GPU (`gpu 1 x=0;`) is where the harness allocates it;
//! PTX semantics do not depend on it (scopes are a matter of the threads'
//! placement), so no model may change an outcome when locations move.

mod common;
use common::*;

use litmus_core::ir::{Space, Test};
use litmus_model::{check, Options, MODELS};

/// `test` with every global location that is no alias moved to GPU `gpu`.
fn moved(test: &Test, gpu: u32) -> Test {
    let mut t = test.clone();
    for loc in &mut t.locations {
        if loc.space == Space::Global && loc.alias.is_none() {
            loc.gpu = gpu;
        }
    }
    t
}

#[test]
fn every_model_ignores_where_a_location_lives() {
    let mut compared = 0;
    let mut failures = Vec::new();
    for f in repo_litmus_files() {
        let src = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let Ok(test) = litmus_text::parse(&src) else {
            continue;
        };
        let away = moved(&test, 1);
        if away == test {
            continue;
        }
        for model in MODELS {
            let (Ok(here), Ok(there)) = (
                check(&test, model, &Options::default()),
                check(&away, model, &Options::default()),
            ) else {
                continue;
            };
            compared += 1;
            if here.allowed != there.allowed || here.claim_holds != there.claim_holds {
                failures.push(format!("{} under {}", f.display(), model.name()));
            }
        }
    }
    assert!(
        compared > 20,
        "only {compared} comparisons: the corpus moved?"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mp_across_gpus_keeps_its_verdicts() {
    // The data in the reader's memory, the flag in the writer's: the
    // `.sys` release/acquire pair still forbids, relaxed still allows,
    // `.gpu` still does not reach GPU 1.
    let mp = |rel: &str, acq: &str| {
        format!(
            "PTX mp\n{{ gpu 1 x=0; y=0; }}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.weak x, 1 | ld.{acq} r0, y ;\n st.{rel} y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)"
        )
    };
    assert_eq!(verdict(&mp("release.sys", "acquire.sys"), "ptx"), FORBIDDEN);
    assert_eq!(verdict(&mp("relaxed.sys", "relaxed.sys"), "ptx"), ALLOWED);
    assert_eq!(verdict(&mp("release.gpu", "acquire.gpu"), "ptx"), ALLOWED);
}
