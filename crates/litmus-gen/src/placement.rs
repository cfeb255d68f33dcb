//! Placements: which threads share a CTA (or a GPU). A placement is a set
//! partition of the threads, written as its groups of thread indices
//! separated by `_`, after `cta` or `gpu`: `cta01_2_3` puts threads 0 and 1
//! in one CTA and threads 2 and 3 in CTAs of their own.

use crate::error::GenError;
use crate::numbering::renumber;

/// What a placement's groups are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Across {
    /// Each group is a CTA of GPU 0.
    Cta,
    /// Each group is a GPU; each thread has a CTA of its own there.
    Gpu,
}

/// A set partition of a test's threads.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// What the groups are.
    pub across: Across,
    /// The group of each thread; groups are numbered in order of their
    /// first thread (0 for thread 0).
    pub group: Vec<usize>,
}

impl Placement {
    /// Every thread in one CTA.
    pub fn intra_cta(threads: usize) -> Placement {
        Placement {
            across: Across::Cta,
            group: vec![0; threads],
        }
    }

    /// Every thread in a CTA (or on a GPU) of its own.
    pub fn each_alone(across: Across, threads: usize) -> Placement {
        Placement {
            across,
            group: (0..threads).collect(),
        }
    }

    /// Whether every thread is in one CTA (what shared memory needs).
    pub fn one_cta(&self) -> bool {
        self.across == Across::Cta && self.group.iter().all(|&g| g == 0)
    }

    /// The readable form, `cta01_2_3`.
    pub fn name(&self) -> String {
        let mut s = String::from(match self.across {
            Across::Cta => "cta",
            Across::Gpu => "gpu",
        });
        let groups = self.group.iter().max().map_or(0, |m| m + 1);
        for g in 0..groups {
            if g > 0 {
                s.push('_');
            }
            for (t, _) in self.group.iter().enumerate().filter(|(_, &x)| x == g) {
                s.push_str(&t.to_string());
            }
        }
        s
    }
}

/// Every set partition of `threads` threads into CTAs, in restricted
/// growth order (`cta0123` first, each thread alone last).
pub fn all_partitions(threads: usize) -> Vec<Placement> {
    let mut out = Vec::new();
    let mut group = Vec::with_capacity(threads);
    grow(threads, &mut group, &mut out);
    out
}

fn grow(threads: usize, group: &mut Vec<usize>, out: &mut Vec<Placement>) {
    if group.len() == threads {
        out.push(Placement {
            across: Across::Cta,
            group: group.clone(),
        });
        return;
    }
    let next = group.iter().max().map_or(0, |m| m + 1);
    for g in 0..=next {
        group.push(g);
        grow(threads, group, out);
        group.pop();
    }
}

/// `all` placements are refused beyond this many threads: 8 threads have
/// 4140 set partitions, 9 have 21147.
pub const MAX_ALL_THREADS: usize = 8;

/// What `--placements` asks for, before the thread count is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlacementSpec {
    /// `all`: every set partition into CTAs.
    All,
    /// `inter-cta`: each thread in a CTA of its own.
    InterCta,
    /// `intra-cta`: every thread in one CTA.
    IntraCta,
    /// `inter-gpu`: each thread on a GPU of its own.
    InterGpu,
    /// An explicit partition, `cta01_2_3` (or `01_2_3`) or `gpu0_1`.
    Explicit(String),
}

impl PlacementSpec {
    /// Reads one comma-separated item of `--placements`.
    pub fn parse(item: &str) -> Result<PlacementSpec, GenError> {
        Ok(match item {
            "all" => PlacementSpec::All,
            "inter-cta" => PlacementSpec::InterCta,
            "intra-cta" => PlacementSpec::IntraCta,
            "inter-gpu" => PlacementSpec::InterGpu,
            _ => {
                // Checked for syntax now; against a shape's threads later.
                explicit(item, None)?;
                PlacementSpec::Explicit(item.to_string())
            }
        })
    }

    /// The placements this item gives a test of `threads` threads.
    pub fn resolve(&self, threads: usize) -> Result<Vec<Placement>, GenError> {
        Ok(match self {
            PlacementSpec::All if threads > MAX_ALL_THREADS => {
                return Err(GenError::option(
                    "placements",
                    "all",
                    format!("a test of {threads} threads has too many set partitions (more than {MAX_ALL_THREADS} threads: over 20000); name the placements instead"),
                ))
            }
            PlacementSpec::All => all_partitions(threads),
            PlacementSpec::InterCta => vec![Placement::each_alone(Across::Cta, threads)],
            PlacementSpec::IntraCta => vec![Placement::intra_cta(threads)],
            PlacementSpec::InterGpu => vec![Placement::each_alone(Across::Gpu, threads)],
            PlacementSpec::Explicit(text) => vec![explicit(text, Some(threads))?],
        })
    }
}

/// Reads `cta01_2_3`; with `threads`, also checks that every thread from 0
/// to `threads - 1` is in exactly one group.
fn explicit(text: &str, threads: Option<usize>) -> Result<Placement, GenError> {
    let bad = |why: String| GenError::option("placements", text, why);
    let (across, groups) = if let Some(rest) = text.strip_prefix("cta") {
        (Across::Cta, rest)
    } else if let Some(rest) = text.strip_prefix("gpu") {
        (Across::Gpu, rest)
    } else {
        (Across::Cta, text)
    };
    let mut owner: Vec<Option<usize>> = Vec::new();
    for (g, part) in groups.split('_').enumerate() {
        if part.is_empty() {
            return Err(bad(format!("group {} is empty; a placement is all, inter-cta, intra-cta, inter-gpu, or groups of thread digits separated by `_` after `cta` or `gpu` (`cta01_2_3`)", g + 1)));
        }
        for c in part.chars() {
            let t = c.to_digit(10).ok_or_else(|| {
                bad(format!("`{c}` is not a thread index; a placement is all, inter-cta, intra-cta, inter-gpu, or groups of thread digits separated by `_` after `cta` or `gpu` (`cta01_2_3`)"))
            })? as usize;
            if owner.len() <= t {
                owner.resize(t + 1, None);
            }
            if owner[t].is_some() {
                return Err(bad(format!("thread {t} is in two groups")));
            }
            owner[t] = Some(g);
        }
    }
    if let Some(n) = threads {
        if owner.len() > n {
            return Err(bad(format!(
                "thread {} does not exist: the test has {n} threads",
                owner.len() - 1
            )));
        }
        owner.resize(n, None);
    }
    if let Some(t) = owner.iter().position(Option::is_none) {
        return Err(bad(format!("thread {t} is in no group")));
    }
    let raw: Vec<usize> = owner.into_iter().flatten().collect();
    Ok(Placement {
        across,
        group: renumber(&raw),
    })
}
