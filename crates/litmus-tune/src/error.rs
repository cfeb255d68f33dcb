//! Why a test has no target or no search: the model could not check it,
//! or the GPU could not run it.

use litmus_hw::GpuError;
use litmus_model::{CheckError, UnknownModel};

/// Why a test's weak outcome could not be decided ([`crate::Target`]).
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// The model could not check the test.
    #[error(transparent)]
    Check(#[from] CheckError),
    /// Sequential consistency, which a forbidden condition's target
    /// needs, is not to be had.
    #[error(transparent)]
    Sc(#[from] UnknownModel),
}

/// Why a test could not be tuned ([`crate::tune_test`]).
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// The test's weak outcome could not be decided.
    #[error("model: {0}")]
    Model(#[from] TargetError),
    /// The search's runs failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
}
