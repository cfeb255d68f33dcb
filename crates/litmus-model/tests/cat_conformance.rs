//! Dat3M's own cat model, `cat/ptx-v6.0.cat` of the conformance corpus, run
//! unchanged by the cat interpreter: it must give Dat3M's verdict on every
//! test of `expected-ptx-v6.csv`, and the built-in `ptx` model's allowed
//! outcomes on every `.litmus` file of this repository.

mod common;

use std::path::{Path, PathBuf};

use litmus_core::corpus;
use litmus_model::{check, model_by_name, Model, Options};

fn corpus_dir() -> Option<PathBuf> {
    std::env::var_os(corpus::CORPUS_ENV).map(PathBuf::from)
}

fn dat3m_v6(dir: &Path) -> &'static dyn Model {
    let path = dir.join("cat/ptx-v6.0.cat");
    model_by_name(path.to_str().expect("a UTF-8 corpus path")).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn dat3m_ptx_v6_cat_agrees_with_dat3m_on_the_corpus() {
    let Some(dir) = corpus_dir() else {
        println!("cat conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let model = dat3m_v6(&dir);
    let list = corpus::read_list(&dir, corpus::PTX_V6).unwrap_or_else(|e| panic!("{e}"));
    let mut failures = Vec::new();
    for entry in &list {
        let src = std::fs::read_to_string(dir.join(&entry.path))
            .unwrap_or_else(|e| panic!("{}: {e}", entry.path));
        let test = common::parse(&src);
        match check(&test, model, &Options::default()) {
            Ok(r) if r.claim_holds == entry.expected => {}
            Ok(r) => failures.push(format!(
                "{}: claim_holds = {}, Dat3M says {} (allowed: {:?})",
                entry.path,
                r.claim_holds,
                entry.expected,
                r.outcome_lines(&test)
            )),
            Err(e) => failures.push(format!("{}: {e}", entry.path)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} disagree:\n{}",
        failures.len(),
        list.len(),
        failures.join("\n")
    );
    assert_eq!(list.len(), 104, "the PTX 6.0 list should name 104 tests");
}

/// Whether a test uses `fence.release` or `fence.acquire`, which came
/// after PTX 6.0: Dat3M's front end refuses them and its `ptx-v6.0.cat`
/// has no tag for them (it synchronises through `F & ACQ_REL` only).
fn uses_one_sided_fences(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .is_ok_and(|s| s.contains("fence.release") || s.contains("fence.acquire"))
}

#[test]
fn dat3m_ptx_v6_cat_agrees_with_builtin_ptx_on_the_repo_files() {
    let Some(dir) = corpus_dir() else {
        println!("cat conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let (cat, ptx) = (dat3m_v6(&dir), model_by_name("ptx").unwrap());
    let (newer, files): (Vec<PathBuf>, Vec<PathBuf>) = common::repo_litmus_files()
        .into_iter()
        .partition(|p| uses_one_sided_fences(p));
    assert!(
        files.len() >= 12,
        "found only {} .litmus files",
        files.len()
    );
    common::assert_same_outcomes(&files, cat, ptx);
    // The one-sided fences are ordinary fences to Dat3M's model (in `F`,
    // tagged `REL` or `ACQ`, never `ACQ_REL`): they synchronise nothing
    // there, so it allows at least what `ptx` allows.
    for f in &newer {
        let test = common::parse(&std::fs::read_to_string(f).unwrap());
        let (rc, rp) = (
            check(&test, cat, &Options::default()).unwrap(),
            check(&test, ptx, &Options::default()).unwrap(),
        );
        assert!(
            rp.allowed.is_subset(&rc.allowed),
            "{}: ptx allows {:?}, Dat3M's model only {:?}",
            f.display(),
            rp.outcome_lines(&test),
            rc.outcome_lines(&test)
        );
    }
}
