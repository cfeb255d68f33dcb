//! Compile-time diagnostics of `litmus!`: every `tests/ui/fail` case must
//! fail with exactly the message and caret in its `.stderr`, every
//! `tests/ui/pass` case must compile and run.
//!
//! Regenerate the `.stderr` files with `TRYBUILD=overwrite cargo test --test ui`
//! after a deliberate change, and read them before committing.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
