//! Subcommand dispatch and the pieces every subcommand shares. Argument
//! parsing is written by hand (no dependency), each subcommand with its own
//! complete `--help`.

pub mod check;

use std::io::Write;

/// Exit status: everything checked and agreed.
pub const EXIT_OK: u8 = 0;
/// Some file failed: unreadable, invalid, over budget, or its declared
/// verdict disagrees with the model.
pub const EXIT_FAILED: u8 = 1;
/// The command line itself is wrong.
pub const EXIT_USAGE: u8 = 2;

/// One subcommand: its name, a one-line summary, and its entry point.
struct Subcommand {
    name: &'static str,
    summary: &'static str,
    run: fn(&[String], &mut dyn Write, &mut dyn Write) -> u8,
}

const SUBCOMMANDS: &[Subcommand] = &[Subcommand {
    name: "check",
    summary: "check .litmus files with a memory model alone (no GPU)",
    run: check::run,
}];

fn usage() -> String {
    let mut s = String::from(
        "gpu-litmus: GPU memory-model litmus tests\n\nUSAGE:\n    gpu-litmus <COMMAND> [OPTIONS] [ARGS]\n    gpu-litmus <COMMAND> --help\n\nCOMMANDS:\n",
    );
    for c in SUBCOMMANDS {
        s.push_str(&format!("    {:<10}{}\n", c.name, c.summary));
    }
    s.push_str(
        "\nOPTIONS:\n    -h, --help       print this help\n    -V, --version    print the version\n\nENVIRONMENT:\n    LITMUS_MODEL     the model to use when --model is not given (default: ptx)\n",
    );
    s
}

/// Runs the command line `args` (without the program name), writing to
/// `out` and `err`; returns the exit status.
pub fn dispatch(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let Some(first) = args.first() else {
        let _ = write!(err, "{}", usage());
        return EXIT_USAGE;
    };
    match first.as_str() {
        "-h" | "--help" | "help" => {
            let _ = write!(out, "{}", usage());
            EXIT_OK
        }
        "-V" | "--version" => {
            let _ = writeln!(out, "gpu-litmus {}", env!("CARGO_PKG_VERSION"));
            EXIT_OK
        }
        name => match SUBCOMMANDS.iter().find(|c| c.name == name) {
            Some(c) => (c.run)(&args[1..], out, err),
            None => {
                let _ = writeln!(err, "error: unknown command `{name}`\n");
                let _ = write!(err, "{}", usage());
                EXIT_USAGE
            }
        },
    }
}
