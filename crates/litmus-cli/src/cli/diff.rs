//! `gpu-litmus diff OLD NEW`: the generated tests on which two models allow
//! different outcomes, smallest first, written out ready to run under NEW.
//! The comparison is `litmus_model::compare::diff_by_name`'s and the
//! candidates are `litmus_gen`'s families and cycles; this file parses,
//! prints and writes the tests out.

use std::io::Write;
use std::path::{Path, PathBuf};

use litmus_core::ir::{DeclaredVerdict, Origin, Test, Verdict};
use litmus_gen::candidates::Candidates;
use litmus_model::compare::{default_threads, diff_by_name, Difference};
use litmus_model::{model_by_name, Options};
use litmus_runner::report::json::search::{DiffLine, DiffReport, EnumerationJson, TestError};
use litmus_text as text;

use super::args::{whole, with_loop_bound, Format, Refusal};
use super::candidates::message;
use super::candidates::{left_out, CandidateArgs};
use super::{EXIT_FAILED, EXIT_OK};

/// list the generated tests on which two models differ, smallest first
///
/// OLD and NEW are models, by name or .cat file. The
/// candidate tests are `gpu-litmus gen` families (below), each test once up
/// to renaming; both models check every one (two .cat files share one search
/// per test). The tests on which they allow different outcomes are listed
/// smallest first (fewest threads, then fewest instructions): the first is
/// the shortest witness of the change. Each line gives both verdicts on the
/// test's condition and the outcomes only one model allows (a difference can
/// lie outside the condition, with both verdicts equal).
///
/// With --out DIR, each of them is written to DIR/<name>.litmus with a
/// comment giving both verdicts and the outcomes that differ, and NEW's
/// verdict declared (`=> allowed|forbidden`): ready for
/// `gpu-litmus run --model NEW DIR`. When none differ, says
/// `no difference among N tests (bound: ...)`: the bound is the shapes,
/// cycles and options searched; with --cycles-up-to, every diy7 cycle up to
/// that many edges over --edges, the vocabulary's size and edges, and how
/// many cycles each length gave.
#[derive(clap::Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct DiffArgs {
    /// write the tests that differ there (created if missing)
    #[arg(long, value_name = "DIR", value_parser = super::run::folder)]
    out: Option<PathBuf>,
    /// text (default) or json: one JSON object
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = Format::of(&[Format::Text, Format::Json]))]
    format: Format,
    /// threads checking tests (default: the cores)
    #[arg(long, value_name = "N", value_parser = whole(1usize))]
    threads: Option<usize>,
    /// the models' loop bound (default 1)
    #[arg(long, value_name = "N", value_parser = whole(1u32))]
    loop_bound: Option<u32>,
    #[command(flatten)]
    candidates: CandidateArgs,
    // Its help lists the registry's models.
    #[arg(value_name = "OLD NEW", help = format!("the two models, OLD and NEW: {}, or .cat files", litmus_model::model_names()))]
    models: Vec<String>,
}

const AFTER_HELP: &str = "EXIT STATUS:
    0  no candidate test tells the models apart
    1  some test does (listed), or a test could not be checked, or the
       output could not be written
       (a .cat file that does not compile: its file:line:col and why)
    2  the command line is wrong (an unknown model name, an unknown shape,
       a bad option value, an edge that is no diy7 edge, a bound out of
       range or one with more cycles than --max-cycles)

EXAMPLES:
    gpu-litmus diff ptx sc --shapes MP,SB,LB,IRIW
    gpu-litmus diff ptx sc --shapes none --cycles-up-to 4
    gpu-litmus diff a.cat b.cat --shapes none --cycles-up-to 6 --edges 'Rfe,Fre,Wse,Pod**'
    gpu-litmus diff old.cat new.cat --placements all --fences none,sc --out diffs/
";

struct Request {
    old: String,
    new: String,
    candidates: Candidates,
    out: Option<PathBuf>,
    format: Format,
    threads: usize,
    options: Options,
}

impl DiffArgs {
    /// The comparison to make, or why the command line cannot give it.
    fn request(self) -> Result<Request, String> {
        let p = self.models;
        let [old, new] = <[String; 2]>::try_from(p).map_err(|p| match p.len() {
            0 => "two models are required: OLD and NEW".to_string(),
            1 => format!("a second model is required: `{}` and which other?", p[0]),
            _ => format!(
                "two models are expected, not {}: `{}`",
                p.len(),
                p.join("`, `")
            ),
        })?;
        // An unknown name is a command-line mistake; a .cat file that does
        // not compile is the file's (checked in `run`, exit 1).
        for name in [&old, &new] {
            if !name.ends_with(".cat") {
                model_by_name(name).map_err(|e| e.to_string())?;
            }
        }
        Ok(Request {
            old,
            new,
            candidates: self.candidates.candidates()?,
            out: self.out,
            format: self.format,
            threads: self.threads.unwrap_or_else(default_threads),
            options: with_loop_bound(self.loop_bound),
        })
    }
}

/// Runs `gpu-litmus diff` as `args` ask.
pub fn run(args: DiffArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let req = match args.request() {
        Ok(r) => r,
        Err(msg) => return Refusal::from(msg).print("diff", err),
    };
    for name in [&req.old, &req.new] {
        if let Err(e) = model_by_name(name) {
            let _ = writeln!(err, "error: {e}");
            return EXIT_FAILED;
        }
    }
    if let Some(dir) = &req.out {
        // The folder written to may not be either .cat file.
        let cats: Vec<&Path> = [&req.old, &req.new]
            .into_iter()
            .map(Path::new)
            .filter(|p| p.is_file())
            .collect();
        if !super::outputs::clear(dir, &cats, err) {
            return EXIT_FAILED;
        }
    }
    let generated = match req.candidates.generate(req.threads) {
        Ok(g) => g,
        Err(e) => {
            let _ = writeln!(err, "error: {}", message(e));
            return super::EXIT_USAGE;
        }
    };
    let (skipped, unfit) = left_out(&generated);
    let tests = generated.tests;
    let d = match diff_by_name(&req.old, &req.new, &tests, &req.options, req.threads) {
        Ok(d) => d,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_FAILED;
        }
    };
    let mut written = Vec::new();
    let mut status = if d.differences.is_empty() && d.errors.is_empty() {
        EXIT_OK
    } else {
        EXIT_FAILED
    };
    if let Some(dir) = &req.out {
        for x in &d.differences {
            match write_difference(dir, &tests[x.test], x, &req.old, &req.new) {
                Ok(p) => written.push(Some(p)),
                Err(e) => {
                    let _ = writeln!(err, "error: {e}");
                    written.push(None);
                    status = EXIT_FAILED;
                }
            }
        }
    }
    let bound = req.candidates.bound();
    let text = match req.format {
        Format::Json => {
            let report = DiffReport {
                bound: &bound,
                differences: (d.differences.iter().enumerate())
                    .map(|(i, x)| {
                        let file = written.get(i).cloned().flatten();
                        DiffLine::of(x, file.map(|p| p.display().to_string()))
                    })
                    .collect(),
                enumerated_left_out: generated.enumerated_unfit,
                enumeration: req.candidates.enumeration().map(EnumerationJson::of),
                errors: TestError::all(&tests, &d.errors),
                left_out: &skipped,
                new: &req.new,
                old: &req.old,
                tests: tests.len(),
            };
            let line = serde_json::to_string(&report).expect("a report serializes");
            format!("{line}\n")
        }
        _ => {
            let mut s = String::new();
            for n in skipped.iter().chain(&unfit) {
                s.push_str(&format!("note: {n}\n"));
            }
            for (t, m) in &d.errors {
                s.push_str(&format!(
                    "error: {}: cannot be checked: {m}\n",
                    tests[*t].name
                ));
            }
            if d.differences.is_empty() {
                s.push_str(&format!(
                    "no difference among {} tests (bound: {bound})\n",
                    tests.len()
                ));
            } else {
                s.push_str(&format!(
                    "{} of {} tests tell {} from {}, smallest first (bound: {bound}):\n",
                    d.differences.len(),
                    tests.len(),
                    req.old,
                    req.new
                ));
                for (i, x) in d.differences.iter().enumerate() {
                    s.push_str(&format!("  {}\n", line(x, &req.old, &req.new)));
                    if let Some(Some(p)) = written.get(i) {
                        s.push_str(&format!("      written to {}\n", p.display()));
                    }
                }
            }
            s
        }
    };
    if out.write_all(text.as_bytes()).is_err() {
        return EXIT_FAILED;
    }
    status
}

/// One difference, as `diff` lists it.
fn line(x: &Difference, old: &str, new: &str) -> String {
    let mut s = format!(
        "{} ({} threads, {} instructions): {old} {}, {new} {}",
        x.name,
        x.threads,
        x.instructions,
        x.old.as_str(),
        x.new.as_str()
    );
    for (who, outcomes) in [(old, &x.only_old), (new, &x.only_new)] {
        if !outcomes.is_empty() {
            s.push_str(&format!("; only {who} allows `{}`", outcomes.join("`, `")));
        }
    }
    s
}

/// Writes `test` to `DIR/<name>.litmus` with the difference `x` in its
/// comment and `new`'s verdict declared; returns the file's path.
fn write_difference(
    dir: &Path,
    test: &Test,
    x: &Difference,
    old: &str,
    new: &str,
) -> Result<PathBuf, String> {
    let mut doc = vec![format!(
        "gpu-litmus diff: {old} says {}, {new} says {} (the condition)",
        x.old.as_str(),
        x.new.as_str()
    )];
    for (who, outcomes) in [(old, &x.only_old), (new, &x.only_new)] {
        if !outcomes.is_empty() {
            doc.push(format!("only {who} allows: {}", outcomes.join(" | ")));
        }
    }
    write_test(dir, test, doc, x.new)
}

/// Writes `test` to `DIR/<name>.litmus` with `doc` added to its comment
/// and `verdict` declared (the folder is created if missing).
pub(crate) fn write_test(
    dir: &Path,
    test: &Test,
    doc: Vec<String>,
    verdict: Verdict,
) -> Result<PathBuf, String> {
    let mut test = test.clone();
    test.doc.0.extend(doc);
    test.verdict = Some(DeclaredVerdict {
        verdict,
        origin: Origin::NONE,
    });
    text::write_into(dir, &test).map_err(|e| e.to_string())
}
