//! The candidate tests that tell two models apart: `gpu-litmus diff`'s, and
//! those `gpu-litmus mutants --kill-tests` searches for a surviving mutant.
//! They are `gpu-litmus gen` families (the same options, read by the same
//! parser), of every named shape unless `--shapes` picks some, of the diy7
//! cycles given with `--cycle`, and of every cycle up to a length over a
//! vocabulary of edges (`--cycles-up-to N`, `--edges`, `--max-threads`;
//! `litmus_gen::enumerate`). The bound of the search is all of these, and
//! every report names it ([`Candidates::bound`]).

use std::collections::HashSet;

use litmus_core::ir::Test;
use litmus_gen::enumerate::{cycles, Bound, DEFAULT_EDGES};
use litmus_gen::{family, shape, FamilySpec, Skeleton, SHAPES};

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
    /// The family options.
    spec: FamilySpec,
    /// The family options as written (`--placements all`), for the bound.
    written: Vec<String>,
}

/// The candidate tests, and what was left out.
pub struct Generated {
    /// Every candidate, each once up to renaming.
    pub tests: Vec<Test>,
    /// Shapes that the family options do not fit (a fence on a thread a
    /// two-thread shape lacks), when the shapes were not named: one line
    /// each. A named shape that does not fit is a command-line error.
    pub skipped: Vec<String>,
}

/// The options [`Candidates::take`] reads, for the commands' `--help`.
pub const HELP: &str = "\
    --shapes LIST          the shapes whose families are candidates, comma-
                           separated (default: every shape gen knows: MP SB LB S
                           R 2+2W WRC RWC ISA2 IRIW WWC Z6.3 WRW+2W 3.2W CoRR
                           CoRW CoWR CoWW); none: only the --cycle ones
    --cycle TEXT           a diy7 cycle whose family is a candidate too
                           (repeatable; the syntax of `gpu-litmus gen`)
    --cycles-up-to N       every diy7 cycle of 2 to N edges (N up to 8) over
                           --edges, once up to rotation, shortest first, is a
                           candidate too, as diy7 -size N enumerates
    --edges LIST           the edges enumerated, comma-separated (default:
                           Rfe,Fre,Wse,PodWW,PodWR,PodRW,PodRR; fences and
                           scopes come from --fences, --scopes, ...; edges
                           like Fence.sc.ctadWW mix them)
    --max-threads N        threads of an enumerated cycle, at most (default 4)
    --placements LIST      as `gpu-litmus gen`: all, inter-cta (default),
                           intra-cta, inter-gpu, or partitions like cta01_2
    --scopes LIST          cta, cluster, gpu (default), sys
    --fences LIST          none (default), sc, acq_rel, acquire, release
    --fence-scopes LIST    same (default), cta, cluster, gpu, sys
    --fence-threads SETS   all (default), each, or sets like 1,3
    --sem LIST             relaxed (default), acq_rel, weak
    --memory LIST          global (default), shared
";

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
            "--cycles-up-to" | "--max-threads" => {
                let value = scan.value(flag, inline)?;
                let n: usize = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("`{flag}` needs a number, not `{value}`"))?;
                if flag == "--cycles-up-to" {
                    self.up_to = Some(n);
                } else {
                    self.max_threads = Some(n);
                }
            }
            "--edges" => {
                let value = scan.value(flag, inline)?;
                let edges: Vec<String> = value
                    .split(',')
                    .map(|e| e.trim().to_string())
                    .filter(|e| !e.is_empty())
                    .collect();
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

    /// The skeletons asked for: (skeleton, named on the command line).
    fn skeletons(&self) -> Vec<(Skeleton, bool)> {
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
        // Enumerated cycles the options do not fit are left out, as
        // unnamed shapes are.
        out.extend(
            self.enumerated()
                .unwrap_or_default()
                .iter()
                .filter_map(|c| litmus_gen::cycle::skeleton(c).ok())
                .map(|s| (s, false)),
        );
        out
    }

    /// The enumeration's bound, when `--cycles-up-to` asks for one.
    fn enumeration(&self) -> Option<(Vec<String>, Bound)> {
        let max_edges = self.up_to?;
        let edges = self
            .edges
            .clone()
            .unwrap_or_else(|| DEFAULT_EDGES.iter().map(|e| e.to_string()).collect());
        let bound = Bound {
            max_edges,
            max_threads: self.max_threads.unwrap_or(4),
        };
        Some((edges, bound))
    }

    /// The enumerated cycles (none without `--cycles-up-to`).
    fn enumerated(&self) -> Result<Vec<String>, String> {
        match self.enumeration() {
            Some((edges, bound)) => cycles(&edges, bound).map_err(message),
            None => Ok(Vec::new()),
        }
    }

    /// Fails when a shape or cycle named on the command line does not fit
    /// the family options: a command-line error, found before any work.
    pub fn validate(&self) -> Result<(), String> {
        for (skeleton, named) in self.skeletons() {
            if named {
                litmus_gen::variants(&skeleton, &self.spec).map_err(message)?;
            }
        }
        if self.up_to.is_none() && (self.edges.is_some() || self.max_threads.is_some()) {
            return Err(
                "`--edges` and `--max-threads` shape the enumeration: give `--cycles-up-to N` too"
                    .to_string(),
            );
        }
        let enumerated = self.enumerated()?;
        if self.shapes.as_ref().is_some_and(Vec::is_empty)
            && self.cycles.is_empty()
            && enumerated.is_empty()
        {
            return Err(
                "`--shapes none`, no --cycle and no enumerated cycle: no candidate test"
                    .to_string(),
            );
        }
        Ok(())
    }

    /// Every candidate test, each once up to renaming.
    pub fn generate(&self) -> Result<Generated, String> {
        let mut seen = HashSet::new();
        let mut out = Generated {
            tests: Vec::new(),
            skipped: Vec::new(),
        };
        for (skeleton, named) in self.skeletons() {
            match family(&skeleton, &self.spec, &mut seen) {
                Ok(f) => out.tests.extend(f.tests),
                Err(e) if !named => out.skipped.push(format!(
                    "{}: left out, the options do not fit it: {}",
                    skeleton.name,
                    message(e)
                )),
                Err(e) => return Err(message(e)),
            }
        }
        Ok(out)
    }

    /// The bound of the search, as reports say it: `shapes MP, SB; no
    /// cycle; --placements all`.
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
        let cycles = match self.enumeration() {
            Some((edges, bound)) => format!(
                "{cycles}; every cycle of 2 to {} edges and at most {} threads over {} ({} cycles)",
                bound.max_edges,
                bound.max_threads,
                edges.join(","),
                self.enumerated().map_or(0, |c| c.len())
            ),
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
