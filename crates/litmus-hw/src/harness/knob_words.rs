//! The knob words a launch's kernels read, as the knobs and the launch's
//! shape set them: the launch's masks and counts, the environment, the
//! roles' lane and the locations' slot permutations, the spin barrier's
//! count and the stressing CTAs; and the check of knobs made in code,
//! which `Knobs::from_env` would have refused.

use litmus_ptx::layout::knob;
use litmus_ptx::Layout;

use super::super::arrangement::Lanes;
use super::super::environment::{Assign, SpinScope};
use super::super::knobs::{Knobs, Perm, MAX_HOST_THREADS};
use super::super::splitmix::splitmix;
use super::super::GpuError;
use super::start::HOST_WAIT_POLLS;
use super::Shape;

/// Refuses knobs made in code that the launch cannot take: `Knobs::from_env`
/// checks them, code skips that. The host knobs shape the launch (a power
/// of two of instances) and the host's shares (at least one thread).
pub(super) fn check_knobs(layout: &Layout, k: &Knobs) -> Result<(), GpuError> {
    // A bulk copy moves its location's word and the bytes after it, from
    // or to a 16-byte aligned address: a narrower or unaligned stride
    // would copy into other instances' slots, or fault.
    if !layout.stride_fits(k.stride) {
        return Err(GpuError::knob(
            "LITMUS_STRIDE",
            k.stride,
            &format!(
                "a multiple of 4 words and at least {} for this test, whose bulk copies \
                 move {} bytes of a 16-byte aligned slot",
                layout.bulk_words.next_multiple_of(4),
                4 * layout.bulk_words
            ),
        ));
    }
    if !k.table.is_power_of_two() {
        return Err(GpuError::knob(
            "table",
            k.table.to_string(),
            "a power of two",
        ));
    }
    if layout.has_host_roles() {
        if !k.host_instances.is_power_of_two() {
            return Err(GpuError::knob(
                "host_instances",
                k.host_instances.to_string(),
                "a power of two",
            ));
        }
        if !(1..=MAX_HOST_THREADS).contains(&k.host_threads) {
            return Err(GpuError::knob(
                "host_threads",
                k.host_threads.to_string(),
                &format!("1 to {MAX_HOST_THREADS}"),
            ));
        }
    }
    Ok(())
}

/// The knob words the kernels read, but for [`knob::RESET_BY_FILL`] and
/// the permutations.
pub(super) fn knob_words(layout: &Layout, shape: &Shape, n: usize, k: &Knobs) -> Vec<u32> {
    let mut words = vec![0u32; layout.knob_words()];
    words[knob::CTA_MASK] = shape.units - 1;
    words[knob::LOG_T] = shape.slots.trailing_zeros();
    words[knob::LANE_MASK] = shape.slots - 1;
    words[knob::N] = n as u32;
    words[knob::N_MASK] = n as u32 - 1;
    words[knob::STRIDE] = k.stride;
    words[knob::SPIN] = k.spin;
    words[knob::LOOP_BOUND] = k.loop_bound;
    // A CTA narrower than a warp is one warp (a test that declares warps
    // gets CTAs wide enough for them).
    words[knob::WARP_MASK] = (shape.block / 32).max(1) - 1;
    words[knob::TABLE_MASK] = k.table - 1;
    words[knob::STRESS] = k.stress_rounds;
    let env = &k.env;
    words[knob::STRESS_PATTERN] = env.stress_pattern as u32;
    words[knob::STRESS_LINE_WORDS] = env.stress_line_words;
    words[knob::STRESS_LINES] = env.stress_lines;
    words[knob::STRESS_ASSIGN] = (env.stress_assign == Assign::Chunk) as u32;
    words[knob::STRESS_PCT] = env.stress_pct;
    words[knob::PRE_STRESS] = env.pre_stress;
    words[knob::PRE_PATTERN] = env.pre_pattern as u32;
    words[knob::PRE_PCT] = env.pre_pct;
    words[knob::SPIN_PCT] = env.spin_pct;
    words[knob::SHUFFLE_PCT] = env.shuffle_pct;
    words[knob::INTERLEAVE_PCT] = env.interleave_pct;
    words[knob::STRESS_CTAS] = stress_ctas(layout, k).max(1);
    words[knob::HOST_WAIT] = HOST_WAIT_POLLS;
    // Logical GPU 0's renaming of its units: none; its start offset (see
    // `gpu_knobs` for the other GPUs').
    words[knob::GPU_PARTNER_MUL] = 1;
    if layout.multi_gpu() {
        words[layout.gpu_delay_knob()] = k.gpu_delay(0, layout.gpus);
        words[layout.gpu_jitter_knob()] = k.gpu_jitter;
        words[layout.gpu_start_knob()] = k.gpu_start.word(layout.launching_gpus());
        words[layout.gpu_pace_knob()] = k.gpu_pace;
        words[layout.gpu_flags_knob()] = k.gpu_flags;
    }
    words
}

/// Writes each role's lane permutation and each location's slot
/// permutation (multiplier and addend) into the knob words; with aligned
/// lanes ([`Lanes::Aligned`]) the roles' come from their place among the
/// GPU roles of their declared CTA instead, and only the locations' from
/// `LITMUS_PERM`.
pub(super) fn permutation_words(layout: &Layout, k: &Knobs, words: &mut [u32]) {
    // Odd multipliers: `x·m + a` is then a bijection modulo any power
    // of two, so every lane plays every role exactly once and every
    // instance has its own slot of every location.
    let roles = layout.roles.len();
    let mut state = k.seed;
    for p in 0..roles + layout.global_locs.len() {
        let (m, a) = match k.perm.resolve(layout.multi_gpu()) {
            Perm::Random => {
                let r = splitmix(&mut state);
                (r as u32, (r >> 32) as u32)
            }
            Perm::Fixed | Perm::Auto | Perm::Identity if p < roles => {
                ((2 * p as u32 + 1) * 37, 11 * p as u32)
            }
            Perm::Identity => (1, 0),
            Perm::Fixed | Perm::Auto if p == roles => (1, 0),
            Perm::Fixed | Perm::Auto => (
                2_654_435_761,
                k.seed as u32 ^ (p as u32).wrapping_mul(0x9e37_79b9),
            ),
        };
        let (m, a) = match k.lanes.resolve(layout) {
            Lanes::Aligned if p < roles => Lanes::aligned(rank_in_cta(layout, p)),
            _ => (m, a),
        };
        words[knob::ROLE_BASE + 2 * p] = m | 1;
        words[knob::ROLE_BASE + 2 * p + 1] = a;
    }
}

/// Role `k`'s place among the GPU roles declared in its CTA (on its GPU),
/// in test order: 0 for the first.
pub(super) fn rank_in_cta(layout: &Layout, k: usize) -> u32 {
    let role = &layout.roles[k];
    layout.roles[..k]
        .iter()
        .filter(|r| !r.host && r.gpu == role.gpu && r.cta_offset == role.cta_offset)
        .count() as u32
}

/// The testing threads of a launch that meet at the grid-wide spin barrier
/// ([`knob::SPIN_GRID`]): every thread of the testing CTAs, on every GPU
/// that launches; 0 with the per-instance barrier.
pub(super) fn grid_spin_count(layout: &Layout, shape: &Shape, k: &Knobs) -> u32 {
    match k.env.spin_scope {
        SpinScope::Instance => 0,
        SpinScope::Grid => shape.grid * shape.block * layout.launching_gpus().max(1),
    }
}

/// Stressing CTAs in a launch: the knobs' count, in whole clusters (a
/// cluster launch takes whole clusters only), and in whole units when
/// launches may interleave them with the testing units (the kernel moves
/// blocks of a unit's CTAs).
pub(super) fn stress_ctas(layout: &Layout, k: &Knobs) -> u32 {
    let whole = if k.env.interleave_pct > 0 {
        layout.ctas_per_unit()
    } else {
        layout.cluster_size
    };
    k.stress_ctas.next_multiple_of(whole.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout_of(src: &str) -> Layout {
        let test = litmus_text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("t")));
        Layout::of(&test).unwrap()
    }

    #[test]
    fn a_stride_too_narrow_for_a_bulk_copy_is_refused_in_one_line() {
        // A bulk store of 32 bytes into `g`: each instance's slot of `g`
        // must hold 8 words, 16-byte aligned.
        let store = layout_of("PTX t\n{ shared s=0; g=0; }\n P0@cta 0,gpu 0 ;\n st.weak s, 1 ;\n fence.proxy.async.shared::cta ;\n cp.async.bulk.global.shared::cta.bulk_group [g], [s], 32 ;\n cp.async.bulk.commit_group ;\n cp.async.bulk.wait_group 0 ;\nexists (g == 0)\n");
        let with = |stride| Knobs {
            stride,
            ..Knobs::default()
        };
        for stride in [8, 12, 16] {
            assert!(check_knobs(&store, &with(stride)).is_ok(), "{stride}");
        }
        for stride in [1, 4, 9, 10] {
            let e = check_knobs(&store, &with(stride)).unwrap_err().to_string();
            assert_eq!(
                e,
                format!("bad value `{stride}` for LITMUS_STRIDE: expected a multiple of 4 words and at least 8 for this test, whose bulk copies move 32 bytes of a 16-byte aligned slot")
            );
        }
        // Without bulk copies any stride goes.
        let mp = layout_of("PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n");
        assert!(check_knobs(&mp, &with(1)).is_ok());
    }
}
