//! `gpu-litmus run`: runs `.litmus` files with the model and on the GPU,
//! side by side, and prints each outcome table with the model's verdict
//! beside the hardware's count.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use litmus_core::ir::Test;
use litmus_model::model_by_name;
use litmus_runner::config::Config;
use litmus_runner::report;
use litmus_runner::runner::{self, TestReport};
use litmus_tune::tuning::TuningFile;
use serde_json::json;

use super::args::{number, request, Args, Format, Parsed};
use super::load::load;
use super::prefetch::Prefetch;
use super::progress::Progress;
use super::{EXIT_FAILED, EXIT_OK};

const HELP: &str = "gpu-litmus run: run .litmus files with the memory model and on the GPU

USAGE:
    gpu-litmus run [OPTIONS] FILE...

For each file: the model's allowed outcomes, the declared verdict against
the model's, and the GPU's histogram against the allowed set. Prints one
summary line (the verdicts, the hardware's figures and knobs) and the
outcome table: each outcome the model allows or the hardware showed, with
the hardware's count and the model's verdict; `*` marks the outcomes the
condition describes. Without a GPU the model half still runs and the
summary says `hardware: skipped, ...`.

A test fails when its declared verdict (`=> allowed` / `=> forbidden`) is
not the model's, when the hardware shows an outcome the model forbids, or
when the hardware half breaks (a kernel fault, a JIT error, lost instances,
a GPU required by LITMUS_REQUIRE_GPU=1 but missing). A failing test prints
what failed, the table, why each forbidden outcome seen is forbidden (axiom
and witness), and a line to reproduce it. Allowed outcomes never seen, and
whether the condition's outcome was seen, are said but never fail a test.

OPTIONS:
    --model NAME        the memory model: ptx, sc, ptx-2015, ptx-7.5, or a .cat file
                        (default: $LITMUS_MODEL, else ptx)
    --budget-ms N       GPU time per test, in milliseconds
                        (default: $LITMUS_BUDGET_MS, else 1000)
    --launches N        stop after N kernel launches instead of a time
                        budget (default: $LITMUS_LAUNCHES)
    --seed N            seeds the permutations of roles and locations
                        (default: $LITMUS_SEED, else from the clock); every
                        result prints it
    --report DIR        write a JSON record per test (TEST.json: test, model,
                        declared_verdict, computed_verdict, allowed,
                        histogram, device, seed, budget, passed, ...) and
                        one JUnit file, junit-gpu-litmus.xml, into DIR
                        (default: $LITMUS_REPORT_DIR)
    --evidence DIR      record each hardware run's histogram, device, knobs
                        and the test's IR hash as evidence in DIR (one
                        .jsonl file per process) for `gpu-litmus gate`
                        (default: $LITMUS_EVIDENCE)
    --format FORMAT     text (default), json or litmus7.
                        json: one JSON object per file and line, the
                        report's record plus `file`; a file that cannot be
                        read or parsed gives {\"file\", \"error\"}; either has
                        `report_error` when --report could not write its
                        files.
                        litmus7: litmus7's result block per test, to
                        compare with litmus7's output line by line
                        (mcompare7 reads it); see LITMUS7 FORMAT below
    --loop-bound N      the model's loop bound: how many times a loop body
                        may run in an execution the model considers
                        (default 1: an execution that takes a backward jump
                        is dropped). Not LITMUS_LOOP_BOUND, which bounds how
                        long a role may spin on the GPU (default 1000)
    --ptxas PATH        compile each test's module with this ptxas for the
                        GPU instead of the driver's JIT (default:
                        $LITMUS_PTXAS); a path that is not ptxas is an
                        error before anything runs
    --tuning FILE       per-test knobs from a tuning file (`gpu-litmus tune`
                        writes one); a test with no entry runs the defaults
                        (default: $LITMUS_TUNING, else litmus-tuning.toml in
                        the current folder if there is one)
    -h, --help          print this help

ENVIRONMENT:
    LITMUS_MODEL        as --model
    LITMUS_BUDGET_MS    as --budget-ms
    LITMUS_LAUNCHES     as --launches
    LITMUS_SEED         as --seed
    LITMUS_REPORT_DIR   as --report
    LITMUS_EVIDENCE     as --evidence
    LITMUS_REQUIRE_GPU  1: a missing GPU fails every test instead of
                        skipping its hardware half
    LITMUS_REQUIRE_HW   1: a hardware half this machine cannot run (the
                        device or driver lacks an instruction of the
                        test, the harness cannot place it) fails the test
                        instead of being reported as not run
    LITMUS_CTAS         CTAs per launch, a power of two (default 2048)
    LITMUS_THREADS      threads per CTA, a power of two from 2 to 1024
                        (default 64)
    LITMUS_STRIDE       words between two slots of a location (default 4)
    LITMUS_PERM         fixed (default) or random: how roles are spread over
                        lanes and locations over memory
    LITMUS_SPIN         polls of a bounded spin barrier before each role
                        (default 0: off)
    LITMUS_STRESS       CTAS[:ROUNDS] of extra CTAs stressing memory
                        (default 0: off)
    LITMUS_STRESS_PATTERN  st-st, ld-ld, st-ld or ld-st (default ld-st)
    LITMUS_STRESS_LINES    scratch lines the stress hammers, 1-64 (default 4)
    LITMUS_STRESS_LINE_WORDS  words per line, a power of two to 1024 (64)
    LITMUS_STRESS_ASSIGN   round-robin (default) or chunk: stressing CTAs
                        over the lines
    LITMUS_STRESS_PCT      % of launches that stress (default 100)
    LITMUS_PRE_STRESS      ITERATIONS[:PATTERN] the testing threads stress
                        before their roles (default 0: off)
    LITMUS_PRE_STRESS_PCT  % of launches that pre-stress (default 100)
    LITMUS_SPIN_PCT        % of launches that use the spin barrier (100)
    LITMUS_SPIN_SCOPE      instance (default: the roles of each instance
                        meet before each role) or grid (every testing
                        thread meets on one word before its roles)
    LITMUS_SHUFFLE_PCT     % of launches that shuffle which CTA plays which
                        instances (default 0)
    LITMUS_INTERLEAVE_PCT  % of launches whose testing CTAs are spread among
                        the stressing ones rather than before them (0)
    LITMUS_CTAS_PER_SM     at most this many CTAs on one SM, 1-32 (default
                        0: as many as fit)
    LITMUS_LANES        permuted (default) or aligned: an instance's roles
                        in other CTAs on the same lane, as the published
                        harnesses place them
    LITMUS_CTA_SPREAD   neighbours (default) or by-lane: an instance's CTAs
                        2·lane+1 apart, so a warp's lanes meet partners
                        in different CTAs (an earlier cuda-litmus's way)
    LITMUS_LOC_LAYOUT   apart (default) or interleaved: the locations'
                        slots alternate in one array, as the published
                        harnesses lay them out
    LITMUS_PTX_TARGET   native (default: the device's own, sm_86 on an
                        A10G) or a target since Volta (sm_70, sm_75,
                        sm_80, sm_86, sm_89, sm_90, ...): the target the
                        test's module is compiled for (the published
                        harness builds for sm_80); one newer than the
                        device, or without an instruction the test uses,
                        leaves the hardware half not run, saying why
    LITMUS_PTXAS        a ptxas that compiles the module for the device,
                        loaded as a cubin (default: the driver's JIT); a
                        newer ptxas runs PTX the driver cannot read; the
                        hardware line names the toolchain
    LITMUS_ADDRESSING   global (default) or generic: how the roles' accesses
                        address global memory (the published harness's
                        cuda::atomic uses generic addresses)
    LITMUS_TUNING       as --tuning
    LITMUS_LOOP_BOUND   the GPU's spin limit: backward branches a role may
                        take on the GPU before its instance counts as
                        unfinished (default 1000); not the model's
                        --loop-bound
    LITMUS_HOST_INSTANCES  instances per launch of a test with host
                        threads, a power of two (default 65536; fewer
                        when CTAS x THREADS is smaller)
    LITMUS_HOST_THREADS    CPU threads sharing each host role's instances
                        (default 4)
    LITMUS_GPU_MAP      the device of each logical GPU of a test on several
                        GPUs, comma-separated (default: GPU k on device k;
                        0,0 runs a two-GPU test on device 0)

LITMUS7 FORMAT (--format litmus7), one block per file whose hardware half
ran, as litmus7 prints it:
    Test MP Allowed
    Histogram (3 states)
    5021  :>1:r0=0; 1:r1=0;
    17    *>1:r0=1; 1:r1=0;
    4956  :>1:r0=1; 1:r1=1;
    Ok

    Witnesses
    Positive: 17, Negative: 9977
    Condition exists (1:r0=1 /\\ 1:r1=0) is validated
    Observation MP Sometimes 17 9977
    Time MP 1.00
    (then an empty line). Allowed, Forbidden or Required for exists, ~exists
    or forall; each state the hardware showed with its count, *> marking
    those that satisfy the condition's expression, registers as
    THREAD-NUMBER:REG and locations as [x]; Ok or No, is validated or is
    NOT validated: whether the claim held on the hardware; Positive and
    Negative: instances satisfying the expression or not (swapped for
    ~exists); Observation: Never, Sometimes or Always, with the two counts
    unswapped. No Hash= line. Without a GPU there is no block: stderr says
    that the hardware did not run, and the model's verdict; stderr also
    says why a test failed.

Every LITMUS_* variable is checked before the first file runs, with or
without a GPU: a bad value (LITMUS_CTAS=abc, LITMUS_STRESS=x:y, ...) is an
error naming the variable, the value and what it accepts, and exit status 2.

EXIT STATUS:
    0  every test passed
    1  some test failed, or a file could not be read or parsed (the other
       files still run)
    2  the command line, or a LITMUS_* variable, is wrong
";

const USAGE: &str = "USAGE:
    gpu-litmus run [--model NAME] [--budget-ms N] [--launches N] [--seed N]
                   [--report DIR] [--evidence DIR] [--format text|json|litmus7]
                   [--loop-bound N] [--tuning FILE] [--ptxas PATH] FILE...

For more, try `gpu-litmus run --help`.";

/// What `run` (and `campaign`, which takes the same options) is asked.
pub(super) struct Options {
    pub(super) config: Config,
    pub(super) format: Format,
    pub(super) files: Vec<String>,
    /// `--tuning FILE`, as given.
    pub(super) tuning_path: Option<PathBuf>,
}

/// Reads `run`'s options; `campaign` shares them.
pub(super) fn parse_args(args: &[String]) -> Result<Parsed<Box<Options>>, String> {
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
        Some(name) => Config::with_model(model_by_name(&name).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?,
        None => Config::from_env().map_err(|e| e.to_string())?,
    };
    if files.is_empty() {
        return Err("no files to run".into());
    }
    let tuning_path = overrides.tuning.clone();
    overrides.apply(&mut config)?;
    Ok(Parsed::Work(Box::new(Options {
        config,
        format,
        files,
        tuning_path,
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
    fn apply(self, config: &mut Config) -> Result<(), String> {
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
                TuningFile::load(&path).map_err(|e| e.to_string())?,
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
    let mut progress = Progress::new(opts.files.len(), std::io::stderr().is_terminal());
    let (mut passed, mut failed) = (0usize, 0usize);
    // GPU runs go one at a time (below), so this lock is never contended:
    // it only lets the shared closure move the window.
    let ahead = (opts.config.hardware).then(|| std::sync::Mutex::new(Prefetch::new(&opts.files)));
    let run_one = |i: usize| {
        let file = &opts.files[i];
        if let Some(ahead) = &ahead {
            ahead.lock().unwrap_or_else(|p| p.into_inner()).after(i);
        }
        let start = Instant::now();
        let result = load(file).map(|l| {
            let report = runner::run_test(
                &l.test,
                None,
                &opts.config,
                runner::Source::File(file.clone()),
            );
            (report, start.elapsed(), l.test)
        });
        (result, start.elapsed())
    };
    // Without hardware each file is the model alone: every core checks
    // files. GPU runs stay one at a time, each with the device to itself.
    let threads = if opts.config.hardware {
        1
    } else {
        super::parallel::cores()
    };
    let mut stdout_gone = false;
    progress.start(err, 0, &opts.files[0]);
    super::parallel::in_order(opts.files.len(), threads, run_one, |i, (result, took)| {
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
    });
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
