//! Where a test's threads and locations go in the harness: the CTAs and
//! clusters its GPU threads span, each thread's role, the locations'
//! slots and homes. Apart from `layout.rs` for its length; the
//! `Layout` it builds is there.

use std::collections::{BTreeMap, BTreeSet};

use litmus_core::instr::InstrKind;
use litmus_core::ir::{Name, Space, Test, Thread};
use litmus_core::outcome::Observable;

use super::{Role, SharedLoc, MAX_CLUSTER};
use crate::PtxError;

/// A thread's cluster: the declared one, or, where none is declared, a
/// cluster of its CTA alone; a CTA and a cluster belong to one GPU.
pub(super) fn cluster_of(t: &Thread) -> (u32, u32, u32) {
    match t.placement.cluster {
        Some(c) => (t.placement.gpu, 0, c),
        None => (t.placement.gpu, 1, t.placement.cta),
    }
}

/// A thread's CTA, on its GPU.
pub(super) fn cta_of(t: &Thread) -> (u32, u32) {
    (t.placement.gpu, t.placement.cta)
}

/// The CTAs and clusters the test's GPU threads span.
pub(super) struct Grid {
    /// Distinct CTAs, in order.
    pub(super) ctas: Vec<(u32, u32)>,
    /// Distinct clusters, in order.
    pub(super) clusters: Vec<(u32, u32, u32)>,
    /// The CTAs of each cluster, in order: a CTA's rank is its place here.
    pub(super) members: BTreeMap<(u32, u32, u32), BTreeSet<u32>>,
    /// CTAs per hardware cluster (see `Layout::cluster_size`).
    pub(super) cluster_size: u32,
}

impl Grid {
    /// Gathers the CTAs and clusters of the test's GPU threads, refusing a
    /// CTA split over clusters and a cluster past `MAX_CLUSTER`.
    pub(super) fn of(test: &Test) -> Result<Grid, PtxError> {
        // Host threads are no part of the GPU's CTAs and clusters.
        let gpu_threads = || test.threads.iter().filter(|t| !t.placement.host);
        let ctas: Vec<(u32, u32)> = gpu_threads()
            .map(cta_of)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let clusters: Vec<(u32, u32, u32)> = gpu_threads()
            .map(cluster_of)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let mut members: BTreeMap<(u32, u32, u32), BTreeSet<u32>> = BTreeMap::new();
        for t in gpu_threads() {
            members
                .entry(cluster_of(t))
                .or_default()
                .insert(t.placement.cta);
        }
        for t in gpu_threads() {
            if let Some(other) =
                gpu_threads().find(|o| cta_of(o) == cta_of(t) && cluster_of(o) != cluster_of(t))
            {
                return Err(PtxError::Unsupported(format!(
                    "threads `{}` and `{}` share CTA {} but not a cluster: a CTA belongs to one cluster",
                    t.name, other.name, t.placement.cta
                )));
            }
        }
        let biggest = members.values().map(BTreeSet::len).max().unwrap_or(1) as u32;
        if biggest > MAX_CLUSTER {
            return Err(PtxError::Unsupported(format!(
                "a cluster of {biggest} CTAs: the portable maximum is {MAX_CLUSTER}"
            )));
        }
        Ok(Grid {
            ctas,
            clusters,
            members,
            cluster_size: biggest.next_power_of_two(),
        })
    }
}

/// Places each test thread as a role: its CTA, cluster, rank, warp and GPU.
pub(super) fn place_roles(test: &Test, grid: &Grid, declares_warps: bool) -> Vec<Role> {
    test.threads
        .iter()
        .map(|t| Role {
            host: t.placement.host,
            gpu: if t.placement.host { 0 } else { t.placement.gpu },
            cta_offset: grid.ctas.iter().position(|c| *c == cta_of(t)).unwrap_or(0) as u32,
            cluster_offset: grid
                .clusters
                .iter()
                .position(|c| *c == cluster_of(t))
                .unwrap_or(0) as u32,
            rank: grid
                .members
                .get(&cluster_of(t))
                .and_then(|m| m.iter().position(|c| *c == t.placement.cta))
                .unwrap_or(0) as u32,
            warp: if declares_warps {
                Some(t.placement.warp.unwrap_or(0))
            } else {
                None
            },
        })
        .collect()
}

/// Splits the test's locations into global slots and shared locations,
/// each shared one placed with the first GPU role that uses it.
pub(super) fn split_locations(test: &Test, roles: &[Role]) -> (Vec<usize>, Vec<SharedLoc>) {
    let mut global_locs = Vec::new();
    let mut shared_locs = Vec::new();
    for (i, loc) in test.locations.iter().enumerate() {
        // An alias is its root's memory: no slot of its own.
        if loc.alias.is_some() {
            continue;
        }
        if matches!(loc.space, Space::Global | Space::Host) {
            global_locs.push(i);
            continue;
        }
        let user = test.threads.iter().position(|t| {
            !t.placement.host
                && t.body.iter().any(|ins| {
                    instr_locs(&ins.kind)
                        .iter()
                        .any(|l| l.text == loc.name.text)
                })
        });
        let user = user.map(|u| &roles[u]);
        shared_locs.push(SharedLoc {
            loc: i,
            space: loc.space,
            cluster_offset: user.map_or(0, |r| r.cluster_offset),
            rank: match loc.space {
                Space::SharedCluster => 0,
                _ => user.map_or(0, |r| r.rank),
            },
            // A word, until the async proxy's plan widens it.
            bytes: 4,
            mbarrier: None,
        });
    }
    (global_locs, shared_locs)
}

/// Every location an instruction names: its access's, or an async-proxy
/// instruction's operands (a bulk copy names three).
pub(crate) fn instr_locs(kind: &InstrKind) -> Vec<&Name> {
    match kind {
        InstrKind::Async(op) => op.locs(),
        other => other.loc().into_iter().collect(),
    }
}

/// Per location: the slot that holds its memory (see `Layout::slot_of`).
pub(super) fn slots_of(test: &Test, global_locs: &[usize]) -> Vec<Option<usize>> {
    (0..test.locations.len())
        .map(|i| {
            let (root, _) = crate::proxies::root_and_vloc(test, &test.locations[i].name.text)?;
            global_locs.iter().position(|g| *g == root)
        })
        .collect()
}

/// The slots of the locations in host memory (see `Layout::host_slots`).
pub(super) fn host_slots(test: &Test, global_locs: &[usize]) -> Vec<usize> {
    global_locs
        .iter()
        .enumerate()
        .filter(|(_, l)| test.locations[**l].space == Space::Host)
        .map(|(j, _)| j)
        .collect()
}

/// Per slot: the logical GPU whose memory holds it (see `Layout::homes`).
pub(super) fn homes(test: &Test, global_locs: &[usize], host_slots: &[usize]) -> Vec<u32> {
    global_locs
        .iter()
        .enumerate()
        .map(|(j, l)| match host_slots.contains(&j) {
            true => 0,
            false => test.locations[*l].gpu,
        })
        .collect()
}

/// The registers the classifier needs, in observable order (see
/// `Layout::stored_regs`).
pub(super) fn stored_regs(observables: &[Observable]) -> Vec<(usize, String)> {
    observables
        .iter()
        .filter_map(|o| match o {
            Observable::Reg { thread, reg } => Some((*thread, reg.clone())),
            Observable::Loc { .. } => None,
        })
        .collect()
}
