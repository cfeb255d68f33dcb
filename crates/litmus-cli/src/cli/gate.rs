//! `gpu-litmus gate`: a model against recorded hardware evidence, no GPU.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use litmus_evidence::gate::{gate, recorded_subjects, GateReport, Question, Subject};
use litmus_evidence::Evidence;
use litmus_model::{model_by_name, Model, Options};
use litmus_runner::report::junit;
use serde_json::json;

use super::args::{number, request, Args, Format, Parsed};
use super::subjects::subjects;
use super::{EXIT_FAILED, EXIT_OK};

const HELP: &str =
    "gpu-litmus gate: judge a memory model against recorded hardware evidence (no GPU)

USAGE:
    gpu-litmus gate --model NEW [--baseline OLD] --evidence DIR [OPTIONS] [FILE|DIR...]

Reads every evidence file (*.jsonl, written by `run --evidence`, by cargo
tests with LITMUS_EVIDENCE, or by `evidence import`) under each --evidence
path, and the tests in FILE|DIR (a folder: every .litmus file below it).
Evidence belongs to a test when its name and IR hash match, so evidence
recorded before a test was edited is not used for the edited test.

For every test with evidence, each outcome the hardware ever showed that
NEW forbids is a failure (the model is unsound for that hardware), printed
with the test, the outcome, the devices and counts that showed it, and
NEW's reason (axiom and witness, as `explain` gives it). Outcomes NEW
allows only with more loop iterations than --loop-bound are no failure.

With --baseline, also lists every outcome whose verdict differs between
OLD and NEW (newly allowed, newly forbidden), marked with how often the
hardware showed it, `never observed`, or `no evidence` for the test.

With --recorded (or with no FILE|DIR at all), every test of the evidence
that no FILE|DIR gives is judged too, read from the `.litmus` text recorded
with it: the IR the hardware ran (the `litmus!` catalogue's tests, older
versions of edited tests). Without it, evidence that matches no test given
is reported (`stale` when a test of that name was given with another IR),
as is every line of the evidence that is not a record; neither is dropped
silently.

OPTIONS:
    --model NAME        the model judged: ptx, sc, ptx-2015 (required)
    --baseline NAME     the model it replaces: list the verdict flips
    --evidence PATH     an evidence folder or file (repeatable; required)
    --format FORMAT     text (default) or json: one JSON object per line,
                        {\"kind\": \"failure\"|\"flip\"|\"unmatched\"|\"problem\"|
                        \"error\", ...}, then {\"kind\": \"summary\", ...}
    --report DIR        write DIR/junit-gpu-litmus-gate.xml: one case per test,
                        failed when the hardware showed an outcome NEW forbids
    --recorded          also judge the evidence's tests that no FILE|DIR gives,
                        from their recorded text (implied without FILE|DIR)
    --loop-bound N      the model's loop bound (default 1)
    --max-events N      the most events (initial writes included) a test
                        may have to be judged (default 96); a larger test
                        or record is a failure, one line, not a pass
    --max-seconds N     the longest the model may take over one test
                        (default 5; the repository's take milliseconds);
                        a test that takes longer is a failure, one line
    -h, --help          print this help

EXIT STATUS:
    0  no observed outcome is forbidden by NEW
    1  some observed outcome is forbidden, a test could not be read or checked,
       or a line of the evidence is corrupt
    2  the command line is wrong
";

const USAGE: &str = "USAGE:
    gpu-litmus gate --model NEW [--baseline OLD] --evidence DIR
                    [--format text|json] [--report DIR] [--recorded]
                    [--loop-bound N] [--max-events N] [--max-seconds N]
                    [FILE|DIR...]

For more, try `gpu-litmus gate --help`.";

/// The default of `--max-seconds`.
const GATE_SECONDS: u64 = 5;

struct GateOptions {
    model: &'static dyn Model,
    baseline: Option<&'static dyn Model>,
    evidence: Vec<PathBuf>,
    format: Format,
    report: Option<PathBuf>,
    recorded: bool,
    options: Options,
    paths: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Parsed<GateOptions>, String> {
    let mut model = None;
    let mut baseline = None;
    let mut evidence = Vec::new();
    let mut format = Format::Text;
    let mut report = None;
    let mut recorded = false;
    // A record is judged in milliseconds; one that keeps the model longer
    // is refused well before it keeps a CI job (check's 120 s is for a
    // person who asked for that test).
    let mut options = Options {
        max_time: Some(Duration::from_secs(GATE_SECONDS)),
        ..Options::default()
    };
    let mut paths = Vec::new();
    let mut scan = Args::new(args);
    let by_name = |name: String| model_by_name(&name).map_err(|e| e.to_string());
    while let Some((flag, inline)) = scan.next_flag(&mut paths) {
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--model" => model = Some(by_name(scan.value(&flag, inline)?)?),
            "--baseline" => baseline = Some(by_name(scan.value(&flag, inline)?)?),
            "--evidence" => {
                evidence.push(PathBuf::from(non_empty(&flag, scan.value(&flag, inline)?)?))
            }
            "--format" => {
                format = Format::parse(&scan.value(&flag, inline)?, &[Format::Text, Format::Json])?
            }
            "--report" => {
                report = Some(PathBuf::from(non_empty(&flag, scan.value(&flag, inline)?)?))
            }
            "--recorded" => recorded = true,
            "--max-seconds" => {
                let secs = number(&flag, &scan.value(&flag, inline)?, 1u64)?;
                options.max_time = Some(Duration::from_secs(secs));
            }
            "--max-events" => {
                options.max_events = number(&flag, &scan.value(&flag, inline)?, 1usize)?
            }
            "--loop-bound" => {
                options.loop_bound = number(&flag, &scan.value(&flag, inline)?, 1u32)?
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let model = model.ok_or("`--model` is required: the model to judge")?;
    if evidence.is_empty() {
        return Err("`--evidence` is required: a folder of recorded evidence".into());
    }
    Ok(Parsed::Work(GateOptions {
        model,
        baseline,
        evidence,
        format,
        report,
        recorded: recorded || paths.is_empty(),
        options,
        paths,
    }))
}

/// `flag`'s value, refused when empty.
pub fn non_empty(flag: &str, value: String) -> Result<String, String> {
    if value.is_empty() {
        Err(format!("`{flag}` needs a path"))
    } else {
        Ok(value)
    }
}

/// Runs `gpu-litmus gate` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let opts = match request(parse_args(args), HELP, USAGE, out, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if let Some(dir) = &opts.report {
        let inputs: Vec<&std::path::Path> = opts.evidence.iter().map(PathBuf::as_path).collect();
        if !super::outputs::clear(dir, &inputs, err) {
            return EXIT_FAILED;
        }
    }
    let Some(evidence) = read_evidence(&opts.evidence, err) else {
        return EXIT_FAILED;
    };
    let (mut subjects, mut unreadable) = subjects(&opts.paths);
    if opts.recorded {
        let (more, problems) = recorded_subjects(&evidence, &subjects);
        subjects.extend(more);
        unreadable.extend(problems);
    }
    let question = Question {
        model: opts.model,
        baseline: opts.baseline,
        options: &opts.options,
    };
    let report = gate(&subjects, &evidence, &question);
    // `--format` takes text or json only (see parse_args).
    let text = match opts.format {
        Format::Json => json_lines(&report, &evidence, &unreadable),
        // Names come from files anyone writes: never raw to a terminal.
        _ => litmus_core::printable::escaped_lines(&text(&report, &evidence, &unreadable, &opts))
            .into_owned(),
    };
    if out.write_all(text.as_bytes()).is_err() {
        return EXIT_FAILED;
    }
    if let Some(dir) = &opts.report {
        if let Err(e) = write_junit(dir, &subjects, &report) {
            let _ = writeln!(err, "error: cannot write {}: {e}", dir.display());
            return EXIT_FAILED;
        }
    }
    if report.passed() && unreadable.is_empty() && evidence.errors().next().is_none() {
        EXIT_OK
    } else {
        EXIT_FAILED
    }
}

/// The evidence under `paths`, or `None` once the reason it cannot be read
/// is written to `err`.
pub fn read_evidence(paths: &[PathBuf], err: &mut dyn Write) -> Option<Evidence> {
    match Evidence::read(paths) {
        Ok(e) => Some(e),
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            None
        }
    }
}

/// Where an outcome was seen: `NVIDIA H100 80GB HBM3: 1234`.
fn devices(seen: &litmus_evidence::gate::Seen) -> String {
    seen.devices
        .iter()
        .map(|(d, c)| format!("{d}: {c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn observed(o: Option<u64>) -> String {
    match o {
        None => "no evidence".into(),
        Some(0) => "never observed".into(),
        Some(n) => format!("observed {n} time{}", if n == 1 { "" } else { "s" }),
    }
}

fn text(
    report: &GateReport,
    evidence: &Evidence,
    unreadable: &[String],
    opts: &GateOptions,
) -> String {
    let mut s = String::new();
    for u in unreadable {
        s.push_str(&format!("error: {u}\n"));
    }
    for p in &evidence.problems {
        let level = if p.is_error() { "error" } else { "warning" };
        s.push_str(&format!("{level}: {p}\n"));
    }
    for e in &report.errors {
        s.push_str(&format!(
            "FAIL {}: {}: cannot check: {}\n",
            e.file, e.test, e.message
        ));
    }
    for v in &report.violations {
        s.push_str(&format!(
            "FAIL {}: {}: the hardware showed `{}` ({} time{}: {}), which {} forbids\n{}\n",
            v.file,
            v.test,
            v.seen.text,
            v.seen.count,
            if v.seen.count == 1 { "" } else { "s" },
            devices(&v.seen),
            opts.model.name(),
            indent(&v.explanation)
        ));
    }
    if let Some(baseline) = opts.baseline {
        s.push_str(&format!(
            "verdict flips from {} to {}: {}\n",
            baseline.name(),
            opts.model.name(),
            report.flips.len()
        ));
        for f in &report.flips {
            s.push_str(&format!(
                "  {:<16} {}: {}: {}  [{}]\n",
                f.kind.as_str(),
                f.file,
                f.test,
                f.text,
                observed(f.observed)
            ));
        }
    }
    for u in &report.unmatched {
        s.push_str(&format!(
            "unmatched evidence: test `{}` (IR {}, {} record{}): {}\n",
            u.test,
            u.ir_hash,
            u.records,
            if u.records == 1 { "" } else { "s" },
            if u.stale {
                "stale: a test of that name was given, with another IR (edited since it was recorded)"
            } else {
                "no test of that name was given"
            }
        ));
    }
    s.push_str(&report.summary());
    s.push('\n');
    s
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn json_lines(report: &GateReport, evidence: &Evidence, unreadable: &[String]) -> String {
    let mut lines = Vec::new();
    for u in unreadable {
        lines.push(json!({"kind": "error", "message": u}));
    }
    for p in &evidence.problems {
        lines.push(json!({
            "kind": "problem",
            "file": p.file,
            "line": p.line,
            "error": p.is_error(),
            "message": p.to_string(),
        }));
    }
    for e in &report.errors {
        lines.push(json!({"kind": "error", "file": e.file, "test": e.test, "message": e.message}));
    }
    for v in &report.violations {
        lines.push(json!({
            "kind": "failure",
            "file": v.file,
            "test": v.test,
            "outcome": v.seen.values,
            "text": v.seen.text,
            "count": v.seen.count,
            "devices": v.seen.devices,
            "explanation": v.explanation,
        }));
    }
    for f in &report.flips {
        lines.push(json!({
            "kind": "flip",
            "file": f.file,
            "test": f.test,
            "text": f.text,
            "flip": f.kind.as_str(),
            "observed": f.observed,
        }));
    }
    for u in &report.unmatched {
        lines.push(json!({
            "kind": "unmatched",
            "test": u.test,
            "ir_hash": u.ir_hash,
            "records": u.records,
            "stale": u.stale,
        }));
    }
    lines.push(json!({
        "kind": "summary",
        "tests": report.tests,
        "with_evidence": report.with_evidence,
        "records": report.records,
        "instances": report.instances,
        "devices": report.devices,
        "failures": report.violations.len() + report.errors.len(),
        "flips": report.flips.len(),
        "unmatched": report.unmatched.len(),
        "passed": report.passed(),
    }));
    lines.iter().map(|l| format!("{l}\n")).collect()
}

fn write_junit(
    dir: &std::path::Path,
    subjects: &[Subject],
    report: &GateReport,
) -> std::io::Result<()> {
    let cases: Vec<junit::Case> = subjects
        .iter()
        .map(|s| {
            let mut failure: Vec<String> = report
                .violations
                .iter()
                .filter(|v| v.file == s.file && v.test == s.test.name.text)
                .map(|v| {
                    format!(
                        "the hardware showed `{}` ({}), which the model forbids\n{}",
                        v.seen.text,
                        devices(&v.seen),
                        v.explanation
                    )
                })
                .collect();
            failure.extend(
                report
                    .errors
                    .iter()
                    .filter(|e| e.file == s.file && e.test == s.test.name.text)
                    .map(|e| format!("cannot check: {}", e.message)),
            );
            junit::Case {
                name: format!("{}: {}", s.file, s.test.name.text),
                time: Duration::ZERO,
                failure: (!failure.is_empty()).then(|| failure.join("\n")),
                skipped: None,
                output: String::new(),
            }
        })
        .collect();
    std::fs::create_dir_all(dir)?;
    litmus_core::files::write_atomic(
        &dir.join("junit-gpu-litmus-gate.xml"),
        junit::render("gpu-litmus-gate", &cases).as_bytes(),
    )
}
