//! `gpu-litmus ptx`: the PTX module the GPU harness would load for a test.

use std::io::Write;

use litmus_core::ptx;
use litmus_core::ptx::isa::{self, SmArch};

use super::args::Args;
use super::load::load;
use super::sass::parse_arch;
use super::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};

const HELP: &str = "gpu-litmus ptx: print the PTX generated for a .litmus file

USAGE:
    gpu-litmus ptx FILE [--arch sm_XX]

Prints the PTX module the GPU harness loads for the test: the test kernel
`litmus_test` (each thread plays roles of test instances) and the kernel
that folds every instance's outcome into the histogram. The text is the
same that `litmus!` embeds at compile time. No GPU is needed.

The module says the lowest PTX ISA and target its instructions need; with
--arch, its `.version` and `.target` are set for that target instead, as
the harness sets them for the device it runs on.

OPTIONS:
    --arch sm_XX        print the module for this target
    -h, --help          print this help

EXIT STATUS:
    0  the PTX was printed
    1  the file cannot be read or parsed, the harness cannot run the test,
       or its instructions do not exist on --arch (the message says why)
    2  the command line is wrong
";

const USAGE: &str = "USAGE:
    gpu-litmus ptx FILE [--arch sm_XX]

For more, try `gpu-litmus ptx --help`.";

fn parse_args(args: &[String]) -> Result<Option<(String, Option<SmArch>)>, String> {
    let mut files = Vec::new();
    let mut arch = None;
    let mut a = Args::new(args);
    while let Some((flag, inline)) = a.next_flag(&mut files) {
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--arch" => arch = Some(parse_arch(&a.value(&flag, inline)?)?),
            _ => return Err(format!("unknown option `{flag}`")),
        }
    }
    match <[String; 1]>::try_from(files) {
        Ok([file]) => Ok(Some((file, arch))),
        Err(files) if files.is_empty() => Err("no file given".into()),
        Err(files) => Err(format!(
            "one file at a time, not {} ({})",
            files.len(),
            files.join(", ")
        )),
    }
}

/// Runs `gpu-litmus ptx` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let (file, arch) = match parse_args(args) {
        Ok(Some(f)) => f,
        Ok(None) => {
            let _ = write!(out, "{HELP}");
            return EXIT_OK;
        }
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}\n\n{USAGE}");
            return EXIT_USAGE;
        }
    };
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
