//! The tests a command judges evidence on: `.litmus` files, and folders
//! read for every `.litmus` file below them.

use litmus_evidence::gate::Subject;

use super::load::load;

/// Every test under `paths`, in order (a folder's files sorted), and one
/// message per file that could not be read or parsed.
pub fn subjects(paths: &[String]) -> (Vec<Subject>, Vec<String>) {
    let (files, mut errors) = super::load::expand(paths);
    let mut subjects = Vec::new();
    for file in files {
        match load(&file) {
            Ok(l) => subjects.push(Subject::new(file, l.test)),
            Err(e) => errors.push(e),
        }
    }
    (subjects, errors)
}
