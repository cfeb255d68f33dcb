//! `gpu-litmus gen`: writes families of `.litmus` files, from named shapes
//! and from diy7 cycles, each with the model's verdict written in.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use litmus_core::ir::{DeclaredVerdict, Origin, Test, Verdict};
use litmus_gen::{family, shape, FamilySpec, Skeleton};
use litmus_model::{check, Model, Options};
use litmus_text as text;

use super::args::{whole, ModelArg, Refusal};
use super::candidates::{message, FamilyArgs};
use super::progress::Bar;
use super::{EXIT_FAILED, EXIT_OK};

/// write families of .litmus files from shapes or diy7 cycles, verdicts included
///
/// Writes one .litmus file per test, DIR/<name>.litmus, with the verdict of
/// the model written in (`=> allowed|forbidden`), so that the folder is ready
/// for `litmus_files!` and `gpu-litmus check|run`. Each option is a
/// comma-separated list, and the family is every combination; a test equal to
/// an earlier one up to renaming of threads, CTAs, locations, registers and
/// values is written once. Names say what was chosen:
/// IRIW+cta01_2_3+rel_acq.gpu+fence.sc.gpu@1,3+shared.
#[derive(clap::Args)]
#[command(
    override_usage = "gpu-litmus gen [OPTIONS] --out DIR SHAPE...\n       gpu-litmus gen [OPTIONS] --out DIR --cycle \"PodWW Rfe PodRR Fre\"",
    after_long_help = after_help()
)]
pub struct GenArgs {
    /// where the files go (created if missing)
    #[arg(long, value_name = "DIR", value_parser = super::run::folder)]
    out: Option<PathBuf>,
    /// a diy7 cycle, edges separated by spaces (repeatable): Pos/Pod +
    /// RR|RW|WR|WW; Rfe Rfi Fre Fri Wse Wsi (Coe Coi); Fence.<sem>.<scope> +
    /// s|d + two of R,W (Fence.sc.gpudWW); DpData + s|d + W; DpCtrl + s|d +
    /// R|W. DpAddr has no form in the IR and is refused. Each external edge
    /// starts a thread; the condition is the outcome that closes the cycle
    #[arg(long, value_name = "TEXT")]
    cycle: Vec<String>,
    #[command(flatten)]
    family: FamilyArgs,
    #[command(flatten)]
    model: ModelArg,
    /// search budget per test (default 20000000)
    #[arg(long, value_name = "N", value_parser = whole(1u64))]
    max_steps: Option<u64>,
    /// the shapes whose families are written (SHAPES below)
    #[arg(value_name = "SHAPE")]
    shapes: Vec<String>,
}

/// The end of gen's help: the shapes (the generator's own list), the exit
/// status, an example.
fn after_help() -> String {
    let shapes: Vec<&str> = litmus_gen::SHAPES.iter().map(|(n, _)| *n).collect();
    format!("SHAPES:\n    {}\n\n{}", shapes.join(" "), AFTER_HELP)
}

const AFTER_HELP: &str = "EXIT STATUS:
    0  every test was written with its verdict
    1  some test could not be checked or written (the others are)
    2  the command line is wrong (an unknown shape, a malformed cycle or
       option value: the message says which and where)

EXAMPLE:
    gpu-litmus gen IRIW WRC --placements all --scopes cta,gpu \\
        --fences none,sc --fence-threads each --sem relaxed,acq_rel --out gen/
    gpu-litmus check gen/*.litmus
";

struct Request {
    skeletons: Vec<Skeleton>,
    spec: FamilySpec,
    model: &'static dyn Model,
    options: Options,
    out: PathBuf,
    /// The model's .cat file, when `--model` names one.
    cat: Option<PathBuf>,
}

impl GenArgs {
    /// The families to write, or why the command line cannot give them.
    fn request(self) -> Result<Request, Refusal> {
        let (spec, _) = self.family.spec()?;
        let mut skeletons = Vec::new();
        for cycle in &self.cycle {
            skeletons.push(litmus_gen::cycle::skeleton(cycle).map_err(message)?);
        }
        for name in &self.shapes {
            skeletons.push(shape(name).map_err(message)?);
        }
        if skeletons.is_empty() {
            return Err("no shape and no --cycle: nothing to generate".into());
        }
        // Options that do not fit a shape (a fence on a thread with one
        // access, a placement naming a thread it lacks) are usage errors,
        // found before anything is written.
        for skeleton in &skeletons {
            litmus_gen::variants(skeleton, &spec).map_err(message)?;
        }
        let out = self
            .out
            .ok_or("`--out DIR` is required: where the files go")?;
        let d = Options::default();
        Ok(Request {
            skeletons,
            spec,
            model: self.model.model()?,
            cat: self
                .model
                .model
                .as_ref()
                .map(PathBuf::from)
                .filter(|p| p.is_file()),
            options: Options {
                max_steps: self.max_steps.unwrap_or(d.max_steps),
                ..d
            },
            out,
        })
    }
}

/// Runs `gpu-litmus gen` as `args` ask.
pub fn run(args: GenArgs, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let req = match args.request() {
        Ok(r) => r,
        Err(refusal) => return refusal.print("gen", err),
    };
    // The folder written to may not be the model's .cat file.
    let cat: Vec<&Path> = req.cat.iter().map(PathBuf::as_path).collect();
    if !super::outputs::clear(&req.out, &cat, err) {
        return EXIT_FAILED;
    }
    if let Err(e) = std::fs::create_dir_all(&req.out) {
        let _ = writeln!(err, "error: cannot create {}: {e}", req.out.display());
        return EXIT_FAILED;
    }
    let start = Instant::now();
    let mut seen = HashSet::new();
    let mut written = HashSet::new();
    let mut status = EXIT_OK;
    let mut total = Tally::default();
    // Every family first (quick beside checking their tests), so that the
    // bar knows how many tests there are; one the options cannot make
    // ends the command once the families before it are written.
    let mut families = Vec::new();
    let mut unmade = None;
    for skeleton in &req.skeletons {
        match family(skeleton, &req.spec, &mut seen) {
            Ok(f) => families.push(f),
            Err(e) => {
                unmade = Some(e);
                break;
            }
        }
    }
    let bar = Bar::count(families.iter().map(|f| f.tests.len() as u64).sum());
    for fam in families {
        bar.say(format!("{}:", fam.name));
        let mut tally = Tally {
            variants: fam.variants,
            ..Tally::default()
        };
        for test in fam.tests {
            // Distinct tests have distinct names; a clash would overwrite
            // a file, so it is an error rather than a silent loss.
            let checked = match written.insert(test.name.text.clone()) {
                false => Err(format!("two different tests are named {}: only the first is written (please report it)", test.name)),
                true => write_checked(test, &req),
            };
            bar.inc();
            match checked {
                Ok(Verdict::Allowed) => tally.allowed += 1,
                Ok(Verdict::Forbidden) => tally.forbidden += 1,
                Err(msg) => {
                    let _ = bar.aside(|| writeln!(err, "error: {msg}"));
                    tally.failed += 1;
                    status = EXIT_FAILED;
                }
            }
        }
        let _ = bar.aside(|| writeln!(out, "{}: {}", fam.name, tally.line()));
        total.add(&tally);
    }
    drop(bar);
    if let Some(e) = unmade {
        let _ = writeln!(err, "error: {e}");
        return super::EXIT_USAGE;
    }
    let _ = writeln!(
        out,
        "total: {}; model {}; {:.3} s; written to {}",
        total.line(),
        req.model.name(),
        start.elapsed().as_secs_f64(),
        req.out.display()
    );
    status
}

/// Checks `test` with the model, writes the verdict in, and writes the
/// file; the verdict, or why there is none.
fn write_checked(mut test: Test, req: &Request) -> Result<Verdict, String> {
    let result = check(&test, req.model, &req.options)
        .map_err(|e| format!("{}: cannot be checked: {e}", test.name))?;
    let verdict = result.verdict();
    test.verdict = Some(DeclaredVerdict {
        verdict,
        origin: Origin::NONE,
    });
    text::write_into(&req.out, &test).map_err(|e| e.to_string())?;
    Ok(verdict)
}

/// Counts for one family, and for the run.
#[derive(Default)]
struct Tally {
    variants: usize,
    allowed: usize,
    forbidden: usize,
    failed: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.variants += o.variants;
        self.allowed += o.allowed;
        self.forbidden += o.forbidden;
        self.failed += o.failed;
    }

    fn line(&self) -> String {
        let written = self.allowed + self.forbidden;
        let mut s = format!(
            "{} variant{}, {} test{} after duplicates ({} allowed, {} forbidden)",
            self.variants,
            plural(self.variants),
            written,
            plural(written),
            self.allowed,
            self.forbidden
        );
        if self.failed > 0 {
            s.push_str(&format!(", {} not checked", self.failed));
        }
        s
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
