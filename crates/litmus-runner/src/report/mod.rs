//! Reports of test runs: text for people ([`text`]), a JSON record per test
//! ([`json`]) and a JUnit file per test binary ([`junit`]), the files
//! written to `LITMUS_REPORT_DIR`; herd7's and litmus7's result blocks
//! ([`herd`], [`litmus7`]).

pub mod herd;
pub mod json;
pub mod junit;
pub mod litmus7;
pub mod text;

use std::path::Path;
use std::time::Duration;

use crate::runner::{Hardware, TestReport};

pub use litmus_evidence::file_names::file_stem;

/// Writes `report`'s JSON record (named after the test's id: its cargo
/// path or its file) and updates the binary's JUnit file in `dir`
/// (created if missing).
pub fn write(dir: &Path, report: &TestReport, time: Duration) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let json =
        serde_json::to_string_pretty(&json::record(report)).map_err(std::io::Error::other)?;
    litmus_core::files::write_atomic(
        &dir.join(format!("{}.json", file_stem(report.id()))),
        (json + "\n").as_bytes(),
    )?;
    let skipped = match &report.hardware {
        Hardware::Skipped(why) | Hardware::NotRun(why) => Some(why.clone()),
        _ => None,
    };
    junit::record(
        dir,
        junit::Case {
            name: report.id().to_string(),
            time,
            failure: (!report.passed()).then(|| text::failure_message(report)),
            skipped,
            output: text::summary(report),
        },
    )
}

/// Records in `dir`'s JUnit file (the folder created if missing) a file
/// that gave no test, failed with `why`: CI should see a file that does
/// not parse as a failed case, not as a missing one.
pub fn write_unread(dir: &Path, file: &str, why: &str, time: Duration) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let case = junit::Case {
        name: file.to_string(),
        time,
        failure: Some(why.to_string()),
        skipped: None,
        output: String::new(),
    };
    junit::record(dir, case)
}
