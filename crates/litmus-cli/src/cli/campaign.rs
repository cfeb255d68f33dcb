//! `gpu-litmus campaign`: runs a set of tests (folders are searched for
//! `.litmus` files) on the GPU and says, per test, whether its weak
//! outcome (the outcomes its condition describes) was seen and at what
//! rate, with the rate's Wilson interval, and whether anything the model
//! forbids was seen; then one summary. It is `run` for families: one line a
//! test instead of an outcome table.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use litmus_evidence::resume::{already_recorded, TestId};
use litmus_evidence::{ir_hash, Evidence, Kind};
use litmus_runner::campaign::{line, summary, Tally};
use litmus_runner::device_pool;
use litmus_runner::runner::{self, TestReport};
use litmus_runner::shard::{Selection, Shard};

use super::args::{shard_of, Format, Refusal};
use super::campaign_search::{search_missed, Tune};
use super::load::{litmus_files, load, load_for_devices, Loaded};
use super::progress::Progress;
use super::run::{Options, RunArgs};
use super::tune::SearchArgs;
use super::{Globals, EXIT_FAILED, EXIT_OK};
use litmus_runner::missed::Observed;
use litmus_runner::prefetch::Prefetch;

/// run a set of tests on the GPU: weak outcomes seen, rates, a summary
///
/// Runs every .litmus file given, and every .litmus file under each folder
/// given (sorted by path), with the model and on the GPU, as `run` does,
/// and prints one line per test, `FILE: weak K/N (RATE [LOW, HIGH])
/// PER_S/s; forbidden seen F; passed|FAILED ...`, where K counts the instances whose outcome satisfies the test's
/// condition (its weak outcome, for the classic shapes), N the instances
/// run, RATE = K/N with its 95% Wilson interval, PER_S weak outcomes per
/// second of GPU time, and F the instances whose outcome the model forbids
/// (any F > 0 fails the test). A last line sums up: tests, passed and
/// failed, in how many of the tests whose condition the model allows the
/// weak outcome was seen, in how many a forbidden outcome was seen, GPU
/// time and wall time. A test that fails for any reason `run` knows (a
/// verdict mismatch, a fault) fails here too, and the campaign goes on
/// with the next test.
///
/// With --tune, the campaign runs every test first, then searches the
/// GPU's environment for the tests whose weak outcome the run did not show,
/// as `gpu-litmus tune` does (one pool of configurations shared by the
/// family, breadth first, the budget flowing to the tests still unseen):
/// climbing the order of a test's variants (same relaxation, fewer or
/// weaker fences and semantics): first the tests whose every weaker
/// variant showed its weak outcome, at --tune-budget-ms each, again as the
/// search shows more (what showed a test's kin in the earlier rounds is
/// what it tries first, and longest; a kin's share of the turns counts
/// what the run and those rounds showed of it); once, those with nothing
/// weaker and those whose condition the model forbids, at an eighth of it;
/// never one above a variant that stayed unseen. It writes the winners to
/// the tuning file and counts what the search showed: a weak outcome the
/// run missed is seen, an outcome the model forbids fails the test. A
/// summary per family (the name up to its first `+`) closes the campaign.
///
/// Every option of `gpu-litmus run` is taken; with --format json, one JSON
/// object per test and line, then {"summary": {...}}. The tests are spread
/// over every device LITMUS_DEVICES selects (default: all), one at a time
/// on each, a test on k GPUs on k devices; while they run, each device's
/// worker compiles the next tests' modules.
#[derive(clap::Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct CampaignArgs {
    #[command(flatten)]
    run: RunArgs,
    /// search the environment after the run, for the tests it did not show
    /// (see above); it writes --tuning FILE (which need not exist yet), else
    /// $LITMUS_TUNING, else litmus-tuning.toml
    #[arg(long)]
    tune: bool,
    #[command(flatten)]
    search: SearchArgs,
    /// run part K of N (1 <= K <= N): the tests whose relaxation (the test
    /// with fences out and accesses relaxed) hashes to K, so N jobs (a
    /// Slurm array, a CI matrix) run disjoint parts, each test in one, and
    /// the variants of one relaxation in the same one; the summary says `shard K/N: M of T tests`. Join the jobs'
    /// evidence with `gpu-litmus evidence merge`
    #[arg(long, value_name = "K/N", value_parser = shard_of)]
    shard: Option<Shard>,
    /// skip the tests that already have a campaign record in the evidence
    /// folder (--evidence DIR, else $LITMUS_EVIDENCE; required) and run the
    /// others: a campaign killed at any point goes on where it stopped. A
    /// test edited since (another IR hash) runs again; a search trial is
    /// not a campaign record
    #[arg(long)]
    resume: bool,
}

const AFTER_HELP: &str = "ENVIRONMENT:
    As for `gpu-litmus run` (LITMUS_* knobs, LITMUS_REQUIRE_GPU, ...).

EXIT STATUS:
    0  every test passed; 1  some test failed or a file could not be read;
    2  the command line is wrong
";

/// Runs `gpu-litmus campaign` as `args` ask.
pub fn run(args: CampaignArgs, g: Globals, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let CampaignArgs {
        mut run,
        tune,
        search,
        shard,
        resume,
    } = args;
    if !tune && search.given() {
        return Refusal::from(
            "`--tune-budget-ms`, `--tune-configs` and `--toolchains` go with `--tune`",
        )
        .print("campaign", err);
    }
    // With --tune, --tuning is the file the search writes, which need not
    // exist yet; without, it is run's to read.
    let tune = tune.then(|| Tune {
        budget_ms: search.tune_budget_ms.unwrap_or(2000),
        configs: search.tune_configs.unwrap_or(64),
        toolchains: search.toolchains.map(|t| t.0),
        path: run.tuning.take(),
    });
    let opts = match run.options() {
        Ok(r) => r,
        Err(refusal) => return refusal.print("campaign", err),
    };
    // One line a test: litmus7's histogram blocks are `run`'s.
    if !matches!(opts.format, Format::Text | Format::Json) {
        let _ = writeln!(
            err,
            "error: campaign prints text or json; for litmus7's blocks use `gpu-litmus run --format litmus7`"
        );
        return super::EXIT_USAGE;
    }
    let json = opts.format == Format::Json;
    let devices = match device_pool::devices_for(&opts.config) {
        Ok(d) => d,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return super::EXIT_USAGE;
        }
    };
    let selection = match litmus_files(&opts.files) {
        Ok(files) => Selection::of(shard, files),
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_FAILED;
        }
    };
    let mut files = selection.files.clone();
    if resume {
        // Without the folder there is nothing to resume from: running the
        // whole set again would look like a resume and duplicate it.
        let Some(dir) = opts.config.evidence_dir.clone() else {
            return Refusal::from("`--resume` needs `--evidence DIR` (or LITMUS_EVIDENCE): the evidence says which tests already ran").print("campaign", err);
        };
        match remaining(&files, &dir, err) {
            Ok(rest) => {
                let _ = writeln!(
                    out,
                    "resume: {} of {} tests already in {}, running the other {}",
                    files.len() - rest.len(),
                    files.len(),
                    dir.display(),
                    rest.len()
                );
                files = rest;
            }
            Err(e) => {
                let _ = writeln!(err, "error: {e}");
                return EXIT_FAILED;
            }
        }
    }
    let files = &files;
    // Without a GPU the search has nothing to run on: said first, in one
    // line, and the campaign runs as without it.
    let tune = match tune.map(|t| litmus_hw::hardware_wanted().map(|why| (t, why))) {
        Some(Ok((t, None))) => Some(t),
        Some(Ok((_, Some(why)))) => {
            let _ = writeln!(out, "tune: skipped, {why}");
            None
        }
        Some(Err(e)) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_FAILED;
        }
        None => None,
    };
    let start = Instant::now();
    let mut tally = Tally::default();
    let mut observed: Vec<Option<Observed>> = vec![None; files.len()];
    let ahead = Prefetch::new(files, &devices, &opts.config);
    let mut progress = Progress::of(files.len(), g);
    let mut stdout_gone = false;
    if let Some(first) = files.first() {
        progress.start(err, 0, first);
    }
    // One lane per device, each test on the devices it needs; one line a
    // test, in the files' order.
    device_pool::spread(
        &devices,
        files.len(),
        |i| load_for_devices(&files[i], &opts.config),
        |i, loaded, claim| {
            ahead.after(i, claim);
            test_report(&files[i], loaded, claim, &opts)
        },
        |i, report| {
            observed[i] = observation(&report);
            let line = test_line(&files[i], report, json, &mut tally);
            // Names as the terminal should show them (JSON escapes its
            // own, and stdout writes out the rest).
            let line = if json {
                line
            } else {
                litmus_core::printable::escaped_lines(&line).into_owned()
            };
            progress.clear(err);
            if out.write_all(line.as_bytes()).is_err() {
                stdout_gone = true;
                return false;
            }
            if let Some(next) = files.get(i + 1) {
                progress.start(err, i + 1, next);
            }
            true
        },
    );
    progress.clear(err);
    if stdout_gone {
        return EXIT_FAILED;
    }
    if let Some(t) = &tune {
        if let Err(e) = search_missed(files, &observed, t, &opts, &mut tally, out, err) {
            let _ = writeln!(err, "error: {e}");
            return EXIT_FAILED;
        }
    }
    let _ = summary(
        out,
        &tally,
        &selection,
        start.elapsed(),
        json,
        tune.is_some(),
    );
    if tally.failed == 0 {
        EXIT_OK
    } else {
        EXIT_FAILED
    }
}

/// A test's report and why its reports could not be written, if so; or
/// why its file did not load.
type Ran = Result<(TestReport, Option<String>), String>;

/// Runs one loaded file on the devices of `claim`, writing its reports.
fn test_report(file: &str, loaded: Result<Loaded, String>, claim: &[u32], opts: &Options) -> Ran {
    let begun = Instant::now();
    let l = loaded?;
    let source = runner::Source::File(file.to_string());
    let report = runner::run_test_on(claim, &l.test, None, &opts.config, source, Kind::Campaign);
    let unwritten = opts.config.report_dir.as_deref().and_then(|dir| {
        litmus_runner::report::write(dir, &report, begun.elapsed())
            .err()
            .map(|e| format!("cannot write reports to {}: {e}", dir.display()))
    });
    Ok((report, unwritten))
}

/// What the run showed of a test that ran on the GPU, for the search
/// after it.
fn observation(ran: &Ran) -> Option<Observed> {
    let (report, unwritten) = ran.as_ref().ok()?;
    Observed::of(report, report.passed() && unwritten.is_none())
}

/// One file's line, counted into `tally`.
fn test_line(file: &str, ran: Ran, json: bool, tally: &mut Tally) -> String {
    match ran {
        Ok((report, unwritten)) => {
            let family = litmus_gen::naming::family(&report.test);
            line(file, family, &report, unwritten, json, tally)
        }
        Err(msg) => {
            tally.count_unreadable();
            if json {
                let line = litmus_runner::report::json::ErrorLine::new(file, &msg);
                format!(
                    "{}\n",
                    serde_json::to_string(&line).expect("an error line serializes")
                )
            } else {
                format!("{msg}\n")
            }
        }
    }
}

/// `--resume`: the files whose test has no campaign record in `dir` yet
/// (a file that cannot be read stays: it fails again, saying why). Every
/// line of the evidence that is not a record is said on `err`, one line
/// each; a cut-off last line (a campaign killed mid-write) is a warning,
/// and its test runs again.
fn remaining(files: &[String], dir: &Path, err: &mut dyn Write) -> Result<Vec<String>, String> {
    // A first run with --resume: nothing recorded yet.
    if !dir.exists() {
        return Ok(files.to_vec());
    }
    let evidence = Evidence::read(&[dir.to_path_buf()]).map_err(|e| e.to_string())?;
    for p in &evidence.problems {
        let level = if p.is_error() { "error" } else { "warning" };
        let _ = writeln!(err, "{level}: {p}");
    }
    let loaded: Vec<(String, Option<TestId>)> = files
        .iter()
        .map(|f| {
            let id = load(f).ok().map(|l| TestId {
                name: l.test.name.text.clone(),
                ir_hash: ir_hash(&l.test),
            });
            (f.clone(), id)
        })
        .collect();
    let ids: Vec<TestId> = loaded.iter().filter_map(|(_, id)| id.clone()).collect();
    let mut done = already_recorded(&evidence, &ids).into_iter();
    Ok(loaded
        .into_iter()
        .filter(|(_, id)| !(id.is_some() && done.next() == Some(true)))
        .map(|(f, _)| f)
        .collect())
}
