//! The launch loop of a run: launches until the knobs' count or time
//! budget, reading the clock only as often as the budget needs, and the
//! classifier's tally read back at the end. Apart from `harness.rs` for
//! its length.

use std::time::{Duration, Instant};

use litmus_ptx::layout::counter;

use super::Setup;
use crate::devices::Devices;
use crate::host_threads::Crew;
use crate::knobs::Knobs;
use crate::GpuError;

/// Launches for the knobs' launches or time budget; returns the launches
/// made and the wall time they took, the queue drained.
pub(super) fn launch_until_done(
    devices: &Devices,
    setup: &Setup,
    k: &Knobs,
    crew: Option<&Crew>,
) -> Result<(u64, Duration), GpuError> {
    let start = Instant::now();
    let budget = Duration::from_millis(k.budget_ms);
    let mut launches = 0u64;
    let mut check_at = 1u64;
    loop {
        let done = match k.launches {
            Some(n) => launches >= n,
            // The clock is read only with the queue drained, so that a
            // deep queue does not overrun the budget.
            None => {
                launches >= check_at && {
                    devices.synchronize()?;
                    let elapsed = start.elapsed();
                    check_at = launches + launches_before_next_check(launches, elapsed, budget);
                    elapsed >= budget
                }
            }
        };
        if done {
            break;
        }
        setup.launch(devices, k, launches, None, crew)?;
        launches += 1;
    }
    devices.synchronize()?;
    Ok((launches, start.elapsed()))
}

/// The most work queued between two readings of the clock. Each reading
/// drains the queue, and the GPU idles while the next launch reaches it:
/// on an H100, reading every 64 launches of 17 µs cost SB 1.3% of its
/// instances a second against a run of a fixed count; every 10 ms it
/// costs a tenth of that (`docs/running-on-gpus.md`). (Launches with a start flag drain the
/// queue after each one anyway.)
pub(super) const QUEUED_BETWEEN_READINGS: Duration = Duration::from_millis(10);

/// The most launches queued between two readings, whatever their pace: a
/// queue the driver holds without blocking.
pub(super) const MAX_LAUNCHES_BETWEEN_READINGS: u64 = 1024;

/// How many launches to queue before the clock is read again: those that
/// fit in the time left, and in [`QUEUED_BETWEEN_READINGS`], at the pace
/// so far; at least one. A search's trials are a few milliseconds of
/// heavy launches: a fixed count between readings made each of them
/// hundreds of milliseconds.
pub(super) fn launches_before_next_check(
    launches: u64,
    elapsed: Duration,
    budget: Duration,
) -> u64 {
    let left = budget
        .saturating_sub(elapsed)
        .min(QUEUED_BETWEEN_READINGS)
        .as_secs_f64();
    let pace = elapsed.as_secs_f64() / launches.max(1) as f64;
    if pace <= 0.0 {
        return 64;
    }
    ((left / pace).ceil() as u64).clamp(1, MAX_LAUNCHES_BETWEEN_READINGS)
}

/// What the classifier counted over the whole run.
pub(super) struct Tally {
    /// Outcome → count, most frequent first.
    pub(super) histogram: Vec<(Vec<u32>, u64)>,
    /// Instances in which some role gave up on a loop.
    pub(super) unfinished: u64,
    /// Instances whose outcome found no free table entry.
    pub(super) overflow: u64,
}

impl Tally {
    /// Reads the histogram table and the counters back from the GPU.
    pub(super) fn read(setup: &Setup) -> Result<Tally, GpuError> {
        let words = setup.layout.entry_words();
        let v = setup.layout.observables.len();
        let table = setup.table.read()?;
        let counters = setup.counters.read()?;
        let c64 = |i: usize| u64::from(counters[2 * i]) | (u64::from(counters[2 * i + 1]) << 32);
        let mut histogram = Vec::new();
        for entry in table.chunks(words) {
            if entry[0] == 0 && entry[1] == 0 {
                continue;
            }
            let count = u64::from(entry[2]) | (u64::from(entry[3]) << 32);
            histogram.push((entry[4..4 + v].to_vec(), count));
        }
        histogram.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Ok(Tally {
            histogram,
            unfinished: c64(counter::UNFINISHED),
            overflow: c64(counter::OVERFLOW),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_is_read_as_often_as_a_short_budget_needs() {
        let ms = Duration::from_millis;
        // 2 ms launches, 30 ms budget, 24 ms gone: 3 more fit.
        assert_eq!(launches_before_next_check(12, ms(24), ms(30)), 3);
        // 6 ms gone: 12 more fit the budget, 5 the time between readings.
        assert_eq!(launches_before_next_check(3, ms(6), ms(30)), 5);
        // Slow launches: read again after every one.
        assert_eq!(launches_before_next_check(1, ms(20), ms(30)), 1);
        // Past the budget: one more at most (the caller stops anyway).
        assert_eq!(launches_before_next_check(10, ms(40), ms(30)), 1);
        // Fast launches on a long budget: 10 ms of them (625 of 16 µs),
        // and never more than the driver queues without blocking.
        assert_eq!(
            launches_before_next_check(64, Duration::from_micros(1024), ms(1000)),
            625
        );
        assert_eq!(
            launches_before_next_check(1000, Duration::from_micros(1000), ms(1000)),
            1024
        );
        // No pace yet: 64, to learn it.
        assert_eq!(launches_before_next_check(1, Duration::ZERO, ms(1000)), 64);
    }
}
