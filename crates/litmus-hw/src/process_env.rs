//! The hardware crate's one reader of the process's environment
//! (`docs/architecture.md`, "Reading the environment"): the knobs
//! (`Knobs::from_env`), the devices (`LITMUS_DEVICES`), whether a GPU or
//! the hardware is required, the fault to inject and the toolchain folder
//! are all read through it, so that what the crate reads is in one list.
//! Everything else takes its variables as a lookup (`from_vars`), which
//! tests give as a map.

/// The variable `name`'s value; `None` where it is unset or not Unicode
/// (either counts as unset).
pub(crate) fn lookup(name: &str) -> Option<String> {
    std::env::var(name).ok()
}
