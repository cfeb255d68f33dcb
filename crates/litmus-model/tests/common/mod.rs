//! Helpers shared by the model's integration tests.

#![allow(dead_code)]

pub mod cat_fuzz;

use litmus_core::ir::{Test, Verdict};
use litmus_model::events::PathError;
use litmus_model::{check, model_by_name, CheckResult, Options};

/// Parses a `.litmus` text, panicking with the parser's message.
pub fn parse(src: &str) -> Test {
    litmus_text::parse(src).unwrap_or_else(|e| panic!("test text does not parse:\n{e}\n{src}"))
}

/// Checks a `.litmus` text under a model.
pub fn run(src: &str, model: &str) -> CheckResult {
    let test = parse(src);
    check(&test, model_by_name(model).unwrap(), &Options::default())
        .unwrap_or_else(|e| panic!("check failed: {e}\n{src}"))
}

/// The verdict on the condition's outcome (allowed: some consistent
/// execution satisfies an `exists` condition).
pub fn verdict(src: &str, model: &str) -> Verdict {
    run(src, model).verdict()
}

pub const ALLOWED: Verdict = Verdict::Allowed;
pub const FORBIDDEN: Verdict = Verdict::Forbidden;

/// Asserts that `a` and `b` allow the same outcomes, with the same claim,
/// on every file of `files` that parses (a file the text front end refuses
/// is its own test's business).
pub fn assert_same_outcomes(
    files: &[std::path::PathBuf],
    a: &dyn litmus_model::Model,
    b: &dyn litmus_model::Model,
) {
    let mut failures = Vec::new();
    let mut compared = 0;
    for f in files {
        let src = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let Ok(test) = litmus_text::parse(&src) else {
            continue;
        };
        let (ra, rb) = (
            check(&test, a, &Options::default()),
            check(&test, b, &Options::default()),
        );
        match (ra, rb) {
            (Ok(ra), Ok(rb)) => {
                compared += 1;
                if ra.allowed != rb.allowed || ra.claim_holds != rb.claim_holds {
                    failures.push(format!(
                        "{}: {} allows {:?}, {} allows {:?}",
                        f.display(),
                        a.name(),
                        ra.outcome_lines(&test),
                        b.name(),
                        rb.outcome_lines(&test)
                    ));
                }
            }
            // A PTX 7.5 file that neither model has proxies for.
            (
                Err(litmus_model::CheckError::Paths(PathError::Proxies { .. })),
                Err(litmus_model::CheckError::Paths(PathError::Proxies { .. })),
            ) => {}
            // An async-proxy file that neither model has the async proxy for.
            (
                Err(litmus_model::CheckError::Paths(PathError::Async { .. })),
                Err(litmus_model::CheckError::Paths(PathError::Async { .. })),
            ) => {}
            (ra, rb) => failures.push(format!(
                "{}: {} gives {:?}, {} gives {:?}",
                f.display(),
                a.name(),
                ra.err().map(|e| e.to_string()),
                b.name(),
                rb.err().map(|e| e.to_string())
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {compared} files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared > 0, "no file was compared");
}

/// Every `.litmus` file of this repository (a corpus' file list comes from
/// its CSV instead; this walks only the checkout, `target` excluded).
pub fn repo_litmus_files() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name();
            if p.is_dir() && name != "target" && !name.to_string_lossy().starts_with('.') {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "litmus") {
                out.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut out = Vec::new();
    walk(&root, &mut out);
    out.sort();
    out
}

/// The tests a corpus list names, parsed (lists from
/// `litmus_core::corpus`, never a walk of the corpus folder).
pub fn corpus_files(dir: &std::path::Path, list: &str) -> Vec<std::path::PathBuf> {
    litmus_core::corpus::read_list(dir, list)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|e| dir.join(e.path))
        .collect()
}

/// Checks every test of the verdict list `list` with `model` and returns
/// how many were checked and one line per test whose `claim_holds`
/// differs from Dat3M's verdict (or that cannot be read or checked).
pub fn disagreements(dir: &std::path::Path, list: &str, model: &str) -> (usize, Vec<String>) {
    let model = litmus_model::model_by_name(model).unwrap();
    let entries = litmus_core::corpus::read_list(dir, list).unwrap_or_else(|e| panic!("{e}"));
    let mut failures = Vec::new();
    let mut checked = 0;
    for litmus_core::corpus::Entry {
        path: file,
        expected,
        ..
    } in &entries
    {
        let (file, expected) = (file.as_str(), *expected);
        let src = match std::fs::read_to_string(dir.join(file)) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{file}: cannot read: {e}"));
                continue;
            }
        };
        let test = match litmus_text::parse(&src) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{file}: does not parse:\n{}", e.render(file)));
                continue;
            }
        };
        checked += 1;
        match litmus_model::check(&test, model, &litmus_model::Options::default()) {
            Ok(r) if r.claim_holds == expected => {}
            Ok(r) => failures.push(format!(
                "{file}: claim_holds = {}, Dat3M says {} ({} consistent executions; allowed: {:?})",
                r.claim_holds,
                expected,
                r.consistent_executions,
                r.outcome_lines(&test)
            )),
            Err(e) => failures.push(format!("{file}: check failed: {e}")),
        }
    }
    (checked, failures)
}

/// Asserts that `model` gives Dat3M's verdict on every one of the `count`
/// tests of the verdict list `list`, printing the agreement figure; says
/// in one line that it skipped when the corpus is not set.
pub fn assert_agreement(list: &str, model: &str, count: usize) {
    let Some(dir) = std::env::var_os(litmus_core::corpus::CORPUS_ENV) else {
        println!("conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    // A cat file of the corpus is named relative to it.
    let model = if model.ends_with(".cat") {
        std::path::Path::new(&dir).join(model).display().to_string()
    } else {
        model.to_string()
    };
    let (checked, failures) = disagreements(dir.as_ref(), list, &model);
    println!(
        "conformance: {model} agrees with Dat3M on {} of {checked} tests of {list}",
        checked - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} corpus tests disagree with Dat3M:\n{}",
        failures.len(),
        checked,
        failures.join("\n")
    );
    assert_eq!(checked, count, "{list} should name {count} tests");
}
