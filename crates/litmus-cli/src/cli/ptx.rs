//! `gpu-litmus ptx`: the PTX module the GPU harness would load for a test.

use std::io::Write;

use litmus_ptx as ptx;
use litmus_ptx::isa::{self, SmArch};

use super::args::Refusal;
use super::load::load;
use super::sass::parse_arch;
use super::{EXIT_FAILED, EXIT_OK};

/// print the PTX generated for a .litmus file (--arch: for a target)
///
/// Prints the PTX module the GPU harness loads for the test: the test
/// kernel `litmus_test` (each thread plays roles of test instances) and the
/// kernel that folds every instance's outcome into the histogram. The text
/// is the same that `litmus!` embeds at compile time. No GPU is needed.
///
/// The module says the lowest PTX ISA and target its instructions need;
/// with --arch, its `.version` and `.target` are set for that target
/// instead, as the harness sets them for the device it runs on.
#[derive(clap::Args)]
#[command(override_usage = "gpu-litmus ptx FILE [--arch sm_XX]", after_long_help = AFTER_HELP)]
pub struct PtxArgs {
    /// print the module for this target
    #[arg(long, value_name = "sm_XX", value_parser = parse_arch)]
    arch: Option<SmArch>,
    /// the test: one .litmus file
    #[arg(value_name = "FILE")]
    files: Vec<String>,
}

const AFTER_HELP: &str = "EXIT STATUS:
    0  the PTX was printed
    1  the file cannot be read or parsed, the harness cannot run the test,
       or its instructions do not exist on --arch (the message says why)
    2  the command line is wrong
";

/// Runs `gpu-litmus ptx` as `args` ask.
pub fn run(args: PtxArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    // One module is one test: a folder or a list would be one text of
    // several modules that nothing could load.
    let file = match <[String; 1]>::try_from(args.files) {
        Ok([file]) => file,
        Err(files) => {
            let why = match files.len() {
                0 => "no file given".to_string(),
                n => format!("one file at a time, not {n} ({})", files.join(", ")),
            };
            return Refusal::from(why).print("ptx", err);
        }
    };
    let arch = args.arch;
    let loaded = match load(&file) {
        Ok(l) => l,
        Err(msg) => {
            let _ = writeln!(err, "{msg}");
            return EXIT_FAILED;
        }
    };
    let text = ptx::generate(&loaded.test).map(|text| match arch {
        Some(arch) => {
            isa::retarget(&text, arch).map_err(|unfit| format!("not for {arch}: {unfit}"))
        }
        None => Ok(text),
    });
    match text {
        Ok(Err(why)) => {
            let _ = writeln!(err, "{file}: {why}");
            EXIT_FAILED
        }
        Ok(Ok(text)) => match out.write_all(text.as_bytes()) {
            Ok(()) => EXIT_OK,
            Err(_) => EXIT_FAILED,
        },
        Err(e) => {
            let _ = writeln!(err, "{file}:{}: {e}", loaded.header());
            EXIT_FAILED
        }
    }
}
