//! The candidate tests that tell two models apart: `gpu-litmus diff`'s, and
//! those `gpu-litmus mutants --kill-tests` searches for a surviving mutant.
//! They are `gpu-litmus gen` families (the same options, read by the same
//! parser), of every named shape unless `--shapes` picks some, and of the
//! diy7 cycles given with `--cycle`. litmus-gen cannot enumerate cycles
//! itself, so the bound of the search is the shapes, the cycles and the
//! options, and every report names it ([`Candidates::bound`]).

use std::collections::HashSet;

use litmus_core::ir::Test;
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
        out
    }

    /// Fails when a shape or cycle named on the command line does not fit
    /// the family options: a command-line error, found before any work.
    pub fn validate(&self) -> Result<(), String> {
        for (skeleton, named) in self.skeletons() {
            if named {
                litmus_gen::variants(&skeleton, &self.spec).map_err(message)?;
            }
        }
        if self.shapes.as_ref().is_some_and(Vec::is_empty) && self.cycles.is_empty() {
            return Err("`--shapes none` and no --cycle: no candidate test".to_string());
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
        let options = if self.written.is_empty() {
            "gen's default options".to_string()
        } else {
            self.written.join(" ")
        };
        format!("{shapes}; {cycles}; {options}")
    }
}
