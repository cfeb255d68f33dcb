//! The GPU worker compiles the modules of the next tests of a campaign or
//! a `run` of many files while the current one runs: on an H100 that
//! took the cost of a test beyond its kernels from 50–80 ms (the driver's
//! JIT) to about 6 ms.

use litmus_hw as gpu;

use super::load::load;

/// Tests whose modules the GPU worker compiles ahead: the driver's JIT of
/// a test then overlaps the kernels of the tests before it.
pub(super) const PREFETCH: usize = 8;

/// Keeps the worker's prefetch window [`PREFETCH`] tests ahead of the
/// tests that run (when there is a GPU).
pub(super) struct Prefetch<'f> {
    files: &'f [String],
    /// The first file not yet asked for.
    next: usize,
    on: bool,
}

impl<'f> Prefetch<'f> {
    pub(super) fn new(files: &'f [String]) -> Prefetch<'f> {
        Prefetch {
            files,
            next: 0,
            on: matches!(gpu::hardware_wanted(), Ok(None)),
        }
    }

    /// Test `i` is about to run: ask for the modules up to `i + PREFETCH`.
    /// A file that does not read or compile is left to its own run, which
    /// says why.
    pub(super) fn after(&mut self, i: usize) {
        let end = (i + 1 + PREFETCH).min(self.files.len());
        if !self.on || self.next >= end {
            return;
        }
        let modules: Vec<String> = self.files[self.next.max(i)..end]
            .iter()
            .filter_map(|f| load(f).ok())
            .filter_map(|l| litmus_core::ptx::generate(&l.test).ok())
            .collect();
        self.next = end;
        // Only a hint: a failure here shows again when the test runs.
        let _ = gpu::prefetch(modules);
    }
}
