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

impl Writer {
    /// Creates a new file in `dir` (created if missing), named after this
    /// host, this process and the time, and never an existing file.
    pub fn create(dir: &Path) -> std::io::Result<Writer> {
        std::fs::create_dir_all(dir)?;
        let millis = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        let base = format!("{}-{}-{millis}", host(), std::process::id());
        // A second writer of this process in the same millisecond gets a
        // suffix: `create_new` refuses to share a file.
        for n in 0u32.. {
            let run = if n == 0 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
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

    /// The run's name: the file's stem, and every record's `run`.
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

/// The NVIDIA driver's version as the kernel module reports it; read from
/// a file rather than asked of libcuda, because CUDA must not be started
/// in the process that forks the GPU workers.
pub fn driver_version() -> Option<String> {
    let text = std::fs::read_to_string("/sys/module/nvidia/version").ok()?;
    Some(text.trim().to_string()).filter(|v| !v.is_empty())
}

/// `time` as RFC 3339 in UTC (`2026-11-23T12:45:00Z`).
pub fn rfc3339(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to a
/// proleptic Gregorian date (no date crate for one conversion).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates_are_rfc3339() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        // 2024-02-29 is a leap day; 951782400 is 2000-02-29.
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(1_709_210_096)),
            "2024-02-29T12:34:56Z"
        );
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29T00:00:00Z"
        );
    }
}
