//! `gpu-litmus`: the command-line tool. `main` only dispatches on the
//! subcommand; each subcommand lives in its own file under `cli/`.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    ExitCode::from(cli::dispatch(&args, &mut out, &mut err))
}
