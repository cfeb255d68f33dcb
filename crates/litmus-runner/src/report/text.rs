//! The report a person reads: one summary line when a test passes, the
//! whole story when it fails.

use std::fmt::Write;

use crate::runner::{Hardware, Source, TestReport};

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
        Hardware::Ran(r) => {
            let unfinished = if r.unfinished > 0 {
                format!(
                    ", {} unfinished (a loop ran past LITMUS_LOOP_BOUND)",
                    r.unfinished
                )
            } else {
                String::new()
            };
            // A test with host threads runs its own count per launch, on
            // CPU threads the knobs alone do not tell.
            let host = if r.host_threads > 0 {
                format!(
                    ", host roles on {} CPU threads, {} instances per launch",
                    r.host_threads,
                    r.instances / r.launches.max(1)
                )
            } else {
                String::new()
            };
            // How the module was built: the same PTX is other code under
            // another target or toolchain.
            let build = match r.build.target.is_empty() {
                true => String::new(),
                false => format!(" ({})", r.build),
            };
            format!(
                "hardware: {} instances in {} launches on {}{build} ({:.2e}/s){unfinished}{host}, {}",
                r.instances,
                r.launches,
                r.device,
                r.rate(),
                r.knobs
            )
        }
        Hardware::Skipped(why) => format!("hardware: skipped, {why}"),
        Hardware::NotRun(why) => format!("hardware: not run, {why}"),
        Hardware::Failed(why) => format!("hardware: failed, {why}"),
        Hardware::Off => "hardware: not asked for".into(),
    }
}

/// Whether the condition's outcome showed, in words; `None` when the
/// hardware did not run.
fn condition_words(report: &TestReport) -> Option<&'static str> {
    report.condition_seen().map(|seen| {
        if seen {
            "condition outcome observed"
        } else {
            "condition outcome not observed"
        }
    })
}

/// How to run the test again the same way: the seed and every knob that
/// differs from its default, as environment variables, then the command,
/// every value and path shell-quoted ([`litmus_core::shell::quote`]) so
/// that pasted into `sh` it runs that command and nothing else.
pub fn reproduce(report: &TestReport) -> String {
    use litmus_core::shell::{assignment, quote};
    let mut env = String::new();
    if let Some(k) = &report.knobs {
        for (var, value) in k.env_assignments() {
            env.push_str(&assignment(var, &value));
            env.push(' ');
        }
    }
    match &report.source {
        Source::CargoTest(path) => format!(
            "{env}{} cargo test {} -- --exact",
            assignment("LITMUS_MODEL", report.model),
            quote(path)
        ),
        Source::File(file) => {
            let bound = if report.loop_bound == litmus_model::Options::default().loop_bound {
                String::new()
            } else {
                format!(" --loop-bound {}", report.loop_bound)
            };
            format!(
                "{env}gpu-litmus run --model {}{bound} {}",
                quote(report.model),
                quote(file)
            )
        }
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
        let verdict = if row.allowed {
            "allowed"
        } else if row.beyond_loop_bound {
            "allowed beyond the loop bound"
        } else {
            "FORBIDDEN"
        };
        let _ = writeln!(
            out,
            "{} {:<width$}  {:>14}  {verdict}",
            if row.satisfies_condition { "*" } else { " " },
            row.text,
            seen,
        );
    }
    out
}

/// The summary printed for every test.
pub fn summary(report: &TestReport) -> String {
    let model = match (report.computed, report.declared) {
        (Some(c), Some(d)) => format!("{} (declared {})", c.as_str(), d.as_str()),
        (Some(c), None) => c.as_str().to_string(),
        (None, _) => "not checked".into(),
    };
    let mut line = format!(
        "litmus {}: model {}: {}; {}",
        report.test,
        report.model,
        model,
        hardware_line(report)
    );
    if report
        .model_stats
        .as_ref()
        .is_some_and(|m| m.consistent_executions == 0)
    {
        // A verdict over no execution at all is vacuous: say so.
        let _ = write!(
            line,
            " (no consistent execution at all: every one deadlocks or is cut at the loop bound)"
        );
    }
    if let Some(words) = condition_words(report) {
        let _ = write!(line, "; {words}");
        let unseen = report.allowed_unseen().len();
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
        .allowed_unseen()
        .iter()
        .map(|r| r.text.as_str())
        .collect();
    if !unseen.is_empty() {
        let _ = writeln!(out, "allowed but never seen: {}", unseen.join(" | "));
    }
    if let Some(words) = condition_words(report) {
        let _ = writeln!(out, "{words}");
    }
    let _ = writeln!(out, "{}", hardware_line(report));
    if let Some(compiler) = &report.compiler {
        let _ = writeln!(out, "{compiler}");
    }
    let _ = writeln!(
        out,
        "model {}, budget {}; reproduce: {}",
        report.model,
        budget(report),
        reproduce(report)
    );
    out
}
