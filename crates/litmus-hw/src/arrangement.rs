//! How one launch's instances are arranged over threads and memory, beside
//! the permutations (`LITMUS_PERM`): which lane plays each role of an
//! instance, and how the slots of different locations lie relative to each
//! other. The published harnesses (cuda-litmus, GPUHarbor) do both
//! otherwise than ours did, and no other knob reached their arrangement:
//!
//! - their thread `t` of workgroup `w` plays thread 0 of instance `(w, t)`,
//!   thread 1 of `(w + 1, t)`, thread 2 of `(w + 2, t)`: an instance's
//!   roles in other CTAs sit on the same lane, in the same warp, of
//!   neighbouring CTAs ([`Lanes::Aligned`]), where ours permuted the lane
//!   of every role (now only where [`Lanes::Auto`] finds aligned lanes
//!   do not fit);
//! - their locations share one array, `x` of instance `i` at
//!   `i·L·stride` and `y` at `perm(i)·L·stride + stride`, so that one
//!   instance's `x` lies beside another's `y` (in one cache line at small
//!   strides: [`LocLayout::Interleaved`]), where ours gave each location
//!   a region of its own.

use litmus_ptx::Layout;

use super::GpuError;

/// Which lane of its CTA plays each role of an instance
/// (`LITMUS_LANES`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lanes {
    /// Every role on a lane of its own permutation (`LITMUS_PERM`'s
    /// multiplier and addend): the roles of an instance sit in other warps
    /// of their CTAs.
    Permuted,
    /// The published harnesses' arrangement: the first role of each
    /// declared CTA on the thread's own lane, so that an instance's roles
    /// in different CTAs sit on one lane of neighbouring CTAs; the `r`-th
    /// further role of a declared CTA on lane `lane·419^r + r` (their
    /// thread permutation, shifted so that it never lands on the lane of
    /// the CTA's first role, which would have one thread play both).
    Aligned,
    /// The default: [`Lanes::Aligned`] for a test on one GPU without
    /// clusters, [`Lanes::Permuted`] otherwise ([`Lanes::resolve`]).
    #[default]
    Auto,
}

/// How the slots of the test's global locations lie (`LITMUS_LOC_LAYOUT`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LocLayout {
    /// Each location a region of its own: slot `j·N + perm_j(i)`.
    #[default]
    Apart,
    /// The slots of the `L` locations alternate: slot `perm_j(i)·L + j`,
    /// so that every slot's neighbours belong to the other locations of
    /// other instances, as in the published harnesses' one array.
    Interleaved,
}

/// How far apart the CTAs of one instance lie (`LITMUS_CTA_SPREAD`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CtaSpread {
    /// Neighbouring CTAs (times their declared offset), whatever the lane:
    /// the 32 lanes of a warp meet their partners in one CTA, as in the
    /// published harness's current version.
    #[default]
    Neighbours,
    /// `2·lane + 1` CTAs apart: each lane of a warp meets its partners in
    /// CTAs of its own, as an earlier version of cuda-litmus placed them
    /// (its `stripe_workgroup` added the lane to the distance). That
    /// version's H100 log shows CTA-scope fences between CTAs weak at 1e-8
    /// to 2e-4 of instances, where its later one and this harness showed
    /// none. Declared warps and CTA barriers keep neighbouring CTAs. The
    /// run regenerates the test's module for it (`codegen.rs`), so the
    /// default module stays as it was.
    ByLane,
}

/// Where the roles of one instance on different GPUs sit in their
/// launches, in a test on several GPUs (`LITMUS_GPU_PARTNERS`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GpuPartners {
    /// Thread `t` of every GPU plays the same instances' roles: on two
    /// H200s as good as [`GpuPartners::Permuted`] at the defaults, and
    /// faster (scattered partners cost a third of the instances a second).
    #[default]
    Aligned,
    /// Each GPU but logical GPU 0 renames the instances its threads play
    /// by a bijection of its own (drawn from the seed), so that a thread's
    /// partners on other GPUs are anywhere in their launches, as
    /// `sys_probe.cu`'s reader reads instance `i·2654435761 mod n`
    /// (`scripts/probes/cross_gpu_race.cu` measures both).
    Permuted,
}

/// The variable of [`GpuPartners`].
pub const GPU_PARTNERS_ENV: &str = "LITMUS_GPU_PARTNERS";

impl GpuPartners {
    /// `permuted` or `aligned`.
    pub fn as_str(self) -> &'static str {
        match self {
            GpuPartners::Permuted => "permuted",
            GpuPartners::Aligned => "aligned",
        }
    }

    /// Reads `LITMUS_GPU_PARTNERS`'s value.
    pub fn parse(text: &str) -> Result<GpuPartners, GpuError> {
        match text.trim() {
            "permuted" => Ok(GpuPartners::Permuted),
            "aligned" => Ok(GpuPartners::Aligned),
            _ => Err(GpuError::knob(
                GPU_PARTNERS_ENV,
                text,
                "`permuted` or `aligned`",
            )),
        }
    }

    /// Logical GPU `g`'s instance renaming, `i·m + a` (`m` odd, so a
    /// bijection modulo any power of two): the identity on logical GPU 0
    /// and when aligned.
    pub fn of_gpu(self, g: usize, seed: u64) -> (u32, u32) {
        if g == 0 || self == GpuPartners::Aligned {
            return (1, 0);
        }
        let mut state = seed ^ (g as u64).wrapping_mul(0xa076_1d64_78bd_642f);
        let z = super::splitmix::splitmix(&mut state);
        ((z as u32) | 1, (z >> 32) as u32)
    }
}

/// The variable of [`Lanes`].
pub const LANES_ENV: &str = "LITMUS_LANES";
/// The variable of [`CtaSpread`].
pub const CTA_SPREAD_ENV: &str = "LITMUS_CTA_SPREAD";
/// The variable of [`LocLayout`].
pub const LOC_LAYOUT_ENV: &str = "LITMUS_LOC_LAYOUT";

/// The published harnesses' thread permutation's multiplier (cuda-litmus's
/// `permuteThread`), odd: a bijection modulo any power of two.
pub const PUBLISHED_THREAD_PERMUTATION: u32 = 419;

impl Lanes {
    /// `permuted`, `aligned` or `auto`.
    pub fn as_str(self) -> &'static str {
        match self {
            Lanes::Permuted => "permuted",
            Lanes::Aligned => "aligned",
            Lanes::Auto => "auto",
        }
    }

    /// Reads `LITMUS_LANES`'s value.
    pub fn parse(text: &str) -> Result<Lanes, GpuError> {
        match text.trim() {
            "permuted" => Ok(Lanes::Permuted),
            "aligned" => Ok(Lanes::Aligned),
            "auto" => Ok(Lanes::Auto),
            _ => Err(GpuError::knob(
                LANES_ENV,
                text,
                "`auto`, `permuted` or `aligned`",
            )),
        }
    }

    /// The lanes a test laid out as `layout` runs with: [`Lanes::Auto`]
    /// becomes [`Lanes::Aligned`] for a test on one GPU without clusters
    /// and [`Lanes::Permuted`] otherwise; the others stay.
    ///
    /// On one H200 (`docs/running-on-gpus.md`, "Aligned lanes at the two
    /// shapes") the aligned lanes beat the permuted ones on
    /// every classic test at both of the reference's launch shapes: 3% to
    /// 8% more instances a second, 14% to 99% more weak outcomes a second.
    /// The one loss was message passing between two CTAs of a cluster
    /// through global memory, two to nine times fewer weak outcomes, so a
    /// test with clusters keeps the permuted lanes; so does a test on
    /// several GPUs, whose profile was measured with them.
    ///
    /// ```
    /// use litmus_text as text;
    /// use litmus_ptx::Layout;
    /// use litmus_hw::Lanes;
    /// let layout = |src: &str| Layout::of(&text::parse(src).unwrap()).unwrap();
    /// let one_gpu = layout(
    ///     "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n \
    ///      st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n \
    ///      ld.relaxed.gpu r0, y | ld.relaxed.gpu r0, x ;\n\
    ///      exists (P0:r0 == 0 /\\ P1:r0 == 0)\n",
    /// );
    /// let cluster = layout(
    ///     "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0,cluster 0 | P1@cta 1,gpu 0,cluster 0 ;\n \
    ///      st.relaxed.cluster x, 1 | ld.relaxed.cluster r0, y ;\n \
    ///      st.relaxed.cluster y, 1 | ld.relaxed.cluster r1, x ;\n\
    ///      exists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
    /// );
    /// assert_eq!(Lanes::Auto.resolve(&one_gpu), Lanes::Aligned);
    /// assert_eq!(Lanes::Auto.resolve(&cluster), Lanes::Permuted);
    /// assert_eq!(Lanes::Permuted.resolve(&one_gpu), Lanes::Permuted);
    /// ```
    pub fn resolve(self, layout: &Layout) -> Lanes {
        self.resolve_where(!layout.multi_gpu() && layout.cluster_size <= 1)
    }

    /// [`Lanes::resolve`] for a test that is on one GPU without clusters
    /// (`aligned_fits`) or not: where the layout is not at hand
    /// (`Knobs::resolve_for_gpus`), what it would say.
    pub fn resolve_where(self, aligned_fits: bool) -> Lanes {
        match (self, aligned_fits) {
            (Lanes::Auto, true) => Lanes::Aligned,
            (Lanes::Auto, false) => Lanes::Permuted,
            (lanes, _) => lanes,
        }
    }

    /// The multiplier and addend of the lane permutation of the role that
    /// is the `r`-th (from 0) among the GPU roles of its declared CTA, in
    /// the aligned arrangement: `lane·419^r + r`.
    pub fn aligned(r: u32) -> (u32, u32) {
        (PUBLISHED_THREAD_PERMUTATION.wrapping_pow(r), r)
    }
}

impl CtaSpread {
    /// `neighbours` or `by-lane`.
    pub fn as_str(self) -> &'static str {
        match self {
            CtaSpread::Neighbours => "neighbours",
            CtaSpread::ByLane => "by-lane",
        }
    }

    /// Reads `LITMUS_CTA_SPREAD`'s value.
    pub fn parse(text: &str) -> Result<CtaSpread, GpuError> {
        match text.trim() {
            "neighbours" => Ok(CtaSpread::Neighbours),
            "by-lane" => Ok(CtaSpread::ByLane),
            _ => Err(GpuError::knob(
                CTA_SPREAD_ENV,
                text,
                "`neighbours` or `by-lane`",
            )),
        }
    }
}

impl LocLayout {
    /// `apart` or `interleaved`.
    pub fn as_str(self) -> &'static str {
        match self {
            LocLayout::Apart => "apart",
            LocLayout::Interleaved => "interleaved",
        }
    }

    /// Reads `LITMUS_LOC_LAYOUT`'s value.
    pub fn parse(text: &str) -> Result<LocLayout, GpuError> {
        match text.trim() {
            "apart" => Ok(LocLayout::Apart),
            "interleaved" => Ok(LocLayout::Interleaved),
            _ => Err(GpuError::knob(
                LOC_LAYOUT_ENV,
                text,
                "`apart` or `interleaved`",
            )),
        }
    }

    /// The knob words `SLOT_SCALE` and `LOC_SPAN` (see
    /// `litmus_ptx::layout::knob`) for `locations` global locations
    /// and `n` instances: slot `j` of instance `i` is
    /// `perm_j(i)·scale + j·span`.
    pub fn words(self, locations: usize, n: u32) -> (u32, u32) {
        match self {
            LocLayout::Apart => (1, n),
            LocLayout::Interleaved => (locations.max(1) as u32, 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_reads_back_what_it_writes_and_refuses_anything_else() {
        for l in [Lanes::Permuted, Lanes::Aligned, Lanes::Auto] {
            assert_eq!(Lanes::parse(l.as_str()).unwrap(), l);
        }
        for l in [LocLayout::Apart, LocLayout::Interleaved] {
            assert_eq!(LocLayout::parse(&format!(" {} ", l.as_str())).unwrap(), l);
        }
        let e = Lanes::parse("same").unwrap_err().to_string();
        assert!(e.contains("LITMUS_LANES") && e.contains("`auto`, `permuted` or `aligned`"));
        for c in [CtaSpread::Neighbours, CtaSpread::ByLane] {
            assert_eq!(CtaSpread::parse(c.as_str()).unwrap(), c);
        }
        let e = CtaSpread::parse("far").unwrap_err().to_string();
        assert!(e.contains("LITMUS_CTA_SPREAD") && e.contains("`by-lane`"));
        let e = LocLayout::parse("mixed").unwrap_err().to_string();
        assert!(e.contains("LITMUS_LOC_LAYOUT") && e.contains("`apart` or `interleaved`"));
    }

    /// Every slot of every location of every instance is a slot of its
    /// own, inside the buffer of `L·N` slots, in both layouts.
    #[test]
    fn both_layouts_give_every_slot_its_own_place() {
        for layout in [LocLayout::Apart, LocLayout::Interleaved] {
            let (locations, n) = (3usize, 64u32);
            let (scale, span) = layout.words(locations, n);
            let mut seen = std::collections::HashSet::new();
            for j in 0..locations as u32 {
                for i in 0..n {
                    let perm = (i.wrapping_mul(2 * j + 37) + 5 * j) & (n - 1);
                    let slot = perm * scale + j * span;
                    assert!(slot < locations as u32 * n, "{layout:?}");
                    assert!(seen.insert(slot), "{layout:?}: slot {slot} twice");
                }
            }
        }
        // Interleaved: an instance's first slot's neighbour is another
        // location's.
        assert_eq!(LocLayout::Interleaved.words(2, 1024), (2, 1));
        assert_eq!(LocLayout::Apart.words(2, 1024), (1, 1024));
    }

    /// The kernel's map, spread by lane (`litmus_ptx::Codegen`'s
    /// `spread_by_lane`): for each role (declared offset
    /// `c`) every (unit, lane) plays exactly one instance, and the roles
    /// of one instance declared in different CTAs sit in different units.
    #[test]
    fn a_spread_by_lane_plays_every_instance_once_and_keeps_ctas_apart() {
        for units in [2u32, 4, 8, 64] {
            let lanes = 64u32;
            let unit_of = |w: u32, lane: u32, c: u32| {
                let s = (lane << 1) | 1;
                w.wrapping_add(s.wrapping_mul(c)) & (units - 1)
            };
            for c in 0..units.min(4) {
                let mut seen = std::collections::HashSet::new();
                for w in 0..units {
                    for lane in 0..lanes {
                        assert!(
                            seen.insert((unit_of(w, lane, c), lane)),
                            "{units} units, offset {c}"
                        );
                    }
                }
            }
            // Instance (u, lane): role at offset c is played by unit
            // u − c·s; distinct offsets, distinct units.
            for lane in 0..lanes {
                let s = ((lane << 1) | 1) & (units - 1) | 1;
                let homes: std::collections::HashSet<u32> = (0..units.min(4))
                    .map(|c| 0u32.wrapping_sub(s.wrapping_mul(c)) & (units - 1))
                    .collect();
                assert_eq!(
                    homes.len() as u32,
                    units.min(4),
                    "{units} units, lane {lane}"
                );
            }
        }
    }

    /// Roles that share a declared CTA never land on one lane (so one
    /// thread never plays two roles of an instance) wherever the CTA has
    /// as many lanes as roles, from 2 lanes up.
    #[test]
    fn aligned_roles_of_one_cta_keep_to_lanes_of_their_own() {
        for threads in [2u32, 4, 8, 32, 64, 1024] {
            let roles = threads.min(4);
            for lane in 0..threads {
                let lanes: std::collections::HashSet<u32> = (0..roles)
                    .map(|r| {
                        let (m, a) = Lanes::aligned(r);
                        lane.wrapping_mul(m).wrapping_add(a) & (threads - 1)
                    })
                    .collect();
                assert_eq!(lanes.len() as u32, roles, "{threads} threads, lane {lane}");
            }
        }
        assert_eq!(Lanes::aligned(0), (1, 0));
    }
}
