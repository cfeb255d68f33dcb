//! The search's shared pool of configurations ([`super`]): what every
//! test of a family draws its trials from.

use litmus_hw::Knobs;

use super::FamilyPlan;
use crate::space::draw;

/// The shared pool: the base, the measured anchors
/// ([`crate::space::anchors`], and [`crate::space::gpu_anchors`] for a
/// family with a test on several GPUs, while the pool has room for draws
/// after them), then draws around the base from the plan's seed, up to
/// [`FamilyPlan::pool`]; the base, each anchor and each draw under every
/// compiler of the plan ([`FamilyPlan::toolchains`]). Then the starting
/// points, on top of those: at most a quarter of the pool more, none
/// that a tuning entry would hold as one with a configuration already
/// there.
///
/// Why on top: the starts of a campaign's later rounds are the winners
/// of the rounds before, and a tuning entry keeps only the knobs the
/// search tunes, so a winner is seldom equal to the draw it came from.
/// Put before the draws, each took a slot as a second copy of its
/// environment and pushed a draw out of the pool, the last ones first
/// (`docs/tuning-and-campaigns.md`, "The pool kept whole"). The seed's
/// pool is now the same in every round.
pub fn pool(base: &Knobs, plan: &FamilyPlan) -> Vec<Knobs> {
    pool_for(base, plan, false)
}

/// [`pool`], with the anchors across GPUs when `across_gpus`.
pub fn pool_for(base: &Knobs, plan: &FamilyPlan, across_gpus: bool) -> Vec<Knobs> {
    // Each compiler's copy of a configuration.
    let toolchains = plan.compilers(base);
    let under = |k: &Knobs, t: &Option<String>| Knobs {
        ptxas: t.clone(),
        ..k.clone()
    };
    let mut out: Vec<Knobs> = Vec::new();
    let push = |out: &mut Vec<Knobs>, k: Knobs| {
        if !out.contains(&k) {
            out.push(k);
        }
    };
    for t in &toolchains {
        push(&mut out, under(base, t));
    }
    let mut anchors = crate::space::anchors(base);
    if across_gpus {
        anchors.extend(crate::space::gpu_anchors(base));
    }
    'anchors: for k in anchors {
        for t in &toolchains {
            if out.len() >= plan.pool / 2 {
                break 'anchors;
            }
            push(&mut out, under(&k, t));
        }
    }
    // Each drawn environment under every compiler, twins side by side: a
    // CTA-fence variant that shows only in one environment under ptxas 12
    // (and not under the JIT) must find that environment under ptxas, so
    // the draws are not dealt out to the compilers in turn; which twin a
    // test tries first is the credit's (its kin's compiler).
    let mut state = plan.seed;
    let mut tries = 0;
    'draws: while out.len() < plan.pool && tries < plan.pool * 16 {
        let env = draw(&mut state, base);
        for t in &toolchains {
            if out.len() >= plan.pool {
                break 'draws;
            }
            push(&mut out, under(&env, t));
        }
        tries += 1;
    }
    let room = out.len() + plan.pool / 4;
    for k in &plan.starts {
        if out.len() >= room {
            break;
        }
        if !out.iter().any(|p| crate::same_entry(p, k)) {
            out.push(k.clone());
        }
    }
    out
}
