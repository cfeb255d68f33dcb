//! `gpu-litmus sass`: the SASS each role's accesses, fences and branches
//! become under ptxas, and (with `--check`) what the compiler dropped,
//! reordered or folded. The work is litmus-toolchain's; this is the
//! command line and the printing.

use std::io::Write;
use std::path::PathBuf;

use litmus_hw::{GpuError, PtxTarget};
use litmus_ptx as ptx;
use litmus_ptx::isa::{Needs, SmArch};
use litmus_toolchain::check::check_role;
use litmus_toolchain::{Listing, ModuleCache, Nvdisasm, Ptxas};

use super::args::Refusal as Usage;
use super::load::{litmus_files, load};
use super::{EXIT_FAILED, EXIT_OK};

/// list the SASS ptxas makes of each role (--check: dropped, reordered, folded)
///
/// For each .litmus file (or each one under a folder), generates the PTX
/// module the GPU harness loads, sets its target to --arch, compiles it with
/// ptxas (with line information) and disassembles it with nvdisasm. Prints,
/// for each role of the test kernel, each test instruction, its PTX accesses,
/// fences, barriers and branches (with their line in `gpu-litmus ptx --arch`'s
/// output), and under each the SASS instructions made from that line. No GPU
/// is needed, except with --jit: then the GPU's driver compiles the module
/// (the code a run of it runs, --arch naming the module's target) instead of
/// ptxas.
///
/// A test whose instructions do not exist on the target (a cluster test on
/// sm_80), or need a PTX ISA newer than the ptxas reads, or that the GPU
/// harness cannot run at all, is not compiled: one line says why, and it does
/// not fail the command (like a skip).
///
/// With --check, each role is followed by its findings, one line each:
///     dropped    a PTX access, fence or barrier with no SASS memory, fence or
///                barrier instruction made from it (not a weak or relaxed load
///                whose value nothing reads: no outcome can tell);
///     reordered  an access or fence whose SASS comes before that of an earlier
///                one of the role;
///     folded     a conditional branch on a loaded value, with an access after
///                it, that left no conditional branch or predicated access
///                (herd7's LB+ctrls branches to the very next instruction, and
///                ptxas removes the branch);
/// and a summary line ends the output.
///
/// Compiled images are kept in the module cache (LITMUS_CACHE_DIR, else
/// $XDG_CACHE_HOME/gpu-litmus, else ~/.cache/gpu-litmus; LITMUS_CACHE=0 turns
/// it off). A cache that cannot be used is one warning, and the command goes
/// on without it.
#[derive(clap::Args)]
#[command(
    verbatim_doc_comment,
    override_usage = "gpu-litmus sass FILE... [--arch sm_XX] [--ptxas PATH | --jit] [--nvdisasm PATH] [--check]",
    after_long_help = AFTER_HELP
)]
pub struct SassArgs {
    /// the target to compile for (default sm_90)
    #[arg(long, value_name = "sm_XX", value_parser = parse_arch)]
    arch: Option<SmArch>,
    /// the ptxas to use (default: LITMUS_PTXAS, else PATH)
    #[arg(long, value_name = "PATH")]
    ptxas: Option<PathBuf>,
    /// compile with GPU 0's driver, as a run does, for the GPU's own
    /// architecture (--arch: the module's target, default the GPU's)
    #[arg(long)]
    jit: bool,
    /// the nvdisasm to use (default: LITMUS_NVDISASM, else PATH; CUDA 13's
    /// does not read sm_70)
    #[arg(long, value_name = "PATH")]
    nvdisasm: Option<PathBuf>,
    /// report what the compiler dropped, reordered or folded
    #[arg(long)]
    check: bool,
    /// the tests: .litmus files, and folders searched for them
    #[arg(value_name = "FILE|DIR")]
    files: Vec<String>,
}

const AFTER_HELP: &str = "EXIT STATUS:
    0  every file was listed (with --check: and none was flagged); tests not
       compiled for the target do not count
    1  a file could not be read or compiled, a tool is missing or
       is not what it claims, or (with --check) a file was flagged
    2  the command line is wrong
";

/// Reads `--arch`'s value; the error lists the known architectures.
pub(super) fn parse_arch(text: &str) -> Result<SmArch, String> {
    SmArch::parse(text).ok_or_else(|| {
        format!(
            "unknown architecture `{text}` for `--arch` (known: {})",
            SmArch::known()
        )
    })
}

/// What became of one file.
enum Verdict {
    Clean,
    Flagged,
    NotCompiled,
    Failed,
}

/// Which compiler makes the image.
enum Compiler {
    Ptxas(Ptxas),
    /// GPU 0's driver, through `litmus_hw::device_image`.
    Jit,
}

/// The tools and the cache, shared by every file.
struct Tools {
    compiler: Compiler,
    nvdisasm: Nvdisasm,
    cache: Option<ModuleCache>,
}

/// Runs `gpu-litmus sass` as `args` ask.
pub fn run(opts: SassArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    if opts.files.is_empty() {
        return Usage::from("no file given").print("sass", err);
    }
    if opts.jit && opts.ptxas.is_some() {
        return Usage::from("`--jit` and `--ptxas` name two compilers: give one")
            .print("sass", err);
    }
    let compiler = match opts.jit {
        true => Ok(Compiler::Jit),
        false => Ptxas::find(opts.ptxas.as_deref()).map(Compiler::Ptxas),
    };
    let tools = match (compiler, Nvdisasm::find(opts.nvdisasm.as_deref())) {
        (Ok(compiler), Ok(nvdisasm)) => {
            let cache = ModuleCache::from_env().unwrap_or_else(|e| {
                let _ = writeln!(err, "warning: {e}; going on without the module cache");
                None
            });
            Tools {
                compiler,
                nvdisasm,
                cache,
            }
        }
        (Err(e), _) | (_, Err(e)) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_FAILED;
        }
    };
    let mut verdicts = Vec::new();
    for path in &opts.files {
        match litmus_files(std::slice::from_ref(path)) {
            Ok(files) => {
                for file in files {
                    verdicts.push(one_file(&file, &opts, &tools, out, err));
                }
            }
            Err(msg) => {
                let _ = writeln!(err, "{msg}");
                verdicts.push(Verdict::Failed);
            }
        }
    }
    let count = |f: fn(&Verdict) -> bool| verdicts.iter().filter(|v| f(v)).count();
    let failed = count(|v| matches!(v, Verdict::Failed));
    let flagged = count(|v| matches!(v, Verdict::Flagged));
    if opts.check {
        let mut summary = format!(
            "{} files: {} clean, {flagged} flagged, {} not compiled",
            verdicts.len(),
            count(|v| matches!(v, Verdict::Clean)),
            count(|v| matches!(v, Verdict::NotCompiled)),
        );
        if failed > 0 {
            summary.push_str(&format!(", {failed} failed"));
        }
        let _ = writeln!(out, "{summary}");
    }
    if failed > 0 || (opts.check && flagged > 0) {
        EXIT_FAILED
    } else {
        EXIT_OK
    }
}

/// Lists (and checks) one file; what went wrong is one line on `err`.
fn one_file(
    file: &str,
    opts: &SassArgs,
    tools: &Tools,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Verdict {
    let loaded = match load(file) {
        Ok(l) => l,
        Err(msg) => {
            let _ = writeln!(err, "{msg}");
            return Verdict::Failed;
        }
    };
    // A test the harness cannot run has no module: a property of the
    // test, like a target it does not fit, not a failure of the command.
    let module = match ptx::generate(&loaded.test) {
        Ok(m) => m,
        Err(e) => {
            let _ = writeln!(out, "{file}:{}: not compiled: {e}", loaded.header());
            return Verdict::NotCompiled;
        }
    };
    let built = match &tools.compiler {
        Compiler::Ptxas(ptxas) => with_ptxas(&module, opts, ptxas, tools, err),
        Compiler::Jit => with_driver(&loaded.test, &module, opts, tools),
    };
    let (listing, title) = match built {
        Ok(built) => built,
        Err(Refusal::Unfit(why)) => {
            let _ = writeln!(out, "{file}: not compiled: {why}");
            return Verdict::NotCompiled;
        }
        Err(Refusal::Failed(why)) => {
            let _ = writeln!(err, "{file}: {why}");
            return Verdict::Failed;
        }
    };
    let _ = writeln!(out, "== {file}: {title} ==");
    let mut flagged = false;
    for role in &listing.roles {
        let _ = write!(out, "{role}");
        if opts.check {
            for finding in check_role(role) {
                flagged = true;
                let _ = writeln!(out, "  warning: {finding}");
            }
        }
    }
    if flagged {
        Verdict::Flagged
    } else {
        Verdict::Clean
    }
}

/// Why a file has no listing: its test does not fit the target or the
/// toolchain (like a skip), or compiling it failed.
enum Refusal {
    Unfit(String),
    Failed(String),
}

/// The listing of the portable `module` under ptxas for `--arch`, and
/// what compiled it.
fn with_ptxas(
    module: &str,
    opts: &SassArgs,
    ptxas: &Ptxas,
    tools: &Tools,
    err: &mut dyn Write,
) -> Result<(Listing, String), Refusal> {
    let arch = opts.arch.unwrap_or(SmArch::new(90));
    let reads = format!("{} reads", ptxas.name());
    let needs = Needs::of(module);
    let module = needs
        .fit(arch, &reads, ptxas.max_isa())
        .and_then(|_| needs.retarget(module, arch))
        .map_err(|unfit| Refusal::Unfit(unfit.to_string()))?;
    let listing = Listing::compiled(
        &module,
        arch,
        ptxas,
        &tools.nvdisasm,
        tools.cache.as_ref(),
        &mut |w| {
            let _ = writeln!(err, "warning: {w}");
        },
    )
    .map_err(|e| Refusal::Failed(e.to_string()))?;
    Ok((listing, format!("{} for {arch}", ptxas.name())))
}

/// The listing of the code a run of `test` runs on GPU 0 (the module's
/// target `--arch`, else the GPU's), and how it was built.
fn with_driver(
    test: &litmus_core::ir::Test,
    module: &str,
    opts: &SassArgs,
    tools: &Tools,
) -> Result<(Listing, String), Refusal> {
    let knobs = litmus_hw::Knobs {
        ptx_target: opts.arch.map_or(PtxTarget::Native, PtxTarget::Arch),
        ..litmus_hw::Knobs::default()
    };
    match litmus_hw::device_listing(
        &litmus_hw::Modules::with_default(test, module),
        &knobs,
        &tools.nvdisasm,
    ) {
        Ok((listing, build)) => Ok((listing, build.to_string())),
        Err(e @ GpuError::Unfaithful(_)) => Err(Refusal::Unfit(e.to_string())),
        Err(e) if e.is_absent() => Err(Refusal::Failed(format!("--jit needs a GPU: {e}"))),
        Err(e) => Err(Refusal::Failed(e.to_string())),
    }
}
