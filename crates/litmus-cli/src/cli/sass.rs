//! `gpu-litmus sass`: the SASS each role's accesses, fences and branches
//! become under ptxas, and (with `--check`) what the compiler dropped,
//! reordered or folded. The work is litmus-toolchain's; this is the
//! command line and the printing.

use std::io::Write;
use std::path::PathBuf;

use litmus_core::ptx::isa::{Needs, SmArch};
use litmus_core::ptx::{self, isa};
use litmus_toolchain::check::check_role;
use litmus_toolchain::{lineinfo, CacheKey, Listing, Lookup, ModuleCache, Nvdisasm, Ptxas, Sass};

use super::args::Args;
use super::load::{litmus_files, load};
use super::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};

const HELP: &str = "gpu-litmus sass: the SASS a test's PTX becomes, beside each PTX line

USAGE:
    gpu-litmus sass FILE... [--arch sm_XX] [--ptxas PATH] [--nvdisasm PATH] [--check]

For each .litmus file (or each one under a folder), generates the PTX
module the GPU harness loads, sets its target to --arch, compiles it with
ptxas (with line information) and disassembles it with nvdisasm. Prints,
for each role of the test kernel, each test instruction, its PTX accesses,
fences, barriers and branches (with their line in `gpu-litmus ptx --arch`'s
output), and under each the SASS instructions made from that line. No GPU
is needed.

A test whose instructions do not exist on the target (a cluster test on
sm_80), or need a PTX ISA newer than the ptxas reads, or that the GPU
harness cannot run at all, is not compiled: one line says why, and it does
not fail the command (like a skip).

With --check, each role is followed by its findings, one line each:
    dropped    a PTX access, fence or barrier with no SASS memory, fence or
               barrier instruction made from it (not a weak or relaxed load
               whose value nothing reads: no outcome can tell);
    reordered  an access or fence whose SASS comes before that of an earlier
               one of the role;
    folded     a conditional branch on a loaded value, with an access after
               it, that left no conditional branch or predicated access
               (herd7's LB+ctrls branches to the very next instruction, and
               ptxas removes the branch);
and a summary line ends the output.

Compiled images are kept in the module cache (LITMUS_CACHE_DIR, else
$XDG_CACHE_HOME/gpu-litmus, else ~/.cache/gpu-litmus; LITMUS_CACHE=0 turns
it off). A cache that cannot be used is one warning, and the command goes
on without it.

OPTIONS:
    --arch sm_XX        the target to compile for (default sm_90)
    --ptxas PATH        the ptxas to use (default: LITMUS_PTXAS, else PATH)
    --nvdisasm PATH     the nvdisasm to use (default: LITMUS_NVDISASM, else
                        PATH; CUDA 13's does not read sm_70)
    --check             report what the compiler dropped, reordered or folded
    -h, --help          print this help

EXIT STATUS:
    0  every file was listed (with --check: and none was flagged); tests not
       compiled for the target do not count
    1  a file could not be read or compiled, a tool is missing or
       is not what it claims, or (with --check) a file was flagged
    2  the command line is wrong
";

const USAGE: &str = "USAGE:
    gpu-litmus sass FILE... [--arch sm_XX] [--ptxas PATH] [--nvdisasm PATH] [--check]

For more, try `gpu-litmus sass --help`.";

struct Options {
    files: Vec<String>,
    arch: SmArch,
    ptxas: Option<PathBuf>,
    nvdisasm: Option<PathBuf>,
    check: bool,
}

/// Reads `--arch`'s value; the error lists the known architectures.
pub(super) fn parse_arch(text: &str) -> Result<SmArch, String> {
    SmArch::parse(text).ok_or_else(|| {
        format!(
            "unknown architecture `{text}` for `--arch` (known: {})",
            SmArch::known()
        )
    })
}

fn parse_args(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options {
        files: Vec::new(),
        arch: SmArch::new(90),
        ptxas: None,
        nvdisasm: None,
        check: false,
    };
    let mut a = Args::new(args);
    while let Some((flag, inline)) = a.next_flag(&mut o.files) {
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--arch" => o.arch = parse_arch(&a.value(&flag, inline)?)?,
            "--ptxas" => o.ptxas = Some(a.value(&flag, inline)?.into()),
            "--nvdisasm" => o.nvdisasm = Some(a.value(&flag, inline)?.into()),
            "--check" if inline.is_none() => o.check = true,
            "--check" => return Err("`--check` takes no value".into()),
            _ => return Err(format!("unknown option `{flag}`")),
        }
    }
    if o.files.is_empty() {
        return Err("no file given".into());
    }
    Ok(Some(o))
}

/// What became of one file.
enum Verdict {
    Clean,
    Flagged,
    NotCompiled,
    Failed,
}

/// The tools and the cache, shared by every file.
struct Tools {
    ptxas: Ptxas,
    nvdisasm: Nvdisasm,
    cache: Option<ModuleCache>,
}

/// Runs `gpu-litmus sass` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let opts = match parse_args(args) {
        Ok(Some(o)) => o,
        Ok(None) => {
            let _ = write!(out, "{HELP}");
            return EXIT_OK;
        }
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}\n\n{USAGE}");
            return EXIT_USAGE;
        }
    };
    let tools = match (
        Ptxas::find(opts.ptxas.as_deref()),
        Nvdisasm::find(opts.nvdisasm.as_deref()),
    ) {
        (Ok(ptxas), Ok(nvdisasm)) => {
            let cache = ModuleCache::from_env().unwrap_or_else(|e| {
                let _ = writeln!(err, "warning: {e}; going on without the module cache");
                None
            });
            Tools {
                ptxas,
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
    opts: &Options,
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
    let reads = format!("{} reads", tools.ptxas.name());
    let fit = Needs::of(&module).fit(opts.arch, &reads, tools.ptxas.max_isa());
    let module = match fit.and_then(|_| isa::retarget(&module, opts.arch)) {
        Ok(m) => m,
        Err(unfit) => {
            let _ = writeln!(out, "{file}: not compiled: {unfit}");
            return Verdict::NotCompiled;
        }
    };
    let listing = match compile(&module, opts.arch, tools, err) {
        Ok(l) => l,
        Err(e) => {
            let _ = writeln!(err, "{file}: {e}");
            return Verdict::Failed;
        }
    };
    let _ = writeln!(
        out,
        "== {file}: {} for {} ==",
        tools.ptxas.name(),
        opts.arch
    );
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

/// The listing of `module` (retargeted), compiled through the cache.
fn compile(
    module: &str,
    arch: SmArch,
    tools: &Tools,
    err: &mut dyn Write,
) -> Result<Listing, litmus_toolchain::ToolError> {
    let annotated = lineinfo::annotate(module);
    let toolchain = tools.ptxas.name();
    let device = arch.to_string();
    let key = CacheKey {
        module: &annotated,
        toolchain: &toolchain,
        device: &device,
    };
    let cached = match tools.cache.as_ref().map(|c| c.get(&key)) {
        Some(Ok(Lookup::Hit(image))) => Some(image),
        Some(Ok(Lookup::Corrupt(why))) => {
            let _ = writeln!(err, "warning: module cache: {why}; compiling again");
            None
        }
        Some(Err(e)) => {
            let _ = writeln!(err, "warning: {e}");
            None
        }
        Some(Ok(Lookup::Miss)) | None => None,
    };
    let cubin = match cached {
        Some(image) => image,
        None => {
            let image = tools.ptxas.compile(&annotated, arch, true)?;
            if let Some(Err(e)) = tools.cache.as_ref().map(|c| c.put(&key, &image)) {
                let _ = writeln!(err, "warning: {e}");
            }
            image
        }
    };
    let sass = Sass::parse(&tools.nvdisasm.disassemble(&cubin)?);
    Listing::new(module, &sass)
}
