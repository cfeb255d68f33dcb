//! What the GPU benchmarks (`gpu_bench`, `gpus_bench`, `host_bench`)
//! share: their command line, their knobs, each test read and generated,
//! and the count of its weak outcomes.

use std::process::ExitCode;

use gpu_litmus::core::ir::Test;
use gpu_litmus::hw::{HwResult, Knobs};
use gpu_litmus::ptx;
use gpu_litmus::runner::Config;
use gpu_litmus::{core::outcome, text};

/// The command line every benchmark reads: `[--budget-ms N] [NAME_FILTER]`.
pub struct Args {
    pub budget_ms: Option<u64>,
    pub filter: Option<String>,
}

impl Args {
    /// Reads the command line of benchmark `bench`. `extra` takes the
    /// options of that benchmark alone: given an argument and the rest, it
    /// answers `None` for one it does not know (the name filter), else
    /// whether its value was good. `Err`: the exit code (help printed, or
    /// the mistake said).
    pub fn read(
        bench: &str,
        usage: &str,
        mut extra: impl FnMut(&str, &mut dyn Iterator<Item = String>) -> Option<Result<(), String>>,
    ) -> Result<Args, ExitCode> {
        let mut out = Args {
            budget_ms: None,
            filter: None,
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--budget-ms" => match args.next().and_then(|v| v.parse().ok()) {
                    Some(v) => out.budget_ms = Some(v),
                    None => {
                        eprintln!("{bench}: --budget-ms needs a number of milliseconds");
                        return Err(ExitCode::FAILURE);
                    }
                },
                "-h" | "--help" => {
                    println!("usage: {usage}");
                    return Err(ExitCode::SUCCESS);
                }
                other => match extra(other, &mut args) {
                    Some(Ok(())) => {}
                    Some(Err(why)) => {
                        eprintln!("{bench}: {why}");
                        return Err(ExitCode::FAILURE);
                    }
                    None => out.filter = Some(other.to_string()),
                },
            }
        }
        Ok(out)
    }

    /// Whether the name filter leaves test `name` out.
    pub fn skips(&self, name: &str) -> bool {
        self.filter
            .as_ref()
            .is_some_and(|f| !name.contains(f.as_str()))
    }

    /// The environment's knobs, every `LITMUS_*` variable checked as by
    /// every other entry point, with the command line's budget; printed.
    pub fn knobs(&self, bench: &str) -> Result<Knobs, ExitCode> {
        let mut knobs = match Config::from_env() {
            Ok(config) => config.knobs,
            Err(e) => {
                eprintln!("{bench}: {e}");
                return Err(ExitCode::FAILURE);
            }
        };
        if let Some(ms) = self.budget_ms {
            knobs.budget_ms = ms;
        }
        println!("knobs: {knobs}");
        Ok(knobs)
    }
}

/// Test `name` read from `src` and its PTX; `None` once it has said why
/// not.
pub fn prepared(name: &str, src: &str) -> Option<(Test, String)> {
    let test = match text::parse(src) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{name}: {}", e.render(name));
            return None;
        }
    };
    match ptx::generate(&test) {
        Ok(code) => Some((test, code)),
        Err(e) => {
            eprintln!("{name}: {e}");
            None
        }
    }
}

/// The instances of `result` that showed the outcome the condition names.
pub fn weak(test: &Test, result: &HwResult) -> u64 {
    let obs = outcome::observables(test);
    result
        .histogram
        .iter()
        .filter(|(values, _)| outcome::eval(test, &obs, values))
        .map(|(_, c)| c)
        .sum()
}
