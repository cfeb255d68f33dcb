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

use super::args::Args;
use super::gen::message;

/// What the candidate options of a command line ask for.
#[derive(Default)]
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

/// The options [`Candidates::take`] reads, for the commands' `--help`
/// (the first line's indent written out: a `\` at the end of a line would
/// eat it).
pub const HELP: &str = "    --shapes LIST          the shapes whose families are candidates, comma-
                           separated (default: every shape gen knows: MP SB LB S
                           R 2+2W WRC RWC ISA2 IRIW WWC Z6.3 WRW+2W 3.2W CoRR
                           CoRW CoWR CoWW); none: only the --cycle ones and the
                           enumerated ones
    --cycle TEXT           a diy7 cycle whose family is a candidate too
                           (repeatable; the syntax of `gpu-litmus gen`)
    --cycles-up-to N       every diy7 cycle of 2 to N edges (N up to 8) over
                           --edges is a candidate too, once up to rotation,
                           shortest first, as diy7 -size N enumerates; a cycle
                           of a named shape is named after it (MP+fence.sc.gpu+po)
    --edges LIST           the edges enumerated, comma-separated diy7 names; `*`
                           stands for R|W, s|d, e|i, sc|acq_rel, cta|gpu|sys
                           (default: Rfe,Fre,Wse,Pod**,Fence.*.*d**, 31 edges:
                           plain po and fence.sc/fence.acq_rel at cta, gpu and
                           sys scope, each thread's fence chosen on its own)
    --max-threads N        threads of an enumerated cycle, at most (default 4)
    --max-accesses N       memory accesses of a thread of an enumerated cycle,
                           at most (default 2, as in every named shape)
    --max-cycles N         refuse a bound with more enumerated cycles than this
                           (default 20000), rather than run for hours
    --placements LIST      as `gpu-litmus gen`: all, inter-cta (default),
                           intra-cta, inter-gpu, or partitions like cta01_2
    --scopes LIST          cta, cluster, gpu (default), sys
    --fences LIST          none (default), sc, acq_rel, acquire, release
    --fence-scopes LIST    same (default), cta, cluster, gpu, sys
    --fence-threads SETS   all (default), each, or sets like 1,3
    --sem LIST             relaxed (default), acq_rel, weak
    --memory LIST          global (default), shared
";

/// The flags that shape the enumeration, meaningless without
/// `--cycles-up-to`.
const ENUMERATION_FLAGS: &[&str] = &["--edges", "--max-threads", "--max-accesses", "--max-cycles"];

impl Candidates {
    /// Reads `flag` when it is a candidate option (its value from `scan`);
    /// `Ok(false)` when it is not one.
    pub fn take(
        &mut self,
        flag: &str,
        inline: Option<String>,
        scan: &mut Args,
    ) -> Result<bool, String> {
        match flag {
            "--shapes" => {
                let value = scan.value(flag, inline)?;
                let names: Vec<String> = value
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
                if names.is_empty() {
                    return Err(format!("`--shapes` needs shape names, not `{value}`"));
                }
                if names == ["none"] {
                    self.shapes = Some(Vec::new());
                    return Ok(true);
                }
                for n in &names {
                    shape(n).map_err(message)?;
                }
                self.shapes = Some(names);
            }
            "--cycle" => {
                let cycle = scan.value(flag, inline)?;
                litmus_gen::cycle::skeleton(&cycle).map_err(message)?;
                self.cycles.push(cycle);
            }
            "--cycles-up-to" | "--max-threads" | "--max-accesses" | "--max-cycles" => {
                let value = scan.value(flag, inline)?;
                let n: usize = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("`{flag}` needs a number, not `{value}`"))?;
                *match flag {
                    "--cycles-up-to" => &mut self.up_to,
                    "--max-threads" => &mut self.max_threads,
                    "--max-accesses" => &mut self.max_accesses,
                    _ => &mut self.max_cycles,
                } = Some(n);
            }
            "--edges" => {
                let value = scan.value(flag, inline)?;
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
                self.edges = Some(edges);
            }
            _ => match flag
                .strip_prefix("--")
                .filter(|o| litmus_gen::spec::OPTIONS.contains(o))
            {
                Some(option) => {
                    let value = scan.value(flag, inline)?;
                    self.spec.set(option, &value).map_err(message)?;
                    self.written.push(format!("{flag} {value}"));
                }
                None => return Ok(false),
            },
        }
        Ok(true)
    }

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
    pub fn validate(&mut self) -> Result<(), String> {
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
