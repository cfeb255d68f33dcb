//! The search space of the environment and how configurations are drawn
//! from it. The ranges follow cuda-litmus's (`shared/reference/tuning.md`),
//! narrowed where this harness differs: CTAs and threads are powers of two
//! (the permutations need it), and the instances of one launch stay within
//! the harness's limit.

use litmus_core::ptx::layout::StressPattern;

use litmus_hw::{splitmix, Assign, Environment, Knobs, Perm, MAX_INSTANCES};

/// Draws a configuration: the run's seed, budget and launches are
/// `base`'s; everything the environment holds is drawn from `state`.
pub fn draw(state: &mut u64, base: &Knobs) -> Knobs {
    let mut next = |n: u64| splitmix(state) % n;
    let threads = 1u32 << (5 + next(4)); // 32 .. 256
    let mut ctas = 1u32 << (7 + next(6)); // 128 .. 4096
    while u64::from(ctas) * u64::from(threads) > MAX_INSTANCES {
        ctas /= 2;
    }
    let pattern = |n: u64| StressPattern::ALL[n as usize];
    let stress = next(10) < 6;
    let pre = next(2) == 0;
    let spin = next(10) < 3;
    let env = Environment {
        stress_pattern: pattern(next(4)),
        stress_lines: 1 + next(16) as u32,
        stress_line_words: 1 << (2 + next(9)), // 4 .. 1024 words
        stress_assign: if next(2) == 0 {
            Assign::RoundRobin
        } else {
            Assign::Chunk
        },
        stress_pct: next(101) as u32,
        pre_stress: if pre { next(129) as u32 } else { 0 },
        pre_pattern: pattern(next(4)),
        pre_pct: next(101) as u32,
        spin_pct: next(101) as u32,
        shuffle_pct: if next(2) == 0 { 0 } else { next(101) as u32 },
    };
    Knobs {
        ctas,
        threads,
        stride: [1, 2, 4, 8, 16][next(5) as usize],
        perm: if next(2) == 0 {
            Perm::Fixed
        } else {
            Perm::Random
        },
        spin: if spin { 50 + next(951) as u32 } else { 0 },
        stress_ctas: if stress { 1 << (4 + next(7)) } else { 0 }, // 16 .. 1024
        stress_rounds: next(1025) as u32,
        env,
        tuning: None,
        ..base.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_configurations_are_valid_knobs_and_vary() {
        let mut state = 42;
        let base = Knobs {
            seed: 9,
            budget_ms: 77,
            ..Knobs::default()
        };
        let mut distinct = std::collections::HashSet::new();
        for _ in 0..500 {
            let k = draw(&mut state, &base);
            // What is drawn reads back through the knobs' own checks.
            let vars = k.env_assignments();
            let back = Knobs::from_vars(|name| {
                vars.iter()
                    .find(|(v, _)| *v == name)
                    .map(|(_, x)| x.clone())
            })
            .unwrap_or_else(|e| panic!("{k}: {e}"));
            assert_eq!(back.ctas, k.ctas);
            assert_eq!(back.env, k.env);
            assert_eq!((k.seed, k.budget_ms), (9, 77));
            distinct.insert(k.to_string());
        }
        assert!(distinct.len() > 450, "{}", distinct.len());
    }
}
