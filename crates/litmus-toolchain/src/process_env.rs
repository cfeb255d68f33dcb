//! The toolchain crate's one reader of the process's environment
//! (`docs/architecture.md`, "Reading the environment"): the module
//! cache's variables, a tool's own variable and `PATH`. Everything else
//! takes its variables as a lookup (`from_vars`), which tests give as a
//! map.

use std::ffi::OsString;

/// The variable `name`'s value; `None` where it is unset or not Unicode.
pub(crate) fn lookup(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// The variable `name` as the operating system holds it (a path need not
/// be Unicode); `None` where it is unset.
pub(crate) fn lookup_os(name: &str) -> Option<OsString> {
    std::env::var_os(name)
}
