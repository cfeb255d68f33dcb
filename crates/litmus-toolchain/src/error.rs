//! What can go wrong with the tools and the cache: one variant per cause,
//! each displayed as one line that names the path, the tool or the
//! variable involved.

use std::path::PathBuf;

use litmus_ptx::isa::SmArch;

/// An error of the toolchain: a tool not found or not what it claims, a
/// tool that failed on its input, or a cache that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// No path was given and none was found.
    #[error("no {tool} found: {how}")]
    NotFound {
        /// `ptxas` or `nvdisasm`.
        tool: &'static str,
        /// How to give one.
        how: String,
    },
    /// The path does not hold the tool: missing, not executable, or its
    /// `--version` is not the tool's.
    #[error("{}: not {tool}: {why}", path.display())]
    NotTool {
        /// The path tried.
        path: PathBuf,
        /// `ptxas` or `nvdisasm`.
        tool: &'static str,
        /// What is wrong with it.
        why: String,
    },
    /// An installed release's ptxas says it is another release (its folder
    /// is `ptxas-EXPECTED`).
    #[error("{}: says it is {says}, not {expected}", path.display())]
    WrongRelease {
        /// The ptxas in the folder.
        path: PathBuf,
        /// The version it reports.
        says: String,
        /// The version its folder names.
        expected: String,
    },
    /// ptxas refused the module.
    #[error("{ptxas} failed on the module for {arch}: {}", first_error(log))]
    Ptxas {
        /// The compiler (`ptxas 12.4.131`).
        ptxas: String,
        /// The target compiled for.
        arch: SmArch,
        /// ptxas's messages, trimmed.
        log: String,
    },
    /// nvdisasm does not read images of this architecture.
    #[error("{nvdisasm} cannot read {arch} images; CUDA 12's nvdisasm can")]
    NvdisasmArch {
        /// The disassembler (`nvdisasm 13.5.37`).
        nvdisasm: String,
        /// The image's architecture, as nvdisasm named it (`sm_70`).
        arch: String,
    },
    /// nvdisasm failed on the image.
    #[error("{nvdisasm} failed: {}", first_error(log))]
    Nvdisasm {
        /// The disassembler.
        nvdisasm: String,
        /// nvdisasm's messages, trimmed.
        log: String,
    },
    /// The module and its SASS cannot be lined up.
    #[error("cannot list the SASS: {why}")]
    Listing {
        /// What is missing.
        why: String,
    },
    /// A tool could not be started, or its temporary files written.
    #[error("{what}: {source}")]
    Io {
        /// What was being done (`running /usr/bin/ptxas`).
        what: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The cache folder cannot be used.
    #[error("module cache {} (from {var}): {why}", dir.display())]
    Cache {
        /// The folder.
        dir: PathBuf,
        /// The variable that chose it (`LITMUS_CACHE_DIR`, `HOME`), or
        /// `the caller` for [`ModuleCache::open`](crate::ModuleCache::open).
        var: String,
        /// What is wrong with it.
        why: String,
    },
    /// A toolchain named by its release is not in the toolchain folder.
    #[error("toolchain {name} is not installed in {}; install it with `bash scripts/install-toolchain.sh {install}` (or name a ptxas by path)", folder.display())]
    NotInstalled {
        /// The name asked for (`ptxas-12.4`).
        name: String,
        /// Where installed toolchains are looked for.
        folder: PathBuf,
        /// The release to give the install script (`12.4.131`, or
        /// `12.4.X` when only a prefix was named).
        install: String,
    },
    /// A variable has a value its reader does not take.
    #[error("{var}={value}: {why}")]
    Env {
        /// The variable.
        var: &'static str,
        /// Its value.
        value: String,
        /// What it takes.
        why: String,
    },
}

/// The line of a tool's log that says what went wrong: the first that
/// mentions an error, else the first; the log is shown in full by those
/// who match on the variant.
pub fn first_error(log: &str) -> &str {
    let lines = || log.lines().map(str::trim).filter(|l| !l.is_empty());
    lines()
        .find(|l| l.contains("error") || l.contains("fatal"))
        .or_else(|| lines().next())
        .unwrap_or("(no message)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_error_line_is_the_one_shown() {
        let log = "ptxas warning : x\nptxas t.ptx, line 9; error   : Unknown symbol 'y'\nptxas fatal   : aborted";
        assert_eq!(
            first_error(log),
            "ptxas t.ptx, line 9; error   : Unknown symbol 'y'"
        );
        assert_eq!(first_error("  \n just this \n"), "just this");
        assert_eq!(first_error(""), "(no message)");
        let e = ToolError::Ptxas {
            ptxas: "ptxas 12.4.131".into(),
            arch: SmArch::new(90),
            log: log.into(),
        };
        assert_eq!(
            e.to_string(),
            "ptxas 12.4.131 failed on the module for sm_90: ptxas t.ptx, line 9; error   : Unknown symbol 'y'"
        );
    }
}
