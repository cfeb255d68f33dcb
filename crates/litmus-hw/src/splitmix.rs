//! The one generator every draw from a run's seed goes through (the
//! permutation constants, each launch's seed, the per-GPU instance
//! renaming), so that a run is reproduced by its seed alone. In a file of
//! its own because the knobs, the arrangements and the harness all draw,
//! and none of them should import another for it.

/// splitmix64: advances `state` and returns the next draw.
///
/// ```
/// let mut s = 0;
/// assert_ne!(litmus_hw::splitmix(&mut s), litmus_hw::splitmix(&mut s));
/// ```
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
