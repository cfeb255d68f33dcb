//! The GPU workers compile the modules of the next tests of a run of many
//! files (`gpu-litmus run`, `campaign`) while the current ones run: on an
//! H100 that took the cost of a test beyond its kernels from 50–80 ms (the
//! driver's JIT) to about 6 ms.

use std::collections::BTreeMap;
use std::sync::Mutex;

use litmus_hw as gpu;

use crate::config::Config;

/// Tests whose modules a GPU worker compiles ahead, per device: the
/// driver's JIT of a test then overlaps the kernels of the tests before
/// it.
pub const PREFETCH: usize = 8;

/// The most modules asked for ahead of one device, well within what a
/// worker keeps (one asked for too far ahead would be evicted before it
/// runs): what the worker compiles on helper threads shares the device's
/// context with the run in progress, so more ahead than the next few
/// tests need only competes with it. A test takes one module a slot of
/// the portfolio.
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
    /// The knobs the tests run with: the portfolio's slots over the run's
    /// knobs. Each slot's module is asked for, built as that slot builds
    /// it (its compiler).
    slots: Vec<gpu::Knobs>,
}

impl<'f> Prefetch<'f> {
    /// A window over the `.litmus` files `files`, run on `devices` (none:
    /// no GPU, no hints) with `config`'s knobs and portfolio.
    pub fn new(files: &'f [String], devices: &[u32], config: &Config) -> Prefetch<'f> {
        let slots = match config.portfolio.knobs(&config.knobs) {
            Ok((slots, _)) => slots,
            // The run says why; the hint goes with the knobs alone.
            Err(_) => vec![config.knobs.clone()],
        };
        let most = (MOST_AHEAD / slots.len().max(1)).max(1);
        Prefetch {
            files,
            window: (PREFETCH * devices.len().max(1)).min(most),
            next: Mutex::new(BTreeMap::new()),
            on: !devices.is_empty(),
            slots,
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
        let tests: Vec<_> = self.files[start..end]
            .iter()
            .filter_map(|f| litmus_text::read_file(f).ok())
            .map(|(test, _)| test)
            .collect();
        // Each test's modules made once for every slot: slots that differ
        // in shape or compiler but not in codegen load one module.
        let made: Vec<gpu::Modules> = tests.iter().map(gpu::Modules::of).collect();
        let made: Vec<&gpu::Modules> = made.iter().collect();
        // Only a hint: a failure here shows again when the test runs. Each
        // slot's modules as that slot builds them: a slot under ptxas
        // asked for through the environment's knobs got the JIT's module,
        // and compiled its own when it ran.
        for knobs in &self.slots {
            let _ = gpu::prefetch_modules(Some(device), &made, knobs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::portfolio::Portfolio;

    /// Each slot of the portfolio is asked for, and the window holds no
    /// more modules than a worker keeps: a test takes one a slot.
    #[test]
    fn each_slot_is_asked_for_within_what_a_worker_keeps() {
        let files = vec!["a.litmus".to_string(); 40];
        let model = litmus_model::model_by_name("ptx").unwrap();
        let mut config = Config::with_model(model).unwrap();
        let window = |config: &Config, devices: &[u32]| {
            let p = Prefetch::new(&files, devices, config);
            (p.slots.len(), p.window)
        };
        config.portfolio = Portfolio::off();
        assert_eq!(window(&config, &[0]), (1, 8));
        assert_eq!(window(&config, &[0, 1, 2, 3]), (1, 24));
        config.portfolio = Portfolio::parse("-;LITMUS_CTAS=256;LITMUS_THREADS=8").unwrap();
        assert_eq!(window(&config, &[0]), (3, 8));
        assert_eq!(window(&config, &[0, 1, 2, 3]), (3, 8));
        let p = Prefetch::new(&files, &[0], &config);
        let ctas: Vec<u32> = p.slots.iter().map(|k| k.ctas).collect();
        assert_eq!(ctas[1], 256, "{ctas:?}");
    }
}
