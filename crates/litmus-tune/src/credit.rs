//! The credit of the pool's configurations: how a test still unseen ranks
//! what to try next, from what the configurations showed in the others.
//!
//! A configuration earns, for each test it showed the weak outcome of, one
//! over the number of configurations that showed that test (one that shows
//! a rare variant is worth more than one of fifty that show MP). A test
//! ranks the configurations, in order of weight:
//!
//! 1. by what they showed in its kin ([`crate::kin`]): the same fences at
//!    the same scopes, which the compiler and the environment treat alike;
//! 2. by the compiler its kin showed under: each compiler's share of the
//!    kin's credit, so that a configuration that has not shown anything
//!    yet is tried first under the compiler that shows the kin (on Hopper
//!    ptxas of CUDA 12 for CTA-scope fences, where the driver's JIT shows
//!    few: `docs/tuning-and-campaigns.md`);
//! 3. by what they showed anywhere in the set.
//!
//! With one kin and one compiler this is the plain credit, rank for rank.
//!
//! What a configuration showed in the kin also lengthens its slice for
//! the test: up to seven more slices for the one that showed the kin most.
//! Why: a few environments, each under the right compiler, show most of
//! what a search shows, and a variant's rate there is lower than its
//! kin's, not nothing: it needs that environment for longer, not another
//! one briefly (the campaign that showed it:
//! `docs/tuning-and-campaigns.md`, "The twins in a whole campaign").

use std::collections::BTreeSet;

use litmus_hw::Knobs;

/// The pool's configurations ranked for each class of kin.
pub(crate) struct Credit {
    /// Per class of kin, each pool configuration's rank (higher first).
    by_class: Vec<Vec<f64>>,
    /// Per class of kin, the slices a trial of each configuration gets:
    /// one, and up to [`DEEPER`] more by what it showed in the kin.
    slices: Vec<Vec<f64>>,
}

/// How many slices more the configuration that showed a test's kin most
/// gets for that test; the others in proportion to what they showed.
pub(crate) const DEEPER: f64 = 7.0;

/// The weights of the three parts: what a configuration showed in the
/// kin counts twice as much as its compiler's share, which counts twice as
/// much as what it showed anywhere; each part is at most 1 before its
/// weight.
const KIN: f64 = 2.0;
const COMPILER: f64 = 1.0;
const ANYWHERE: f64 = 0.5;

impl Credit {
    /// The ranks for the class of kin `class`.
    pub(crate) fn for_class(&self, class: usize) -> &[f64] {
        &self.by_class[class]
    }

    /// The slices a trial of each configuration gets for a test of class
    /// `class`: one, and up to [`DEEPER`] more by what it showed in the kin.
    pub(crate) fn slices(&self, class: usize) -> &[f64] {
        &self.slices[class]
    }

    /// The credit after `shown_by` (per pool configuration, the tests it
    /// showed), where test `t` is of class `kin[t]` (of `classes`) and
    /// pool configuration `c` is built by compiler `compiler[c]`.
    pub(crate) fn of(
        shown_by: &[BTreeSet<usize>],
        kin: &[usize],
        classes: usize,
        compiler: &[usize],
    ) -> Credit {
        let mut showers = vec![0usize; kin.len()];
        for set in shown_by {
            for &t in set {
                showers[t] += 1;
            }
        }
        let worth = |set: &BTreeSet<usize>, class: Option<usize>| -> f64 {
            set.iter()
                .filter(|&&t| class.is_none_or(|k| kin[t] == k))
                .map(|&t| 1.0 / showers[t] as f64)
                .sum()
        };
        let compilers = compiler.iter().max().map_or(0, |m| m + 1);
        let anywhere = scaled(shown_by.iter().map(|s| worth(s, None)).collect());
        let mut slices = Vec::new();
        let by_class = (0..classes.max(1))
            .map(|class| {
                let kin_credit: Vec<f64> = shown_by.iter().map(|s| worth(s, Some(class))).collect();
                let mut share = vec![0.0; compilers];
                for (c, v) in kin_credit.iter().enumerate() {
                    share[compiler[c]] += v;
                }
                let total: f64 = share.iter().sum();
                if total > 0.0 {
                    share.iter_mut().for_each(|s| *s /= total);
                }
                let kin_credit = scaled(kin_credit);
                slices.push(kin_credit.iter().map(|k| 1.0 + DEEPER * k).collect());
                (0..compiler.len())
                    .map(|c| {
                        KIN * kin_credit[c] + COMPILER * share[compiler[c]] + ANYWHERE * anywhere[c]
                    })
                    .collect()
            })
            .collect();
        Credit { by_class, slices }
    }
}

/// Each configuration's compiler, as an index among the distinct ones:
/// two names of one ptxas (`ptxas-12`, `ptxas-12.4.131`) are one compiler,
/// known by the name it gives itself; a name that does not resolve here
/// stands for itself.
pub(crate) fn compilers(pool: &[Knobs], resolve: impl Fn(&str) -> Option<String>) -> Vec<usize> {
    let mut names: Vec<Option<String>> = Vec::new();
    let mut resolved: Vec<(Option<String>, Option<String>)> = Vec::new();
    pool.iter()
        .map(|k| {
            let name = match resolved.iter().find(|(spec, _)| *spec == k.ptxas) {
                Some((_, name)) => name.clone(),
                None => {
                    let name = k
                        .ptxas
                        .as_ref()
                        .map(|spec| resolve(spec).unwrap_or_else(|| spec.clone()));
                    resolved.push((k.ptxas.clone(), name.clone()));
                    name
                }
            };
            match names.iter().position(|n| *n == name) {
                Some(i) => i,
                None => {
                    names.push(name);
                    names.len() - 1
                }
            }
        })
        .collect()
}

/// `v` over its largest value (all zero stays zero).
fn scaled(v: Vec<f64>) -> Vec<f64> {
    let top = v.iter().copied().fold(0.0, f64::max);
    if top > 0.0 {
        v.into_iter().map(|x| x / top).collect()
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(toolchains: &[Option<&str>]) -> Vec<Knobs> {
        toolchains
            .iter()
            .enumerate()
            .map(|(i, t)| Knobs {
                stride: 1 + i as u32,
                ptxas: t.map(str::to_string),
                ..Knobs::default()
            })
            .collect()
    }

    #[test]
    fn two_names_of_one_ptxas_are_one_compiler() {
        let pool = pool(&[
            None,
            Some("ptxas-12"),
            Some("ptxas-12.4.131"),
            Some("/opt/ptxas"),
            None,
        ]);
        let resolve = |spec: &str| {
            spec.starts_with("ptxas-12")
                .then(|| "ptxas 12.4.131".to_string())
        };
        assert_eq!(compilers(&pool, resolve), vec![0, 1, 1, 2, 0]);
    }

    fn order(ranks: &[f64]) -> Vec<usize> {
        let mut c: Vec<usize> = (0..ranks.len()).collect();
        c.sort_by(|a, b| ranks[*b].total_cmp(&ranks[*a]).then(a.cmp(b)));
        c
    }

    #[test]
    fn one_kin_and_one_compiler_rank_as_the_plain_credit() {
        let pool = pool(&[None, None, None, None]);
        // Config 2 showed the rare test 1 (only it did); 0 and 2 the test 0.
        let shown = vec![
            BTreeSet::from([0]),
            BTreeSet::new(),
            BTreeSet::from([0, 1]),
            BTreeSet::new(),
        ];
        let c = Credit::of(&shown, &[0, 0, 0], 1, &compilers(&pool, |_| None));
        assert_eq!(order(c.for_class(0)), vec![2, 0, 1, 3]);
    }

    #[test]
    fn what_showed_the_kin_comes_first_then_the_kins_compiler_then_the_rest() {
        // Configs 0, 1 under the JIT; 2, 3 under ptxas.
        let pool = pool(&[None, None, Some("ptxas-12.4"), Some("ptxas-12.4")]);
        // Tests 0..3 of class 0 (unfenced) all shown by config 0 (JIT);
        // test 3 of class 1 (CTA fences) shown by config 2 (ptxas).
        let shown = vec![
            BTreeSet::from([0, 1, 2]),
            BTreeSet::new(),
            BTreeSet::from([3]),
            BTreeSet::new(),
        ];
        let kin = [0, 0, 0, 1, 1];
        let compiler = compilers(&pool, |_| None);
        let c = Credit::of(&shown, &kin, 2, &compiler);
        // Class 1 tries config 2 (showed its kin), then 3 (its kin's
        // compiler, nothing shown), then 0 (showed most, elsewhere), then 1.
        assert_eq!(order(c.for_class(1)), vec![2, 3, 0, 1]);
        // Class 0 the other way round.
        assert_eq!(order(c.for_class(0)), vec![0, 1, 2, 3]);
        // A class nothing of which showed ranks by the credit anywhere.
        let c = Credit::of(&shown, &[0, 0, 0, 1, 2], 3, &compiler);
        assert_eq!(order(c.for_class(2)), vec![0, 2, 1, 3]);
    }

    #[test]
    fn what_showed_the_kin_gets_longer_slices_for_it_and_nothing_else_does() {
        let pool = pool(&[None, None, None, None]);
        // Class 0: config 0 showed tests 0 and 1, config 1 test 1 only (so
        // half of 0's worth); class 1: config 3 showed test 2.
        let shown = vec![
            BTreeSet::from([0, 1]),
            BTreeSet::from([1]),
            BTreeSet::new(),
            BTreeSet::from([2]),
        ];
        let c = Credit::of(&shown, &[0, 0, 1, 2], 3, &compilers(&pool, |_| None));
        let want = [1.0 + DEEPER, 1.0 + DEEPER / 3.0, 1.0, 1.0];
        assert!((0..4).all(|k| (c.slices(0)[k] - want[k]).abs() < 1e-9));
        assert_eq!(c.slices(1), [1.0, 1.0, 1.0, 1.0 + DEEPER]);
        // A class nothing of which showed: one slice everywhere, whatever
        // showed elsewhere.
        assert_eq!(c.slices(2), [1.0; 4]);
        // Nothing shown anywhere: one slice and no rank everywhere.
        let none = Credit::of(
            &vec![BTreeSet::new(); 4],
            &[],
            3,
            &compilers(&pool, |_| None),
        );
        assert_eq!(none.slices(0), [1.0; 4]);
        assert_eq!(none.for_class(0), [0.0; 4]);
    }
}
