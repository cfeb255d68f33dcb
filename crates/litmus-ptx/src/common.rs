//! The registers every role of the test kernel needs: the kernel's
//! parameters, the thread's coordinates, the knob words, and the unit (CTA,
//! cluster or group of instances) the thread plays its instances in.

use std::collections::BTreeMap;

use crate::emit::Emitter;
use crate::layout::{
    gpu_memory_param, knob, relay_param, Layout, Mode, HOST_MEMORY, HOST_START, KNOB_WORDS,
    LOGICAL_GPU, START_TARGET,
};
use crate::Codegen;

/// Registers every role needs: the thread's coordinates and the knobs.
pub(crate) struct Common {
    pub mem: String,
    pub regs: String,
    pub status: String,
    pub knobs: String,
    pub place: String,
    /// The placement buffer before address conversion: null when off.
    pub place_raw: String,
    pub tid: String,
    pub cta: String,
    /// The CTA's rank in its cluster (set when the test has clusters).
    pub rank: String,
    /// The CTA's place in the instance space: `%ctaid.x` (or its cluster)
    /// when every thread plays every role; the group of 32 instances in
    /// role-per-warp mode; renamed per launch by the CTA shuffle.
    pub unit: String,
    /// This launch's seed, from which the environment's draws come.
    pub launch: String,
    /// Whether this launch's roles wait at the spin barrier.
    pub spin: String,
    /// Role-per-warp mode: the CTA's declared-CTA offset and the thread's
    /// warp.
    pub rpw: Option<(String, String)>,
    pub knob: BTreeMap<usize, String>,
    pub smem: String,
    /// Per view past the first ([`Layout::views`]): what its base adds to
    /// an address in the location buffer (64-bit).
    pub views: Vec<String>,
    /// Per texture alias ([`Layout::textures`]): the texture object.
    pub textures: Vec<String>,
    /// The base of the host locations' page-locked buffer (global
    /// address), when the test has host locations.
    pub host: Option<String>,
    /// The start flag and its relay, when the test has host threads or
    /// sits on several GPUs (see [`Layout::has_start_flag`]).
    pub go: Option<StartFlag>,
    /// The logical GPU this launch plays (32-bit), in a test on several
    /// GPUs.
    pub gpu: Option<String>,
    /// The bases of the location buffers of [`Layout::remote_homes`], in
    /// that order: empty unless a location lives off GPU 0.
    pub remote: Vec<String>,
    /// What the module does otherwise than the default (set by the caller
    /// of [`Common::load`]).
    pub codegen: Codegen,
}

/// What a launch with a start flag waits on (see `kernel.rs`,
/// `wait_for_host`).
pub(crate) struct StartFlag {
    /// The flag in page-locked host memory (global address).
    pub flag: String,
    /// The count this launch's relay word must reach (32-bit).
    pub target: String,
    /// The relay words the relay thread counts this launch in at: every
    /// launching GPU's on several GPUs, else this launch's own.
    pub relays: Vec<String>,
}

/// The knob words every role reads, loaded once at the kernel's start.
const KNOBS: [usize; 23] = [
    knob::CTA_MASK,
    knob::LOG_T,
    knob::LANE_MASK,
    knob::N,
    knob::N_MASK,
    knob::STRIDE,
    knob::SPIN,
    knob::LOOP_BOUND,
    knob::WARP_MASK,
    knob::STRESS,
    knob::STRESS_PATTERN,
    knob::STRESS_LINE_WORDS,
    knob::STRESS_LINES,
    knob::STRESS_ASSIGN,
    knob::STRESS_PCT,
    knob::PRE_STRESS,
    knob::PRE_PATTERN,
    knob::PRE_PCT,
    knob::SPIN_PCT,
    knob::SHUFFLE_PCT,
    knob::STRESS_CTAS,
    knob::INTERLEAVE_PCT,
    knob::SPIN_GRID,
];

/// What the kernel's start sets up: the common registers, and the two
/// buffers only some steps use (final shared values, stress scratch).
pub(crate) struct Start {
    pub common: Common,
    pub shfinal: String,
    pub scratch: String,
}

impl Common {
    /// Loads knob word `k` into a fresh register: for the words outside
    /// [`KNOBS`], read only where they are needed.
    pub(crate) fn load_word(&self, out: &mut Emitter, k: usize) -> String {
        knob_word(out, k)
    }

    /// The location buffers' bases, indexed by [`Layout::memory_of`]:
    /// logical GPU 0's, the host one (or the empty string, for a test
    /// without host memory), then the other GPUs' that hold locations.
    pub(crate) fn memory(&self) -> Vec<&str> {
        let mut bases = vec![self.mem.as_str(), self.host.as_deref().unwrap_or("")];
        bases.extend(self.remote.iter().map(String::as_str));
        bases
    }

    /// Emits the kernel's start: parameters, coordinates, knobs, unit.
    pub(crate) fn load(layout: &Layout, out: &mut Emitter) -> Start {
        if !layout.shared_locs.is_empty() {
            // Aligned for the widest slot: 16 bytes for a bulk copy's, 8
            // for an mbarrier's (see `Layout::shared_offset`).
            out.raw(&format!(
                ".extern .shared .align {} .b32 litmus_smem[];\n\n",
                layout.shared_align()
            ));
        }
        let mem = global_param(out, "p_mem").1;
        let regs = global_param(out, "p_regs").1;
        let shfinal = global_param(out, "p_shfinal").1;
        let status = global_param(out, "p_status").1;
        let knobs = global_param(out, "p_knobs").1;
        let (place_raw, place) = global_param(out, "p_place");
        let scratch = global_param(out, "p_scratch").1;
        let launch = u32_param(out, "p_launch");
        let tid = out.r32();
        let cta = out.r32();
        out.ins(format!("mov.u32 {tid}, %tid.x"));
        out.ins(format!("mov.u32 {cta}, %ctaid.x"));
        let knob_regs = load_knobs(out);
        crate::interleave::interleave_ctas(out, &launch, &knob_regs, &cta, layout.ctas_per_unit());
        let smem = out.r32();
        if !layout.shared_locs.is_empty() {
            out.ins(format!("mov.u32 {smem}, litmus_smem"));
        }
        let (unit, rpw) = unit(layout, &cta, &tid, out);
        let rank = out.r32();
        if layout.cluster_size > 1 {
            out.ins(format!("mov.u32 {rank}, %cluster_ctarank"));
        }
        let spin = out.pred();
        // Last, so that a test without them keeps its registers' names:
        // the aliases, then host memory and host threads, then the logical
        // GPU, then other GPUs' location buffers.
        let (views, textures) = alias_params(layout, &mem, out);
        let (host, flag) = host_params(layout, out);
        let target = flag.as_ref().map(|_| u32_param(out, START_TARGET));
        let gpu = layout.multi_gpu().then(|| u32_param(out, LOGICAL_GPU));
        let go = flag.zip(target).map(|(flag, target)| {
            let relays = match layout.multi_gpu() {
                true => layout
                    .launching()
                    .into_iter()
                    .map(|g| global_param(out, &relay_param(g)).1)
                    .collect(),
                false => {
                    let own = out.r64();
                    out.ins(format!("add.u64 {own}, {knobs}, {}", knob::START_RELAY * 4));
                    vec![own]
                }
            };
            StartFlag {
                flag,
                target,
                relays,
            }
        });
        let remote = layout
            .remote_homes()
            .into_iter()
            .map(|g| global_param(out, &gpu_memory_param(g)).1)
            .collect();
        Start {
            common: Common {
                launch,
                spin,
                rank,
                mem,
                regs,
                status,
                knobs,
                place,
                place_raw,
                tid,
                cta,
                unit,
                rpw,
                knob: knob_regs,
                smem,
                views,
                textures,
                host,
                go,
                gpu,
                remote,
                codegen: Codegen::default(),
            },
            shfinal,
            scratch,
        }
    }
}

/// Loads the views' offsets from the location buffer and the texture
/// objects of a test with aliases.
fn alias_params(layout: &Layout, mem: &str, out: &mut Emitter) -> (Vec<String>, Vec<String>) {
    let views = (1..=layout.views.len())
        .map(|v| {
            let base = global_param(out, &format!("p_view{v}")).1;
            let delta = out.r64();
            out.ins(format!("sub.u64 {delta}, {base}, {mem}"));
            delta
        })
        .collect();
    let textures = (0..layout.textures.len())
        .map(|t| {
            let handle = out.r64();
            out.ins(format!("ld.param.u64 {handle}, [p_tex{t}]"));
            handle
        })
        .collect();
    (views, textures)
}

/// Loads the host locations' buffer and the start flag, where the test
/// has them.
fn host_params(layout: &Layout, out: &mut Emitter) -> (Option<String>, Option<String>) {
    let host = (!layout.host_slots.is_empty()).then(|| global_param(out, HOST_MEMORY).1);
    let go = layout
        .has_start_flag()
        .then(|| global_param(out, HOST_START).1);
    (host, go)
}

/// Loads a `u64` kernel parameter and keeps its low 32 bits.
fn u32_param(out: &mut Emitter, name: &str) -> String {
    let (wide, r) = (out.r64(), out.r32());
    out.ins(format!("ld.param.u64 {wide}, [{name}]"));
    out.ins(format!("cvt.u32.u64 {r}, {wide}"));
    r
}

/// Loads the knob words every role reads ([`KNOBS`]).
fn load_knobs(out: &mut Emitter) -> BTreeMap<usize, String> {
    KNOBS.into_iter().map(|k| (k, knob_word(out, k))).collect()
}

/// Loads knob word `k` from the kernel's [`KNOB_WORDS`] parameter into a
/// fresh register.
pub(crate) fn knob_word(out: &mut Emitter, k: usize) -> String {
    let r = out.r32();
    out.ins(format!("ld.param.u32 {r}, [{KNOB_WORDS}+{}]", k * 4));
    r
}

/// The unit this CTA plays instances in, and in role-per-warp mode its
/// declared-CTA offset and the thread's warp.
fn unit(
    layout: &Layout,
    cta: &str,
    tid: &str,
    out: &mut Emitter,
) -> (String, Option<(String, String)>) {
    match &layout.mode {
        Mode::EveryRole if layout.cluster_size > 1 => {
            // Clusters are runs of `cluster_size` consecutive CTAs.
            let unit = out.r32();
            out.ins(format!(
                "shr.u32 {unit}, {cta}, {}",
                layout.cluster_size.trailing_zeros()
            ));
            (unit, None)
        }
        Mode::EveryRole => {
            // A register of its own: the shuffle renames the unit, not the
            // CTA.
            let unit = out.r32();
            out.ins(format!("mov.u32 {unit}, {cta}"));
            (unit, None)
        }
        Mode::RolePerWarp { ctas, .. } => {
            let (unit, d, warp) = (out.r32(), out.r32(), out.r32());
            out.ins(format!("div.u32 {unit}, {cta}, {ctas}"));
            out.ins(format!("rem.u32 {d}, {cta}, {ctas}"));
            out.ins(format!("shr.u32 {warp}, {tid}, 5"));
            (unit, Some((d, warp)))
        }
    }
}

/// Loads a pointer parameter: (the raw value, the global address).
pub(crate) fn global_param(out: &mut Emitter, name: &str) -> (String, String) {
    let raw = out.r64();
    let global = out.r64();
    out.ins(format!("ld.param.u64 {raw}, [{name}]"));
    out.ins(format!("cvta.to.global.u64 {global}, {raw}"));
    (raw, global)
}
