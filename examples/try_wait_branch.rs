//! The experiment behind docs/findings.md's "A try_wait nobody branches
//! on": each async test with an `mbarrier.try_wait` runs twice in one
//! process, as the generator writes it (the try_wait retried until it says
//! yes, a branch on its result) and with that branch and retry taken out
//! (one try_wait whose result only goes to the register, what the PTX of
//! a one-shot wait is). For each: instances, those whose wait said yes,
//! and those that then read a value from before the copy or the arrive
//! (the condition the test names, which the model forbids).
//!
//! ```text
//! cargo run --release --example try_wait_branch -- [--budget-ms N] [NAME_FILTER]
//! ```
//! (`.gpu/bin/try_wait_branch` on the GPU machine.) Knobs come from the
//! environment as for every run; `LITMUS_PTXAS` or `LITMUS_TOOLCHAIN`
//! choose the compiler.

use std::process::ExitCode;

use gpu_litmus::hw::{self as gpu, Modules};

mod bench_support;

use bench_support::{prepared, weak, Args};

/// The catalogue's async tests whose thread waits and then reads, and the
/// place of the wait's register in their outcomes.
const TESTS: &[(&str, &str, usize)] = &[
    (
        "tma_load_wait_read",
        include_str!("../tests/async/tma_load_wait_read.litmus"),
        0,
    ),
    (
        "corr_tma_load_fence",
        include_str!("../tests/async/corr_tma_load_fence.litmus"),
        1,
    ),
    (
        "mp_tma_load_fence",
        include_str!("../tests/async/mp_tma_load_fence.litmus"),
        1,
    ),
    (
        "mbarrier_remote_arrive_cluster",
        include_str!("../tests/async/mbarrier_remote_arrive_cluster.litmus"),
        0,
    ),
];

/// What the generator writes after each `try_wait` (the branch on its
/// result, the count, its test, the branch back), as each line starts.
const RETRY: [&str; 4] = ["@", "add.u32", "setp.lt.u32", "@"];

/// `ptx` with each try_wait's retry and branch taken out (the [`RETRY`]
/// lines after it), so the result only reaches the register. `Err` when
/// the lines after a `try_wait` are not those: the generator changed, and
/// taking out four lines would measure something else.
fn one_shot(ptx: &str) -> Result<String, String> {
    let lines: Vec<&str> = ptx.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        out.push(lines[i]);
        if lines[i].contains("mbarrier.try_wait.parity") {
            let after = lines.get(i + 1..i + 1 + RETRY.len()).unwrap_or_default();
            let retried = after.len() == RETRY.len()
                && after
                    .iter()
                    .zip(RETRY)
                    .all(|(l, w)| l.trim().starts_with(w));
            if !retried {
                return Err(format!(
                    "the lines after `{}` are not the retry this experiment takes out: {after:?}",
                    lines[i].trim()
                ));
            }
            i += RETRY.len();
        }
        i += 1;
    }
    Ok(out.join("\n") + "\n")
}

fn main() -> ExitCode {
    let bench = "try_wait_branch";
    let args = match Args::read(
        bench,
        "try_wait_branch [--budget-ms N] [NAME_FILTER]",
        |_, _| None,
    ) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let knobs = match args.knobs(bench) {
        Ok(k) => k,
        Err(code) => return code,
    };
    println!(
        "{:<32} {:<10} {:>14} {:>14} {:>12}",
        "test", "wait", "instances", "wait said yes", "stale reads"
    );
    let mut failed = false;
    for (name, src, wait) in TESTS {
        if args.skips(name) {
            continue;
        }
        let Some((test, code)) = prepared(name, src) else {
            failed = true;
            continue;
        };
        let shot = match one_shot(&code) {
            Ok(s) => s,
            Err(why) => {
                println!("{name:<32} {why}");
                failed = true;
                continue;
            }
        };
        for (form, modules) in [
            ("branched", Modules::with_default(&test, &code)),
            ("one-shot", Modules::as_is(&test, &shot)),
        ] {
            match gpu::run_on(&[], &modules, &knobs) {
                Ok(r) => {
                    let yes: u64 = r
                        .histogram
                        .iter()
                        .filter(|(v, _)| v.get(*wait) == Some(&1))
                        .map(|(_, c)| c)
                        .sum();
                    println!(
                        "{name:<32} {form:<10} {:>14} {yes:>14} {:>12}",
                        r.instances,
                        weak(&test, &r)
                    );
                }
                Err(e) => {
                    println!("{name:<32} {form:<10} failed: {e}");
                    failed = true;
                }
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
