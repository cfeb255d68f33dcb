//! How a run is configured: the model, the GPU knobs, where reports go.
//! Everything comes from the environment, so that a whole suite of cargo
//! tests is steered without touching its code. Every variable is checked
//! when the configuration is made, with or without a GPU: a typo in a GPU
//! runner's settings fails on a laptop and in CI too, not only on the
//! runner.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::portfolio::{Portfolio, PORTFOLIO_ENV};

use litmus_model::{model_from_env, Model, Options, UnknownModel};

use litmus_hw::{gpu_required_var, hw_required_var, GpuError, Knobs};
use litmus_tune::tuning::TuningFile;

pub use litmus_evidence::store::EVIDENCE_ENV;

/// Where reports go (`LITMUS_REPORT_DIR`).
pub const REPORT_DIR_ENV: &str = "LITMUS_REPORT_DIR";

/// `LITMUS_QUIET=1`: a passing `litmus!` test prints no `litmus ...` line
/// (a failing one still prints it, and its whole story).
pub const QUIET_ENV: &str = "LITMUS_QUIET";

/// Whether `LITMUS_QUIET` asks for quiet: unset, empty or `0` is no, `1`
/// is yes, anything else an error naming the variable.
pub fn quiet() -> Result<bool, GpuError> {
    quiet_from(var(QUIET_ENV).as_deref())
}

/// [`quiet`] over the variable's value.
pub fn quiet_from(value: Option<&str>) -> Result<bool, GpuError> {
    match value {
        None | Some("") | Some("0") => Ok(false),
        Some("1") => Ok(true),
        Some(v) => Err(GpuError::knob(
            QUIET_ENV,
            v.escape_debug(),
            "1 (quiet) or 0",
        )),
    }
}

/// The configuration of one test run.
pub struct Config {
    /// The memory model the model half checks against.
    pub model: &'static dyn Model,
    /// The model checker's budgets and loop bound.
    pub options: Options,
    /// The GPU knobs (checked when the configuration is made, whether or
    /// not the hardware half runs).
    pub knobs: Knobs,
    /// Where reports are written (`LITMUS_REPORT_DIR`); `None`: nowhere.
    pub report_dir: Option<PathBuf>,
    /// Where hardware runs record their evidence (`LITMUS_EVIDENCE`);
    /// `None`: nowhere.
    pub evidence_dir: Option<PathBuf>,
    /// Whether the hardware half runs at all (tools that want the model's
    /// judgement alone say no).
    pub hardware: bool,
    /// The tuning file whose entries set per-test knobs (`LITMUS_TUNING`,
    /// or `litmus-tuning.toml` in the current folder), checked when the
    /// configuration is made, like the knobs.
    pub tuning: Option<Arc<TuningFile>>,
    /// How a test without a tuning entry spends its budget
    /// (`LITMUS_PORTFOLIO`; default [`Portfolio::breadth`]).
    pub portfolio: Portfolio,
}

/// Why the environment's configuration is wrong; each error names the
/// variable, its value and what it accepts.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `LITMUS_MODEL` names no model.
    #[error(transparent)]
    Model(#[from] UnknownModel),
    /// A knob's variable (`LITMUS_CTAS`, ...) or `LITMUS_REQUIRE_GPU` holds
    /// a bad value.
    #[error(transparent)]
    Knob(#[from] GpuError),
}

impl Config {
    /// The configuration the environment asks for: `LITMUS_MODEL`, the
    /// knobs' variables (see [`Knobs::from_env`]), `LITMUS_REQUIRE_GPU`,
    /// `LITMUS_REQUIRE_HW`, `LITMUS_DEVICES` and `LITMUS_REPORT_DIR`. A bad value is an error naming the variable.
    pub fn from_env() -> Result<Config, ConfigError> {
        let model = model_from_env()?;
        Ok(Config::with_model(model)?)
    }

    /// The environment's configuration with `model` in place of
    /// `LITMUS_MODEL`'s (a command-line `--model` wins over the variable,
    /// even over a bad one). A bad knob is an error naming the variable.
    pub fn with_model(model: &'static dyn Model) -> Result<Config, GpuError> {
        gpu_required_var()?;
        hw_required_var()?;
        // Its syntax here; the devices it names, once the driver is asked
        // (`litmus_hw::devices`).
        litmus_hw::devices_var()?;
        let knobs = Knobs::from_env()?;
        // Checked here, with or without a GPU, as every variable is.
        if let Some(path) = &knobs.ptxas {
            let var = match std::env::var_os(litmus_hw::TOOLCHAIN_ENV) {
                Some(v) if !v.is_empty() => litmus_hw::TOOLCHAIN_ENV,
                _ => litmus_hw::PTXAS_ENV,
            };
            litmus_hw::check_ptxas(path).map_err(|e| GpuError::Toolchain(format!("{var}: {e}")))?;
        }
        let portfolio = Portfolio::from_var(var(PORTFOLIO_ENV).as_deref())?;
        // Each slot's values checked now, as every variable is, not at the
        // first hardware run (a compiler not installed is no error: its
        // slot is left out there, with a line).
        portfolio.knobs(&knobs)?;
        Ok(Config {
            model,
            options: Options::default(),
            knobs,
            report_dir: std::env::var_os(REPORT_DIR_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            evidence_dir: std::env::var_os(EVIDENCE_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            hardware: true,
            tuning: TuningFile::from_env()
                .map_err(|e| GpuError::Tuning(e.to_string()))?
                .map(Arc::new),
            portfolio,
        })
    }

    /// Refuses a report folder that would overwrite an input: one of
    /// `inputs` (the test files a command was given), the tuning file, or
    /// the evidence folder or a folder inside it (links resolved; see
    /// `litmus_core::files::refuse_clobber`). No report folder: nothing to
    /// refuse.
    pub fn refuse_clobber(&self, inputs: &[&Path]) -> Result<(), litmus_core::files::Clobber> {
        let Some(dir) = &self.report_dir else {
            return Ok(());
        };
        let mut all: Vec<&Path> = inputs.to_vec();
        all.extend(self.evidence_dir.as_deref());
        all.extend(self.tuning.as_deref().map(|t| t.path.as_path()));
        litmus_core::files::refuse_clobber(dir, &all)
    }

    /// The knobs test `name` runs with on a device of kind `kind`
    /// (`litmus_hw::kind_on`; empty when not known): the environment's,
    /// under its tuning entry for that kind when the tuning file has one
    /// (`TuningFile::entry`: that kind's, else one written for every kind,
    /// never another kind's).
    pub fn knobs_for(&self, name: &str, kind: &str) -> Result<Knobs, GpuError> {
        match &self.tuning {
            None => Ok(self.knobs.clone()),
            Some(file) => file.knobs_for(name, kind, &self.knobs, var),
        }
    }
}

/// The variable `name`'s value; `None` where it is unset or not Unicode.
/// The runner reads the process's environment in this module only
/// (`docs/architecture.md`, "Reading the environment"), `LITMUS_TUNE=1`'s
/// variables included.
pub(crate) fn var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}
