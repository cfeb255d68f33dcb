//! The cat twins of the built-in models: `ptx`, `sc`, `ptx-2015` and
//! `ptx-async` written
//! as cat files (`models/*.cat` at the repository's root, which is this
//! crate's `models/` folder), kept in agreement with the built-in models by
//! `tests/cat_models_on_catalogue.rs`. They are compiled in, so that a
//! command that edits a model as text (`gpu-litmus mutants`) finds them
//! from any folder and in the published crate.
//!
//! ```
//! let (path, text) = litmus_model::twins::twin("ptx").unwrap();
//! assert_eq!(path, "models/ptx.cat");
//! assert!(text.contains("acyclic") || text.contains("irreflexive"));
//! assert!(litmus_model::twins::twin("ptx-7.5").is_none());
//! ```

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
