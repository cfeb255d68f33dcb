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
            let found = litmus_core::files::walk(Path::new(p), "litmus");
            files.extend(found.files.iter().map(|f| f.display().to_string()));
            errors.extend(found.refused.iter().map(|e| e.to_string()));
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
