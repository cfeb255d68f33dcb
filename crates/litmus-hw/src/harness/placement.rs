//! The placement check: one launch that records where each role of each
//! instance ran, checked against where the test places its threads.

use std::collections::{BTreeSet, HashSet};

use litmus_core::ir::{Name, Test};
use litmus_ptx::layout::{Role, HOST_PLACEMENT_TAG, PLACEMENT_WORDS};
use litmus_ptx::Layout;

use super::Setup;
use crate::devices::Devices;
use crate::driver::{Buffer, Context};
use crate::kernels::Kernels;
use crate::knobs::Knobs;
use crate::GpuError;

/// Where each role of each instance ran, and whether that matched the test.
#[derive(Clone, Debug)]
pub struct PlacementReport {
    /// Instances checked (one launch's worth).
    pub instances: u64,
    /// Roles per instance.
    pub roles: usize,
    /// Distinct SMs the roles ran on (on several GPUs, counted per GPU).
    pub sms: usize,
    /// Distinct logical GPUs the GPU roles ran on.
    pub gpus: usize,
    /// Distinct CPU threads the host roles ran on (0: the test has none).
    pub cpu_threads: usize,
}

/// Runs one launch that records where each role of each instance ran, and
/// checks the declared placement held for every instance: roles declared
/// in one CTA ran in one CTA, roles declared in different CTAs did not, and
/// likewise for declared warps; every host role ran on a host thread and
/// every other role on the GPU; and every role of every instance ran once.
///
/// On several GPUs, also that every role ran on the logical GPU the test
/// places it on (the third word of its record), and CTAs and clusters are
/// compared only within one GPU. `ctx`, `kernels`, `ptx`: as for
/// [`super::run`].
pub(crate) fn check_placement(
    ctx: &Context,
    kernels: &Kernels,
    ptx: &str,
    test: &Test,
    k: &Knobs,
) -> Result<PlacementReport, GpuError> {
    let layout = Layout::of(test).map_err(GpuError::Ptx)?;
    let k = &*super::profiled(&layout, k);
    let devices = Devices::open(ctx, kernels, ptx, &layout, k)?;
    let setup = Setup::new(&devices, test, k)?;
    let multi = setup.layout.multi_gpu();
    let roles = setup.layout.roles.len();
    // The buffer lives as long as it did when this was one function.
    let (_place, rec) = record_placement(&devices, &setup, test, k)?;
    let mut seen = Seen::default();
    for i in 0..setup.n {
        for a in 0..roles {
            let ra = record_of(&rec, roles, i, a);
            if ra[0] == u32::MAX {
                return Err(GpuError::Placement(format!(
                    "role {a} of instance {i} never ran"
                )));
            }
            let name = &test.threads[a].name;
            if setup.layout.roles[a].host {
                check_host_role(&setup.layout, k, i, a, name, ra)?;
                seen.cpus.insert(ra[1]);
                continue;
            }
            check_gpu_role(&setup.layout, multi, i, a, name, ra, &mut seen)?;
            for b in a + 1..roles {
                if setup.layout.roles[b].host {
                    continue;
                }
                let rb = record_of(&rec, roles, i, b);
                check_pair(test, &setup.layout, i, (a, ra), (b, rb))?;
            }
        }
    }
    Ok(PlacementReport {
        instances: setup.n as u64,
        roles,
        sms: seen.sms.len(),
        gpus: seen.gpus.len(),
        cpu_threads: seen.cpus.len(),
    })
}

/// Runs the one launch that records placements; returns the records'
/// buffer and its words.
fn record_placement(
    devices: &Devices,
    setup: &Setup,
    test: &Test,
    k: &Knobs,
) -> Result<(Buffer, Vec<u32>), GpuError> {
    let ctx = devices.ctx(0);
    let roles = setup.layout.roles.len();
    let words = setup.n * roles * PLACEMENT_WORDS;
    // Host threads write their records too: then the buffer is page-locked
    // host memory both sides reach.
    let place = match setup.host {
        Some(_) => ctx.alloc_host(words)?,
        None => ctx.alloc(words)?,
    };
    place.fill(devices.stream(0), 0, words, u32::MAX)?;
    setup.reset(devices, test, k)?;
    setup.with_crew(k, Some(&place), |crew| {
        setup.launch(devices, k, 0, Some(&place), crew)
    })?;
    devices.synchronize()?;
    let rec = place.read()?;
    Ok((place, rec))
}

/// Role `r`'s record of instance `i`.
fn record_of(rec: &[u32], roles: usize, i: usize, r: usize) -> &[u32] {
    &rec[(i * roles + r) * PLACEMENT_WORDS..(i * roles + r + 1) * PLACEMENT_WORDS]
}

/// Where the GPU roles ran, and which CPU threads the host roles did, over
/// every instance.
#[derive(Default)]
struct Seen {
    /// (logical GPU, SM).
    sms: BTreeSet<(u32, u32)>,
    gpus: BTreeSet<u32>,
    cpus: BTreeSet<u32>,
    /// (logical GPU, CTA, thread, role): a thread plays a role once.
    played: HashSet<(u32, u32, u32, usize)>,
}

/// Checks that host role `a` of instance `i` ran on a host thread of its
/// own.
fn check_host_role(
    layout: &Layout,
    k: &Knobs,
    i: usize,
    a: usize,
    name: &Name,
    ra: &[u32],
) -> Result<(), GpuError> {
    let on_host = ra[0] == HOST_PLACEMENT_TAG && ra[3] == HOST_PLACEMENT_TAG;
    // CPU threads r·T .. (r+1)·T play the r-th host role.
    let r = layout.roles[..a].iter().filter(|x| x.host).count();
    let per_role = k.host_threads as usize;
    let own = r * per_role..(r + 1) * per_role;
    if !on_host || ra[2] != a as u32 || !own.contains(&(ra[1] as usize)) {
        return Err(GpuError::Placement(format!(
            "instance {i}: host thread `{name}` did not run on a host thread of its own (record {ra:?})"
        )));
    }
    Ok(())
}

/// Checks that GPU role `a` of instance `i` ran on the GPU, on its logical
/// GPU, and on a thread that played it for no other instance; notes where.
fn check_gpu_role(
    layout: &Layout,
    multi: bool,
    i: usize,
    a: usize,
    name: &Name,
    ra: &[u32],
    seen: &mut Seen,
) -> Result<(), GpuError> {
    if ra[0] == HOST_PLACEMENT_TAG || ra[3] == HOST_PLACEMENT_TAG {
        return Err(GpuError::Placement(format!(
            "instance {i}: thread `{name}` is declared on the GPU but a host thread recorded it"
        )));
    }
    // On several GPUs the third word is the logical GPU the role
    // ran on; on one it is `%warpid`, which no check reads.
    let gpu_of = |r: &[u32]| if multi { r[2] } else { 0 };
    if multi && ra[2] != layout.roles[a].gpu {
        return Err(GpuError::Placement(format!(
            "instance {i}: thread `{name}` is placed on GPU {} but ran on logical GPU {}",
            layout.roles[a].gpu, ra[2]
        )));
    }
    if !seen.played.insert((gpu_of(ra), ra[0], ra[1], a)) {
        return Err(GpuError::Placement(format!(
            "thread {} of CTA {} played role {a} twice",
            ra[1], ra[0]
        )));
    }
    seen.sms.insert((gpu_of(ra), ra[3]));
    seen.gpus.insert(gpu_of(ra));
    Ok(())
}

/// Checks that GPU roles `a` and `b` of instance `i` shared a CTA, a
/// cluster and a warp exactly where the test declares them to.
fn check_pair(
    test: &Test,
    layout: &Layout,
    i: usize,
    (a, ra): (usize, &[u32]),
    (b, rb): (usize, &[u32]),
) -> Result<(), GpuError> {
    let (da, db): (&Role, &Role) = (&layout.roles[a], &layout.roles[b]);
    if da.gpu != db.gpu {
        // Different GPUs share no CTA, cluster or warp; each
        // ran on its own GPU (checked above).
        return Ok(());
    }
    let declared_same = da.cta_offset == db.cta_offset;
    if declared_same != (ra[0] == rb[0]) {
        return Err(GpuError::Placement(format!(
            "instance {i}: threads `{}` and `{}` are declared in {} CTAs but ran in CTAs {} and {}",
            test.threads[a].name,
            test.threads[b].name,
            if declared_same {
                "the same"
            } else {
                "different"
            },
            ra[0],
            rb[0]
        )));
    }
    let size = layout.cluster_size;
    let same_cluster = da.cluster_offset == db.cluster_offset;
    if same_cluster != (ra[0] / size == rb[0] / size) {
        return Err(GpuError::Placement(format!(
            "instance {i}: threads `{}` and `{}` are declared in {} clusters but ran in CTAs {} and {} (clusters of {size})",
            test.threads[a].name,
            test.threads[b].name,
            if same_cluster { "the same" } else { "different" },
            ra[0],
            rb[0]
        )));
    }
    if let (Some(wa), Some(wb)) = (da.warp, db.warp) {
        if declared_same && (wa == wb) != (ra[1] / 32 == rb[1] / 32) {
            return Err(GpuError::Placement(format!(
                "instance {i}: threads `{}` and `{}` are declared in {} warps but ran in threads {} and {} of CTA {}",
                test.threads[a].name,
                test.threads[b].name,
                if wa == wb { "the same" } else { "different" },
                ra[1],
                rb[1],
                ra[0]
            )));
        }
    }
    Ok(())
}
