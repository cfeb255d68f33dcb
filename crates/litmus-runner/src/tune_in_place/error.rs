//! Why a test could not tune itself under `LITMUS_TUNE=1`: each a failure
//! of the test, displayed in the one line its panic carries.

use litmus_hw::GpuError;
use litmus_tune::tuning::TuningError;
use litmus_tune::TuneError;

/// Why `LITMUS_TUNE=1` could not tune a test and keep its entry.
#[derive(Debug, thiserror::Error)]
pub enum TuneInPlaceError {
    /// A variable of the search holds a value it does not take.
    #[error("bad value `{value}` for {var}: expected {expected}")]
    BadValue {
        /// The variable.
        var: &'static str,
        /// Its value.
        value: String,
        /// What it takes.
        expected: &'static str,
    },
    /// A GPU is required and none is here, or the driver is broken.
    #[error("tune: {0}")]
    Gpu(GpuError),
    /// The search could not run.
    #[error("tune `{name}`: {error}")]
    Search {
        /// The test.
        name: String,
        /// Why.
        error: TuneError,
    },
    /// The tuning file could not be read or written.
    #[error(transparent)]
    File(#[from] TuningError),
}
