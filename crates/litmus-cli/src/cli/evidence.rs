//! `gpu-litmus evidence import`: results of other runs become evidence:
//! the lines `gpu-litmus run --format json` prints, and litmus7's logs.
//! (`evidence merge` is its own file, `evidence_merge.rs`.)

use std::io::Write;
use std::path::PathBuf;
use std::time::SystemTime;

use litmus_core::outcome::observables;
use litmus_evidence::gate::Subject;
use litmus_evidence::litmus7;
use litmus_evidence::store::{rfc3339, Writer};
use litmus_evidence::{Observation, Record};
use serde_json::Value;

use super::args::{request, Args, Parsed};
use super::gate::non_empty;
use super::outcome;
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

/// What one log gave.
#[derive(Default)]
struct Imported {
    records: Vec<Record>,
    /// `LOG:LINE: why`, one per test not imported.
    rejected: Vec<String>,
    /// Lines without a hardware run.
    skipped: usize,
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
        let imported = if text.trim_start().starts_with('{') {
            json_log(log, &text, &subjects)
        } else {
            litmus7_log(log, &text, &subjects, &opts.device)
        };
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

/// The given test called `name`, preferring the one read from `file`.
fn find<'a>(subjects: &'a [Subject], name: &str, file: Option<&str>) -> Option<&'a Subject> {
    let mut named = subjects.iter().filter(|s| s.test.name.text == name);
    let first = named.clone().next();
    named.find(|s| Some(s.file.as_str()) == file).or(first)
}

/// A record for `subject` with what every import shares.
fn record(subject: &Subject, harness: String) -> Record {
    let test = &subject.test;
    Record {
        run: String::new(),
        seq: 0,
        test: test.name.text.clone(),
        ir_hash: subject.hash.clone(),
        source: subject.file.clone(),
        text: Some(litmus_core::text::print(test)),
        observables: observables(test).iter().map(|o| o.display(test)).collect(),
        histogram: Vec::new(),
        instances: 0,
        unfinished: 0,
        device: String::new(),
        driver: None,
        build: None,
        knobs: None,
        seed: None,
        date: rfc3339(SystemTime::now()),
        version: env!("CARGO_PKG_VERSION").to_string(),
        harness,
        kind: Default::default(),
    }
}

/// `run --format json` lines: one record per line whose hardware ran.
fn json_log(log: &str, text: &str, subjects: &[Subject]) -> Imported {
    let mut imported = Imported::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{log}:{}", i + 1);
        match json_line(line, subjects, &at) {
            Ok(Some(r)) => imported.records.push(r),
            Ok(None) => imported.skipped += 1,
            Err(why) => imported.rejected.push(format!("{at}: {why}")),
        }
    }
    imported
}

fn json_line(line: &str, subjects: &[Subject], at: &str) -> Result<Option<Record>, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    if v.get("error").is_some() || v["hardware"]["status"] != "ran" {
        return Ok(None);
    }
    let name = v["test"].as_str().ok_or("no `test` field")?;
    let subject = find(subjects, name, v["file"].as_str())
        .ok_or(format!("test `{name}`: no test of that name among --tests"))?;
    let mut r = record(subject, format!("gpu-litmus run --format json ({at})"));
    let given: Vec<&str> = v["observables"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if given != r.observables {
        return Err(format!(
            "test `{name}`: the log observes [{}], the test given observes [{}] (edited since?)",
            given.join(", "),
            r.observables.join(", ")
        ));
    }
    for h in v["histogram"].as_array().ok_or("no `histogram` array")? {
        let values = h["outcome"]
            .as_array()
            .and_then(|a| {
                a.iter()
                    .map(|x| x.as_u64().and_then(|n| u32::try_from(n).ok()))
                    .collect::<Option<Vec<u32>>>()
            })
            .filter(|vals| vals.len() == r.observables.len())
            .ok_or(format!(
                "test `{name}`: a histogram entry's `outcome` is not one number per observable"
            ))?;
        let count = h["count"]
            .as_u64()
            .ok_or(format!("test `{name}`: a histogram entry has no `count`"))?;
        let text = h["text"].as_str().unwrap_or_default().to_string();
        r.histogram.push(Observation {
            values,
            text,
            count,
        });
    }
    r.instances = v["instances"]
        .as_u64()
        .ok_or(format!("test `{name}`: no `instances`"))?;
    r.unfinished = v["unfinished"].as_u64().unwrap_or(0);
    r.device = v["device"]
        .as_str()
        .ok_or(format!("test `{name}`: no `device`"))?
        .to_string();
    r.seed = v["seed"].as_u64();
    r.knobs = v["knobs"].as_str().map(str::to_string);
    Ok(Some(r))
}

/// A litmus7 log: one record per test.
fn litmus7_log(log: &str, text: &str, subjects: &[Subject], device: &str) -> Imported {
    let mut imported = Imported::default();
    let tests = match litmus7::parse(text) {
        Ok(t) => t,
        Err(e) => {
            imported
                .rejected
                .push(format!("{log}:{}: {}", e.line, e.message));
            return imported;
        }
    };
    for t in tests {
        let Some(subject) = find(subjects, &t.name, None) else {
            imported.rejected.push(format!(
                "{log}:{}: test `{}`: no test of that name among --tests",
                t.line, t.name
            ));
            continue;
        };
        let mut r = record(subject, format!("litmus7 log ({log})"));
        r.device = device.to_string();
        r.instances = t.instances();
        let histogram: Result<Vec<Observation>, String> = t
            .states
            .iter()
            .map(|s| {
                let text = s.outcome_text();
                outcome::parse(&subject.test, &text)
                    .map(|values| Observation {
                        values,
                        text: text.clone(),
                        count: s.count,
                    })
                    .map_err(|e| {
                        format!("{log}:{}: test `{}`: state `{text}`: {e}", s.line, t.name)
                    })
            })
            .collect();
        match histogram {
            Ok(h) => {
                r.histogram = h;
                imported.records.push(r);
            }
            Err(e) => imported.rejected.push(e),
        }
    }
    imported
}
