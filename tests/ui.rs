//! Compile-time diagnostics of `litmus!`: every `tests/ui/fail` case must
//! fail with exactly the message and caret in its `.stderr`, every
//! `tests/ui/pass` case must compile and run.
//!
//! Regenerate the `.stderr` files with `TRYBUILD=overwrite cargo test --test ui`
//! after a deliberate change, and read them before committing.

#[test]
fn ui() {
    // The packed binaries also run on the GPU machine, which has no Rust
    // toolchain: there the compile-time checks cannot run, and say so.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    if std::process::Command::new(&cargo)
        .arg("--version")
        .output()
        .is_err()
    {
        println!(
            "ui: skipped, no cargo on this machine (compile-time diagnostics need a toolchain)"
        );
        return;
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
