//! Subcommand dispatch and the pieces every subcommand shares. Argument
//! parsing is written by hand (no dependency), each subcommand with its own
//! complete `--help`.

mod args;
mod campaign;
mod candidates;
mod cat_text;
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
mod prefetch;
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

const SUBCOMMANDS: &[Subcommand] = &[
    Subcommand {
        name: "check",
        summary: "check .litmus files with a memory model alone (no GPU)",
        run: check::run,
    },
    Subcommand {
        name: "run",
        summary: "run .litmus files with the model and on the GPU: outcome tables, verdicts",
        run: run::run,
    },
    Subcommand {
        name: "campaign",
        summary: "run a set of tests on the GPU: weak outcomes seen, rates, a summary",
        run: campaign::run,
    },
    Subcommand {
        name: "tune",
        summary: "search the GPU's environment per test; write a tuning file",
        run: tune::run,
    },
    Subcommand {
        name: "explain",
        summary: "say why the model forbids an outcome (axiom and witness; --dot for Graphviz)",
        run: explain::run,
    },
    Subcommand {
        name: "gen",
        summary: "write families of .litmus files from shapes or diy7 cycles, verdicts included",
        run: gen::run,
    },
    Subcommand {
        name: "gate",
        summary: "judge a model against recorded hardware evidence (no GPU)",
        run: gate::run,
    },
    Subcommand {
        name: "mutants",
        summary: "score a cat model's mutants against the evidence and the tests' verdicts",
        run: mutants::run,
    },
    Subcommand {
        name: "diff",
        summary: "list the generated tests on which two models differ, smallest first",
        run: diff::run,
    },
    Subcommand {
        name: "evidence",
        summary: "import litmus7 logs and `run --format json` output as evidence; merge folders",
        run: evidence::run,
    },
    Subcommand {
        name: "report",
        summary: "write recorded evidence as one HTML page",
        run: report::run,
    },
    Subcommand {
        name: "ptx",
        summary: "print the PTX generated for a .litmus file (--arch: for a target)",
        run: ptx::run,
    },
    Subcommand {
        name: "toolchains",
        summary: "list the compilers a run can use: the driver's JIT, installed ptxas releases",
        run: toolchains::run,
    },
    Subcommand {
        name: "sass",
        summary: "list the SASS ptxas makes of each role (--check: dropped, reordered, folded)",
        run: sass::run,
    },
];

const OVERVIEW: &str = "\
COMMON OPTIONS (see each command's --help for all of them):
    --model NAME        the memory model: ptx (default), sc, ptx-2015, ptx-7.5, or a .cat file
                        (check, run, explain)
    --format FORMAT     text or json (check, run); herd: herd7's result
                        blocks (check); litmus7: litmus7's (run)
    --budget-ms N       GPU time per test in milliseconds (run)
    --launches N        GPU kernel launches per test instead (run)
    --seed N            the seed of the GPU's permutations (run)
    --report DIR        JSON and JUnit reports (run, gate)
    --evidence DIR      record hardware runs (run); read them (gate, report)
    --outcome TEXT      the outcome to explain, \"P1:r0=1; P1:r1=0\" (explain)
    --dot               Graphviz output (explain)
    --loop-bound N      the model's loop bound: how many times a loop body
                        may run (default 1) (check, run, explain)

OPTIONS:
    -h, --help          print this help
    -V, --version       print the version

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

fn usage() -> String {
    let mut s = String::from(
        "gpu-litmus: GPU memory-model litmus tests\n\nUSAGE:\n    gpu-litmus <COMMAND> [OPTIONS] [ARGS]\n    gpu-litmus <COMMAND> --help    (or: gpu-litmus help <COMMAND>)\n\nCOMMANDS:\n",
    );
    for c in SUBCOMMANDS {
        s.push_str(&format!("    {:<10}{}\n", c.name, c.summary));
    }
    s.push('\n');
    s.push_str(OVERVIEW);
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
        "help" if args.len() > 1 => match SUBCOMMANDS.iter().find(|c| c.name == args[1]) {
            Some(c) => (c.run)(&["--help".to_string()], out, err),
            None => {
                let _ = writeln!(err, "error: unknown command `{}`\n", args[1]);
                let _ = write!(err, "{}", usage());
                EXIT_USAGE
            }
        },
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
