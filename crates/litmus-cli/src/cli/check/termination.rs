//! `gpu-litmus check --termination`: whether every consistent execution
//! of each file ends, and otherwise where a thread spins or waits forever.

use std::io::Write;
use std::time::Instant;

use litmus_core::ir::Test;
use litmus_model::{check_termination, Model, Options, Termination};
use litmus_runner::report::json::check::TerminationRecord;
use litmus_runner::report::json::ErrorLine;

use super::super::load::load;
use super::super::{EXIT_FAILED, EXIT_OK};
use crate::cli::args::Format;

/// Checks termination of every file, printing one line (text) or one JSON
/// object per file, in order.
pub fn run(
    files: &[String],
    model: &dyn Model,
    options: &Options,
    format: Format,
    out: &mut dyn Write,
) -> u8 {
    let mut status = EXIT_OK;
    let check_one = |i: usize| {
        let start = Instant::now();
        (
            check_file(&files[i], model, options),
            start.elapsed().as_micros(),
        )
    };
    super::super::parallel::in_order(
        files.len(),
        super::super::parallel::cores(),
        check_one,
        |i, (report, micros)| {
            let file = &files[i];
            let written = match report {
                Ok((test, t)) => {
                    let contradicted = test
                        .termination
                        .is_some_and(|d| d.terminates != t.terminates());
                    if contradicted {
                        status = EXIT_FAILED;
                    }
                    match format {
                        Format::Json => {
                            let record = TerminationRecord::of(file, &test, &t, micros as u64);
                            writeln!(out, "{}", json(&record))
                        }
                        _ => writeln!(out, "{}", text(file, &test, &t, micros)),
                    }
                }
                Err(msg) => {
                    status = EXIT_FAILED;
                    match format {
                        Format::Json => writeln!(out, "{}", json(&ErrorLine::new(file, &msg))),
                        _ => writeln!(out, "{msg}"),
                    }
                }
            };
            written.is_ok() || {
                status = EXIT_FAILED;
                false
            }
        },
    );
    status
}

fn check_file(
    file: &str,
    model: &dyn Model,
    options: &Options,
) -> Result<(Test, Termination), String> {
    let loaded = load(file)?;
    check_termination(&loaded.test, model, options)
        .map(|t| (loaded.test.clone(), t))
        .map_err(|e| format!("{file}:{}: {e}", loaded.header()))
}

fn text(file: &str, test: &Test, t: &Termination, micros: u128) -> String {
    let verdict = match &t.hang {
        None => "terminates".to_string(),
        Some(hang) => format!("may hang: {hang}"),
    };
    let mut s = format!(
        "{file}: {} under {}: {verdict} ({} consistent executions{}; {:.3} ms)",
        test.name.text,
        t.model,
        t.consistent_executions,
        if t.bounded {
            "; loops that write cut at the loop bound"
        } else {
            ""
        },
        micros as f64 / 1000.0
    );
    if let Some(d) = test.termination {
        if d.terminates != t.terminates() {
            let found = if t.terminates() {
                "terminates"
            } else {
                "may hang"
            };
            s.push_str(&format!(
                "\n  declared `=> {}` but the model says it {found}",
                d.as_str()
            ));
        }
    }
    s
}

/// One JSON line of a typed record.
fn json(record: &impl serde::Serialize) -> String {
    serde_json::to_string(record).expect("a record serializes")
}
