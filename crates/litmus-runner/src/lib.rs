//! The runner of gpu-litmus: puts the model checker and the hardware side
//! by side and turns their results into a verdict.
//!
//! - [`run_litmus`] and [`run_litmus_text`]: what the `litmus!` and
//!   `litmus_files!` macros expand to; each is one cargo test.
//! - [`runner::run_test`]: the same as a value ([`runner::TestReport`]), for
//!   tools.
//! - [`config`]: the run's configuration, read from the environment.
//! - [`report`]: a run's reports (text, JSON, JUnit, litmus7, herd).
//! - [`tune_in_place`]: `LITMUS_TUNE=1`, tests that tune themselves.
//! - [`figures`]: a run's weak and forbidden counts, as `campaign` prints them.
//! - [`shard`]: `--shard K/N`, a set of tests split across machines.
//! - [`device_pool`]: a set of tests spread over the node's GPUs.
//! - [`kind_search`]: the family-wide search on one device kind's GPUs.
//! - [`prefetch`]: the next tests' modules compiled while the current ones run.
//!
//! The floors below keep their own crates: the hardware (`litmus-hw`), the
//! evidence and its gate (`litmus-evidence`), the tuner (`litmus-tune`).
//! They are re-exported here under the names they had when they were
//! modules of this crate (`gpu`, `evidence`, `tune`, `tuning`, `stats`), so
//! that code written against those paths keeps building.

#![warn(missing_docs)]

pub mod campaign;
pub mod compiler_check;
pub mod config;
pub mod device_pool;
pub mod figures;
pub mod in_order;
pub mod kind_search;
pub mod missed;
pub mod portfolio;
pub mod prefetch;
pub mod report;
pub mod runner;
pub mod shard;
pub mod trials;
pub mod tune_in_place;

pub use litmus_evidence as evidence;
pub use litmus_evidence::stats;
pub use litmus_hw as gpu;
pub use litmus_tune as tune;
pub use litmus_tune::tuning;

use std::io::Write;
use std::time::Instant;

use litmus_core::ir::Test;

pub use config::Config;
pub use runner::{run_test, Source, TestReport};

/// Runs one litmus test as a cargo test: the entry point that `litmus!`
/// expands to, with the PTX it generated at compile time (`None` when the
/// GPU harness cannot run the test). Panics (fails the test) with the whole
/// story when the model's verdict is not the declared one, when the
/// hardware shows an outcome the model forbids, or when the hardware half
/// breaks.
///
/// What a `litmus!` test does, by hand: the model half always runs; the
/// hardware half runs the PTX on a GPU when there is one, and otherwise
/// says in one line that it skipped (unless `LITMUS_REQUIRE_GPU=1`).
///
/// ```no_run
/// let test = litmus_core::text::parse(
///     "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
/// )
/// .unwrap();
/// // `None` when the harness cannot run the test: the model half only.
/// let ptx = litmus_ptx::generate(&test).ok();
/// litmus_runner::run_litmus(&test, ptx.as_deref());
/// ```
pub fn run_litmus(test: &Test, ptx: Option<&str>) {
    let start = Instant::now();
    let mut config =
        Config::from_env().unwrap_or_else(|e| panic!("litmus test `{}`: {e}", test.name));
    if let Err(e) = config.refuse_clobber(&[]) {
        panic!(
            "litmus test `{}`: {}: {e}",
            test.name,
            config::REPORT_DIR_ENV
        );
    }
    let quiet = config::quiet().unwrap_or_else(|e| panic!("litmus test `{}`: {e}", test.name));
    // An async test with no model named is judged by `ptx-async`, the
    // default's extension, rather than refused by `ptx`.
    config.model = litmus_model::model_from_env_for(test)
        .unwrap_or_else(|e| panic!("litmus test `{}`: {e}", test.name));
    match tune_in_place::tune_from_env(test, ptx, &mut config) {
        Ok(None) => {}
        Ok(Some(line)) => {
            let _ = writeln!(std::io::stderr(), "{line}");
        }
        Err(e) => panic!("litmus test `{}`: {e}", test.name),
    }
    // libtest names each test's thread after the test's path: exactly
    // what `cargo test NAME -- --exact` takes, and unique in the binary.
    let id = std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .unwrap_or(&test.name.text)
        .to_string();
    let report = run_test(test, ptx, &config, runner::Source::CargoTest(id));
    // Straight to the stream, past cargo's capture: the hardware line must
    // show even when the test passes ("hardware: skipped, ..."), unless
    // `LITMUS_QUIET=1` asks a passing test to say nothing.
    if !(quiet && report.passed()) {
        let _ = writeln!(std::io::stderr(), "{}", report::text::summary(&report));
    }
    if let Some(dir) = &config.report_dir {
        if let Err(e) = report::write(dir, &report, start.elapsed()) {
            panic!(
                "litmus test `{}`: cannot write reports to {} ({}): {e}",
                test.name,
                dir.display(),
                config::REPORT_DIR_ENV
            );
        }
    }
    if !report.passed() {
        panic!("{}", report::text::failure_message(&report));
    }
}

/// Runs a `.litmus` file's text as a cargo test: what `litmus_files!`
/// expands to. `path` names the file in messages. A file that does not
/// parse fails with every error at `path:line:column`.
pub fn run_litmus_text(path: &str, text: &str) {
    match litmus_core::text::parse(text) {
        Ok(test) => run_litmus(&test, None),
        Err(e) => panic!("{}", e.render(path)),
    }
}
