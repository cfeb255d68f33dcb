//! Finding the conformance corpus (shared by the text tests and the
//! `fuzz_text` example through `#[path]`). File lists come from the
//! corpus's verdict lists, never from a walk of its folder.

use std::path::{Path, PathBuf};

pub use litmus_core::corpus::CORPUS_ENV;
use litmus_core::corpus::{union_of, PTX_V6, PTX_V75, TERMINATION};

/// The verdict lists whose files the text format reads: all of them.
pub const TEXT_LISTS: [&str; 3] = [PTX_V6, PTX_V75, TERMINATION];

/// Every file that one of `lists` names, sorted, with its text.
pub fn listed_files(dir: &Path, lists: &[&str]) -> Result<Vec<(PathBuf, String)>, String> {
    let paths = union_of(dir, lists).map_err(|e| e.to_string())?;
    if paths.is_empty() {
        return Err(format!("{}: the verdict lists name no file", dir.display()));
    }
    paths
        .into_iter()
        .map(|rel| {
            let p = dir.join(&rel);
            std::fs::read_to_string(&p)
                .map(|text| (p.clone(), text))
                .map_err(|e| format!("cannot read {}: {e}", p.display()))
        })
        .collect()
}
