//! The `gpu-litmus` command-line tool as a library, so that the root
//! package `gpu-litmus` carries the binary (`cargo install gpu-litmus`)
//! and this crate keeps the code: [`main`] is the whole program, [`run`]
//! the same for a command line and writers given.
//!
//! ```no_run
//! // A binary that is `gpu-litmus`:
//! fn main() -> std::process::ExitCode {
//!     litmus_cli::main()
//! }
//! ```

mod cli;

use std::io::Write;
use std::process::ExitCode;

pub use cli::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};

/// Runs the command line `args` (without the program's name, as
/// `gpu-litmus` would get it), writing what it prints to `out` and `err`;
/// returns the exit status: [`EXIT_OK`], [`EXIT_FAILED`] or
/// [`EXIT_USAGE`].
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    // The reports name the tool, whatever its file is called.
    litmus_runner::report::junit::name_suite("gpu-litmus");
    cli::dispatch(args, out, err)
}

/// The `gpu-litmus` program: the process's arguments, standard output and
/// standard error, and the exit status as [`run`] gives it.
pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Handles, not locks held for the whole command: a line the engines
    // print once from a worker thread (a tuning entry's toolchain that is
    // not installed, a portfolio slot left out) would otherwise wait for
    // the main thread's lock while the main thread waits for it.
    let mut out = std::io::stdout();
    let mut err = std::io::stderr();
    ExitCode::from(run(&args, &mut out, &mut err))
}
