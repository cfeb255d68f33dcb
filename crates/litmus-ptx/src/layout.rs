//! The contract between the generated kernels and the host harness: which
//! kernel parameters, knob words, buffers and table entries there are.
//!
//! The macro embeds the PTX text at compile time; the runtime recomputes
//! this layout from the same IR at run time (it is cheap and deterministic),
//! so nothing has to re-parse the PTX.

use std::collections::BTreeSet;

use litmus_core::ir::{Space, Test};
use litmus_core::outcome::{observables, Observable};

use crate::barriers::mode;
pub use crate::proxies::{AliasLoc, Reach, TextureAlias};
use crate::PtxError;

mod asynchronous;
mod grid;
mod refusals;

pub(crate) use grid::instr_locs;
use grid::{homes, host_slots, place_roles, slots_of, split_locations, stored_regs, Grid};
use refusals::{
    count_gpus, refuse_clusters_with, refuse_gpus, refuse_homes, refuse_host, refuse_host_with,
};

/// Name of the kernel that runs the test instances.
pub const TEST_KERNEL: &str = "litmus_test";
/// Name of the kernel that folds outcomes into the histogram.
pub const CLASSIFY_KERNEL: &str = "litmus_classify";
/// Threads per CTA of the classification kernel (one per instance): the
/// larger the CTA, the fewer its folds into the histogram in GPU memory,
/// but the longer its two barriers hold its warps. On an H200, against
/// 1024: at 131,072 instances a launch (2048 x 64) 512 made MP, SB, IRIW
/// and WRC 2–4% faster and 2+2W 2%; at 2M (32768 x 64) MP and SB 4%, IRIW
/// and WRC 2%, 2+2W 1% slower. 256 was as fast at the small shape and 5–6%
/// slower on 2+2W and WRC at the large one.
pub const CLASSIFY_BLOCK: u32 = 512;

/// Indices into the knob array (`u32` words) both kernels read.
pub mod knob {
    /// CTAs per launch minus one (a power of two).
    pub const CTA_MASK: usize = 0;
    /// log2 of threads per CTA.
    pub const LOG_T: usize = 1;
    /// Threads per CTA minus one.
    pub const LANE_MASK: usize = 2;
    /// Instances per launch (CTAs × threads per CTA).
    pub const N: usize = 3;
    /// Instances per launch minus one.
    pub const N_MASK: usize = 4;
    /// Words between two consecutive slots of a global location.
    pub const STRIDE: usize = 5;
    /// Polls of the bounded spin barrier before a role starts; 0: off.
    pub const SPIN: usize = 6;
    /// Backward branches a role may take before it gives up.
    pub const LOOP_BOUND: usize = 7;
    /// Warps per CTA minus one.
    pub const WARP_MASK: usize = 8;
    /// Histogram table entries minus one (a power of two).
    pub const TABLE_MASK: usize = 9;
    /// Memory-stress iterations per stressing thread; 0: off.
    pub const STRESS: usize = 10;
    /// The stressing CTAs' access pattern (see [`super::StressPattern`]).
    pub const STRESS_PATTERN: usize = 11;
    /// Words of one stressed scratch line (a power of two).
    pub const STRESS_LINE_WORDS: usize = 12;
    /// Scratch lines the stressing CTAs share out.
    pub const STRESS_LINES: usize = 13;
    /// How stressing CTAs are spread over the lines: 0 round-robin, 1 in
    /// chunks.
    pub const STRESS_ASSIGN: usize = 14;
    /// Percentage of launches in which the stressing CTAs stress.
    pub const STRESS_PCT: usize = 15;
    /// Iterations of the testing threads' own stress before their roles;
    /// 0: off.
    pub const PRE_STRESS: usize = 16;
    /// The testing threads' pre-stress pattern.
    pub const PRE_PATTERN: usize = 17;
    /// Percentage of launches in which the testing threads pre-stress.
    pub const PRE_PCT: usize = 18;
    /// Percentage of launches whose roles start behind the spin barrier
    /// (when [`SPIN`] is on).
    pub const SPIN_PCT: usize = 19;
    /// Percentage of launches that shuffle which CTA plays which
    /// instances.
    pub const SHUFFLE_PCT: usize = 20;
    /// Stressing CTAs in the launch: CTAs past the test's own.
    pub const STRESS_CTAS: usize = 21;
    /// Polls of the start flag before the GPU roles start anyway (tests
    /// with host threads or on several GPUs only; see
    /// [`super::HOST_START`]).
    pub const HOST_WAIT: usize = 22;
    /// Nonzero: the harness fills the locations' GPU memory with their
    /// initial values before each launch, and the classifier resets only
    /// what it reads (see `classify.rs`).
    pub const RESET_BY_FILL: usize = 23;
    /// The word where the relay thread of each launch with a start flag
    /// counts its launch in once the flag is up (see `kernel.rs`,
    /// `wait_for_host`): in every launching GPU's copy of the knobs, and
    /// zeroed only when the knobs are written (see [`super::START_TARGET`]).
    pub const START_RELAY: usize = 24;
    /// How many launches a launch with a start flag waits to see counted
    /// in before its roles: every launching GPU's when their CTAs can all
    /// be resident at once, else 1 (a launch that waited for one that
    /// cannot start until it ends would only wait out its bound).
    pub const START_COUNT: usize = 25;
    /// Percentage of launches whose testing CTAs are spread evenly among
    /// the stressing CTAs rather than before them (see
    /// `environment.rs`, `interleave_ctas`).
    pub const INTERLEAVE_PCT: usize = 26;
    /// What a location's permuted slot index is multiplied by: 1 when each
    /// location has a region of its own, the global locations' count when
    /// their slots alternate (see [`LOC_SPAN`]).
    pub const SLOT_SCALE: usize = 27;
    /// What the location's index (its slot in `Layout::global_locs`) is
    /// multiplied by: the instances per launch when each location has a
    /// region of its own, 1 when their slots alternate. Slot `j` of
    /// instance `i` is then `perm_j(i)·SLOT_SCALE + j·LOC_SPAN` (times the
    /// stride, in words).
    pub const LOC_SPAN: usize = 28;
    /// The testing threads of a launch, when its spin barrier is one for
    /// the whole grid, as the published harnesses' is: each counts in once
    /// on one word (status word `2·N`, reset by the classifier) before its
    /// roles, and polls until all are in or [`SPIN`] polls have gone by.
    /// 0: the spin barrier is per instance, before each role.
    pub const SPIN_GRID: usize = 29;
    /// In a test on several GPUs, this launch's GPU's renaming of the
    /// instances its threads play, `i·GPU_PARTNER_MUL + GPU_PARTNER_ADD`
    /// modulo the launch's instances (the multiplier odd): each GPU's copy
    /// of the knobs holds its own, logical GPU 0's the identity, so that
    /// the roles of one instance on different GPUs sit anywhere in their
    /// launches (the harness's `LITMUS_GPU_PARTNERS`).
    pub const GPU_PARTNER_MUL: usize = 30;
    /// The addend of [`GPU_PARTNER_MUL`]'s renaming.
    pub const GPU_PARTNER_ADD: usize = 31;
    /// First of two words per role: the lane multiplier (odd) and addend.
    pub const ROLE_BASE: usize = 32;
}

/// What a stressing thread does on its scratch line, each iteration: two
/// accesses, stores or loads (the four patterns of MC Mutants). The knob
/// words [`knob::STRESS_PATTERN`] and [`knob::PRE_PATTERN`] hold the
/// discriminant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StressPattern {
    /// Store, store.
    StSt = 0,
    /// Load, load.
    LdLd = 1,
    /// Store, load.
    StLd = 2,
    /// Load, store.
    LdSt = 3,
}

impl StressPattern {
    /// Every pattern, in discriminant order.
    pub const ALL: [StressPattern; 4] = [
        StressPattern::StSt,
        StressPattern::LdLd,
        StressPattern::StLd,
        StressPattern::LdSt,
    ];

    /// `st-st`, `ld-ld`, `st-ld`, `ld-st`.
    pub fn as_str(self) -> &'static str {
        match self {
            StressPattern::StSt => "st-st",
            StressPattern::LdLd => "ld-ld",
            StressPattern::StLd => "st-ld",
            StressPattern::LdSt => "ld-st",
        }
    }

    /// The pattern a name (as [`StressPattern::as_str`] writes it) names.
    pub fn from_name(name: &str) -> Option<StressPattern> {
        StressPattern::ALL.into_iter().find(|p| p.as_str() == name)
    }
}

/// Words of the counters buffer, each a `u64`.
pub mod counter {
    /// Instances in which some role gave up on a loop.
    pub const UNFINISHED: usize = 0;
    /// Instances whose outcome found no free histogram entry.
    pub const OVERFLOW: usize = 1;
    /// Number of `u64` counters.
    pub const COUNT: usize = 2;
}

/// Words recorded per role of each instance in placement-check mode:
/// `%ctaid.x`, `%tid.x`, `%warpid` (the logical GPU, in a test on several
/// GPUs), `%smid` for a GPU role;
/// [`HOST_PLACEMENT_TAG`], the CPU thread, the role, [`HOST_PLACEMENT_TAG`]
/// for a host role.
pub const PLACEMENT_WORDS: usize = 4;

/// The first and last word of a host role's placement record: no GPU
/// record has it, since `%ctaid.x` stays below 2^31 and no SM id comes
/// near it.
pub const HOST_PLACEMENT_TAG: u32 = 0xffff_fffe;

/// The last parameter of both kernels: the knob words themselves, by value
/// (`.param .align 4 .b8 p_knobw[4·words]`), which the launch copies into
/// the constant bank. Read from global memory, each batch of them was a
/// dependent round trip to L2 (two before a CTA's roles could start,
/// three in the classifier); from the constant bank they cost none. On an
/// H200 at the one-GPU defaults the launch rate did not measurably move
/// (SB 7.40e9 instances/s before, 7.31e9 after; WRC 6.94e9, 7.04e9; two
/// leases), so the win is the simpler dependency chain, not speed. The
/// copy in global memory (`p_knobs`) stays for the start relay word,
/// which the kernels count in at.
pub const KNOB_WORDS: &str = "p_knobw";

/// The declaration of [`KNOB_WORDS`] for `layout`'s knob words, as the
/// last entry of a kernel's parameter list.
pub fn knob_words_param(layout: &Layout) -> String {
    format!(
        ",\n\t.param .align 4 .b8 {KNOB_WORDS}[{}]",
        4 * layout.knob_words()
    )
}

/// What a host test adds to the kernels' parameters (after every other):
/// `p_host`, the device address of the page-locked host memory that holds
/// the test's host locations, when it has any.
pub const HOST_MEMORY: &str = "p_host";
/// `p_host_regs`, the classifier's last parameter in a test with host
/// threads: the page-locked buffer where they store their registers. The
/// GPU roles store theirs in device memory (`p_regs`), so that only the
/// host's registers cross the bus: on an H100, storing and reading every
/// register over it held a launch of 131,072 instances to about 0.9 ms.
pub const HOST_REGS: &str = "p_host_regs";
/// `p_go`, the device address of the start flag in page-locked host
/// memory, when the test has host threads (they raise it) or sits on
/// several GPUs (the host raises it once every GPU's kernel is queued):
/// every GPU thread polls it, a bounded number of times
/// ([`knob::HOST_WAIT`]), before its roles.
pub const HOST_START: &str = "p_go";
/// `p_gpu`, the logical GPU a launch of the test kernel plays, in a test
/// whose threads sit on several GPUs (after every other parameter): the
/// kernel is generated once, each GPU launches it, and each launch plays
/// only the roles placed on its GPU.
pub const LOGICAL_GPU: &str = "p_gpu";
/// `p_go_target`, after [`HOST_START`]: the count this launch's start
/// relay word ([`knob::START_RELAY`]) must reach before the roles start.
/// The words are never zeroed: every launch adds one per launching GPU to
/// each, so the harness passes `launches before × launching GPUs +`
/// [`knob::START_COUNT`], and no reset has to race another GPU's count.
pub const START_TARGET: &str = "p_go_target";

/// The most copies of the start flag the host keeps in its page-locked
/// buffer, each [`START_FLAG_SPACING`] words after the last, all raised
/// and lowered together: the bus serves one read of one word at a time,
/// about one a microsecond, so CTAs that read different copies leave
/// faster. The CTA start reads [`Layout::gpu_flags_knob`] of them (the
/// kernel clamps the word to this), other starts the first; the host
/// keeps only the copies read.
pub const START_FLAG_COPIES: usize = 32;

/// Words between two copies of the start flag: 128 bytes, a line each.
pub const START_FLAG_SPACING: usize = 32;

/// The values of [`Layout::gpu_start_knob`]: how a launch on several
/// GPUs leaves the start.
pub mod start_mode {
    /// One relay thread a launch; every warp polls its GPU's relay word.
    pub const RELAY: u32 = 0;
    /// Each CTA's thread 0 polls the host flag (`cta_start` in `start.rs`).
    pub const CTA: u32 = 1;
    /// The relay, then each CTA leaves on a timetable (`paced_start` in `start.rs`).
    pub const PACED: u32 = 2;
}

/// The kernel parameter holding the address of logical GPU `g`'s start
/// relay word, for `g` among [`Layout::launching`] (after [`LOGICAL_GPU`],
/// in ascending order), in a test on several GPUs: each launch's relay
/// thread counts it in at every launching GPU's word, so that each GPU's
/// warps poll a word in their own memory and see the last count at about
/// the same time (polling one word across NVLink put the other GPU's roles
/// microseconds behind).
pub fn relay_param(g: u32) -> String {
    format!("p_relay{g}")
}

/// The kernel parameter holding the base of logical GPU `g`'s location
/// buffer, for `g` among [`Layout::remote_homes`] (after [`LOGICAL_GPU`],
/// in ascending order): `p_mem1`, `p_mem2`... Logical GPU 0's is `p_mem`.
/// Each is a device address of that GPU's memory, which every other GPU
/// reaches through peer access (unified addressing).
pub fn gpu_memory_param(g: u32) -> String {
    format!("p_mem{g}")
}

pub use crate::plan::{Mode, Role, HARNESS_BARRIER};

/// The most GPUs a test may place threads on: the largest machine the
/// project is lent has eight.
pub const MAX_GPUS: u32 = 8;

/// A shared location, the CTA offset of the roles that use it, and the
/// slot each instance has of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedLoc {
    /// Index into `Test::locations`.
    pub loc: usize,
    /// Shared memory of one CTA, or distributed shared memory of a cluster
    /// (kept in the CTA of rank [`SharedLoc::rank`]).
    pub space: Space,
    /// The cluster offset (see [`Role::cluster_offset`]) of the roles that
    /// use it; 0 when no role does.
    pub cluster_offset: u32,
    /// The rank of the CTA whose shared memory holds it: for cluster-shared
    /// memory, the rank of the CTA whose threads reach it in their own
    /// window (an mbarrier's waiter, a bulk store's source: PTX gives those
    /// instructions no other), else 0.
    pub rank: u32,
    /// Bytes of each instance's slot: 4 for a word; 8 for an mbarrier (a
    /// 64-bit object, 8-byte aligned); for a location a bulk copy reads or
    /// writes, its largest copy (a multiple of 16, and 16-byte aligned: a
    /// copy moves the word and the bytes after it).
    pub bytes: u32,
    /// For an mbarrier: the arrivals its `mbarrier.init` asks for. The
    /// kernel initialises every instance's barrier before the roles start,
    /// as the model does (`docs/models.md`, "One phase, counted").
    pub mbarrier: Option<u32>,
}

/// The most CTAs of one cluster the harness launches: the portable
/// maximum on sm_90.
pub const MAX_CLUSTER: u32 = 8;

/// How a test is laid out on the GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// How GPU threads play the roles.
    pub mode: Mode,
    /// One role per test thread, in `Test::threads` order.
    pub roles: Vec<Role>,
    /// Indices into `Test::locations` of the global locations, in slot order
    /// (aliases have none: see [`Layout::slot_of`]).
    pub global_locs: Vec<usize>,
    /// Per location of the test: the slot (index into `global_locs`) that
    /// holds its memory, its root's for an alias; `None` for shared
    /// locations.
    pub slot_of: Vec<Option<usize>>,
    /// The aliases the test's instructions use, and how the kernel reaches
    /// them.
    pub aliases: Vec<AliasLoc>,
    /// The generic aliases that are views of their own: the virtual
    /// mappings past the location buffer, in kernel-parameter order
    /// (indices into `Test::locations`). The host maps the buffer's memory
    /// once more for each and passes the base as `p_view1`, `p_view2`...
    pub views: Vec<usize>,
    /// The texture objects the host creates, in kernel-parameter order
    /// (`p_tex0`, `p_tex1`...).
    pub textures: Vec<TextureAlias>,
    /// The shared locations, in `Test::locations` order.
    pub shared_locs: Vec<SharedLoc>,
    /// The outcome's components, in order (see [`litmus_core::outcome`]).
    pub observables: Vec<Observable>,
    /// The registers each instance stores for the classifier:
    /// `(thread, register)`, in the order of the registers buffer.
    pub stored_regs: Vec<(usize, String)>,
    /// Distinct CTAs an instance spans.
    pub ctas: u32,
    /// Distinct clusters an instance spans (each CTA is a cluster of its
    /// own in a test that declares none).
    pub clusters: u32,
    /// CTAs per hardware cluster: the most CTAs a declared cluster holds,
    /// rounded up to a power of two; 1 without clusters.
    pub cluster_size: u32,
    /// Distinct warps a CTA must hold when warps are declared.
    pub warps: u32,
    /// The slots (indices into `global_locs`) of the locations in
    /// page-locked host memory. They keep their index: the host buffer is
    /// laid out like the device one, so every address computation is the
    /// same and only the base differs.
    pub host_slots: Vec<usize>,
    /// Logical GPUs the test spans: one past the highest GPU a thread is
    /// placed on (1 for a test on one GPU). Every buffer but the location
    /// buffers of [`Layout::remote_homes`] lives in logical GPU 0's memory;
    /// the others reach it by peer access.
    pub gpus: u32,
    /// Per slot (index into `global_locs`): the logical GPU whose memory
    /// holds it ([`litmus_core::ir::Location::gpu`]); 0 for a slot in host
    /// memory. Each GPU's location buffer is laid out like logical GPU
    /// 0's, as the host one is, so a slot keeps its index and only the
    /// base differs.
    pub homes: Vec<u32>,
    /// Whether the test uses the async proxy (bulk copies, mbarriers,
    /// `fence.proxy.async`): its kernel makes the initial values of shared
    /// memory visible to the async proxy, and drains what is in flight
    /// before its CTAs exit.
    pub asynchronous: bool,
    /// The words of a global slot that the test's bulk copies read or
    /// write (the largest copy of a global location, over 4); 0 when none
    /// does. The stride must give each slot that many (see
    /// [`Layout::stride_fits`]).
    pub bulk_words: u32,
    /// Whether some thread issues a bulk store (`cp.async.bulk.global.
    /// shared::cta.bulk_group`): every thread waits for its bulk groups
    /// before its CTA exits.
    pub bulk_stores: bool,
}

impl Layout {
    /// Lays out a validated test.
    pub fn of(test: &Test) -> Result<Layout, PtxError> {
        refuse_host(test)?;
        let gpus = count_gpus(test)?;
        let grid = Grid::of(test)?;
        let warps: BTreeSet<u32> = test
            .threads
            .iter()
            .filter_map(|t| t.placement.warp)
            .collect();
        let roles = place_roles(test, &grid, !warps.is_empty());
        let (global_locs, mut shared_locs) = split_locations(test, &roles);
        let bulk = asynchronous::plan(test, &roles, &mut shared_locs)?;
        let plan = crate::proxies::plan(test, &global_locs)?;
        let slot_of = slots_of(test, &global_locs);
        let mode = mode(test, &roles)?;
        let host_slots = host_slots(test, &global_locs);
        let homes = homes(test, &global_locs, &host_slots);
        refuse_homes(test, &global_locs, &homes, gpus)?;
        refuse_host_with(test, &mode, grid.cluster_size, &host_slots, &plan)?;
        refuse_gpus(gpus, &shared_locs, &plan)?;
        refuse_clusters_with(grid.cluster_size, &mode)?;
        let roles = match mode {
            // Each role has a warp of its own: declared warps only told
            // which roles must not share one.
            Mode::RolePerWarp { .. } => roles
                .into_iter()
                .map(|r| Role { warp: None, ..r })
                .collect(),
            Mode::EveryRole => roles,
        };
        let observables = observables(test);
        let stored_regs = stored_regs(&observables);
        Ok(Layout {
            mode,
            roles,
            global_locs,
            slot_of,
            aliases: plan.aliases,
            views: plan.views,
            textures: plan.textures,
            shared_locs,
            observables,
            stored_regs,
            ctas: grid.ctas.len() as u32,
            clusters: grid.clusters.len() as u32,
            cluster_size: grid.cluster_size,
            warps: warps.iter().max().map_or(1, |w| w.saturating_add(1)),
            host_slots,
            gpus,
            homes,
            asynchronous: bulk.asynchronous,
            bulk_words: bulk.bulk_words,
            bulk_stores: bulk.bulk_stores,
        })
    }

    /// Bytes of dynamic shared memory a CTA of the test kernel needs for
    /// its shared locations, `slots` instances a location (threads per CTA,
    /// or 32 in role-per-warp mode): every location's slots, one after the
    /// other.
    pub fn shared_bytes(&self, slots: u32) -> u32 {
        self.shared_locs.iter().map(|l| l.bytes).sum::<u32>() * slots
    }

    /// Where shared location `s`'s slots start, in bytes per slot of a
    /// location: the slots of instance lane `l` of location `s` start at
    /// `T·shared_offset(s) + l·bytes` (T slots a location). T is a power
    /// of two of at least 32, so every region starts 16-byte aligned.
    pub fn shared_offset(&self, s: usize) -> u32 {
        self.shared_locs[..s].iter().map(|l| l.bytes).sum()
    }

    /// The alignment of the shared memory the kernel declares: 16 bytes
    /// where a bulk copy reaches it, 8 where an mbarrier lives, else 4.
    pub fn shared_align(&self) -> u32 {
        self.shared_locs
            .iter()
            .map(|l| l.bytes.min(16))
            .max()
            .unwrap_or(4)
    }

    /// Whether `stride` (`LITMUS_STRIDE`, words between two slots of a
    /// global location) leaves every bulk copy its own 16-byte aligned
    /// slot: a multiple of 4 words, and at least [`Layout::bulk_words`].
    /// Any stride does for a test whose bulk copies reach no global
    /// location.
    pub fn stride_fits(&self, stride: u32) -> bool {
        self.bulk_words == 0 || (stride.is_multiple_of(4) && stride >= self.bulk_words)
    }

    /// Whether the test's threads sit on several GPUs.
    pub fn multi_gpu(&self) -> bool {
        self.gpus > 1
    }

    /// The roles logical GPU `g`'s launch plays: the GPU roles placed on
    /// it, in `Test::threads` order.
    pub fn roles_on(&self, g: u32) -> Vec<usize> {
        (0..self.roles.len())
            .filter(|&k| !self.roles[k].host && self.roles[k].gpu == g)
            .collect()
    }

    /// How many logical GPUs launch the test kernel: those that play
    /// roles (a GPU that plays none is not launched).
    pub fn launching_gpus(&self) -> u32 {
        self.launching().len() as u32
    }

    /// The logical GPUs that launch the test kernel, ascending.
    pub fn launching(&self) -> Vec<u32> {
        (0..self.gpus.max(1))
            .filter(|&g| !self.roles_on(g).is_empty())
            .collect()
    }

    /// Whether the kernel takes the start flag ([`HOST_START`]) and polls
    /// it before its roles: with host threads, which raise it, and on
    /// several GPUs, whose launches the host releases together once it
    /// has queued them all.
    pub fn has_start_flag(&self) -> bool {
        self.has_host_roles() || self.multi_gpu()
    }

    /// Whether some role runs on a host thread.
    pub fn has_host_roles(&self) -> bool {
        self.roles.iter().any(|r| r.host)
    }

    /// The roles GPU threads play (all but the host roles).
    pub fn gpu_roles(&self) -> usize {
        self.roles.iter().filter(|r| !r.host).count()
    }

    /// Whether global slot `j` lives in page-locked host memory.
    pub fn in_host_memory(&self, j: usize) -> bool {
        self.host_slots.contains(&j)
    }

    /// The logical GPUs other than 0 whose memory holds some location, in
    /// ascending order: each takes a buffer of its own and a kernel
    /// parameter ([`gpu_memory_param`]). Empty for a test whose locations
    /// all live on GPU 0 (or the host), whose kernels stay as they were.
    pub fn remote_homes(&self) -> Vec<u32> {
        let homes: BTreeSet<u32> = self.homes.iter().copied().filter(|&g| g != 0).collect();
        homes.into_iter().collect()
    }

    /// Which base global slot `j`'s address adds to, as an index into the
    /// bases in parameter order: 0 for logical GPU 0's buffer (`p_mem`), 1
    /// for the host buffer ([`HOST_MEMORY`]), `2 + i` for the `i`th of
    /// [`Layout::remote_homes`].
    pub fn memory_of(&self, j: usize) -> usize {
        if self.in_host_memory(j) {
            return 1;
        }
        let home = self.homes.get(j).copied().unwrap_or(0);
        match self.remote_homes().iter().position(|&g| g == home) {
            Some(i) => 2 + i,
            None => 0,
        }
    }

    /// Whether global slot `j` lives in the memory of a logical GPU other
    /// than 0 (a peer's memory to the classifier, which runs on GPU 0).
    pub fn in_remote_memory(&self, j: usize) -> bool {
        !self.in_host_memory(j) && self.homes.get(j).is_some_and(|&g| g != 0)
    }

    /// Whether global slot `j`'s final value is in the final condition.
    pub fn observed(&self, j: usize) -> bool {
        self.observables.iter().any(|o| match o {
            Observable::Loc { loc } => self.slot_of.get(*loc).copied().flatten() == Some(j),
            Observable::Reg { .. } => false,
        })
    }

    /// Whether the harness may reset global slot `j` between launches with
    /// a fill of GPU 0's buffer (in large launches: see the harness's
    /// `refills`) rather than the classifier with a store: a slot in GPU
    /// 0's memory that the classifier does not read. The classifier resets
    /// the slots it reads as it reads them, and every slot in host or
    /// another GPU's memory; the two sides take this one rule.
    pub fn refillable(&self, j: usize) -> bool {
        !self.in_host_memory(j) && !self.in_remote_memory(j) && !self.observed(j)
    }

    /// Whether the location buffer needs the virtual memory management
    /// API: a second mapping for a generic alias, or the alignment a
    /// texture over it needs.
    pub fn has_aliases(&self) -> bool {
        !self.views.is_empty() || !self.textures.is_empty()
    }

    /// Consecutive CTAs that play one unit of instances: a cluster's, a
    /// role-per-warp group's declared CTAs, or one. Interleaving moves
    /// whole units, so the stressing CTAs come in multiples of it.
    pub fn ctas_per_unit(&self) -> u32 {
        match self.mode {
            Mode::RolePerWarp { ctas, .. } => ctas,
            Mode::EveryRole => self.cluster_size.max(1),
        }
    }

    /// Words in the knob array.
    pub fn knob_words(&self) -> usize {
        match self.multi_gpu() {
            true => self.gpu_t0_knob() + 2,
            false => knob::ROLE_BASE + 2 * self.roles.len() + 2 * self.global_locs.len(),
        }
    }

    /// In a test on several GPUs, the knob word of this launch's GPU's
    /// start offset: nanoseconds its roles wait once every GPU has started
    /// (each GPU's copy of the knobs holds its own; the harness's
    /// `LITMUS_GPU_STAGGER`). Past the locations' words, so that a test on
    /// one GPU keeps its knob words.
    pub fn gpu_delay_knob(&self) -> usize {
        knob::ROLE_BASE + 2 * self.roles.len() + 2 * self.global_locs.len()
    }

    /// In a test on several GPUs, the knob word of the start jitter: each
    /// GPU thread waits a further `0..jitter` nanoseconds, drawn per
    /// warp and launch (the harness's `LITMUS_GPU_JITTER`).
    pub fn gpu_jitter_knob(&self) -> usize {
        self.gpu_delay_knob() + 1
    }

    /// In a test on several GPUs, the knob word of how the roles leave the
    /// start, one of [`start_mode`]'s (the harness's `LITMUS_GPU_START`;
    /// see `start.rs`).
    pub fn gpu_start_knob(&self) -> usize {
        self.gpu_delay_knob() + 2
    }

    /// In a test on several GPUs, the knob word of the paced start's
    /// nanoseconds between one CTA's departure and the next's (the
    /// harness's `LITMUS_GPU_PACE`).
    pub fn gpu_pace_knob(&self) -> usize {
        self.gpu_delay_knob() + 3
    }

    /// In a test on several GPUs, the knob word of how many copies of the
    /// host's start flag the CTA start reads, CTA `c` the copy `c mod
    /// copies` ([`START_FLAG_COPIES`] at most; the harness's
    /// `LITMUS_GPU_FLAGS`).
    pub fn gpu_flags_knob(&self) -> usize {
        self.gpu_delay_knob() + 4
    }

    /// In a test on several GPUs, the first of the two words (8-byte
    /// aligned) where the paced start keeps, in each GPU's copy of the
    /// knobs, the time its launch's first CTA left the relay; written
    /// only by the kernel, and 0 (no launch's) when the knobs are.
    pub fn gpu_t0_knob(&self) -> usize {
        (self.gpu_delay_knob() + 5).next_multiple_of(2)
    }

    /// Index of the first knob word of global location slot `j`: the
    /// location multiplier (odd) and addend of its instance permutation.
    pub fn loc_knob(&self, j: usize) -> usize {
        knob::ROLE_BASE + 2 * self.roles.len() + 2 * j
    }

    /// Words of one histogram entry: a `u64` key, a `u64` count, then one
    /// word per observable, padded to keep entries 8-byte aligned.
    pub fn entry_words(&self) -> usize {
        (4 + self.observables.len()).next_multiple_of(2)
    }
}
