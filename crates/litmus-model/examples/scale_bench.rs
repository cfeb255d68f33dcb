//! Times the model checker where its cost used to follow executions rather
//! than outcomes (issue 13): the conformance corpus, the repository's
//! `.litmus` files, and a family of tests with many writes to one location.
//!
//! ```text
//! cargo run --release -p litmus-model --example scale_bench -- [--corpus DIR] [--files DIR] [--max-n N] [--all-executions]
//! ```
//!
//! `--corpus` defaults to `$LITMUS_CONFORMANCE_DIR` (the part is skipped
//! when neither is given); its files come from `expected-ptx-v6.csv` and
//! `expected-termination.csv`. `--files` defaults to `tests/litmus` of the
//! workspace. The family: N threads (N = 3..=max-n, default 6), each
//! storing twice to `x` (relaxed.gpu, distinct values) and then loading it,
//! every thread in its own CTA, `exists` over the loads. Each line prints
//! the time, the allowed outcomes and the execution counts the check
//! reports; a check over budget prints the budget message.
//! `--all-executions` checks with the full enumeration instead of the
//! default search (one consistent execution per outcome).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use litmus_core::corpus;
use litmus_core::ir::Test;
use litmus_model::{check, model_by_name, Model, Options};

fn main() -> ExitCode {
    let args = match Args::parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(msg) => {
            eprintln!("error: {msg}\nusage: scale_bench [--corpus DIR] [--files DIR] [--max-n N] [--all-executions]");
            return ExitCode::from(2);
        }
    };
    let model = model_by_name("ptx").expect("ptx is a model");
    let mut errors = 0;
    match &args.corpus {
        Some(dir) => match corpus_tests(dir) {
            Ok(tests) => errors += time_set("corpus", &tests, model, &args.options),
            Err(msg) => {
                eprintln!("error: {msg}");
                errors += 1;
            }
        },
        None => println!("corpus: skipped, give --corpus or set LITMUS_CONFORMANCE_DIR"),
    }
    match file_tests(&args.files) {
        Ok(tests) => errors += time_set("litmus files", &tests, model, &args.options),
        Err(msg) => {
            eprintln!("error: {msg}");
            errors += 1;
        }
    }
    for n in 3..=args.max_n {
        let test = litmus_text::parse(&family(n)).expect("the family parses");
        let start = Instant::now();
        let result = check(&test, model, &args.options);
        let took = start.elapsed();
        match result {
            Ok(r) => println!(
                "family N={n}: {:>10.3} ms  allowed outcomes {:>6}  consistent {:>9}  candidates {:>9}",
                ms(took),
                r.allowed.len(),
                r.consistent_executions,
                r.candidate_executions
            ),
            Err(e) => println!("family N={n}: {:>10.3} ms  {e}", ms(took)),
        }
    }
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

struct Args {
    corpus: Option<PathBuf>,
    files: PathBuf,
    max_n: usize,
    options: Options,
}

impl Args {
    fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
        let mut args = Args {
            corpus: std::env::var_os(corpus::CORPUS_ENV).map(PathBuf::from),
            files: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/litmus"),
            max_n: 6,
            options: Options::default(),
        };
        while let Some(flag) = it.next() {
            let mut value = || it.next().ok_or_else(|| format!("`{flag}` needs a value"));
            match flag.as_str() {
                "--corpus" => args.corpus = Some(value()?.into()),
                "--files" => args.files = value()?.into(),
                "--all-executions" => args.options.all_executions = true,
                "--max-n" => {
                    let v = value()?;
                    args.max_n = v
                        .parse()
                        .map_err(|_| format!("`--max-n` takes a number, not `{v}`"))?;
                }
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        Ok(args)
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The family of issue 13 for `n` threads, in the `.litmus` dialect.
fn family(n: usize) -> String {
    let threads: Vec<String> = (0..n).map(|t| format!("P{t}@cta {t},gpu 0")).collect();
    let mut rows = vec![threads];
    for k in 0..2 {
        rows.push(
            (0..n)
                .map(|t| format!("st.relaxed.gpu x, {}", 2 * t + k + 1))
                .collect(),
        );
    }
    rows.push((0..n).map(|_| "ld.relaxed.gpu r0, x".to_string()).collect());
    let body: String = rows
        .iter()
        .map(|r| format!(" {} ;\n", r.join(" | ")))
        .collect();
    // Each thread reads the last value of the next one: some outcome to ask
    // about; the observables (every load) are what matters.
    let cond: Vec<String> = (0..n)
        .map(|t| format!("P{t}:r0 == {}", 2 * ((t + 1) % n) + 2))
        .collect();
    format!(
        "PTX family-{n}\n{{ x=0; }}\n{body}exists ({})\n",
        cond.join(" /\\ ")
    )
}

/// The corpus's PTX 6.0 and termination files, parsed.
fn corpus_tests(dir: &Path) -> Result<Vec<(String, Test)>, String> {
    let paths =
        corpus::union_of(dir, &[corpus::PTX_V6, corpus::TERMINATION]).map_err(|e| e.to_string())?;
    paths
        .into_iter()
        .map(|p| parse_file(&dir.join(&p)).map(|t| (p, t)))
        .collect()
}

/// Every `.litmus` file under `dir`, parsed, in path order.
fn file_tests(dir: &Path) -> Result<Vec<(String, Test)>, String> {
    let mut paths = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries =
            std::fs::read_dir(&d).map_err(|e| format!("cannot read {}: {e}", d.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "litmus") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| parse_file(&p).map(|t| (p.display().to_string(), t)))
        .collect()
}

fn parse_file(path: &Path) -> Result<Test, String> {
    let src = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    litmus_text::parse(&src).map_err(|e| e.render(&path.display().to_string()))
}

/// Checks each test, prints the set's totals and its slowest test; returns
/// the number of tests that could not be checked.
fn time_set(label: &str, tests: &[(String, Test)], model: &dyn Model, opts: &Options) -> usize {
    let (mut total, mut slowest) = (Duration::ZERO, (Duration::ZERO, ""));
    let (mut outcomes, mut consistent, mut candidates, mut errors) = (0, 0, 0, 0);
    for (name, test) in tests {
        let start = Instant::now();
        let result = check(test, model, opts);
        let took = start.elapsed();
        total += took;
        if took > slowest.0 {
            slowest = (took, name);
        }
        match result {
            Ok(r) => {
                outcomes += r.allowed.len();
                consistent += r.consistent_executions;
                candidates += r.candidate_executions;
            }
            Err(e) => {
                println!("{name}: {e}");
                errors += 1;
            }
        }
    }
    println!(
        "{label}: {} tests in {:.3} ms (slowest {:.3} ms, {}); allowed outcomes {outcomes}, consistent {consistent}, candidates {candidates}; {errors} errors",
        tests.len(),
        ms(total),
        ms(slowest.0),
        slowest.1,
    );
    errors
}
