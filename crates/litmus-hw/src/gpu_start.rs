//! How the roles of a test on several GPUs leave the start
//! (`LITMUS_GPU_START`). The kernel's side is `wait_for_host` in
//! `litmus-ptx`'s `start.rs`.

use litmus_ptx::layout::start_mode;

use super::GpuError;

/// How a launch of a test on several GPUs starts, once the host raises the
/// start flag in page-locked memory.
///
/// ```
/// use litmus_hw::GpuStart;
/// assert_eq!(GpuStart::parse("cta").unwrap(), GpuStart::Cta);
/// assert_eq!(GpuStart::Auto.resolve(2), GpuStart::Cta);
/// assert_eq!(GpuStart::Auto.resolve(4), GpuStart::Relay);
/// // On one GPU only host threads wait on the flag; a start the user set stays.
/// assert_eq!(GpuStart::Auto.resolve(1), GpuStart::Relay);
/// assert_eq!(GpuStart::Cta.resolve(4), GpuStart::Cta);
/// assert!(GpuStart::parse("warp").is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GpuStart {
    /// The multi-GPU profile's: [`GpuStart::Cta`] where two GPUs launch
    /// the test, [`GpuStart::Relay`] where three or more do
    /// ([`GpuStart::resolve`]); and where the launch shape is the
    /// defaults' (2,048 CTAs of 64 threads) the profile's shape instead,
    /// [`PROFILE_CTAS`] CTAs of [`PROFILE_THREADS`]
    /// (`Knobs::resolve_for_gpus`).
    #[default]
    Auto,
    /// One thread a launch polls the flag and relays the start to a word in
    /// every GPU's memory, which one lane a warp polls: every warp of every
    /// GPU leaves within microseconds, and a launch of 131,072 instances
    /// takes tens of microseconds.
    Relay,
    /// One thread a CTA polls the flag, and its CTA waits for it at a
    /// barrier, as `sys_probe.cu`'s threads poll it. Reads of one word of
    /// host memory queue at the bus, so each GPU's CTAs leave one after
    /// another, about a microsecond apart; with `LITMUS_GPU_FLAGS=N` CTA
    /// `c` reads copy `c mod N` of the flag, and they leave `N` times as
    /// fast ([`PROFILE_GPU_FLAGS`]). On two H200s that start alone
    /// took MP with the data in the writer's memory and the flag in the
    /// reader's from 4e-7 to 2e-2 in `scripts/probes/split_start.cu`.
    Cta,
    /// The relay's one poll of the flag a launch, then a timetable: CTA
    /// `c` of every GPU leaves `c · LITMUS_GPU_PACE` nanoseconds after
    /// its GPU's first CTA saw every launch counted in. Departures come
    /// one after another as the CTA start's do, at a pace the knob sets
    /// instead of the bus's one read of the flag a microsecond.
    Paced,
}

/// The variable of [`GpuStart`].
pub const GPU_START_ENV: &str = "LITMUS_GPU_START";

/// The variable of [`crate::Knobs::gpu_flags`].
pub const GPU_FLAGS_ENV: &str = "LITMUS_GPU_FLAGS";

/// The variable of [`crate::Knobs::gpu_pace`].
pub const GPU_PACE_ENV: &str = "LITMUS_GPU_PACE";

/// CTAs a launch of the multi-GPU profile's shape: with the CTA start each
/// CTA costs the bus's read of its copy of the flag (about a microsecond
/// a copy, [`PROFILE_GPU_FLAGS`]), so its
/// CTAs are as wide as they go, and 2^21 instances a launch. Two H200s of
/// a four-GPU machine, same call as `sys_probe.cu` (3.5e-3 at 4.2e5 weak/s
/// with both locations in the reader's memory, 3.8e-3 at 4.6e5/s with the
/// data in the writer's): MP with the data in the writer's memory 7.2e-3
/// (7.2e6 weak/s), with both in the reader's 6.8e-3 (6.3e6/s), MP, SB and
/// IRIW at 1.03e9 to 1.05e9 instances a second; at 1,024 CTAs 6.5e-3 and
/// 5.1e-3, and MP and IRIW at 9.9e8 and 9.8e8 a second.
pub const PROFILE_CTAS: u32 = 2048;

/// Copies of the start flag the CTA start of the multi-GPU profile reads
/// (`LITMUS_GPU_FLAGS`, CTA `c` the copy `c mod 2`). The bus serves one
/// read of a word of host memory about a microsecond, and the CTA start
/// reads it once a CTA of 1,024 instances, which held two H200s to 1.0e9
/// instances a second at any CTA count. Two copies ran MP, SB and IRIW at
/// 1.6e9 to 1.8e9 and kept every weak fraction at or above one copy's (MP
/// with the data in the writer's memory 7.5e-3 against 7.2e-3, IRIW
/// 6.0e-5 against 1.9e-5); four let MP fall below the reference probe's
/// weak fraction (`docs/host-and-gpus.md`).
pub const PROFILE_GPU_FLAGS: u32 = 2;

/// Threads a CTA of the multi-GPU profile's shape (see [`PROFILE_CTAS`]).
pub const PROFILE_THREADS: u32 = 1024;

impl GpuStart {
    /// `auto`, `relay`, `cta` or `paced`.
    pub fn as_str(self) -> &'static str {
        match self {
            GpuStart::Auto => "auto",
            GpuStart::Relay => "relay",
            GpuStart::Cta => "cta",
            GpuStart::Paced => "paced",
        }
    }

    /// Reads `LITMUS_GPU_START`'s value.
    pub fn parse(text: &str) -> Result<GpuStart, GpuError> {
        match text.trim() {
            "auto" => Ok(GpuStart::Auto),
            "relay" => Ok(GpuStart::Relay),
            "cta" => Ok(GpuStart::Cta),
            "paced" => Ok(GpuStart::Paced),
            _ => Err(GpuError::knob(
                GPU_START_ENV,
                text,
                "`auto`, `relay`, `cta` or `paced`",
            )),
        }
    }

    /// The start a test whose kernel `gpus` logical GPUs launch runs
    /// with: [`GpuStart::Auto`] is the CTA start where two GPUs launch it
    /// and the relay elsewhere (on one GPU only host threads wait on the
    /// flag). Four H200s, same call, 2,048 CTAs of 1,024 at each start:
    /// across two GPUs the CTA start showed IRIW 2.4e-5 against 4.7e-7
    /// and MP with the data in the writer's memory 7.1e-3 against 2.6e-6;
    /// across three and four it lost, WRC with one thread a GPU 7.1e-9
    /// against 9.5e-6 and IRIW 4.4e-9 against 3.2e-7, and ran slower
    /// (1.0e9 instances a second against 1.1e9 to 1.4e9).
    pub fn resolve(self, gpus: u32) -> GpuStart {
        match (self, gpus) {
            (GpuStart::Auto, 2) => GpuStart::Cta,
            (GpuStart::Auto, _) => GpuStart::Relay,
            (s, _) => s,
        }
    }

    /// The knob word the kernel of a test that `gpus` logical GPUs launch
    /// reads (`litmus_ptx::layout::start_mode`).
    pub fn word(self, gpus: u32) -> u32 {
        match self.resolve(gpus) {
            GpuStart::Cta => start_mode::CTA,
            GpuStart::Paced => start_mode::PACED,
            GpuStart::Auto | GpuStart::Relay => start_mode::RELAY,
        }
    }
}
