//! The search space of the environment and how configurations are drawn
//! from it. The ranges follow cuda-litmus's (`shared/reference/tuning.md`),
//! narrowed where this harness differs: CTAs and threads are powers of two
//! (the permutations need it), and the instances of one launch stay within
//! the harness's limit. Beside them, the shapes its harness has and ours
//! did not: CTAs down to 2 threads and grids from 4 CTAs, testing CTAs
//! interleaved with the stressing ones, a cap on CTAs per SM, an
//! instance's roles on one lane of neighbouring CTAs, its locations'
//! slots alternating in one array, and one spin barrier for the grid.

use litmus_ptx::layout::StressPattern;

use litmus_hw::{
    splitmix, Assign, Environment, GpuPartners, GpuStart, Knobs, Lanes, LocLayout, Perm, SpinScope,
    MAX_INSTANCES,
};

/// Draws a configuration: the run's seed, budget and launches are
/// `base`'s; everything the environment holds is drawn from `state`.
pub fn draw(state: &mut u64, base: &Knobs) -> Knobs {
    let mut next = |n: u64| splitmix(state) % n;
    // Small CTAs a quarter of the time and small grids an eighth: they
    // run fewer instances a second (a grid of 4 CTAs showed none of 12
    // CTA-fence variants' weak outcomes on an H100), and the published
    // ranges reach them.
    let threads = if next(4) == 0 {
        1u32 << (1 + next(4)) // 2 .. 16
    } else {
        1u32 << (5 + next(4)) // 32 .. 256
    };
    let mut ctas = if next(8) == 0 {
        1u32 << (2 + next(5)) // 4 .. 64
    } else {
        1u32 << (7 + next(6)) // 128 .. 4096
    };
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
        interleave_pct: if next(2) == 0 { 0 } else { next(101) as u32 },
        spin_scope: SpinScope::Instance,
    };
    let mut k = Knobs {
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
        // Half the time: one CTA an SM raised the weak rate of CTA-fence
        // variants across three CTAs 20 to 150 times on an H100.
        ctas_per_sm: if next(2) == 0 { 1 + next(4) as u32 } else { 0 },
        // Half the time each: the published harnesses' arrangement, an
        // instance's roles on one lane of neighbouring CTAs (on an H100
        // it raised the rarest CTA-fence variants across three CTAs up to
        // 6 times) and its locations' slots alternating in one array (at
        // stride 1 up to 9 times; at stride 4 it lowered them).
        lanes: if next(2) == 0 {
            Lanes::Permuted
        } else {
            Lanes::Aligned
        },
        loc_layout: if next(2) == 0 {
            LocLayout::Apart
        } else {
            LocLayout::Interleaved
        },
        env,
        tuning: None,
        ..base.clone()
    };
    // Half the time the spin barrier is on: the published harnesses'
    // one for the whole grid (on an H100 it kept the defaults' rates
    // where the per-instance one, at 1000 polls, showed nothing).
    let grid = next(2) == 1;
    if grid && k.spin > 0 {
        k.env.spin_scope = SpinScope::Grid;
    }
    // The knobs that only tests on several GPUs read (drawn last, so that
    // the draws above stay as they were). On two H200s where one
    // instance's roles meet in time mattered most across GPUs: message
    // passing with its locations in the writer's memory was weakest with
    // the reader 15 µs ahead, with them in the reader's 15 µs behind.
    k.gpu_stagger = match next(3) {
        0 => 0,
        _ => [-15_000, -5_000, -2_000, 2_000, 5_000, 15_000][next(6) as usize],
    };
    k.gpu_jitter = [0, 2_500, 5_000, 10_000, 20_000, 40_000][next(6) as usize];
    k.gpu_partners = if next(2) == 0 {
        GpuPartners::Aligned
    } else {
        GpuPartners::Permuted
    };
    // A quarter of the time every location's slot is its instance: a
    // warp's stores to another GPU's memory cross the link in a few
    // packets, as the reference probes lay their arrays out.
    if next(4) == 0 {
        k.perm = Perm::Identity;
    }
    // How the roles leave the start: the CTA start (each CTA polls the host
    // flag, as `sys_probe.cu`'s threads do) took MP with the data in the
    // writer's memory from 1e-6 to 7e-3 on two H200s; the relay's start is
    // ten times faster a launch. The paced start (CTA `c` leaves `c`
    // paces after its GPU's first) took IRIW across two H200s from 1.7e-5
    // to 1.4e-3 and SB from 3.2e-3 to 2.1e-2, at up to twice the CTA
    // start's instances a second, but MP with the data in the writer's
    // memory from 7.5e-3 to 1e-7 to 4e-5.
    k.gpu_start = [GpuStart::Relay, GpuStart::Cta, GpuStart::Paced][next(3) as usize];
    match k.gpu_start {
        GpuStart::Paced => k.gpu_pace = [250, 500, 1_000][next(3) as usize],
        // Copies of the flag: the CTAs leave one, two or four times as
        // fast (two kept every weak rate on two H200s, four halved MP's).
        GpuStart::Cta => k.gpu_flags = [1, 2, 2, 4][next(4) as usize],
        _ => {}
    }
    k
}

/// Configurations measured to show weak outcomes that the defaults miss,
/// put in every pool right after its starting points (each the base with
/// one change, so a tuned base keeps its other knobs):
///
/// - one CTA an SM: on an H100, CTA-scope fences across three CTAs showed
///   their weak outcomes 20 to 200 times as often;
/// - the same with 512 stressing CTAs interleaved among the testing ones:
///   the only environment that showed ISA2 with a CTA fence between two
///   GPU fences more than once;
/// - 4096 CTAs of 32 threads: raised IRIW over the defaults.
pub fn anchors(base: &Knobs) -> Vec<Knobs> {
    let capped = Knobs {
        ctas_per_sm: 1,
        tuning: None,
        ..base.clone()
    };
    let interleaved = Knobs {
        stress_ctas: 512,
        stress_rounds: 64,
        env: litmus_hw::Environment {
            interleave_pct: 100,
            ..capped.env.clone()
        },
        ..capped.clone()
    };
    let narrow = Knobs {
        ctas: 4096,
        threads: 32,
        tuning: None,
        ..base.clone()
    };
    vec![capped, interleaved, narrow]
}

/// Configurations measured to show weak outcomes across GPUs that the
/// defaults miss, put in the pool of a family with a test on several GPUs
/// (two and four H200s joined by NVLink, November 2026):
///
/// - the last GPU 15 µs ahead (fixed slots): message passing with its
///   locations in the writer's memory 1.3e-2 of instances, SB 8.7e-3,
///   IRIW 7e-5 (the fixed slots' unstaggered 3e-3, 2e-3, 3e-6);
/// - GPU 0 15 µs ahead (fixed slots): message passing with its locations
///   in the reader's memory 6.6e-3;
/// - a million instances a launch on the fixed slots: the environment
///   that shows message passing with the data in the writer's memory and
///   the flag in the reader's more than rarely (1.3e-3 to 1.5e-3; the
///   identity slots at any size 1e-5 or less);
/// - 2M instances a launch on the identity slots at stride 1: message
///   passing with its locations in the reader's memory 3.3e-2, at 1e10
///   instances a second (the relay start's defaults' 8.5e-3);
/// - the CTA start at 4,096 CTAs of 256 threads: message passing with the
///   data in the writer's memory 1.8e-2, against the profile's 6.7e-3 at
///   a quarter of its rate.
///
/// The anchors measured with the relay start name it: under `auto` a
/// shape of their own would run with the CTA start.
pub fn gpu_anchors(base: &Knobs) -> Vec<Knobs> {
    let reader_first = Knobs {
        perm: Perm::Fixed,
        gpu_stagger: -15_000,
        gpu_jitter: 0,
        gpu_start: GpuStart::Relay,
        tuning: None,
        ..base.clone()
    };
    let writer_first = Knobs {
        gpu_stagger: 15_000,
        ..reader_first.clone()
    };
    let congested = Knobs {
        perm: Perm::Fixed,
        ctas: 4096,
        threads: 256,
        gpu_jitter: 0,
        gpu_start: GpuStart::Relay,
        tuning: None,
        ..base.clone()
    };
    let streaming = Knobs {
        perm: Perm::Identity,
        ctas: 8192,
        threads: 256,
        stride: 1,
        gpu_jitter: 0,
        gpu_start: GpuStart::Relay,
        tuning: None,
        ..base.clone()
    };
    let cta_start_narrow = Knobs {
        perm: Perm::Identity,
        ctas: 4096,
        threads: 256,
        gpu_stagger: 0,
        gpu_jitter: 0,
        gpu_start: GpuStart::Cta,
        tuning: None,
        ..base.clone()
    };
    vec![
        reader_first,
        writer_first,
        congested,
        streaming,
        cta_start_narrow,
    ]
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
        #[derive(Debug, Default)]
        struct Shapes {
            small_ctas: bool,
            small_grids: bool,
            interleaved: bool,
            capped: bool,
            aligned: bool,
            alternating: bool,
            grid_barrier: bool,
            staggered_both_ways: (bool, bool),
            permuted_partners: bool,
            identity_slots: bool,
            cta_start: bool,
            paced_start: bool,
        }
        let mut shapes = Shapes::default();
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
            assert_eq!((back.threads, back.ctas_per_sm), (k.threads, k.ctas_per_sm));
            assert_eq!((back.lanes, back.loc_layout), (k.lanes, k.loc_layout));
            assert_eq!(back.env, k.env);
            assert_eq!(back.perm, k.perm);
            assert_eq!(
                (back.gpu_stagger, back.gpu_jitter, back.gpu_partners),
                (k.gpu_stagger, k.gpu_jitter, k.gpu_partners)
            );
            assert_eq!(
                (back.gpu_start, back.gpu_pace, back.gpu_flags),
                (k.gpu_start, k.gpu_pace, k.gpu_flags)
            );
            assert_eq!((k.seed, k.budget_ms), (9, 77));
            distinct.insert(k.to_string());
            shapes.small_ctas |= k.threads < 32;
            shapes.small_grids |= k.ctas <= 64;
            shapes.interleaved |= k.env.interleave_pct > 0 && k.stress_ctas > 0;
            shapes.capped |= k.ctas_per_sm > 0;
            shapes.aligned |= k.lanes == Lanes::Aligned;
            shapes.alternating |= k.loc_layout == LocLayout::Interleaved;
            shapes.grid_barrier |= k.env.spin_scope == SpinScope::Grid && k.spin > 0;
            shapes.staggered_both_ways.0 |= k.gpu_stagger < 0;
            shapes.staggered_both_ways.1 |= k.gpu_stagger > 0;
            shapes.permuted_partners |= k.gpu_partners == GpuPartners::Permuted;
            shapes.identity_slots |= k.perm == Perm::Identity;
            shapes.cta_start |= k.gpu_start == GpuStart::Cta && k.gpu_flags == 1;
            shapes.paced_start |= k.gpu_start == GpuStart::Paced && k.gpu_pace != 500;
        }
        assert!(distinct.len() > 450, "{}", distinct.len());
        // Every environment shape the published harnesses reach is drawn.
        assert!(
            shapes.small_ctas
                && shapes.small_grids
                && shapes.interleaved
                && shapes.capped
                && shapes.aligned
                && shapes.alternating
                && shapes.grid_barrier
                && shapes.staggered_both_ways == (true, true)
                && shapes.permuted_partners
                && shapes.identity_slots
                && shapes.cta_start
                && shapes.paced_start,
            "{shapes:?}"
        );
    }
}
