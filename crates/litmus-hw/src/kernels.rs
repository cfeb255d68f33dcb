//! A test's compiled module and its two kernels, shared by the worker's
//! cache, the contexts of the devices a test runs on, and the harness.

use litmus_ptx::layout;

use super::driver::{Context, Function, Module};
use super::toolchain::{self, Build, Plan};
use super::{GpuError, Knobs};

/// A test's module, built for one device and kept while the worker runs
/// the same PTX again (tuning, the placement check before a run).
pub(crate) struct Kernels {
    pub(super) test_fn: Function,
    pub(super) classify_fn: Function,
    /// How the module was built (target, version, toolchain).
    pub(super) build: Build,
    /// Whether both kernels wait for the grid before them, so that each
    /// may be launched as a programmatic dependent of it
    /// ([`litmus_ptx::Codegen::dependent_launch`]).
    pub(super) waits: bool,
    _module: Module,
}

impl Kernels {
    /// Builds the portable module `ptx` for `ctx`'s device under the
    /// knobs' target and toolchain, and finds its two kernels.
    pub(crate) fn build(ctx: &Context, ptx: &str, k: &Knobs) -> Result<Kernels, GpuError> {
        Kernels::of_plan(ctx, &toolchain::plan(ctx, ptx, k)?)
    }

    /// Compiles a planned module (the driver's linker, or ptxas), or takes
    /// its image from the disk cache, then loads the image. The linker is
    /// its own state, so threads that compile while the context runs other
    /// work do not hold the context (loading PTX directly does, for as
    /// long as the JIT runs). A cached image the driver refuses is
    /// compiled again rather than trusted.
    pub(crate) fn of_plan(ctx: &Context, plan: &Plan) -> Result<Kernels, GpuError> {
        let image = toolchain::image(ctx, plan, false)?;
        let module = match ctx.load_image(&image.bytes) {
            Ok(m) => Ok(m),
            Err(_) if image.cached => ctx.load_image(&toolchain::image(ctx, plan, true)?.bytes),
            Err(e) => Err(e),
        }
        .map_err(|e| toolchain::refused(plan, ctx, e))?;
        Ok(Kernels {
            test_fn: module.function(layout::TEST_KERNEL)?,
            classify_fn: module.function(layout::CLASSIFY_KERNEL)?,
            build: plan.build.clone(),
            waits: plan.text.contains(litmus_ptx::DEPENDENT_WAIT),
            _module: module,
        })
    }
}
