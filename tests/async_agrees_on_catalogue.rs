//! `ptx-async` against `ptx-7.5` on the catalogue: on every test without
//! async operations they allow the same outcomes (the extension changes
//! nothing there), and on every test with them `ptx-7.5` refuses and
//! `ptx-async` checks. Dat3M's v7.5 corpus is compared in
//! `crates/litmus-model/tests/async_agrees_with_ptx75.rs`.
//!
//! The catalogue is compiled again as modules of this test, as in
//! `outcome_search.rs`: each file's `use gpu_litmus::litmus` picks up the
//! `litmus!` of `catalogue_support/assert_each.rs`, which hands each
//! call's IR to `assert_agree` below.

extern crate gpu_litmus as library;
extern crate self as gpu_litmus;

use library::core::ir::Test;
use litmus_model::events::PathError;
use litmus_model::{check, model_by_name, CheckError, Options};

fn assert_agree(test: &Test, what: &str) {
    let opts = Options::default();
    let with_async = check(test, model_by_name("ptx-async").unwrap(), &opts);
    let without = check(test, model_by_name("ptx-7.5").unwrap(), &opts);
    if test.first_async_use().is_some() {
        assert!(
            matches!(without, Err(CheckError::Paths(PathError::Async { .. }))),
            "{what}: ptx-7.5 should refuse an async test, gave {:?}",
            without.map(|r| r.outcome_lines(test))
        );
        assert!(with_async.is_ok(), "{what}: {:?}", with_async.err());
        return;
    }
    let (a, b) = (
        with_async
            .map(|r| r.outcome_lines(test))
            .map_err(|e| e.to_string()),
        without
            .map(|r| r.outcome_lines(test))
            .map_err(|e| e.to_string()),
    );
    assert_eq!(a, b, "{what}: ptx-async allows {a:?}, ptx-7.5 {b:?}");
}

include!("catalogue_support/assert_each.rs");

include!("catalogue_support/modules.rs");
