//! `gpu-litmus evidence merge`: joins the evidence folders of several jobs
//! (the shards of a Slurm array or a CI matrix) into one.

use std::io::Write;
use std::path::PathBuf;

use litmus_evidence::merge::merge;

use super::args::Refusal;
use super::{EXIT_FAILED, EXIT_OK};

/// join evidence folders into one
///
/// Reads every evidence file (*.jsonl or *.jsonl.gz, at any depth) of each
/// DIR and writes each record it holds once into one new file in OUT
/// (created if missing): a record is its run and number, so a record found
/// in two inputs, or already in OUT, is written once. Records keep their
/// run and number, so the merged folder and the inputs read together still
/// count each record once.
/// `gate --evidence OUT` and `report --evidence OUT` then read the union.
///
/// A line that is not a record is skipped and named (file and line), and so
/// is a record whose run and number OUT already holds with other contents,
/// and an input that does not exist (a job that never wrote); the merge goes
/// on. The last line says:
///
/// `merged N records from M files (K duplicates, J unreadable lines)`
#[derive(clap::Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct MergeArgs {
    /// the folder to write into (created if missing); without it, the
    /// first path given is
    #[arg(long, value_name = "OUT", value_parser = super::run::folder)]
    out: Option<PathBuf>,
    /// the evidence folders and files to read (after OUT, without --out)
    #[arg(value_name = "[OUT] DIR|FILE")]
    paths: Vec<PathBuf>,
}

const AFTER_HELP: &str = "EXIT STATUS:
    0  every line read (a truncated last line, as a crash leaves, is no error)
    1  some line, record or input was skipped, or OUT could not be written
    2  the command line is wrong
";

/// Runs `gpu-litmus evidence merge` as `args` ask.
pub fn run(args: MergeArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let mut paths = args.paths.into_iter();
    let Some(into) = args.out.or_else(|| paths.next()) else {
        return Refusal::from("no OUT folder: `evidence merge OUT DIR...`")
            .print("evidence merge", err);
    };
    let inputs: Vec<PathBuf> = paths.collect();
    if inputs.is_empty() {
        return Refusal::from("no evidence to merge: `evidence merge OUT DIR...`")
            .print("evidence merge", err);
    }
    let merged = match merge(&into, &inputs) {
        Ok(m) => m,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_FAILED;
        }
    };
    for m in &merged.missing {
        let _ = writeln!(err, "skipped: {}: no such file or folder", m.display());
    }
    for p in &merged.problems {
        let _ = writeln!(err, "skipped: {p}");
    }
    for c in &merged.conflicts {
        let _ = writeln!(
            err,
            "skipped: record {c}: {} holds another record of that run and number",
            into.display()
        );
    }
    if let Some(path) = &merged.path {
        let _ = writeln!(out, "evidence written to {}", path.display());
    }
    let _ = writeln!(
        out,
        "merged {} records from {} files ({} duplicates, {} unreadable lines)",
        merged.written,
        merged.files,
        merged.duplicates,
        merged.problems.len()
    );
    if merged.has_errors() {
        EXIT_FAILED
    } else {
        EXIT_OK
    }
}
