//! `gpu-litmus report`: recorded evidence as one self-contained HTML page.

use std::io::Write;
use std::path::PathBuf;

use litmus_evidence::html;
use litmus_model::{Model, Options};

use super::args::{whole, with_loop_bound, ModelArg, Refusal};
use super::gate::read_evidence;
use super::outputs;
use super::run::folder;
use super::{EXIT_FAILED, EXIT_OK};

/// write recorded evidence as one HTML page
///
/// Writes one self-contained page (no network needed to open it), summary
/// first: the observed outcomes the model forbids, in red, at the top; then,
/// per family (a generated name's shape, else the name up to its first `_`,
/// `+`, `-` or `.`), a grid of placement x fences (read from the test's IR)
/// saying how many tests showed the outcome their condition names, shaded by
/// that share. Then one line per test: that outcome, the model's verdict,
/// its count and rate, the devices; every outcome seen (count, per device,
/// whether the model allows it) folded under the line. A search box and
/// filters (family, seen or not, device) narrow the lines. Lines of the
/// evidence that are not records are listed near the top.
#[derive(clap::Args)]
#[command(after_long_help = AFTER_HELP)]
pub struct ReportArgs {
    /// an evidence folder or file (repeatable; required)
    #[arg(long, value_name = "PATH", value_parser = folder)]
    evidence: Vec<PathBuf>,
    /// the page to write (required; `--html` is the same)
    #[arg(long, visible_alias = "html", value_name = "FILE", value_parser = folder)]
    out: Option<PathBuf>,
    /// a `gpu-litmus mutants --out FILE` report: its score, survivors and
    /// mutants become a section (repeatable)
    #[arg(long, value_name = "FILE", value_parser = folder)]
    mutants: Vec<PathBuf>,
    #[command(flatten)]
    model: ModelArg,
    /// the model's loop bound (default 1)
    #[arg(long, value_name = "N", value_parser = whole(1u32))]
    loop_bound: Option<u32>,
}

const AFTER_HELP: &str = "EXIT STATUS:
    0  the page was written
    1  the evidence could not be read or the page not written
    2  the command line is wrong
";

struct ReportOptions {
    evidence: Vec<PathBuf>,
    /// `gpu-litmus mutants --out` reports to show.
    mutants: Vec<PathBuf>,
    html: PathBuf,
    model: &'static dyn Model,
    options: Options,
}

impl ReportArgs {
    /// The page's options, or why the command line cannot give them.
    fn options(self) -> Result<ReportOptions, Refusal> {
        if self.evidence.is_empty() {
            return Err("`--evidence` is required: a folder of recorded evidence".into());
        }
        let html = self.out.ok_or("`--out` is required: the page to write")?;
        Ok(ReportOptions {
            evidence: self.evidence,
            mutants: self.mutants,
            html,
            model: self.model.model()?,
            options: with_loop_bound(self.loop_bound),
        })
    }
}

/// Runs `gpu-litmus report` as `args` ask.
pub fn run(args: ReportArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let opts = match args.options() {
        Ok(r) => r,
        Err(refusal) => return refusal.print("report", err),
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
        let _ = writeln!(err, "{}: {p}", p.level());
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
