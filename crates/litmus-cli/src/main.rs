//! `gpu-litmus`: the command-line tool. `main` only dispatches on the
//! subcommand; each subcommand lives in its own file under `cli/`.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Handles, not locks held for the whole command: a line the engines
    // print once from a worker thread (a tuning entry's toolchain that is
    // not installed, a portfolio slot left out) would otherwise wait for
    // the main thread's lock while the main thread waits for it.
    let mut out = std::io::stdout();
    let mut err = std::io::stderr();
    ExitCode::from(cli::dispatch(&args, &mut out, &mut err))
}
