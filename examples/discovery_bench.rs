//! How much of a family's allowed weak behaviour a GPU budget discovers.
//!
//! ```text
//! cargo run --release --example discovery_bench -- [--budget-ms N] [--baseline-ms N]
//!     [--configs N] [--seed N] [--turn N] [--per-test] DIR|FILE...
//! ```
//!
//! Reads every `.litmus` file given (folders are searched), keeps the tests
//! whose condition the model allows, then on the GPU: first each test once
//! at the current knobs for `--baseline-ms` (default 250; 0 skips it), then
//! the family-wide search of `gpu-litmus tune` over all of them with
//! `--budget-ms` per test on average (default 2000). Prints, by family (the
//! name up to its first `+`) and by fence kind (unfenced, CTA-scope or
//! GPU-scope fences, as the name says), how many tests showed their weak
//! outcome at the baseline and in the search, and the GPU time each spent;
//! and by placement (how many CTAs the test's threads span: weak outcomes
//! among threads of one CTA are the rarest on NVIDIA GPUs). Every run's
//! histogram is also held against the outcomes the model allows: a
//! model-forbidden outcome is named with its test and fails the bench;
//! trials that failed are counted by message (the search drops their
//! configuration), and one whose histogram lost instances fails it.
//! Without a GPU it says so in one line.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use gpu_litmus::core::ir::Test;
use gpu_litmus::hw::{self as gpu, Knobs};
use gpu_litmus::model::{check, model_from_env, Options};
use gpu_litmus::ptx;
use gpu_litmus::text;
use gpu_litmus::tune::family::{search_family, FamilyPlan, Subject};
use gpu_litmus::tune::target::Target;

struct Args {
    budget_ms: u64,
    baseline_ms: u64,
    configs: usize,
    seed: u64,
    per_test: bool,
    turn: usize,
    paths: Vec<PathBuf>,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        budget_ms: 2000,
        baseline_ms: 250,
        configs: 64,
        seed: 1,
        per_test: false,
        turn: 8,
        paths: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |name: &str| -> Result<u64, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a number"))
        };
        match arg.as_str() {
            "--budget-ms" => a.budget_ms = value("--budget-ms")?.max(1),
            "--baseline-ms" => a.baseline_ms = value("--baseline-ms")?,
            "--configs" => a.configs = value("--configs")?.max(2) as usize,
            "--seed" => a.seed = value("--seed")?,
            "--turn" => a.turn = value("--turn")?.max(1) as usize,
            "--per-test" => a.per_test = true,
            "-h" | "--help" => return Err(String::new()),
            other if other.starts_with('-') => return Err(format!("unknown option `{other}`")),
            path => a.paths.push(PathBuf::from(path)),
        }
    }
    if a.paths.is_empty() {
        return Err("no folder or file given".into());
    }
    Ok(a)
}

/// Every `.litmus` file under `path`, sorted.
fn files(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            files(&e, out)?;
        }
    } else if path.extension().is_some_and(|x| x == "litmus") {
        out.push(path.to_path_buf());
    } else if !path.exists() {
        return Err(format!("{}: no such file or folder", path.display()));
    }
    Ok(())
}

/// A test the bench searches: allowed, generated, with its weak outcome
/// and every outcome the model allows (any other one the GPU shows is a
/// model-forbidden outcome, which the bench reports and fails on).
struct Case {
    test: Test,
    ptx: String,
    target: Target,
    allowed: BTreeSet<Vec<u32>>,
}

fn cases(paths: &[PathBuf]) -> Result<Vec<Case>, String> {
    let model = model_from_env().map_err(|e| e.to_string())?;
    let options = Options::default();
    let mut all = Vec::new();
    for p in paths {
        files(p, &mut all)?;
    }
    let mut out = Vec::new();
    for f in &all {
        let src = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let test = text::parse(&src).map_err(|e| e.render(&f.display().to_string()))?;
        let allowed = check(&test, model, &options).map_err(|e| format!("{}: {e}", f.display()))?;
        if !allowed.condition_reachable {
            continue;
        }
        let Ok(ptx) = ptx::generate(&test) else {
            continue;
        };
        let target = Target::from_check(&test, &allowed, &options).map_err(|e| e.to_string())?;
        out.push(Case {
            test,
            ptx,
            target,
            allowed: allowed.allowed,
        });
    }
    Ok(out)
}

/// The family of a test (the `gen` shape its name starts with) and the
/// kind of its fences, from `gpu-litmus gen`'s names.
fn groups(name: &str) -> (String, &'static str) {
    let family = gpu_litmus::gen::naming::family(name).to_string();
    let kind = if name.contains("fence.") && name.contains(".cta@") {
        "cta fence"
    } else if name.contains("fence.") {
        "gpu fence"
    } else {
        "unfenced"
    };
    (family, kind)
}

/// The placement group of a test: how many CTAs its threads span.
fn spread(test: &Test) -> String {
    let ctas: std::collections::BTreeSet<(u32, u32)> = test
        .threads
        .iter()
        .map(|t| (t.placement.gpu, t.placement.cta))
        .collect();
    match ctas.len() {
        1 => "1 CTA".to_string(),
        n => format!("{n} CTAs"),
    }
}

#[derive(Default)]
struct Row {
    tests: usize,
    baseline: usize,
    seen: usize,
    either: usize,
    gpu: Duration,
}

fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(why) => {
            if !why.is_empty() {
                eprintln!("discovery_bench: {why}");
            }
            eprintln!("usage: discovery_bench [--budget-ms N] [--baseline-ms N] [--configs N] [--seed N] [--turn N] [--per-test] DIR|FILE...");
            return if why.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            };
        }
    };
    let cases = match cases(&a.paths) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("discovery_bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    // A bad knob variable is an error with or without a GPU.
    let base = match Knobs::from_env() {
        Ok(k) => Knobs { seed: a.seed, ..k },
        Err(e) => {
            eprintln!("discovery_bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    match gpu::hardware_wanted() {
        Ok(None) => {}
        Ok(Some(why)) => {
            println!("discovery_bench: skipped, {why}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("discovery_bench: {e}");
            return ExitCode::FAILURE;
        }
    }
    println!(
        "{} allowed tests; baseline {} ms each at the current knobs; search {} ms a test on average, pool {}; device {}",
        cases.len(),
        a.baseline_ms,
        a.budget_ms,
        a.configs,
        gpu::device().unwrap_or_default()
    );
    let mut baseline = vec![false; cases.len()];
    // Model-forbidden outcomes per test, over the baseline and every trial.
    let mut forbidden = vec![0u64; cases.len()];
    let mut failed = Failed::default();
    let mut baseline_gpu = Duration::ZERO;
    if a.baseline_ms > 0 {
        for (i, c) in cases.iter().enumerate() {
            let k = Knobs {
                budget_ms: a.baseline_ms,
                launches: None,
                ..base.clone()
            };
            match gpu::run(&c.test, &c.ptx, &k) {
                Err(e) => failed.note(&e),
                Ok(r) => {
                    forbidden[i] += c.forbidden_in(&r);
                    baseline_gpu += r.wall;
                    baseline[i] = r
                        .histogram
                        .iter()
                        .any(|(v, n)| *n > 0 && c.target.hits(&c.test, v));
                }
            }
        }
    }
    let subjects: Vec<Subject> = cases
        .iter()
        .map(|c| Subject {
            test: &c.test,
            ptx: &c.ptx,
            target: c.target.clone(),
        })
        .collect();
    let plan = FamilyPlan {
        turn: a.turn,
        ..FamilyPlan::within(a.budget_ms, a.configs, a.seed)
    };
    let start = std::time::Instant::now();
    let found = search_family(
        &subjects,
        &base,
        &plan,
        |i, s, k| match gpu::run(s.test, s.ptx, k) {
            Ok(r) => {
                forbidden[i] += cases[i].forbidden_in(&r);
                Ok(r)
            }
            Err(e) => {
                // The search drops a configuration that fails; the bench
                // still says so.
                failed.note(&e);
                Err(e)
            }
        },
        |p, _| {
            eprint!(
                "\r[wave {}] seen {}/{}, GPU {:.1}/{:.1} s",
                p.wave,
                p.seen,
                p.tests,
                p.spent.as_secs_f64(),
                p.budget.as_secs_f64()
            );
        },
    );
    eprintln!();
    let wall = start.elapsed();
    let mut by_family: BTreeMap<String, Row> = BTreeMap::new();
    let mut by_kind: BTreeMap<&str, Row> = BTreeMap::new();
    let mut by_spread: BTreeMap<String, Row> = BTreeMap::new();
    for ((c, f), &b) in cases.iter().zip(&found).zip(&baseline) {
        let (family, kind) = groups(&c.test.name.text);
        for row in [
            by_family.entry(family).or_default(),
            by_kind.entry(kind).or_default(),
            by_spread.entry(spread(&c.test)).or_default(),
        ] {
            row.tests += 1;
            row.baseline += b as usize;
            row.seen += f.seen() as usize;
            row.either += (b || f.seen()) as usize;
            row.gpu += f.gpu;
        }
    }
    let print = |title: &str, rows: Vec<(String, &Row)>| {
        println!(
            "{title:<12} {:>6} {:>14} {:>14} {:>12}",
            "tests", "baseline seen", "search seen", "GPU s/test"
        );
        for (name, r) in rows {
            println!(
                "{name:<12} {:>6} {:>14} {:>14} {:>12.2}",
                r.tests,
                format!("{} ({:.0}%)", r.baseline, pct(r.baseline, r.tests)),
                format!("{} ({:.0}%)", r.seen, pct(r.seen, r.tests)),
                r.gpu.as_secs_f64() / r.tests.max(1) as f64
            );
        }
    };
    print(
        "family",
        by_family.iter().map(|(k, v)| (k.clone(), v)).collect(),
    );
    print(
        "fence kind",
        by_kind.iter().map(|(k, v)| (k.to_string(), v)).collect(),
    );
    print(
        "placement",
        by_spread.iter().map(|(k, v)| (k.clone(), v)).collect(),
    );
    if a.per_test {
        for ((c, f), &b) in cases.iter().zip(&found).zip(&baseline) {
            println!(
                "test {} baseline={} search={} weak={} instances={:.2e} configs={} trials={} gpu={:.2}s best={}/{} with {}",
                c.test.name,
                b,
                f.seen(),
                f.weak,
                f.instances as f64,
                f.configs,
                f.trials,
                f.gpu.as_secs_f64(),
                f.best.weak,
                f.best.instances,
                f.best.knobs
            );
        }
    }
    let seen = found.iter().filter(|f| f.seen()).count();
    let gpu_s: f64 = found.iter().map(|f| f.gpu.as_secs_f64()).sum();
    println!(
        "total: baseline {}/{} ({:.1}%) in {:.1} s of GPU time; search {}/{} ({:.1}%) in {:.1} s of GPU time ({:.2} s a test), {:.1} s of wall time",
        baseline.iter().filter(|b| **b).count(),
        cases.len(),
        pct(baseline.iter().filter(|b| **b).count(), cases.len()),
        baseline_gpu.as_secs_f64(),
        seen,
        cases.len(),
        pct(seen, cases.len()),
        gpu_s,
        gpu_s / cases.len().max(1) as f64,
        wall.as_secs_f64()
    );
    // The issue's breadth bar: every test still unseen has tried the
    // whole pool (or as much of it as its budget allowed).
    let unseen: Vec<usize> = found
        .iter()
        .filter(|f| !f.seen())
        .map(|f| f.configs)
        .collect();
    if let (Some(lo), Some(hi)) = (unseen.iter().min(), unseen.iter().max()) {
        println!(
            "configurations tried by each of the {} tests still unseen: {lo} to {hi} (pool {})",
            unseen.len(),
            a.configs
        );
    }
    if failed.by_message.is_empty() {
        println!("failed trials: none (every histogram counted its launches × instances exactly)");
    }
    for (why, n) in &failed.by_message {
        println!("failed trials: {n} × {why}");
    }
    let bad: Vec<(&Case, u64)> = cases
        .iter()
        .zip(&forbidden)
        .filter(|(_, n)| **n > 0)
        .map(|(c, n)| (c, *n))
        .collect();
    if bad.is_empty() {
        println!("model-forbidden outcomes: none in any run");
        return if failed.lost {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        };
    }
    for (c, n) in &bad {
        println!("model-forbidden outcomes: {} in {}", n, c.test.name);
    }
    ExitCode::FAILURE
}

/// Runs that failed: how many by message, and whether one lost instances
/// (its histogram did not count launches × instances), which fails the
/// bench.
#[derive(Default)]
struct Failed {
    by_message: BTreeMap<String, usize>,
    lost: bool,
}

impl Failed {
    fn note(&mut self, e: &gpu::GpuError) {
        self.lost |= matches!(e, gpu::GpuError::Lost { .. });
        *self.by_message.entry(e.to_string()).or_default() += 1;
    }
}

impl Case {
    /// Instances of a run whose outcome the model forbids.
    fn forbidden_in(&self, r: &gpu::HwResult) -> u64 {
        r.histogram
            .iter()
            .filter(|(v, _)| !self.allowed.contains(v))
            .map(|(_, n)| n)
            .sum()
    }
}

fn pct(n: usize, of: usize) -> f64 {
    100.0 * n as f64 / of.max(1) as f64
}
