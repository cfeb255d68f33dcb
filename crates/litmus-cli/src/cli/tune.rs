//! `gpu-litmus tune`: searches the GPU's environment per test and writes
//! the winners to a tuning file that every later run of the test picks up.

use std::io::Write;
use std::path::PathBuf;

use litmus_core::ptx::{self, PtxError};
use litmus_hw::{self as gpu, Knobs};
use litmus_model::model_by_name;
use litmus_runner::config::Config;
use litmus_tune::tuning::{Entry, TuningFile, CONVENTIONAL_FILE};

use super::args::{number, request, Args, Parsed};
use super::load::{litmus_files, load};
use super::{EXIT_FAILED, EXIT_OK};

const HELP: &str = "gpu-litmus tune: search the GPU's environment for each test's weak outcome

USAGE:
    gpu-litmus tune [OPTIONS] DIR|FILE...

For each test (folders are searched for .litmus files), draws --configs
configurations of the environment (CTAs and threads, stride, permutation,
memory stress by extra CTAs with its pattern, lines, line size and
assignment, pre-stress by the testing threads, the spin barrier and the CTA
shuffle in a share of launches; the current knobs are always one of them,
and the best 4 configurations of the tests already in the tuning file that
showed their weak outcome come next, as the published harnesses reuse a
family's winners) and runs them by successive halving: all of them
briefly, the better half twice as long, and so on, within --budget-ms of
GPU time per test. A configuration scores the lower 95% Wilson bound of
the fraction of instances that showed the test's weak outcome, times its
instances per second. The weak outcome is the condition's outcome when the
model allows it, else every outcome SC forbids.

The best configuration of each test is written to the tuning file (merged
with the entries already there; written after every test, so an
interrupted search keeps what it found). A test whose weak outcome no
configuration showed gets an entry with the defaults and a zero rate, so
the file records that it was searched. `run`, `campaign`, `litmus!` and
`litmus_files!` tests pick the entries up.

OPTIONS:
    --budget-ms N       GPU time per test for the whole search (default 4000)
    --configs N         configurations drawn per test, at least 2 (default 16)
    --seed N            seeds the draws (default: $LITMUS_SEED, else the clock)
    --out FILE          the tuning file (default: $LITMUS_TUNING, else
                        litmus-tuning.toml)
    --model NAME        the model that decides the weak outcome (default:
                        $LITMUS_MODEL, else ptx)
    -h, --help          print this help

Without a GPU it says so in one line and exits 0 (1 with
LITMUS_REQUIRE_GPU=1).

EXIT STATUS:
    0  every test was tuned or said why not; 1  a file could not be read,
    a test could not be run, or the tuning file could not be written;
    2  the command line is wrong
";

const USAGE: &str = "USAGE:
    gpu-litmus tune [--budget-ms N] [--configs N] [--seed N] [--out FILE]
                    [--model NAME] DIR|FILE...

For more, try `gpu-litmus tune --help`.";

struct Options {
    config: Config,
    base: Knobs,
    budget_ms: u64,
    configs: usize,
    out: PathBuf,
    files: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Parsed<Box<Options>>, String> {
    let (mut budget_ms, mut configs, mut seed, mut out, mut model) = (4000, 16, None, None, None);
    let mut files = Vec::new();
    let mut scan = Args::new(args);
    while let Some((flag, inline)) = scan.next_flag(&mut files) {
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--budget-ms" => budget_ms = number(&flag, &scan.value(&flag, inline)?, 1u64)?,
            "--configs" => configs = number(&flag, &scan.value(&flag, inline)?, 2usize)?,
            "--seed" => seed = Some(number(&flag, &scan.value(&flag, inline)?, 0u64)?),
            "--out" => out = Some(PathBuf::from(scan.value(&flag, inline)?)),
            "--model" => model = Some(scan.value(&flag, inline)?),
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    if files.is_empty() {
        return Err("no files to tune".into());
    }
    let config = match model {
        Some(name) => Config::with_model(model_by_name(&name).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?,
        None => Config::from_env().map_err(|e| e.to_string())?,
    };
    let mut base = config.knobs.clone();
    if let Some(s) = seed {
        base.seed = s;
    }
    let out = out
        .or_else(|| std::env::var_os(litmus_tune::tuning::TUNING_ENV).map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(CONVENTIONAL_FILE));
    Ok(Parsed::Work(Box::new(Options {
        config,
        base,
        budget_ms,
        configs,
        out,
        files,
    })))
}

/// Runs `gpu-litmus tune` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let opts = match request(parse_args(args), HELP, USAGE, out, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let files = match litmus_files(&opts.files) {
        Ok(f) => f,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_FAILED;
        }
    };
    match gpu::hardware_wanted() {
        Ok(None) => {}
        Ok(Some(why)) => {
            let _ = writeln!(out, "tune: skipped, {why}");
            return EXIT_OK;
        }
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_FAILED;
        }
    }
    let mut tuning = if opts.out.exists() {
        match TuningFile::load(&opts.out) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "error: {e} (fix or move it; tune merges into it)");
                return EXIT_FAILED;
            }
        }
    } else {
        TuningFile {
            path: opts.out.clone(),
            ..TuningFile::default()
        }
    };
    let mut failed = false;
    for file in &files {
        let line = match tune_one(file, &opts, &tuning) {
            Ok((Some((name, entry)), text)) => {
                tuning.tests.insert(name, entry);
                if let Err(e) = tuning.write() {
                    let _ = writeln!(err, "error: {e}");
                    return EXIT_FAILED;
                }
                text
            }
            Ok((None, text)) => text,
            Err(msg) => {
                failed = true;
                msg
            }
        };
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "tune: {} tests, {} entries in {}",
        files.len(),
        tuning.tests.len(),
        tuning.path.display()
    );
    if failed {
        EXIT_FAILED
    } else {
        EXIT_OK
    }
}

/// A test's name and tuning entry, if it gets one, and the line that says
/// what the search found.
type Tuned = (Option<(String, Entry)>, String);

/// Tunes one file, trying the winners of the tests already in `tuned`
/// first; `Err` is the line that says why it failed.
fn tune_one(file: &str, opts: &Options, tuned: &TuningFile) -> Result<Tuned, String> {
    let loaded = load(file)?;
    let test = &loaded.test;
    let code = match ptx::generate(test) {
        Ok(code) => code,
        Err(PtxError::Unsupported(why)) => {
            return Ok((
                None,
                format!("{file}: not tuned, the GPU harness cannot run it: {why}"),
            ))
        }
        Err(e) => return Err(format!("{file}: {e}")),
    };
    let (entry, text) = litmus_tune::tune_test(
        test,
        &code,
        (opts.config.model, &opts.config.options),
        &opts.base,
        opts.budget_ms,
        opts.configs,
        Some(tuned),
    )
    .map_err(|e| format!("{file}: {e}"))?;
    Ok((
        Some((test.name.text.clone(), entry)),
        format!("{file}: {text}"),
    ))
}
