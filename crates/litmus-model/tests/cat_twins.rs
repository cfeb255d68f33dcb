//! The project's cat twins of the built-in models (`models/*.cat`) allow
//! exactly the outcomes their Rust twins allow, on every test of the
//! corpus' PTX 6.0 and termination lists and every `.litmus` file of the
//! repository.

mod common;

use std::path::{Path, PathBuf};

use litmus_core::corpus;
use litmus_model::model_by_name;

fn twin(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../models/{name}.cat"));
    let cat = model_by_name(path.to_str().unwrap()).unwrap_or_else(|e| panic!("{e}"));
    let rust = model_by_name(name).unwrap();
    let mut files: Vec<PathBuf> = common::repo_litmus_files();
    match std::env::var_os(corpus::CORPUS_ENV) {
        Some(dir) => {
            let dir = Path::new(&dir);
            files.extend(common::corpus_files(dir, corpus::PTX_V6));
            files.extend(common::corpus_files(dir, corpus::TERMINATION));
            files.sort();
            files.dedup();
        }
        None => println!("cat twins: corpus skipped, LITMUS_CONFORMANCE_DIR is not set"),
    }
    common::assert_same_outcomes(&files, cat, rust);
}

#[test]
fn sc_cat_agrees_with_sc() {
    twin("sc");
}

#[test]
fn ptx_cat_agrees_with_ptx() {
    twin("ptx");
}

#[test]
fn ptx_2015_cat_agrees_with_ptx_2015() {
    twin("ptx-2015");
}

/// On the async tests of `tests/async` as on every other file: the only
/// model of the four that checks them.
#[test]
fn ptx_async_cat_agrees_with_ptx_async() {
    twin("ptx-async");
}
