//! `gpu-litmus toolchains`: the compilers a run can build a test's module
//! with, by the names `LITMUS_TOOLCHAIN`, `--toolchains` and tuning
//! entries use.

use std::io::Write;

use super::EXIT_OK;

/// list the compilers a run can use: the driver's JIT, installed ptxas releases
///
/// Prints one line a toolchain, by the name that LITMUS_TOOLCHAIN, `tune
/// --toolchains`, `campaign --toolchains` and tuning entries take: `jit`,
/// the driver's JIT (the default), with the driver's version; and
/// `ptxas-VERSION`, a ptxas release installed in the toolchain folder, with
/// the PTX ISA it reads.
///
/// What the hardware shows depends on the compiler: on Hopper, CUDA 12's
/// ptxas makes `fence.acq_rel.cta` a bare MEMBAR.ALL.CTA and shows the weak
/// outcomes that fence allows between CTAs, where the 580 driver's JIT and
/// ptxas 13 do not (docs/running-on-gpus.md). Install releases, without a
/// CUDA toolkit, from PyPI's wheels: `bash scripts/install-toolchain.sh
/// 12.4.131`.
///
/// The folder is $LITMUS_TOOLCHAINS, else
/// $XDG_CACHE_HOME/gpu-litmus/toolchains, else
/// ~/.cache/gpu-litmus/toolchains. A release that is there but does not run
/// is listed with what is wrong. No GPU is needed; without a driver the jit
/// line says why.
#[derive(clap::Args)]
#[command(after_long_help = "EXIT STATUS:\n    0  listed; 2  the command line is wrong\n")]
pub struct ToolchainsArgs {}

/// Runs `gpu-litmus toolchains`.
pub fn run(_: ToolchainsArgs, out: &mut dyn Write) -> u8 {
    let _ = match litmus_hw::jit_toolchain() {
        Ok(name) => writeln!(out, "jit              {name}"),
        Err(why) => writeln!(out, "jit              not here: {why}"),
    };
    let (folder, installed) = litmus_hw::installed_toolchains();
    for i in &installed {
        let _ = match &i.ptxas {
            Ok(p) => writeln!(
                out,
                "{:<16} {} (reads PTX {})",
                i.name,
                p.path().display(),
                p.max_isa()
            ),
            Err(why) => writeln!(out, "{:<16} broken: {why}", i.name),
        };
    }
    let _ = match folder {
        Some(dir) if installed.is_empty() => writeln!(
            out,
            "no ptxas installed in {}: bash scripts/install-toolchain.sh VERSION (e.g. 12.4.131)",
            dir.display()
        ),
        Some(dir) => writeln!(out, "toolchain folder: {}", dir.display()),
        None => writeln!(
            out,
            "no toolchain folder: set LITMUS_TOOLCHAINS (or HOME) to install ptxas releases"
        ),
    };
    EXIT_OK
}
