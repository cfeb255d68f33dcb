//! Rates with their uncertainty. A weak outcome seen 3 times in 1e9
//! instances and one seen 0 times in 1e6 are not told apart by their
//! counts alone: campaigns and tuning compare the Wilson score interval of
//! the fraction of instances that showed it, as the published harnesses
//! recommend (`shared/reference/tuning.md`).

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval `(low, high)` of the fraction `hits / trials`
/// at `z` standard deviations; `(0, 1)` when there were no trials.
///
/// ```
/// let (lo, hi) = litmus_runtime::stats::wilson(0, 1_000_000, litmus_runtime::stats::Z95);
/// assert!(lo < 1e-15);
/// assert!(hi > 3.0e-6 && hi < 4.0e-6); // the "rule of three", about 3.84/n
/// ```
pub fn wilson(hits: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = hits as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_holds_the_fraction_and_narrows_with_trials() {
        let (lo, hi) = wilson(50, 100, Z95);
        assert!(lo < 0.5 && 0.5 < hi);
        // Known value: 50/100 at 95% is (0.4038, 0.5962).
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo2, hi2) = wilson(5000, 10000, Z95);
        assert!(hi2 - lo2 < (hi - lo) / 5.0);
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
        let (lo, hi) = wilson(10, 10, Z95);
        assert!(lo > 0.69 && (1.0 - hi) < 1e-12, "{lo} {hi}");
    }
}
