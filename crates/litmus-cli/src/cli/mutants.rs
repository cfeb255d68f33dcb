//! `gpu-litmus mutants MODEL --evidence DIR`: every single-edit mutant of a
//! cat model, classified against the model on the tests, and judged by the
//! hardware's evidence and by the tests' declared verdicts: a mutation
//! score says how much of the model the evidence and the tests pin down.

use std::io::Write;
use std::path::{Path, PathBuf};

use litmus_evidence::gate::recorded_subjects;
use litmus_evidence::mutation::{
    judge_all_with, kill_candidates_with, kill_wanted, Ground, Judged,
};
use litmus_gen::candidates::Candidates;
use litmus_model::cat::mutate::Mutation;
use litmus_model::compare::default_threads;
use litmus_model::twins::mutation;
use litmus_model::Options;
use litmus_runner::report::json::search::{EnumerationJson, KillSearch, KillTests};

use super::args::{whole, with_loop_bound, Format, Refusal};
use super::candidates::message;
use super::candidates::{left_out, CandidateArgs};
use super::diff::write_test;
use super::gate::read_evidence;
use super::mutants_report::Report;
use super::progress::Bar;
use super::subjects::subjects;
use super::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};

/// score a cat model's mutants against the evidence and the tests' verdicts
///
/// MODEL is a .cat file, or a built-in model with a cat twin in the
/// repository's models/ folder: ptx, sc, ptx-2015 (ptx-7.5 has none). Its
/// mutants are every model one small edit of the file makes (a check dropped,
/// a term dropped from a union, a base relation made empty or full, ...:
/// see litmus_model::cat::mutate).
///
/// The tests are the .litmus files given (a folder: every .litmus file below
/// it) and every test the evidence holds, read from the text recorded with
/// it; with no FILE|DIR, only the evidence's tests. The model and all its
/// mutants check every test over one shared search per test. Each mutant is
/// then, against the model:
///
///   classified    stronger, weaker, equivalent or incomparable on these tests
///   killed by evidence
///                 the hardware showed an outcome that the mutant forbids and
///                 the model allows (outcomes the mutant allows with more loop
///                 iterations than --loop-bound are no kill, as in `gate`);
///                 the first such test (those without loops first) is named,
///                 with the instances that showed the forbidden outcomes
///   killed by a verdict
///                 a test's declared `=> allowed|forbidden` agrees with the
///                 model's verdict and not with the mutant's
///   survived      neither
///
/// and the score is killed / (mutants - equivalent): an equivalent mutant
/// cannot be killed by these tests. The model itself must pass the gate (no
/// observed outcome forbidden); if it does not, one line says so, with its
/// failure count, and the mutants are still scored.
///
/// With --kill-tests DIR, for every surviving mutant that is stronger or
/// incomparable, the `gpu-litmus gen` candidate tests (the options below) on
/// which the model allows an outcome the mutant forbids are written to
/// DIR/<mutant number>/, with the model's verdict declared: running them on a
/// GPU (`gpu-litmus run --model MODEL --evidence ...`) can kill the mutant
/// if the hardware shows that outcome.
#[derive(clap::Args)]
#[command(verbatim_doc_comment, after_long_help = AFTER_HELP)]
pub struct MutantsArgs {
    /// an evidence folder or file (repeatable; required)
    #[arg(long, value_name = "PATH", value_parser = super::run::folder)]
    evidence: Vec<PathBuf>,
    /// text (default): a table and the score; json: one JSON object with
    /// every mutant and the summary
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = Format::of(&[Format::Text, Format::Json]))]
    format: Format,
    /// also write the JSON object to FILE
    #[arg(long, value_name = "FILE", value_parser = super::run::folder)]
    out: Option<PathBuf>,
    /// threads checking tests (default: the cores)
    #[arg(long, value_name = "N", value_parser = whole(1usize))]
    threads: Option<usize>,
    /// the models' loop bound (default 1)
    #[arg(long, value_name = "N", value_parser = whole(1u32))]
    loop_bound: Option<u32>,
    /// write tests that could kill the surviving stronger mutants there
    /// (the candidate options choose them)
    #[arg(long, value_name = "DIR", value_parser = super::run::folder)]
    kill_tests: Option<PathBuf>,
    #[command(flatten)]
    candidates: CandidateArgs,
    /// the model (a .cat file, or a built-in model with a cat twin), then
    /// the tests: .litmus files, and folders searched for them
    #[arg(value_name = "MODEL [FILE|DIR]")]
    paths: Vec<String>,
}

const AFTER_HELP: &str = "EXIT STATUS:
    0  every mutant was judged and the model passes the gate
    1  the model fails the gate, a test or evidence file could not be read
       (one line each), the model cannot be read (bad cat text: its
       file:line:col), there is no test at all, or an output could not be
       written
    2  the command line is wrong (an unknown model, a model with no cat twin)

EXAMPLES:
    gpu-litmus mutants ptx --evidence evidence/ tests/litmus
    gpu-litmus mutants my.cat --evidence evidence/ --kill-tests kill/ --placements all
";

struct Request {
    model: String,
    evidence: Vec<PathBuf>,
    paths: Vec<String>,
    format: Format,
    json_out: Option<PathBuf>,
    threads: usize,
    options: Options,
    kill_tests: Option<PathBuf>,
    candidates: Candidates,
}

impl MutantsArgs {
    /// The scoring to do, or why the command line cannot give it.
    fn request(self) -> Result<Request, String> {
        let mut positional = self.paths.into_iter();
        let model = positional
            .next()
            .ok_or("a model is required: a .cat file, or ptx, sc, ptx-2015")?;
        if self.evidence.is_empty() {
            return Err("`--evidence` is required: a folder of recorded evidence".into());
        }
        if let (Some(flag), None) = (self.candidates.first_given(), &self.kill_tests) {
            return Err(format!(
                "`{flag}` chooses the candidates of --kill-tests, which is not given"
            ));
        }
        let candidates = self.candidates.candidates()?;
        Ok(Request {
            model,
            evidence: self.evidence,
            paths: positional.collect(),
            format: self.format,
            json_out: self.out,
            threads: self.threads.unwrap_or_else(default_threads),
            options: with_loop_bound(self.loop_bound),
            kill_tests: self.kill_tests,
            candidates,
        })
    }
}

/// Runs `gpu-litmus mutants` as `args` ask.
pub fn run(args: MutantsArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let req = match args.request() {
        Ok(r) => r,
        Err(msg) => return Refusal::from(msg).print("mutants", err),
    };
    if let Some(path) = &req.json_out {
        let model = std::path::Path::new(&req.model);
        let inputs: Vec<&std::path::Path> = req
            .evidence
            .iter()
            .map(PathBuf::as_path)
            // A test folder is no evidence: only a test file itself is
            // refused as the output.
            .chain(
                req.paths
                    .iter()
                    .map(std::path::Path::new)
                    .filter(|p| p.is_file()),
            )
            .chain(model.exists().then_some(model))
            .collect();
        if !super::outputs::clear(path, &inputs, err) {
            return EXIT_FAILED;
        }
    }
    let m = match mutation(&req.model) {
        Ok(m) => m,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            // A name that is no model (or has no twin) is a command-line
            // mistake; a file that does not compile is the file's.
            return if e.is_name() { EXIT_USAGE } else { EXIT_FAILED };
        }
    };
    let Some(evidence) = read_evidence(&req.evidence, err) else {
        return EXIT_FAILED;
    };
    let mut status = EXIT_OK;
    for p in &evidence.problems {
        let _ = writeln!(err, "{}: {p}", p.level());
    }
    if evidence.errors().next().is_some() {
        status = EXIT_FAILED;
    }
    let (mut subjects, mut unreadable) = subjects(&req.paths);
    let given = subjects.len();
    let (recorded, problems) = recorded_subjects(&evidence, &subjects);
    subjects.extend(recorded);
    unreadable.extend(problems);
    for u in &unreadable {
        let _ = writeln!(err, "error: {u}");
        status = EXIT_FAILED;
    }
    if subjects.is_empty() {
        let _ = writeln!(
            err,
            "error: no test: {} and the evidence under {} holds no test",
            if req.paths.is_empty() {
                "no FILE|DIR was given".to_string()
            } else {
                format!("no test could be read from {}", req.paths.join(", "))
            },
            req.evidence
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        return EXIT_FAILED;
    }
    let start = std::time::Instant::now();
    let bar = Bar::count(0);
    bar.stage("checking the tests", subjects.len() as u64);
    let (threads, tick) = (req.threads, || bar.inc());
    let allowed = Ground::check_with(&m, &subjects, &req.options, threads, &tick);
    let checked = start.elapsed();
    let ground = match Ground::judge_base(&m, &subjects, &evidence, allowed, &req.options) {
        Ok(g) => g,
        Err(e) => {
            drop(bar);
            let _ = writeln!(err, "error: {e}");
            return EXIT_FAILED;
        }
    };
    bar.stage("judging the mutants", m.mutants.len() as u64);
    let judged = judge_all_with(&ground, &m, threads, &tick);
    let times = format!(
        "time: {:.1} s checking the tests, {:.1} s judging the evidence",
        checked.as_secs_f64(),
        (start.elapsed() - checked).as_secs_f64()
    );
    let searched = (req.kill_tests.as_ref()).map(|dir| kill_tests(&m, &judged, dir, &req, &bar));
    drop(bar);
    let kill_tests = match searched {
        Some(Ok(k)) => Some(k),
        Some(Err(e)) => {
            let _ = writeln!(err, "error: {e}");
            status = EXIT_FAILED;
            None
        }
        None => None,
    };
    let base_errors = ground.base_errors();
    for (t, e) in &base_errors {
        let s = &subjects[*t];
        let _ = writeln!(
            err,
            "error: {}: {}: the model cannot check it: {e}",
            s.file, s.test.name
        );
    }
    if ground.base_failure_count() > 0 || !base_errors.is_empty() {
        status = EXIT_FAILED;
    }
    let report = Report {
        m: &m,
        ground: &ground,
        judged: &judged,
        given,
        paths_given: !req.paths.is_empty(),
        evidence: &evidence,
        kill_tests: kill_tests.as_ref(),
        times,
    };
    let object = report.json();
    if let Some(path) = &req.json_out {
        let text = serde_json::to_string_pretty(&object).expect("a report serializes");
        if !super::outputs::write(path, (text + "\n").as_bytes(), err) {
            status = EXIT_FAILED;
        }
    }
    let text = match req.format {
        Format::Json => format!(
            "{}\n",
            serde_json::to_string(&object).expect("a report serializes")
        ),
        _ => litmus_core::printable::escaped_lines(&report.text()).into_owned(),
    };
    if out.write_all(text.as_bytes()).is_err() {
        return EXIT_FAILED;
    }
    status
}

/// For every surviving stronger or incomparable mutant, the candidate
/// tests on which the model allows an outcome the mutant forbids, written
/// to `dir/<mutant number>/`; the model and those mutants share one search
/// per candidate.
fn kill_tests(
    m: &Mutation,
    judged: &[Judged],
    dir: &Path,
    req: &Request,
    bar: &Bar,
) -> Result<KillSearch, String> {
    let wanted = kill_wanted(judged);
    let mut search = KillSearch {
        bound: req.candidates.bound(),
        enumeration: req.candidates.enumeration().map(EnumerationJson::of),
        candidates: 0,
        left_out: Vec::new(),
        found: Vec::new(),
    };
    if wanted.is_empty() {
        return Ok(search);
    }
    let generated = req.candidates.generate(req.threads).map_err(message)?;
    let (shapes, cycles) = left_out(&generated);
    search.left_out = shapes.into_iter().chain(cycles).collect();
    let tests = generated.tests;
    bar.stage("checking the candidates", tests.len() as u64);
    let tick = || bar.inc();
    let found = kill_candidates_with(m, &wanted, &tests, &req.options, req.threads, &tick)
        .map_err(|e| e.to_string())?;
    let base_name = m.path.display().to_string();
    for k in found {
        let i = k.mutant;
        let x = &m.mutants[i];
        let mut files = Vec::new();
        for diff in &k.differences {
            let doc = vec![
                format!(
                    "gpu-litmus mutants: can kill mutant {} of {base_name} ({} at {}:{}:{}: {})",
                    i + 1,
                    x.operator,
                    x.file,
                    x.pos.line,
                    x.pos.column,
                    x.description
                ),
                format!(
                    "the model allows and the mutant forbids: {}",
                    diff.only_old.join(" | ")
                ),
                format!(
                    "verdicts on the condition: the model {}, the mutant {}",
                    diff.old.as_str(),
                    diff.new.as_str()
                ),
            ];
            let sub = dir.join((i + 1).to_string());
            files.push(write_test(&sub, &tests[diff.test], doc, diff.old)?);
        }
        search.found.push(KillTests { mutant: i, files });
    }
    search.candidates = tests.len();
    Ok(search)
}
