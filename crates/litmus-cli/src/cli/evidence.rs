//! `gpu-litmus evidence import`: results of other runs become evidence:
//! the lines `gpu-litmus run --format json` prints, and litmus7's logs.
//! (`evidence merge` is its own file, `evidence_merge.rs`.)

use std::io::Write;
use std::path::PathBuf;

use litmus_evidence::import::import_log;
use litmus_evidence::store::Writer;

use super::args::{request, Args, Parsed};
use super::gate::non_empty;
use super::subjects::subjects;
use super::{EXIT_FAILED, EXIT_OK};

const HELP: &str = "gpu-litmus evidence: import other runs' results as evidence, merge folders

USAGE:
    gpu-litmus evidence import --into DIR --tests FILE|DIR [--device NAME] LOG...
    gpu-litmus evidence merge OUT DIR...   (see `gpu-litmus evidence merge --help`)

Each LOG is read as the lines `gpu-litmus run --format json` prints (when
its first character is `{`) or as a litmus7 result log (`Test NAME ...`,
`Histogram (N states)`, `COUNT :>1:r0=1; ...`, `Positive: P, Negative: N`;
`gpu-litmus run --format litmus7` writes the same). Each test of a log is
matched by name to the tests given with --tests, and its outcomes are read
against that test's observables; the records, with the matched test's IR
hash and text, go to one new file in DIR (one file per import, as every run
writes its own).

A test of a log that matches no test given, whose observables differ from
the given test's, or whose outcomes do not read, is reported with the log's
file and line, and not imported. JSON lines without a hardware run (no GPU,
a file that did not parse) carry no evidence and are counted as skipped.

OPTIONS:
    --into DIR          the evidence folder to add to (required)
    --tests PATH        a .litmus file or a folder of them (repeatable;
                        required)
    --device NAME       the device a litmus7 log was recorded on (litmus7
                        logs do not say; default `unknown (litmus7 log)`)
    -h, --help          print this help

EXIT STATUS:
    0  every test of every log was imported (or skipped for having no run)
    1  some test was not matched or not read, or a log could not be read
    2  the command line is wrong
";

const USAGE: &str = "USAGE:
    gpu-litmus evidence import --into DIR --tests FILE|DIR [--device NAME] LOG...

For more, try `gpu-litmus evidence --help`.";

struct ImportOptions {
    into: PathBuf,
    tests: Vec<String>,
    device: String,
    logs: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Parsed<ImportOptions>, String> {
    let mut into = None;
    let mut tests = Vec::new();
    let mut device = "unknown (litmus7 log)".to_string();
    let mut logs = Vec::new();
    let mut scan = Args::new(args);
    while let Some((flag, inline)) = scan.next_flag(&mut logs) {
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--into" => into = Some(PathBuf::from(non_empty(&flag, scan.value(&flag, inline)?)?)),
            "--tests" => tests.push(non_empty(&flag, scan.value(&flag, inline)?)?),
            "--device" => device = non_empty(&flag, scan.value(&flag, inline)?)?,
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    match logs.first().map(String::as_str) {
        Some("import") => {
            logs.remove(0);
        }
        Some(other) => {
            return Err(format!(
                "unknown action `{other}`; the actions are: import, merge"
            ))
        }
        None => {
            return Err("no action: `gpu-litmus evidence import ...` or `... merge ...`".into())
        }
    }
    let into = into.ok_or("`--into` is required: the evidence folder")?;
    if tests.is_empty() {
        return Err("`--tests` is required: the tests the logs ran".into());
    }
    if logs.is_empty() {
        return Err("no logs to import".into());
    }
    Ok(Parsed::Work(ImportOptions {
        into,
        tests,
        device,
        logs,
    }))
}

/// Runs `gpu-litmus evidence` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    // `merge` takes other arguments: its own parser, before import's.
    if args.first().is_some_and(|a| a == "merge") {
        return super::evidence_merge::run(&args[1..], out, err);
    }
    let opts = match request(parse_args(args), HELP, USAGE, out, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let (subjects, unreadable) = subjects(&opts.tests);
    let mut failed = !unreadable.is_empty();
    for u in &unreadable {
        let _ = writeln!(err, "error: {u}");
    }
    let mut writer = None;
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
            if writer.is_none() {
                match Writer::create(&opts.into) {
                    Ok(w) => writer = Some(w),
                    Err(e) => {
                        let _ = writeln!(
                            err,
                            "error: cannot write evidence to {}: {e}",
                            opts.into.display()
                        );
                        return EXIT_FAILED;
                    }
                }
            }
            if let Some(Err(e)) = writer.as_mut().map(|w| w.append(record)) {
                let _ = writeln!(
                    err,
                    "error: cannot write evidence to {}: {e}",
                    opts.into.display()
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
