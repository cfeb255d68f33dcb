//! A model named on the command line as cat text, for the commands that
//! edit a model rather than only run it (`gpu-litmus mutants`): a `.cat`
//! path, or a built-in model's cat twin ([`litmus_model::twins`]).

use std::path::{Path, PathBuf};

use litmus_model::cat::mutate::{mutate, mutate_file, Mutation};
use litmus_model::cat::IncludeError;
use litmus_model::model_by_name;
use litmus_model::twins::{twin, TWINS};

/// Every mutant of the model `name` (a `.cat` path or a built-in name);
/// the error says what is wrong and where (`file:line:col` for bad cat
/// text, the known models for an unknown name).
pub fn mutation(name: &str) -> Result<Mutation, String> {
    if name.ends_with(".cat") {
        return mutate_file(Path::new(name)).map_err(|e| e.to_string());
    }
    match twin(name) {
        Some((path, text)) => {
            let mut no_include = |p: &Path| -> Result<String, IncludeError> {
                Err(format!(
                    "the built-in twins include nothing, but `{}` was asked for",
                    p.display()
                )
                .into())
            };
            mutate(&PathBuf::from(path), text, &mut no_include).map_err(|e| e.to_string())
        }
        None => {
            // A built-in without a twin, or no model at all: the registry
            // says which names exist.
            model_by_name(name).map_err(|e| e.to_string())?;
            Err(format!(
                "model `{name}` has no cat twin in models/ (the twins: {}); give a .cat file instead",
                TWINS.iter().map(|t| t.0).collect::<Vec<_>>().join(", ")
            ))
        }
    }
}
