//! Why a toolchain that a knob, a flag or a tuning entry names is none to
//! compile with. Kept as values (the reasons of a checked spec are kept
//! for the process, so they are cloned) and displayed as one line that
//! the caller prefixes with where the spec came from.

/// Why a toolchain's spec names no ptxas to use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ToolchainError {
    /// The spec is no toolchain: not `jit`, not a release's name, not a
    /// path to a file.
    #[error("{0}")]
    NotASpec(String),
    /// `jit` where a ptxas is wanted.
    #[error("`jit` names the driver's JIT, not a ptxas")]
    Jit,
    /// The spec names a release that is not installed, or a file that is
    /// no ptxas.
    #[error("{0}")]
    NoPtxas(String),
    /// A list of toolchains has an empty entry.
    #[error("`{list}`: an empty entry")]
    EmptyEntry {
        /// The list as given.
        list: String,
    },
    /// An entry of a list names no ptxas.
    #[error("`{entry}`: {why}")]
    Entry {
        /// The entry.
        entry: String,
        /// Why it is none.
        why: Box<ToolchainError>,
    },
    /// The driver's JIT is not here: no driver or no device, or the
    /// driver could not say its version.
    #[error("{0}")]
    NoJit(String),
}
