//! Finding the conformance corpus (shared by the text tests and the
//! `fuzz_text` example through `#[path]`).

use std::path::{Path, PathBuf};

/// The number of `.litmus` files in the Dat3M PTX corpus.
pub const CORPUS_FILES: usize = 104;

/// The environment variable naming the corpus folder.
pub const CORPUS_ENV: &str = "LITMUS_CONFORMANCE_DIR";

/// Every `.litmus` file under `dir`, recursively, sorted, with its text.
pub fn litmus_files(dir: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let mut paths = Vec::new();
    collect(dir, &mut paths)?;
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            std::fs::read_to_string(&p)
                .map(|text| (p.clone(), text))
                .map_err(|e| format!("cannot read {}: {e}", p.display()))
        })
        .collect()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "litmus") {
            out.push(path);
        }
    }
    Ok(())
}
