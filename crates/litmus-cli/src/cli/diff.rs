//! `gpu-litmus diff OLD NEW`: the generated tests on which two models allow
//! different outcomes, smallest first, written out ready to run under NEW.
//! The comparison is `litmus_model::compare::diff_by_name`'s and the
//! candidates are `litmus_gen`'s families and cycles; this file parses,
//! prints and writes the tests out.

use std::io::Write;
use std::path::{Path, PathBuf};

use litmus_core::ir::{DeclaredVerdict, Origin, Test, Verdict};
use litmus_core::text;
use litmus_model::compare::{default_threads, diff_by_name, Difference};
use litmus_model::{model_by_name, Options};
use serde_json::json;

use super::args::{number, request, Args, Format, Parsed};
use super::candidates::{self, Candidates};
use super::gate::non_empty;
use super::gen::file_of;
use super::{EXIT_FAILED, EXIT_OK};

const HELP_HEAD: &str = "gpu-litmus diff: the generated tests on which two memory models differ

USAGE:
    gpu-litmus diff OLD NEW [OPTIONS]

OLD and NEW are models: ptx, sc, ptx-2015, ptx-7.5, or .cat files. The
candidate tests are `gpu-litmus gen` families (below), each test once up
to renaming; both models check every one (two .cat files share one search
per test). The tests on which they allow different outcomes are listed
smallest first (fewest threads, then fewest instructions): the first is
the shortest witness of the change. Each line gives both verdicts on the
test's condition and the outcomes only one model allows (a difference can
lie outside the condition, with both verdicts equal).

With --out DIR, each of them is written to DIR/<name>.litmus with a
comment giving both verdicts and the outcomes that differ, and NEW's
verdict declared (`=> allowed|forbidden`): ready for
`gpu-litmus run --model NEW DIR`. When none differ, says
`no difference among N tests (bound: ...)`: the bound is the shapes,
cycles and options searched; with --cycles-up-to, every diy7 cycle up to
that many edges over --edges, the vocabulary's size and edges, and how
many cycles each length gave.

OPTIONS:
    --out DIR              write the tests that differ there (created if missing)
    --format FORMAT        text (default) or json: one JSON object
    --threads N            threads checking tests (default: the cores)
    --loop-bound N         the models' loop bound (default 1)
";

const HELP_TAIL: &str = "    -h, --help             print this help

EXIT STATUS:
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

const USAGE: &str = "USAGE:
    gpu-litmus diff OLD NEW [--shapes LIST] [--cycle TEXT]...
                    [--cycles-up-to N [--edges LIST] [--max-threads N]
                     [--max-accesses N] [--max-cycles N]]
                    [--placements LIST] [--scopes LIST] [--fences LIST]
                    [--fence-scopes LIST] [--fence-threads SETS] [--sem LIST]
                    [--memory LIST] [--out DIR] [--format text|json]
                    [--threads N] [--loop-bound N]

For more, try `gpu-litmus diff --help`.";

struct Request {
    old: String,
    new: String,
    candidates: Candidates,
    out: Option<PathBuf>,
    format: Format,
    threads: usize,
    options: Options,
}

fn parse_args(args: &[String]) -> Result<Parsed<Request>, String> {
    let mut positional = Vec::new();
    let mut candidates = Candidates::default();
    let mut out = None;
    let mut format = Format::Text;
    let mut threads = default_threads();
    let mut options = Options::default();
    let mut scan = Args::new(args);
    while let Some((flag, inline)) = scan.next_flag(&mut positional) {
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--out" => out = Some(PathBuf::from(non_empty(&flag, scan.value(&flag, inline)?)?)),
            "--format" => {
                format = Format::parse(&scan.value(&flag, inline)?, &[Format::Text, Format::Json])?
            }
            "--threads" => threads = number(&flag, &scan.value(&flag, inline)?, 1usize)?,
            "--loop-bound" => {
                options.loop_bound = number(&flag, &scan.value(&flag, inline)?, 1u32)?
            }
            _ => {
                if !candidates.take(&flag, inline, &mut scan)? {
                    return Err(format!("unknown option `{flag}`"));
                }
            }
        }
    }
    let [old, new] = <[String; 2]>::try_from(positional).map_err(|p| match p.len() {
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
    candidates.validate()?;
    Ok(Parsed::Work(Request {
        old,
        new,
        candidates,
        out,
        format,
        threads,
        options,
    }))
}

/// Runs `gpu-litmus diff` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let help = format!("{HELP_HEAD}{}{HELP_TAIL}", candidates::HELP);
    let req = match request(parse_args(args), &help, USAGE, out, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
    for name in [&req.old, &req.new] {
        if let Err(e) = model_by_name(name) {
            let _ = writeln!(err, "error: {e}");
            return EXIT_FAILED;
        }
    }
    let generated = match req.candidates.generate(req.threads) {
        Ok(g) => g,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return super::EXIT_USAGE;
        }
    };
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
            let diffs: Vec<_> = d
                .differences
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    json!({
                        "test": x.name,
                        "threads": x.threads,
                        "instructions": x.instructions,
                        "old": x.old.as_str(),
                        "new": x.new.as_str(),
                        "only_old": x.only_old,
                        "only_new": x.only_new,
                        "file": written.get(i).cloned().flatten().map(|p| p.display().to_string()),
                    })
                })
                .collect();
            let errors: Vec<_> = d
                .errors
                .iter()
                .map(|(t, m)| json!({"test": tests[*t].name.text, "message": m}))
                .collect();
            format!(
                "{}\n",
                json!({
                    "old": req.old,
                    "new": req.new,
                    "tests": tests.len(),
                    "bound": bound,
                    "enumeration": req.candidates.enumeration_json(),
                    "left_out": generated.skipped,
                    "enumerated_left_out": generated.enumerated_unfit,
                    "differences": diffs,
                    "errors": errors,
                })
            )
        }
        _ => {
            let mut s = String::new();
            for n in &generated.skipped {
                s.push_str(&format!("note: {n}\n"));
            }
            if generated.enumerated_unfit > 0 {
                s.push_str(&format!(
                    "note: {} enumerated cycles left out, the options do not fit them\n",
                    generated.enumerated_unfit
                ));
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
pub fn write_test(
    dir: &Path,
    test: &Test,
    doc: Vec<String>,
    verdict: Verdict,
) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut test = test.clone();
    test.doc.0.extend(doc);
    test.verdict = Some(DeclaredVerdict {
        verdict,
        origin: Origin::NONE,
    });
    let path = file_of(dir, &test);
    litmus_core::files::write_atomic(&path, text::print(&test).as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}
