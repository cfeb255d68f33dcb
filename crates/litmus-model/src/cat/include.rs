//! What reads a cat model's `include`s: the caller's reader, which may
//! read files, serve texts it holds, or read nothing, and why it did not
//! give a file's text.

use std::path::Path;

/// Why a reader of includes gave no text for a file.
#[derive(Debug, thiserror::Error)]
pub enum IncludeError {
    /// The file could not be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// This reader gives no such file (a model printed as one file, a
    /// built-in twin, a fuzzed model read nothing); the reason names the
    /// file asked for.
    #[error("{0}")]
    Refused(String),
}

impl From<String> for IncludeError {
    fn from(why: String) -> IncludeError {
        IncludeError::Refused(why)
    }
}

impl From<&str> for IncludeError {
    fn from(why: &str) -> IncludeError {
        IncludeError::Refused(why.to_string())
    }
}

/// Reads the file a cat model includes (its path relative to the model
/// that includes it), or says why not.
pub type ReadInclude<'a> = dyn FnMut(&Path) -> Result<String, IncludeError> + 'a;

/// The reader of a model's files on disk.
pub fn read_from_disk(p: &Path) -> Result<String, IncludeError> {
    Ok(std::fs::read_to_string(p)?)
}
