//! The report a person reads: one summary line when a test passes, the
//! whole story when it fails.

use std::fmt::Write;

use crate::runner::{verdict_word, Hardware, TestReport};

/// The knobs' budget in words: `launches=N` or `budget_ms=N`.
pub fn budget(report: &TestReport) -> String {
    match &report.knobs {
        Some(k) => match k.launches {
            Some(n) => format!("{n} launches"),
            None => format!("{} ms", k.budget_ms),
        },
        None => "-".into(),
    }
}

/// One line on the hardware half.
pub fn hardware_line(report: &TestReport) -> String {
    match &report.hardware {
        Hardware::Ran(r) => format!(
            "hardware: {} instances in {} launches on {} ({:.2e}/s), {}",
            r.instances,
            r.launches,
            r.device,
            r.rate(),
            r.knobs
        ),
        Hardware::Skipped(why) => format!("hardware: skipped, {why}"),
        Hardware::NotRun(why) => format!("hardware: not run, {why}"),
        Hardware::Off => "hardware: not run".into(),
    }
}

/// The outcome table: outcome, hardware count, model verdict; `*` marks the
/// outcomes the condition describes.
pub fn table(report: &TestReport) -> String {
    let mut out = String::new();
    let width = report
        .rows
        .iter()
        .map(|r| r.text.len())
        .max()
        .unwrap_or(7)
        .max(7);
    let _ = writeln!(
        out,
        "  {:<width$}  {:>14}  model ({})",
        "outcome", "hardware", report.model
    );
    for row in &report.rows {
        let seen = match row.seen {
            Some(n) => n.to_string(),
            None => "-".into(),
        };
        let _ = writeln!(
            out,
            "{} {:<width$}  {:>14}  {}",
            if row.satisfies_condition { "*" } else { " " },
            row.text,
            seen,
            if row.allowed { "allowed" } else { "FORBIDDEN" }
        );
    }
    out
}

/// The summary printed for every test.
pub fn summary(report: &TestReport) -> String {
    let model = match (report.computed, report.declared) {
        (Some(c), Some(d)) => format!("{} (declared {})", verdict_word(c), verdict_word(d)),
        (Some(c), None) => verdict_word(c).to_string(),
        (None, _) => "not checked".into(),
    };
    let mut line = format!(
        "litmus {}: model {}: {}; {}",
        report.test,
        report.model,
        model,
        hardware_line(report)
    );
    if let Some(seen) = report.condition_seen() {
        let _ = write!(
            line,
            "; condition outcome {}",
            if seen { "observed" } else { "not observed" }
        );
        let unseen = report
            .rows
            .iter()
            .filter(|r| r.allowed && r.seen == Some(0))
            .count();
        if unseen > 0 {
            let _ = write!(line, "; {unseen} allowed outcome(s) never seen");
        }
    }
    line
}

/// The failure message: what failed, the outcome table, explanations of
/// the forbidden outcomes the hardware showed, and how to reproduce.
pub fn failure_message(report: &TestReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "litmus test `{}` failed under model {}:",
        report.test, report.model
    );
    for f in &report.failures {
        let _ = writeln!(out, "  - {f}");
    }
    if !report.rows.is_empty() {
        let _ = writeln!(out, "\n{}", table(report));
    }
    for row in report.rows.iter().filter(|r| r.explanation.is_some()) {
        let _ = writeln!(
            out,
            "why {} is forbidden:\n{}",
            row.text,
            row.explanation.as_deref().unwrap_or_default()
        );
    }
    let unseen: Vec<&str> = report
        .rows
        .iter()
        .filter(|r| r.allowed && r.seen == Some(0))
        .map(|r| r.text.as_str())
        .collect();
    if !unseen.is_empty() {
        let _ = writeln!(out, "allowed but never seen: {}", unseen.join(" | "));
    }
    if let Some(seen) = report.condition_seen() {
        let _ = writeln!(
            out,
            "condition outcome {}",
            if seen { "observed" } else { "not observed" }
        );
    }
    let _ = writeln!(out, "{}", hardware_line(report));
    let seed = report.knobs.as_ref().map_or(0, |k| k.seed);
    let _ = writeln!(
        out,
        "model {}, seed {seed}, budget {}; reproduce: LITMUS_SEED={seed} LITMUS_MODEL={} cargo test {}",
        report.model,
        budget(report),
        report.model,
        report.test
    );
    out
}
