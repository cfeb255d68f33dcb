//! The model checker's default search (one consistent execution per
//! outcome) against the full enumeration (`Options::all_executions`): the
//! same allowed outcomes, claim and verdict under every model, on every
//! file of the corpus's PTX 6.0 and termination lists, every `.litmus` file
//! of the repository and every test of the catalogue.
//!
//! The catalogue is reached without a copy: each `tests/catalogue_*.rs` is
//! compiled again as a module of this test, where the name `gpu_litmus`
//! means this crate (`extern crate self as gpu_litmus`), so the file's
//! `use gpu_litmus::litmus` picks up the `litmus!` below. It makes each call
//! a test that builds the call's IR with the real `litmus_ir!` (whose
//! expansion reaches the library through the `__private` re-export here)
//! and compares the two searches on it.

extern crate gpu_litmus as library;
extern crate self as gpu_litmus;

use std::path::{Path, PathBuf};

use library::core::corpus;
use library::core::ir::Test;
use litmus_model::{check, CheckError, Options, MODELS};

/// Where the two searches disagree on `test`, one line each.
fn disagreements(test: &Test) -> Vec<String> {
    let full_opts = Options {
        all_executions: true,
        ..Options::default()
    };
    let mut out = Vec::new();
    for &model in MODELS.iter() {
        let fast = check(test, model, &Options::default());
        let full = check(test, model, &full_opts);
        let m = model.name();
        match (fast, full) {
            (Ok(a), Ok(b)) => {
                if a.allowed != b.allowed {
                    out.push(format!(
                        "{m}: allowed outcomes differ: {:?} (outcome search) vs {:?} (all executions)",
                        a.outcome_lines(test),
                        b.outcome_lines(test)
                    ));
                }
                if (a.verdict(), a.claim_holds, a.condition_reachable, a.bounded)
                    != (b.verdict(), b.claim_holds, b.condition_reachable, b.bounded)
                {
                    out.push(format!("{m}: verdict, claim or bound differ"));
                }
                if (a.consistent_executions == 0) != (b.consistent_executions == 0) {
                    out.push(format!(
                        "{m}: one search finds consistent executions, the other none"
                    ));
                }
            }
            // The same error either way (an invalid test, a path that
            // cannot be unrolled) is agreement; a budget is not.
            (Err(a), Err(b))
                if !matches!(a, CheckError::Budget(_)) && a.to_string() == b.to_string() => {}
            (a, b) => out.push(format!(
                "{m}: outcome search {:?}, all executions {:?}",
                a.map(|r| r.allowed.len()),
                b.map(|r| r.allowed.len())
            )),
        }
    }
    out
}

fn assert_agree(test: &Test, what: &str) {
    let d = disagreements(test);
    assert!(d.is_empty(), "{what}:\n{}", d.join("\n"));
}

fn parse_file(path: &Path) -> Test {
    let src = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    library::text::parse(&src)
        .unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string())))
}

#[test]
fn corpus_files_agree() {
    let Some(dir) = std::env::var_os(corpus::CORPUS_ENV) else {
        println!(
            "outcome search on the corpus: skipped, {} is not set",
            corpus::CORPUS_ENV
        );
        return;
    };
    let dir = Path::new(&dir);
    let paths = corpus::union_of(dir, &[corpus::PTX_V6, corpus::TERMINATION])
        .unwrap_or_else(|e| panic!("{e}"));
    let failures: Vec<String> = paths
        .iter()
        .flat_map(|p| {
            disagreements(&parse_file(&dir.join(p)))
                .into_iter()
                .map(move |d| format!("{p}: {d}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        paths.len(),
        139,
        "the PTX 6.0 and termination lists name 139 files"
    );
}

/// Every `.litmus` file under `dir`, build outputs and hidden folders left
/// out.
fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() && !name.starts_with('.') && name != "target" {
            litmus_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "litmus") {
            out.push(path);
        }
    }
}

#[test]
fn repository_litmus_files_agree() {
    let mut files = Vec::new();
    litmus_files(Path::new(env!("CARGO_MANIFEST_DIR")), &mut files);
    files.sort();
    assert!(
        files.len() >= 14,
        "tests/litmus and the core's test data hold 14 files"
    );
    for f in &files {
        assert_agree(&parse_file(f), &f.display().to_string());
    }
}

include!("catalogue_support/assert_each.rs");

include!("catalogue_support/modules.rs");
