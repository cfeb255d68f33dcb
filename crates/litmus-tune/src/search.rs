//! Successive halving: run many configurations briefly, keep the better
//! half, run the survivors twice as long (their counts accumulate), and so
//! on until one is left. A configuration's score is the lower 95% Wilson
//! bound of its weak-outcome fraction times its instances per second: the
//! weak outcomes per second it can be trusted to give, so that a lucky
//! count on few instances does not beat a steady rate.

use std::time::Duration;

use litmus_core::ir::Test;

use litmus_evidence::stats::{wilson, Z95};
use litmus_hw::{self as gpu, GpuError, HwResult, Knobs};

use super::space::draw;
use super::target::Target;

/// How a search is shaped.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Configurations drawn (the base configuration is always one of them).
    pub configs: usize,
    /// GPU time of each configuration in the first round; doubled each
    /// round.
    pub first_ms: u64,
    /// Seeds the draws (and each trial's run).
    pub seed: u64,
    /// Configurations to try besides the base before any drawn one: the
    /// winners for sibling tests (at most half of `configs`).
    pub starts: Vec<Knobs>,
}

impl Plan {
    /// A plan that spends about `budget_ms` of GPU time over `configs`
    /// configurations: each round costs about the same (half the
    /// configurations, twice the time), and there are log2(configs)+1
    /// rounds.
    pub fn within(budget_ms: u64, configs: usize, seed: u64) -> Plan {
        let configs = configs.max(2);
        let rounds = (usize::BITS - (configs - 1).leading_zeros()) as u64 + 1;
        Plan {
            configs,
            first_ms: (budget_ms / rounds / configs as u64).max(5),
            seed,
            starts: Vec::new(),
        }
    }
}

/// One configuration and what it has shown so far.
#[derive(Clone, Debug)]
pub struct Trial {
    /// The configuration.
    pub knobs: Knobs,
    /// Instances that showed a target outcome, over all its runs.
    pub weak: u64,
    /// Instances run.
    pub instances: u64,
    /// GPU time (the launch loops).
    pub gpu: Duration,
    /// The device.
    pub device: String,
    /// How the module was built for it (target, PTX version, toolchain).
    pub build: String,
}

impl Trial {
    /// Weak outcomes per second, at the lower 95% Wilson bound.
    pub fn score(&self) -> f64 {
        let (low, _) = wilson(self.weak, self.instances, Z95);
        low * self.instances as f64 / self.gpu.as_secs_f64().max(1e-9)
    }

    /// Instances per second.
    pub fn rate(&self) -> f64 {
        self.instances as f64 / self.gpu.as_secs_f64().max(1e-9)
    }

    fn add(&mut self, r: &HwResult, test: &Test, target: &Target) {
        self.weak += r
            .histogram
            .iter()
            .filter(|(v, _)| target.hits(test, v))
            .map(|(_, c)| c)
            .sum::<u64>();
        self.instances += r.instances;
        self.gpu += r.wall;
        self.device.clone_from(&r.device);
        self.build = r.build.to_string();
    }
}

/// Searches the environment for `test` (its PTX `ptx`): draws the plan's
/// configurations around `base`, halves them round by round, and returns
/// every trial, best first. `progress` hears of each finished round. A
/// configuration whose run fails (it does not fit the test, a fault) drops
/// out of the search, and the failure is returned only if every
/// configuration failed.
pub fn tune(
    test: &Test,
    ptx: &str,
    target: &Target,
    base: &Knobs,
    plan: &Plan,
    mut progress: impl FnMut(usize, &[Trial]),
) -> Result<Vec<Trial>, GpuError> {
    let mut alive: Vec<Trial> = configurations(base, plan)
        .into_iter()
        .map(|knobs| Trial {
            knobs,
            weak: 0,
            instances: 0,
            gpu: Duration::ZERO,
            device: String::new(),
            build: String::new(),
        })
        .collect();
    // Each round's drop-outs, best first; the last round's survivor last.
    let mut rounds: Vec<Vec<Trial>> = Vec::new();
    let mut last_error = None;
    let mut ms = plan.first_ms;
    let mut round = 0;
    while !alive.is_empty() {
        let mut ran = Vec::new();
        for (i, mut trial) in alive.into_iter().enumerate() {
            let knobs = Knobs {
                budget_ms: ms,
                launches: None,
                seed: plan.seed ^ ((round as u64) << 32) ^ i as u64,
                ..trial.knobs.clone()
            };
            match gpu::run(test, ptx, &knobs) {
                Ok(r) => {
                    trial.add(&r, test, target);
                    ran.push(trial);
                }
                Err(e) => last_error = Some(e),
            }
        }
        sort(&mut ran);
        progress(round, &ran);
        if ran.len() <= 1 {
            rounds.push(ran);
            break;
        }
        let keep = ran.len().div_ceil(2);
        rounds.push(ran.split_off(keep));
        alive = ran;
        ms *= 2;
        round += 1;
    }
    // The last survivor first, then the others as they ranked when they
    // dropped out, later rounds before earlier ones.
    let done: Vec<Trial> = rounds.into_iter().rev().flatten().collect();
    if done.is_empty() {
        return Err(last_error.unwrap_or_else(|| GpuError::Worker("no configuration ran".into())));
    }
    Ok(done)
}

/// The plan's first round: the base, then its starting points (at most
/// half the configurations, none twice, not the base again), then draws
/// around the base from the plan's seed.
fn configurations(base: &Knobs, plan: &Plan) -> Vec<Knobs> {
    let mut out = vec![base.clone()];
    for k in plan.starts.iter().take(plan.configs / 2) {
        if !out.contains(k) {
            out.push(k.clone());
        }
    }
    let mut state = plan.seed;
    while out.len() < plan.configs {
        out.push(draw(&mut state, base));
    }
    out
}

/// Best first: by score, then by weak outcomes seen, then by throughput
/// (when nothing was seen, the configuration that ran the most instances
/// per second gives the next round the best chance).
fn sort(trials: &mut [Trial]) {
    trials.sort_by(|a, b| {
        b.score()
            .total_cmp(&a.score())
            .then(b.weak.cmp(&a.weak))
            .then(b.rate().total_cmp(&a.rate()))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trial(weak: u64, instances: u64, ms: u64) -> Trial {
        Trial {
            knobs: Knobs::default(),
            weak,
            instances,
            gpu: Duration::from_millis(ms),
            device: String::new(),
            build: String::new(),
        }
    }

    #[test]
    fn a_steady_rate_beats_a_lucky_count_on_few_instances() {
        // 2 in 1e3 instances is a higher fraction than 100 in 1e6, but the
        // lower bound of the first is near zero.
        let mut t = vec![trial(2, 1_000, 10), trial(100, 1_000_000, 10)];
        sort(&mut t);
        assert_eq!(t[0].weak, 100);
    }

    #[test]
    fn with_nothing_seen_the_faster_configuration_ranks_first() {
        let mut t = vec![trial(0, 1_000, 10), trial(0, 1_000_000, 10)];
        sort(&mut t);
        assert_eq!(t[0].instances, 1_000_000);
    }

    #[test]
    fn a_search_starts_from_the_base_then_the_siblings_winners() {
        let base = Knobs::default();
        let winner = Knobs {
            stride: 16,
            ..Knobs::default()
        };
        let mut plan = Plan::within(1000, 8, 7);
        plan.starts = vec![winner.clone(), base.clone(), winner.clone()];
        let c = configurations(&base, &plan);
        assert_eq!(c.len(), 8);
        assert_eq!((&c[0], &c[1]), (&base, &winner));
        // Neither the base nor a winner is tried twice at the start, and
        // the rest are the draws that a plan without starts makes.
        let plain = configurations(&base, &Plan::within(1000, 8, 7));
        assert_eq!(&c[2..], &plain[1..7]);
        // At most half the configurations come from siblings.
        plan.starts = (100..108)
            .map(|s| Knobs {
                stride: s,
                ..Knobs::default()
            })
            .collect();
        let c = configurations(&base, &plan);
        let strides: Vec<u32> = c.iter().map(|k| k.stride).filter(|s| *s >= 100).collect();
        assert_eq!(strides, [100, 101, 102, 103]);
    }

    #[test]
    fn a_plan_spreads_its_budget_over_its_rounds() {
        let p = Plan::within(4000, 16, 1);
        // 16, 8, 4, 2, 1 configurations: 5 rounds of about 800 ms.
        assert_eq!(p.first_ms, 50);
        assert_eq!(Plan::within(10, 16, 1).first_ms, 5);
    }
}
