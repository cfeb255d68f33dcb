//! The cat twins of the built-in models: `ptx`, `sc`, `ptx-2015` and
//! `ptx-async` written
//! as cat files (`models/*.cat` at the repository's root, which is this
//! crate's `models/` folder), kept in agreement with the built-in models by
//! `tests/cat_models_on_catalogue.rs`. They are compiled in, so that a
//! command that edits a model as text (`gpu-litmus mutants`) finds them
//! from any folder and in the published crate: [`mutation`] edits a model
//! named either way, a `.cat` path or a built-in name.
//!
//! ```
//! let (path, text) = litmus_model::twins::twin("ptx").unwrap();
//! assert_eq!(path, "models/ptx.cat");
//! assert!(text.contains("acyclic") || text.contains("irreflexive"));
//! assert!(litmus_model::twins::twin("ptx-7.5").is_none());
//! ```

use std::path::Path;

use crate::cat::mutate::{mutate, mutate_file, Mutation};
use crate::cat::{CatError, IncludeError};
use crate::model_by_name;
use crate::models::UnknownModel;

/// Every twin: the built-in model's name, the twin's path in the
/// repository, its text.
pub const TWINS: &[(&str, &str, &str)] = &[
    ("ptx", "models/ptx.cat", include_str!("../models/ptx.cat")),
    ("sc", "models/sc.cat", include_str!("../models/sc.cat")),
    (
        "ptx-2015",
        "models/ptx-2015.cat",
        include_str!("../models/ptx-2015.cat"),
    ),
    (
        "ptx-async",
        "models/ptx-async.cat",
        include_str!("../models/ptx-async.cat"),
    ),
];

/// The twin of built-in model `name`: its path in the repository and its
/// text; `None` for a model without one.
pub fn twin(name: &str) -> Option<(&'static str, &'static str)> {
    TWINS
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|(_, path, text)| (*path, *text))
}

/// Why the model a name gives cannot be edited as cat text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MutationError {
    /// A `.cat` file that cannot be read or does not compile: the file's
    /// mistake, with its `file:line:col`.
    #[error(transparent)]
    Cat(#[from] CatError),
    /// A name that names no model.
    #[error(transparent)]
    Unknown(#[from] UnknownModel),
    /// A built-in model with no twin to edit.
    #[error(
        "model `{name}` has no cat twin in models/ (the twins: {twins}); give a .cat file instead"
    )]
    NoTwin {
        /// The model's name.
        name: String,
        /// The models that have one, comma-separated.
        twins: String,
    },
}

impl MutationError {
    /// Whether the name itself is the mistake (no such model, or no twin),
    /// rather than the file it names.
    pub fn is_name(&self) -> bool {
        !matches!(self, MutationError::Cat(_))
    }
}

/// Every mutant ([`mutate`]) of the model `name`: a `.cat` path, or a
/// built-in model with a twin.
///
/// ```
/// let m = litmus_model::twins::mutation("sc").unwrap();
/// assert_eq!(m.path, std::path::Path::new("models/sc.cat"));
/// assert!(!m.mutants.is_empty());
/// let e = litmus_model::twins::mutation("ptx-7.5").unwrap_err();
/// assert!(e.is_name() && e.to_string().contains("no cat twin"));
/// ```
pub fn mutation(name: &str) -> Result<Mutation, MutationError> {
    if name.ends_with(".cat") {
        return Ok(mutate_file(Path::new(name))?);
    }
    let Some((path, text)) = twin(name) else {
        // A built-in without a twin, or no model at all: the registry
        // says which names exist.
        model_by_name(name)?;
        return Err(MutationError::NoTwin {
            name: name.to_string(),
            twins: TWINS.iter().map(|t| t.0).collect::<Vec<_>>().join(", "),
        });
    };
    let mut no_include = |p: &Path| -> Result<String, IncludeError> {
        Err(format!(
            "the built-in twins include nothing, but `{}` was asked for",
            p.display()
        )
        .into())
    };
    Ok(mutate(Path::new(path), text, &mut no_include)?)
}
