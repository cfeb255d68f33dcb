//! How a launch with a start flag starts (a test with host threads or on
//! several GPUs): how long the GPU roles poll the flag, how many launches
//! each waits to see counted in, and each GPU's own copy of the knob
//! words, which holds its relay word, its instance renaming and its start
//! offset. The kernel's side is `wait_for_host`, `gpu_start_delay` and
//! `gpu_start_wait` in `litmus-ptx`'s `start.rs`.

use cudarc::driver::sys;

use litmus_ptx::layout::knob;
use litmus_ptx::Layout;

use super::super::devices::Devices;
use super::super::driver::{Buffer, Function};
use super::super::knobs::Knobs;
use super::super::GpuError;

/// Polls of the start flag before a GPU thread plays its roles anyway: a
/// poll of page-locked memory crosses the bus (about a microsecond), so
/// about a second; the host raises it within microseconds of the launch
/// (of the last GPU's launch, on several GPUs), and raises it even when
/// its threads or a launch fail, so the bound only matters for a host
/// that died.
pub(super) const HOST_WAIT_POLLS: u32 = 1 << 20;

/// Where the knob words' address sits among the test kernel's parameters.
pub(super) const KNOBS_PARAM: usize = 4;

/// Logical GPU `g`'s own knob words (`g > 0`): its instance renaming and
/// start offset in place of GPU 0's.
pub(super) struct GpuKnobs {
    /// The copy in the GPU's memory, which holds its start relay word.
    pub(super) buf: Buffer,
    /// The words its launches pass by value.
    pub(super) words: Vec<u32>,
}

/// The knob words of each launching logical GPU but GPU 0 (see
/// `Setup::gpu_knobs`), with a copy in that GPU's memory; logical GPU 0's
/// context is current again afterwards.
pub(super) fn gpu_knobs(
    devices: &Devices,
    layout: &Layout,
    test_fns: &[Option<Function>],
    words: &[u32],
    k: &Knobs,
) -> Result<Vec<Option<GpuKnobs>>, GpuError> {
    let mut out = Vec::with_capacity(test_fns.len());
    for (g, f) in test_fns.iter().enumerate() {
        if g == 0 || f.is_none() {
            out.push(None);
            continue;
        }
        let mut own = words.to_vec();
        let (m, a) = k.gpu_partners.of_gpu(g, k.seed);
        own[knob::GPU_PARTNER_MUL] = m;
        own[knob::GPU_PARTNER_ADD] = a;
        own[layout.gpu_delay_knob()] = k.gpu_delay(g as u32, layout.gpus);
        let buf = devices.ctx(g).alloc(own.len())?;
        buf.write(&own)?;
        out.push(Some(GpuKnobs { buf, words: own }));
    }
    devices.ctx(0).bind()?;
    Ok(out)
}

/// How many launches each launch with a start flag waits to see counted
/// in ([`knob::START_COUNT`]): all of them when, on every device, the CTAs
/// of the launches it runs can be resident at once; else 1, since a launch
/// that waited for one that can start only once it ends would wait out its
/// bound every time (two logical GPUs on one device, 2^20 instances each).
pub(super) fn start_count(
    devices: &Devices,
    test_fns: &[Option<Function>],
    grid: u32,
    block: u32,
    shared_bytes: u32,
) -> Result<u32, GpuError> {
    let launching: Vec<(usize, Function)> = test_fns
        .iter()
        .enumerate()
        .filter_map(|(g, f)| f.map(|f| (g, f)))
        .collect();
    if launching.len() <= 1 {
        return Ok(1);
    }
    // Per physical device: the CTAs launched on it, and how many it holds.
    let mut per_device: std::collections::BTreeMap<u32, (u64, u64)> = Default::default();
    for (g, f) in &launching {
        let ctx = devices.ctx(*g);
        let (ctas, _) = match per_device.entry(ctx.ordinal) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(e) => {
                let sms = ctx
                    .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
                let per_sm = f.resident_ctas_per_sm(block, shared_bytes)?;
                e.insert((0, sms.max(0) as u64 * u64::from(per_sm)))
            }
        };
        *ctas += u64::from(grid);
    }
    let all_resident = per_device.values().all(|(ctas, room)| ctas <= room);
    Ok(if all_resident {
        launching.len() as u32
    } else {
        1
    })
}
