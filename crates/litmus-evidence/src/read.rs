//! Reading evidence: every `.jsonl` file of some folders (and every
//! `.jsonl.gz`, [`crate::compressed`]), merged into one set of records,
//! each counted once, with every line that is not a record reported by
//! file and line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::compressed::{inflate, is_compressed, is_evidence_file};
use super::record::{Record, RecordError};

/// The largest evidence file read: far above what a campaign writes (a
/// record is a few kilobytes), far below what would exhaust a CI machine.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// A line that did not read as a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file.
    pub file: PathBuf,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub kind: ProblemKind,
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// The file's last line, with no newline and not a whole record: the
    /// writer stopped mid-line (a crash). The records before it count.
    Truncated,
    /// A whole line that is not a record.
    Corrupt(RecordError),
    /// Not UTF-8.
    NotText,
    /// The same run and number as an earlier record, but other contents:
    /// two files claim one record.
    Conflict,
    /// A path the folder walk or the read refused (a link out of the
    /// folder or in a loop, a FIFO or device, a file too large, gzip that
    /// is not whole): the message names it and says why; `line` is 0.
    Refused(String),
}

impl Problem {
    /// Whether the evidence can still be trusted: a truncated last line is
    /// what a crash leaves and loses only that line; anything else means
    /// the files were damaged or edited.
    pub fn is_error(&self) -> bool {
        self.kind != ProblemKind::Truncated
    }

    /// `error` or `warning` (see [`Problem::is_error`]): the word a line
    /// that reports the problem starts with.
    pub fn level(&self) -> &'static str {
        if self.is_error() {
            "error"
        } else {
            "warning"
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let ProblemKind::Refused(why) = &self.kind {
            return write!(f, "{why}");
        }
        write!(f, "{}:{}: ", self.file.display(), self.line)?;
        match &self.kind {
            ProblemKind::Refused(_) => Ok(()),
            // The records before it count; a resumed campaign reruns the
            // test it held (it was in flight when the run died).
            ProblemKind::Truncated => write!(f, "cut off (a run that died mid-write); ignored"),
            ProblemKind::Corrupt(e) => write!(f, "corrupt record: {e}"),
            ProblemKind::NotText => write!(f, "corrupt record: not UTF-8 text"),
            ProblemKind::Conflict => write!(
                f,
                "record conflicts with an earlier one of the same run and number"
            ),
        }
    }
}

/// Why evidence could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A file or folder could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Evidence merged from files and folders.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    /// Every record, once, in the order read (files sorted by path).
    pub records: Vec<Record>,
    /// Every line that is not a record.
    pub problems: Vec<Problem>,
    /// Files read.
    pub files: usize,
    /// Records found more than once (the same file copied into two
    /// folders): counted once.
    pub duplicates: usize,
}

impl Evidence {
    /// The records of each test, by its name and IR hash (evidence belongs
    /// to a test when both match, so that a record of an edited test is not
    /// used for it): what the gate and the mutation score look up.
    pub fn by_test(&self) -> BTreeMap<(&str, &str), Vec<&Record>> {
        let mut by_test: BTreeMap<(&str, &str), Vec<&Record>> = BTreeMap::new();
        for r in &self.records {
            by_test
                .entry((r.test.as_str(), r.ir_hash.as_str()))
                .or_default()
                .push(r);
        }
        by_test
    }

    /// Reads every evidence file under `paths` (a file is read as it is,
    /// inflated when its name ends in `.jsonl.gz`; a folder's `.jsonl` and
    /// `.jsonl.gz` files at any depth).
    ///
    /// A path that does not exist is an error; what the walk refuses (see
    /// [`litmus_core::files::walk`]), files over [`MAX_FILE_BYTES`] (or
    /// inflating past it) and damaged gzip are problems, one each, and the
    /// rest is read.
    pub fn read(paths: &[PathBuf]) -> Result<Evidence, ReadError> {
        let mut evidence = Evidence::default();
        let mut files = Vec::new();
        for p in paths {
            if let Err(source) = std::fs::symlink_metadata(p) {
                return Err(ReadError::Io {
                    path: p.clone(),
                    source,
                });
            }
            let found = litmus_core::files::walk_matching(p, is_evidence_file);
            files.extend(found.files);
            for why in found.refused {
                evidence.refuse(p, why);
            }
        }
        files.sort();
        files.dedup();
        let mut seen = BTreeMap::new();
        for file in &files {
            match litmus_core::files::read_regular(file, MAX_FILE_BYTES) {
                Ok(bytes) => {
                    evidence.files += 1;
                    evidence.add_file(file, &bytes, &mut seen);
                }
                Err(why) => evidence.refuse(file, why),
            }
        }
        Ok(evidence)
    }

    fn refuse(&mut self, path: &Path, why: litmus_core::files::WalkError) {
        self.problems.push(Problem {
            file: path.to_path_buf(),
            line: 0,
            kind: ProblemKind::Refused(why.to_string()),
        });
    }

    /// Reads one file's contents (`file` names it in problems, and its
    /// name says whether the contents are gzip: `NAME.jsonl.gz`).
    pub fn read_bytes(file: &Path, bytes: &[u8]) -> Evidence {
        let mut evidence = Evidence {
            files: 1,
            ..Evidence::default()
        };
        evidence.add_file(file, bytes, &mut BTreeMap::new());
        evidence
    }

    /// Adds a file's records, inflated first when it is compressed; what
    /// inflated before damage is read, and the damage is a problem.
    fn add_file(&mut self, file: &Path, bytes: &[u8], seen: &mut BTreeMap<(String, u64), usize>) {
        if !is_compressed(file) {
            return self.add_lines(file, bytes, seen);
        }
        let (inflated, why) = inflate(bytes, MAX_FILE_BYTES);
        self.add_lines(file, &inflated, seen);
        if let Some(why) = why {
            self.problems.push(Problem {
                file: file.to_path_buf(),
                line: 0,
                kind: ProblemKind::Refused(format!(
                    "{}: {why}; {}",
                    file.display(),
                    if inflated.is_empty() {
                        "refused"
                    } else {
                        "the records before it are read"
                    }
                )),
            });
        }
    }

    fn add_lines(&mut self, file: &Path, bytes: &[u8], seen: &mut BTreeMap<(String, u64), usize>) {
        let mut known = crate::record::KnownTexts::new();
        let lines: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
        // split gives a last piece after the final newline: empty for a
        // whole file, the cut line for a truncated one.
        let last = lines.len() - 1;
        for (i, raw) in lines.iter().enumerate() {
            let problem = |kind| Problem {
                file: file.to_path_buf(),
                line: i + 1,
                kind,
            };
            let Ok(text) = std::str::from_utf8(raw) else {
                self.problems.push(problem(if i == last {
                    ProblemKind::Truncated
                } else {
                    ProblemKind::NotText
                }));
                continue;
            };
            if text.trim().is_empty() {
                continue;
            }
            match Record::parse(text).and_then(|r| r.check_text(&mut known).map(|()| r)) {
                Ok(r) => match seen.get(&(r.run.clone(), r.seq)) {
                    None => {
                        seen.insert((r.run.clone(), r.seq), self.records.len());
                        self.records.push(r);
                    }
                    Some(&at) if self.records[at] == r => self.duplicates += 1,
                    Some(_) => self.problems.push(problem(ProblemKind::Conflict)),
                },
                Err(RecordError::Json(_)) if i == last => {
                    self.problems.push(problem(ProblemKind::Truncated))
                }
                Err(e) => self.problems.push(problem(ProblemKind::Corrupt(e))),
            }
        }
    }

    /// The problems that make the evidence untrustworthy (all but a
    /// truncated last line).
    pub fn errors(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| p.is_error())
    }
}
