//! `gpu-litmus tune`: searches the GPU's environment per test and writes
//! the winners to a tuning file that every later run of the test picks up.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use litmus_hw::{self as gpu, Knobs};
use litmus_runner::config::Config;
use litmus_runner::device_pool;
use litmus_runner::kind_search::{search_kinds, search_on_lanes, KindLanes};
use litmus_runner::shard::{Selection, Shard};
use litmus_tune::entry_of;
use litmus_tune::family::{FamilyPlan, Found};
use litmus_tune::kin::Kin;
use litmus_tune::prepare::{prepare, Prepared};
use litmus_tune::target::Target;
use litmus_tune::tuning::{default_path, TuningFile};

use super::args::{shard_of, whole, ModelArg, Refusal};
use super::load::{litmus_files, load};
use super::progress::Bar;
use super::{Globals, EXIT_FAILED, EXIT_OK};

/// search the GPU's environment per test; write a tuning file
///
/// Treats the tests given (folders are searched for .litmus files) as one
/// problem, as a family's variants share their good environments. One pool of
/// --configs configurations of the environment is drawn for the whole set (CTAs
/// and threads, stride, permutation, memory stress by extra CTAs with its
/// pattern, lines, line size and assignment, pre-stress by the testing threads,
/// the spin barrier and the CTA shuffle in a share of launches): the current
/// knobs first, then draws from the seed, then on top the winners already in
/// the tuning file (a quarter of --configs at most). The search runs in waves:
/// in each, every test whose weak outcome has not shown yet runs one short
/// trial (--budget-ms over --configs, at least 5 ms of GPU time) of the
/// configuration it has not tried that has shown the most other tests' weak
/// outcomes (each test counting one over the number of configurations that
/// showed it), so a configuration that shows one variant is tried next on the
/// others; what showed a test's kin (the same fences and access scopes) counts
/// first, then its compiler, and runs up to 8 slices for it. A configuration
/// whose trials took over 8 times the GPU time they asked for (after 3) is left
/// out; the summary says how many. A test whose weak outcome shows spends a
/// quarter of its budget refining its best configurations (again, twice as
/// long) and stops; what it did not spend goes to the tests still unseen, and
/// more of it to the kin that show: a kin's tests take a wave's turn in
/// proportion to the share of that kin whose weak outcome has shown, every wave
/// from one in twenty up, at least one wave in ten. A test that has tried the
/// whole pool goes round again with slices twice as long. The set's budget is
/// --budget-ms times the tests.
///
/// The search runs on every device of the GPU's kind at once (in groups as
/// wide as the widest test). On a node with GPUs of several kinds each kind
/// is searched in turn, with a pool of its own (started from that kind's
/// winners) and the whole budget; the lines then say which kind, and each
/// kind's winners are kept under its name in the tuning file.
///
/// A configuration scores the lower 95% Wilson bound of the fraction of
/// instances that showed the test's weak outcome, times its instances per
/// second. The weak outcome is the condition's outcome when the model allows
/// it, else every outcome SC forbids.
///
/// The best configuration of each test is written to the tuning file (merged
/// with the entries already there), after the waves at most once a second and
/// at the end, so an interrupted search keeps what it found. A test whose weak
/// outcome no configuration showed gets an entry with the defaults and a zero
/// rate, so the file records that it was searched. `run`, `campaign`,
/// `litmus!` and `litmus_files!` tests pick up the entry of the kind of GPU
/// they run on (none: the defaults).
#[derive(clap::Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct TuneArgs {
    /// GPU time per test, on average over the set (default 2000; campaign
    /// --tune calls it --tune-budget-ms)
    #[arg(long, value_name = "N", value_parser = whole(1u64), conflicts_with = "tune_budget_ms")]
    budget_ms: Option<u64>,
    #[command(flatten)]
    search: SearchArgs,
    /// seeds the pool, each test's order and each trial (default:
    /// $LITMUS_SEED, else the clock)
    #[arg(long, value_name = "N", value_parser = whole(0u64))]
    seed: Option<u64>,
    /// the tuning file it writes (default: $LITMUS_TUNING, else
    /// litmus-tuning.toml), the file `run` and `campaign` read with the
    /// same flag
    #[arg(long, value_name = "FILE")]
    tuning: Option<PathBuf>,
    /// the old name of --tuning: it still works, with a note
    #[arg(long, value_name = "FILE", hide = true, conflicts_with = "tuning")]
    out: Option<PathBuf>,
    // The model decides each test's weak outcome.
    #[command(flatten)]
    model: ModelArg,
    /// tune part K of N, split by relaxation as `campaign --shard` splits
    /// (see its help); the last line says `shard K/N: M of T tests`
    #[arg(long, value_name = "K/N", value_parser = shard_of)]
    shard: Option<Shard>,
    /// record every trial as evidence in DIR (default: $LITMUS_EVIDENCE),
    /// marked as a trial with its knobs
    #[arg(long, value_name = "DIR", value_parser = super::run::folder)]
    evidence: Option<PathBuf>,
    /// the tests: .litmus files, and folders searched for them
    #[arg(value_name = "FILE|DIR")]
    files: Vec<String>,
}

/// The search's options that `tune` and `campaign --tune` share, each
/// under one name on both (`--configs` is the same as `--tune-configs`).
#[derive(clap::Args)]
pub struct SearchArgs {
    /// the search's GPU time per test, on average (default 2000; tune's
    /// --budget-ms)
    #[arg(long, value_name = "N", value_parser = whole(1u64))]
    pub(super) tune_budget_ms: Option<u64>,
    /// configurations in the search's shared pool, at least 2 (default 64)
    #[arg(long, visible_alias = "configs", value_name = "N", value_parser = whole(2usize))]
    pub(super) tune_configs: Option<usize>,
    /// the compilers the pool spreads over, comma-separated: `jit` (the
    /// driver's), installed releases (`ptxas-12.4`) or ptxas paths
    /// (default: the one LITMUS_TOOLCHAIN names, else jit and every release
    /// in the toolchain folder, see `gpu-litmus toolchains`); the current
    /// knobs, the anchors and every drawn environment run under each, and
    /// an entry names the one its configuration won under
    #[arg(long, value_name = "LIST", value_parser = toolchain_list)]
    pub(super) toolchains: Option<Toolchains>,
}

impl SearchArgs {
    /// Whether any of the search's options was given.
    pub(super) fn given(&self) -> bool {
        self.tune_budget_ms.is_some() || self.tune_configs.is_some() || self.toolchains.is_some()
    }
}

/// `--toolchains LIST`: each compiler, `None` for the driver's JIT.
#[derive(Clone)]
pub struct Toolchains(pub Vec<Option<String>>);

/// clap's value parser of `--toolchains`: every entry checked, the bad one
/// named.
fn toolchain_list(text: &str) -> Result<Toolchains, String> {
    litmus_hw::parse_toolchains(text)
        .map(Toolchains)
        .map_err(|e| format!("`--toolchains` {e}"))
}

const AFTER_HELP: &str = "Without a GPU it says so in one line and exits 0 (1 with
LITMUS_REQUIRE_GPU=1).

EXIT STATUS:
    0  every test was tuned or said why not; 1  a file could not be read,
    a test could not be run, or the tuning file could not be written;
    2  the command line is wrong
";

struct Options {
    config: Config,
    base: Knobs,
    budget_ms: u64,
    configs: usize,
    out: PathBuf,
    files: Vec<String>,
    shard: Option<Shard>,
    toolchains: Option<Vec<Option<String>>>,
}

impl TuneArgs {
    /// The search's options, or why the command line cannot give them;
    /// `--out`, the old name of `--tuning`, gets a note on `err`.
    fn options(self, g: Globals, err: &mut dyn Write) -> Result<Box<Options>, Refusal> {
        if self.files.is_empty() {
            return Err("no files to tune".into());
        }
        let mut config = match &self.model.model {
            Some(_) => Config::with_model(self.model.model()?).map_err(|e| e.to_string())?,
            None => Config::from_env().map_err(|e| e.to_string())?,
        };
        if self.evidence.is_some() {
            config.evidence_dir = self.evidence;
        }
        let mut base = config.knobs.clone();
        if let Some(s) = self.seed {
            base.seed = s;
        }
        if self.out.is_some() && !g.quiet {
            let _ = writeln!(
                err,
                "note: `--out` is now `--tuning` (the same flag as run's and campaign's)"
            );
        }
        let out = self.tuning.or(self.out).unwrap_or_else(default_path);
        Ok(Box::new(Options {
            config,
            base,
            budget_ms: self
                .budget_ms
                .or(self.search.tune_budget_ms)
                .unwrap_or(2000),
            configs: self.search.tune_configs.unwrap_or(64),
            out,
            files: self.files,
            shard: self.shard,
            toolchains: self.search.toolchains.map(|t| t.0),
        }))
    }
}

/// Runs `gpu-litmus tune` as `args` ask.
pub fn run(args: TuneArgs, g: Globals, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let opts = match args.options(g, err) {
        Ok(r) => r,
        Err(refusal) => return refusal.print("tune", err),
    };
    // A test folder may hold the tuning file; a test file may not be it.
    let tests: Vec<&std::path::Path> = opts
        .files
        .iter()
        .map(std::path::Path::new)
        .filter(|p| p.is_file())
        .collect();
    if !super::outputs::clear(&opts.out, &tests, err) {
        return EXIT_FAILED;
    }
    let selection = match litmus_files(&opts.files) {
        Ok(f) => Selection::of(opts.shard, f),
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_FAILED;
        }
    };
    if let Err(e) = device_pool::devices_for(&opts.config) {
        let _ = writeln!(err, "error: {e}");
        return super::EXIT_USAGE;
    }
    match gpu::hardware_wanted() {
        Ok(None) => {}
        Ok(Some(why)) => {
            // Even here: a job's split can be checked without a GPU.
            let of = opts.shard.map(|_| format!(" ({})", selection.describe()));
            let _ = writeln!(out, "tune: skipped, {why}{}", of.unwrap_or_default());
            return EXIT_OK;
        }
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_FAILED;
        }
    }
    let search = Search {
        config: &opts.config,
        base: opts.base.clone(),
        budget_ms: opts.budget_ms,
        configs: opts.configs,
        toolchains: opts
            .toolchains
            .clone()
            .unwrap_or_else(|| litmus_hw::toolchains_to_search(&opts.base)),
        shown: Vec::new(),
        outside: Vec::new(),
    };
    let Searched { tuning, failed, .. } =
        match tune_set(&selection.files, &read, &search, &opts.out, out, err) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "error: {e}");
                return EXIT_FAILED;
            }
        };
    let _ = writeln!(
        out,
        "tune: {}, {} entries in {}",
        selection.describe(),
        tuning.entries().count(),
        tuning.path.display()
    );
    if failed {
        EXIT_FAILED
    } else {
        EXIT_OK
    }
}

/// What a family-wide search is given: the configuration (model and
/// knobs), the base knobs (with the seed), the budget per test and the
/// pool's size. `tune` and `campaign --tune` both make one.
#[derive(Clone)]
pub(super) struct Search<'a> {
    pub(super) config: &'a Config,
    pub(super) base: Knobs,
    pub(super) budget_ms: u64,
    pub(super) configs: usize,
    /// The compilers the pool spreads over (`None`: the driver's JIT).
    pub(super) toolchains: Vec<Option<String>>,
    /// What earlier searches showed, for the credit
    /// ([`FamilyPlan::shown`]): a campaign's earlier steps.
    pub(super) shown: Vec<(Knobs, Kin)>,
    /// Tests outside the set, by kin, and whether each showed
    /// ([`FamilyPlan::outside`]): a campaign's run and earlier steps.
    pub(super) outside: Vec<(Kin, bool)>,
}

/// What a search over a set did: the tuning file it wrote, whether some
/// test failed, and each searched test's findings.
pub(super) struct Searched {
    pub(super) tuning: TuningFile,
    pub(super) failed: bool,
    pub(super) tests: Vec<SearchedTest>,
}

/// One searched test: whether its weak outcome showed (on any device kind)
/// and every outcome its trials showed, for the campaign to count and to
/// hold against the model.
pub(super) struct SearchedTest {
    pub(super) file: String,
    pub(super) test: litmus_core::ir::Test,
    pub(super) seen: bool,
    /// The configuration that showed its weak outcome best, when one did
    /// (on the first device kind that showed it).
    pub(super) shown_by: Option<Knobs>,
    pub(super) gpu: Duration,
    pub(super) outcomes: std::collections::BTreeSet<Vec<u32>>,
}

/// A test file read the way every command reads one, its error as the
/// message `tune` prints.
pub(super) fn read(file: &str) -> Result<litmus_core::ir::Test, String> {
    load(file).map(|l| l.test).map_err(|e| e.to_string())
}

/// Searches `files` as one family, each test got through `read` (a
/// caller that has them read already hands them over), and merges the
/// winners into the tuning file at `path` (read first when it exists): the
/// lines for tests that cannot be searched, then one line a test. `Err`
/// when the tuning file cannot be read or written.
pub(super) fn tune_set(
    files: &[String],
    read: &dyn Fn(&str) -> Result<litmus_core::ir::Test, String>,
    search: &Search,
    path: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<Searched, String> {
    let mut tuning = TuningFile::load_or_new(path)
        .map_err(|e| format!("{e} (fix or move it; tune merges into it)"))?;
    let prepared = prepare(files, search.config.model, &search.config.options, read);
    let mut failed = false;
    for line in &prepared.lines {
        failed |= line.failed;
        let _ = writeln!(out, "{}", litmus_core::printable::escaped_lines(&line.text));
    }
    let (search_failed, found) = self::search(&prepared, search, &mut tuning, out, err)?;
    let tests = prepared
        .ready
        .into_iter()
        .zip(found)
        .map(|(r, f)| SearchedTest {
            file: r.file,
            test: r.test,
            seen: f.iter().any(Found::seen),
            shown_by: f.iter().find(|f| f.seen()).map(|f| f.best.knobs.clone()),
            gpu: f.iter().map(|f| f.gpu).sum(),
            outcomes: f.into_iter().flat_map(|f| f.outcomes).collect(),
        })
        .collect();
    Ok(Searched {
        tuning,
        failed: failed || search_failed,
        tests,
    })
}

/// Runs the family-wide search over the prepared tests once per device
/// kind of the node (`kind_search::search_kinds`), the kinds one after
/// the other (each kind's devices busy in its turn, the others idle: a
/// kind's search shares nothing with another's, and one at a time keeps
/// one progress line and one writer of the tuning file). Each kind gets
/// a pool of its own, drawn from the same seed but started from its own
/// earlier winners, and the whole budget, so that each kind's entries
/// are as good as a node of that kind alone would make them. Writes the
/// tuning file as it goes and one line per test and kind at the end;
/// says whether some test could not run at all, and what each test's
/// search found on each kind.
fn search(
    prepared: &Prepared,
    opts: &Search,
    tuning: &mut TuningFile,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(bool, Vec<Vec<Found>>), String> {
    let tests = prepared.ready.iter().map(|r| &r.test);
    let mut kinds = search_kinds(opts.config, tests).map_err(|e| e.to_string())?;
    if kinds.is_empty() {
        // The driver could not list the devices: one search on the
        // default device, its kind unknown.
        kinds.push(KindLanes::default());
    }
    let mut failed = false;
    let mut found = vec![Vec::new(); prepared.ready.len()];
    for kind in &kinds {
        let named = (kinds.len() > 1).then_some(kind.kind.as_str());
        let (kind_failed, on_kind) = search_kind(prepared, opts, kind, named, tuning, out, err)?;
        failed |= kind_failed;
        for (all, f) in found.iter_mut().zip(on_kind) {
            all.push(f);
        }
    }
    Ok((failed, found))
}

/// [`search`] on one kind's lanes; `named` is the kind when the lines
/// must say which (a node of several kinds).
fn search_kind(
    prepared: &Prepared,
    opts: &Search,
    kind: &KindLanes,
    named: Option<&str>,
    tuning: &mut TuningFile,
    out: &mut dyn Write,
    // The bar draws to the terminal itself (`progress::Bar`).
    _err: &mut dyn Write,
) -> Result<(bool, Vec<Found>), String> {
    let mut plan = FamilyPlan::within(opts.budget_ms, opts.configs, opts.base.seed);
    plan.starts = portfolio_starts(opts);
    plan.starts
        .extend(tuning.winners(&opts.base, opts.configs / 4, &kind.kind));
    plan.toolchains = opts.toolchains.clone();
    plan.shown = opts.shown.clone();
    plan.outside = opts.outside.clone();
    let bar = Bar::search();
    let on = named.map_or_else(String::new, |k| format!(" on {k}"));
    let mut last_write = Instant::now();
    let mut write_error = None;
    let mut dropped = 0;
    let mut pool = plan.pool;
    // A test's entry and line, as the search left it: written once a
    // second while it runs, and at the end. The entry is kept under the
    // kind of the device that ran its best trial: this kind.
    let entry_for = |f: &Found, target: &Target| {
        entry_of(
            &f.best,
            f.base.as_ref(),
            (f.configs, f.instances),
            &opts.base,
            target,
        )
    };
    let found = search_on_lanes(
        prepared,
        &kind.lanes,
        &opts.base,
        &plan,
        opts.config.evidence_dir.as_deref(),
        |p, found| {
            bar.wave(p, &on);
            dropped = p.dropped;
            pool = p.pool;
            if last_write.elapsed() >= Duration::from_secs(1) {
                last_write = Instant::now();
                let seen = prepared.ready.iter().zip(found).filter(|(_, f)| f.seen());
                for (r, f) in seen {
                    tuning.insert(&r.test.name.text, entry_for(f, &r.target).0);
                }
                if let Err(e) = tuning.write() {
                    write_error.get_or_insert(e.to_string());
                }
            }
        },
    );
    drop(bar);
    if let Some(e) = write_error {
        return Err(e);
    }
    let found = found.map_err(|e| e.to_string())?;
    let mut failed = false;
    for (r, f) in prepared.ready.iter().zip(&found) {
        if let Some(e) = &f.error {
            failed = true;
            let _ = writeln!(out, "{}{on}: {e}", r.file);
            continue;
        }
        let (entry, text) = entry_for(f, &r.target);
        tuning.insert(&r.test.name.text, entry);
        let _ = writeln!(
            out,
            "{}{on}: {text} [{} configurations, {} trials, {:.2} s of GPU time]",
            r.file,
            f.configs,
            f.trials,
            f.gpu.as_secs_f64()
        );
    }
    tuning.write().map_err(|e| e.to_string())?;
    let seen = found.iter().filter(|f| f.seen()).count();
    let gpu: f64 = found.iter().map(|f| f.gpu.as_secs_f64()).sum();
    let _ = writeln!(
        out,
        "tune{on}: weak outcome seen in {seen} of {} tests searched, {:.1} s of GPU time ({:.2} s a test), a pool of {} configurations{}",
        found.len(),
        gpu,
        gpu / found.len().max(1) as f64,
        pool,
        left_out(dropped),
    );
    Ok((failed, found))
}

/// The summary's note of the configurations the search left out because
/// their launches outlasted their slices (`litmus_tune::overrun`).
fn left_out(dropped: usize) -> String {
    match dropped {
        0 => String::new(),
        n => format!(
            " ({n} left out: their launches took over {} times the GPU time their trials asked)",
            litmus_tune::overrun::FACTOR
        ),
    }
}

/// The default portfolio's slots beyond the knobs as they are: the
/// configurations measured to show most of what the defaults' first slot
/// misses, so the search starts from them rather than finding them again.
fn portfolio_starts(opts: &Search) -> Vec<Knobs> {
    match opts.config.portfolio.knobs(&opts.base) {
        Ok((slots, _)) => slots.into_iter().skip(1).collect(),
        // The portfolio was checked when the configuration was read; a
        // search without its starts is still a search.
        Err(_) => Vec::new(),
    }
}
