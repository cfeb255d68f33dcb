//! The candidate tests that tell two models apart: `gpu-litmus diff`'s, and
//! those `gpu-litmus mutants --kill-tests` searches for a surviving mutant.
//! They are `gpu-litmus gen` families (the same options, read by the same
//! parser), of every named shape unless `--shapes` picks some, of the diy7
//! cycles given with `--cycle`, and of every cycle up to a length over a
//! vocabulary of edges (`--cycles-up-to N`, `--edges`, `--max-threads`;
//! `litmus_gen::enumerate`). The bound of the search is all of these, and
//! every report names it ([`Candidates::bound`]). This file reads the
//! options and says the bound; the tests are made by
//! `litmus_gen::candidates::generate`.

use litmus_core::ir::Test;
use litmus_gen::candidates::generate;
use litmus_gen::enumerate::{enumerate, Bound, Enumeration, DEFAULT_EDGES, DEFAULT_MAX_CYCLES};
use litmus_gen::{shape, FamilySpec, Skeleton, SHAPES};

use super::gen::message;

/// What the candidate options of a command line ask for.
pub struct Candidates {
    /// `--shapes`; `None`: every shape of [`SHAPES`].
    shapes: Option<Vec<String>>,
    /// `--cycle`, in order.
    cycles: Vec<String>,
    /// `--cycles-up-to N`: enumerate every cycle of up to N edges.
    up_to: Option<usize>,
    /// `--edges`: the vocabulary enumerated (default [`DEFAULT_EDGES`]).
    edges: Option<Vec<String>>,
    /// `--max-threads` (default 4).
    max_threads: Option<usize>,
    /// `--max-accesses` (default 2).
    max_accesses: Option<usize>,
    /// `--max-cycles` (default [`DEFAULT_MAX_CYCLES`]).
    max_cycles: Option<usize>,
    /// The enumeration `--cycles-up-to` asks for, made once by
    /// [`Candidates::validate`].
    enumerated: Option<Enumeration>,
    /// The family options.
    spec: FamilySpec,
    /// The family options as written (`--placements all`), for the bound.
    written: Vec<String>,
}

/// The candidate tests, and what was left out.
pub struct Generated {
    /// Every candidate, each once up to renaming, the named shapes and
    /// cycles first, then the enumerated cycles shortest first.
    pub tests: Vec<Test>,
    /// Shapes that the family options do not fit (a fence on a thread a
    /// two-thread shape lacks), when the shapes were not named: one line
    /// each. A named shape that does not fit is a command-line error.
    pub skipped: Vec<String>,
    /// Enumerated cycles that the family options do not fit: how many
    /// (they are many, so they are counted, not listed).
    pub enumerated_unfit: usize,
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
    pub fn spec(&self) -> Result<(FamilySpec, Vec<String>), String> {
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
    /// the cycles enumerated ([`Candidates::validate`]).
    pub fn candidates(self) -> Result<Candidates, String> {
        let shapes = match self.shapes {
            None => None,
            Some(value) => {
                let names: Vec<String> = value
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
                if names.is_empty() {
                    return Err(format!("`--shapes` needs shape names, not `{value}`"));
                }
                if names == ["none"] {
                    Some(Vec::new())
                } else {
                    for n in &names {
                        shape(n).map_err(message)?;
                    }
                    Some(names)
                }
            }
        };
        for cycle in &self.cycle {
            litmus_gen::cycle::skeleton(cycle).map_err(message)?;
        }
        let edges = match self.edges {
            None => None,
            Some(value) => {
                let edges: Vec<String> = value
                    .split(',')
                    .map(|e| e.trim().to_string())
                    .filter(|e| !e.is_empty())
                    .collect();
                if edges.is_empty() {
                    return Err(format!(
                        "`--edges` needs diy7 edge names such as Rfe,Fre,PodWR, not `{value}`"
                    ));
                }
                Some(edges)
            }
        };
        let (spec, written) = self.family.spec()?;
        let mut c = Candidates {
            shapes,
            cycles: self.cycle,
            up_to: self.cycles_up_to,
            edges,
            max_threads: self.max_threads,
            max_accesses: self.max_accesses,
            max_cycles: self.max_cycles,
            enumerated: None,
            spec,
            written,
        };
        c.validate()?;
        Ok(c)
    }
}

impl Candidates {
    /// The skeletons of the shapes and cycles named on the command line.
    fn named(&self) -> Vec<(Skeleton, bool)> {
        let mut out: Vec<(Skeleton, bool)> = match &self.shapes {
            Some(names) => names
                .iter()
                .map(|n| (shape(n).expect("checked when read"), true))
                .collect(),
            None => SHAPES
                .iter()
                .map(|(n, _)| (shape(n).expect("a built-in shape"), false))
                .collect(),
        };
        out.extend(self.cycles.iter().map(|c| {
            (
                litmus_gen::cycle::skeleton(c).expect("checked when read"),
                true,
            )
        }));
        out
    }

    /// Reads the enumeration's options and enumerates its cycles, once.
    fn enumerate(&mut self) -> Result<(), String> {
        let Some(max_edges) = self.up_to else {
            if let Some(flag) = ENUMERATION_FLAGS.iter().find(|f| self.given(f)) {
                return Err(format!(
                    "`{flag}` shapes the enumeration of cycles: give `--cycles-up-to N` too"
                ));
            }
            return Ok(());
        };
        let edges = self
            .edges
            .clone()
            .unwrap_or_else(|| DEFAULT_EDGES.iter().map(|e| e.to_string()).collect());
        let bound = Bound {
            max_edges,
            max_threads: self.max_threads.unwrap_or(4),
            max_accesses: self.max_accesses.unwrap_or(2),
            max_cycles: self.max_cycles.unwrap_or(DEFAULT_MAX_CYCLES),
        };
        self.enumerated = Some(enumerate(&edges, bound).map_err(message)?);
        Ok(())
    }

    /// Whether the enumeration flag `flag` was given.
    fn given(&self, flag: &str) -> bool {
        match flag {
            "--edges" => self.edges.is_some(),
            "--max-threads" => self.max_threads.is_some(),
            "--max-accesses" => self.max_accesses.is_some(),
            _ => self.max_cycles.is_some(),
        }
    }

    /// Fails when a shape or cycle named on the command line does not fit
    /// the family options, or the enumeration's bound is wrong: a
    /// command-line error, found before any work. Enumerates the cycles.
    fn validate(&mut self) -> Result<(), String> {
        for (skeleton, named) in self.named() {
            if named {
                litmus_gen::variants(&skeleton, &self.spec).map_err(message)?;
            }
        }
        self.enumerate()?;
        let enumerated = self.enumerated.as_ref().map_or(0, |e| e.cycles.len());
        if self.shapes.as_ref().is_some_and(Vec::is_empty)
            && self.cycles.is_empty()
            && enumerated == 0
        {
            return Err(
                "`--shapes none`, no --cycle and no enumerated cycle: no candidate test"
                    .to_string(),
            );
        }
        Ok(())
    }

    /// Every candidate test, each once up to renaming: the named shapes'
    /// and cycles' families, then the enumerated cycles'. The families of
    /// the enumerated cycles are made on `threads` threads, in order.
    pub fn generate(&self, threads: usize) -> Result<Generated, String> {
        let cycles = self.enumerated.as_ref().map_or(&[][..], |e| &e.cycles[..]);
        let g = generate(&self.named(), &self.spec, cycles, threads).map_err(message)?;
        Ok(Generated {
            tests: g.tests,
            skipped: g
                .left_out
                .into_iter()
                .map(|(name, e)| {
                    format!(
                        "{name}: left out, the options do not fit it: {}",
                        message(e)
                    )
                })
                .collect(),
            enumerated_unfit: g.enumerated_unfit,
        })
    }

    /// The enumeration searched, for JSON reports: the edges (as written
    /// and expanded), the bound and the cycles each length gave; `null`
    /// without `--cycles-up-to`.
    pub fn enumeration_json(&self) -> serde_json::Value {
        match &self.enumerated {
            None => serde_json::Value::Null,
            Some(e) => serde_json::json!({
                "edges": e.written,
                "vocabulary": e.vocabulary,
                "max_edges": e.bound.max_edges,
                "max_threads": e.bound.max_threads,
                "max_accesses": e.bound.max_accesses,
                "max_cycles": e.bound.max_cycles,
                "cycles": e.cycles.len(),
                "by_length": e.by_length(),
            }),
        }
    }

    /// The bound of the search, as reports say it: `shapes MP, SB; no
    /// cycle; every cycle of 2 to 4 edges, ... (its vocabulary and counts);
    /// --placements all`.
    pub fn bound(&self) -> String {
        let shapes = match &self.shapes {
            None => format!("every shape ({})", SHAPES.len()),
            Some(s) if s.is_empty() => "no shape".to_string(),
            Some(s) => format!("shapes {}", s.join(", ")),
        };
        let cycles = match self.cycles.len() {
            0 => "no cycle".to_string(),
            _ => format!(
                "cycles {}",
                self.cycles
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let cycles = match &self.enumerated {
            Some(e) => format!("{cycles}; {}", e.describe()),
            None => cycles,
        };
        let options = if self.written.is_empty() {
            "gen's default options".to_string()
        } else {
            self.written.join(" ")
        };
        format!("{shapes}; {cycles}; {options}")
    }
}
