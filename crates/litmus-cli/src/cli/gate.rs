//! `gpu-litmus gate`: a model against recorded hardware evidence, no GPU.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use litmus_evidence::gate::{gate, recorded_subjects, GateReport, Question};
use litmus_evidence::Evidence;
use litmus_model::{model_by_name, Model, Options};
use litmus_runner::report::{json, junit};

use super::args::{whole, Format, Refusal};
use super::run::folder;
use super::subjects::subjects;
use super::{EXIT_FAILED, EXIT_OK};

/// judge a model against recorded hardware evidence (no GPU)
///
/// Reads every evidence file (*.jsonl, written by `run --evidence`, by cargo
/// tests with LITMUS_EVIDENCE, or by `evidence import`; or such a file
/// gzipped, *.jsonl.gz) under each --evidence path, and the tests in
/// FILE|DIR (a folder: every .litmus file below it).
/// Evidence belongs to a test when its name and IR hash match, so evidence
/// recorded before a test was edited is not used for the edited test.
///
/// For every test with evidence, each outcome the hardware ever showed that
/// NEW forbids is a failure (the model is unsound for that hardware), printed
/// with the test, the outcome, the devices and counts that showed it, and
/// NEW's reason (axiom and witness, as `explain` gives it). Outcomes NEW
/// allows only with more loop iterations than --loop-bound are no failure.
///
/// With --baseline, also lists every outcome whose verdict differs between
/// OLD and NEW (newly allowed, newly forbidden), marked with how often the
/// hardware showed it, `never observed`, or `no evidence` for the test.
///
/// With --recorded (or with no FILE|DIR at all), every test of the evidence
/// that no FILE|DIR gives is judged too, read from the `.litmus` text recorded
/// with it: the IR the hardware ran (the `litmus!` catalogue's tests, older
/// versions of edited tests). Without it, evidence that matches no test given
/// is reported (`stale` when a test of that name was given with another IR),
/// as is every line of the evidence that is not a record; neither is dropped
/// silently.
#[derive(clap::Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct GateArgs {
    // Its help lists the registry's models.
    #[arg(long, value_name = "NEW", help = format!("the model judged (required): {}, or a .cat file", litmus_model::model_names()))]
    model: Option<String>,
    /// the model it replaces: list the verdict flips
    #[arg(long, value_name = "OLD")]
    baseline: Option<String>,
    /// an evidence folder or file (repeatable; required)
    #[arg(long, value_name = "PATH", value_parser = folder)]
    evidence: Vec<PathBuf>,
    /// text (default) or json: one JSON object per line, {"kind":
    /// "failure"|"flip"|"unmatched"|"problem"|"error", ...}, then {"kind":
    /// "summary", ...}
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = Format::of(&[Format::Text, Format::Json]))]
    format: Format,
    /// write DIR/junit-gpu-litmus-gate.xml: one case per test, failed when
    /// the hardware showed an outcome NEW forbids
    #[arg(long, value_name = "DIR", value_parser = folder)]
    report: Option<PathBuf>,
    /// also judge the evidence's tests that no FILE|DIR gives, from their
    /// recorded text (implied without FILE|DIR)
    #[arg(long)]
    recorded: bool,
    /// the model's loop bound (default 1)
    #[arg(long, value_name = "N", value_parser = whole(1u32))]
    loop_bound: Option<u32>,
    /// the most events (initial writes included) a test may have to be
    /// judged (default 96); a larger test or record is a failure, one line,
    /// not a pass
    #[arg(long, value_name = "N", value_parser = whole(1usize))]
    max_events: Option<usize>,
    /// the longest the model may take over one test (default 5; the
    /// repository's take milliseconds); a test that takes longer is a
    /// failure, one line
    #[arg(long, value_name = "N", value_parser = whole(1u64))]
    max_seconds: Option<u64>,
    /// the tests: .litmus files, and folders searched for them
    #[arg(value_name = "FILE|DIR")]
    paths: Vec<String>,
}

const AFTER_HELP: &str = "EXIT STATUS:
    0  no observed outcome is forbidden by NEW
    1  some observed outcome is forbidden, a test could not be read or checked,
       or a line of the evidence is corrupt
    2  the command line is wrong
";

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

impl GateArgs {
    /// The gate's options, or why the command line cannot give them.
    fn options(self) -> Result<GateOptions, Refusal> {
        let model = self
            .model
            .ok_or("`--model` is required: the model to judge")?;
        let model = model_by_name(&model)?;
        let baseline = self.baseline.map(|b| model_by_name(&b)).transpose()?;
        if self.evidence.is_empty() {
            return Err("`--evidence` is required: a folder of recorded evidence".into());
        }
        let d = Options::default();
        // A record is judged in milliseconds; one that keeps the model
        // longer is refused well before it keeps a CI job (check's 120 s is
        // for a person who asked for that test).
        let seconds = self.max_seconds.unwrap_or(GATE_SECONDS);
        let options = Options {
            max_time: Some(Duration::from_secs(seconds)),
            max_events: self.max_events.unwrap_or(d.max_events),
            loop_bound: self.loop_bound.unwrap_or(d.loop_bound),
            ..d
        };
        Ok(GateOptions {
            model,
            baseline,
            evidence: self.evidence,
            format: self.format,
            report: self.report,
            recorded: self.recorded || self.paths.is_empty(),
            options,
            paths: self.paths,
        })
    }
}

/// Runs `gpu-litmus gate` as `args` ask.
pub fn run(args: GateArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let opts = match args.options() {
        Ok(r) => r,
        Err(refusal) => return refusal.print("gate", err),
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
    // `--format` takes text or json only (see GateArgs).
    let text = match opts.format {
        Format::Json => json::gate::lines(&report, &evidence, &unreadable),
        // Names come from files anyone writes: never raw to a terminal.
        _ => litmus_core::printable::escaped_lines(&text(&report, &evidence, &unreadable, &opts))
            .into_owned(),
    };
    if out.write_all(text.as_bytes()).is_err() {
        return EXIT_FAILED;
    }
    if let Some(dir) = &opts.report {
        if let Err(e) = junit::write_gate(dir, &subjects, &report) {
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
        s.push_str(&format!("{}: {p}\n", p.level()));
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
            v.seen.places(),
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
