//! How a run is configured: the model, the GPU knobs, where reports go.
//! Everything comes from the environment, so that a whole suite of cargo
//! tests is steered without touching its code.

use std::path::PathBuf;

use litmus_model::{model_from_env, Model, Options, UnknownModel};

use crate::gpu::{GpuError, Knobs};

/// Where reports go (`LITMUS_REPORT_DIR`).
pub const REPORT_DIR_ENV: &str = "LITMUS_REPORT_DIR";

/// The configuration of one test run.
pub struct Config {
    /// The memory model the model half checks against.
    pub model: &'static dyn Model,
    /// The model checker's budgets and loop bound.
    pub options: Options,
    /// The GPU knobs, or why the environment's knobs are wrong (a failure
    /// only when the hardware half would run).
    pub knobs: Result<Knobs, GpuError>,
    /// Where reports are written (`LITMUS_REPORT_DIR`); `None`: nowhere.
    pub report_dir: Option<PathBuf>,
    /// Where hardware runs record their evidence (`LITMUS_EVIDENCE`);
    /// `None`: nowhere.
    pub evidence_dir: Option<PathBuf>,
    /// Whether the hardware half runs at all (tools that want the model's
    /// judgement alone say no).
    pub hardware: bool,
}

impl Config {
    /// The configuration the environment asks for: `LITMUS_MODEL`, the
    /// knobs' variables (see [`Knobs::from_env`]) and `LITMUS_REPORT_DIR`.
    /// A bad model name is an error naming the variable.
    pub fn from_env() -> Result<Config, UnknownModel> {
        let model = model_from_env()?;
        Ok(Config::with_model(model))
    }

    /// The environment's configuration with `model` in place of
    /// `LITMUS_MODEL`'s (a command-line `--model` wins over the variable,
    /// even over a bad one).
    pub fn with_model(model: &'static dyn Model) -> Config {
        Config {
            model,
            options: Options::default(),
            knobs: Knobs::from_env(),
            report_dir: std::env::var_os(REPORT_DIR_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            evidence_dir: std::env::var_os(crate::evidence::store::EVIDENCE_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            hardware: true,
        }
    }
}
