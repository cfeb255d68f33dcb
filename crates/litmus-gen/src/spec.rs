//! What a family asks for, read from option values (the CLI's `--scopes
//! cta,gpu`, the macro's `scopes = "cta,gpu"`): one parser for both, so
//! that both give the same errors.

use litmus_core::instr::{Scope, Sem};

use crate::error::GenError;
use crate::placement::PlacementSpec;
use crate::skeleton::Skeleton;
use crate::variant::{Memory, SemChoice};

/// The options of a family, each a list the family ranges over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FamilySpec {
    /// `placements`: `all`, `inter-cta`, `intra-cta`, `inter-gpu`, or
    /// partitions like `cta01_2_3`.
    pub placements: Vec<PlacementSpec>,
    /// `scopes`: `cta`, `cluster`, `gpu`, `sys`.
    pub scopes: Vec<Scope>,
    /// `fences`: `none` (`None`), `sc`, `acq_rel`, `acquire`, `release`.
    pub fences: Vec<Option<Sem>>,
    /// `fence-scopes`: `same` (`None`: the accesses' scope), `cta`,
    /// `cluster`, `gpu`, `sys`.
    pub fence_scopes: Vec<Option<Scope>>,
    /// `fence-threads`: which threads get the fences.
    pub fence_threads: FenceThreads,
    /// `sem`: `relaxed`, `acq_rel` (release stores, acquire loads), `weak`.
    pub sems: Vec<SemChoice>,
    /// `memory`: `global`, `shared`.
    pub memories: Vec<Memory>,
}

impl Default for FamilySpec {
    /// One test: threads in CTAs of their own, relaxed `.gpu` accesses, no
    /// fence, global memory.
    fn default() -> FamilySpec {
        FamilySpec {
            placements: vec![PlacementSpec::InterCta],
            scopes: vec![Scope::Gpu],
            fences: vec![None],
            fence_scopes: vec![None],
            fence_threads: FenceThreads::All,
            sems: vec![SemChoice::Relaxed],
            memories: vec![Memory::Global],
        }
    }
}

/// The option names [`FamilySpec::set`] takes.
pub const OPTIONS: [&str; 7] = [
    "placements",
    "scopes",
    "fences",
    "fence-scopes",
    "fence-threads",
    "sem",
    "memory",
];

impl FamilySpec {
    /// Sets option `option` (one of [`OPTIONS`]) from its written `value`.
    pub fn set(&mut self, option: &str, value: &str) -> Result<(), GenError> {
        match option {
            "placements" => self.placements = list("placements", value, PlacementSpec::parse)?,
            "scopes" => {
                self.scopes = list("scopes", value, |v| {
                    Scope::from_ptx(v).ok_or_else(|| {
                        GenError::option(
                            "scopes",
                            v,
                            "not a scope; the scopes are cta, cluster, gpu, sys",
                        )
                    })
                })?
            }
            "fences" => self.fences = list("fences", value, fence)?,
            "fence-scopes" => self.fence_scopes = list("fence-scopes", value, fence_scope)?,
            "fence-threads" => self.fence_threads = FenceThreads::parse(value)?,
            "sem" => self.sems = list("sem", value, sem)?,
            "memory" => self.memories = list("memory", value, memory)?,
            other => {
                return Err(GenError::option(
                    "option",
                    other,
                    format!("unknown; the options are {}", OPTIONS.join(", ")),
                ))
            }
        }
        Ok(())
    }
}

/// A comma-separated list, each item read by `item`; empty items are errors.
fn list<T>(
    option: &'static str,
    value: &str,
    item: impl Fn(&str) -> Result<T, GenError>,
) -> Result<Vec<T>, GenError> {
    value
        .split(',')
        .enumerate()
        .map(|(i, v)| {
            let v = v.trim();
            if v.is_empty() {
                return Err(GenError::option(
                    option,
                    value,
                    format!("item {} is empty", i + 1),
                ));
            }
            item(v)
        })
        .collect()
}

fn fence_scope(v: &str) -> Result<Option<Scope>, GenError> {
    match v {
        "same" => Ok(None),
        _ => Scope::from_ptx(v).map(Some).ok_or_else(|| {
            GenError::option(
                "fence-scopes",
                v,
                "not a fence scope; the fence scopes are same (the accesses' scope), cta, cluster, gpu, sys",
            )
        }),
    }
}

fn fence(v: &str) -> Result<Option<Sem>, GenError> {
    match v {
        "none" => Ok(None),
        _ => match Sem::from_ptx(v) {
            Some(s @ (Sem::Sc | Sem::AcqRel | Sem::Acquire | Sem::Release)) => Ok(Some(s)),
            _ => Err(GenError::option(
                "fences",
                v,
                "not a fence; the fences are none, sc, acq_rel, acquire, release",
            )),
        },
    }
}

fn sem(v: &str) -> Result<SemChoice, GenError> {
    match v {
        "relaxed" => Ok(SemChoice::Relaxed),
        "acq_rel" | "rel_acq" => Ok(SemChoice::RelAcq),
        "weak" => Ok(SemChoice::Weak),
        _ => Err(GenError::option(
            "sem",
            v,
            "not an access semantics; they are relaxed, acq_rel (release stores, acquire loads), weak",
        )),
    }
}

fn memory(v: &str) -> Result<Memory, GenError> {
    match v {
        "global" => Ok(Memory::Global),
        "shared" => Ok(Memory::Shared),
        _ => Err(GenError::option(
            "memory",
            v,
            "not a memory; they are global, shared",
        )),
    }
}

/// `each` is refused beyond this many threads with a fence to take: 1023
/// subsets.
pub const MAX_EACH_THREADS: usize = 10;

/// Which threads get a family's fences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenceThreads {
    /// `all`: every thread with two accesses or more, together.
    All,
    /// `each`: every non-empty subset of those threads.
    Each,
    /// Explicit sets, `1,3/0` (sets separated by `/`).
    Lists(Vec<Vec<usize>>),
}

impl FenceThreads {
    /// Reads a `fence-threads` value.
    pub fn parse(value: &str) -> Result<FenceThreads, GenError> {
        match value {
            "all" => return Ok(FenceThreads::All),
            "each" => return Ok(FenceThreads::Each),
            _ => {}
        }
        let bad = |why: String| GenError::option("fence-threads", value, why);
        let mut lists = Vec::new();
        for set in value.split('/') {
            let mut threads = Vec::new();
            for t in set.split(',') {
                let n: usize = t.trim().parse().map_err(|_| {
                    bad(format!("`{t}` is not a thread index; fence-threads is all, each, or thread indices like 1,3 (sets separated by /)"))
                })?;
                if threads.contains(&n) {
                    return Err(bad(format!("thread {n} is listed twice")));
                }
                threads.push(n);
            }
            threads.sort_unstable();
            lists.push(threads);
        }
        Ok(FenceThreads::Lists(lists))
    }

    /// The thread sets of `skeleton` to fence.
    pub fn resolve(&self, skeleton: &Skeleton) -> Result<Vec<Vec<usize>>, GenError> {
        let fenceable = skeleton.fenceable();
        Ok(match self {
            FenceThreads::All if fenceable.is_empty() => Vec::new(),
            FenceThreads::All => vec![fenceable],
            FenceThreads::Each if fenceable.len() > MAX_EACH_THREADS => {
                return Err(GenError::option(
                    "fence-threads",
                    "each",
                    format!(
                        "{} has {} threads to fence, {} subsets; list the sets instead",
                        skeleton.name,
                        fenceable.len(),
                        (1u64 << fenceable.len()) - 1
                    ),
                ))
            }
            FenceThreads::Each => subsets(&fenceable),
            FenceThreads::Lists(lists) => {
                for list in lists {
                    for &t in list {
                        if !fenceable.contains(&t) {
                            let why = if t >= skeleton.threads.len() {
                                format!("{} has no thread {t}", skeleton.name)
                            } else {
                                format!("thread {t} of {} has fewer than two accesses: no fence can go between them", skeleton.name)
                            };
                            let written: Vec<String> = list.iter().map(|t| t.to_string()).collect();
                            return Err(GenError::option("fence-threads", &written.join(","), why));
                        }
                    }
                }
                lists.clone()
            }
        })
    }
}

/// Every non-empty subset, smaller ones first, each ascending.
fn subsets(items: &[usize]) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = (1u32..(1 << items.len()))
        .map(|mask| {
            items
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, &t)| t)
                .collect()
        })
        .collect();
    out.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
    out
}
