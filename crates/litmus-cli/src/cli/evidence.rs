//! `gpu-litmus evidence import`: results of other runs become evidence:
//! the lines `gpu-litmus run --format json` prints, and litmus7's logs.
//! (`evidence merge` is its own file, `evidence_merge.rs`.)

use std::io::Write;
use std::path::PathBuf;

use litmus_evidence::import::import_log;
use litmus_evidence::store::Writer;

use super::args::Refusal;
use super::run::folder;
use super::subjects::subjects;
use super::{EXIT_FAILED, EXIT_OK};

/// import litmus7 logs and `run --format json` output as evidence; merge folders
#[derive(clap::Args)]
pub struct EvidenceArgs {
    #[command(subcommand)]
    action: Action,
}

/// What `evidence` does.
#[derive(clap::Subcommand)]
enum Action {
    Import(ImportArgs),
    Merge(super::evidence_merge::MergeArgs),
}

/// import other runs' results as evidence
///
/// Each LOG is read as the lines `gpu-litmus run --format json` prints (when
/// its first character is `{`) or as a litmus7 result log (`Test NAME ...`,
/// `Histogram (N states)`, `COUNT :>1:r0=1; ...`, `Positive: P, Negative: N`;
/// `gpu-litmus run --format litmus7` writes the same). Each test of a log is
/// matched by name to the tests given with --tests, and its outcomes are read
/// against that test's observables; the records, with the matched test's IR
/// hash and text, go to one new file in DIR (one file per import, as every run
/// writes its own).
///
/// A test of a log that matches no test given, whose observables differ from
/// the given test's, or whose outcomes do not read, is reported with the log's
/// file and line, and not imported. JSON lines without a hardware run (no GPU,
/// a file that did not parse) carry no evidence and are counted as skipped.
#[derive(clap::Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct ImportArgs {
    /// the evidence folder to add to (required; `--into` is the same)
    #[arg(long, visible_alias = "into", value_name = "DIR", value_parser = folder)]
    out: Option<PathBuf>,
    /// a .litmus file or a folder of them (repeatable; required)
    #[arg(long, value_name = "PATH", value_parser = folder)]
    tests: Vec<PathBuf>,
    /// the device a litmus7 log was recorded on (litmus7 logs do not say)
    #[arg(long, value_name = "NAME", default_value = "unknown (litmus7 log)", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    device: String,
    /// the logs: `run --format json` output or litmus7 logs
    #[arg(value_name = "LOG")]
    logs: Vec<String>,
}

const AFTER_HELP: &str = "EXIT STATUS:
    0  every test of every log was imported (or skipped for having no run)
    1  some test was not matched or not read, or a log could not be read
    2  the command line is wrong
";

/// Runs `gpu-litmus evidence ACTION` as `args` ask.
pub fn run(args: EvidenceArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match args.action {
        Action::Import(a) => import(a, out, err),
        Action::Merge(a) => super::evidence_merge::run(a, out, err),
    }
}

/// Runs `gpu-litmus evidence import`.
fn import(opts: ImportArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let refusal = if opts.out.is_none() {
        Some("`--out` is required: the evidence folder")
    } else if opts.tests.is_empty() {
        Some("`--tests` is required: the tests the logs ran")
    } else if opts.logs.is_empty() {
        Some("no logs to import")
    } else {
        None
    };
    if let Some(why) = refusal {
        return Refusal::from(why).print("evidence import", err);
    }
    let into = opts.out.clone().unwrap_or_default();
    // The folder written to may not be a log or a test file (a test
    // folder may hold it).
    let inputs: Vec<&std::path::Path> = opts
        .logs
        .iter()
        .map(std::path::Path::new)
        .chain(
            opts.tests
                .iter()
                .map(PathBuf::as_path)
                .filter(|p| p.is_file()),
        )
        .collect();
    if !super::outputs::clear(&into, &inputs, err) {
        return EXIT_FAILED;
    }
    let tests: Vec<String> = opts.tests.iter().map(|t| t.display().to_string()).collect();
    let (subjects, unreadable) = subjects(&tests);
    let mut failed = !unreadable.is_empty();
    for u in &unreadable {
        let _ = writeln!(err, "error: {u}");
    }
    let mut writer: Option<Writer> = None;
    for log in &opts.logs {
        let text = match std::fs::read_to_string(log) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "error: {log}: cannot read: {e}");
                failed = true;
                continue;
            }
        };
        let imported = import_log(log, &text, &subjects, &opts.device);
        for r in &imported.rejected {
            let _ = writeln!(err, "not imported: {r}");
        }
        failed |= !imported.rejected.is_empty();
        let count = imported.records.len();
        for record in imported.records {
            // The file is made with the first record: an import of none
            // leaves the folder as it was.
            let written = match &mut writer {
                Some(w) => w.append(record),
                None => Writer::create(&into).and_then(|w| writer.insert(w).append(record)),
            };
            if let Err(e) = written {
                let _ = writeln!(
                    err,
                    "error: cannot write evidence to {}: {e}",
                    into.display()
                );
                return EXIT_FAILED;
            }
        }
        let _ = writeln!(
            out,
            "{log}: {count} record{} imported, {} test{} not imported, {} line{} without a hardware run",
            if count == 1 { "" } else { "s" },
            imported.rejected.len(),
            if imported.rejected.len() == 1 { "" } else { "s" },
            imported.skipped,
            if imported.skipped == 1 { "" } else { "s" },
        );
    }
    if let Some(w) = &writer {
        let _ = writeln!(out, "evidence written to {}", w.path().display());
    }
    if failed {
        EXIT_FAILED
    } else {
        EXIT_OK
    }
}
