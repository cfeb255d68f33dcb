//! Times mutation analysis as a pull request runs it: every mutant of a cat
//! model over about a thousand distinct tests, all judged over one search
//! per test ([`litmus_model::cat::batch`]).
//!
//! ```text
//! LITMUS_CONFORMANCE_DIR=/path/to/dat3m-ptx \
//!   cargo run --release -p litmus-model --example mutants_bench -- \
//!   [--tests N] [--threads T] [--verify] [cat file ...]
//! ```
//!
//! Tests, in this order, all distinct: the repository's `tests/litmus`
//! files, the conformance corpus' PTX 6.0 list (when
//! `LITMUS_CONFORMANCE_DIR` is set), then generated families (every shape
//! of litmus-gen over placements, scopes, fences and semantics, taken in
//! turn) up to `--tests` (default 1000). Cat files default to the corpus'
//! `cat/ptx-v6.0.cat` and the repository's `models/ptx.cat`.
//!
//! For each model it prints the mutants (compiled, skipped, duplicate
//! texts), their classes, the seconds and mutants×tests per second.
//! `--verify` also checks every mutant on every test on its own (one
//! search each, the slow way) and fails if any allowed set differs.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use litmus_core::corpus;
use litmus_core::ir::Test;
use litmus_gen::{family, shape, FamilySpec, SHAPES};
use litmus_model::cat::mutate::mutate_file;
use litmus_model::compare::{classify, default_threads, Class, Verdicts};
use litmus_model::{Model, Options};

fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            litmus_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "litmus") {
            out.push(p);
        }
    }
}

/// The tests and a line saying where they come from.
fn tests(repo: &Path, corpus_dir: Option<&Path>, want: usize) -> (Vec<Test>, String) {
    let mut out = Vec::new();
    let mut files = Vec::new();
    litmus_files(&repo.join("tests/litmus"), &mut files);
    for f in &files {
        if let Some(t) = std::fs::read_to_string(f)
            .ok()
            .and_then(|s| litmus_text::parse(&s).ok())
        {
            out.push(t);
        }
    }
    let from_repo = out.len();
    let mut from_corpus = 0;
    if let Some(dir) = corpus_dir {
        for e in corpus::read_list(dir, corpus::PTX_V6).unwrap_or_default() {
            if let Some(t) = std::fs::read_to_string(dir.join(&e.path))
                .ok()
                .and_then(|s| litmus_text::parse(&s).ok())
            {
                out.push(t);
                from_corpus += 1;
            }
        }
    }
    let mut spec = FamilySpec::default();
    for (option, value) in [
        ("placements", "all"),
        ("scopes", "cta,gpu,sys"),
        ("fences", "none,sc,acq_rel"),
        ("sem", "relaxed,acq_rel,weak"),
    ] {
        spec.set(option, value).expect("a valid family option");
    }
    let mut seen = HashSet::new();
    let families: Vec<Vec<Test>> = SHAPES
        .iter()
        .filter_map(|(name, _)| family(&shape(name).ok()?, &spec, &mut seen).ok())
        .map(|f| f.tests)
        .collect();
    let mut generated = 0;
    let mut round = 0;
    while out.len() < want && families.iter().any(|f| f.len() > round) {
        for f in &families {
            if out.len() < want {
                if let Some(t) = f.get(round) {
                    out.push(t.clone());
                    generated += 1;
                }
            }
        }
        round += 1;
    }
    let line = format!(
        "{} distinct tests: {from_repo} from tests/litmus, {from_corpus} from the corpus' PTX 6.0 list{}, {generated} generated (litmus-gen families of {} shapes)",
        out.len(),
        if corpus_dir.is_none() { " (LITMUS_CONFORMANCE_DIR unset)" } else { "" },
        SHAPES.len()
    );
    (out, line)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut want, mut threads, mut verify) = (1000, default_threads(), false);
    let mut cats = Vec::new();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--tests" => want = args.next().and_then(|v| v.parse().ok()).unwrap_or(want),
            "--threads" => threads = args.next().and_then(|v| v.parse().ok()).unwrap_or(threads),
            "--verify" => verify = true,
            _ => cats.push(PathBuf::from(a)),
        }
    }
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus_dir = std::env::var_os(corpus::CORPUS_ENV).map(PathBuf::from);
    if cats.is_empty() {
        if let Some(dir) = &corpus_dir {
            cats.push(dir.join("cat/ptx-v6.0.cat"));
        }
        cats.push(repo.join("models/ptx.cat"));
    }
    let (tests, provenance) = tests(&repo, corpus_dir.as_deref(), want);
    println!("{provenance}; {threads} threads");
    let opts = Options::default();
    let mut failed = false;
    for cat in &cats {
        let start = Instant::now();
        let m = match mutate_file(cat) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let batch = m.batch();
        let made = start.elapsed().as_secs_f64();
        let v = batch.verdicts(&tests, &opts, threads);
        let secs = start.elapsed().as_secs_f64();
        let mut counts = [0usize; 4];
        let mut with_errors = 0;
        for row in &v.allowed[1..] {
            let c = classify(&v.allowed[0], row);
            with_errors += usize::from(!c.errors.is_empty());
            counts[match c.class {
                Class::Equivalent => 0,
                Class::Stronger => 1,
                Class::Weaker => 2,
                Class::Incomparable => 3,
            }] += 1;
        }
        let base_errors = v.allowed[0].iter().filter(|a| a.is_err()).count();
        println!("{}", cat.display());
        println!(
            "  mutants: {} compiled, {} skipped (do not compile), {} duplicate texts; {} shared nodes",
            m.mutants.len(),
            m.skipped.len(),
            m.duplicates,
            batch.shared_nodes()
        );
        println!(
            "  classes: {} equivalent, {} stronger, {} weaker, {} incomparable; {} mutants with tests they could not check, {} tests the model could not check",
            counts[0], counts[1], counts[2], counts[3], with_errors, base_errors
        );
        let pairs = (m.mutants.len() + 1) * tests.len();
        println!(
            "  {} models (model + mutants) x {} tests in {secs:.2} s ({made:.2} s mutating and compiling): {:.0} model-tests/s",
            m.mutants.len() + 1,
            tests.len(),
            pairs as f64 / secs
        );
        if verify {
            let start = Instant::now();
            let mut models: Vec<&dyn Model> = vec![&m.mutants[0].model];
            models.clear();
            let base = litmus_model::cat::load(cat).expect("loaded above");
            models.push(base);
            models.extend(m.mutants.iter().map(|x| &x.model as &dyn Model));
            let one_by_one = Verdicts::of(&tests, &models, &opts, threads);
            let slow = start.elapsed().as_secs_f64();
            let mut differ = 0;
            for (r, (a, b)) in v.allowed.iter().zip(&one_by_one.allowed).enumerate() {
                for (t, (x, y)) in a.iter().zip(b).enumerate() {
                    if x.is_ok() != y.is_ok() || (x.is_ok() && x != y) {
                        differ += 1;
                        if differ <= 5 {
                            eprintln!("  differs: model row {r}, test {}", tests[t].name.text);
                        }
                    }
                }
            }
            println!(
                "  verify: one search per model and test took {slow:.2} s ({:.1}x the batch); {differ} allowed sets differ",
                slow / secs
            );
            failed |= differ > 0;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
