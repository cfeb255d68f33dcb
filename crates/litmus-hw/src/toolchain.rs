//! What a device runs of a test's portable module: the target (the
//! device's architecture, or `LITMUS_PTX_TARGET`), the PTX version that
//! target and the module's instructions need, and the toolchain that
//! compiles it (the driver's JIT). A module the device or the toolchain
//! cannot run is refused here, in one line naming the instruction and the
//! version or target it needs, before anything reaches the driver: the
//! runner reports the hardware half as not run, and the model half stands.

use std::fmt;

use litmus_core::ptx::isa::{self, Needs, PtxIsa};

use super::driver::{self, Context};
use super::{GpuError, Knobs};

/// How a module was built for the device: printed in the hardware line
/// and kept in evidence, since the same PTX may become other code under
/// another target or toolchain.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Build {
    /// The module's `.target` (`sm_90`).
    pub target: String,
    /// The module's `.version` (`7.8`).
    pub version: String,
    /// What compiled it: `driver JIT 580.159.04`.
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

/// A module made ready for one device: its text, retargeted, and how it
/// is to be built.
pub(crate) struct Plan {
    /// The module with the device's header.
    pub text: String,
    /// Target, version and toolchain.
    pub build: Build,
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
/// toolchain reads a lower PTX ISA than the module needs.
pub(crate) fn plan(ctx: &Context, ptx: &str, k: &Knobs) -> Result<Plan, GpuError> {
    let target = k.ptx_target.on(ctx.arch);
    if target > ctx.arch {
        return Err(GpuError::Unfaithful(format!(
            "LITMUS_PTX_TARGET={target} is newer than the device's {} ({})",
            ctx.arch, ctx.name
        )));
    }
    let needs = Needs::of(ptx);
    let (toolchain, reads) = (
        driver::jit_name()?,
        PtxIsa::of_cuda(driver::cuda_version()?),
    );
    let version = needs
        .fit(target, "the driver JIT-compiles", reads)
        .map_err(|e| GpuError::Unfaithful(e.to_string()))?;
    let text = isa::retarget(ptx, target).map_err(|e| GpuError::Unfaithful(e.to_string()))?;
    Ok(Plan {
        text,
        build: Build {
            target: target.to_string(),
            version: version.to_string(),
            toolchain,
        },
    })
}
