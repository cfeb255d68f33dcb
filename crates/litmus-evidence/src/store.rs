//! Writing evidence: one JSON-lines file per process and folder, named so
//! that no two writers ever share a file.
//!
//! Why one file per run and JSON lines: many runners (cargo's test threads,
//! nextest's processes, several GPU machines) record at once; a file of its
//! own per process needs no lock and merging folders is copying files, with
//! no conflict to resolve. Each record is written with one `write` of a
//! whole line, so a crash loses at most the line being written, and the
//! reader still reads the rest ([`super::read`]).

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use super::record::Record;
pub use super::stamp::{driver_version, rfc3339};

/// Where hardware runs record their evidence (`LITMUS_EVIDENCE`): the
/// runner's configuration reads it; the name lives with the store.
pub const EVIDENCE_ENV: &str = "LITMUS_EVIDENCE";

/// The extension of evidence files.
pub const EXTENSION: &str = "jsonl";

/// One open evidence file: a run's records, in order.
pub struct Writer {
    file: File,
    run: String,
    seq: u64,
    path: PathBuf,
}

/// The names a new file of this process may take now, in order: after
/// this host, this process and the time, and a suffix for a second file of
/// the same millisecond.
fn run_names() -> impl Iterator<Item = String> {
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let base = format!("{}-{}-{millis}", host(), std::process::id());
    (0u32..).map(move |n| {
        if n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        }
    })
}

/// Writes `records` as they are (each under its own run and number) into
/// a new file in `dir` (created if missing), all at once: through a
/// temporary file that no reader takes, then linked under a free name, so
/// that a kill leaves the file whole or absent, never cut.
pub fn write_whole(dir: &Path, records: &[&Record]) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let mut text = String::new();
    for r in records {
        text.push_str(&r.to_json().to_string());
        text.push('\n');
    }
    let tmp = litmus_core::files::temporary_beside(&dir.join(format!("merge.{EXTENSION}")));
    litmus_core::files::write_atomic(&tmp, text.as_bytes())?;
    for run in run_names() {
        let path = dir.join(format!("{run}.{EXTENSION}"));
        // A hard link, unlike a rename, never replaces a file another
        // writer took the name of meanwhile.
        match std::fs::hard_link(&tmp, &path) {
            Ok(()) => {
                std::fs::remove_file(&tmp)?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                return Err(e);
            }
        }
    }
    unreachable!("some suffix is free")
}

impl Writer {
    /// Creates a new file in `dir` (created if missing), named after this
    /// host, this process and the time, and never an existing file.
    pub fn create(dir: &Path) -> std::io::Result<Writer> {
        std::fs::create_dir_all(dir)?;
        // A second writer of this process in the same millisecond gets a
        // suffix: `create_new` refuses to share a file.
        for run in run_names() {
            let path = dir.join(format!("{run}.{EXTENSION}"));
            match OpenOptions::new().append(true).create_new(true).open(&path) {
                Ok(file) => {
                    return Ok(Writer {
                        file,
                        run,
                        seq: 0,
                        path,
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        unreachable!("some suffix is free")
    }

    /// The run's name: the file's stem, and the `run` of every record
    /// [`Writer::append`] writes.
    pub fn run(&self) -> &str {
        &self.run
    }

    /// The file written to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `record`, numbered as this run's next (its `run` and `seq`
    /// are set here), as one line in one write.
    pub fn append(&mut self, mut record: Record) -> std::io::Result<()> {
        record.run = self.run.clone();
        record.seq = self.seq;
        let mut line = record.to_json().to_string();
        line.push('\n');
        self.file.write_all(line.as_bytes())?;
        self.seq += 1;
        Ok(())
    }

    /// Appends `record` as it is, under its own run and number: what a
    /// merge writes, so that the copy and the original are one record to
    /// the reader wherever both end up.
    pub fn copy(&mut self, record: &Record) -> std::io::Result<()> {
        let mut line = record.to_json().to_string();
        line.push('\n');
        self.file.write_all(line.as_bytes())
    }
}

/// This process's open writers, one per folder: the runner records from
/// several test threads into one file.
static WRITERS: Mutex<BTreeMap<PathBuf, Writer>> = Mutex::new(BTreeMap::new());

/// Appends `record` to this process's file in `dir`, opening it on first
/// use.
pub fn append(dir: &Path, record: Record) -> std::io::Result<()> {
    let mut writers = WRITERS.lock().unwrap_or_else(|p| p.into_inner());
    let writer = match writers.entry(dir.to_path_buf()) {
        std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
        std::collections::btree_map::Entry::Vacant(e) => e.insert(Writer::create(dir)?),
    };
    writer.append(record)
}

/// The host's name, reduced to file-name characters.
fn host() -> String {
    let name = std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .unwrap_or_default();
    let name = crate::file_names::file_stem(name.trim());
    if name.is_empty() {
        "host".into()
    } else {
        name
    }
}
