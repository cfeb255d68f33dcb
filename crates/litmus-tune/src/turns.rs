//! Whose turn it is in a wave: a kin's tests take turns in proportion to
//! the share of that kin whose weak outcome has shown.
//!
//! Why: in a campaign's search most of the budget goes to variants that
//! never show, and they are not spread evenly over the kin: whole kin show
//! nothing, in the run or in the search, while the variants that do show
//! mostly need a fraction of their budget and the rarest need several
//! times it (`docs/tuning-and-campaigns.md`, "Where the search's budget
//! goes"). So a kin of which no test has shown, in the run, in the rounds
//! before or in this search, gets a tenth of the turns, and its share grows
//! with what it shows; a kin of which one test in twenty has shown takes
//! every wave. The budget is the set's, so what such a kin does not spend
//! goes to the kin that show. Shares are taken relative to the best kin
//! still searching, so a set of only barren kin still spends its whole
//! budget.

/// A kin of which this share of tests has shown takes every wave.
pub(crate) const FULL_SHARE: f64 = 1.0 / 20.0;

/// The fewest turns a kin takes, as a share of the waves: one in ten.
pub(crate) const FLOOR: f64 = 1.0 / 10.0;

/// Each class's record outside the set, and each test's turns owed.
pub(crate) struct Turns {
    /// Per class of kin: tests outside the set, and those that showed.
    outside: Vec<(usize, usize)>,
    /// Per test of the set: the part of a turn it has earned so far.
    owed: Vec<f64>,
}

impl Turns {
    /// `tests` tests in `classes` classes; `outside` gives, per test
    /// outside the set, its class (if one of the set's) and whether its
    /// weak outcome showed.
    pub(crate) fn new(
        tests: usize,
        classes: usize,
        outside: impl IntoIterator<Item = (Option<usize>, bool)>,
    ) -> Turns {
        let mut record = vec![(0, 0); classes.max(1)];
        for (class, shown) in outside {
            if let Some(c) = class {
                record[c].0 += 1;
                record[c].1 += usize::from(shown);
            }
        }
        Turns {
            outside: record,
            owed: vec![0.0; tests],
        }
    }

    /// Who takes a turn in the next wave: test `t` of class `kin[t]`,
    /// `seen(t)` when its weak outcome has shown, `searching(t)` while it
    /// is not done.
    pub(crate) fn wave(
        &mut self,
        kin: &[usize],
        seen: impl Fn(usize) -> bool,
        searching: impl Fn(usize) -> bool,
    ) -> Vec<bool> {
        let mut tally = self.outside.clone();
        for (t, &c) in kin.iter().enumerate().take(self.owed.len()) {
            tally[c].0 += 1;
            tally[c].1 += usize::from(seen(t));
        }
        let weight: Vec<f64> = tally
            .iter()
            .map(|&(n, s)| (s as f64 / n.max(1) as f64 / FULL_SHARE).clamp(FLOOR, 1.0))
            .collect();
        let best = (0..self.owed.len())
            .filter(|&t| searching(t))
            .map(|t| weight[kin[t]])
            .fold(0.0, f64::max);
        (0..self.owed.len())
            .map(|t| {
                if !searching(t) || best == 0.0 {
                    return false;
                }
                self.owed[t] += weight[kin[t]] / best;
                // A hair under one, so that a share of exactly one wave in
                // ten takes its turn in the tenth despite rounding.
                let takes = self.owed[t] >= 1.0 - 1e-9;
                if takes {
                    self.owed[t] -= 1.0;
                }
                takes
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Class 0: 40 tests outside, none shown; class 1: 40 outside, 4 shown.
    fn turns(tests: usize) -> Turns {
        let outside = (0..80).map(|i| (Some(usize::from(i >= 40)), i >= 76));
        Turns::new(tests, 2, outside)
    }

    #[test]
    fn a_kin_that_has_shown_nothing_takes_a_tenth_of_the_waves() {
        let mut t = turns(2);
        let kin = [0, 1];
        let mut taken = [0; 2];
        for _ in 0..100 {
            let w = t.wave(&kin, |_| false, |_| true);
            (0..2).for_each(|i| taken[i] += usize::from(w[i]));
        }
        assert_eq!(taken, [10, 100]);
    }

    #[test]
    fn a_barren_kin_alone_still_takes_every_wave() {
        let mut t = turns(2);
        let kin = [0, 0];
        let all = (0..10).all(|_| t.wave(&kin, |_| false, |_| true) == vec![true, true]);
        assert!(all);
    }

    #[test]
    fn a_kin_takes_more_turns_as_its_tests_show() {
        // Class 0 of 40 outside (none shown) and 4 in the set: once three
        // of the set have shown, 3 in 44 is over one in twenty.
        let mut t = turns(5);
        let kin = [0, 0, 0, 0, 1];
        let before = (0..20)
            .filter(|_| t.wave(&kin, |_| false, |_| true)[3])
            .count();
        let after = (0..20)
            .filter(|_| t.wave(&kin, |i| i < 3, |i| i >= 3)[3])
            .count();
        assert_eq!((before, after), (2, 20));
    }

    #[test]
    fn a_test_done_takes_no_turn() {
        let mut t = turns(2);
        assert_eq!(t.wave(&[1, 1], |_| false, |i| i == 1), vec![false, true]);
    }
}
