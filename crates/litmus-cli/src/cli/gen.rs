//! `gpu-litmus gen`: writes families of `.litmus` files, from named shapes
//! and from diy7 cycles, each with the model's verdict written in.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use litmus_core::ir::{DeclaredVerdict, Origin, Test, Verdict};
use litmus_core::text;
use litmus_gen::{family, shape, FamilySpec, GenError, Skeleton};
use litmus_model::{check, model_by_name, model_from_env, Model, Options};

use super::args::{number, request, Args, Parsed};
use super::{EXIT_FAILED, EXIT_OK};

const HELP: &str =
    "gpu-litmus gen: write families of litmus tests, from shapes and from diy7 cycles

USAGE:
    gpu-litmus gen [OPTIONS] --out DIR SHAPE...
    gpu-litmus gen [OPTIONS] --out DIR --cycle \"PodWW Rfe PodRR Fre\"

Writes one .litmus file per test, DIR/<name>.litmus, with the verdict of
the model written in (`=> allowed|forbidden`), so that the folder is ready
for `litmus_files!` and `gpu-litmus check|run`. Each option is a
comma-separated list, and the family is every combination; a test equal to
an earlier one up to renaming of threads, CTAs, locations, registers and
values is written once. Names say what was chosen:
IRIW+cta01_2_3+rel_acq.gpu+fence.sc.gpu@1,3+shared.

SHAPES:
    MP SB LB S R 2+2W WRC RWC ISA2 IRIW WWC Z6.3 WRW+2W 3.2W CoRR CoRW CoWR CoWW

OPTIONS:
    --out DIR              where the files go (created if missing)
    --cycle TEXT           a diy7 cycle, edges separated by spaces (repeatable):
                           Pos/Pod + RR|RW|WR|WW; Rfe Rfi Fre Fri Wse Wsi
                           (Coe Coi); Fence.<sem>.<scope> + s|d + two of R,W
                           (Fence.sc.gpudWW); DpData + s|d + W; DpCtrl + s|d
                           + R|W. DpAddr has no form in the IR and is refused.
                           Each external edge starts a thread; the condition
                           is the outcome that closes the cycle
    --placements LIST      all (every set partition of the threads into CTAs),
                           inter-cta (default), intra-cta, inter-gpu, or
                           partitions like cta01_2_3 (threads 0,1 share a CTA)
    --scopes LIST          cta, cluster, gpu (default), sys: the scope of the
                           accesses and of the fences; cluster also puts the
                           CTAs in one cluster
    --fences LIST          none (default), sc, acq_rel, acquire, release:
                           fence.<sem>.<scope> between consecutive accesses
    --fence-scopes LIST    same (default: the accesses' scope), cta, cluster,
                           gpu, sys: the scope of the added fences
    --fence-threads SETS   all (default: every thread with two accesses),
                           each (every non-empty subset of them), or sets
                           like 1,3 (several separated by /)
    --sem LIST             relaxed (default), acq_rel (release stores, acquire
                           loads), weak (plain ld/st)
    --memory LIST          global (default), shared (only placements with
                           every thread in one CTA)
    --model NAME           the model whose verdicts are written: ptx
                           (default), sc, ptx-2015, ptx-7.5 (default: $LITMUS_MODEL)
    --max-steps N          search budget per test (default 20000000)
    -h, --help             print this help

EXIT STATUS:
    0  every test was written with its verdict
    1  some test could not be checked or written (the others are)
    2  the command line is wrong (an unknown shape, a malformed cycle or
       option value: the message says which and where)

EXAMPLE:
    gpu-litmus gen IRIW WRC --placements all --scopes cta,gpu \\
        --fences none,sc --fence-threads each --sem relaxed,acq_rel --out gen/
    gpu-litmus check gen/*.litmus
";

const USAGE: &str = "USAGE:
    gpu-litmus gen [--placements LIST] [--scopes LIST] [--fences LIST] [--fence-scopes LIST]
                   [--fence-threads SETS] [--sem LIST] [--memory LIST]
                   [--model NAME] [--cycle TEXT]... --out DIR [SHAPE...]

For more, try `gpu-litmus gen --help`.";

struct Request {
    skeletons: Vec<Skeleton>,
    spec: FamilySpec,
    model: &'static dyn Model,
    options: Options,
    out: PathBuf,
}

fn parse_args(args: &[String]) -> Result<Parsed<Request>, String> {
    let mut spec = FamilySpec::default();
    let mut model_name = None;
    let mut options = Options::default();
    let mut out = None;
    let mut shapes = Vec::new();
    let mut skeletons = Vec::new();
    let mut scan = Args::new(args);
    while let Some((flag, inline)) = scan.next_flag(&mut shapes) {
        match flag.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--out" => out = Some(PathBuf::from(scan.value(&flag, inline)?)),
            "--model" => model_name = Some(scan.value(&flag, inline)?),
            "--max-steps" => options.max_steps = number(&flag, &scan.value(&flag, inline)?, 1u64)?,
            "--cycle" => {
                let cycle = scan.value(&flag, inline)?;
                skeletons.push(litmus_gen::cycle::skeleton(&cycle).map_err(message)?);
            }
            _ => match flag
                .strip_prefix("--")
                .filter(|o| litmus_gen::spec::OPTIONS.contains(o))
            {
                Some(option) => {
                    let value = scan.value(&flag, inline)?;
                    spec.set(option, &value).map_err(message)?;
                }
                None => return Err(format!("unknown option `{flag}`")),
            },
        }
    }
    for name in &shapes {
        skeletons.push(shape(name).map_err(message)?);
    }
    if skeletons.is_empty() {
        return Err("no shape and no --cycle: nothing to generate".to_string());
    }
    // Options that do not fit a shape (a fence on a thread with one
    // access, a placement naming a thread it lacks) are usage errors, found
    // before anything is written.
    for skeleton in &skeletons {
        litmus_gen::variants(skeleton, &spec).map_err(message)?;
    }
    let out = out.ok_or("`--out DIR` is required: where the files go")?;
    let model = match model_name {
        Some(name) => model_by_name(&name),
        None => model_from_env(),
    }
    .map_err(|e| e.to_string())?;
    Ok(Parsed::Work(Request {
        skeletons,
        spec,
        model,
        options,
        out,
    }))
}

/// A generator error in the command line's terms: an option value's
/// error names the option as written (`--placements`).
pub fn message(e: GenError) -> String {
    match e {
        GenError::BadOption { .. } => format!("--{e}"),
        other => other.to_string(),
    }
}

/// Runs `gpu-litmus gen` with `args` (after the subcommand name).
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let req = match request(parse_args(args), HELP, USAGE, out, err) {
        Ok(r) => r,
        Err(code) => return code,
    };
    if let Err(e) = std::fs::create_dir_all(&req.out) {
        let _ = writeln!(err, "error: cannot create {}: {e}", req.out.display());
        return EXIT_FAILED;
    }
    let start = Instant::now();
    let mut seen = HashSet::new();
    let mut written = HashSet::new();
    let mut status = EXIT_OK;
    let mut total = Tally::default();
    for skeleton in &req.skeletons {
        let fam = match family(skeleton, &req.spec, &mut seen) {
            Ok(f) => f,
            Err(e) => {
                let _ = writeln!(err, "error: {e}");
                return super::EXIT_USAGE;
            }
        };
        let mut tally = Tally {
            variants: fam.variants,
            ..Tally::default()
        };
        for test in fam.tests {
            // Distinct tests have distinct names; a clash would overwrite
            // a file, so it is an error rather than a silent loss.
            if !written.insert(test.name.text.clone()) {
                let _ = writeln!(err, "error: two different tests are named {}: only the first is written (please report it)", test.name);
                tally.failed += 1;
                status = EXIT_FAILED;
                continue;
            }
            match write_checked(test, &req) {
                Ok(Verdict::Allowed) => tally.allowed += 1,
                Ok(Verdict::Forbidden) => tally.forbidden += 1,
                Err(msg) => {
                    let _ = writeln!(err, "error: {msg}");
                    tally.failed += 1;
                    status = EXIT_FAILED;
                }
            }
        }
        let _ = writeln!(out, "{}: {}", fam.name, tally.line());
        total.add(&tally);
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
    let path = file_of(&req.out, &test);
    litmus_core::files::write_atomic(&path, text::print(&test).as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(verdict)
}

/// `DIR/<name>.litmus`: the file is named after its test.
pub fn file_of(dir: &Path, test: &Test) -> PathBuf {
    dir.join(format!("{}.litmus", test.name.text))
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
