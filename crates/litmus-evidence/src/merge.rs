//! Joining evidence folders into one: the folders of the jobs of a Slurm
//! array or a CI matrix (each ran a shard of the tests) become one folder
//! that `gate` and `report` read as the union.
//!
//! Reading already merges ([`Evidence::read`] takes many folders), so why
//! write the union: one folder is one artifact to keep, commit or hand on,
//! and writing only what reads as a record leaves the damage (a corrupt
//! line, a conflict) reported here, once, by file and line, instead of in
//! every later gate.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::read::{Evidence, Problem, ReadError};
use super::record::Record;
use super::store::write_whole;

/// What a merge did.
#[derive(Debug, Default)]
pub struct Merged {
    /// Records written to the output folder.
    pub written: usize,
    /// Evidence files read from the inputs.
    pub files: usize,
    /// Records found more than once (in two inputs, or already in the
    /// output folder): written once, or not again.
    pub duplicates: usize,
    /// Lines of the inputs that are not records, skipped.
    pub problems: Vec<Problem>,
    /// Records with the run and number of one already in the output folder
    /// but other contents, skipped: `RUN#SEQ (test NAME)`.
    pub conflicts: Vec<String>,
    /// Inputs that do not exist (a job that never wrote), skipped.
    pub missing: Vec<PathBuf>,
    /// The file written, when there was something to write.
    pub path: Option<PathBuf>,
}

impl Merged {
    /// Whether something was skipped that the gate would call an error:
    /// anything but a truncated last line (what a crash leaves).
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(Problem::is_error)
            || !self.conflicts.is_empty()
            || !self.missing.is_empty()
    }
}

/// Why a merge wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// An input or the output could not be read, or the output written.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The output is an input, or inside one.
    #[error(transparent)]
    Clobber(#[from] litmus_core::files::Clobber),
}

/// Writes every record of `inputs` (folders, read at any depth, or files)
/// that `out` does not already hold into one new file in `out` (created if
/// missing), each record under its own run and number, once. The file
/// appears whole or not at all (see [`write_whole`]); an `out` that is an
/// input or inside one is refused before anything is read.
pub fn merge(out: &Path, inputs: &[PathBuf]) -> Result<Merged, MergeError> {
    let refs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    litmus_core::files::refuse_clobber(out, &refs)?;
    let mut merged = Merged::default();
    let (present, absent): (Vec<PathBuf>, Vec<PathBuf>) =
        inputs.iter().cloned().partition(|p| p.exists());
    merged.missing = absent;
    let read = Evidence::read(&present)?;
    merged.files = read.files;
    merged.duplicates = read.duplicates;
    merged.problems = read.problems;
    let mut already: BTreeMap<(String, u64), Record> = BTreeMap::new();
    if out.exists() {
        for r in Evidence::read(&[out.to_path_buf()])?.records {
            already.insert((r.run.clone(), r.seq), r);
        }
    }
    let io = |source| ReadError::Io {
        path: out.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(out).map_err(io)?;
    let mut new = Vec::new();
    for r in &read.records {
        match already.get(&(r.run.clone(), r.seq)) {
            Some(old) if old == r => merged.duplicates += 1,
            Some(_) => merged
                .conflicts
                .push(format!("{}#{} (test {})", r.run, r.seq, r.test)),
            None => new.push(r),
        }
    }
    merged.written = new.len();
    if !new.is_empty() {
        merged.path = Some(write_whole(out, &new).map_err(io)?);
    }
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::tests::sample;
    use crate::store::Writer;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "litmus-evidence-merge-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn shared_records_are_written_once_and_a_second_merge_adds_nothing() {
        let dir = scratch("once");
        let mut w = Writer::create(&dir.join("a")).unwrap();
        w.append(sample()).unwrap();
        w.append(sample()).unwrap();
        let b = dir.join("b");
        std::fs::create_dir_all(&b).unwrap();
        std::fs::copy(w.path(), b.join("copy.jsonl")).unwrap();
        let out = dir.join("out");
        let inputs = [dir.join("a"), b, dir.join("never-written")];
        let m = merge(&out, &inputs).unwrap();
        assert_eq!((m.written, m.files, m.duplicates), (2, 2, 2));
        assert_eq!(m.missing, [dir.join("never-written")]);
        let again = merge(&out, &inputs).unwrap();
        assert_eq!((again.written, again.duplicates), (0, 4));
        assert!(again.path.is_none());
        let read = Evidence::read(&[out]).unwrap();
        assert_eq!(read.records.len(), 2);
        assert_eq!(read.records[0].run, w.run(), "records keep their run");
    }
}
