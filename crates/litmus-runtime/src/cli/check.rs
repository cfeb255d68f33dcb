//! `gpu-litmus check`: checks `.litmus` files with a memory model alone.

use std::io::Write;
use std::time::Instant;

use litmus_core::ir::{Quantifier, Test, Verdict};
use litmus_core::text;
use litmus_model::{check, model_by_name, model_from_env, CheckResult, Model, Options};
use serde_json::{json, Map, Value};

use super::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};

const HELP: &str = "gpu-litmus check: check .litmus files with a memory model alone (no GPU)

USAGE:
    gpu-litmus check [OPTIONS] FILE...

For each file, enumerates the candidate executions of the test, keeps those
the model allows, and reports the allowed outcomes and whether the test's
claim holds (exists: the condition is reachable; ~exists: it is not;
forall: every allowed outcome satisfies it). A verdict declared in the file
(`=> allowed` / `=> forbidden`) that the model contradicts fails the file.

OPTIONS:
    --model NAME        the memory model: ptx (default), sc, ptx-2015
                        (default: $LITMUS_MODEL, else ptx)
    --format FORMAT     text (default) or json: one JSON object per file and
                        line, with the fields file, name, model, quantifier,
                        condition_reachable, claim_holds, verdict, bounded,
                        allowed_outcomes, consistent_executions,
                        candidate_executions, micros (and declared_verdict
                        when the file declares one); a file that cannot be
                        read, parsed or checked gives {\"file\", \"error\"}
    --loop-bound N      how many times a loop body may run (default 1: any
                        taken backward jump discards the execution)
    --max-steps N       search budget per file (default 20000000); a test
                        over budget is an error saying how far it got
    -h, --help          print this help

EXIT STATUS:
    0  every file was checked and no declared verdict was contradicted
    1  some file failed (unreadable, invalid, over budget, or its declared
       verdict disagrees with the model); the other files are still checked
    2  the command line is wrong
";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
}

struct Args {
    model: &'static dyn Model,
    format: Format,
    options: Options,
    files: Vec<String>,
}

enum Parsed {
    Run(Args),
    Help,
}

fn parse_args(args: &[String]) -> Result<Parsed, String> {
    let mut model_name: Option<String> = None;
    let mut format = Format::Text;
    let mut options = Options::default();
    let mut files = Vec::new();
    let mut i = 0;
    let mut only_files = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_files || !arg.starts_with('-') || arg == "-" {
            files.push(arg.clone());
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            let v = args
                .get(i)
                .cloned()
                .ok_or(format!("`{name}` needs a value"))?;
            i += 1;
            Ok(v)
        };
        match flag {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--" => only_files = true,
            "--model" => model_name = Some(value("--model")?),
            "--format" => {
                format = match value("--format")?.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    other => {
                        return Err(format!(
                            "unknown format `{other}`; the formats are: text, json"
                        ))
                    }
                }
            }
            "--loop-bound" => {
                let v = value("--loop-bound")?;
                options.loop_bound = v.parse().ok().filter(|&n: &u32| n >= 1).ok_or(format!(
                    "`--loop-bound` takes a whole number of at least 1, not `{v}`"
                ))?;
            }
            "--max-steps" => {
                let v = value("--max-steps")?;
                options.max_steps = v.parse().ok().filter(|&n: &u64| n >= 1).ok_or(format!(
                    "`--max-steps` takes a whole number of at least 1, not `{v}`"
                ))?;
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let model = match model_name {
        Some(name) => model_by_name(&name).map_err(|e| e.to_string())?,
        None => model_from_env().map_err(|e| e.to_string())?,
    };
    if files.is_empty() {
        return Err("no files to check".to_string());
    }
    Ok(Parsed::Run(Args {
        model,
        format,
        options,
        files,
    }))
}

/// Runs `gpu-litmus check` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let args = match parse_args(args) {
        Ok(Parsed::Run(a)) => a,
        Ok(Parsed::Help) => {
            let _ = write!(out, "{HELP}");
            return EXIT_OK;
        }
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}\n\nUSAGE:\n    gpu-litmus check [--model NAME] [--format text|json] FILE...\n\nFor more, try `gpu-litmus check --help`.");
            return EXIT_USAGE;
        }
    };
    let mut status = EXIT_OK;
    for file in &args.files {
        let start = Instant::now();
        let report = check_file(file, &args);
        let micros = start.elapsed().as_micros();
        if !report.ok() {
            status = EXIT_FAILED;
        }
        let written = match args.format {
            Format::Json => writeln!(out, "{}", report.json(file, args.model, micros)),
            Format::Text => write!(out, "{}", report.text(file, args.model, micros)),
        };
        if written.is_err() {
            // stdout is gone (a closed pipe): nothing more can be reported.
            return EXIT_FAILED;
        }
    }
    status
}

enum Report {
    Checked {
        test: Box<Test>,
        result: CheckResult,
    },
    Failed(String),
}

impl Report {
    fn ok(&self) -> bool {
        match self {
            Report::Checked { test, result } => {
                test.verdict.is_none_or(|d| d.verdict == result.verdict())
            }
            Report::Failed(_) => false,
        }
    }

    fn json(&self, file: &str, model: &dyn Model, micros: u128) -> Value {
        let (test, r) = match self {
            Report::Failed(msg) => return json!({ "file": file, "error": msg }),
            Report::Checked { test, result } => (test, result),
        };
        let outcomes: Vec<Value> = r
            .allowed
            .iter()
            .map(|o| {
                let mut m = Map::new();
                for (obs, v) in r.observables.iter().zip(o) {
                    m.insert(obs.display(test), json!(v));
                }
                Value::Object(m)
            })
            .collect();
        let mut v = json!({
            "file": file,
            "name": test.name.text,
            "model": model.name(),
            "quantifier": quantifier(r.quantifier),
            "condition_reachable": r.condition_reachable,
            "claim_holds": r.claim_holds,
            "verdict": verdict(r.verdict()),
            "bounded": r.bounded,
            "allowed_outcomes": outcomes,
            "consistent_executions": r.consistent_executions,
            "candidate_executions": r.candidate_executions,
            "micros": micros as u64,
        });
        if let Some(d) = test.verdict {
            v["declared_verdict"] = json!(verdict(d.verdict));
        }
        v
    }

    fn text(&self, file: &str, model: &dyn Model, micros: u128) -> String {
        let (test, r) = match self {
            Report::Failed(msg) => return format!("{msg}\n"),
            Report::Checked { test, result } => (test, result),
        };
        let claim = if r.claim_holds {
            "holds"
        } else {
            "does not hold"
        };
        let mut s = format!(
            "{file}: {} under {}: `{}` claim {claim} (outcome {}); {} allowed outcome{}; {} consistent of {} candidate executions{}; {:.3} ms\n",
            test.name.text,
            model.name(),
            quantifier(r.quantifier),
            verdict(r.verdict()),
            r.allowed.len(),
            if r.allowed.len() == 1 { "" } else { "s" },
            r.consistent_executions,
            r.candidate_executions,
            if r.bounded { " (loops cut at the loop bound)" } else { "" },
            micros as f64 / 1000.0,
        );
        if let Some(d) = test.verdict {
            if d.verdict != r.verdict() {
                s.push_str(&format!(
                    "  declared `=> {}` but the model says {}\n",
                    verdict(d.verdict),
                    verdict(r.verdict())
                ));
            }
        }
        for line in r.outcome_lines(test) {
            s.push_str(&format!("  {line}\n"));
        }
        s
    }
}

fn quantifier(q: Quantifier) -> &'static str {
    match q {
        Quantifier::Exists => "exists",
        Quantifier::NotExists => "not exists",
        Quantifier::Forall => "forall",
    }
}

fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Allowed => "allowed",
        Verdict::Forbidden => "forbidden",
    }
}

fn check_file(file: &str, args: &Args) -> Report {
    let src = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => return Report::Failed(format!("{file}: cannot read: {e}")),
    };
    let test = match text::parse(&src) {
        Ok(t) => t,
        Err(e) => return Report::Failed(e.render(file).trim_end().to_string()),
    };
    match check(&test, args.model, &args.options) {
        Ok(result) => Report::Checked {
            test: Box::new(test),
            result,
        },
        Err(e) => {
            // Point at the test's header: the error is about the whole test.
            let at = text::position(&src, test.name.origin)
                .map_or_else(|| "1:1".to_string(), |p| p.to_string());
            Report::Failed(format!("{file}:{at}: {e}"))
        }
    }
}
