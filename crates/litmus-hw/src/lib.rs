//! The GPU half: finds a GPU without panicking, runs a test's generated PTX
//! and returns its histogram.
//!
//! Runs are serialised (cargo runs tests on several threads; sharing the
//! GPU would blur the figures), and on Linux each happens in a child
//! process of its own, because a kernel fault poisons CUDA for the whole
//! process that saw it (`isolate`). Elsewhere (no `fork`; and on Linux
//! built with `RUSTFLAGS="--cfg litmus_portable"`) runs happen in this
//! process, and the first fault or hang stops the hardware half for the
//! rest of it, saying why ([`PROCESS_ISOLATION`]).
//!
//! ```no_run
//! use litmus_hw::{self as gpu, Knobs};
//! # let test = litmus_core::ir::Test::new("t");
//! let ptx = litmus_ptx::generate(&test).unwrap();
//! match gpu::run(&test, &ptx, &Knobs::from_env().unwrap()) {
//!     Ok(result) => println!("{} outcomes", result.histogram.len()),
//!     Err(gpu::GpuError::NoDriver | gpu::GpuError::NoDevice) => println!("hardware: skipped"),
//!     Err(e) => panic!("{e}"),
//! }
//! ```

mod aliasing;
mod arrangement;
mod codegen;
mod device_selection;
mod devices;
mod driver;
mod environment;
mod fault;
mod gpu_start;
mod harness;
mod host_threads;
#[cfg(not(all(target_os = "linux", not(litmus_portable))))]
mod in_process;
#[cfg(all(target_os = "linux", not(litmus_portable)))]
mod isolate;
mod kernels;
mod knobs;
mod modules;
mod peer_atomics;
mod process_env;
mod splitmix;
mod toolchain;
// Only a child process's results cross as bytes; the encoding is built
// everywhere so that its tests run on every system CI has.
#[cfg_attr(not(all(target_os = "linux", not(litmus_portable))), allow(dead_code))]
mod wire;
mod worker;

// A run apart from the caller, within a deadline: in a child process where
// there is `fork`, else on a thread of this process.
#[cfg(not(all(target_os = "linux", not(litmus_portable))))]
use in_process::on_thread as apart;
#[cfg(all(target_os = "linux", not(litmus_portable)))]
use isolate::in_child as apart;

/// Whether each GPU run happens in a child process, so that a kernel fault
/// or a hung kernel costs only the test it happened in: on Linux, unless
/// built with `RUSTFLAGS="--cfg litmus_portable"`. Without it (macOS,
/// Windows) runs happen in this process, and the first fault or hang stops
/// every later run of the process with a line that says why.
pub const PROCESS_ISOLATION: bool = cfg!(all(target_os = "linux", not(litmus_portable)));

use std::sync::Mutex;
use std::time::Duration;

use litmus_core::ir::Test;
use litmus_ptx::PtxError;

pub use arrangement::{
    CtaSpread, GpuPartners, Lanes, LocLayout, CTA_SPREAD_ENV, GPU_PARTNERS_ENV, LANES_ENV,
    LOC_LAYOUT_ENV,
};
pub use codegen::{
    addressing_name, parse_addressing, PtxTarget, ADDRESSING_ENV, DEPENDENT_LAUNCH_ENV,
    PTX_TARGET_ENV,
};
pub use device_selection::{devices, devices_var, kind_on, parse_devices, Gpu, DEVICES_ENV};
pub use devices::device_kind;
pub use environment::{Assign, Environment, SpinScope};
pub use fault::INJECT_FAULT_ENV;
pub use gpu_start::{
    GpuStart, GPU_FLAGS_ENV, GPU_PACE_ENV, GPU_START_ENV, PROFILE_CTAS, PROFILE_GPU_FLAGS,
    PROFILE_THREADS,
};
pub use harness::{HwResult, PlacementReport};
pub use knobs::table::{About, Knob, Lookup};
pub use knobs::{
    Knobs, Perm, GPU_MAP_ENV, MAX_HOST_THREADS, MAX_INSTANCES, PTXAS_ENV, TOOLCHAIN_ENV,
};
pub use litmus_ptx::Addressing;
pub use modules::Modules;
pub use splitmix::splitmix;
pub use toolchain::{say_once, Build, ToolchainError};

/// Why a GPU run did not give a histogram.
#[derive(Clone, Debug, thiserror::Error)]
pub enum GpuError {
    /// libcuda could not be loaded: no NVIDIA driver here.
    #[error("no CUDA driver (libcuda could not be loaded)")]
    NoDriver,
    /// The driver loaded but reports no device.
    #[error("no CUDA device (the driver reports none)")]
    NoDevice,
    /// A driver call failed (not a kernel fault).
    #[error("{call} failed: {name}: {text}")]
    Driver {
        /// The driver function called (`cuModuleLoadData`, ...).
        call: String,
        /// The CUDA error's name (`CUDA_ERROR_...`).
        name: String,
        /// The driver's description of it.
        text: String,
    },
    /// A kernel faulted (illegal address, launch timeout, ...); the context
    /// is gone, so the run stops.
    #[error(
        "test `{test}`: the kernel faulted ({call}: {name}: {text}); the CUDA context was reset"
    )]
    Fault {
        /// The test that was running (empty inside the driver layer).
        test: String,
        /// The driver function that reported it.
        call: String,
        /// The CUDA error's name.
        name: String,
        /// The driver's description of it.
        text: String,
    },
    /// The driver's JIT rejected the generated PTX.
    #[error("the driver rejected the PTX for `.target {target}` ({code}); JIT log:\n{log}")]
    Jit {
        /// The driver's error, or why the PTX could not be handed over.
        code: String,
        /// The module's `.target` (`LITMUS_PTX_TARGET` picks it), since
        /// what the JIT accepts depends on it.
        target: String,
        /// The JIT's log (may be empty).
        log: String,
    },
    /// The test has no PTX.
    #[error(transparent)]
    Ptx(PtxError),
    /// A knob's environment variable holds a bad value.
    #[error("bad value `{value}` for {var}: expected {expected}")]
    Knob {
        /// The variable (`LITMUS_STRIDE`, ...).
        var: String,
        /// The value it holds.
        value: String,
        /// What it must hold.
        expected: String,
    },
    /// The histogram does not count every instance exactly once.
    #[error("instances lost or counted twice: ran {expected}, the histogram counts {counted}")]
    Lost {
        /// Instances run.
        expected: u64,
        /// Instances the histogram counts.
        counted: u64,
    },
    /// The on-GPU histogram ran out of entries.
    #[error("more distinct outcomes than the histogram's {entries} entries: {overflow} instances not classified")]
    TableFull {
        /// The histogram's entries ([`Knobs::table`]).
        entries: u32,
        /// Instances whose outcome found no entry.
        overflow: u64,
    },
    /// A role ran in another CTA or warp than the test declares.
    #[error("placement did not hold: {0}")]
    Placement(String),
    /// The worker process that runs the GPU half failed (fork, pipe, a
    /// panic, a deadline).
    #[error("{0}")]
    Worker(String),
    /// A host thread of a test with host roles failed (could not start,
    /// panicked, or found its program inconsistent with the layout).
    #[error("host threads: {0}")]
    Host(String),
    /// This machine cannot run the test's hardware half faithfully (its
    /// GPU lacks what the test's semantics need); the runner reports the
    /// hardware half as not run, with this reason.
    #[error("{0}")]
    Unfaithful(String),
    /// The chosen ptxas (`LITMUS_PTXAS`) is none, failed on the module, or
    /// made a cubin the device refused; the message says which, naming
    /// the ptxas.
    #[error("{0}")]
    Toolchain(String),
    /// A tuning file's entry does not give valid knobs.
    #[error("{0}")]
    Tuning(String),
    /// A texture alias's texture would pass the device's limit on a 1D
    /// linear texture (it spans the location buffer).
    #[error("a texture alias spans the location buffer, {texels} words, past this GPU's limit of {max} texels for a 1D linear texture: run fewer instances (LITMUS_CTAS × LITMUS_THREADS) or a smaller LITMUS_STRIDE")]
    TextureTooLarge {
        /// Words the texture would span.
        texels: u64,
        /// The device's `MAXIMUM_TEXTURE1D_LINEAR_WIDTH`.
        max: u64,
    },
    /// `LITMUS_REQUIRE_GPU=1` asks for a GPU and there is none.
    #[error("required by LITMUS_REQUIRE_GPU=1, but {reason}")]
    Required {
        /// Why there is no GPU.
        reason: String,
    },
}

impl GpuError {
    /// A bad knob value.
    pub fn knob(var: &str, value: impl ToString, expected: &str) -> GpuError {
        GpuError::Knob {
            var: var.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        }
    }

    /// Names the test a fault happened in.
    fn in_test(self, test: &Test) -> GpuError {
        match self {
            GpuError::Fault {
                call, name, text, ..
            } => GpuError::Fault {
                test: test.name.text.clone(),
                call,
                name,
                text,
            },
            other => other,
        }
    }

    /// Whether the error only says that there is no GPU here.
    pub fn is_absent(&self) -> bool {
        matches!(self, GpuError::NoDriver | GpuError::NoDevice)
    }
}

/// Time for opening the GPU, loading a module and one launch: generous, so
/// that only a hung kernel runs past it.
const SETUP_TIME: Duration = Duration::from_secs(120);

/// How long a run may take before it counts as hung: set-up, plus twice its
/// budget (a fixed number of launches counts a millisecond each, far more
/// than one takes).
fn deadline(knobs: &Knobs) -> Duration {
    let work = match knobs.launches {
        Some(n) => Duration::from_millis(n),
        None => Duration::from_millis(knobs.budget_ms),
    };
    SETUP_TIME + work * 2
}

/// Serialises the one-off runs in a fresh child (tests that cannot travel
/// to the worker as text) with each other; the worker's own lock
/// serialises its jobs.
static ONE_OFF: Mutex<()> = Mutex::new(());

/// Runs `f` with a fresh context on device `device`, in a child process
/// of its own (see `isolate`; off Linux on a thread, `in_process`): the
/// way for a test whose IR the text format cannot carry to the worker.
fn with_context<T: wire::Wire + Send + 'static>(
    device: u32,
    deadline: Duration,
    f: impl FnOnce(&driver::Context) -> Result<T, GpuError> + Send + 'static,
) -> Result<T, GpuError> {
    let _serial = ONE_OFF
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    apart(deadline, move || {
        let ctx = driver::Context::open_on(device)?.ok_or(GpuError::NoDevice)?;
        ctx.bind()?;
        f(&ctx)
    })
}

/// The name of the GPU the harness would use: the first of [`devices`].
pub fn device() -> Result<String, GpuError> {
    match worker::call(first_device()?, &worker::Job::Device, SETUP_TIME)? {
        worker::Answer::Device(name) => Ok(name),
        _ => Err(GpuError::Worker(
            "the GPU worker answered another job".into(),
        )),
    }
}

/// The first device of [`devices`]: where a run that names none goes.
fn first_device() -> Result<u32, GpuError> {
    Ok(devices()?.first().ok_or(GpuError::NoDevice)?.ordinal)
}

/// Asks the GPU worker of `device` (without one, the first of
/// [`devices`]) to compile in the background the modules that runs of
/// these tests (each with its PTX from [`litmus_ptx::generate`])
/// with `knobs` will load there: [`module_on`]'s, which on `sm_90` and
/// later are not the generated PTX itself. A test whose module cannot be
/// made is left to its run, which says why. See [`prefetch_on`].
pub fn prefetch<'a>(
    device: Option<u32>,
    runs: impl IntoIterator<Item = (&'a Test, &'a str)>,
    knobs: &Knobs,
) -> Result<usize, GpuError> {
    let made: Vec<Modules> = runs
        .into_iter()
        .map(|(test, ptx)| Modules::with_default(test, ptx))
        .collect();
    prefetch_modules(device, &made.iter().collect::<Vec<_>>(), knobs)
}

/// [`prefetch`] of tests whose [`Modules`] the caller keeps for their
/// runs: a module generated here for the knobs is the one the run loads,
/// not generated again. Why: a search runs each test many times under
/// knobs of a few codegens, and generating its module afresh for every
/// trial and every prefetch cost more host time than a short trial's
/// launches (`docs/running-on-gpus.md`, "One GPU worker per process").
pub fn prefetch_modules(
    device: Option<u32>,
    runs: &[&Modules],
    knobs: &Knobs,
) -> Result<usize, GpuError> {
    let device = match device {
        Some(d) => d,
        None => first_device()?,
    };
    let modules = runs
        .iter()
        .filter_map(|m| module_on(device, m, knobs).ok().map(|m| m.to_string()))
        .collect();
    prefetch_on(device, modules, knobs)
}

/// Asks device `device`'s GPU worker to compile these modules (PTX texts
/// of tests about to run there) in the background, as runs with `knobs`
/// build them (the knobs choose the toolchain), so that their runs find
/// them loaded: a campaign hides the driver's JIT behind the kernels of
/// the test before. Only a hint: without a GPU it does nothing but say
/// so. It waits for the worker's run in progress, so a caller sends it to
/// a device it holds.
pub fn prefetch_on(device: u32, modules: Vec<String>, knobs: &Knobs) -> Result<usize, GpuError> {
    let job = worker::Job::Prefetch(modules, knobs.clone());
    match worker::call(device, &job, SETUP_TIME)? {
        worker::Answer::Prefetching(n) => Ok(n),
        _ => Err(GpuError::Worker(
            "the GPU worker answered another job".into(),
        )),
    }
}

/// The module a run of `modules`' test with `knobs` loads on device
/// `device` ([`Modules::for_device`]): another codegen where the knobs
/// ask for generic addressing or a CTA spread by lane, and on a device
/// with programmatic dependent launches (`sm_90` and later), for a test
/// on one GPU without host threads, kernels that wait for the grid before
/// them (`LITMUS_DEPENDENT_LAUNCH`). Made once for all the calls with the
/// same `modules`. What [`prefetch_on`] should be given to compile ahead
/// of the run.
pub fn module_on(
    device: u32,
    modules: &Modules,
    knobs: &Knobs,
) -> Result<std::sync::Arc<str>, GpuError> {
    // A device the driver does not show fails the run with its own
    // message; its module is the knobs' alone.
    match device_selection::arch_of(device) {
        Ok(arch) => modules.for_device(knobs, arch),
        Err(_) => modules.for_knobs(knobs),
    }
}

/// Runs a test's PTX (from [`litmus_ptx::generate`]) on the GPU, in
/// the persistent worker (see `worker`). The knobs and the device may ask
/// for another codegen, generated from `test`; a module changed on
/// purpose runs through [`run_on`] with [`Modules::as_is`].
///
/// Without a driver or a device the error says so
/// ([`GpuError::NoDriver`], [`GpuError::NoDevice`]): the caller decides
/// whether that is a skip or a failure.
///
/// ```no_run
/// use litmus_hw::{run, GpuError, Knobs};
///
/// let test = litmus_text::parse(
///     "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
/// )
/// .unwrap();
/// let ptx = litmus_ptx::generate(&test).unwrap();
/// match run(&test, &ptx, &Knobs::default()) {
///     Ok(result) => {
///         for (outcome, count) in &result.histogram {
///             println!("{outcome:?}: {count}");
///         }
///         println!("{} instances on {}", result.instances, result.device);
///     }
///     Err(GpuError::NoDriver | GpuError::NoDevice) => println!("hardware: skipped"),
///     Err(e) => panic!("{e}"),
/// }
/// ```
pub fn run(test: &Test, ptx: &str, knobs: &Knobs) -> Result<HwResult, GpuError> {
    run_on(&[], &Modules::with_default(test, ptx), knobs)
}

/// [`run`] on the devices `claim` names: logical GPU `g` of the test on
/// `claim[g]`, in the worker of `claim[0]`, so that a scheduler holding
/// those devices runs tests on all of them at once
/// (`litmus_runner::device_pool`). An empty claim is the first of
/// [`devices`] (and the next ones for a test on several GPUs); an
/// explicit device map (`LITMUS_GPU_MAP`, [`Knobs::gpu_map`]) overrides
/// the claim. A test on more GPUs than the claim, or than the devices
/// there are, is [`GpuError::Unfaithful`], saying why. The module is
/// `modules`' ([`module_on`]): the slots of one run that hand over the
/// same `modules` generate it once.
pub fn run_on(claim: &[u32], modules: &Modules, knobs: &Knobs) -> Result<HwResult, GpuError> {
    let test = modules.test();
    let (device, sent) = device_selection::placed(test, claim, knobs)?;
    let module = module_on(device, modules, &sent).map_err(|e| e.in_test(test))?;
    let ptx = &*fault::injected(&test.name.text, &module).map_err(|e| e.in_test(test))?;
    let ran = match worker::as_text(test) {
        Some(text) => {
            // The tests of a binary run on several threads but one at a
            // time on the GPU: asking for the module first lets the worker
            // compile it on another thread while the tests ahead of this
            // one run. Only a hint; the run compiles what is missing.
            let _ = prefetch_on(device, vec![ptx.to_string()], &sent);
            let job = worker::Job::Run(text, ptx.to_string(), sent);
            match worker::call(device, &job, deadline(knobs)) {
                Ok(worker::Answer::Run(r)) => Ok(*r),
                Ok(_) => Err(GpuError::Worker(
                    "the GPU worker answered another job".into(),
                )),
                Err(e) => Err(e),
            }
        }
        None => {
            // The run may outlive this call (off Linux, a hung one is
            // abandoned on its thread): it owns what it reads.
            let (test, ptx) = (test.clone(), ptx.to_string());
            with_context(device, deadline(knobs), move |ctx| {
                harness::run(
                    ctx,
                    &kernels::Kernels::build(ctx, &ptx, &sent)?,
                    &ptx,
                    &test,
                    &sent,
                )
            })
        }
    };
    let mut result = ran.map_err(|e| e.in_test(test))?;
    result.knobs = harness::knobs_ran(test, knobs).map_err(|e| e.in_test(test))?;
    Ok(result)
}

/// The SASS listing of the code a run of `modules`' test on GPU 0 runs:
/// its module (the run's, [`module_on`]) built under the knobs' target and
/// toolchain (the driver's JIT, or `LITMUS_PTXAS`'s ptxas) with the PTX
/// line of each instruction kept, disassembled by `nvdisasm`, each role's
/// accesses and fences beside the SASS made from them; and how it was
/// built. What `gpu-litmus sass --jit` prints and what a failure story
/// checks (`litmus_toolchain::check`), to see the code that ran rather than
/// what some ptxas makes of the module. The image is made in a child
/// process, as every run's; [`GpuError::NoDriver`] or
/// [`GpuError::NoDevice`] without a GPU.
pub fn device_listing(
    modules: &Modules,
    knobs: &Knobs,
    nvdisasm: &litmus_toolchain::Nvdisasm,
) -> Result<(litmus_toolchain::Listing, Build), GpuError> {
    let device = first_device()?;
    let module = module_on(device, modules, knobs)?;
    let annotated = litmus_toolchain::lineinfo::annotate(&module);
    let knobs = knobs.clone();
    let (image, build) = with_context(device, SETUP_TIME, move |ctx| {
        let plan = toolchain::plan(ctx, &annotated, &knobs)?;
        let image = toolchain::image_with_lines(ctx, &plan)?;
        Ok((wire::Bytes(image), plan.build))
    })?;
    // The listing reads the module that was compiled: the same lines, its
    // header set for the build's target.
    let target = litmus_ptx::isa::SmArch::parse(&build.target)
        .ok_or_else(|| GpuError::Toolchain(format!("a build for `{}`", build.target)))?;
    let module = litmus_ptx::isa::retarget(&module, target)
        .map_err(|e| GpuError::Unfaithful(e.to_string()))?;
    let listing = litmus_toolchain::Listing::of_cubin(&module, &image.0, nvdisasm)
        .map_err(|e| GpuError::Toolchain(e.to_string()))?;
    Ok((listing, build))
}

/// Runs one launch recording where every role of every instance ran, and
/// checks that the test's declared placement held.
pub fn check_placement(test: &Test, ptx: &str, knobs: &Knobs) -> Result<PlacementReport, GpuError> {
    let (device, sent) = device_selection::placed(test, &[], knobs)?;
    let knobs = &sent;
    let module =
        module_on(device, &Modules::with_default(test, ptx), knobs).map_err(|e| e.in_test(test))?;
    let ptx = &*module;
    let checked = match worker::as_text(test) {
        Some(text) => match worker::call(
            device,
            &worker::Job::Placement(text, ptx.to_string(), knobs.clone()),
            SETUP_TIME,
        ) {
            Ok(worker::Answer::Placement(r)) => Ok(r),
            Ok(_) => Err(GpuError::Worker(
                "the GPU worker answered another job".into(),
            )),
            Err(e) => Err(e),
        },
        None => {
            let (test, ptx, knobs) = (test.clone(), ptx.to_string(), knobs.clone());
            with_context(device, SETUP_TIME, move |ctx| {
                harness::check_placement(
                    ctx,
                    &kernels::Kernels::build(ctx, &ptx, &knobs)?,
                    &ptx,
                    &test,
                    &knobs,
                )
            })
        }
    };
    checked.map_err(|e| e.in_test(test))
}

/// Decides whether the hardware half of a test runs here: `Ok(None)` when a
/// GPU is there; `Ok(Some(why))` when there is none and none is required
/// (the caller says in one line that it skipped); `Err` with the reason
/// when `LITMUS_REQUIRE_GPU=1` asks for a GPU, or when the driver is there
/// but broken. Asked once per process: each question costs a child process.
pub fn hardware_wanted() -> Result<Option<String>, GpuError> {
    static ANSWER: std::sync::OnceLock<Result<Option<String>, GpuError>> =
        std::sync::OnceLock::new();
    ANSWER
        .get_or_init(|| match device() {
            Ok(_) => Ok(None),
            Err(e) if e.is_absent() => match gpu_required_var() {
                Ok(true) => Err(GpuError::Required {
                    reason: e.to_string(),
                }),
                Ok(false) => Ok(Some(e.to_string())),
                Err(bad) => Err(bad),
            },
            Err(e) => Err(e),
        })
        .clone()
}

/// Whether `LITMUS_REQUIRE_GPU=1` asks for a missing GPU to be a failure
/// (a bad value counts as no here; [`gpu_required_var`] reports it).
pub fn gpu_required() -> bool {
    gpu_required_var().unwrap_or(false)
}

/// Checks that `path` (a path, or an installed release's name such as
/// `ptxas-12.4`) is a ptxas (it runs, and its `--version` is ptxas's),
/// without a GPU: so that a bad `LITMUS_TOOLCHAIN`, `LITMUS_PTXAS` or
/// `--ptxas` fails before anything runs, on any machine. Returns its name
/// (`ptxas 12.4.131`); the error is the reason, for the caller to say
/// where the path came from.
pub fn check_ptxas(path: &str) -> Result<String, ToolchainError> {
    toolchain::ptxas_at(path).map(|p| p.name())
}

/// The toolchain folder (`LITMUS_TOOLCHAINS`, else the user's cache) and
/// the ptxas releases installed there, oldest first, each checked.
pub fn installed_toolchains() -> (
    Option<std::path::PathBuf>,
    Vec<litmus_toolchain::installed::Installed>,
) {
    let folder = litmus_toolchain::installed::folder(process_env::lookup);
    let list = folder
        .as_deref()
        .map(litmus_toolchain::installed::list)
        .unwrap_or_default();
    (folder, list)
}

/// The driver's JIT as a toolchain (`driver JIT 580.159.04`), or why
/// there is none here (no driver): `gpu-litmus toolchains`' first line.
pub fn jit_toolchain() -> Result<String, ToolchainError> {
    let no_jit = |e: GpuError| ToolchainError::NoJit(e.to_string());
    match hardware_wanted() {
        Ok(None) => driver::jit_name().map_err(no_jit),
        Ok(Some(why)) => Err(ToolchainError::NoJit(why)),
        Err(e) => Err(no_jit(e)),
    }
}

/// The compilers a search tries when none are named: the base's own when
/// it names one (the user chose it), else the driver's JIT and every
/// ptxas installed in the toolchain folder that runs.
pub fn toolchains_to_search(base: &Knobs) -> Vec<Option<String>> {
    if base.ptxas.is_some() {
        return vec![base.ptxas.clone()];
    }
    let mut out = vec![None];
    out.extend(
        installed_toolchains()
            .1
            .into_iter()
            .filter(|i| i.ptxas.is_ok())
            .map(|i| Some(i.name)),
    );
    out
}

/// Reads a comma-separated list of toolchains (`jit,ptxas-12.4`), each
/// checked as [`check_ptxas`] checks one; the error names the entry.
pub fn parse_toolchains(list: &str) -> Result<Vec<Option<String>>, ToolchainError> {
    let mut out = Vec::new();
    for item in list.split(',').map(str::trim) {
        if item.is_empty() {
            return Err(ToolchainError::EmptyEntry { list: list.into() });
        }
        let t = match litmus_toolchain::installed::Spec::parse(item) {
            Ok(litmus_toolchain::installed::Spec::Jit) => None,
            Ok(_) => {
                check_ptxas(item).map_err(|why| ToolchainError::Entry {
                    entry: item.into(),
                    why: Box::new(why),
                })?;
                Some(item.to_string())
            }
            Err(e) => return Err(ToolchainError::NotASpec(e.to_string())),
        };
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Ok(out)
}

/// `LITMUS_REQUIRE_HW` read as strictly as [`gpu_required_var`]: `1`
/// makes a hardware half that this machine cannot run (the device or the
/// driver lacks an instruction of the test, the harness cannot place it)
/// a failure; by default it is reported as not run.
pub fn hw_required_var() -> Result<bool, GpuError> {
    flag_var("LITMUS_REQUIRE_HW")
}

/// `LITMUS_REQUIRE_GPU` read strictly: unset, empty or `0` is no, `1` yes,
/// anything else an error (a `yes` that silently meant no would let a GPU
/// runner without a GPU pass).
pub fn gpu_required_var() -> Result<bool, GpuError> {
    flag_var("LITMUS_REQUIRE_GPU")
}

fn flag_var(name: &str) -> Result<bool, GpuError> {
    match process_env::lookup(name) {
        None => Ok(false),
        Some(v) => match v.trim() {
            "" | "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(GpuError::knob(name, v, "`1` or `0`")),
        },
    }
}
