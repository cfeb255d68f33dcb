//! The GPU workers compile the modules of the next tests of a run of many
//! files (`gpu-litmus run`, `campaign`) while the current ones run: on an
//! H100 that took the cost of a test beyond its kernels from 50–80 ms (the
//! driver's JIT) to about 6 ms.

use std::collections::BTreeMap;
use std::sync::Mutex;

use litmus_hw as gpu;

/// Tests whose modules a GPU worker compiles ahead, per device: the
/// driver's JIT of a test then overlaps the kernels of the tests before
/// it.
pub const PREFETCH: usize = 8;

/// The most tests asked for ahead of one device: a worker keeps 32
/// modules, and one asked for too far ahead would be evicted before it
/// runs.
const MOST_AHEAD: usize = 24;

/// Keeps each device's prefetch window ahead of the tests that run (when
/// there is a GPU). Which device runs a test is known only when it starts
/// (the first device free), so each worker is asked for the next tests of
/// the whole set, as many more as there are devices, and compiles the
/// few it will not run too.
pub struct Prefetch<'f> {
    files: &'f [String],
    /// Tests ahead of the one starting that each worker is asked for.
    window: usize,
    /// Per device: the first file not yet asked of its worker.
    next: Mutex<BTreeMap<u32, usize>>,
    on: bool,
}

impl<'f> Prefetch<'f> {
    /// A window over the `.litmus` files `files`, run on `devices` (none:
    /// no GPU, no hints).
    pub fn new(files: &'f [String], devices: &[u32]) -> Prefetch<'f> {
        Prefetch {
            files,
            window: (PREFETCH * devices.len().max(1)).min(MOST_AHEAD),
            next: Mutex::new(BTreeMap::new()),
            on: !devices.is_empty(),
        }
    }

    /// Test `i` is about to run on the devices of `claim`: ask the worker
    /// of the first (the one that runs it) for the modules up to
    /// `i + window`. It is asked from the thread that holds the device, so
    /// the hint never waits for another test's run. A file that does not
    /// read or compile is left to its own run, which says why.
    pub fn after(&self, i: usize, claim: &[u32]) {
        let Some(&device) = claim.first() else {
            return;
        };
        let end = (i + 1 + self.window).min(self.files.len());
        let start = {
            let mut next = self.next.lock().unwrap_or_else(|p| p.into_inner());
            let asked = next.entry(device).or_insert(0);
            if !self.on || *asked >= end {
                return;
            }
            let start = (*asked).max(i);
            *asked = end;
            start
        };
        // The knobs the worker plans the runs with are the environment's.
        let knobs = gpu::Knobs::from_env().unwrap_or_default();
        let runs: Vec<_> = self.files[start..end]
            .iter()
            .filter_map(|f| litmus_core::text::read_file(f).ok())
            .filter_map(|(test, _)| {
                let ptx = litmus_ptx::generate(&test).ok()?;
                Some((test, ptx))
            })
            .collect();
        // Only a hint: a failure here shows again when the test runs.
        let runs = runs.iter().map(|(test, ptx)| (test, ptx.as_str()));
        let _ = gpu::prefetch(Some(device), runs, &knobs);
    }
}
