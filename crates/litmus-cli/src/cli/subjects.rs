//! The tests a command judges evidence on: `.litmus` files, and folders
//! read for every `.litmus` file below them.

use std::path::Path;

use litmus_evidence::gate::Subject;

use super::load::load;

/// Every test under `paths`, in order (a folder's files sorted), and one
/// message per file that could not be read or parsed.
pub fn subjects(paths: &[String]) -> (Vec<Subject>, Vec<String>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for p in paths {
        if Path::new(p).is_dir() {
            if let Err(e) = walk(Path::new(p), &mut files) {
                errors.push(format!("{p}: cannot read the folder: {e}"));
            }
        } else {
            files.push(p.clone());
        }
    }
    let mut subjects = Vec::new();
    for file in files {
        match load(&file) {
            Ok(l) => subjects.push(Subject::new(file, l.test)),
            Err(e) => errors.push(e),
        }
    }
    (subjects, errors)
}

fn walk(dir: &Path, files: &mut Vec<String>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "litmus") {
            files.push(path.to_string_lossy().into_owned());
        }
    }
    Ok(())
}
