//! The family-wide search (`litmus_tune::family`) per device kind: a
//! node's devices grouped by kind into lanes ([`search_kinds`]), and the
//! search on one kind's lanes ([`search_on_lanes`]), each trial run there
//! through its device's GPU worker, the next tests' modules compiled
//! ahead, and each trial recorded as evidence when asked. `gpu-litmus
//! tune` and `campaign --tune` run it once per kind of the node, one kind
//! after the other, and keep each kind's winners under that kind in the
//! tuning file: knobs that expose a weak outcome on one GPU say little
//! about another, so kinds never share a lane or a pool.

use std::path::Path;
use std::sync::Mutex;

use litmus_core::ir::Test;
use litmus_hw::{self as gpu, GpuError, Knobs};
use litmus_ptx::Layout;
use litmus_tune::family::{search_family_on, FamilyPlan, Found, Progress, Subject};
use litmus_tune::prepare::Prepared;

use crate::config::Config;
use crate::trials::TrialRecorder;

/// One device kind's share of a node, for a family-wide search: the
/// kind (the devices' name) and its lanes, each a group of that kind's
/// devices a turn runs on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KindLanes {
    /// The devices' name, which a tuning entry keeps its results by.
    pub kind: String,
    /// Groups of as many devices as the widest test has GPUs; empty when
    /// the kind has too few.
    pub lanes: Vec<Vec<u32>>,
}

/// The device kinds a family-wide search over `tests` runs on
/// (`litmus_tune::family::search_family_on`, once per kind), each with
/// its lanes as wide as the widest test has GPUs: the search's results
/// are a kind's (a tuning entry names the kind it was tuned on), so a
/// kind's lanes are its own devices. A test narrower than its lane runs
/// on the lane's first devices. A kind with fewer devices than the
/// widest test needs sits out. When no kind has enough, the first
/// device's kind comes back without lanes: the search then runs one
/// trial at a time with the default placement, which says why a test
/// cannot run. None without a GPU or with the hardware half off.
pub fn search_kinds<'t>(
    config: &Config,
    tests: impl Iterator<Item = &'t Test>,
) -> Result<Vec<KindLanes>, GpuError> {
    if !config.hardware {
        return Ok(Vec::new());
    }
    let devices = match gpu::devices() {
        Ok(d) => d,
        Err(e @ GpuError::Knob { .. }) => return Err(e),
        Err(_) => return Ok(Vec::new()),
    };
    let width = tests
        .map(|t| Layout::of(t).map_or(1, |l| l.gpus.max(1) as usize))
        .max()
        .unwrap_or(1);
    let kinds = lanes_by_kind(devices.iter().map(|g| (g.name.as_str(), g.ordinal)), width);
    let fit: Vec<KindLanes> = kinds
        .iter()
        .filter(|k| !k.lanes.is_empty())
        .cloned()
        .collect();
    Ok(match fit.is_empty() {
        true => kinds.into_iter().take(1).collect(),
        false => fit,
    })
}

/// The devices of a node, as (name, ordinal) pairs, grouped by kind (the
/// name), the kinds in the order their first device comes; each kind's
/// devices in groups of `width`, in their order (the rest, too few for a
/// group, sit out). Devices of two kinds never share a lane: a turn's
/// results must be one kind's.
pub fn lanes_by_kind<'a>(
    devices: impl IntoIterator<Item = (&'a str, u32)>,
    width: usize,
) -> Vec<KindLanes> {
    let mut kinds: Vec<(&str, Vec<u32>)> = Vec::new();
    for (name, ordinal) in devices {
        match kinds.iter_mut().find(|(k, _)| *k == name) {
            Some((_, of_kind)) => of_kind.push(ordinal),
            None => kinds.push((name, vec![ordinal])),
        }
    }
    kinds
        .into_iter()
        .map(|(kind, of_kind)| KindLanes {
            kind: kind.to_string(),
            lanes: lanes_of(&of_kind, width),
        })
        .collect()
}

/// `devices` in groups of `width` (the rest, too few for a group, sit
/// out).
fn lanes_of(devices: &[u32], width: usize) -> Vec<Vec<u32>> {
    devices
        .chunks_exact(width.max(1))
        .map(<[u32]>::to_vec)
        .collect()
}

/// Why a kind's search could not keep what it did.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// A trial could not be recorded in the evidence folder (the first
    /// such failure; the search went on without it).
    #[error("{0}")]
    Evidence(String),
}

/// Tests whose modules a worker compiles ahead of the search.
const AHEAD: usize = 4;

/// Searches `prepared`'s tests as one family on `lanes` (one device
/// kind's; none: one trial at a time on the default device) with `plan`
/// (its pool seeded with the kind's earlier winners by the caller) from
/// `base`, recording every trial in `evidence` when given. `progress`
/// hears after every wave, as in `search_family_on`. Returns what was
/// found per test, in `prepared.ready`'s order; an error when the
/// trials could not be recorded.
pub fn search_on_lanes(
    prepared: &Prepared,
    lanes: &[Vec<u32>],
    base: &Knobs,
    plan: &FamilyPlan,
    evidence: Option<&Path>,
    progress: impl FnMut(&Progress, &[Found]),
) -> Result<Vec<Found>, SearchError> {
    let subjects: Vec<Subject> = prepared
        .ready
        .iter()
        .map(|r| Subject {
            test: &r.test,
            ptx: &r.ptx,
            target: r.target.clone(),
        })
        .collect();
    // Each test's modules, made once for the whole search: its trials and
    // the prefetches ahead of its turns load the same few (a codegen
    // each), where each trial and each prefetch generated its own.
    let modules: Vec<gpu::Modules> = subjects
        .iter()
        .map(|s| gpu::Modules::with_default(s.test, s.ptx))
        .collect();
    // While a test takes its turn, its worker compiles the next tests'
    // modules (a hint; without it a run compiles its own).
    let current = Mutex::new(vec![usize::MAX; lanes.len().max(1)]);
    let trials = Mutex::new(TrialRecorder::new(evidence));
    // The pool's compilers: the next test's first trials go to the one
    // its kin shows under, whichever this trial's is.
    let compilers = plan.compilers(base);
    let found = search_family_on(
        &subjects,
        base,
        plan,
        lanes.len(),
        |l, i, s, k| {
            let claim = lanes.get(l).map_or(&[][..], Vec::as_slice);
            let turned = {
                let mut current = current.lock().unwrap_or_else(|p| p.into_inner());
                std::mem::replace(&mut current[l], i) != i
            };
            if turned {
                let next: Vec<&gpu::Modules> = modules
                    .iter()
                    .cycle()
                    .skip(i + 1)
                    .take(AHEAD.min(modules.len() - 1))
                    .collect();
                // The modules as this trial's knobs make them, under each
                // compiler of the pool.
                for ptxas in &compilers {
                    let knobs = Knobs {
                        ptxas: ptxas.clone(),
                        ..k.clone()
                    };
                    let _ = gpu::prefetch_modules(claim.first().copied(), &next, &knobs);
                }
            }
            let r = gpu::run_on(claim, &modules[i], k);
            if let Ok(hw) = &r {
                let file = &prepared.ready[i].file;
                let mut trials = trials.lock().unwrap_or_else(|p| p.into_inner());
                trials.record(s.test, file, hw);
            }
            r
        },
        progress,
    );
    let trials = trials.into_inner().unwrap_or_else(|p| p.into_inner());
    match trials.error() {
        Some(e) => Err(SearchError::Evidence(e.to_string())),
        None => Ok(found),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A family-wide search gives each turn as many devices as its widest
    /// test needs: four devices are four lanes for tests on one GPU, two
    /// for a set with a test on two, one for a test on three or four.
    #[test]
    fn search_lanes_are_as_wide_as_the_widest_test() {
        let four = [0, 1, 2, 3];
        assert_eq!(lanes_of(&four, 1), vec![vec![0], vec![1], vec![2], vec![3]]);
        assert_eq!(lanes_of(&four, 2), vec![vec![0, 1], vec![2, 3]]);
        assert_eq!(lanes_of(&four, 3), vec![vec![0, 1, 2]]);
        assert_eq!(lanes_of(&four, 4), vec![vec![0, 1, 2, 3]]);
        assert!(lanes_of(&four, 8).is_empty());
        assert!(lanes_of(&[], 1).is_empty());
    }

    /// On a mixed node each kind gets lanes of its own devices only, as
    /// wide as the widest test; a kind too small for a lane gets none.
    #[test]
    fn a_mixed_node_is_grouped_into_lanes_per_kind() {
        let node = [
            ("NVIDIA H100", 0),
            ("NVIDIA A100", 1),
            ("NVIDIA H100", 2),
            ("NVIDIA A100", 3),
            ("NVIDIA L4", 4),
        ];
        let lanes = |width| {
            lanes_by_kind(node.iter().copied(), width)
                .into_iter()
                .map(|k| (k.kind, k.lanes))
                .collect::<Vec<_>>()
        };
        let s = String::from;
        assert_eq!(
            lanes(1),
            vec![
                (s("NVIDIA H100"), vec![vec![0], vec![2]]),
                (s("NVIDIA A100"), vec![vec![1], vec![3]]),
                (s("NVIDIA L4"), vec![vec![4]]),
            ]
        );
        assert_eq!(
            lanes(2),
            vec![
                (s("NVIDIA H100"), vec![vec![0, 2]]),
                (s("NVIDIA A100"), vec![vec![1, 3]]),
                (s("NVIDIA L4"), vec![]),
            ]
        );
        assert!(lanes(3).iter().all(|(_, l)| l.is_empty()));
        assert!(lanes_by_kind([], 1).is_empty());
    }
}
