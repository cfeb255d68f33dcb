//! What a device runs of a test's portable module: the target (the
//! device's architecture, or `LITMUS_PTX_TARGET`), the PTX version that
//! target and the module's instructions need, and the toolchain that
//! compiles it (the driver's JIT, or the ptxas `LITMUS_PTXAS` names, whose
//! cubin is loaded as it is). A module the device or the toolchain cannot
//! run is refused here, in one line naming the instruction and the version
//! or target it needs, before anything reaches the driver: the runner
//! reports the hardware half as not run, and the model half stands.
//!
//! Compiled images are kept on disk ([`litmus_toolchain::ModuleCache`]),
//! keyed by the module, the toolchain and the device, so a test's second
//! run in a new process loads its image instead of compiling it again (on
//! an H100 the JIT costs tens of milliseconds a module). A damaged entry
//! is reported in one line and rebuilt; a cache that cannot be used is
//! reported once and the runs go on without it.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use litmus_ptx::isa::{Needs, PtxIsa};
use litmus_toolchain::installed::{self, Spec};
use litmus_toolchain::{CacheKey, Lookup, ModuleCache, Ptxas};

mod error;
pub use error::ToolchainError;

use super::driver::{self, Context};
use super::{GpuError, Knobs, PTXAS_ENV};

/// How a module was built for the device: printed in the hardware line
/// and kept in evidence, since the same PTX may become other code under
/// another target or toolchain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Build {
    /// The module's `.target` (`sm_90`).
    pub target: String,
    /// The module's `.version` (`7.8`).
    pub version: String,
    /// What compiled it: `driver JIT 580.159.04`, `ptxas 12.4.131`.
    pub toolchain: String,
}

impl fmt::Display for Build {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} PTX {} via {}",
            self.target, self.version, self.toolchain
        )
    }
}

/// Which compiler turns the module into the device's code.
enum Compiler {
    /// The driver's JIT, through its linker.
    Jit,
    /// A chosen ptxas, for the device's architecture.
    Ptxas(Ptxas),
}

/// A module made ready for one device: its text, retargeted, and how it
/// is to be built.
pub(crate) struct Plan {
    /// The module with the header for its target.
    pub text: String,
    /// Target, version and toolchain.
    pub build: Build,
    compiler: Compiler,
}

impl Plan {
    /// What the worker's cache of loaded modules is keyed by: the text
    /// and the toolchain, since either changes the code.
    pub fn key(&self) -> String {
        format!("{}\n// {}", self.text, self.build.toolchain)
    }
}

/// Retargets `ptx` for `ctx`'s device under the knobs' target and checks
/// that the toolchain reads it. [`GpuError::Unfaithful`] (reported as
/// "hardware: not run") when the target lacks an instruction of the
/// module, when the target is newer than the device, or when the
/// toolchain reads a lower PTX ISA than the module needs;
/// [`GpuError::Toolchain`] when `LITMUS_PTXAS` names no ptxas.
pub(crate) fn plan(ctx: &Context, ptx: &str, k: &Knobs) -> Result<Plan, GpuError> {
    let target = k.ptx_target.on(ctx.arch);
    if target > ctx.arch {
        return Err(GpuError::Unfaithful(format!(
            "LITMUS_PTX_TARGET={target} is newer than the device's {} ({})",
            ctx.arch, ctx.name
        )));
    }
    let (compiler, toolchain, verb, reads) = match &k.ptxas {
        None => {
            let cuda = driver::cuda_version()?;
            let verb = "the driver JIT-compiles".to_string();
            (
                Compiler::Jit,
                driver::jit_name()?,
                verb,
                PtxIsa::of_cuda(cuda),
            )
        }
        Some(path) => {
            let ptxas = checked_ptxas(path)?;
            let (name, reads) = (ptxas.name(), ptxas.max_isa());
            let verb = format!("{name} reads");
            (Compiler::Ptxas(ptxas), name, verb, reads)
        }
    };
    let needs = Needs::of(ptx);
    let version = needs
        .fit(target, &verb, reads)
        .map_err(|e| GpuError::Unfaithful(e.to_string()))?;
    let text = needs
        .retarget(ptx, target)
        .map_err(|e| GpuError::Unfaithful(e.to_string()))?;
    Ok(Plan {
        text,
        build: Build {
            target: target.to_string(),
            version: version.to_string(),
            toolchain,
        },
        compiler,
    })
}

/// The ptxas a toolchain spec names (a path, or an installed release such
/// as `ptxas-12.4`: [`litmus_toolchain::installed`]), asked for its
/// version once per process (every run plans its module, and `ptxas
/// --version` is a process of its own); the error is the bare reason, for
/// the caller to name where the spec came from. `jit` is no ptxas here:
/// the knobs hold `None` for it.
pub(crate) fn ptxas_at(spec: &str) -> Result<Ptxas, ToolchainError> {
    static CHECKED: OnceLock<Mutex<HashMap<String, Result<Ptxas, ToolchainError>>>> =
        OnceLock::new();
    let mut checked = CHECKED
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    checked
        .entry(spec.to_string())
        .or_insert_with(|| resolve(spec))
        .clone()
}

fn resolve(spec: &str) -> Result<Ptxas, ToolchainError> {
    let spec = Spec::parse(spec).map_err(|e| ToolchainError::NotASpec(e.to_string()))?;
    let folder = installed::folder(crate::process_env::lookup);
    match installed::resolve(&spec, folder.as_deref()) {
        Ok(Some(p)) => Ok(p),
        Ok(None) => Err(ToolchainError::Jit),
        Err(e) => Err(ToolchainError::NoPtxas(e.to_string())),
    }
}

/// [`ptxas_at`] for a run: the knob's variable names it.
fn checked_ptxas(path: &str) -> Result<Ptxas, GpuError> {
    ptxas_at(path).map_err(|e| GpuError::Toolchain(format!("{PTXAS_ENV}: {e}")))
}

/// A device's image of a module, and whether it came from the disk cache.
pub(crate) struct Image {
    pub bytes: Vec<u8>,
    /// Read from the cache, not compiled now: the one kind worth
    /// compiling again when the driver refuses it.
    pub cached: bool,
}

/// The device's image of a planned module: from the disk cache, else
/// compiled (and then stored). `fresh` skips the cache's copy, for an
/// image the driver refused to load.
pub(crate) fn image(ctx: &Context, plan: &Plan, fresh: bool) -> Result<Image, GpuError> {
    let device = format!("{} {}", ctx.name, ctx.arch);
    let key = CacheKey {
        module: &plan.text,
        toolchain: &plan.build.toolchain,
        device: &device,
    };
    let cache = disk_cache();
    if let (Some(cache), false) = (cache, fresh) {
        match cache.get(&key) {
            Ok(Lookup::Hit(bytes)) => {
                return Ok(Image {
                    bytes,
                    cached: true,
                })
            }
            Ok(Lookup::Miss) => {}
            Ok(Lookup::Corrupt(why)) => {
                eprintln!("gpu-litmus: module cache: {why}; the module is compiled again")
            }
            Err(e) => say_once(&format!(
                "gpu-litmus: module cache: {e}; going on without it"
            )),
        }
    }
    let image = match &plan.compiler {
        Compiler::Jit => ctx.compile(&plan.text)?,
        Compiler::Ptxas(ptxas) => ptxas
            .compile(&plan.text, ctx.arch, false)
            .map_err(|e| chosen_ptxas_failed(ptxas, e))?,
    };
    if let Some(cache) = cache {
        if let Err(e) = cache.put(&key, &image) {
            say_once(&format!(
                "gpu-litmus: module cache: {e}; going on without it"
            ));
        }
    }
    Ok(Image {
        bytes: image,
        cached: false,
    })
}

/// The image of a planned module with the PTX line of each instruction
/// kept, for mapping its SASS back (never cached: runs do not need it).
pub(crate) fn image_with_lines(ctx: &Context, plan: &Plan) -> Result<Vec<u8>, GpuError> {
    match &plan.compiler {
        Compiler::Jit => ctx.compile_with(&plan.text, true),
        Compiler::Ptxas(ptxas) => ptxas
            .compile(&plan.text, ctx.arch, true)
            .map_err(|e| chosen_ptxas_failed(ptxas, e)),
    }
}

/// A chosen ptxas that failed on a module: named by the variable and the
/// path the user gave, since its version alone may not say which one.
fn chosen_ptxas_failed(ptxas: &Ptxas, e: litmus_toolchain::ToolError) -> GpuError {
    GpuError::Toolchain(format!("{PTXAS_ENV}={}: {e}", ptxas.path().display()))
}

/// The disk cache, opened once per process; `None` when it is off
/// (`LITMUS_CACHE=0`) or cannot be used (said once).
fn disk_cache() -> Option<&'static ModuleCache> {
    static CACHE: OnceLock<Option<ModuleCache>> = OnceLock::new();
    CACHE
        .get_or_init(|| match ModuleCache::from_env() {
            Ok(cache) => cache,
            Err(e) => {
                say_once(&format!(
                    "gpu-litmus: module cache: {e}; going on without it"
                ));
                None
            }
        })
        .as_ref()
}

/// Prints a warning once per process (standard error): every run of a
/// campaign would otherwise repeat it. The tuning file's and the
/// portfolio's lines about a compiler not installed use it too.
pub fn say_once(message: &str) {
    static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut said = SAID.lock().unwrap_or_else(|p| p.into_inner());
    if !said.iter().any(|m| m == message) {
        eprintln!("{message}");
        said.push(message.to_string());
    }
}

/// A load of `plan`'s image that failed: a cubin from ptxas that the
/// device refused is the toolchain's fault, and says so.
pub(crate) fn refused(plan: &Plan, ctx: &Context, e: GpuError) -> GpuError {
    match &plan.compiler {
        Compiler::Jit => e,
        Compiler::Ptxas(p) => GpuError::Toolchain(format!(
            "{PTXAS_ENV}={}: the device ({}, {}) refused the cubin {} made: {e}",
            p.path().display(),
            ctx.name,
            ctx.arch,
            p.name()
        )),
    }
}
