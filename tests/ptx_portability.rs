//! Every generated module against a real ptxas, on every target since
//! Volta that the project's GPUs span (sm_70 to sm_90): what
//! `litmus_core::ptx::isa` says a module needs must be what ptxas demands.
//! A module that `retarget` accepts for a target and that ptxas refuses is
//! a wrong row of `FEATURES` (or a generator bug); a refused one must say
//! why in one line. A module whose `.version` (set by an instruction) ptxas
//! still takes one step lower is a row that overstates.
//!
//! The ptxas is `$LITMUS_PTXAS` (`scripts/pinned-ptxas.sh` installs the
//! pinned 12.0.76, which CI uses); without it each test says in one line
//! that it skipped. A module needing a PTX ISA newer than that ptxas reads
//! is counted as "not under this ptxas", with the `Unfit` line the driver
//! check would give, not compiled.
//!
//! Always: the catalogue (each call a test, as `outcome_search.rs` reaches
//! it) and `tests/litmus`. With `LITMUS_PORTABILITY=full`: the Dat3M corpus
//! (`$LITMUS_CONFORMANCE_DIR`) and a generated family, which take minutes.
//! Each set prints its counts per target.

extern crate gpu_litmus as library;
extern crate self as gpu_litmus;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use library::core::corpus;
use library::core::ir::Test;
use library::core::ptx::isa::{retarget, Needs, PtxIsa, SmArch, Unfit};
use library::core::ptx::{generate, PtxError};

/// The targets checked: every GPU generation the project runs on, Volta to
/// Hopper.
const TARGETS: [u32; 6] = [70, 75, 80, 86, 89, 90];

const SKIPPED: &str =
    "skipped: no ptxas (set LITMUS_PTXAS to a ptxas, scripts/pinned-ptxas.sh installs one)";

/// The ptxas under test and the highest PTX ISA it reads.
struct Ptxas {
    path: PathBuf,
    /// `ptxas 12.0`, for messages.
    name: String,
    reads: PtxIsa,
    /// The targets it cannot build for at all (CUDA 13 dropped Volta),
    /// each with ptxas's line.
    lacks: BTreeMap<SmArch, String>,
}

/// `$LITMUS_PTXAS`, asked once for its release; `None` when unset. A set
/// variable that names no working ptxas is an error, not a skip.
fn ptxas() -> Option<&'static Ptxas> {
    static PTXAS: OnceLock<Option<Ptxas>> = OnceLock::new();
    PTXAS
        .get_or_init(|| {
            let path = PathBuf::from(std::env::var_os("LITMUS_PTXAS")?);
            let out = Command::new(&path)
                .arg("--version")
                .output()
                .unwrap_or_else(|e| panic!("LITMUS_PTXAS={}: cannot run it: {e}", path.display()));
            let text = String::from_utf8_lossy(&out.stdout);
            // "Cuda compilation tools, release 12.0, V12.0.76"
            let release = text
                .split("release ")
                .nth(1)
                .and_then(|r| r.split(',').next())
                .and_then(|r| {
                    let (a, b) = r.trim().split_once('.')?;
                    Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?))
                })
                .unwrap_or_else(|| {
                    panic!(
                        "LITMUS_PTXAS={}: `--version` names no release: {}",
                        path.display(),
                        text.trim()
                    )
                });
            let mut ptxas = Ptxas {
                path,
                name: format!("ptxas {}.{}", release.0, release.1),
                reads: PtxIsa::of_cuda(release.0 * 1000 + release.1 * 10),
                lacks: BTreeMap::new(),
            };
            // An empty kernel at the target's own version: what fails
            // here is the toolchain, not the table.
            for n in TARGETS {
                let target = SmArch::new(n);
                let empty = format!(
                    ".version {}\n.target {target}\n.address_size 64\n.visible .entry k() {{ ret; }}\n",
                    target.min_isa()
                );
                if let Err(why) = compile(&ptxas, &empty, target) {
                    ptxas.lacks.insert(target, why);
                }
            }
            assert!(
                ptxas.lacks.len() < TARGETS.len(),
                "LITMUS_PTXAS={}: builds an empty kernel for no target: {:?}",
                ptxas.path.display(),
                ptxas.lacks
            );
            Some(ptxas)
        })
        .as_ref()
}

/// What became of one module on one target.
#[derive(Clone, Debug)]
enum OnTarget {
    Compiled,
    /// `retarget` refused it: an instruction does not exist there.
    NotHere(String),
    /// The module needs a newer PTX ISA than the ptxas reads.
    NotUnderThisPtxas(String),
    /// A failure of the table, the generator or the run: one line.
    Failed(String),
}

/// One test's modules on every target.
struct Report {
    name: String,
    /// Why there is no module (`PtxError::Unsupported`).
    unsupported: Option<String>,
    targets: Vec<(SmArch, OnTarget)>,
    /// The module for its lowest target, with what it needs.
    module: Option<(String, Needs)>,
}

/// Compiles `module` for `target`; the first line of ptxas's complaint
/// when it refuses.
fn compile(ptxas: &Ptxas, module: &str, target: SmArch) -> Result<(), String> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let stem = std::env::temp_dir().join(format!(
        "gpu-litmus-portability-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let (ptx, cubin) = (stem.with_extension("ptx"), stem.with_extension("cubin"));
    std::fs::write(&ptx, module).map_err(|e| format!("cannot write {}: {e}", ptx.display()))?;
    let out = Command::new(&ptxas.path)
        .arg(format!("-arch={target}"))
        .arg("-o")
        .arg(&cubin)
        .arg(&ptx)
        .output();
    let _ = std::fs::remove_file(&ptx);
    let _ = std::fs::remove_file(&cubin);
    let out = out.map_err(|e| format!("cannot run {}: {e}", ptxas.path.display()))?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    Err(err
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("no message")
        .trim()
        .to_string())
}

/// Generates `test`'s module and takes it to every target.
fn check(ptxas: &Ptxas, name: &str, test: &Test) -> Report {
    let mut report = Report {
        name: name.to_string(),
        unsupported: None,
        targets: Vec::new(),
        module: None,
    };
    let module = match generate(test) {
        Ok(m) => m,
        Err(PtxError::Unsupported(why)) => {
            report.unsupported = Some(why);
            return report;
        }
        Err(e) => {
            let failed = OnTarget::Failed(format!("cannot generate: {e}"));
            report.targets = TARGETS
                .iter()
                .map(|&n| (SmArch::new(n), failed.clone()))
                .collect();
            return report;
        }
    };
    let needs = Needs::of(&module);
    report.module = Some((module.clone(), needs));
    for n in TARGETS {
        let target = SmArch::new(n);
        let outcome = match retarget(&module, target) {
            Err(unfit) => OnTarget::NotHere(unfit.to_string()),
            Ok(_) if ptxas.lacks.contains_key(&target) => OnTarget::NotUnderThisPtxas(format!(
                "{target} needs another ptxas: {}",
                ptxas.lacks[&target]
            )),
            Ok(text) => match needs.fit(target, &format!("{} reads", ptxas.name), ptxas.reads) {
                Err(unfit @ Unfit::Isa { .. }) => OnTarget::NotUnderThisPtxas(unfit.to_string()),
                Err(unfit) => OnTarget::Failed(format!(
                    "retarget accepts it and Needs::fit refuses it: {unfit}"
                )),
                Ok(_) => match compile(ptxas, &text, target) {
                    Ok(()) => OnTarget::Compiled,
                    Err(why) => OnTarget::Failed(format!(
                        "retarget accepts it (PTX {}) and ptxas refuses: {why}",
                        needs.version_on(target)
                    )),
                },
            },
        };
        report.targets.push((target, outcome));
    }
    report
}

/// `f` on every item, on as many threads as the machine has.
fn in_parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::with_capacity(items.len()));
    std::thread::scope(|s| {
        for _ in 0..workers.min(items.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                done.lock().unwrap().push((i, r));
            });
        }
    });
    let mut done = done.into_inner().unwrap();
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Every failure of `reports`, one line each: a module that ptxas refused
/// where the table accepts it, or a refusal without a one-line reason.
fn failures(reports: &[Report]) -> Vec<String> {
    let mut out = Vec::new();
    for r in reports {
        if let Some(why) = &r.unsupported {
            if why.trim().is_empty() || why.contains('\n') {
                out.push(format!(
                    "{}: unsupported without a one-line reason: {why:?}",
                    r.name
                ));
            }
        }
        for (target, outcome) in &r.targets {
            match outcome {
                OnTarget::Compiled => {}
                OnTarget::NotHere(why) | OnTarget::NotUnderThisPtxas(why) => {
                    if why.trim().is_empty() || why.contains('\n') {
                        out.push(format!(
                            "{} on {target}: refused without a one-line reason: {why:?}",
                            r.name
                        ));
                    }
                }
                OnTarget::Failed(why) => out.push(format!("{} on {target}: {why}", r.name)),
            }
        }
    }
    out
}

/// The counts per target, with each reason and how many modules gave it.
fn counts(label: &str, ptxas: &Ptxas, reports: &[Report], seconds: f64) -> String {
    let mut s = format!(
        "{label}: {} tests, {}, {seconds:.1} s\n",
        reports.len(),
        ptxas.name
    );
    let mut unsupported: BTreeMap<String, usize> = BTreeMap::new();
    for r in reports {
        if let Some(why) = &r.unsupported {
            *unsupported.entry(gist(why)).or_default() += 1;
        }
    }
    if !unsupported.is_empty() {
        let n: usize = unsupported.values().sum();
        let by: BTreeMap<&str, usize> = unsupported.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        s += &format!("  no PTX: {n} ({})\n", reasons(&by));
    }
    for n in TARGETS {
        let target = SmArch::new(n);
        let (mut compiled, mut failed) = (0, 0);
        let mut not_here: BTreeMap<&str, usize> = BTreeMap::new();
        let mut not_ptxas: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, o) in reports
            .iter()
            .flat_map(|r| &r.targets)
            .filter(|(t, _)| *t == target)
        {
            match o {
                OnTarget::Compiled => compiled += 1,
                OnTarget::NotHere(why) => *not_here.entry(reason(why)).or_default() += 1,
                OnTarget::NotUnderThisPtxas(why) => *not_ptxas.entry(reason(why)).or_default() += 1,
                OnTarget::Failed(_) => failed += 1,
            }
        }
        s += &format!("  {target}: {compiled} compiled");
        if !not_here.is_empty() {
            let k: usize = not_here.values().sum();
            s += &format!(", {k} not on this target ({})", reasons(&not_here));
        }
        if !not_ptxas.is_empty() {
            let k: usize = not_ptxas.values().sum();
            s += &format!(", {k} not under {} ({})", ptxas.name, reasons(&not_ptxas));
        }
        if failed > 0 {
            s += &format!(", {failed} FAILED");
        }
        s += "\n";
    }
    s
}

/// A harness refusal without the names of the test's threads, registers
/// and locations, up to its explanation: one entry per kind of refusal.
fn gist(why: &str) -> String {
    let mut out = String::new();
    for (i, part) in why.split('`').enumerate() {
        if i % 2 == 0 {
            out += part;
        } else if i == 1 && why.starts_with('`') {
            out += &format!("`{part}`");
        } else {
            out += "`_`";
        }
    }
    let cut = out.find(": ").map(|at| {
        let rest = &out[at + 2..];
        at + 2 + rest.find([':', '(', ';']).unwrap_or(rest.len())
    });
    out.truncate(cut.unwrap_or(out.len()));
    out.trim_end().to_string()
}

/// The instruction that a refusal names: its line up to " needs".
fn reason(why: &str) -> &str {
    why.split(" needs ").next().unwrap_or(why)
}

fn reasons(by: &BTreeMap<&str, usize>) -> String {
    by.iter()
        .map(|(why, n)| format!("{n} {why}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The PTX ISA versions, to step one below a module's.
const ISAS: [(u8, u8); 28] = [
    (5, 0),
    (6, 0),
    (6, 1),
    (6, 2),
    (6, 3),
    (6, 4),
    (6, 5),
    (7, 0),
    (7, 1),
    (7, 2),
    (7, 3),
    (7, 4),
    (7, 5),
    (7, 6),
    (7, 7),
    (7, 8),
    (8, 0),
    (8, 1),
    (8, 2),
    (8, 3),
    (8, 4),
    (8, 5),
    (8, 6),
    (8, 7),
    (8, 8),
    (9, 0),
    (9, 1),
    (9, 2),
];

/// A ptxas that compiles an instruction under any `.version`, where a
/// newer ptxas enforces the one the table says (the table follows the
/// strictest).
const LENIENT: [(&str, &str); 2] = [
    ("ptxas 12.9", "fence.acquire"),
    ("ptxas 12.9", "fence.release"),
];

fn one_below(isa: PtxIsa) -> Option<PtxIsa> {
    let at = ISAS.iter().position(|&(a, b)| PtxIsa::new(a, b) == isa)?;
    let (a, b) = ISAS[at.checked_sub(1)?];
    Some(PtxIsa::new(a, b))
}

/// For one module per instruction that sets a `.version` above its
/// target's own: the module one PTX ISA lower on its lowest target, which
/// ptxas must refuse. One line for each that ptxas takes (the table
/// overstates), and one per instruction checked.
fn overstated(ptxas: &Ptxas, reports: &[Report]) -> (Vec<String>, Vec<String>) {
    let mut sample: BTreeMap<&str, (&str, &str, Needs, SmArch)> = BTreeMap::new();
    for r in reports {
        let Some((module, needs)) = &r.module else {
            continue;
        };
        let Some(what) = needs.isa_for else { continue };
        // The lowest target this ptxas builds for where the instruction,
        // not the target, sets the version.
        let target = TARGETS
            .iter()
            .map(|&n| SmArch::new(n))
            .find(|&t| t >= needs.sm && !ptxas.lacks.contains_key(&t) && t.min_isa() < needs.isa);
        if let Some(target) = target.filter(|_| needs.isa <= ptxas.reads) {
            sample
                .entry(what)
                .or_insert((&r.name, module, *needs, target));
        }
    }
    let (mut bad, mut checked) = (Vec::new(), Vec::new());
    for (what, (name, module, needs, target)) in sample {
        let Some(lower) = one_below(needs.isa) else {
            bad.push(format!(
                "{name}: PTX {} is not in the test's list of versions",
                needs.isa
            ));
            continue;
        };
        let text = retarget(module, target)
            .expect("a target at or above the module's own")
            .replacen(
                &format!(".version {}", needs.isa),
                &format!(".version {lower}"),
                1,
            );
        match compile(ptxas, &text, target) {
            Ok(()) if LENIENT.contains(&(ptxas.name.as_str(), what)) => checked.push(format!(
                "{what}: PTX {lower} taken on {} by {}, which does not check its version (known; ptxas 13.5 refuses it)",
                target, ptxas.name
            )),
            Ok(()) => bad.push(format!(
                "{name}: {what} is said to need PTX {} and {} compiles it as PTX {lower} for {}",
                needs.isa, ptxas.name, target
            )),
            Err(why) => checked.push(format!(
                "{what}: PTX {lower} refused on {} ({why})",
                target
            )),
        }
    }
    (bad, checked)
}

/// Checks a whole set, prints its counts and the versions checked, and
/// fails with every failure.
fn check_set(label: &str, ptxas: &Ptxas, tests: Vec<(String, Test)>) {
    let start = Instant::now();
    let reports = in_parallel(&tests, |(name, test)| check(ptxas, name, test));
    let (bad, checked) = overstated(ptxas, &reports);
    let seconds = start.elapsed().as_secs_f64();
    let mut text = counts(label, ptxas, &reports, seconds);
    for line in &checked {
        text += &format!("  one version lower: {line}\n");
    }
    shown(&text);
    let mut all = failures(&reports);
    all.extend(bad);
    assert!(all.is_empty(), "{label}:\n{}", all.join("\n"));
}

/// Writes `text` past the harness's capture: the counts are what CI's log
/// is read for, on a pass too.
fn shown(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(text.as_bytes());
}

fn parse_file(path: &Path) -> Test {
    let src = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    library::core::text::parse(&src)
        .unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string())))
}

/// Every `.litmus` file under `dir`.
fn litmus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            litmus_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "litmus") {
            out.push(path);
        }
    }
}

#[test]
fn repository_litmus_files_compile_where_the_table_says() {
    let Some(ptxas) = ptxas() else {
        println!("tests/litmus: {SKIPPED}");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    litmus_files(&root.join("tests/litmus"), &mut files);
    files.sort();
    assert!(files.len() >= 15, "tests/litmus holds 15 files");
    let tests = files
        .iter()
        .map(|f| {
            let name = f.strip_prefix(root).unwrap_or(f).display().to_string();
            (name, parse_file(f))
        })
        .collect();
    check_set("tests/litmus", ptxas, tests);
}

/// Whether the slow sets run (`LITMUS_PORTABILITY=full`); anything else
/// set there is a mistake, said in one line.
fn full() -> bool {
    match std::env::var("LITMUS_PORTABILITY").as_deref() {
        Ok("full") => true,
        Err(_) => false,
        Ok(other) => panic!("LITMUS_PORTABILITY={other}: the one value is `full`"),
    }
}

#[test]
fn corpus_compiles_where_the_table_says() {
    if !full() {
        println!("Dat3M corpus: skipped, LITMUS_PORTABILITY is not `full`");
        return;
    }
    let Some(ptxas) = ptxas() else {
        println!("Dat3M corpus: {SKIPPED}");
        return;
    };
    let Some(dir) = std::env::var_os(corpus::CORPUS_ENV) else {
        println!("Dat3M corpus: skipped, {} is not set", corpus::CORPUS_ENV);
        return;
    };
    let dir = Path::new(&dir);
    let paths = corpus::union_of(dir, &[corpus::PTX_V6, corpus::PTX_V75, corpus::TERMINATION])
        .unwrap_or_else(|e| panic!("{e}"));
    let tests = paths
        .iter()
        .map(|p| (p.clone(), parse_file(&dir.join(p))))
        .collect();
    check_set("Dat3M corpus", ptxas, tests);
}

/// The family `gpu-litmus gen MP SB LB IRIW WRC --placements all --scopes
/// cta,cluster,gpu,sys --fences none,sc,acq_rel,acquire,release` writes.
#[test]
fn generated_family_compiles_where_the_table_says() {
    if !full() {
        println!("gen family: skipped, LITMUS_PORTABILITY is not `full`");
        return;
    }
    let Some(ptxas) = ptxas() else {
        println!("gen family: {SKIPPED}");
        return;
    };
    let mut spec = library::gen::FamilySpec::default();
    for (option, value) in [
        ("placements", "all"),
        ("scopes", "cta,cluster,gpu,sys"),
        ("fences", "none,sc,acq_rel,acquire,release"),
    ] {
        spec.set(option, value).unwrap_or_else(|e| panic!("{e}"));
    }
    let mut seen = std::collections::HashSet::new();
    let mut tests = Vec::new();
    for shape in ["MP", "SB", "LB", "IRIW", "WRC"] {
        let skeleton = library::gen::shape(shape).unwrap_or_else(|e| panic!("{e}"));
        let family =
            library::gen::family(&skeleton, &spec, &mut seen).unwrap_or_else(|e| panic!("{e}"));
        tests.extend(family.tests.into_iter().map(|t| (t.name.text.clone(), t)));
    }
    check_set("gen family", ptxas, tests);
}

// The catalogue: each call a test (so the harness spreads them over the
// machine's threads), whose report joins the others; the test that
// completes the set prints the counts and checks the versions.

/// The catalogue's calls: each `litmus! {` that starts a line of a
/// `tests/catalogue_*.rs`.
fn catalogue_size() -> usize {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    std::fs::read_dir(&tests)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("catalogue_") && n.ends_with(".rs")
        })
        .map(|p| {
            std::fs::read_to_string(&p)
                .unwrap()
                .lines()
                .filter(|l| l.starts_with("litmus! {"))
                .count()
        })
        .sum()
}

struct Catalogue {
    reports: Vec<Report>,
    start: Instant,
}

static CATALOGUE: Mutex<Option<Catalogue>> = Mutex::new(None);

fn check_catalogue_test(test: &Test, name: &str) {
    let Some(ptxas) = ptxas() else {
        println!("{name}: {SKIPPED}");
        return;
    };
    let mut guard = CATALOGUE.lock().unwrap_or_else(|p| p.into_inner());
    guard.get_or_insert_with(|| Catalogue {
        reports: Vec::new(),
        start: Instant::now(),
    });
    drop(guard);
    let report = check(ptxas, name, test);
    let mine = failures(std::slice::from_ref(&report));
    let mut guard = CATALOGUE.lock().unwrap_or_else(|p| p.into_inner());
    let all = guard.as_mut().expect("started above");
    all.reports.push(report);
    if all.reports.len() == catalogue_size() {
        all.reports.sort_by(|a, b| a.name.cmp(&b.name));
        let seconds = all.start.elapsed().as_secs_f64();
        let (bad, checked) = overstated(ptxas, &all.reports);
        let mut text = counts("catalogue", ptxas, &all.reports, seconds);
        for line in &checked {
            text += &format!("  one version lower: {line}\n");
        }
        shown(&text);
        assert!(bad.is_empty(), "catalogue:\n{}", bad.join("\n"));
    }
    drop(guard);
    assert!(mine.is_empty(), "{}", mine.join("\n"));
}

macro_rules! portable_litmus {
    ($(#[doc = $doc:literal])* $name:ident; $($body:tt)*) => {
        #[test]
        fn $name() {
            crate::check_catalogue_test(&library::litmus_ir! { $name; $($body)* }, stringify!($name));
        }
    };
}
pub(crate) use portable_litmus as litmus;

include!("catalogue_support/modules.rs");
