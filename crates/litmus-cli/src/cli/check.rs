//! `gpu-litmus check`: checks `.litmus` files with a memory model alone.

mod termination;

use std::io::Write;
use std::time::Instant;

use litmus_core::ir::Test;
use litmus_model::{check, CheckResult, Model, Options};
use litmus_runner::report;
use litmus_runner::report::json::check::CheckRecord;

use super::args::{Format, Limits, ModelArg, Refusal};
use super::load::load;
use super::{EXIT_FAILED, EXIT_OK};

/// check .litmus files with a memory model alone (no GPU)
///
/// For each file, and each .litmus file under each folder given, enumerates
/// the candidate executions of the test, keeps those the model allows, and
/// reports the allowed outcomes and whether the test's claim holds (exists:
/// the condition is reachable; ~exists: it is not; forall: every allowed
/// outcome satisfies it). A verdict declared in the file (`=> allowed` /
/// `=> forbidden`) that the model contradicts fails the file.
#[derive(clap::Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct CheckArgs {
    #[command(flatten)]
    model: ModelArg,
    /// text (default), json or herd. json: one JSON object per file and
    /// line, with the fields file, name, model, quantifier,
    /// condition_reachable, claim_holds, verdict, bounded, allowed_outcomes,
    /// consistent_executions, candidate_executions, micros (and
    /// declared_verdict when the file declares one); a file that cannot be
    /// read, parsed or checked gives {"file", "error"}. herd: herd7's result
    /// block per test, to compare with herd7's output line by line
    /// (mcompare7 reads it); see HERD FORMAT below
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = Format::of(&[Format::Text, Format::Json, Format::Herd]))]
    format: Format,
    #[command(flatten)]
    limits: Limits,
    /// check termination instead (Dat3M's TERMINATION): per file
    /// `terminates`, or `may hang:` and where a thread spins forever on
    /// final values or waits forever at a barrier. json: file, name, model,
    /// terminates, stuck (null, or per thread: thread, kind spin|barrier,
    /// instruction, label and reads, or barrier), bounded,
    /// consistent_executions, micros (and declared_termination). A declared
    /// `=> terminates` or `=> may hang` that the model contradicts fails the
    /// file
    #[arg(long)]
    termination: bool,
    /// enumerate every consistent execution, so that the execution counts
    /// are complete (by default the search stops at one consistent
    /// execution per outcome: the same outcomes and verdicts, much faster)
    #[arg(long)]
    all_executions: bool,
    /// the tests: .litmus files, and folders searched for them
    #[arg(value_name = "FILE|DIR")]
    files: Vec<String>,
}

const AFTER_HELP: &str = "HERD FORMAT (--format herd), one block per file, as herd7 prints it:
    Test MP Allowed
    States 3
    1:r0=0; 1:r1=0;
    1:r0=0; 1:r1=1;
    1:r0=1; 1:r1=1;
    No
    Witnesses
    Positive: 0 Negative: 3
    Condition exists (1:r0=1 /\\ 1:r1=0)
    Observation MP Never 0 3
    Time MP 0.00
    (then an empty line). Allowed, Forbidden or Required for exists, ~exists
    or forall; each final state the model allows, registers as
    THREAD-NUMBER:REG and locations as [x]; Ok or No: whether the claim
    holds (Loop Ok, Loop No: loops were cut at the loop bound); Positive and
    Negative: executions whose final state satisfies the condition's
    expression or not (swapped for ~exists); Observation: Never, Sometimes
    or Always, with the same two counts unswapped. No Hash= line. A file
    that cannot be read or checked, or whose declared verdict the model
    contradicts, is said on stderr.

ENVIRONMENT:
    LITMUS_MODEL        the model when --model is not given

EXIT STATUS:
    0  every file was checked and no declared verdict was contradicted
    1  some file failed (unreadable, invalid, over budget, or its declared
       verdict disagrees with the model); the other files are still checked
    2  the command line is wrong
";

struct Request {
    model: &'static dyn Model,
    format: Format,
    options: Options,
    files: Vec<String>,
    termination: bool,
}

impl CheckArgs {
    /// The request, or why the command line cannot be one.
    fn request(self) -> Result<Request, Refusal> {
        let model = self.model.model()?;
        if self.files.is_empty() {
            return Err("no files to check".into());
        }
        if self.termination && self.format == Format::Herd {
            return Err("`--termination` has no herd format; use text or json".into());
        }
        let options = Options {
            // herd7's Positive and Negative count every consistent
            // execution: only the full enumeration has them all.
            all_executions: self.all_executions || self.format == Format::Herd,
            ..self.limits.options()
        };
        Ok(Request {
            model,
            format: self.format,
            options,
            files: self.files,
            termination: self.termination,
        })
    }
}

/// Runs `gpu-litmus check` as `args` ask.
pub fn run(args: CheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let mut req = match args.request() {
        Ok(r) => r,
        Err(refusal) => return refusal.print("check", err),
    };
    // A folder stands for the tests under it; one that cannot be read is
    // a failed file, and the others are still checked.
    let (files, refused) = super::load::expand(&req.files);
    req.files = files;
    for why in &refused {
        let _ = writeln!(err, "{why}");
    }
    let mut status = if refused.is_empty() {
        EXIT_OK
    } else {
        EXIT_FAILED
    };
    if req.termination {
        let checked = termination::run(&req.files, req.model, &req.options, req.format, out);
        return status.max(checked);
    }
    // Files are independent: check them on every core, report in order.
    let check_one = |i: usize| {
        let start = Instant::now();
        let report = check_file(&req.files[i], &req);
        (report, start.elapsed().as_micros())
    };
    super::parallel::in_order(
        req.files.len(),
        super::parallel::cores(),
        check_one,
        |i, (report, micros)| {
            let file = &req.files[i];
            if !report.ok() {
                status = EXIT_FAILED;
            }
            let written = match req.format {
                Format::Json => writeln!(out, "{}", report.json(file, req.model, micros)),
                Format::Herd => {
                    // stdout stays herd7's blocks alone; what they cannot
                    // say goes to stderr.
                    if let Some(note) = report.herd_note(file) {
                        let _ = write!(err, "{note}");
                    }
                    write!(out, "{}", report.herd())
                }
                // Names come from files anyone writes: never raw to a
                // terminal.
                _ => write!(
                    out,
                    "{}",
                    litmus_core::printable::escaped_lines(&report.text(file, req.model, micros))
                ),
            };
            // stdout gone (a closed pipe): nothing more can be reported.
            written.is_ok() || {
                status = EXIT_FAILED;
                false
            }
        },
    );
    status
}

enum Report {
    Checked {
        test: Box<Test>,
        result: CheckResult,
    },
    Failed(String),
}

impl Report {
    fn ok(&self) -> bool {
        match self {
            Report::Checked { test, result } => {
                test.verdict.is_none_or(|d| d.verdict == result.verdict())
            }
            Report::Failed(_) => false,
        }
    }

    fn json(&self, file: &str, model: &dyn Model, micros: u128) -> String {
        let line = match self {
            Report::Failed(msg) => serde_json::to_string(&report::json::ErrorLine::new(file, msg)),
            Report::Checked { test, result } => serde_json::to_string(&CheckRecord::of(
                file,
                test,
                model.name(),
                result,
                micros as u64,
            )),
        };
        line.expect("a check record serializes")
    }

    /// herd7's block; nothing for a file that could not be checked.
    fn herd(&self) -> String {
        match self {
            Report::Checked { test, result } => report::herd::block(test, result),
            Report::Failed(_) => String::new(),
        }
    }

    /// What herd7's block leaves out: why a file could not be checked, a
    /// declared verdict the model contradicts.
    fn herd_note(&self, file: &str) -> Option<String> {
        match self {
            Report::Failed(msg) => Some(format!("{msg}\n")),
            Report::Checked { test, result } => {
                let declared = test.verdict?.verdict;
                (declared != result.verdict()).then(|| {
                    format!(
                        "{file}: declared `=> {}` but the model says {}\n",
                        declared.as_str(),
                        result.verdict().as_str()
                    )
                })
            }
        }
    }

    fn text(&self, file: &str, model: &dyn Model, micros: u128) -> String {
        let (test, r) = match self {
            Report::Failed(msg) => return format!("{msg}\n"),
            Report::Checked { test, result } => (test, result),
        };
        let claim = if r.claim_holds {
            "holds"
        } else {
            "does not hold"
        };
        let mut s = format!(
            "{file}: {} under {}: `{}` claim {claim} (outcome {}); {} allowed outcome{}; {} consistent of {} candidate executions{}; {:.3} ms\n",
            test.name.text,
            model.name(),
            r.quantifier.as_str(),
            r.verdict().as_str(),
            r.allowed.len(),
            if r.allowed.len() == 1 { "" } else { "s" },
            r.consistent_executions,
            r.candidate_executions,
            if r.bounded { " (loops cut at the loop bound)" } else { "" },
            micros as f64 / 1000.0,
        );
        if let Some(d) = test.verdict {
            if d.verdict != r.verdict() {
                s.push_str(&format!(
                    "  declared `=> {}` but the model says {}\n",
                    d.verdict.as_str(),
                    r.verdict().as_str()
                ));
            }
        }
        for line in r.outcome_lines(test) {
            s.push_str(&format!("  {line}\n"));
        }
        s
    }
}

fn check_file(file: &str, req: &Request) -> Report {
    let loaded = match load(file) {
        Ok(l) => l,
        Err(msg) => return Report::Failed(msg),
    };
    match check(&loaded.test, req.model, &req.options) {
        Ok(result) => Report::Checked {
            test: Box::new(loaded.test),
            result,
        },
        // The error is about the whole test: it points at the header.
        Err(e) => Report::Failed(format!("{file}:{}: {e}", loaded.header())),
    }
}
