//! A JUnit XML file per test binary. Cargo gives no hook at the end of a
//! test binary, so the file is rewritten, whole, after each test with
//! every result of this process so far; the last rewrite has them all.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// One finished test, as JUnit needs it.
#[derive(Clone, Debug)]
pub struct Case {
    /// The test's id (cargo test path or file), unique in the suite.
    pub name: String,
    /// How long the test took.
    pub time: Duration,
    /// `Some(message)` when the test failed.
    pub failure: Option<String>,
    /// Why the hardware half did not run, when it did not (a property of
    /// the case: the case itself ran, its model half at least).
    pub skipped: Option<String>,
    /// The text report, written as `<system-out>`.
    pub output: String,
}

/// The cases recorded so far, per report directory.
static CASES: Mutex<BTreeMap<PathBuf, Vec<Case>>> = Mutex::new(BTreeMap::new());

/// The name [`name_suite`] gave, if any.
static NAMED: OnceLock<String> = OnceLock::new();

/// Names this process's suite `name` instead of after its executable's
/// file: for a program whose file name is not its name (the CLI is
/// `gpu-litmus`, and writes `junit-gpu-litmus.xml`, also when its tests
/// run it as `litmus-cli`). The first name given holds.
pub fn name_suite(name: &str) {
    let _ = NAMED.set(name.to_string());
}

/// The suite's name: the one [`name_suite`] gave, else the test binary's
/// name without cargo's hash.
pub fn suite_name() -> String {
    if let Some(name) = NAMED.get() {
        return name.clone();
    }
    let exe = std::env::current_exe().ok();
    let stem = exe
        .as_deref()
        .and_then(Path::file_stem)
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "litmus".into());
    match stem.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) => {
            name.to_string()
        }
        _ => stem,
    }
}

/// The file this process writes in `dir`.
pub fn path(dir: &Path) -> PathBuf {
    dir.join(format!("junit-{}.xml", suite_name()))
}

/// Records `case` and rewrites this binary's JUnit file in `dir`. Cases
/// are keyed by name, which the caller makes unique (a cargo test path, a
/// file path). Under cargo-nextest each test is a process of its own, so
/// use nextest's own JUnit output there.
pub fn record(dir: &Path, case: Case) -> std::io::Result<()> {
    let mut all = CASES.lock().unwrap_or_else(|p| p.into_inner());
    let cases = all.entry(dir.to_path_buf()).or_default();
    cases.retain(|c| c.name != case.name);
    cases.push(case);
    let xml = render(&suite_name(), cases);
    let target = path(dir);
    let tmp = target.with_extension(format!("xml.{}.tmp", std::process::id()));
    std::fs::write(&tmp, xml)?;
    std::fs::rename(&tmp, &target)
}

/// The XML text of a suite.
pub fn render(suite: &str, cases: &[Case]) -> String {
    let failures = cases.iter().filter(|c| c.failure.is_some()).count();
    let time: f64 = cases.iter().map(|c| c.time.as_secs_f64()).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" time=\"{time:.3}\">",
        escape(suite),
        cases.len()
    );
    for c in cases {
        let _ = write!(
            out,
            "  <testcase name=\"{}\" classname=\"{}\" time=\"{:.3}\">",
            escape(&c.name),
            escape(suite),
            c.time.as_secs_f64()
        );
        if let Some(msg) = &c.failure {
            let first = msg.lines().next().unwrap_or_default();
            let _ = write!(
                out,
                "\n    <failure message=\"{}\">{}</failure>",
                escape(first),
                escape(msg)
            );
        } else if let Some(why) = &c.skipped {
            // The model half ran and passed: the case is not skipped, but
            // the skipped hardware half is said in its output.
            let _ = write!(
                out,
                "\n    <properties><property name=\"hardware\" value=\"{}\"/></properties>",
                escape(why)
            );
        }
        let _ = writeln!(
            out,
            "\n    <system-out>{}</system-out>\n  </testcase>",
            escape(&c.output)
        );
    }
    out.push_str("</testsuite>\n");
    out
}

/// Escapes text for XML attributes and content; drops characters XML 1.0
/// cannot hold.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => {}
            c => out.push(c),
        }
    }
    out
}

/// Writes `DIR/junit-gpu-litmus-gate.xml`, `gpu-litmus gate --report`'s
/// file: a case per test of `subjects`, failed with each outcome the
/// hardware showed that the model forbids and each error of checking it.
pub fn write_gate(
    dir: &Path,
    subjects: &[litmus_evidence::gate::Subject],
    report: &litmus_evidence::gate::GateReport,
) -> std::io::Result<()> {
    let cases: Vec<Case> = subjects
        .iter()
        .map(|s| {
            let of = |file: &str, test: &str| file == s.file && test == s.test.name.text;
            let violations = report.violations.iter().filter(|v| of(&v.file, &v.test));
            let mut failure: Vec<String> = violations
                .map(|v| {
                    format!(
                        "the hardware showed `{}` ({}), which the model forbids\n{}",
                        v.seen.text,
                        v.seen.places(),
                        v.explanation
                    )
                })
                .collect();
            let errors = report.errors.iter().filter(|e| of(&e.file, &e.test));
            failure.extend(errors.map(|e| format!("cannot check: {}", e.message)));
            Case {
                name: format!("{}: {}", s.file, s.test.name.text),
                time: Duration::ZERO,
                failure: (!failure.is_empty()).then(|| failure.join("\n")),
                skipped: None,
                output: String::new(),
            }
        })
        .collect();
    std::fs::create_dir_all(dir)?;
    litmus_core::files::write_atomic(
        &dir.join("junit-gpu-litmus-gate.xml"),
        render("gpu-litmus-gate", &cases).as_bytes(),
    )
}
