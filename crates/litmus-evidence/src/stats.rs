//! Rates with their uncertainty. A weak outcome seen 3 times in 1e9
//! instances and one seen 0 times in 1e6 are not told apart by their
//! counts alone: campaigns and tuning compare the Wilson score interval of
//! the fraction of instances that showed it, as the published harnesses
//! recommend (`shared/reference/tuning.md`).

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of `hits` successes in `trials` at normal
/// quantile `z`: `(low, high)`, both in `[0, 1]`. No trials: `(0, 1)`.
/// ```
/// let (lo, hi) = litmus_evidence::stats::wilson(0, 1_000_000, litmus_evidence::stats::Z95);
/// assert_eq!(lo, 0.0);
/// assert!(hi > 3.0e-6 && hi < 4.0e-6); // the "rule of three", about 3.84/n
/// ```
pub fn wilson(hits: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = hits.min(trials) as f64 / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z2 / n;
    // At the ends the bound is exact; rounding would leave 1e-22 there.
    let low = if hits == 0 {
        0.0
    } else {
        (centre - spread) / denom
    };
    let high = if hits >= trials {
        1.0
    } else {
        (centre + spread) / denom
    };
    (low.clamp(0.0, 1.0), high.clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_intervals() {
        // Wilson's interval for 1 of 10 at 95%: [0.0179, 0.4042].
        let (lo, hi) = wilson(1, 10, Z95);
        assert!(
            (lo - 0.01788).abs() < 1e-4 && (hi - 0.40415).abs() < 1e-4,
            "{lo} {hi}"
        );
        // Nothing seen: the lower bound is 0 and the upper about 3.84/n.
        let (lo, hi) = wilson(0, 1_000_000, Z95);
        assert_eq!(lo, 0.0);
        assert!((hi - 3.84e-6).abs() < 1e-7, "{hi}");
        assert_eq!(wilson(5, 0, Z95), (0.0, 1.0));
        let (lo, hi) = wilson(10, 10, Z95);
        assert!(lo > 0.69 && hi == 1.0, "{lo} {hi}");
    }

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
        assert!(lo > 0.69 && hi == 1.0, "{lo} {hi}");
    }
}
