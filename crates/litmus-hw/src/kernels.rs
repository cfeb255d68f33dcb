//! A test's compiled module and its two kernels, shared by the worker's
//! cache, the contexts of the devices a test runs on, and the harness.

use litmus_core::ptx::layout;

use super::driver::{Context, Function, Module};
use super::GpuError;

/// A test's module, loaded (JIT-compiled) once and kept while the worker
/// runs the same PTX again (tuning, the placement check before a run).
pub(crate) struct Kernels {
    pub(super) test_fn: Function,
    pub(super) classify_fn: Function,
    _module: Module,
}

impl Kernels {
    /// JIT-compiles `ptx` and finds its two kernels.
    pub(crate) fn load(ctx: &Context, ptx: &str) -> Result<Kernels, GpuError> {
        Kernels::of(ctx.load(ptx)?)
    }

    /// Compiles `ptx` through the driver's linker, then loads the image:
    /// for threads that compile while the context runs other work.
    pub(crate) fn compile(ctx: &Context, ptx: &str) -> Result<Kernels, GpuError> {
        Kernels::of(ctx.load_image(&ctx.compile(ptx)?)?)
    }

    fn of(module: Module) -> Result<Kernels, GpuError> {
        Ok(Kernels {
            test_fn: module.function(layout::TEST_KERNEL)?,
            classify_fn: module.function(layout::CLASSIFY_KERNEL)?,
            _module: module,
        })
    }
}
