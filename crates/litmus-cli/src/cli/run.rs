//! `gpu-litmus run`: runs `.litmus` files with the model and on the GPU,
//! side by side, and prints each outcome table with the model's verdict
//! beside the hardware's count.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use litmus_core::ir::Test;
use litmus_evidence::Kind;
use litmus_model::model_by_name;
use litmus_runner::config::Config;
use litmus_runner::device_pool;
use litmus_runner::report;
use litmus_runner::runner::{self, TestReport};
use litmus_tune::tuning::TuningFile;
use serde_json::json;

use super::args::{number, request, Args, Format, Parsed, Refusal};
use super::load::{load, load_for_devices, Loaded};
use super::prefetch::Prefetch;
use super::progress::Progress;
use super::run_help::{HELP, USAGE};
use super::{EXIT_FAILED, EXIT_OK};

/// A file's report, the time it took and its test; or why it did not load.
type RunResult = Result<(TestReport, Duration, Test), String>;

/// What `run` (and `campaign`, which takes the same options) is asked.
pub(super) struct Options {
    pub(super) config: Config,
    pub(super) format: Format,
    pub(super) files: Vec<String>,
}

/// Reads `run`'s options; `campaign` shares them.
pub(super) fn parse_args(args: &[String]) -> Result<Parsed<Box<Options>>, Refusal> {
    let Some(Flags {
        model,
        format,
        files,
        overrides,
    }) = read_flags(args)?
    else {
        return Ok(Parsed::Help);
    };
    if overrides.budget_ms.is_some() && overrides.launches.is_some() {
        return Err("give `--budget-ms` or `--launches`, not both".into());
    }
    // Every variable is checked here, before any file runs and whether or
    // not there is a GPU.
    let mut config = match model {
        Some(name) => Config::with_model(model_by_name(&name)?).map_err(|e| e.to_string())?,
        // A variable's value (a tuning file's content included), not the
        // command line.
        None => Config::from_env().map_err(|e| Refusal::Content(e.to_string()))?,
    };
    if files.is_empty() {
        return Err("no files to run".into());
    }
    overrides.apply(&mut config)?;
    Ok(Parsed::Work(Box::new(Options {
        config,
        format,
        files,
    })))
}

/// The command line's flags, as given.
struct Flags {
    model: Option<String>,
    format: Format,
    files: Vec<String>,
    overrides: Overrides,
}

/// The flags that override the environment's configuration.
#[derive(Default)]
struct Overrides {
    budget_ms: Option<u64>,
    launches: Option<u64>,
    seed: Option<u64>,
    report_dir: Option<PathBuf>,
    evidence_dir: Option<PathBuf>,
    loop_bound: Option<u32>,
    tuning: Option<PathBuf>,
    ptxas: Option<String>,
}

/// Reads the flags and the files; `None` when help is asked for.
fn read_flags(args: &[String]) -> Result<Option<Flags>, String> {
    let mut model = None;
    let mut format = Format::Text;
    let mut files = Vec::new();
    let mut o = Overrides::default();
    let mut scan = Args::new(args);
    while let Some((flag, inline)) = scan.next_flag(&mut files) {
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--model" => model = Some(scan.value(&flag, inline)?),
            "--budget-ms" => o.budget_ms = Some(number(&flag, &scan.value(&flag, inline)?, 0u64)?),
            "--launches" => o.launches = Some(number(&flag, &scan.value(&flag, inline)?, 1u64)?),
            "--seed" => o.seed = Some(number(&flag, &scan.value(&flag, inline)?, 0u64)?),
            "--report" => {
                let dir = scan.value(&flag, inline)?;
                if dir.is_empty() {
                    return Err("`--report` needs a folder".into());
                }
                o.report_dir = Some(PathBuf::from(dir));
            }
            "--evidence" => {
                let dir = super::gate::non_empty(&flag, scan.value(&flag, inline)?)?;
                o.evidence_dir = Some(PathBuf::from(dir));
            }
            "--format" => {
                let formats = [Format::Text, Format::Json, Format::Litmus7];
                format = Format::parse(&scan.value(&flag, inline)?, &formats)?
            }
            "--loop-bound" => {
                o.loop_bound = Some(number(&flag, &scan.value(&flag, inline)?, 1u32)?)
            }
            "--tuning" => o.tuning = Some(PathBuf::from(scan.value(&flag, inline)?)),
            "--ptxas" => {
                let path = scan.value(&flag, inline)?;
                litmus_hw::check_ptxas(&path).map_err(|e| format!("`--ptxas`: {e}"))?;
                o.ptxas = Some(path);
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    Ok(Some(Flags {
        model,
        format,
        files,
        overrides: o,
    }))
}

impl Overrides {
    /// Applies the flags over the configuration: the flags win over the
    /// environment's knobs.
    fn apply(self, config: &mut Config) -> Result<(), Refusal> {
        let knobs = &mut config.knobs;
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
        if self.report_dir.is_some() {
            config.report_dir = self.report_dir;
        }
        if self.evidence_dir.is_some() {
            config.evidence_dir = self.evidence_dir;
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

/// Runs `gpu-litmus run` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let opts = match request(parse_args(args), HELP, USAGE, out, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let devices = match device_pool::devices_for(&opts.config) {
        Ok(d) => d,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return super::EXIT_USAGE;
        }
    };
    let mut progress = Progress::new(opts.files.len(), std::io::stderr().is_terminal());
    let (mut passed, mut failed) = (0usize, 0usize);
    let ahead = Prefetch::new(&opts.files, &devices);
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
        // CI should see a file that does not parse as a failed
        // case, not as a missing one.
        let case = report::junit::Case {
            name: file.to_string(),
            time: took,
            failure: Some(msg.to_string()),
            skipped: None,
            output: String::new(),
        };
        std::fs::create_dir_all(dir)
            .and_then(|()| report::junit::record(dir, case))
            .err()
            .map(|e| cannot_write(dir, e))
    });
    let mut text = format!("{msg}\n");
    if let Some(u) = &unwritten {
        text.push_str(&format!("{file}: {u}\n"));
    }
    match opts.format {
        Format::Json => {
            let mut record = json!({ "file": file, "error": msg });
            if let Some(u) = unwritten {
                record["report_error"] = json!(u);
            }
            (false, format!("{record}\n"), String::new())
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

/// Why the reports could not be written to `dir`.
fn cannot_write(dir: &Path, e: std::io::Error) -> String {
    format!("cannot write reports to {}: {e}", dir.display())
}

/// One test's result as the chosen format prints it, with why its reports
/// could not be written (`unwritten`), if they could not.
fn render(file: &str, report: &TestReport, opts: &Options, unwritten: Option<&str>) -> String {
    let mut text = match opts.format {
        Format::Json => {
            let mut record = report::json::record(report);
            record["file"] = json!(file);
            if let Some(u) = unwritten {
                record["report_error"] = json!(u);
            }
            return format!("{record}\n");
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
