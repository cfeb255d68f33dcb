//! The catalogue under the cat models: the project's cat twins
//! (`models/ptx.cat`, `models/sc.cat`, `models/ptx-2015.cat`,
//! `models/ptx-async.cat`) allow exactly
//! the outcomes their Rust models allow on every catalogue test, and
//! Dat3M's own `ptx-v6.0.cat` (from the corpus folder, unchanged) allows
//! exactly what the built-in `ptx` allows, except where a test uses
//! `fence.acquire` or `fence.release`: those came after PTX 6.0, Dat3M's
//! file has no tag for them and they synchronise nothing there, so it must
//! allow at least what `ptx` allows.
//!
//! The catalogue is compiled again as modules of this test, as in
//! `outcome_search.rs`: `use gpu_litmus::litmus` in each file picks up the
//! `litmus!` below, which compares the models on the call's IR.

extern crate gpu_litmus as library;
extern crate self as gpu_litmus;

use std::path::{Path, PathBuf};

use library::core::instr::{InstrKind, Sem};
use library::core::ir::Test;
use litmus_model::{check, model_by_name, Model, Options};

/// The allowed outcomes of `test` under `model`, as lines.
fn allowed(test: &Test, model: &dyn Model) -> Result<Vec<String>, String> {
    check(test, model, &Options::default())
        .map(|r| r.outcome_lines(test))
        .map_err(|e| format!("{}: {e}", model.name()))
}

fn twin(file: &str) -> &'static dyn Model {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(file);
    model_by_name(&path.display().to_string()).unwrap_or_else(|e| panic!("{e}"))
}

/// Dat3M's `ptx-v6.0.cat`, when the corpus folder is set.
fn dat3m_v6() -> Option<&'static dyn Model> {
    let dir = PathBuf::from(std::env::var_os(library::core::corpus::CORPUS_ENV)?);
    let path = dir.join("cat").join("ptx-v6.0.cat");
    Some(model_by_name(&path.display().to_string()).unwrap_or_else(|e| panic!("{e}")))
}

/// Whether `test` has a `fence.acquire` or `fence.release`.
fn one_sided_fences(test: &Test) -> bool {
    test.threads.iter().flat_map(|t| &t.body).any(|i| {
        matches!(
            i.kind,
            InstrKind::Fence {
                sem: Sem::Acquire | Sem::Release,
                ..
            }
        )
    })
}

/// Every disagreement on `test`, one line each.
fn disagreements(test: &Test) -> Vec<String> {
    let mut out = Vec::new();
    // Only `ptx-async` checks a test with async operations; the others
    // refuse it, each in its own name.
    let asynchronous = test.first_async_use().is_some();
    let twins: &[(&str, &str)] = if asynchronous {
        &[("ptx-async", "ptx-async.cat")]
    } else {
        &[
            ("ptx", "ptx.cat"),
            ("sc", "sc.cat"),
            ("ptx-2015", "ptx-2015.cat"),
            ("ptx-async", "ptx-async.cat"),
        ]
    };
    for &(rust, cat) in twins {
        let (a, b) = (
            allowed(test, model_by_name(rust).unwrap()),
            allowed(test, twin(cat)),
        );
        if a != b {
            out.push(format!("{rust} allows {a:?}, models/{cat} {b:?}"));
        }
    }
    if let Some(dat3m) = dat3m_v6().filter(|_| !asynchronous) {
        let ptx = allowed(test, model_by_name("ptx").unwrap());
        let theirs = allowed(test, dat3m);
        let agree = match (&ptx, &theirs) {
            (Ok(p), Ok(d)) if one_sided_fences(test) => p.iter().all(|o| d.contains(o)),
            _ => ptx == theirs,
        };
        if !agree {
            out.push(format!(
                "ptx allows {ptx:?}, Dat3M's ptx-v6.0.cat {theirs:?}"
            ));
        }
    }
    out
}

fn assert_agree(test: &Test, what: &str) {
    let d = disagreements(test);
    assert!(d.is_empty(), "{what}:\n{}", d.join("\n"));
}

include!("catalogue_support/assert_each.rs");

include!("catalogue_support/modules.rs");

#[test]
fn the_one_sided_fence_exception_is_needed() {
    // The exception is needed: on the catalogue's MP with a release fence
    // and an acquire fence, Dat3M's model allows the stale read that
    // `ptx` forbids.
    let Some(dat3m) = dat3m_v6() else {
        println!(
            "Dat3M's ptx-v6.0.cat on the catalogue: skipped, LITMUS_CONFORMANCE_DIR is not set"
        );
        return;
    };
    let test = library::litmus_ir! {
        mp_fences_one_sided;
        global x = 0, y = 0;
        thread t0 @ cta 0 { St(x, 1); Fence.release.gpu; St.relaxed.gpu(y, 1); }
        thread t1 @ cta 1 { r0 = Ld.relaxed.gpu(y); Fence.acquire.gpu; r1 = Ld(x); }
        exists (t1.r0 == 1 && t1.r1 == 0) => forbidden;
    };
    assert!(one_sided_fences(&test));
    let ptx = allowed(&test, model_by_name("ptx").unwrap()).unwrap();
    let theirs = allowed(&test, dat3m).unwrap();
    assert!(theirs.len() > ptx.len(), "{ptx:?} vs {theirs:?}");
}
