//! `gpu-litmus run`: runs `.litmus` files with the model and on the GPU,
//! side by side, and prints each outcome table with the model's verdict
//! beside the hardware's count.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use litmus_core::ir::Test;
use litmus_evidence::Kind;
use litmus_runner::config::Config;
use litmus_runner::device_pool;
use litmus_runner::report;
use litmus_runner::runner::{self, TestReport};
use litmus_tune::tuning::TuningFile;

use super::args::{whole, Format, ModelArg, Refusal};
use super::load::{load, load_for_devices, Loaded};
use super::progress::Progress;
use super::run_help::after_help;
use super::{Globals, EXIT_FAILED, EXIT_OK};
use litmus_runner::prefetch::Prefetch;

/// A file's report, the time it took and its test; or why it did not load.
type RunResult = Result<(TestReport, Duration, Test), String>;

/// run .litmus files with the model and on the GPU: outcome tables, verdicts
///
/// For each file, and each .litmus file under each folder given: the
/// model's allowed outcomes, the declared verdict against the model's, and
/// the GPU's histogram against the allowed set. Prints one summary line
/// (the verdicts, the hardware's figures and knobs) and the outcome table:
/// each outcome the model allows or the hardware showed, with the
/// hardware's count and the model's verdict; `*` marks the outcomes the
/// condition describes. Without a GPU the model half still runs and the
/// summary says `hardware: skipped, ...`.
///
/// A test fails when its declared verdict (`=> allowed` / `=> forbidden`)
/// is not the model's, when the hardware shows an outcome the model
/// forbids, or when the hardware half breaks (a kernel fault, a JIT error,
/// lost instances, a GPU required by LITMUS_REQUIRE_GPU=1 but missing). A
/// failing test prints what failed, the table, why each forbidden outcome
/// seen is forbidden (axiom and witness), and a line to reproduce it.
/// Allowed outcomes never seen, and whether the condition's outcome was
/// seen, are said but never fail a test.
#[derive(clap::Args)]
#[command(after_long_help = after_help())]
pub struct RunArgs {
    #[command(flatten)]
    model: ModelArg,
    /// GPU time per test, in milliseconds (default: $LITMUS_BUDGET_MS, else
    /// 1000)
    #[arg(long, value_name = "N", value_parser = whole(0u64))]
    budget_ms: Option<u64>,
    /// stop after N kernel launches instead of a time budget (default:
    /// $LITMUS_LAUNCHES)
    #[arg(long, value_name = "N", value_parser = whole(1u64))]
    launches: Option<u64>,
    /// seeds the permutations of roles and locations (default:
    /// $LITMUS_SEED, else from the clock); every result prints it
    #[arg(long, value_name = "N", value_parser = whole(0u64))]
    seed: Option<u64>,
    /// write a JSON record per test (TEST.json: test, model,
    /// declared_verdict, computed_verdict, allowed, histogram, device, seed,
    /// budget, passed, ...) and one JUnit file, junit-gpu-litmus.xml, into
    /// DIR (default: $LITMUS_REPORT_DIR)
    #[arg(long, value_name = "DIR", value_parser = folder)]
    report: Option<PathBuf>,
    /// record each hardware run's histogram, device, knobs and the test's
    /// IR hash as evidence in DIR (one .jsonl file per process) for
    /// `gpu-litmus gate` (default: $LITMUS_EVIDENCE)
    #[arg(long, value_name = "DIR", value_parser = folder)]
    pub(super) evidence: Option<PathBuf>,
    /// text (default), json or litmus7. json: one JSON object per file and
    /// line, the report's record plus `file`; a file that cannot be read or
    /// parsed gives {"file", "error"}; either has `report_error` when
    /// --report could not write its files. litmus7: litmus7's result block
    /// per test, to compare with litmus7's output line by line (mcompare7
    /// reads it); see LITMUS7 FORMAT below
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = Format::of(&[Format::Text, Format::Json, Format::Litmus7]))]
    pub(super) format: Format,
    /// the model's loop bound: how many times a loop body may run in an
    /// execution the model considers (default 1: an execution that takes a
    /// backward jump is dropped). Not LITMUS_LOOP_BOUND, which bounds how
    /// long a role may spin on the GPU (default 1000)
    #[arg(long, value_name = "N", value_parser = whole(1u32))]
    loop_bound: Option<u32>,
    /// compile each test's module with this ptxas for the GPU instead of
    /// the driver's JIT (default: $LITMUS_PTXAS); a path that is not ptxas
    /// is an error before anything runs
    #[arg(long, value_name = "PATH")]
    ptxas: Option<String>,
    /// per-test knobs from a tuning file (`gpu-litmus tune` writes one); a
    /// test with no entry runs the defaults (default: $LITMUS_TUNING, else
    /// litmus-tuning.toml in the current folder if there is one)
    #[arg(long, value_name = "FILE")]
    pub(super) tuning: Option<PathBuf>,
    /// the tests: .litmus files, and folders searched for them
    #[arg(value_name = "FILE|DIR")]
    pub(super) files: Vec<String>,
}

/// clap's value parser of a folder to write into: an empty name would
/// write into the current folder unasked.
pub(super) fn folder(text: &str) -> Result<PathBuf, String> {
    if text.is_empty() {
        return Err("needs a path".into());
    }
    Ok(text.into())
}

/// What `run` (and `campaign`, which takes the same options) is asked.
pub(super) struct Options {
    pub(super) config: Config,
    pub(super) format: Format,
    pub(super) files: Vec<String>,
}

impl RunArgs {
    /// The run's configuration: the environment's, and the flags over it;
    /// every variable is checked here, before any file runs and whether or
    /// not there is a GPU.
    pub(super) fn options(self) -> Result<Box<Options>, Refusal> {
        if self.budget_ms.is_some() && self.launches.is_some() {
            return Err("give `--budget-ms` or `--launches`, not both".into());
        }
        let mut config = match &self.model.model {
            Some(_) => Config::with_model(self.model.model()?).map_err(|e| e.to_string())?,
            // A variable's value (a tuning file's content included), not
            // the command line.
            None => Config::from_env().map_err(|e| Refusal::Content(e.to_string()))?,
        };
        if self.files.is_empty() {
            return Err("no files to run".into());
        }
        if let Some(path) = &self.ptxas {
            litmus_hw::check_ptxas(path).map_err(|e| format!("`--ptxas`: {e}"))?;
        }
        let format = self.format;
        let files = self.files.clone();
        self.apply(&mut config)?;
        // The report folder may not be a test file, the tuning file or in
        // the evidence folder (a test folder may hold it).
        let tests: Vec<&std::path::Path> = files
            .iter()
            .map(std::path::Path::new)
            .filter(|p| p.is_file())
            .collect();
        config
            .refuse_clobber(&tests)
            .map_err(|e| Refusal::Content(format!("--report / LITMUS_REPORT_DIR: {e}")))?;
        Ok(Box::new(Options {
            config,
            format,
            files,
        }))
    }

    /// Applies the flags over the configuration: the flags win over the
    /// environment's knobs.
    fn apply(self, config: &mut Config) -> Result<(), Refusal> {
        let knobs = &mut config.knobs;
        // `--budget-ms` after `--launches` in the environment: the budget.
        if let Some(ms) = self.budget_ms {
            knobs.budget_ms = ms;
            knobs.launches = None;
        }
        if self.launches.is_some() {
            knobs.launches = self.launches;
        }
        if let Some(s) = self.seed {
            knobs.seed = s;
        }
        if self.ptxas.is_some() {
            knobs.ptxas = self.ptxas;
        }
        if self.report.is_some() {
            config.report_dir = self.report;
        }
        if self.evidence.is_some() {
            config.evidence_dir = self.evidence;
        }
        if let Some(bound) = self.loop_bound {
            config.options.loop_bound = bound;
        }
        if let Some(path) = self.tuning {
            config.tuning = Some(std::sync::Arc::new(
                TuningFile::load(&path).map_err(|e| Refusal::Content(e.to_string()))?,
            ));
        }
        Ok(())
    }
}

/// Runs `gpu-litmus run` as `args` ask.
pub fn run(args: RunArgs, g: Globals, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let mut opts = match args.options() {
        Ok(r) => r,
        Err(refusal) => return refusal.print("run", err),
    };
    // A folder stands for its tests; one that cannot be searched fails
    // like a file that cannot be read, and the others still run.
    let (files, refused) = super::load::expand(&opts.files);
    opts.files = files;
    for why in &refused {
        let _ = writeln!(err, "{why}");
    }
    if opts.files.is_empty() {
        return EXIT_FAILED;
    }
    let devices = match device_pool::devices_for(&opts.config) {
        Ok(d) => d,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return super::EXIT_USAGE;
        }
    };
    let mut progress = Progress::of(opts.files.len(), g);
    let (mut passed, mut failed) = (0usize, refused.len());
    let ahead = Prefetch::new(&opts.files, &devices, &opts.config);
    let run_one = |i: usize, loaded: Result<Loaded, String>, claim: &[u32]| {
        let file = &opts.files[i];
        let start = Instant::now();
        ahead.after(i, claim);
        let result = loaded.map(|l| {
            let source = runner::Source::File(file.clone());
            let report = runner::run_test_on(claim, &l.test, None, &opts.config, source, Kind::Run);
            (report, start.elapsed(), l.test)
        });
        (result, start.elapsed())
    };
    let mut stdout_gone = false;
    progress.start(err, 0, &opts.files[0]);
    let emit = |i: usize, (result, took): (RunResult, Duration)| {
        let file = &opts.files[i];
        // What goes to stdout, and to stderr (what litmus7's blocks
        // cannot say).
        let (ok, text, note) = match result {
            Ok((report, time, test)) => ran(file, &report, time, &test, &opts),
            Err(msg) => unloadable(file, &msg, took, &opts),
        };
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
        progress.clear(err);
        // Names come from files anyone writes: never raw to a terminal
        // (JSON escapes its own).
        let (text, note) = match opts.format {
            Format::Json => (text, note),
            _ => (
                litmus_core::printable::escaped_lines(&text).into_owned(),
                litmus_core::printable::escaped_lines(&note).into_owned(),
            ),
        };
        let _ = err.write_all(note.as_bytes());
        if out.write_all(text.as_bytes()).is_err() {
            // stdout is gone (a closed pipe): nothing more can be reported.
            stdout_gone = true;
            return false;
        }
        if let Some(next) = opts.files.get(i + 1) {
            progress.start(err, i + 1, next);
        }
        true
    };
    let n = opts.files.len();
    if opts.config.hardware {
        // One lane per device, each test on the devices it needs.
        let prepare = |i: usize| load_for_devices(&opts.files[i], &opts.config);
        device_pool::spread(&devices, n, prepare, run_one, emit);
    } else {
        // The model alone: every core checks files.
        let work = |i: usize| run_one(i, load(&opts.files[i]), &[]);
        super::parallel::in_order(n, super::parallel::cores(), work, emit);
    }
    if stdout_gone {
        return EXIT_FAILED;
    }
    progress.clear(err);
    if opts.format == Format::Text && opts.files.len() > 1 {
        let _ = writeln!(
            out,
            "{} files: {passed} passed, {failed} failed",
            opts.files.len()
        );
    }
    if failed == 0 {
        EXIT_OK
    } else {
        EXIT_FAILED
    }
}

/// What a file that ran prints, to stdout and to stderr, and whether it
/// passed (its reports written too).
fn ran(
    file: &str,
    report: &TestReport,
    time: Duration,
    test: &Test,
    opts: &Options,
) -> (bool, String, String) {
    let unwritten = opts.config.report_dir.as_deref().and_then(|dir| {
        report::write(dir, report, time)
            .err()
            .map(|e| cannot_write(dir, e))
    });
    let ok = report.passed() && unwritten.is_none();
    let (text, note) = match opts.format {
        Format::Litmus7 => litmus7(file, test, report, unwritten.as_deref()),
        _ => (
            render(file, report, opts, unwritten.as_deref()),
            String::new(),
        ),
    };
    (ok, text, note)
}

/// What a file that could not be read or parsed prints, to stdout and to
/// stderr, once it is recorded as a failed case; it never passes.
fn unloadable(file: &str, msg: &str, took: Duration, opts: &Options) -> (bool, String, String) {
    let unwritten = opts.config.report_dir.as_deref().and_then(|dir| {
        let written = report::write_unread(dir, file, msg, took);
        written.err().map(|e| cannot_write(dir, e))
    });
    let mut text = format!("{msg}\n");
    if let Some(u) = &unwritten {
        text.push_str(&format!("{file}: {u}\n"));
    }
    match opts.format {
        Format::Json => {
            let record = report::json::ErrorLine {
                report_error: unwritten.as_deref(),
                ..report::json::ErrorLine::new(file, msg)
            };
            (false, json_line(&record), String::new())
        }
        Format::Litmus7 => (false, String::new(), text),
        _ => (false, text, String::new()),
    }
}

/// litmus7's block for a run of `test` (stdout), and what the block
/// cannot say (stderr): that the hardware did not run, why the test
/// failed, why its reports could not be written.
fn litmus7(
    file: &str,
    test: &Test,
    report: &TestReport,
    unwritten: Option<&str>,
) -> (String, String) {
    let block = report::litmus7::block(test, report);
    let mut note = String::new();
    if block.is_none() {
        note.push_str(&format!(
            "{file}: no litmus7 block, the hardware did not run: {}\n",
            report::text::summary(report)
        ));
    }
    if !report.passed() {
        note.push_str(&format!(
            "{file}: {}\n",
            report::text::failure_message(report)
        ));
    }
    if let Some(u) = unwritten {
        note.push_str(&format!("{file}: {u}\n"));
    }
    (block.unwrap_or_default(), note)
}

/// One JSON line of a typed record.
fn json_line(record: &impl serde::Serialize) -> String {
    format!(
        "{}\n",
        serde_json::to_string(record).expect("a record serializes")
    )
}

/// Why the reports could not be written to `dir`.
fn cannot_write(dir: &Path, e: std::io::Error) -> String {
    format!("cannot write reports to {}: {e}", dir.display())
}

/// One test's result as the chosen format prints it, with why its reports
/// could not be written (`unwritten`), if they could not.
fn render(file: &str, report: &TestReport, opts: &Options, unwritten: Option<&str>) -> String {
    let mut text = match opts.format {
        Format::Json => {
            let record = report::json::RunRecord {
                file: Some(file),
                report_error: unwritten,
                ..report::json::record(report)
            };
            return json_line(&record);
        }
        _ if report.passed() => format!(
            "{file}: {}\n{}\n",
            report::text::summary(report),
            report::text::table(report)
        ),
        _ => format!(
            "{file}: {}\n{}\n",
            report::text::summary(report),
            report::text::failure_message(report),
        ),
    };
    if let Some(u) = unwritten {
        text.push_str(&format!("{file}: {u}\n"));
    }
    text
}
