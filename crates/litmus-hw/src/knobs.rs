//! The harness's knobs, their defaults and the line that prints them;
//! `knobs/rows.rs` is their table (a row per knob, `knobs/table.rs` says
//! what a row holds), from which `knobs/vars.rs` reads and writes their
//! environment variables.

use std::fmt;

use super::arrangement::{CtaSpread, GpuPartners, Lanes, LocLayout};
use super::codegen::{addressing_name, PtxTarget};
use super::environment::Environment;
use super::gpu_start::{GpuStart, PROFILE_CTAS, PROFILE_GPU_FLAGS, PROFILE_THREADS};
use super::GpuError;
use litmus_ptx::layout::MAX_GPUS;
use litmus_ptx::Addressing;

mod rows;
pub(crate) mod table;
mod vars;
mod wire_values;

/// How a GPU run is shaped. The defaults were chosen by a sweep on an H100
/// (threads per CTA 32 to 512, strides 1 to 64, spin barrier on and off):
/// 64-thread CTAs and a stride of 4 words beat the hand-written reference
/// harness of `gpu-notes.md` on instances/s and on every weak rate; the
/// spin barrier raised MP and SB rates but cost throughput and hid IRIW
/// and WRC, so it is off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knobs {
    /// CTAs per launch (a power of two). With `threads`, sets the instances
    /// per launch; a test that declares more CTAs or warps than fit gets
    /// fewer, wider CTAs or more CTAs, with as many instances.
    pub ctas: u32,
    /// Threads per CTA (a power of two from 2: the published harnesses
    /// draw workgroups down to 2 threads, and a CTA smaller than a warp
    /// shares its SM with more CTAs).
    pub threads: u32,
    /// Stop after this many launches (`LITMUS_LAUNCHES`)...
    pub launches: Option<u64>,
    /// ...or else after this much wall time (`LITMUS_BUDGET_MS`).
    pub budget_ms: u64,
    /// Seeds the permutations of roles over lanes and of locations over
    /// memory (`LITMUS_SEED`); printed with every result.
    pub seed: u64,
    /// How roles and locations are permuted (`LITMUS_PERM`); by default
    /// [`Perm::Auto`], which a run resolves for its test
    /// ([`Perm::resolve`]) and its record names.
    pub perm: Perm,
    /// Which lane plays each role of an instance (`LITMUS_LANES`): the
    /// permutation's, or the published harnesses' same lane in
    /// neighbouring CTAs.
    pub lanes: Lanes,
    /// How far apart an instance's CTAs lie (`LITMUS_CTA_SPREAD`):
    /// neighbouring, or a distance that depends on the lane.
    pub cta_spread: CtaSpread,
    /// How the slots of the test's locations lie (`LITMUS_LOC_LAYOUT`):
    /// a region each, or alternating as in the published harnesses. Tests
    /// with host threads or host memory keep them apart: the host threads
    /// work out addresses of their own.
    pub loc_layout: LocLayout,
    /// The `.target` the test's module is compiled for
    /// (`LITMUS_PTX_TARGET`): the device's own, or a fixed one such as
    /// the `sm_80` the published harness builds for.
    pub ptx_target: PtxTarget,
    /// The ptxas that compiles the module for the device
    /// (`LITMUS_TOOLCHAIN`: an installed release's name such as
    /// `ptxas-12.4.131`, or a path; `LITMUS_PTXAS`: a path), which then
    /// loads as a cubin; `None`: the driver's JIT (`LITMUS_TOOLCHAIN=jit`). A newer ptxas runs PTX the driver's JIT cannot read (CUDA's
    /// minor-version compatibility), and the toolchain becomes a knob.
    pub ptxas: Option<String>,
    /// How the roles' accesses address global memory
    /// (`LITMUS_ADDRESSING`): through `.global`, or through generic
    /// addresses as the published harness's `cuda::atomic` does.
    pub addressing: Addressing,
    /// Words between two slots of a location (`LITMUS_STRIDE`).
    pub stride: u32,
    /// Polls of the bounded spin barrier before each role; 0 turns it off
    /// (`LITMUS_SPIN`).
    pub spin: u32,
    /// Extra CTAs that stress memory while the test runs, and the
    /// load-store rounds each of their threads makes (`LITMUS_STRESS`,
    /// `CTAS:ROUNDS`; `0` turns it off).
    pub stress_ctas: u32,
    /// See `stress_ctas`.
    pub stress_rounds: u32,
    /// At most this many CTAs resident on one SM (`LITMUS_CTAS_PER_SM`;
    /// 0: as many as fit): the harness pads each CTA's shared memory so
    /// that no more fit, which spreads a launch over more SMs and changes
    /// which CTAs meet on one.
    pub ctas_per_sm: u32,
    /// Backward branches a role may take before it gives up and its
    /// instance is counted as unfinished (`LITMUS_LOOP_BOUND`).
    pub loop_bound: u32,
    /// Entries of the on-GPU histogram (a power of two).
    pub table: u32,
    /// The environment around the roles: stress patterns, pre-stress,
    /// shares of launches with the spin barrier or the CTA shuffle.
    pub env: Environment,
    /// Instances per launch of a test with host threads
    /// (`LITMUS_HOST_INSTANCES`, a power of two): the CPU plays an instance
    /// far slower than the GPU, so these tests run fewer per launch than
    /// `ctas × threads` (the smaller of the two). The default is the
    /// GPU–host probe's (`shared/reference/probe/sys_probe.cu`), which saw
    /// MP's weak outcome between an H100 and the host at it.
    pub host_instances: u32,
    /// CPU threads that share out the instances of each host role
    /// (`LITMUS_HOST_THREADS`): CPU thread `t` of every host role plays the
    /// same `t`-th share, in the same order, so the host roles of an
    /// instance run at about the same time.
    pub host_threads: u32,
    /// The tuning file whose entry set these knobs, if one did (named in
    /// the line that reproduces a run).
    pub tuning: Option<String>,
    /// Which physical device plays each logical GPU of a test on several
    /// GPUs (`LITMUS_GPU_MAP`, e.g. `0,0`): logical GPU `k` runs on device
    /// `map[k]`. `None`: the identity (logical GPU `k` on device `k`).
    pub gpu_map: Option<Vec<u32>>,
    /// How an instance's CTAs line up across GPUs (`LITMUS_GPU_PARTNERS`),
    /// in a test on several GPUs.
    pub gpu_partners: GpuPartners,
    /// In a test on several GPUs, nanoseconds between the GPUs' starts
    /// (`LITMUS_GPU_STAGGER`): positive, logical GPU `g` waits `g·ns`;
    /// negative, the last GPU is first and each one before it waits
    /// `|ns|` more.
    pub gpu_stagger: i32,
    /// In a test on several GPUs, each GPU thread waits a further random
    /// `0..ns` nanoseconds, drawn per warp and launch
    /// (`LITMUS_GPU_JITTER`).
    pub gpu_jitter: u32,
    /// In a test on several GPUs, how the roles leave the start
    /// (`LITMUS_GPU_START`).
    pub gpu_start: GpuStart,
    /// Under the paced start ([`GpuStart::Paced`]), nanoseconds between
    /// one CTA's departure and the next's on each GPU
    /// (`LITMUS_GPU_PACE`).
    pub gpu_pace: u32,
    /// Under the CTA start ([`GpuStart::Cta`]), how many copies of the
    /// host's start flag the CTAs read, CTA `c` copy `c mod copies`
    /// (`LITMUS_GPU_FLAGS`, 1 to 32).
    pub gpu_flags: u32,
    /// Whether a test on one GPU without host threads launches each
    /// kernel as a programmatic dependent of the one before it, where the
    /// device is `sm_90` or later (`LITMUS_DEPENDENT_LAUNCH`, `auto` or
    /// `off`; see `codegen::on_device`).
    pub dependent_launch: bool,
}

/// The start jitter of a test on several GPUs unless `LITMUS_GPU_JITTER`
/// says otherwise: none. The knobs that only such tests read,
/// [`Perm::Auto`]'s identity slots and [`GpuStart::Auto`]'s start and
/// launch shape are the multi-GPU profile of the defaults
/// ([`Knobs::resolve_for_gpus`]). Where one instance's roles on two GPUs
/// meet in time decides
/// what each sees of the other's accesses in flight, and a random wait a
/// warp spreads the meeting point. None did better (two H200s, same
/// call: locations in the reader's memory 8.5e-3 against 8.3e-3 at 10 µs,
/// data in the writer's memory 1.7e-6 against 4.7e-8, drawn per thread;
/// drawn per warp, so that warps really leave apart, 20 µs to 1 ms took
/// the data in the writer's memory from 7e-7 to 2e-8 and 0), and the
/// launches run faster without. `tune` draws it.
pub const DEFAULT_GPU_JITTER_NS: u32 = 0;

/// The most nanoseconds `LITMUS_GPU_STAGGER` and `LITMUS_GPU_JITTER`
/// take: a millisecond is ten launches at the defaults.
pub const MAX_GPU_WAIT_NS: u32 = 1_000_000;

/// The paced start's nanoseconds between two CTAs' departures unless
/// `LITMUS_GPU_PACE` says otherwise.
pub const DEFAULT_GPU_PACE_NS: u32 = 500;

/// The CTA start's copies of the start flag unless `LITMUS_GPU_FLAGS` says
/// otherwise, or the multi-GPU profile ([`PROFILE_GPU_FLAGS`]): one, as
/// `sys_probe.cu` polls its flag.
pub const DEFAULT_GPU_FLAGS: u32 = 1;

/// The most copies of the start flag `LITMUS_GPU_FLAGS` takes.
pub const MAX_GPU_FLAGS: u32 = litmus_ptx::layout::START_FLAG_COPIES as u32;

/// The most nanoseconds `LITMUS_GPU_PACE` takes: at 10 µs a CTA, the
/// profile's 2,048 CTAs take 20 ms to leave.
pub const MAX_GPU_PACE_NS: u32 = 10_000;

impl Knobs {
    /// What logical GPU `g` of `gpus` waits after the start
    /// ([`Knobs::gpu_stagger`]), in nanoseconds.
    pub fn gpu_delay(&self, g: u32, gpus: u32) -> u32 {
        let step = self.gpu_stagger.unsigned_abs();
        match self.gpu_stagger >= 0 {
            true => g * step,
            false => gpus.saturating_sub(1 + g) * step,
        }
    }
}

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs {
            ctas: 2048,
            threads: 64,
            launches: None,
            budget_ms: 1000,
            seed: 0,
            perm: Perm::Auto,
            lanes: Lanes::Auto,
            cta_spread: CtaSpread::Neighbours,
            loc_layout: LocLayout::Apart,
            ptx_target: PtxTarget::Native,
            ptxas: None,
            addressing: Addressing::Global,
            stride: 4,
            spin: 0,
            stress_ctas: 0,
            stress_rounds: 0,
            ctas_per_sm: 0,
            loop_bound: 1000,
            table: 4096,
            env: Environment::default(),
            host_instances: 1 << 16,
            host_threads: 4,
            tuning: None,
            gpu_map: None,
            gpu_partners: GpuPartners::Aligned,
            gpu_stagger: 0,
            gpu_jitter: DEFAULT_GPU_JITTER_NS,
            gpu_start: GpuStart::default(),
            gpu_pace: DEFAULT_GPU_PACE_NS,
            gpu_flags: DEFAULT_GPU_FLAGS,
            dependent_launch: true,
        }
    }
}

impl Knobs {
    /// The knobs a test whose kernel `gpus` logical GPUs launch runs with:
    /// the multi-GPU profile wherever the knobs leave it to `auto`
    /// ([`Perm::resolve`], [`Lanes::resolve`], [`GpuStart::resolve`]: the
    /// start depends on how many GPUs launch), and under
    /// [`GpuStart::Auto`] the profile's launch shape where the shape is
    /// the defaults' 2,048 CTAs of 64 (set or not: the knobs do not tell),
    /// and where `auto` comes to the CTA start with one copy of the start
    /// flag, the profile's [`PROFILE_GPU_FLAGS`]. Any other shape or count
    /// of copies stays, and with `LITMUS_GPU_START=cta` or `relay` every
    /// shape and count stays.
    ///
    /// ```
    /// use litmus_hw::{GpuStart, Knobs, Perm, PROFILE_CTAS, PROFILE_GPU_FLAGS};
    /// let k = Knobs::default().resolve_for_gpus(2);
    /// assert_eq!((k.ctas, k.gpu_start, k.perm), (PROFILE_CTAS, GpuStart::Cta, Perm::Identity));
    /// assert_eq!(k.lanes, litmus_hw::Lanes::Permuted);
    /// assert_eq!(k.gpu_flags, PROFILE_GPU_FLAGS);
    /// let cta = Knobs { gpu_start: GpuStart::Cta, ..Knobs::default() };
    /// assert_eq!(cta.resolve_for_gpus(2).gpu_flags, 1);
    /// assert_eq!(Knobs::default().resolve_for_gpus(4).gpu_start, GpuStart::Relay);
    /// let own = Knobs { ctas: 64, ..Knobs::default() }.resolve_for_gpus(2);
    /// assert_eq!(own.ctas, 64);
    /// ```
    pub fn resolve_for_gpus(&self, gpus: u32) -> Knobs {
        let d = Knobs::default();
        let default_shape = (self.ctas, self.threads) == (d.ctas, d.threads);
        let (ctas, threads) = match (self.gpu_start, default_shape) {
            (GpuStart::Auto, true) => (PROFILE_CTAS, PROFILE_THREADS),
            _ => (self.ctas, self.threads),
        };
        let gpu_start = self.gpu_start.resolve(gpus);
        let gpu_flags = match (self.gpu_start, gpu_start, self.gpu_flags) {
            (GpuStart::Auto, GpuStart::Cta, DEFAULT_GPU_FLAGS) => PROFILE_GPU_FLAGS,
            _ => self.gpu_flags,
        };
        Knobs {
            perm: self.perm.resolve(true),
            lanes: self.lanes.resolve_where(false),
            gpu_start,
            gpu_flags,
            ctas,
            threads,
            ..self.clone()
        }
    }
}

/// The older variable of [`Knobs::ptxas`]: a ptxas's path.
pub const PTXAS_ENV: &str = "LITMUS_PTXAS";

/// The variable of [`Knobs::ptxas`]: `jit`, an installed release
/// (`ptxas-12.4.131`, `ptxas-12.4`) or a ptxas's path.
pub const TOOLCHAIN_ENV: &str = litmus_toolchain::installed::TOOLCHAIN_ENV;

/// The variable of the device map ([`Knobs::gpu_map`]).
pub const GPU_MAP_ENV: &str = "LITMUS_GPU_MAP";

/// The fewest threads per CTA.
pub const MIN_THREADS: u32 = 2;

/// The most CTAs an SM holds (32 on sm_90): a cap above it caps nothing.
pub const MAX_CTAS_PER_SM: u32 = 32;

/// The most CPU threads per host role.
pub const MAX_HOST_THREADS: u32 = 64;

/// The widest `LITMUS_STRIDE`, in words: a location takes stride × instances
/// words, and the tuning space goes to 16.
pub const MAX_STRIDE: u32 = 1024;

/// The most spin polls, stressing CTAs' rounds and pre-stress iterations a
/// knob may ask for (`LITMUS_SPIN`, `LITMUS_STRESS`, `LITMUS_PRE_STRESS`):
/// a thousand times what the tuning space tries, so that a value near
/// 2^32 from a careless or hostile file is refused rather than run for
/// hours.
pub const MAX_ROUNDS: u32 = 1_000_000;

/// The most stressing CTAs (`LITMUS_STRESS`).
pub const MAX_STRESS_CTAS: u32 = 1 << 16;

impl Knobs {
    /// The physical device that plays logical GPU `g`: the map's entry, or
    /// `g` itself without a map; `None` past a map's end.
    pub fn device_of(&self, g: u32) -> Option<u32> {
        match &self.gpu_map {
            None => Some(g),
            Some(map) => map.get(g as usize).copied(),
        }
    }

    /// Test instances per launch.
    pub fn instances(&self) -> u64 {
        u64::from(self.ctas) * u64::from(self.threads)
    }

    /// Test instances per launch of a test with host threads: the smaller
    /// of [`Knobs::instances`] and [`Knobs::host_instances`], but at least
    /// one CTA's worth ([`Knobs::threads`]), the fewest a launch holds.
    pub fn instances_with_host(&self) -> u64 {
        self.instances()
            .min(u64::from(self.host_instances))
            .max(u64::from(self.threads))
    }
}

impl fmt::Display for Knobs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seed={} perm={} ctas={} threads={}",
            self.seed,
            self.perm.as_str(),
            self.ctas,
            self.threads
        )?;
        match self.launches {
            Some(n) => write!(f, " launches={n}")?,
            None => write!(f, " budget_ms={}", self.budget_ms)?,
        }
        write!(
            f,
            " stride={} spin={} loop_bound={}",
            self.stride, self.spin, self.loop_bound
        )?;
        if self.stress_ctas > 0 {
            write!(f, " stress={}:{}", self.stress_ctas, self.stress_rounds)?;
        }
        if self.ctas_per_sm > 0 {
            write!(f, " ctas_per_sm={}", self.ctas_per_sm)?;
        }
        // Not against the default: a record that names no lanes ran the
        // permuted ones, the default before `auto` ([`Lanes::resolve`]).
        if self.lanes != Lanes::Permuted {
            write!(f, " lanes={}", self.lanes.as_str())?;
        }
        if self.cta_spread != CtaSpread::default() {
            write!(f, " cta_spread={}", self.cta_spread.as_str())?;
        }
        if self.loc_layout != LocLayout::default() {
            write!(f, " loc_layout={}", self.loc_layout.as_str())?;
        }
        if self.gpu_partners != GpuPartners::default() {
            write!(f, " gpu_partners={}", self.gpu_partners.as_str())?;
        }
        if self.gpu_stagger != 0 {
            write!(f, " gpu_stagger={}", self.gpu_stagger)?;
        }
        if self.gpu_jitter != DEFAULT_GPU_JITTER_NS {
            write!(f, " gpu_jitter={}", self.gpu_jitter)?;
        }
        if self.gpu_start != GpuStart::default() {
            write!(f, " gpu_start={}", self.gpu_start.as_str())?;
        }
        if self.gpu_start == GpuStart::Paced || self.gpu_pace != DEFAULT_GPU_PACE_NS {
            write!(f, " gpu_pace={}", self.gpu_pace)?;
        }
        if self.gpu_flags != DEFAULT_GPU_FLAGS {
            write!(f, " gpu_flags={}", self.gpu_flags)?;
        }
        if !self.dependent_launch {
            write!(f, " dependent_launch=off")?;
        }
        if self.ptx_target != PtxTarget::default() {
            write!(f, " ptx_target={}", self.ptx_target.as_str())?;
        }
        if let Some(path) = &self.ptxas {
            write!(f, " ptxas={path}")?;
        }
        if self.addressing != Addressing::default() {
            write!(f, " addressing={}", addressing_name(self.addressing))?;
        }
        // The host knobs only where they differ: the hardware line of a
        // test with host threads says what they came to.
        let d = Knobs::default();
        if (self.host_instances, self.host_threads) != (d.host_instances, d.host_threads) {
            write!(
                f,
                " host_instances={} host_threads={}",
                self.host_instances, self.host_threads
            )?;
        }
        if let Some(map) = &self.gpu_map {
            write!(f, " gpu_map={}", format_gpu_map(map))?;
        }
        if self.env != Environment::default() {
            write!(f, " {}", self.env)?;
        }
        Ok(())
    }
}

/// The most instances one launch may hold: indices stay well inside 32
/// bits, and buffers inside any GPU's memory.
pub const MAX_INSTANCES: u64 = 1 << 24;

/// How the harness spreads roles over lanes and locations over memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Perm {
    /// The hand-tuned reference harness's constants: role `k`'s lane is
    /// `lane·(2k+1)·37 + 11k`, the first location's slot is the instance
    /// itself, location `j`'s `instance·2654435761 + (seed ^ j·0x9e3779b9)`.
    Fixed,
    /// Every multiplier and addend drawn from the seed.
    Random,
    /// The roles' lanes as [`Perm::Fixed`]; every location's slot the
    /// instance itself, so that a warp's accesses to any location fall in
    /// a few lines, as `cross_gpu_race.cu` and `sys_probe.cu` lay them out
    /// (a warp's stores to another GPU's memory then cross the link in a
    /// few packets, not 32).
    Identity,
    /// The default: [`Perm::Fixed`] for a test on one GPU,
    /// [`Perm::Identity`] for a test on several (the multi-GPU profile,
    /// see [`Perm::resolve`]).
    Auto,
}

impl Perm {
    /// `fixed`, `random`, `identity` or `auto`.
    pub fn as_str(self) -> &'static str {
        match self {
            Perm::Fixed => "fixed",
            Perm::Random => "random",
            Perm::Identity => "identity",
            Perm::Auto => "auto",
        }
    }

    /// Reads `LITMUS_PERM`'s value.
    pub fn parse(text: &str) -> Result<Perm, GpuError> {
        match text.trim() {
            "fixed" => Ok(Perm::Fixed),
            "random" => Ok(Perm::Random),
            "identity" => Ok(Perm::Identity),
            "auto" => Ok(Perm::Auto),
            _ => Err(GpuError::knob(
                "LITMUS_PERM",
                text,
                "`auto`, `fixed`, `random` or `identity`",
            )),
        }
    }

    /// The permutation a test runs with: [`Perm::Auto`] becomes
    /// [`Perm::Identity`] for a test on several GPUs and [`Perm::Fixed`]
    /// otherwise; the others stay.
    ///
    /// Across GPUs the identity's slots raised every weak rate on two
    /// H200s (NVLink, `LITMUS_GPU_JITTER=0`, same call as `sys_probe.cu`):
    /// message passing with its locations in the reader's memory 8.5e-3
    /// against the fixed slots' 4.2e-3 (the probe 3.6e-3), in the writer's
    /// 6.5e-3 against 2.9e-3, SB 3.2e-3 against 2.2e-3, IRIW 8.1e-5
    /// against 2.8e-6. On one GPU the fixed slots beat the reference
    /// harness on every weak rate, so they stay there.
    ///
    /// ```
    /// use litmus_hw::Perm;
    /// assert_eq!(Perm::Auto.resolve(true), Perm::Identity);
    /// assert_eq!(Perm::Auto.resolve(false), Perm::Fixed);
    /// assert_eq!(Perm::Random.resolve(true), Perm::Random);
    /// ```
    pub fn resolve(self, multi_gpu: bool) -> Perm {
        match (self, multi_gpu) {
            (Perm::Auto, true) => Perm::Identity,
            (Perm::Auto, false) => Perm::Fixed,
            (p, _) => p,
        }
    }
}

/// Reads a device map: device ordinals separated by commas, one per
/// logical GPU (`0,1`, `0,0`), at most [`MAX_GPUS`]; anything else is an
/// error naming the variable.
pub(crate) fn parse_gpu_map(text: &str) -> Result<Vec<u32>, GpuError> {
    let bad = || {
        GpuError::knob(
            GPU_MAP_ENV,
            text,
            &format!("device ordinals separated by commas, one per logical GPU, at most {MAX_GPUS} (e.g. `0,1`, or `0,0` for two logical GPUs on device 0)"),
        )
    };
    let map = text
        .split(',')
        .map(|d| d.trim().parse::<u32>().map_err(|_| bad()))
        .collect::<Result<Vec<u32>, _>>()?;
    if map.is_empty() || map.len() > MAX_GPUS as usize {
        return Err(bad());
    }
    Ok(map)
}

/// Writes a device map as [`parse_gpu_map`] reads it.
pub(crate) fn format_gpu_map(map: &[u32]) -> String {
    map.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_map_is_device_ordinals_separated_by_commas() {
        assert_eq!(parse_gpu_map("0,1").unwrap(), vec![0, 1]);
        assert_eq!(parse_gpu_map(" 0 , 0 ").unwrap(), vec![0, 0]);
        assert_eq!(parse_gpu_map("3").unwrap(), vec![3]);
        assert_eq!(format_gpu_map(&[1, 0, 1]), "1,0,1");
        for bad in ["", "0,", "a,b", "-1", "0;1", "0,1,2,3,4,5,6,7,8"] {
            let e = parse_gpu_map(bad).unwrap_err().to_string();
            assert!(
                e.contains("LITMUS_GPU_MAP") && e.contains("device ordinals separated by commas"),
                "{bad:?}: {e}"
            );
        }
    }

    fn knobs(vars: &[(&str, &str)]) -> Result<Knobs, GpuError> {
        let map: std::collections::HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Knobs::from_vars(|name| map.get(name).cloned())
    }

    #[test]
    fn every_variable_overrides_its_knob() {
        let k = knobs(&[
            ("LITMUS_CTAS", "512"),
            ("LITMUS_THREADS", "128"),
            ("LITMUS_LAUNCHES", "9"),
            ("LITMUS_BUDGET_MS", "250"),
            ("LITMUS_SEED", "77"),
            ("LITMUS_PERM", "random"),
            ("LITMUS_STRIDE", "8"),
            ("LITMUS_SPIN", "100"),
            ("LITMUS_STRESS", "16:32"),
            ("LITMUS_LOOP_BOUND", "5"),
            ("LITMUS_LANES", "aligned"),
            ("LITMUS_LOC_LAYOUT", "interleaved"),
            ("LITMUS_PTX_TARGET", "sm_80"),
            ("LITMUS_ADDRESSING", "generic"),
            ("LITMUS_CTA_SPREAD", "by-lane"),
            ("LITMUS_PTXAS", "/opt/cuda-12.4/bin/ptxas"),
            ("LITMUS_GPU_PARTNERS", "permuted"),
            ("LITMUS_GPU_STAGGER", "-2000"),
            ("LITMUS_GPU_JITTER", "5000"),
            ("LITMUS_GPU_START", "relay"),
            ("LITMUS_GPU_PACE", "250"),
            ("LITMUS_GPU_FLAGS", "4"),
            ("LITMUS_DEPENDENT_LAUNCH", "off"),
        ])
        .unwrap();
        assert_eq!(
            (k.ptx_target, k.addressing, k.cta_spread),
            (
                PtxTarget::Arch(litmus_ptx::isa::SmArch::new(80)),
                Addressing::Generic,
                CtaSpread::ByLane
            )
        );
        assert_eq!(k.ptxas.as_deref(), Some("/opt/cuda-12.4/bin/ptxas"));
        assert_eq!(
            (k.ctas, k.threads, k.launches, k.budget_ms, k.seed),
            (512, 128, Some(9), 250, 77)
        );
        assert_eq!(
            (k.perm, k.stride, k.spin, k.loop_bound),
            (Perm::Random, 8, 100, 5)
        );
        assert_eq!((k.stress_ctas, k.stress_rounds), (16, 32));
        assert_eq!(
            (k.lanes, k.loc_layout),
            (Lanes::Aligned, LocLayout::Interleaved)
        );
        assert_eq!(k.gpu_partners, GpuPartners::Permuted);
        assert_eq!((k.gpu_stagger, k.gpu_jitter), (-2000, 5000));
        assert_eq!(k.gpu_start, GpuStart::Relay);
        assert_eq!(
            (k.gpu_pace, k.dependent_launch, k.gpu_flags),
            (250, false, 4)
        );
        // Negative: the last GPU first, each before it 2 µs later.
        assert_eq!(
            (k.gpu_delay(0, 3), k.gpu_delay(1, 3), k.gpu_delay(2, 3)),
            (4000, 2000, 0)
        );
        assert_eq!(k.to_string(), "seed=77 perm=random ctas=512 threads=128 launches=9 stride=8 spin=100 loop_bound=5 stress=16:32 lanes=aligned cta_spread=by-lane loc_layout=interleaved gpu_partners=permuted gpu_stagger=-2000 gpu_jitter=5000 gpu_start=relay gpu_pace=250 gpu_flags=4 dependent_launch=off ptx_target=sm_80 ptxas=/opt/cuda-12.4/bin/ptxas addressing=generic");
    }

    /// The multi-GPU profile: the CTA start and its shape where the knobs
    /// leave both to the defaults; a shape or a start the user set stays.
    #[test]
    fn the_multi_gpu_profile_keeps_what_the_user_set() {
        let auto = knobs(&[]).unwrap().resolve_for_gpus(2);
        assert_eq!(
            (auto.ctas, auto.threads, auto.gpu_start, auto.perm),
            (PROFILE_CTAS, PROFILE_THREADS, GpuStart::Cta, Perm::Identity)
        );
        // Three GPUs and more: the relay start at the profile's shape.
        let wide = knobs(&[]).unwrap().resolve_for_gpus(3);
        assert_eq!(
            (wide.ctas, wide.threads, wide.gpu_start),
            (PROFILE_CTAS, PROFILE_THREADS, GpuStart::Relay)
        );
        assert!(wide.to_string().contains("gpu_start=relay"), "{wide}");
        assert!(auto.to_string().contains("gpu_start=cta"), "{auto}");
        let shaped = knobs(&[("LITMUS_THREADS", "256")])
            .unwrap()
            .resolve_for_gpus(2);
        assert_eq!(
            (shaped.ctas, shaped.threads, shaped.gpu_start),
            (2048, 256, GpuStart::Cta)
        );
        let relay = knobs(&[("LITMUS_GPU_START", "relay")])
            .unwrap()
            .resolve_for_gpus(2);
        assert_eq!(
            (relay.ctas, relay.threads, relay.gpu_start),
            (2048, 64, GpuStart::Relay)
        );
        // What ran reads back from its record's variables.
        let vars = auto.env_assignments();
        let back = Knobs::from_vars(|n| vars.iter().find(|(v, _)| *v == n).map(|(_, x)| x.clone()))
            .unwrap();
        assert_eq!(
            (back.ctas, back.threads, back.gpu_start),
            (PROFILE_CTAS, PROFILE_THREADS, GpuStart::Cta)
        );
    }

    /// `LITMUS_PERM=identity` reads, prints and reproduces.
    #[test]
    fn identity_slots_read_print_and_reproduce() {
        let k = knobs(&[("LITMUS_PERM", "identity")]).unwrap();
        assert_eq!(k.perm, Perm::Identity);
        assert!(k.to_string().contains("perm=identity"), "{k}");
        assert!(k
            .env_assignments()
            .contains(&("LITMUS_PERM", "identity".to_string())));
    }

    /// The default permutation is `auto`, the multi-GPU profile's: fixed
    /// slots on one GPU, the identity on several. It reads back from
    /// `LITMUS_PERM=auto`, and only an explicit choice (`fixed` too, which
    /// differs from `auto` across GPUs) goes into the reproducing line.
    #[test]
    fn the_default_permutation_is_the_profile_and_resolves_per_test() {
        let k = knobs(&[("LITMUS_SEED", "3")]).unwrap();
        assert_eq!(k.perm, Perm::Auto);
        let auto = knobs(&[("LITMUS_SEED", "3"), ("LITMUS_PERM", "auto")]).unwrap();
        assert_eq!(auto, k);
        assert!(k.to_string().contains("perm=auto"), "{k}");
        assert!(!k.env_assignments().iter().any(|(v, _)| *v == "LITMUS_PERM"));
        assert_eq!(k.perm.resolve(false), Perm::Fixed);
        assert_eq!(k.perm.resolve(true), Perm::Identity);
        let fixed = knobs(&[("LITMUS_PERM", "fixed")]).unwrap();
        assert_eq!(fixed.perm.resolve(true), Perm::Fixed);
        assert!(fixed
            .env_assignments()
            .contains(&("LITMUS_PERM", "fixed".to_string())));
        assert_eq!(k.gpu_jitter, 0);
    }

    /// The arrangement knobs print only where they differ (the lanes
    /// wherever they are not the permuted ones, which a line that names
    /// none ran before `auto`), and what the knobs line reproduces with
    /// reads back to the same knobs.
    #[test]
    fn the_arrangement_and_the_ptx_target_reproduce() {
        let k = knobs(&[("LITMUS_SEED", "5")]).unwrap();
        assert_eq!((k.lanes, k.loc_layout), (Lanes::Auto, LocLayout::Apart));
        assert!(k.to_string().contains(" lanes=auto") && !k.to_string().contains("loc_layout"));
        assert!(!k.to_string().contains("ptx_target") && !k.to_string().contains("addressing"));
        let permuted = knobs(&[("LITMUS_LANES", "permuted")]).unwrap();
        assert!(!permuted.to_string().contains("lanes"));
        for (lanes, layout, target, addressing, spread) in [
            ("aligned", "apart", "sm_80", "generic", "by-lane"),
            ("permuted", "interleaved", "sm_70", "global", "neighbours"),
            ("permuted", "apart", "native", "global", "neighbours"),
            ("auto", "apart", "native", "global", "neighbours"),
        ] {
            let k = knobs(&[
                ("LITMUS_SEED", "5"),
                ("LITMUS_LANES", lanes),
                ("LITMUS_LOC_LAYOUT", layout),
                ("LITMUS_PTX_TARGET", target),
                ("LITMUS_ADDRESSING", addressing),
                ("LITMUS_CTA_SPREAD", spread),
            ])
            .unwrap();
            let vars = k.env_assignments();
            let back = Knobs::from_vars(|name| {
                vars.iter()
                    .find(|(v, _)| *v == name)
                    .map(|(_, x)| x.clone())
            })
            .unwrap();
            assert_eq!(back, k, "{lanes} {layout}");
        }
    }

    #[test]
    fn host_knobs_cap_the_instances_and_show_where_they_differ() {
        let k = knobs(&[("LITMUS_SEED", "1")]).unwrap();
        assert_eq!(k.instances_with_host(), 1 << 16);
        assert!(!k.to_string().contains("host"));
        let k = knobs(&[
            ("LITMUS_SEED", "1"),
            ("LITMUS_HOST_INSTANCES", "256"),
            ("LITMUS_HOST_THREADS", "2"),
        ])
        .unwrap();
        assert_eq!((k.instances(), k.instances_with_host()), (1 << 17, 256));
        assert!(k
            .to_string()
            .ends_with(" host_instances=256 host_threads=2"));
        let env = k.env_assignments();
        assert!(env.contains(&("LITMUS_HOST_INSTANCES", "256".into())));
        assert!(env.contains(&("LITMUS_HOST_THREADS", "2".into())));
        // More host instances than the GPU's: the GPU's count.
        let k = knobs(&[("LITMUS_CTAS", "4"), ("LITMUS_SEED", "1")]).unwrap();
        assert_eq!(k.instances_with_host(), 4 * 64);
        // Fewer than a CTA holds: one CTA.
        let k = knobs(&[("LITMUS_HOST_INSTANCES", "32"), ("LITMUS_SEED", "1")]).unwrap();
        assert_eq!(k.instances_with_host(), 64);
    }

    #[test]
    fn the_device_map_reads_shows_and_reproduces() {
        let k = knobs(&[("LITMUS_SEED", "1")]).unwrap();
        assert_eq!(k.gpu_map, None);
        assert_eq!((k.device_of(0), k.device_of(3)), (Some(0), Some(3)));
        assert!(!k.to_string().contains("gpu_map"));
        let k = knobs(&[("LITMUS_SEED", "1"), ("LITMUS_GPU_MAP", "0,0")]).unwrap();
        assert_eq!(k.gpu_map, Some(vec![0, 0]));
        assert_eq!((k.device_of(1), k.device_of(2)), (Some(0), None));
        assert!(k.to_string().ends_with(" gpu_map=0,0"), "{k}");
        assert!(k
            .env_assignments()
            .contains(&("LITMUS_GPU_MAP", "0,0".into())));
    }

    #[test]
    fn empty_variables_keep_the_defaults() {
        let k = knobs(&[("LITMUS_CTAS", " "), ("LITMUS_SEED", "3")]).unwrap();
        assert_eq!(k.ctas, Knobs::default().ctas);
    }

    #[test]
    fn bad_values_name_the_variable_and_what_was_expected() {
        for (var, value, expected) in [
            ("LITMUS_CTAS", "300", "a power of two"),
            ("LITMUS_THREADS", "1", "a power of two from 2 to 1024"),
            ("LITMUS_THREADS", "2048", "a power of two from 2 to 1024"),
            ("LITMUS_CTAS_PER_SM", "33", "0 (as many as fit) to 32"),
            ("LITMUS_CTAS_PER_SM", "some", "a non-negative integer"),
            ("LITMUS_CTAS", "abc", "a power of two"),
            ("LITMUS_CTAS", "-4", "a power of two"),
            ("LITMUS_SEED", "foo", "a non-negative integer"),
            ("LITMUS_BUDGET_MS", "-1", "a non-negative integer"),
            ("LITMUS_STRESS", "x:y", "CTAS or CTAS:ROUNDS"),
            ("LITMUS_BUDGET_MS", "soon", "a non-negative integer"),
            ("LITMUS_SEED", "-1", "a non-negative integer"),
            (
                "LITMUS_PERM",
                "shuffle",
                "`auto`, `fixed`, `random` or `identity`",
            ),
            ("LITMUS_LANES", "same", "`auto`, `permuted` or `aligned`"),
            ("LITMUS_LANES", "1", "`auto`, `permuted` or `aligned`"),
            ("LITMUS_LOC_LAYOUT", "mixed", "`apart` or `interleaved`"),
            ("LITMUS_PTX_TARGET", "sm_61", "`native` or one of sm_70, "),
            ("LITMUS_ADDRESSING", "flat", "`global` or `generic`"),
            ("LITMUS_CTA_SPREAD", "far", "`neighbours` or `by-lane`"),
            ("LITMUS_GPU_PARTNERS", "shifted", "`permuted` or `aligned`"),
            (
                "LITMUS_GPU_STAGGER",
                "2000000",
                "nanoseconds from -1000000 to 1000000",
            ),
            (
                "LITMUS_GPU_STAGGER",
                "soon",
                "nanoseconds from -1000000 to 1000000",
            ),
            ("LITMUS_GPU_JITTER", "-5", "nanoseconds from 0 to 1000000"),
            (
                "LITMUS_GPU_START",
                "warp",
                "`auto`, `relay`, `cta` or `paced`",
            ),
            ("LITMUS_GPU_PACE", "10001", "nanoseconds from 0 to 10000"),
            ("LITMUS_GPU_PACE", "-1", "nanoseconds from 0 to 10000"),
            ("LITMUS_DEPENDENT_LAUNCH", "on", "`auto` or `off`"),
            ("LITMUS_GPU_FLAGS", "0", "1 to 32"),
            ("LITMUS_GPU_FLAGS", "33", "1 to 32"),
            ("LITMUS_STRIDE", "0", "1 to 1024"),
            ("LITMUS_STRIDE", "4294967295", "1 to 1024"),
            ("LITMUS_SPIN", "4294967295", "0 to 1000000"),
            ("LITMUS_STRESS", "4:x", "CTAS or CTAS:ROUNDS"),
            ("LITMUS_STRESS", "65537", "at most 65536:1000000"),
            ("LITMUS_STRESS", "16:1000001", "at most 65536:1000000"),
            ("LITMUS_PRE_STRESS", "1000001", "from 0 to 1000000"),
            ("LITMUS_HOST_INSTANCES", "1000", "a power of two from 32"),
            ("LITMUS_HOST_THREADS", "0", "1 to 64"),
            ("LITMUS_HOST_THREADS", "65", "1 to 64"),
            ("LITMUS_LAUNCHES", "0", "at least 1"),
            ("LITMUS_CTAS", "67108864", "at most 2^24 instances"),
            (
                "LITMUS_GPU_MAP",
                "0,x",
                "device ordinals separated by commas",
            ),
            (
                "LITMUS_GPU_MAP",
                "0,,1",
                "device ordinals separated by commas",
            ),
        ] {
            let e = knobs(&[(var, value)]).unwrap_err().to_string();
            assert!(
                e.contains(var) && e.contains(value) && e.contains(expected),
                "{var}={value}: {e}"
            );
        }
    }
}
