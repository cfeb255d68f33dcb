//! What the harness cannot run, by the layout a test would get: too many
//! GPUs, CTA barriers beside clusters, host threads that reach GPU
//! memory, memory on a GPU that runs no thread, shared memory or aliases
//! across GPUs. Apart from `layout.rs` for its length; each refusal is
//! checked where `Layout::of` builds the part it
//! refuses.

use litmus_core::ir::{Space, Test};

use super::{Mode, SharedLoc, MAX_GPUS};
use crate::PtxError;

/// Counts the logical GPUs the test's threads sit on, refusing more than
/// the harness runs.
pub(super) fn count_gpus(test: &Test) -> Result<u32, PtxError> {
    let gpus = test
        .threads
        .iter()
        .filter(|t| !t.placement.host)
        .map(|t| t.placement.gpu.saturating_add(1))
        .max()
        .unwrap_or(1);
    if gpus > MAX_GPUS {
        let t = test
            .threads
            .iter()
            .find(|t| !t.placement.host && t.placement.gpu >= MAX_GPUS);
        return Err(PtxError::Unsupported(format!(
            "thread `{}` is placed on GPU {}: the harness runs at most {MAX_GPUS} GPUs",
            t.map_or("?", |t| t.name.text.as_str()),
            gpus - 1
        )));
    }
    Ok(gpus)
}

/// CTA barriers beside clusters: the role-per-warp layout has no clusters
/// yet.
pub(super) fn refuse_clusters_with(cluster_size: u32, mode: &Mode) -> Result<(), PtxError> {
    if cluster_size > 1 && *mode != Mode::EveryRole {
        return Err(PtxError::Unsupported(
            "CTA barriers in a test with clusters are not generated yet".into(),
        ));
    }
    Ok(())
}

/// What the harness cannot run of a test with host threads, whatever its
/// layout: a test with no GPU thread (nothing would launch), and a host
/// thread that reaches device memory (the CPU cannot address it).
pub(super) fn refuse_host(test: &Test) -> Result<(), PtxError> {
    if !test.threads.is_empty() && test.threads.iter().all(|t| t.placement.host) {
        return Err(PtxError::Unsupported(
            "every thread runs on the host: the harness runs host threads beside a GPU kernel, and there is none".into(),
        ));
    }
    for t in test.threads.iter().filter(|t| t.placement.host) {
        for ins in &t.body {
            let Some(loc) = ins.kind.loc() else { continue };
            let space = test
                .locations
                .iter()
                .find(|l| l.name.text == loc.text)
                .map(|l| l.space);
            if space != Some(Space::Host) {
                return Err(PtxError::Unsupported(format!(
                    "host thread `{}` reaches `{loc}`, which is not in host memory: the CPU cannot address GPU memory (declare it `host`)",
                    t.name
                )));
            }
        }
    }
    Ok(())
}

/// What the harness cannot run of a test with host threads or host memory
/// given its layout: CTA barriers and clusters beside host threads (the
/// host side plays instances in its own order, and the role-per-warp and
/// cluster layouts were never checked with it), and host memory beside
/// PTX 7.5 aliases (views and textures map device memory only).
pub(super) fn refuse_host_with(
    test: &Test,
    mode: &Mode,
    cluster_size: u32,
    host_slots: &[usize],
    plan: &crate::proxies::Plan,
) -> Result<(), PtxError> {
    if let Some(t) = test.threads.iter().find(|t| t.placement.host) {
        if *mode != Mode::EveryRole {
            return Err(PtxError::Unsupported(format!(
                "host thread `{}` in a test with CTA barriers: the harness runs host threads only beside tests without them",
                t.name
            )));
        }
        if cluster_size > 1 {
            return Err(PtxError::Unsupported(format!(
                "host thread `{}` in a test with clusters: the harness runs host threads only beside tests without them",
                t.name
            )));
        }
    }
    if !host_slots.is_empty() && !plan.aliases.is_empty() {
        return Err(PtxError::Unsupported(
            "host memory in a test with aliases: the harness maps aliases over GPU memory only"
                .into(),
        ));
    }
    Ok(())
}

/// A location whose home GPU runs none of the test's threads: the harness
/// opens a device per logical GPU that plays roles, so there would be no
/// context to allocate its memory in.
pub(super) fn refuse_homes(
    test: &Test,
    global_locs: &[usize],
    homes: &[u32],
    gpus: u32,
) -> Result<(), PtxError> {
    for (&l, &home) in global_locs.iter().zip(homes) {
        if home >= gpus {
            return Err(PtxError::Unsupported(format!(
                "location `{}` lives in GPU {home}'s memory, but no thread runs on GPU {home}: the harness allocates memory only on the GPUs up to the highest that runs a thread",
                test.locations[l].name
            )));
        }
    }
    Ok(())
}

/// What the harness cannot run of a test on several GPUs: shared memory
/// (every CTA of every GPU publishes its shared slots for the classifier,
/// and only one GPU's hold the roles' values), and PTX 7.5 aliases (views
/// are mapped, and textures made, for logical GPU 0's context alone).
pub(super) fn refuse_gpus(
    gpus: u32,
    shared_locs: &[SharedLoc],
    plan: &crate::proxies::Plan,
) -> Result<(), PtxError> {
    if gpus == 1 {
        return Ok(());
    }
    if !shared_locs.is_empty() {
        return Err(PtxError::Unsupported(
            "shared memory in a test on several GPUs: the harness publishes shared locations from one GPU only".into(),
        ));
    }
    if !plan.aliases.is_empty() {
        return Err(PtxError::Unsupported(
            "aliases in a test on several GPUs: the harness maps aliases for GPU 0 only".into(),
        ));
    }
    Ok(())
}
