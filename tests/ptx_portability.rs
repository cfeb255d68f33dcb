//! Every generated module against a real ptxas, on every target since
//! Volta that the project's GPUs span (sm_70 to sm_90): what
//! `litmus_ptx::isa` says a module needs must be what ptxas demands.
//! A module that `retarget` accepts for a target and that ptxas refuses is
//! a wrong row of `FEATURES` (or a generator bug); a refused one must say
//! why in one line. A module whose `.version` (set by an instruction) ptxas
//! still takes one step lower is a row that overstates.
//!
//! The ptxas is litmus-toolchain's `Ptxas::find`: `$LITMUS_PTXAS`, else
//! `ptxas` on `PATH` (`scripts/pinned-ptxas.sh` installs the pinned
//! 12.0.76, which CI uses); without one each test says in one line that it
//! skipped. A module needing a PTX ISA newer than that ptxas reads is
//! counted as "not under this ptxas", with the `Unfit` line the driver
//! check would give, not compiled.
//!
//! The catalogue's modules also go through `gpu-litmus sass --check`'s
//! check when there is an nvdisasm (`$LITMUS_NVDISASM`, else `PATH`;
//! `scripts/pinned-nvdisasm.sh` installs the pinned one): each module
//! compiled for a target is compiled with line information, disassembled,
//! and each role checked for an access, fence or barrier the compiler
//! dropped or reordered, or a control dependency it folded. A finding
//! fails the test unless it is one of [`KNOWN_SASS`]. A target whose images
//! the nvdisasm cannot read (nvdisasm 13 and sm_70) is counted as "SASS not
//! read", with the reason. On 2 cores the SASS takes the catalogue from
//! about 25 s to about 105 s: nvdisasm, 0.18 s an image, is most of it.
//!
//! One check reads the classifier's SASS instead of the roles': its
//! counts in shared memory must add natively on every target, not in a
//! compare-and-swap loop.
//!
//! Always: the catalogue (each call a test, as `outcome_search.rs` reaches
//! it), `tests/litmus` and `tests/async` (with its SASS checked too). With
//! `LITMUS_PORTABILITY=full`: the Dat3M corpus
//! (`$LITMUS_CONFORMANCE_DIR`) and a generated family, which take minutes.
//! Each set prints its counts per target.

extern crate gpu_litmus as library;
extern crate self as gpu_litmus;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use library::core::corpus;
use library::core::ir::Test;
use library::ptx::isa::{Needs, PtxIsa, SmArch, Unfit};
use library::ptx::{generate, PtxError};
use library::toolchain::error::first_error;
use library::toolchain::{check, lineinfo, Finding, Listing, Nvdisasm, Ptxas, ToolError};

/// The targets checked: every GPU generation the project runs on, Volta to
/// Hopper.
const TARGETS: [u32; 6] = [70, 75, 80, 86, 89, 90];

const SKIPPED: &str = "skipped: no ptxas (set LITMUS_PTXAS to a ptxas or put one on PATH; scripts/pinned-ptxas.sh installs one)";

/// What the SASS check may find in the catalogue, each a (test, role, test
/// instruction) with the reason it is the compiler's right and not a
/// change to the test. Any other finding fails the test, and an entry that
/// no target finds any more fails it too (under the ptxas it was seen
/// with, [`KNOWN_SASS_PTXAS`]), so that the table stays exact.
///
/// Each but the last two is ptxas 12.0.76 merging two accesses of one address by one
/// thread, on every target from sm_75 to sm_90 (`gpu-litmus sass --check`
/// on a weak CoRR and a relaxed CoWW finds the same under ptxas 12.4.131,
/// 12.9.86 and 13.5.37). Each is a refinement the PTX model permits (the merged program's
/// executions are some of the test's), so the model's verdict stands; but
/// on the hardware the outcome that needs the dropped access cannot show:
/// these tests' weak (or relaxed) outcomes are the model's alone.
const KNOWN_SASS: &[(&str, usize, &str, &str)] = &[
    (
        "corr_two_writers_weak_inter_cta",
        2,
        "t2.1: ld.weak r1, x",
        SECOND_WEAK_LOAD,
    ),
    (
        "corr_two_writers_weak_inter_cta",
        3,
        "t3.1: ld.weak r1, x",
        SECOND_WEAK_LOAD,
    ),
    (
        "corr_weak_inter_cta",
        1,
        "t1.1: ld.weak r1, x",
        SECOND_WEAK_LOAD,
    ),
    (
        "corr_weak_shared",
        1,
        "t1.1: ld.weak r1, x",
        SECOND_WEAK_LOAD,
    ),
    (
        "coww_observed_weak_inter_cta",
        1,
        "t1.1: ld.weak r1, x",
        SECOND_WEAK_LOAD,
    ),
    (
        "lookback_descriptor_polls_weak",
        1,
        "t1.1: ld.weak r1, d",
        SECOND_WEAK_LOAD,
    ),
    (
        "cowr_weak_final_inter_cta",
        0,
        "t0.1: ld.weak r0, x",
        LOAD_OF_OWN_STORE,
    ),
    (
        "cowr_weak_inter_cta",
        0,
        "t0.1: ld.weak r0, x",
        LOAD_OF_OWN_STORE,
    ),
    (
        "coww_observed_weak_inter_cta",
        0,
        "t0.0: st.weak x, 1",
        OVERWRITTEN_STORE,
    ),
    (
        "coww_weak_one_thread",
        0,
        "t0.0: st.weak x, 1",
        OVERWRITTEN_STORE,
    ),
    (
        "coww_observed_relaxed_gpu_inter_cta",
        0,
        "t0.0: st.relaxed.gpu x, 1",
        OVERWRITTEN_STORE,
    ),
    (
        "tests/async/tma_store_acquire_fence.litmus",
        0,
        "t0.1: fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster",
        ONE_WAY_ACQUIRE,
    ),
    (
        "tests/async/war_tma_load_acquire_fence.litmus",
        0,
        "t0.1: fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster",
        ONE_WAY_ACQUIRE,
    ),
];

/// The one-way `.acquire` proxy fence (PTX 8.6): ptxas 13.0 makes no
/// instruction of it for sm_90 (a `NOP`), where the `.release` form and the
/// two-way fence are `MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S`. Whether Hopper
/// orders async accesses before generic ones without an instruction is the
/// compiler's claim; the two tests that hold it are the wrong-direction
/// ones (their outcome is allowed either way), so no verdict rests on it.
const ONE_WAY_ACQUIRE: &str =
    "the one-way .acquire proxy fence is no SASS instruction on sm_90 (ptxas 13.0)";

/// CoRR with weak loads: ptxas makes one `LDG` of the two, so `r1 == r0`
/// on the hardware and new-then-old never shows.
const SECOND_WEAK_LOAD: &str = "the second of two weak loads of one address is the first's LDG";

/// CoWR with a weak load: ptxas forwards the thread's own store to it, so
/// the load never reads another thread's value.
const LOAD_OF_OWN_STORE: &str = "a weak load after the thread's store to it takes the stored value";

/// CoWW: ptxas stores only the last value (`st.relaxed.gpu` too: a store
/// no observer is sure to see may go), so no one reads the first.
const OVERWRITTEN_STORE: &str =
    "a store overwritten by the thread's next store to the address is not made";

/// The ptxas release [`KNOWN_SASS`] was read under: another release may
/// schedule otherwise, so an entry it does not find is not stale there.
const KNOWN_SASS_PTXAS: &str = "12.0";

/// The ptxas in use, what it cannot build for, and the nvdisasm if any.
struct Tools {
    ptxas: Ptxas,
    /// The targets it cannot build for at all (CUDA 13 dropped Volta),
    /// each with ptxas's line.
    lacks: BTreeMap<SmArch, String>,
    /// The SASS check's tools, or the line that says why it is skipped.
    sass: Result<Disasm, String>,
}

/// The nvdisasm and the targets whose images it cannot read.
struct Disasm {
    nvdisasm: Nvdisasm,
    /// Each with its one-line reason (`ToolError::NvdisasmArch`).
    unreadable: BTreeMap<SmArch, String>,
}

impl Tools {
    /// The CUDA release of the ptxas (`12.0`), which [`lenient`] and
    /// [`KNOWN_SASS_PTXAS`] name.
    fn release(&self) -> String {
        let v = self.ptxas.version();
        v.splitn(3, '.').take(2).collect::<Vec<_>>().join(".")
    }
}

/// An empty kernel at the target's own version: what fails on it is the
/// toolchain, not the table.
fn empty_kernel(target: SmArch) -> String {
    format!(
        ".version {}\n.target {target}\n.address_size 64\n.visible .entry k() {{ ret; }}\n",
        target.min_isa()
    )
}

/// The one line that says why a tool failed: ptxas's own complaint (its
/// first error line), else the error's line.
fn one_line(e: &ToolError) -> String {
    match e {
        ToolError::Ptxas { log, .. } => first_error(log).to_string(),
        e => e.to_string(),
    }
}

/// The ptxas (and nvdisasm) found once; `None` without a ptxas. A tool
/// that is named (a variable, `PATH`) but is not a working one is an
/// error, not a skip.
fn tools() -> Option<&'static Tools> {
    static TOOLS: OnceLock<Option<Tools>> = OnceLock::new();
    TOOLS
        .get_or_init(|| {
            let ptxas = match Ptxas::find(None) {
                Ok(p) => p,
                Err(ToolError::NotFound { .. }) => return None,
                Err(e) => panic!("{e}"),
            };
            let mut lacks = BTreeMap::new();
            for n in TARGETS {
                let target = SmArch::new(n);
                if let Err(e) = ptxas.compile(&empty_kernel(target), target, false) {
                    lacks.insert(target, one_line(&e));
                }
            }
            assert!(
                lacks.len() < TARGETS.len(),
                "{} ({}): builds an empty kernel for no target: {lacks:?}",
                ptxas.name(),
                ptxas.path().display()
            );
            let sass = match Nvdisasm::find(None) {
                Ok(nvdisasm) => Ok(disasm(&ptxas, &lacks, nvdisasm)),
                Err(e @ ToolError::NotFound { .. }) => Err(format!(
                    "skipped: {e} (scripts/pinned-nvdisasm.sh installs the pinned one)"
                )),
                Err(e) => panic!("{e}"),
            };
            Some(Tools { ptxas, lacks, sass })
        })
        .as_ref()
}

/// `nvdisasm` with the targets it cannot read, found on an empty kernel:
/// nvdisasm 13 refuses sm_70 images (`ToolError::NvdisasmArch`); any
/// other failure there is a broken tool.
fn disasm(ptxas: &Ptxas, lacks: &BTreeMap<SmArch, String>, nvdisasm: Nvdisasm) -> Disasm {
    let mut unreadable = BTreeMap::new();
    for n in TARGETS {
        let target = SmArch::new(n);
        if lacks.contains_key(&target) {
            continue;
        }
        let cubin = ptxas
            .compile(&empty_kernel(target), target, true)
            .unwrap_or_else(|e| panic!("{e}"));
        match nvdisasm.disassemble(&cubin) {
            Ok(_) => {}
            Err(e @ ToolError::NvdisasmArch { .. }) => {
                unreadable.insert(target, e.to_string());
            }
            Err(e) => panic!("{}: an empty kernel for {target}: {e}", nvdisasm.name()),
        }
    }
    Disasm {
        nvdisasm,
        unreadable,
    }
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

/// What the SASS check made of one compiled module on one target.
#[derive(Clone, Debug)]
enum SassOn {
    /// Every finding, each with the [`KNOWN_SASS`] reason that allows it,
    /// if any; none: clean.
    Checked(Vec<(Finding, Option<&'static str>)>),
    /// The nvdisasm cannot read this target's images: the reason.
    NotRead(String),
    /// Compiling with line information, disassembling or lining up the
    /// listing failed: one line.
    Failed(String),
}

/// One test's modules on every target.
struct Report {
    name: String,
    /// Why there is no module (`PtxError::Unsupported`).
    unsupported: Option<String>,
    targets: Vec<(SmArch, OnTarget)>,
    /// The SASS check on each target where the module compiled, when it
    /// ran.
    sass: Vec<(SmArch, SassOn)>,
    /// The module for its lowest target, with what it needs.
    module: Option<(String, Needs)>,
}

/// Compiles `module` for `target`; ptxas's complaint in one line when it
/// refuses.
fn compile(ptxas: &Ptxas, module: &str, target: SmArch) -> Result<(), String> {
    ptxas
        .compile(module, target, false)
        .map(drop)
        .map_err(|e| one_line(&e))
}

/// Whether the SASS of `target`'s image is checked: for the catalogue
/// (`sass`), with an nvdisasm that reads that target.
fn disasm_for(tools: &Tools, sass: bool, target: SmArch) -> Option<&Disasm> {
    tools
        .sass
        .as_ref()
        .ok()
        .filter(|d| sass && !d.unreadable.contains_key(&target))
}

/// Compiles `module` for `target` as the portability check does and, where
/// its SASS is checked, as `gpu-litmus sass --check` does: annotated and
/// with line information, then disassembled, lined up with the plain
/// module and each role checked. The annotated module is the plain one
/// with `.file`/`.loc` directives, so that one compile answers both (a
/// plain compile more would cost CI a ptxas run per module and target);
/// only when ptxas refuses it is the plain module compiled, for the
/// refusal's own line (whose line numbers are the plain module's).
fn compile_and_check(
    tools: &Tools,
    disasm: Option<&Disasm>,
    name: &str,
    module: &str,
    target: SmArch,
) -> Result<Option<SassOn>, String> {
    let Some(disasm) = disasm else {
        return compile(&tools.ptxas, module, target).map(|()| None);
    };
    let cubin = match tools
        .ptxas
        .compile(&lineinfo::annotate(module), target, true)
    {
        Ok(cubin) => cubin,
        Err(e) => {
            compile(&tools.ptxas, module, target)?;
            return Ok(Some(SassOn::Failed(format!(
                "compiles, but not annotated with -lineinfo: {}",
                one_line(&e)
            ))));
        }
    };
    let listing = Listing::of_cubin(module, &cubin, &disasm.nvdisasm);
    Ok(Some(match listing {
        Ok(listing) => SassOn::Checked(
            check(&listing)
                .into_iter()
                .map(|f| {
                    let known = KNOWN_SASS
                        .iter()
                        .find(|(t, role, instr, _)| {
                            *t == name && *role == f.role && *instr == f.instr
                        })
                        .map(|k| k.3);
                    (f, known)
                })
                .collect(),
        ),
        Err(e) => SassOn::Failed(one_line(&e)),
    }))
}

/// Generates `test`'s module and takes it to every target; with `sass`,
/// checks the SASS of each module compiled.
fn check_test(tools: &Tools, name: &str, test: &Test, sass: bool) -> Report {
    let ptxas = &tools.ptxas;
    let mut report = Report {
        name: name.to_string(),
        unsupported: None,
        targets: Vec::new(),
        sass: Vec::new(),
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
        let outcome = match needs.retarget(&module, target) {
            Err(unfit) => OnTarget::NotHere(unfit.to_string()),
            Ok(_) if tools.lacks.contains_key(&target) => OnTarget::NotUnderThisPtxas(format!(
                "{target} needs another ptxas: {}",
                tools.lacks[&target]
            )),
            Ok(text) => {
                match needs.fit(target, &format!("{} reads", ptxas.name()), ptxas.max_isa()) {
                    Err(unfit @ Unfit::Isa { .. }) => {
                        OnTarget::NotUnderThisPtxas(unfit.to_string())
                    }
                    Err(unfit) => OnTarget::Failed(format!(
                        "retarget accepts it and Needs::fit refuses it: {unfit}"
                    )),
                    Ok(_) => match compile_and_check(
                        tools,
                        disasm_for(tools, sass, target),
                        name,
                        &text,
                        target,
                    ) {
                        Ok(checked) => {
                            if let (true, Ok(disasm)) = (sass, &tools.sass) {
                                let on = checked.unwrap_or_else(|| {
                                    SassOn::NotRead(disasm.unreadable[&target].clone())
                                });
                                report.sass.push((target, on));
                            }
                            OnTarget::Compiled
                        }
                        Err(why) => OnTarget::Failed(format!(
                            "retarget accepts it (PTX {}) and ptxas refuses: {why}",
                            needs.version_on(target)
                        )),
                    },
                }
            }
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
        for (target, sass) in &r.sass {
            match sass {
                SassOn::Checked(found) => {
                    for (f, _) in found.iter().filter(|(_, known)| known.is_none()) {
                        out.push(format!("{} on {target}: SASS: {f}", r.name));
                    }
                }
                SassOn::NotRead(why) if why.trim().is_empty() || why.contains('\n') => {
                    out.push(format!(
                        "{} on {target}: SASS not read without a one-line reason: {why:?}",
                        r.name
                    ))
                }
                SassOn::NotRead(_) => {}
                SassOn::Failed(why) => out.push(format!("{} on {target}: SASS: {why}", r.name)),
            }
        }
    }
    out
}

/// The counts per target, with each reason and how many modules gave it.
fn counts(label: &str, tools: &Tools, reports: &[Report], seconds: f64) -> String {
    let ptxas = tools.ptxas.name();
    let mut s = format!(
        "{label}: {} tests, {ptxas}, {seconds:.1} s\n",
        reports.len()
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
            s += &format!(", {k} not under {ptxas} ({})", reasons(&not_ptxas));
        }
        if failed > 0 {
            s += &format!(", {failed} FAILED");
        }
        s += "\n";
    }
    s
}

/// Where a finding was seen, and the [`KNOWN_SASS`] reason that allows it.
type Seen<'a> = (Vec<SmArch>, Option<&'a str>);

/// The SASS check's counts per target (modules clean, flagged; not read,
/// with the reason), then every finding, one line each with its test; or
/// the line that says why it did not run.
fn sass_counts(tools: &Tools, reports: &[Report]) -> String {
    let disasm = match &tools.sass {
        Ok(d) => d,
        Err(why) => return format!("  SASS check: {why}\n"),
    };
    let mut s = format!(
        "  SASS check ({} -lineinfo, {}):\n",
        tools.ptxas.name(),
        disasm.nvdisasm.name()
    );
    // Each finding once, with the targets it was found on: ptxas merges
    // the same accesses on every target, and one line per target would
    // bury a new finding in repeats.
    let mut found: BTreeMap<(&str, String), Seen> = BTreeMap::new();
    for n in TARGETS {
        let target = SmArch::new(n);
        let (mut clean, mut flagged, mut known, mut failed) = (0, 0, 0, 0);
        let mut not_read: BTreeMap<&str, usize> = BTreeMap::new();
        for r in reports {
            for (_, sass) in r.sass.iter().filter(|(t, _)| *t == target) {
                match sass {
                    SassOn::Checked(fs) if fs.is_empty() => clean += 1,
                    SassOn::Checked(fs) => {
                        flagged += 1;
                        if fs.iter().all(|(_, k)| k.is_some()) {
                            known += 1;
                        }
                        for (f, k) in fs {
                            let entry = found
                                .entry((r.name.as_str(), f.to_string()))
                                .or_insert((Vec::new(), *k));
                            entry.0.push(target);
                        }
                    }
                    SassOn::NotRead(why) => *not_read.entry(why).or_default() += 1,
                    SassOn::Failed(_) => failed += 1,
                }
            }
        }
        let mut parts = Vec::new();
        if clean + flagged + failed > 0 {
            let known = if known > 0 {
                format!(" ({known} known)")
            } else {
                String::new()
            };
            parts.push(format!("{clean} clean, {flagged} flagged{known}"));
        }
        parts.extend(
            not_read
                .iter()
                .map(|(why, k)| format!("{k} SASS not read: {why}")),
        );
        if failed > 0 {
            parts.push(format!("{failed} FAILED"));
        }
        if !parts.is_empty() {
            s += &format!("    {target}: {}\n", parts.join(", "));
        }
    }
    for ((name, finding), (targets, known)) in found {
        let on: Vec<String> = targets.iter().map(SmArch::to_string).collect();
        let known = known.map_or("NEW".to_string(), |why| format!("known: {why}"));
        s += &format!("    {name} on {}: {finding} [{known}]\n", on.join(", "));
    }
    s
}

/// The entries of [`KNOWN_SASS`] that no module of `reports` found on any
/// target, when the table's ptxas made the SASS: one line each.
fn stale_known(tools: &Tools, reports: &[Report]) -> Vec<String> {
    if tools.sass.is_err() || tools.release() != KNOWN_SASS_PTXAS {
        return Vec::new();
    }
    let found: BTreeSet<(&str, usize, &str)> = reports
        .iter()
        .flat_map(|r| r.sass.iter().map(move |(_, s)| (r, s)))
        .filter_map(|(r, s)| match s {
            SassOn::Checked(found) => Some(found.iter().map(move |(f, _)| (r, f))),
            _ => None,
        })
        .flatten()
        .map(|(r, f)| (r.name.as_str(), f.role, f.instr.as_str()))
        .collect();
    // A test whose module this ptxas could not build (one that needs a
    // newer PTX) proves nothing stale.
    let checked: BTreeSet<&str> = reports
        .iter()
        .filter(|r| r.sass.iter().any(|(_, s)| matches!(s, SassOn::Checked(_))))
        .map(|r| r.name.as_str())
        .collect();
    KNOWN_SASS
        .iter()
        .filter(|(t, ..)| checked.contains(t))
        .filter(|(t, role, instr, _)| !found.contains(&(*t, *role, *instr)))
        .map(|(t, role, instr, _)| {
            format!(
                "KNOWN_SASS: {t}, role {role}, `{instr}`: no longer found under ptxas {KNOWN_SASS_PTXAS} (remove the entry)"
            )
        })
        .collect()
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

/// Instructions whose `.version` ptxas enforces only from a release on
/// (the table follows the strictest): a ptxas of an earlier release that
/// takes the module one PTX ISA lower is known, not a wrong row. ptxas
/// 12.9 and 13.0 take `fence.acquire`/`fence.release` under any
/// `.version`; 13.5 refuses them below 8.6.
const ENFORCED_FROM: [(&str, (u32, u32)); 2] =
    [("fence.acquire", (13, 5)), ("fence.release", (13, 5))];

/// Whether a ptxas of `release` (`13.0`) may take `what` below its version.
fn lenient(release: &str, what: &str) -> bool {
    let parsed = release
        .split_once('.')
        .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)));
    ENFORCED_FROM
        .iter()
        .any(|(w, from)| *w == what && parsed.is_some_and(|r| r < *from))
}

fn one_below(isa: PtxIsa) -> Option<PtxIsa> {
    let at = ISAS.iter().position(|&(a, b)| PtxIsa::new(a, b) == isa)?;
    let (a, b) = ISAS[at.checked_sub(1)?];
    Some(PtxIsa::new(a, b))
}

/// For one module per instruction that sets a `.version` above its
/// target's own: the module one PTX ISA lower on its lowest target, which
/// ptxas must refuse. One line for each that ptxas takes (the table
/// overstates), and one per instruction checked.
fn overstated(tools: &Tools, reports: &[Report]) -> (Vec<String>, Vec<String>) {
    let ptxas = &tools.ptxas;
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
            .find(|&t| t >= needs.sm && !tools.lacks.contains_key(&t) && t.min_isa() < needs.isa);
        if let Some(target) = target.filter(|_| needs.isa <= ptxas.max_isa()) {
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
        let text = needs
            .retarget(module, target)
            .expect("a target at or above the module's own")
            .replacen(
                &format!(".version {}", needs.isa),
                &format!(".version {lower}"),
                1,
            );
        match compile(ptxas, &text, target) {
            Ok(()) if lenient(&tools.release(), what) => checked.push(format!(
                "{what}: PTX {lower} taken on {} by {}, which does not check its version (known; ptxas 13.5 refuses it)",
                target,
                ptxas.name()
            )),
            Ok(()) => bad.push(format!(
                "{name}: {what} is said to need PTX {} and {} compiles it as PTX {lower} for {}",
                needs.isa,
                ptxas.name(),
                target
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
fn check_set(label: &str, tools: &Tools, tests: Vec<(String, Test)>, sass: bool) {
    let start = Instant::now();
    let reports = in_parallel(&tests, |(name, test)| check_test(tools, name, test, sass));
    let (bad, checked) = overstated(tools, &reports);
    let seconds = start.elapsed().as_secs_f64();
    let mut text = counts(label, tools, &reports, seconds);
    for line in &checked {
        text += &format!("  one version lower: {line}\n");
    }
    if sass {
        text += &sass_counts(tools, &reports);
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
    library::text::parse(&src)
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

/// The `.litmus` files under the repository's `folder`, each named by its
/// path from the root and read; at least `at_least` of them, so that a
/// folder that emptied would not pass by checking nothing.
fn repository_folder(folder: &str, at_least: usize) -> Vec<(String, Test)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    litmus_files(&root.join(folder), &mut files);
    files.sort();
    assert!(
        files.len() >= at_least,
        "{folder} holds {at_least} files, not {}",
        files.len()
    );
    files
        .iter()
        .map(|f| {
            let name = f.strip_prefix(root).unwrap_or(f).display().to_string();
            (name, parse_file(f))
        })
        .collect()
}

#[test]
fn repository_litmus_files_compile_where_the_table_says() {
    let Some(tools) = tools() else {
        println!("tests/litmus: {SKIPPED}");
        return;
    };
    check_set(
        "tests/litmus",
        tools,
        repository_folder("tests/litmus", 15),
        false,
    );
}

/// The catalogue's async-proxy files (`tests/async`): each module
/// compiles for sm_90 (or, relaxing an mbarrier, needs PTX 8.6 and says
/// so in one line under an older ptxas), every older target refuses it in
/// one line, and the SASS of each role keeps its bulk copies, mbarrier
/// operations and fences (the check of `gpu-litmus sass --check`).
#[test]
fn async_files_compile_where_the_table_says_and_keep_their_sass() {
    let Some(tools) = tools() else {
        println!("tests/async: {SKIPPED}");
        return;
    };
    check_set(
        "tests/async",
        tools,
        repository_folder("tests/async", 21),
        true,
    );
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
    let Some(tools) = tools() else {
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
    check_set("Dat3M corpus", tools, tests, false);
}

/// The family `gpu-litmus gen MP SB LB IRIW WRC --placements all --scopes
/// cta,cluster,gpu,sys --fences none,sc,acq_rel,acquire,release` writes.
#[test]
fn generated_family_compiles_where_the_table_says() {
    if !full() {
        println!("gen family: skipped, LITMUS_PORTABILITY is not `full`");
        return;
    }
    let Some(tools) = tools() else {
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
    check_set("gen family", tools, tests, false);
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
    let Some(tools) = tools() else {
        println!("{name}: {SKIPPED}");
        return;
    };
    let mut guard = CATALOGUE.lock().unwrap_or_else(|p| p.into_inner());
    guard.get_or_insert_with(|| Catalogue {
        reports: Vec::new(),
        start: Instant::now(),
    });
    drop(guard);
    let report = check_test(tools, name, test, true);
    let mine = failures(std::slice::from_ref(&report));
    let mut guard = CATALOGUE.lock().unwrap_or_else(|p| p.into_inner());
    let all = guard.as_mut().expect("started above");
    all.reports.push(report);
    if all.reports.len() == catalogue_size() {
        all.reports.sort_by(|a, b| a.name.cmp(&b.name));
        let seconds = all.start.elapsed().as_secs_f64();
        let (mut bad, checked) = overstated(tools, &all.reports);
        bad.extend(stale_known(tools, &all.reports));
        let mut text = counts("catalogue", tools, &all.reports, seconds);
        for line in &checked {
            text += &format!("  one version lower: {line}\n");
        }
        text += &sass_counts(tools, &all.reports);
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

#[test]
fn only_releases_before_the_enforcing_one_are_lenient() {
    assert!(lenient("12.9", "fence.release") && lenient("13.0", "fence.acquire"));
    assert!(!lenient("13.5", "fence.release") && !lenient("14.0", "fence.acquire"));
    assert!(!lenient("12.9", "barrier.cluster.arrive.release"));
    assert!(!lenient("x", "fence.release"));
}

/// The classifier's counts in a CTA's table in shared memory are 32-bit
/// so that they add with the native shared atomic (`ATOMS.ADD`): a 64-bit
/// add there becomes a compare-and-swap loop (`ATOMS.CAST.SPIN`) on every
/// target, which every leader of a CTA's few outcomes retried (`ncu` on an
/// H100: `docs/running-on-gpus.md`, "The classifier's share"). Checked on
/// the SASS of every target whose images the nvdisasm reads.
#[test]
fn the_classifier_counts_in_shared_memory_with_a_native_add() {
    let Some(tools) = tools() else {
        println!("classifier SASS: {SKIPPED}");
        return;
    };
    let disasm = match &tools.sass {
        Ok(d) => d,
        Err(why) => {
            println!("classifier SASS: {why}");
            return;
        }
    };
    let sb = "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n";
    let test = library::text::parse(sb).unwrap_or_else(|e| panic!("{}", e.render("SB")));
    let module = generate(&test).unwrap();
    let needs = Needs::of(&module);
    let mut read = Vec::new();
    for n in TARGETS {
        let target = SmArch::new(n);
        if tools.lacks.contains_key(&target) || disasm.unreadable.contains_key(&target) {
            continue;
        }
        let text = needs
            .retarget(&module, target)
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        let cubin = tools
            .ptxas
            .compile(&text, target, false)
            .unwrap_or_else(|e| panic!("{target}: {}", one_line(&e)));
        let listing = disasm
            .nvdisasm
            .disassemble(&cubin)
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        let sass = library::toolchain::Sass::parse(&listing);
        let classify = sass
            .kernel(library::ptx::layout::CLASSIFY_KERNEL)
            .unwrap_or_else(|| panic!("{target}: no classifier in the listing"));
        let atoms: Vec<&str> = classify
            .instrs
            .iter()
            .map(|i| i.opcode())
            .filter(|o| o.starts_with("ATOMS"))
            .collect();
        assert!(
            atoms.iter().any(|o| o.starts_with("ATOMS.ADD")),
            "{target}: no native shared add in the classifier: {atoms:?}"
        );
        assert!(
            !atoms.iter().any(|o| o.contains("CAST")),
            "{target}: the classifier's shared count is a compare-and-swap loop: {atoms:?}"
        );
        read.push(target.to_string());
    }
    assert!(!read.is_empty(), "no target's classifier SASS was read");
    println!(
        "classifier SASS: a native shared add on {}",
        read.join(", ")
    );
}
