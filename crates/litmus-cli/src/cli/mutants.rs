//! `gpu-litmus mutants MODEL --evidence DIR`: every single-edit mutant of a
//! cat model, classified against the model on the tests, and judged by the
//! hardware's evidence and by the tests' declared verdicts: a mutation
//! score says how much of the model the evidence and the tests pin down.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use litmus_core::instr::InstrKind;
use litmus_core::ir::{Test, Verdict};
use litmus_evidence::gate::{recorded_subjects, seen, Seen, Subject};
use litmus_evidence::judge::allowed_with_more_iterations;
use litmus_evidence::{Evidence, Record};
use litmus_model::cat::batch::Batch;
use litmus_model::cat::mutate::{Mutant, Mutation};
use litmus_model::cat::CatModel;
use litmus_model::compare::{
    classify, default_threads, diff_verdicts, verdict_of, Allowed, Class, Classification,
};
use litmus_model::{Model, Options};
use serde_json::{json, Value};

use super::args::{number, request, Args, Format, Parsed};
use super::candidates::{self, Candidates};
use super::cat_text::mutation;
use super::diff::write_test;
use super::gate::{non_empty, read_evidence};
use super::parallel::in_order;
use super::subjects::subjects;
use super::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};

const HELP_HEAD: &str =
    "gpu-litmus mutants: how much of a cat model the hardware evidence and the tests pin down

USAGE:
    gpu-litmus mutants MODEL --evidence DIR [--evidence DIR...] [OPTIONS] [FILE|DIR...]

MODEL is a .cat file, or a built-in model with a cat twin in the
repository's models/ folder: ptx, sc, ptx-2015 (ptx-7.5 has none). Its
mutants are every model one small edit of the file makes (a check dropped,
a term dropped from a union, a base relation made empty or full, ...:
see litmus_model::cat::mutate).

The tests are the .litmus files given (a folder: every .litmus file below
it) and every test the evidence holds, read from the text recorded with
it; with no FILE|DIR, only the evidence's tests. The model and all its
mutants check every test over one shared search per test. Each mutant is
then, against the model:

  classified    stronger, weaker, equivalent or incomparable on these tests
  killed by evidence
                the hardware showed an outcome that the mutant forbids and
                the model allows (outcomes the mutant allows with more loop
                iterations than --loop-bound are no kill, as in `gate`);
                the first such test (those without loops first) is named,
                with the instances that showed the forbidden outcomes
  killed by a verdict
                a test's declared `=> allowed|forbidden` agrees with the
                model's verdict and not with the mutant's
  survived      neither

and the score is killed / (mutants - equivalent): an equivalent mutant
cannot be killed by these tests. The model itself must pass the gate (no
observed outcome forbidden); if it does not, one line says so, with its
failure count, and the mutants are still scored.

With --kill-tests DIR, for every surviving mutant that is stronger or
incomparable, the `gpu-litmus gen` candidate tests (the options below) on
which the model allows an outcome the mutant forbids are written to
DIR/<mutant number>/, with the model's verdict declared: running them on a
GPU (`gpu-litmus run --model MODEL --evidence ...`) can kill the mutant
if the hardware shows that outcome.

OPTIONS:
    --evidence PATH        an evidence folder or file (repeatable; required)
    --format FORMAT        text (default): a table and the score; json: one
                           JSON object with every mutant and the summary
    --out FILE             also write the JSON object to FILE
    --threads N            threads checking tests (default: the cores)
    --loop-bound N         the models' loop bound (default 1)
    --kill-tests DIR       write tests that could kill the surviving
                           stronger mutants there (options below)
";

const HELP_TAIL: &str = "    -h, --help             print this help

EXIT STATUS:
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

const USAGE: &str = "USAGE:
    gpu-litmus mutants MODEL --evidence DIR [--evidence DIR...] [--format text|json]
                       [--out FILE.json] [--threads N] [--loop-bound N]
                       [--kill-tests DIR [gen options]] [FILE|DIR...]

For more, try `gpu-litmus mutants --help`.";

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

fn parse_args(args: &[String]) -> Result<Parsed<Request>, String> {
    let mut positional = Vec::new();
    let mut evidence = Vec::new();
    let mut format = Format::Text;
    let mut json_out = None;
    let mut threads = default_threads();
    let mut options = Options::default();
    let mut kill_tests = None;
    let mut candidates = Candidates::default();
    let mut candidate_option = None;
    let mut scan = Args::new(args);
    while let Some((flag, inline)) = scan.next_flag(&mut positional) {
        let path = |scan: &mut Args, flag: &str, inline| -> Result<PathBuf, String> {
            Ok(PathBuf::from(non_empty(flag, scan.value(flag, inline)?)?))
        };
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--evidence" => evidence.push(path(&mut scan, &flag, inline)?),
            "--format" => {
                format = Format::parse(&scan.value(&flag, inline)?, &[Format::Text, Format::Json])?
            }
            "--out" => json_out = Some(path(&mut scan, &flag, inline)?),
            "--threads" => threads = number(&flag, &scan.value(&flag, inline)?, 1usize)?,
            "--loop-bound" => {
                options.loop_bound = number(&flag, &scan.value(&flag, inline)?, 1u32)?
            }
            "--kill-tests" => kill_tests = Some(path(&mut scan, &flag, inline)?),
            _ => {
                if !candidates.take(&flag, inline, &mut scan)? {
                    return Err(format!("unknown option `{flag}`"));
                }
                candidate_option.get_or_insert(flag);
            }
        }
    }
    let mut positional = positional.into_iter();
    let model = positional
        .next()
        .ok_or("a model is required: a .cat file, or ptx, sc, ptx-2015")?;
    if evidence.is_empty() {
        return Err("`--evidence` is required: a folder of recorded evidence".into());
    }
    if let (Some(flag), None) = (&candidate_option, &kill_tests) {
        return Err(format!(
            "`{flag}` chooses the candidates of --kill-tests, which is not given"
        ));
    }
    candidates.validate()?;
    Ok(Parsed::Work(Request {
        model,
        evidence,
        paths: positional.collect(),
        format,
        json_out,
        threads,
        options,
        kill_tests,
        candidates,
    }))
}

/// What killed a mutant.
#[derive(Clone, Debug)]
enum Kill {
    /// The hardware showed outcomes the mutant forbids and the model
    /// allows: (test, instances that showed them, the outcomes), in test
    /// order: every test without loops that does, or when none does,
    /// every test with loops that does.
    Evidence(Vec<(usize, u64, Vec<String>)>),
    /// Tests whose declared verdict agrees with the model and not with
    /// the mutant: (test, the declared verdict), in test order.
    Verdict(Vec<(usize, Verdict)>),
    /// Nothing did.
    Survived,
}

impl Kill {
    fn word(&self) -> &'static str {
        match self {
            Kill::Evidence(_) => "evidence",
            Kill::Verdict(_) => "verdict",
            Kill::Survived => "—",
        }
    }
}

/// One mutant's judgement.
struct Judged {
    class: Classification,
    kill: Kill,
}

/// What the kill-test search found for one surviving mutant.
struct KillTests {
    mutant: usize,
    /// The tests written, smallest first.
    files: Vec<PathBuf>,
}

/// The kill-test search: how many candidates it had, what it left out,
/// and what it found per mutant.
struct KillSearch {
    /// Candidate tests (0 when no mutant needed the search).
    candidates: usize,
    /// Shapes the family options do not fit, one line each.
    left_out: Vec<String>,
    found: Vec<KillTests>,
}

/// The tests, their evidence, and the model's verdicts on them: what every
/// mutant is judged against.
struct Ground<'a> {
    subjects: &'a [Subject],
    /// Per test: every outcome the hardware showed, merged over records.
    seen: Vec<Vec<Seen>>,
    /// Per model row (0: the model, `i + 1`: mutant `i`), per test.
    allowed: Vec<Vec<Allowed>>,
    /// Per test: the observed outcomes the model itself forbids.
    base_failures: Vec<Vec<Vec<u32>>>,
    options: &'a Options,
}

/// Runs `gpu-litmus mutants` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let help = format!("{HELP_HEAD}{}{HELP_TAIL}", candidates::HELP);
    let req = match request(parse_args(args), &help, USAGE, out, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let m = match mutation(&req.model) {
        Ok(m) => m,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            // A name that is no model (or has no twin) is a command-line
            // mistake; a file that does not compile is the file's.
            return if req.model.ends_with(".cat") {
                EXIT_FAILED
            } else {
                EXIT_USAGE
            };
        }
    };
    let Some(evidence) = read_evidence(&req.evidence, err) else {
        return EXIT_FAILED;
    };
    let mut status = EXIT_OK;
    for p in &evidence.problems {
        let level = if p.is_error() { "error" } else { "warning" };
        let _ = writeln!(err, "{level}: {p}");
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
    let base = match CatModel::from_source(&m.path, &m.base_source, &mut no_include) {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_FAILED;
        }
    };
    let start = std::time::Instant::now();
    let tests: Vec<Test> = subjects.iter().map(|s| s.test.clone()).collect();
    let allowed = m
        .batch()
        .verdicts(&tests, &req.options, req.threads)
        .allowed;
    let checked = start.elapsed();
    let seen = observed(&subjects, &evidence);
    let base_failures: Vec<Vec<Vec<u32>>> = (0..tests.len())
        .map(|t| forbidden_seen(&tests[t], &base, &allowed[0][t], &seen[t], &req.options))
        .collect();
    let ground = Ground {
        subjects: &subjects,
        seen,
        allowed,
        base_failures,
        options: &req.options,
    };
    let mut judged = Vec::with_capacity(m.mutants.len());
    in_order(
        m.mutants.len(),
        req.threads,
        |i| judge(&ground, i, &m.mutants[i]),
        |_, j| {
            judged.push(j);
            true
        },
    );
    let times = format!(
        "time: {:.1} s checking the tests, {:.1} s judging the evidence",
        checked.as_secs_f64(),
        (start.elapsed() - checked).as_secs_f64()
    );
    let kill_tests = match &req.kill_tests {
        Some(dir) => match kill_tests(&m, &judged, dir, &req) {
            Ok(k) => Some(k),
            Err(e) => {
                let _ = writeln!(err, "error: {e}");
                status = EXIT_FAILED;
                None
            }
        },
        None => None,
    };
    let base_errors: Vec<(usize, &String)> = ground.allowed[0]
        .iter()
        .enumerate()
        .filter_map(|(t, a)| a.as_ref().err().map(|e| (t, e)))
        .collect();
    for (t, e) in &base_errors {
        let s = &subjects[*t];
        let _ = writeln!(
            err,
            "error: {}: {}: the model cannot check it: {e}",
            s.file, s.test.name
        );
    }
    let failures: usize = ground.base_failures.iter().map(Vec::len).sum();
    if failures > 0 || !base_errors.is_empty() {
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
        bound: req.candidates.bound(),
        enumeration: req.candidates.enumeration_json(),
        times,
    };
    let object = report.json();
    if let Some(path) = &req.json_out {
        let text = serde_json::to_string_pretty(&object).expect("JSON values print");
        if let Err(e) = std::fs::write(path, text + "\n") {
            let _ = writeln!(err, "error: cannot write {}: {e}", path.display());
            status = EXIT_FAILED;
        }
    }
    let text = match req.format {
        Format::Json => format!("{object}\n"),
        _ => report.text(),
    };
    if out.write_all(text.as_bytes()).is_err() {
        return EXIT_FAILED;
    }
    status
}

fn no_include(p: &Path) -> Result<String, String> {
    Err(format!(
        "a model as one file includes nothing, but `{}` was asked for",
        p.display()
    ))
}

/// Per subject, the outcomes its evidence showed (matched by name and IR
/// hash, as the gate matches them).
fn observed(subjects: &[Subject], evidence: &Evidence) -> Vec<Vec<Seen>> {
    let mut by_test: BTreeMap<(&str, &str), Vec<&Record>> = BTreeMap::new();
    for r in &evidence.records {
        by_test
            .entry((r.test.as_str(), r.ir_hash.as_str()))
            .or_default()
            .push(r);
    }
    subjects
        .iter()
        .map(|s| {
            by_test
                .get(&(s.test.name.text.as_str(), s.hash.as_str()))
                .map_or_else(Vec::new, |r| seen(r))
        })
        .collect()
}

/// Whether some thread of `test` jumps back: only then can a check cut
/// paths at the loop bound, and an outcome outside the allowed set be one
/// that more iterations allow.
fn has_loop(test: &Test) -> bool {
    test.threads.iter().any(|t| {
        t.body
            .iter()
            .enumerate()
            .any(|(i, instr)| match &instr.kind {
                InstrKind::Branch { target, .. } => t.body[..=i]
                    .iter()
                    .any(|x| matches!(&x.kind, InstrKind::Label(l) if l.text == target.text)),
                _ => false,
            })
    })
}

/// The outcomes of `seen` that `model` forbids, judged as the gate does:
/// outside `allowed`, and not allowed with more loop iterations either.
fn forbidden_seen(
    test: &Test,
    model: &dyn Model,
    allowed: &Allowed,
    seen: &[Seen],
    options: &Options,
) -> Vec<Vec<u32>> {
    let Ok(allowed) = allowed else {
        return Vec::new();
    };
    let outside: Vec<Vec<u32>> = seen
        .iter()
        .filter(|s| !allowed.contains(&s.values))
        .map(|s| s.values.clone())
        .collect();
    if outside.is_empty() || !has_loop(test) {
        return outside;
    }
    let more = allowed_with_more_iterations(test, model, options);
    outside.into_iter().filter(|v| !more.contains(v)).collect()
}

/// Mutant `i`: its class, and what kills it.
fn judge(g: &Ground, i: usize, mutant: &Mutant) -> Judged {
    let row = &g.allowed[i + 1];
    let class = classify(&g.allowed[0], row);
    let mut verdicts = Vec::new();
    for (t, subject) in g.subjects.iter().enumerate() {
        let test = &subject.test;
        let (Ok(base), Ok(mine), Some(declared)) = (&g.allowed[0][t], &row[t], &test.verdict)
        else {
            continue;
        };
        let d = declared.verdict;
        if verdict_of(test, base) == d && verdict_of(test, mine) != d {
            verdicts.push((t, d));
        }
    }
    // Tests with loops come last, and only when no other test kills the
    // mutant: excusing an outcome there means checking again with loops
    // unrolled further (seconds per test and mutant), which the first
    // kill makes moot.
    let (plain, looping): (Vec<usize>, Vec<usize>) =
        (0..g.subjects.len()).partition(|&t| !has_loop(&g.subjects[t].test));
    let mut evidence = evidence_kills(g, i, mutant, &plain);
    if evidence.is_empty() {
        evidence = evidence_kills(g, i, mutant, &looping);
    }
    let kill = if !evidence.is_empty() {
        Kill::Evidence(evidence)
    } else if !verdicts.is_empty() {
        Kill::Verdict(verdicts)
    } else {
        Kill::Survived
    };
    Judged { class, kill }
}

/// The tests of `tests` whose evidence kills mutant `i`: (test, the
/// instances that showed outcomes it forbids and the model allows, those
/// outcomes).
fn evidence_kills(
    g: &Ground,
    i: usize,
    mutant: &Mutant,
    tests: &[usize],
) -> Vec<(usize, u64, Vec<String>)> {
    let row = &g.allowed[i + 1];
    let mut out = Vec::new();
    for &t in tests {
        if g.allowed[0][t].is_err() || g.seen[t].is_empty() {
            continue;
        }
        // The model's own failures kill nothing: they are the model's.
        let seen: Vec<Seen> = g.seen[t]
            .iter()
            .filter(|s| !g.base_failures[t].contains(&s.values))
            .cloned()
            .collect();
        let test = &g.subjects[t].test;
        let forbidden = forbidden_seen(test, &mutant.model, &row[t], &seen, g.options);
        if !forbidden.is_empty() {
            let shown: Vec<&Seen> = seen
                .iter()
                .filter(|s| forbidden.contains(&s.values))
                .collect();
            out.push((
                t,
                shown.iter().map(|s| s.count).sum(),
                shown.iter().map(|s| s.text.clone()).collect(),
            ));
        }
    }
    out
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
) -> Result<KillSearch, String> {
    let wanted: Vec<usize> = (0..judged.len())
        .filter(|&i| {
            matches!(judged[i].kill, Kill::Survived)
                && matches!(judged[i].class.class, Class::Stronger | Class::Incomparable)
        })
        .collect();
    if wanted.is_empty() {
        return Ok(KillSearch {
            candidates: 0,
            left_out: Vec::new(),
            found: Vec::new(),
        });
    }
    let generated = req.candidates.generate(req.threads)?;
    let tests = generated.tests;
    let mut batch = Batch::default();
    batch
        .add(&m.path, &m.base_source, &mut no_include)
        .map_err(|e| e.to_string())?;
    for &i in &wanted {
        let x = &m.mutants[i];
        batch
            .add(Path::new(Model::name(&x.model)), &x.source, &mut no_include)
            .map_err(|e| e.to_string())?;
    }
    let v = batch.verdicts(&tests, &req.options, req.threads).allowed;
    let base_name = m.path.display().to_string();
    let mut out = Vec::new();
    for (row, &i) in wanted.iter().enumerate() {
        let x = &m.mutants[i];
        let d = diff_verdicts(&tests, &v[0], &v[row + 1]);
        let mut files = Vec::new();
        for diff in d.differences.iter().filter(|d| !d.only_old.is_empty()) {
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
        out.push(KillTests { mutant: i, files });
    }
    Ok(KillSearch {
        candidates: tests.len(),
        left_out: {
            let mut notes = generated.skipped;
            if generated.enumerated_unfit > 0 {
                notes.push(format!(
                    "{} enumerated cycles left out, the options do not fit them",
                    generated.enumerated_unfit
                ));
            }
            notes
        },
        found: out,
    })
}

/// Everything the command prints.
struct Report<'a> {
    m: &'a Mutation,
    ground: &'a Ground<'a>,
    judged: &'a [Judged],
    /// Tests read from the FILE|DIR given.
    given: usize,
    paths_given: bool,
    evidence: &'a Evidence,
    kill_tests: Option<&'a KillSearch>,
    bound: String,
    /// The enumeration of the kill-test search, as JSON.
    enumeration: Value,
    /// Where the time went, for the text's last line.
    times: String,
}

/// The summary's counts.
struct Score {
    mutants: usize,
    equivalent: usize,
    by_evidence: usize,
    by_verdicts: usize,
    survived: usize,
}

impl Score {
    /// killed / (mutants - equivalent), when some mutant is not
    /// equivalent.
    fn value(&self) -> Option<f64> {
        let judged = self.mutants - self.equivalent;
        (judged > 0).then(|| (self.by_evidence + self.by_verdicts) as f64 / judged as f64)
    }
}

impl Report<'_> {
    fn score(&self) -> Score {
        let count = |f: &dyn Fn(&Judged) -> bool| self.judged.iter().filter(|j| f(j)).count();
        Score {
            mutants: self.judged.len(),
            equivalent: count(&|j| j.class.class == Class::Equivalent),
            by_evidence: count(&|j| matches!(j.kill, Kill::Evidence(_))),
            by_verdicts: count(&|j| matches!(j.kill, Kill::Verdict(_))),
            survived: count(&|j| matches!(j.kill, Kill::Survived)),
        }
    }

    fn test_name(&self, t: usize) -> &str {
        &self.ground.subjects[t].test.name.text
    }

    /// The first killing test, as the table shows it.
    fn killer(&self, kill: &Kill) -> String {
        match kill {
            Kill::Evidence(v) => {
                let (t, count, _) = &v[0];
                format!("{} ({count})", self.test_name(*t))
            }
            Kill::Verdict(v) => {
                let (t, d) = &v[0];
                format!("{} (declared {})", self.test_name(*t), d.as_str())
            }
            Kill::Survived => String::new(),
        }
    }

    fn base_failures(&self) -> usize {
        self.ground.base_failures.iter().map(Vec::len).sum()
    }

    fn tests_line(&self) -> String {
        let total = self.ground.subjects.len();
        let recorded = total - self.given;
        if self.paths_given {
            format!(
                "{total} tests: {} from the files given, {recorded} more recorded in the evidence",
                self.given
            )
        } else {
            format!(
                "{total} tests, all recorded in the evidence (no FILE|DIR given, so nothing else)"
            )
        }
    }

    fn base_line(&self) -> String {
        let records: usize = self.evidence.records.len();
        match self.base_failures() {
            0 => format!(
                "the model passes the gate: no outcome of the {records} evidence records is forbidden"
            ),
            n => format!(
                "the model FAILS the gate: {n} observed outcome{} forbidden (see `gpu-litmus gate --model {}`); mutants scored anyway",
                if n == 1 { " is" } else { "s are" },
                self.m.path.display()
            ),
        }
    }

    fn score_line(&self) -> String {
        let s = self.score();
        let value = match s.value() {
            Some(v) => format!(
                "{}/{} = {v:.3}",
                s.by_evidence + s.by_verdicts,
                s.mutants - s.equivalent
            ),
            None => "undefined (every mutant is equivalent)".to_string(),
        };
        format!(
            "mutants: {} ({} equivalent on these tests), killed by evidence {}, by verdicts {}, survived {}; score = killed / (N - E) = {value}",
            s.mutants, s.equivalent, s.by_evidence, s.by_verdicts, s.survived
        )
    }

    fn text(&self) -> String {
        let m = self.m;
        let mut s = format!(
            "mutants of {}: {} ({} do not compile, {} duplicates dropped)\n{}\n{}\n\n",
            m.path.display(),
            m.mutants.len(),
            m.skipped.len(),
            m.duplicates,
            self.tests_line(),
            self.base_line()
        );
        let locations: Vec<String> = m
            .mutants
            .iter()
            .map(|x| format!("{}:{}:{}", x.file, x.pos.line, x.pos.column))
            .collect();
        let width = locations.iter().map(|l| l.len()).max().unwrap_or(8).max(8);
        let killers: Vec<String> = self.judged.iter().map(|j| self.killer(&j.kill)).collect();
        let kwidth = killers
            .iter()
            .map(|k| k.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        // The operators' names decide the column's width: the composite
        // ones (`relaxed-as-release-acquire`) are the longest.
        let owidth = m
            .mutants
            .iter()
            .map(|x| x.operator.name().len())
            .max()
            .unwrap_or(8)
            .max(8);
        s.push_str(&format!(
            "{:>4}  {:<owidth$}  {:<width$}  {:<12}  {:<9}  {:<kwidth$}  edit\n",
            "#", "operator", "location", "class", "killed-by", "test"
        ));
        for (i, (x, j)) in m.mutants.iter().zip(self.judged).enumerate() {
            s.push_str(&format!(
                "{:>4}  {:<owidth$}  {:<width$}  {:<12}  {:<9}  {:<kwidth$}  {}\n",
                i + 1,
                x.operator.name(),
                locations[i],
                j.class.class.name(),
                j.kill.word(),
                killers[i],
                x.description
            ));
        }
        if let Some(search) = self.kill_tests {
            let kills = &search.found;
            if kills.is_empty() {
                s.push_str("\nkill tests: no surviving mutant is stronger or incomparable\n");
            } else {
                s.push_str(&format!(
                    "\nkill tests for the surviving stronger and incomparable mutants, among {} candidate tests (bound: {}):\n",
                    search.candidates, self.bound
                ));
            }
            for note in &search.left_out {
                s.push_str(&format!("  note: {note}\n"));
            }
            for k in kills {
                match k.files.first() {
                    None => s.push_str(&format!("  #{}: none within the bound\n", k.mutant + 1)),
                    Some(f) => s.push_str(&format!(
                        "  #{}: {} test{} in {} (first: {})\n",
                        k.mutant + 1,
                        k.files.len(),
                        if k.files.len() == 1 { "" } else { "s" },
                        f.parent().unwrap_or(Path::new(".")).display(),
                        f.file_name().unwrap_or_default().to_string_lossy()
                    )),
                }
            }
        }
        s.push('\n');
        s.push_str(&self.times);
        s.push('\n');
        s.push_str(&self.score_line());
        s.push('\n');
        s
    }

    fn json(&self) -> Value {
        let subjects = self.ground.subjects;
        let test = |t: usize| json!({"file": subjects[t].file, "test": self.test_name(t)});
        let mutants: Vec<Value> = self
            .m
            .mutants
            .iter()
            .zip(self.judged)
            .enumerate()
            .map(|(i, (x, j))| {
                let kills: Vec<Value> = match &j.kill {
                    Kill::Evidence(v) => v
                        .iter()
                        .map(|(t, count, outcomes)| {
                            let mut o = test(*t);
                            o["count"] = json!(count);
                            o["outcomes"] = json!(outcomes);
                            o
                        })
                        .collect(),
                    Kill::Verdict(v) => v
                        .iter()
                        .map(|(t, d)| {
                            let mut o = test(*t);
                            o["declared"] = json!(d.as_str());
                            o
                        })
                        .collect(),
                    Kill::Survived => Vec::new(),
                };
                let kill_tests = self.kill_tests.and_then(|k| {
                    k.found.iter().find(|k| k.mutant == i).map(|k| {
                        k.files
                            .iter()
                            .map(|f| f.display().to_string())
                            .collect::<Vec<_>>()
                    })
                });
                json!({
                    "number": i + 1,
                    "operator": x.operator.name(),
                    "description": x.description,
                    "file": x.file,
                    "line": x.pos.line,
                    "column": x.pos.column,
                    "direction": x.direction.name(),
                    "class": j.class.class.name(),
                    "differences": j.class.differences.len(),
                    "errors": j.class.errors.iter().map(|(t, e)| {
                        let mut o = test(*t);
                        o["message"] = json!(e);
                        o
                    }).collect::<Vec<_>>(),
                    "killed_by": match j.kill {
                        Kill::Evidence(_) => Value::from("evidence"),
                        Kill::Verdict(_) => Value::from("verdict"),
                        Kill::Survived => Value::Null,
                    },
                    "kills": kills,
                    "kill_tests": kill_tests,
                })
            })
            .collect();
        let skipped: Vec<Value> = self
            .m
            .skipped
            .iter()
            .map(|x| {
                json!({
                    "operator": x.operator.name(),
                    "description": x.description,
                    "file": x.file,
                    "line": x.pos.line,
                    "column": x.pos.column,
                    "error": x.error.to_string(),
                })
            })
            .collect();
        let base_failures: Vec<Value> = self
            .ground
            .base_failures
            .iter()
            .enumerate()
            .flat_map(|(t, fs)| {
                fs.iter().map(move |v| {
                    let shown = self.ground.seen[t].iter().find(|s| &s.values == v);
                    json!({
                        "file": subjects[t].file,
                        "test": subjects[t].test.name.text,
                        "outcome": shown.map(|s| s.text.clone()),
                        "count": shown.map(|s| s.count),
                    })
                })
            })
            .collect();
        let s = self.score();
        let devices: BTreeSet<&str> = self
            .evidence
            .records
            .iter()
            .map(|r| r.device.as_str())
            .collect();
        json!({
            "model": self.m.path.display().to_string(),
            "tests": {
                "total": subjects.len(),
                "given": self.given,
                "recorded": subjects.len() - self.given,
            },
            "evidence": {
                "records": self.evidence.records.len(),
                "devices": devices,
                "problems": self.evidence.problems.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            },
            "base": {
                "passes_gate": base_failures.is_empty(),
                "gate_failures": base_failures,
            },
            "mutants": mutants,
            "skipped": skipped,
            "duplicates": self.m.duplicates,
            "kill_tests_search": self.kill_tests.map(|k| json!({
                "bound": self.bound,
                "enumeration": self.enumeration,
                "candidates": k.candidates,
                "left_out": k.left_out,
            })),
            "summary": {
                "mutants": s.mutants,
                "equivalent": s.equivalent,
                "killed_by_evidence": s.by_evidence,
                "killed_by_verdicts": s.by_verdicts,
                "survived": s.survived,
                "score": s.value(),
            },
        })
    }
}
