//! The candidate options of `gpu-litmus diff` and `gpu-litmus mutants
//! --kill-tests`: `gpu-litmus gen`'s family options (the same flags, read
//! by the same parser), `--shapes`, `--cycle`, and every cycle up to a
//! length over a vocabulary of edges (`--cycles-up-to N`, `--edges`,
//! `--max-threads`, ...). This file reads them; the search they ask for is
//! `litmus_gen::candidates::Candidates`, which checks every name, makes
//! the tests and says the bound every report names.

use litmus_gen::candidates::{CandidateError, Candidates, Choice, Generated};
use litmus_gen::enumerate::{Bound, DEFAULT_MAX_CYCLES};
use litmus_gen::FamilySpec;

use litmus_gen::GenError;

/// A generator error in the command line's terms: an option value's
/// error names the option as written (`--placements`).
pub fn message(e: GenError) -> String {
    match e {
        GenError::BadOption { .. } => format!("--{e}"),
        other => other.to_string(),
    }
}

/// The family options of `gpu-litmus gen`, which `diff` and `mutants
/// --kill-tests` take for their candidates too.
#[derive(clap::Args, Default)]
pub struct FamilyArgs {
    /// all (every set partition of the threads into CTAs), inter-cta
    /// (default), intra-cta, inter-gpu, or partitions like cta01_2_3
    /// (threads 0,1 share a CTA)
    #[arg(long, value_name = "LIST")]
    placements: Option<String>,
    /// cta, cluster, gpu (default), sys: the scope of the accesses and of
    /// the fences; cluster also puts the CTAs in one cluster
    #[arg(long, value_name = "LIST")]
    scopes: Option<String>,
    /// none (default), sc, acq_rel, acquire, release: fence.<sem>.<scope>
    /// between consecutive accesses
    #[arg(long, value_name = "LIST")]
    fences: Option<String>,
    /// same (default: the accesses' scope), cta, cluster, gpu, sys: the
    /// scope of the added fences
    #[arg(long, value_name = "LIST")]
    fence_scopes: Option<String>,
    /// all (default: every thread with two accesses), each (every non-empty
    /// subset of them), or sets like 1,3 (several separated by /)
    #[arg(long, value_name = "SETS")]
    fence_threads: Option<String>,
    /// relaxed (default), acq_rel (release stores, acquire loads), weak
    /// (plain ld/st)
    #[arg(long, value_name = "LIST")]
    sem: Option<String>,
    /// global (default), shared (only placements with every thread in one
    /// CTA)
    #[arg(long, value_name = "LIST")]
    memory: Option<String>,
}

impl FamilyArgs {
    /// Each option by its name in `litmus_gen::spec::OPTIONS`, with its
    /// value when given.
    fn given(&self) -> [(&'static str, &Option<String>); 7] {
        [
            ("placements", &self.placements),
            ("scopes", &self.scopes),
            ("fences", &self.fences),
            ("fence-scopes", &self.fence_scopes),
            ("fence-threads", &self.fence_threads),
            ("sem", &self.sem),
            ("memory", &self.memory),
        ]
    }

    /// The family the options describe, and the options as written
    /// (`--placements all`).
    pub(crate) fn spec(&self) -> Result<(FamilySpec, Vec<String>), String> {
        let mut spec = FamilySpec::default();
        let mut written = Vec::new();
        for (option, value) in self.given() {
            if let Some(value) = value {
                spec.set(option, value).map_err(message)?;
                written.push(format!("--{option} {value}"));
            }
        }
        Ok((spec, written))
    }

    /// The first family option given, as written without its `--`.
    fn first_given(&self) -> Option<&'static str> {
        self.given()
            .into_iter()
            .find_map(|(option, value)| value.as_ref().map(|_| option))
    }
}

/// The candidate options of `diff` and `mutants --kill-tests`.
#[derive(clap::Args, Default)]
pub struct CandidateArgs {
    /// the shapes whose families are candidates, comma-separated (default:
    /// every shape gen knows); none: only the --cycle ones and the
    /// enumerated ones
    #[arg(long, value_name = "LIST")]
    shapes: Option<String>,
    /// a diy7 cycle whose family is a candidate too (repeatable; the syntax
    /// of `gpu-litmus gen`)
    #[arg(long, value_name = "TEXT")]
    cycle: Vec<String>,
    /// every diy7 cycle of 2 to N edges (N up to 8) over --edges is a
    /// candidate too, once up to rotation, shortest first, as diy7 -size N
    /// enumerates; a cycle of a named shape is named after it
    /// (MP+fence.sc.gpu+po)
    #[arg(long, value_name = "N", value_parser = count)]
    cycles_up_to: Option<usize>,
    /// the edges enumerated, comma-separated diy7 names; `*` stands for
    /// R|W, s|d, e|i, sc|acq_rel, cta|gpu|sys (default:
    /// Rfe,Fre,Wse,Pod**,Fence.*.*d**, 31 edges: plain po and
    /// fence.sc/fence.acq_rel at cta, gpu and sys scope, each thread's
    /// fence chosen on its own)
    #[arg(long, value_name = "LIST")]
    edges: Option<String>,
    /// threads of an enumerated cycle, at most (default 4)
    #[arg(long, value_name = "N", value_parser = count)]
    max_threads: Option<usize>,
    /// memory accesses of a thread of an enumerated cycle, at most (default
    /// 2, as in every named shape)
    #[arg(long, value_name = "N", value_parser = count)]
    max_accesses: Option<usize>,
    /// refuse a bound with more enumerated cycles than this (default
    /// 20000), rather than run for hours
    #[arg(long, value_name = "N", value_parser = count)]
    max_cycles: Option<usize>,
    #[command(flatten)]
    family: FamilyArgs,
}

/// clap's value parser of the enumeration's numbers (their range is the
/// enumeration's to check, with the whole bound in view).
fn count(text: &str) -> Result<usize, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("needs a number, not `{text}`"))
}

/// The flags that shape the enumeration, meaningless without
/// `--cycles-up-to`.
const ENUMERATION_FLAGS: &[&str] = &["--edges", "--max-threads", "--max-accesses", "--max-cycles"];

impl CandidateArgs {
    /// The first candidate option given, as written: `mutants` takes them
    /// only with `--kill-tests`.
    pub fn first_given(&self) -> Option<String> {
        let given = [
            ("--shapes", self.shapes.is_some()),
            ("--cycle", !self.cycle.is_empty()),
            ("--cycles-up-to", self.cycles_up_to.is_some()),
            ("--edges", self.edges.is_some()),
            ("--max-threads", self.max_threads.is_some()),
            ("--max-accesses", self.max_accesses.is_some()),
            ("--max-cycles", self.max_cycles.is_some()),
        ];
        given
            .into_iter()
            .find(|(_, g)| *g)
            .map(|(f, _)| f.to_string())
            .or_else(|| self.family.first_given().map(|o| format!("--{o}")))
    }

    /// The candidates the options ask for, every name and cycle checked,
    /// the cycles enumerated.
    pub(crate) fn candidates(self) -> Result<Candidates, String> {
        let shapes = match self.shapes {
            None => None,
            Some(value) => match list(&value)? {
                names if names == ["none"] => Some(Vec::new()),
                names => Some(names),
            },
        };
        let edges = match self.edges {
            None => None,
            Some(value) => Some(list(&value).map_err(|_| {
                format!("`--edges` needs diy7 edge names such as Rfe,Fre,PodWR, not `{value}`")
            })?),
        };
        let (spec, written) = self.family.spec()?;
        let enumeration = match self.cycles_up_to {
            Some(max_edges) => Some((
                edges,
                Bound {
                    max_edges,
                    max_threads: self.max_threads.unwrap_or(4),
                    max_accesses: self.max_accesses.unwrap_or(2),
                    max_cycles: self.max_cycles.unwrap_or(DEFAULT_MAX_CYCLES),
                },
            )),
            None => {
                let given = [
                    edges.is_some(),
                    self.max_threads.is_some(),
                    self.max_accesses.is_some(),
                    self.max_cycles.is_some(),
                ];
                if let Some(at) = given.iter().position(|g| *g) {
                    return Err(format!(
                        "`{}` shapes the enumeration of cycles: give `--cycles-up-to N` too",
                        ENUMERATION_FLAGS[at]
                    ));
                }
                None
            }
        };
        let choice = Choice {
            shapes,
            cycles: self.cycle,
            enumeration,
            spec,
            written,
        };
        Candidates::new(choice).map_err(|e| match e {
            CandidateError::Gen(e) => message(e),
            CandidateError::Empty => {
                "`--shapes none`, no --cycle and no enumerated cycle: no candidate test".into()
            }
        })
    }
}

/// A comma-separated list's items, trimmed; an error when there is none
/// (`--shapes ,`).
fn list(value: &str) -> Result<Vec<String>, String> {
    let items: Vec<String> = value
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    match items.is_empty() {
        true => Err(format!("`--shapes` needs shape names, not `{value}`")),
        false => Ok(items),
    }
}

/// What the candidates left out, as the reports say it: one line a shape
/// the options do not fit, and one for the enumerated cycles they do not.
pub fn left_out(g: &Generated) -> (Vec<String>, Option<String>) {
    let shapes = g.left_out.iter().map(|(name, e)| {
        let why = message(e.clone());
        format!("{name}: left out, the options do not fit it: {why}")
    });
    let cycles = (g.enumerated_unfit > 0).then(|| {
        format!(
            "{} enumerated cycles left out, the options do not fit them",
            g.enumerated_unfit
        )
    });
    (shapes.collect(), cycles)
}
