//! `gpu-litmus evidence merge`: joins the evidence folders of several jobs
//! (the shards of a Slurm array or a CI matrix) into one.

use std::io::Write;
use std::path::PathBuf;

use litmus_evidence::merge::merge;

use super::args::{request, Args, Parsed};
use super::{EXIT_FAILED, EXIT_OK};

const HELP: &str = "gpu-litmus evidence merge: join evidence folders into one

USAGE:
    gpu-litmus evidence merge OUT DIR|FILE...

Reads every evidence file (*.jsonl, at any depth) of each DIR and writes
each record it holds once into one new file in OUT (created if missing):
a record is its run and number, so a record found in two inputs, or
already in OUT, is written once. Records keep their run and number, so the
merged folder and the inputs read together still count each record once.
`gate --evidence OUT` and `report --evidence OUT` then read the union.

A line that is not a record is skipped and named (file and line), and so
is a record whose run and number OUT already holds with other contents,
and an input that does not exist (a job that never wrote); the merge goes
on. The last line says:

    merged N records from M files (K duplicates, J unreadable lines)

OPTIONS:
    -h, --help          print this help

EXIT STATUS:
    0  every line read (a truncated last line, as a crash leaves, is no error)
    1  some line, record or input was skipped, or OUT could not be written
    2  the command line is wrong
";

const USAGE: &str = "USAGE:
    gpu-litmus evidence merge OUT DIR|FILE...

For more, try `gpu-litmus evidence merge --help`.";

fn parse_args(args: &[String]) -> Result<Parsed<(PathBuf, Vec<PathBuf>)>, String> {
    let mut paths = Vec::new();
    let mut scan = Args::new(args);
    if let Some((flag, _)) = scan.next_flag(&mut paths) {
        return match flag.as_str() {
            "-h" | "--help" => Ok(Parsed::Help),
            other => Err(format!("unknown option `{other}`")),
        };
    }
    let mut paths = paths.into_iter().map(PathBuf::from);
    let out = paths
        .next()
        .ok_or("no OUT folder: `evidence merge OUT DIR...`")?;
    let inputs: Vec<PathBuf> = paths.collect();
    if inputs.is_empty() {
        return Err("no evidence to merge: `evidence merge OUT DIR...`".into());
    }
    Ok(Parsed::Work((out, inputs)))
}

/// Runs `gpu-litmus evidence merge` with `args` (after `merge`).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let (into, inputs) = match request(parse_args(args), HELP, USAGE, out, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
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
