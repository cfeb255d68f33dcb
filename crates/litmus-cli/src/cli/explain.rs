//! `gpu-litmus explain`: why a model forbids an outcome, as text or as a
//! Graphviz graph.

use std::io::Write;

use litmus_model::{
    explain_condition, explain_outcome, model_by_name, model_from_env, Model, Options,
};

use super::args::{number, request, Args, Parsed};
use super::load::load;
use super::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use litmus_core::outcome::parse_written;

const HELP: &str = "gpu-litmus explain: why a memory model forbids an outcome

USAGE:
    gpu-litmus explain [OPTIONS] FILE

Enumerates the candidate executions of the test that give the outcome and
says, for each distinct reason, which axiom of the model rejects them and
the witness: events joined by labelled edges (po, rf, co, fr, sw, ...),
e.g. `P1#1 R.weak x=0 -fr-> P0#0 W.weak x=1`. When some consistent
execution gives the outcome, it says that the model allows it.

OPTIONS:
    --outcome TEXT      the outcome to explain, every observable of the test
                        given a value, as the outcome table writes it:
                        \"P1:r0=1; P1:r1=0\"; pairs may also be separated by
                        `,` or `/\\` and written `NAME == VALUE`; values as a
                        test writes them (decimal, 0x hexadecimal, negative:
                        -1 is 0xffffffff). Without it, the outcomes the
                        condition describes are explained (for `forall`,
                        those that break it)
    --model NAME        the memory model: ptx, sc, ptx-2015, ptx-7.5, or a .cat file
                        (default: $LITMUS_MODEL, else ptx)
    --dot               print a Graphviz graph instead of text: one cluster
                        per reason (`gpu-litmus explain ... --dot | dot -Tsvg`)
    --reasons N         how many distinct reasons to show (default 4)
    --loop-bound N      the model's loop bound: how many times a loop body
                        may run in an execution the model considers
                        (default 1: an execution that takes a backward jump
                        is dropped). Not LITMUS_LOOP_BOUND, which bounds how
                        long a role may spin on the GPU (default 1000)
    --max-steps N       search budget (default 20000000)
    --max-events N      the most events (initial writes included) a test
                        may have to be checked (default 96); a larger test
                        is an error, one line, not a search without end
    -h, --help          print this help

ENVIRONMENT:
    LITMUS_MODEL        the model when --model is not given

EXIT STATUS:
    0  the explanation was printed (whether the model forbids the outcome
       or allows it)
    1  the file cannot be read or parsed, or the search ran over budget
    2  the command line is wrong (including an outcome that does not fit
       the test)
";

const USAGE: &str = "USAGE:
    gpu-litmus explain [--outcome \"P1:r0=1; P1:r1=0\"] [--model NAME] [--dot] FILE

For more, try `gpu-litmus explain --help`.";

struct Request {
    file: String,
    outcome: Option<String>,
    model: &'static dyn Model,
    dot: bool,
    reasons: usize,
    options: Options,
}

fn parse_args(args: &[String]) -> Result<Parsed<Request>, String> {
    let mut files = Vec::new();
    let mut outcome = None;
    let mut model = None;
    let mut dot = false;
    let mut reasons = 4;
    let mut options = Options::default();
    let mut scan = Args::new(args);
    while let Some((flag, inline)) = scan.next_flag(&mut files) {
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--outcome" => outcome = Some(scan.value(&flag, inline)?),
            "--model" => model = Some(scan.value(&flag, inline)?),
            "--dot" => {
                if inline.is_some() {
                    return Err("`--dot` takes no value".into());
                }
                dot = true;
            }
            "--reasons" => reasons = number(&flag, &scan.value(&flag, inline)?, 1usize)?,
            "--loop-bound" => {
                options.loop_bound = number(&flag, &scan.value(&flag, inline)?, 1u32)?
            }
            "--max-steps" => options.max_steps = number(&flag, &scan.value(&flag, inline)?, 1u64)?,
            "--max-events" => {
                options.max_events = number(&flag, &scan.value(&flag, inline)?, 1usize)?
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    let model = match model {
        Some(name) => model_by_name(&name),
        None => model_from_env(),
    }
    .map_err(|e| e.to_string())?;
    let file = match <[String; 1]>::try_from(files) {
        Ok([file]) => file,
        Err(files) if files.is_empty() => return Err("no file to explain".into()),
        Err(files) => {
            return Err(format!(
                "one file at a time, not {} ({})",
                files.len(),
                files.join(", ")
            ))
        }
    };
    Ok(Parsed::Work(Request {
        file,
        outcome,
        model,
        dot,
        reasons,
        options,
    }))
}

/// Runs `gpu-litmus explain` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let req = match request(parse_args(args), HELP, USAGE, out, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let loaded = match load(&req.file) {
        Ok(l) => l,
        Err(msg) => {
            let _ = writeln!(err, "{msg}");
            return EXIT_FAILED;
        }
    };
    let test = &loaded.test;
    let explained = match &req.outcome {
        Some(text) => match parse_written(test, text) {
            Ok(values) => explain_outcome(test, req.model, &req.options, &values),
            Err(msg) => {
                let _ = writeln!(err, "error: --outcome: {msg}\n\n{USAGE}");
                return EXIT_USAGE;
            }
        },
        None => explain_condition(test, req.model, &req.options),
    };
    let explanation = match explained {
        Ok(e) => e,
        Err(e) => {
            let _ = writeln!(err, "{}:{}: {e}", req.file, loaded.header());
            return EXIT_FAILED;
        }
    };
    let text = if req.dot {
        if !explanation.forbidden() {
            // The graph of an allowed outcome is empty: say why on the side.
            let _ = write!(err, "{}", explanation.to_text(req.reasons));
        }
        explanation.to_dot(req.reasons)
    } else {
        explanation.to_text(req.reasons)
    };
    match out.write_all(text.as_bytes()) {
        Ok(()) => EXIT_OK,
        Err(_) => EXIT_FAILED,
    }
}
