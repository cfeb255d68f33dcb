//! Refusing an output that is one of the command's inputs: `report --html
//! e/run.jsonl` must not turn evidence into HTML.

use std::path::{Path, PathBuf};

/// An output that would overwrite an input or land in a folder read as
/// input.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{}: the output is, or is inside, the input {}; choose another output", output.display(), input.display())]
pub struct Clobber {
    /// The output, as given.
    pub output: PathBuf,
    /// The input it would overwrite, as given.
    pub input: PathBuf,
}

/// Refuses `output` when, links resolved, it is one of `inputs` or lies
/// inside one of them (a folder the command reads). An output that does
/// not exist yet is resolved through its nearest existing folder.
///
/// ```
/// use std::path::Path;
/// let dir = std::env::temp_dir();
/// let input = dir.join("input.jsonl");
/// assert!(litmus_core::files::refuse_clobber(&input, &[&input]).is_err());
/// assert!(litmus_core::files::refuse_clobber(&input.join("x.html"), &[&dir]).is_err());
/// assert!(litmus_core::files::refuse_clobber(Path::new("/nonexistent/page.html"), &[&dir]).is_ok());
/// ```
pub fn refuse_clobber(output: &Path, inputs: &[&Path]) -> Result<(), Clobber> {
    let out = resolved(output);
    for input in inputs {
        let canon = resolved(input);
        if out == canon || out.starts_with(&canon) {
            return Err(Clobber {
                output: output.to_path_buf(),
                input: input.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// `path` with its links resolved, as far as it exists; the rest appended.
fn resolved(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut rest = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(canon) = at.canonicalize() {
            return rest.iter().rev().fold(canon, |p, part| p.join(part));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return absolute,
        }
    }
}
