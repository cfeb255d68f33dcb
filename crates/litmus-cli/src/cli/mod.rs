//! Subcommand dispatch and the pieces every subcommand shares. The command
//! line is clap's (derive): each command's options, their help and their
//! errors come from one definition in the command's file.

mod args;
mod campaign;
mod campaign_search;
mod candidates;
pub mod check;
mod diff;
mod evidence;
mod evidence_merge;
mod explain;
mod gate;
mod gen;
mod load;
mod mutants;
mod mutants_report;
mod outputs;
mod parallel;
mod progress;
mod ptx;
mod report;
mod run;
mod run_help;
mod sass;
mod subjects;
mod toolchains;
mod tune;

use std::io::Write;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// Exit status: everything checked and agreed.
pub const EXIT_OK: u8 = 0;
/// Some file failed: unreadable, invalid, over budget, or its declared
/// verdict disagrees with the model.
pub const EXIT_FAILED: u8 = 1;
/// The command line itself is wrong.
pub const EXIT_USAGE: u8 = 2;

/// The command line: the global flags and one command.
#[derive(Parser)]
#[command(
    name = "gpu-litmus",
    version,
    about = "gpu-litmus: GPU memory-model litmus tests",
    after_long_help = overview(),
    arg_required_else_help = true,
    disable_help_subcommand = true,
    max_term_width = 100
)]
struct Cli {
    #[command(flatten)]
    globals: Globals,
    #[command(subcommand)]
    command: Command,
}

/// `-q` and `-v`, which every command takes, before or after its name.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct Globals {
    /// print results and errors only: no progress bar, no notes
    #[arg(
        short,
        long,
        global = true,
        conflicts_with = "verbose",
        display_order = 900
    )]
    pub quiet: bool,
    /// say more: each file as it starts (run, campaign), as a line of its
    /// own where stderr is not a terminal
    #[arg(short, long, global = true, display_order = 901)]
    pub verbose: bool,
}

#[derive(Subcommand)]
enum Command {
    Check(check::CheckArgs),
    Run(run::RunArgs),
    Campaign(campaign::CampaignArgs),
    Tune(tune::TuneArgs),
    Explain(explain::ExplainArgs),
    Gen(gen::GenArgs),
    Gate(gate::GateArgs),
    Mutants(mutants::MutantsArgs),
    Diff(diff::DiffArgs),
    Evidence(evidence::EvidenceArgs),
    Report(report::ReportArgs),
    Ptx(ptx::PtxArgs),
    Toolchains(toolchains::ToolchainsArgs),
    Sass(sass::SassArgs),
    /// print a completion script for SHELL (bash, zsh, fish, elvish, powershell)
    Completions {
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// print a command's help: `gpu-litmus help run` is `gpu-litmus run --help`
    Help {
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
    },
}

/// The usage line of `command` (`Usage: gpu-litmus check ...`).
fn usage_of(command: &str) -> String {
    let mut found = self::command();
    // `evidence import`: a command of a command.
    for word in command.split_whitespace() {
        match found.find_subcommand(word) {
            Some(c) => found = c.clone(),
            None => break,
        }
    }
    let name = format!("gpu-litmus {command}");
    let usage = found.bin_name(name.trim_end()).render_usage();
    usage.to_string().trim_end().to_string()
}

/// The long help's end: the options most commands share, the
/// environment, the exit status, examples.
fn overview() -> String {
    format!(
        "COMMON OPTIONS (see each command's --help for all of them):
    --model NAME        the memory model: {}, or a .cat file
                        (check, run, explain, gate, ...)
",
        litmus_model::model_names()
    ) + OVERVIEW
}

const OVERVIEW: &str = "    --format FORMAT     text or json (check, run); herd: herd7's result
                        blocks (check); litmus7: litmus7's (run)
    --budget-ms N       GPU time per test in milliseconds (run)
    --launches N        GPU kernel launches per test instead (run)
    --seed N            the seed of the GPU's permutations (run)
    --report DIR        JSON and JUnit reports (run, gate)
    --tuning FILE       the tuning file: read (run, campaign), written
                        (tune, campaign --tune)
    --tune-configs N    the search's pool, also --configs (tune, campaign)
    --evidence DIR      record hardware runs (run); read them (gate, report)
    --outcome TEXT      the outcome to explain, \"P1:r0=1; P1:r1=0\" (explain)
    --dot               Graphviz output (explain)
    --loop-bound N      the model's loop bound: how many times a loop body
                        may run (default 1) (check, run, explain)

ENVIRONMENT:
    LITMUS_MODEL        the model when --model is not given (default: ptx)
    LITMUS_BUDGET_MS    GPU time per test in ms (default 1000)
    LITMUS_LAUNCHES     GPU launches per test, instead of a time budget
    LITMUS_SEED         seed of the GPU's permutations (default: the clock)
    LITMUS_CTAS         CTAs per launch, a power of two (default 2048)
    LITMUS_THREADS      threads per CTA, a power of two from 2 to 1024
                        (default 64)
    LITMUS_STRIDE       words between two slots of a location (default 4)
    LITMUS_PERM         fixed (default), random or identity placement permutations
    LITMUS_SPIN         polls of a bounded spin barrier per role (default 0)
    LITMUS_STRESS       CTAS[:ROUNDS] of memory stress (default 0: off);
                        the other stress and environment knobs are in
                        `gpu-litmus run --help`
    LITMUS_TUNING       a tuning file of per-test knobs (`gpu-litmus tune`)
    LITMUS_LOOP_BOUND   backward branches a role may take on the GPU before
                        it counts as unfinished (default 1000); not the
                        model's --loop-bound
    LITMUS_REPORT_DIR   where run writes its JSON and JUnit reports
    LITMUS_EVIDENCE     where hardware runs record their evidence
    LITMUS_REQUIRE_GPU  1: a missing GPU fails each test instead of skipping
                        its hardware half
    LITMUS_REQUIRE_HW   1: a hardware half the device or driver cannot run
                        fails the test instead of being reported as not run

EXIT STATUS:
    0  success; 1  some file or test failed; 2  the command line is wrong

EXAMPLES:
    gpu-litmus check tests/litmus/**/*.litmus
    gpu-litmus run --budget-ms 2000 --report target/litmus mp.litmus sb.litmus
    gpu-litmus explain mp.litmus --outcome \"P1:r0=1; P1:r1=0\" --dot | dot -Tsvg
    gpu-litmus ptx mp.litmus
    gpu-litmus gen IRIW --placements all --fences none,sc --out gen/
    gpu-litmus gate --model sc --baseline ptx --evidence evidence/ tests/litmus
    gpu-litmus mutants ptx --evidence evidence/ tests/litmus
    gpu-litmus diff ptx sc --shapes MP,SB,LB,IRIW --out diffs/
";

/// The command line's definition, every command's options included: an
/// option given twice takes its last value, as a script that appends a
/// flag to a line expects; a value such as `-5` is the option's to refuse
/// with its own message, not an unknown option.
fn command() -> clap::Command {
    let negative = |a: clap::Arg| {
        let takes_value = a.get_action().takes_values();
        a.allow_negative_numbers(takes_value)
    };
    Cli::command()
        .args_override_self(true)
        .mut_subcommands(move |c| {
            c.args_override_self(true)
                .mut_args(negative)
                .mut_subcommands(|c| c.mut_args(negative))
        })
}

/// Runs the command line `args` (without the program name), writing to
/// `out` and `err`; returns the exit status.
pub fn dispatch(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let line = std::iter::once("gpu-litmus".to_string()).chain(args.iter().cloned());
    let parsed = command()
        .try_get_matches_from(line)
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            // The command the mistake is in: the first word that names
            // one, and the next that names one of its own (`evidence
            // import`).
            let mut found = command();
            let mut command = Vec::new();
            for a in args {
                if let Some(sub) = found.find_subcommand(a).cloned() {
                    command.push(a.as_str());
                    found = sub;
                }
            }
            return args::usage_error(&e, &command.join(" "), out, err);
        }
    };
    let g = cli.globals;
    progress::set_quiet(g.quiet);
    // Names come from files anyone writes: whatever a command prints, in
    // text or JSON, reaches the terminal with its control and bidi
    // characters written out (`litmus_core::printable::escaped_output`).
    let mut shown = litmus_core::printable::Shown(out);
    let out: &mut dyn Write = &mut shown;
    match cli.command {
        Command::Check(a) => check::run(a, out, err),
        Command::Run(a) => run::run(a, g, out, err),
        Command::Campaign(a) => campaign::run(a, g, out, err),
        Command::Tune(a) => tune::run(a, g, out, err),
        Command::Explain(a) => explain::run(a, out, err),
        Command::Gen(a) => gen::run(a, out, err),
        Command::Gate(a) => gate::run(a, out, err),
        Command::Mutants(a) => mutants::run(a, out, err),
        Command::Diff(a) => diff::run(a, out, err),
        Command::Evidence(a) => evidence::run(a, out, err),
        Command::Report(a) => report::run(a, out, err),
        Command::Ptx(a) => ptx::run(a, out, err),
        Command::Toolchains(a) => toolchains::run(a, out),
        Command::Sass(a) => sass::run(a, out, err),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut command(), "gpu-litmus", out);
            EXIT_OK
        }
        Command::Help { command: None } => {
            let _ = write!(out, "{}", command().render_long_help());
            EXIT_OK
        }
        // The command's own `--help`, so that both say the same.
        Command::Help {
            command: Some(name),
        } => dispatch(&[name, "--help".to_string()], out, err),
    }
}

#[cfg(test)]
mod tests {
    /// clap's own checks of every command's definition (two options of
    /// one name, a setting an option cannot take), which it otherwise
    /// makes only when that command's line is read.
    #[test]
    fn every_command_is_well_defined() {
        super::command().debug_assert();
    }
}
