//! `gpu-litmus explain`: why a model forbids an outcome, as text or as a
//! Graphviz graph.

use std::io::Write;

use litmus_model::{explain_condition, explain_outcome, Model, Options};

use super::args::{whole, Limits, ModelArg, Refusal};
use super::load::load;
use super::{EXIT_FAILED, EXIT_OK, EXIT_USAGE};
use litmus_core::outcome::parse_written;

/// say why the model forbids an outcome (axiom and witness; --dot for Graphviz)
///
/// Enumerates the candidate executions of the test that give the outcome
/// and says, for each distinct reason, which axiom of the model rejects
/// them and the witness: events joined by labelled edges (po, rf, co, fr,
/// sw, ...), e.g. `P1#1 R.weak x=0 -fr-> P0#0 W.weak x=1`. When some
/// consistent execution gives the outcome, it says that the model allows
/// it. A folder stands for each .litmus file under it, explained in turn.
#[derive(clap::Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct ExplainArgs {
    /// the outcome to explain, every observable of the test given a value,
    /// as the outcome table writes it: "P1:r0=1; P1:r1=0"; pairs may also
    /// be separated by `,` or `/\` and written `NAME == VALUE`; values as a
    /// test writes them (decimal, 0x hexadecimal, negative: -1 is
    /// 0xffffffff). Without it, the outcomes the condition describes are
    /// explained (for `forall`, those that break it)
    #[arg(long, value_name = "TEXT")]
    outcome: Option<String>,
    #[command(flatten)]
    model: ModelArg,
    /// print a Graphviz graph instead of text: one cluster per reason
    /// (`gpu-litmus explain ... --dot | dot -Tsvg`)
    #[arg(long)]
    dot: bool,
    /// how many distinct reasons to show
    #[arg(long, value_name = "N", default_value = "4", value_parser = whole(1usize))]
    reasons: usize,
    #[command(flatten)]
    limits: Limits,
    /// the tests: .litmus files, and folders searched for them
    #[arg(value_name = "FILE|DIR")]
    files: Vec<String>,
}

const AFTER_HELP: &str = "ENVIRONMENT:
    LITMUS_MODEL        the model when --model is not given

EXIT STATUS:
    0  the explanation was printed (whether the model forbids the outcome
       or allows it)
    1  a file cannot be read or parsed, or the search ran over budget
    2  the command line is wrong (including an outcome that does not fit
       the test)
";

/// Runs `gpu-litmus explain` as `args` ask.
pub fn run(args: ExplainArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let model = match args.model.model() {
        Ok(m) => m,
        Err(refusal) => return refusal.print("explain", err),
    };
    if args.files.is_empty() {
        return Refusal::from("no file to explain").print("explain", err);
    }
    let options = args.limits.options();
    let (files, refused) = super::load::expand(&args.files);
    let mut status = EXIT_OK;
    for why in &refused {
        let _ = writeln!(err, "{why}");
        status = EXIT_FAILED;
    }
    for file in &files {
        match explain_file(file, &args, model, &options, out, err) {
            EXIT_OK => {}
            EXIT_USAGE => return EXIT_USAGE,
            _ => status = EXIT_FAILED,
        }
    }
    status
}

/// Explains the test of `file`; the exit status of that file alone.
fn explain_file(
    file: &str,
    args: &ExplainArgs,
    model: &'static dyn Model,
    options: &Options,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let loaded = match load(file) {
        Ok(l) => l,
        Err(msg) => {
            let _ = writeln!(err, "{msg}");
            return EXIT_FAILED;
        }
    };
    let test = &loaded.test;
    let explained = match &args.outcome {
        Some(text) => match parse_written(test, text) {
            Ok(values) => explain_outcome(test, model, options, &values),
            Err(msg) => return Refusal::from(format!("--outcome: {msg}")).print("explain", err),
        },
        None => explain_condition(test, model, options),
    };
    let explanation = match explained {
        Ok(e) => e,
        Err(e) => {
            let line = format!("{file}:{}: {e}", loaded.header());
            let _ = writeln!(err, "{}", litmus_core::printable::escaped(&line));
            return EXIT_FAILED;
        }
    };
    let text = if args.dot {
        if !explanation.forbidden() {
            // The graph of an allowed outcome is empty: say why on the side.
            let why = explanation.to_text(args.reasons);
            let _ = write!(err, "{}", litmus_core::printable::escaped_lines(&why));
        }
        explanation.to_dot(args.reasons)
    } else {
        explanation.to_text(args.reasons)
    };
    // Names as the terminal should show them.
    let text = litmus_core::printable::escaped_lines(&text);
    match out.write_all(text.as_bytes()) {
        Ok(()) => EXIT_OK,
        Err(_) => EXIT_FAILED,
    }
}
