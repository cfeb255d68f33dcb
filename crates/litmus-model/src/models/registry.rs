//! The registry of models by name: the built-in models, the default, and
//! the `.cat` path that makes a cat file a model wherever a name goes.

use crate::cat::CatError;
use crate::model::Model;
use crate::models::{ptx::Ptx, ptx2015::Ptx2015, ptx75::Ptx75, ptx_async::PtxAsync, sc::Sc};

/// Every model, the default first.
pub static MODELS: [&dyn Model; 5] = [&Ptx, &Sc, &Ptx2015, &Ptx75, &PtxAsync];

/// The model used when none is named.
pub const DEFAULT_MODEL: &str = "ptx";

/// The environment variable that selects the model.
pub const MODEL_ENV: &str = "LITMUS_MODEL";

/// A model name that names no model, or a cat file that cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message())]
pub struct UnknownModel {
    /// The name given.
    pub name: String,
    /// Where the name came from, e.g. ` (from LITMUS_MODEL)`.
    pub source_note: String,
    /// The known model names, comma-separated.
    pub known: String,
    /// Why the cat file the name points to cannot be loaded, when it
    /// ends in `.cat`.
    pub cat: Option<Box<CatError>>,
}

impl UnknownModel {
    fn message(&self) -> String {
        match &self.cat {
            Some(e) => format!("cannot load model `{}`{}: {e}", self.name, self.source_note),
            None => format!(
                "unknown model `{}`{}; the models are: {}",
                self.name, self.source_note, self.known
            ),
        }
    }
}

/// The names of every model, comma-separated.
pub fn model_names() -> String {
    MODELS
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The model called `name`, or read from the cat file `name` when it ends
/// in `.cat` (see [`crate::cat`]).
///
/// ```
/// assert_eq!(litmus_model::model_by_name("sc").unwrap().name(), "sc");
/// assert!(litmus_model::model_by_name("tso").unwrap_err().to_string().contains("ptx, sc, ptx-2015"));
/// ```
pub fn model_by_name(name: &str) -> Result<&'static dyn Model, UnknownModel> {
    if name.ends_with(".cat") {
        // Compiled once per process and kept, so that it is handed out as
        // `&'static dyn Model` like the built-in ones (see `cat::load`).
        return crate::cat::load(std::path::Path::new(name))
            .map(|m| m as &'static dyn Model)
            .map_err(|e| UnknownModel {
                name: name.to_string(),
                source_note: String::new(),
                known: model_names(),
                cat: Some(Box::new(e)),
            });
    }
    MODELS
        .iter()
        .copied()
        .find(|m| m.name() == name)
        .ok_or_else(|| UnknownModel {
            name: name.to_string(),
            source_note: String::new(),
            known: model_names(),
            cat: None,
        })
}

/// The model that judges a test that uses the async proxy when
/// `LITMUS_MODEL` is unset: `ptx` has no async proxy, and `ptx-async`
/// gives `ptx-7.5`'s verdicts on everything else.
pub const ASYNC_DEFAULT_MODEL: &str = "ptx-async";

/// The model for `test`: the one `LITMUS_MODEL` names, else `ptx`, or
/// [`ASYNC_DEFAULT_MODEL`] for a test with async-proxy instructions.
pub fn model_from_env_for(
    test: &litmus_core::ir::Test,
) -> Result<&'static dyn Model, UnknownModel> {
    let unset = std::env::var(MODEL_ENV).map_or(true, |n| n.trim().is_empty());
    if unset && test.first_async_use().is_some() {
        return model_by_name(ASYNC_DEFAULT_MODEL);
    }
    model_from_env()
}

/// The model named by `LITMUS_MODEL` (a name or a `.cat` path), or `ptx`
/// when it is unset or empty.
pub fn model_from_env() -> Result<&'static dyn Model, UnknownModel> {
    match std::env::var(MODEL_ENV) {
        Ok(name) if !name.trim().is_empty() => model_by_name(name.trim()).map_err(|mut e| {
            e.source_note = format!(" (from {MODEL_ENV})");
            e
        }),
        _ => model_by_name(DEFAULT_MODEL),
    }
}
