//! `ptx-async` extends `ptx-7.5` and changes nothing without async
//! operations: on every test of Dat3M's `expected-ptx-v7.5.csv` (read from
//! `LITMUS_CONFORMANCE_DIR`) both the built-in model and its cat twin
//! `models/ptx-async.cat` allow exactly the outcomes `ptx-7.5` allows.
//! (`tests/async_agrees_on_catalogue.rs` at the root does the same over
//! the catalogue.)

mod common;

use std::path::Path;

use litmus_core::corpus::{self, PTX_V75};
use litmus_model::model_by_name;

fn agree_on_corpus(model: &str) {
    let Some(dir) = std::env::var_os(corpus::CORPUS_ENV) else {
        println!("conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let files = common::corpus_files(Path::new(&dir), PTX_V75);
    assert_eq!(files.len(), 172, "{PTX_V75} should name 172 tests");
    let reference = model_by_name("ptx-7.5").unwrap();
    let model = model_by_name(model).unwrap_or_else(|e| panic!("{e}"));
    common::assert_same_outcomes(&files, model, reference);
    println!(
        "conformance: {} allows what ptx-7.5 allows on the {} tests of {PTX_V75}",
        model.name(),
        files.len()
    );
}

#[test]
fn ptx_async_agrees_with_ptx75_on_the_v75_corpus() {
    agree_on_corpus("ptx-async");
}

#[test]
fn ptx_async_cat_agrees_with_ptx75_on_the_v75_corpus() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/ptx-async.cat");
    agree_on_corpus(path.to_str().unwrap());
}
