//! `gpu-litmus report`: recorded evidence as one self-contained HTML page.

use std::io::Write;
use std::path::PathBuf;

use litmus_evidence::html;
use litmus_model::{model_by_name, Model, Options};

use super::args::{number, request, Args, Parsed};
use super::gate::{non_empty, read_evidence};
use super::outputs;
use super::{EXIT_FAILED, EXIT_OK};

const HELP: &str = "gpu-litmus report: recorded hardware evidence as one HTML page

USAGE:
    gpu-litmus report --evidence DIR --html OUT.html [--model NAME]

Writes one self-contained page (no network needed to open it), summary
first: the observed outcomes the model forbids, in red, at the top; then,
per family (a generated name's shape, else the name up to its first `_`,
`+`, `-` or `.`), a grid of placement x fences (read from the test's IR)
saying how many tests showed the outcome their condition names, shaded by
that share. Then one line per test: that outcome, the model's verdict,
its count and rate, the devices; every outcome seen (count, per device,
whether the model allows it) folded under the line. A search box and
filters (family, seen or not, device) narrow the lines. Lines of the
evidence that are not records are listed near the top.

OPTIONS:
    --evidence PATH     an evidence folder or file (repeatable; required)
    --html FILE         the page to write (required)
    --mutants FILE      a `gpu-litmus mutants --out FILE` report: its score,
                        survivors and mutants become a section (repeatable)
    --model NAME        the model whose verdicts are shown: ptx (default),
                        sc, ptx-2015
    --loop-bound N      the model's loop bound (default 1)
    -h, --help          print this help

EXIT STATUS:
    0  the page was written
    1  the evidence could not be read or the page not written
    2  the command line is wrong
";

const USAGE: &str = "USAGE:
    gpu-litmus report --evidence DIR --html OUT.html [--model NAME] [--loop-bound N]
                      [--mutants FILE]...

For more, try `gpu-litmus report --help`.";

struct ReportOptions {
    evidence: Vec<PathBuf>,
    /// `gpu-litmus mutants --out` reports to show.
    mutants: Vec<PathBuf>,
    html: PathBuf,
    model: &'static dyn Model,
    options: Options,
}

fn parse_args(args: &[String]) -> Result<Parsed<ReportOptions>, String> {
    let mut evidence = Vec::new();
    let mut mutants = Vec::new();
    let mut html = None;
    let mut model = model_by_name("ptx").map_err(|e| e.to_string())?;
    let mut options = Options::default();
    let mut rest = Vec::new();
    let mut scan = Args::new(args);
    while let Some((flag, inline)) = scan.next_flag(&mut rest) {
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--evidence" => {
                evidence.push(PathBuf::from(non_empty(&flag, scan.value(&flag, inline)?)?))
            }
            "--mutants" => {
                mutants.push(PathBuf::from(non_empty(&flag, scan.value(&flag, inline)?)?))
            }
            "--html" => html = Some(PathBuf::from(non_empty(&flag, scan.value(&flag, inline)?)?)),
            "--model" => {
                model = model_by_name(&scan.value(&flag, inline)?).map_err(|e| e.to_string())?
            }
            "--loop-bound" => {
                options.loop_bound = number(&flag, &scan.value(&flag, inline)?, 1u32)?
            }
            other => return Err(format!("unknown option `{other}`")),
        }
    }
    if let Some(extra) = rest.first() {
        return Err(format!(
            "unexpected argument `{extra}`: evidence is given with --evidence"
        ));
    }
    if evidence.is_empty() {
        return Err("`--evidence` is required: a folder of recorded evidence".into());
    }
    let html = html.ok_or("`--html` is required: the page to write")?;
    Ok(Parsed::Work(ReportOptions {
        evidence,
        mutants,
        html,
        model,
        options,
    }))
}

/// Runs `gpu-litmus report` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let opts = match request(parse_args(args), HELP, USAGE, out, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let inputs: Vec<&std::path::Path> = opts
        .evidence
        .iter()
        .chain(&opts.mutants)
        .map(PathBuf::as_path)
        .collect();
    if !outputs::clear(&opts.html, &inputs, err) {
        return EXIT_FAILED;
    }
    let Some(evidence) = read_evidence(&opts.evidence, err) else {
        return EXIT_FAILED;
    };
    for p in &evidence.problems {
        let level = if p.is_error() { "error" } else { "warning" };
        let _ = writeln!(err, "{level}: {p}");
    }
    let mut reports = Vec::new();
    for path in &opts.mutants {
        match read_mutants(path) {
            Ok(r) => reports.push(r),
            Err(e) => {
                let _ = writeln!(err, "error: {e}");
                return EXIT_FAILED;
            }
        }
    }
    let page = html::page_with_mutants(&evidence, opts.model, &opts.options, &reports);
    if !outputs::write(&opts.html, page.as_bytes(), err) {
        return EXIT_FAILED;
    }
    let _ = writeln!(
        out,
        "{}: {} records from {} files",
        opts.html.display(),
        evidence.records.len(),
        evidence.files
    );
    EXIT_OK
}

/// A `gpu-litmus mutants --out` report; the error names the file and what
/// is wrong with it.
fn read_mutants(path: &std::path::Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON ({e})", path.display()))?;
    if !html::mutants::is_report(&v) {
        return Err(format!(
            "{}: not a `gpu-litmus mutants --out` report (no `summary.mutants` and `mutants` list)",
            path.display()
        ));
    }
    Ok(v)
}
