//! The memory of a run: the buffers that hold the test's locations, the
//! host's view of page-locked memory and the copies of the start flag in
//! it, the fills that reset locations between launches, and the shared
//! memory that caps occupancy. Apart from `harness.rs` for its length.

use cudarc::driver::sys;

use litmus_core::ir::Test;
use litmus_ptx::layout::{start_mode, START_FLAG_COPIES};
use litmus_ptx::Layout;

use super::slots;
use crate::aliasing::Texture;
use crate::arrangement::LocLayout;
use crate::devices::Devices;
use crate::driver::{Buffer, Context};
use crate::host_threads;
use crate::knobs::Knobs;
use crate::GpuError;

/// The buffers that hold the test's locations, and the textures over them.
pub(super) struct Locations {
    pub(super) mem: Buffer,
    pub(super) remote_mem: Vec<Buffer>,
    pub(super) textures: Vec<Texture>,
    pub(super) host_mem: Option<Buffer>,
}

impl Locations {
    /// Allocates logical GPU 0's location buffer (aliased when the test has
    /// aliases), the other GPUs' ones, the textures and the host one.
    pub(super) fn alloc(
        devices: &Devices,
        layout: &Layout,
        mem_words: usize,
    ) -> Result<Locations, GpuError> {
        let ctx = devices.ctx(0);
        let mem = if layout.has_aliases() {
            ctx.alloc_aliased(mem_words, layout.views.len())?
        } else {
            ctx.alloc(mem_words)?
        };
        // Each texture spans the whole buffer, seen through its view, so
        // that its base is the mapping's (aligned) base and a slot's word
        // index is its texel.
        // Each in its GPU's context (which `alloc` makes current); the rest
        // of the set-up allocates in logical GPU 0's again.
        let remote_mem = layout
            .remote_homes()
            .into_iter()
            .map(|g| devices.ctx(g as usize).alloc(mem_words))
            .collect::<Result<Vec<_>, _>>()?;
        ctx.bind()?;
        let textures = layout
            .textures
            .iter()
            .map(|t| {
                let base = mem.view(t.view).ok_or_else(|| {
                    GpuError::Worker(format!("no view {} of the location buffer", t.view))
                })?;
                ctx.texture(base, mem_words)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let host_mem = match layout.host_slots.is_empty() {
            true => None,
            false => Some(ctx.alloc_host(mem_words)?),
        };
        Ok(Locations {
            mem,
            remote_mem,
            textures,
            host_mem,
        })
    }
}

/// How many copies of the start flag the test kernel reads, and so the
/// host keeps, lowers and raises: the CTA start's `LITMUS_GPU_FLAGS`
/// (clamped as the kernel clamps it), one for the other starts. Read
/// from the knob words the kernel gets, so that the two cannot disagree;
/// keeping all [`START_FLAG_COPIES`] cost each launch a fill of 1,024
/// words of host memory where it read one or two copies.
pub(super) fn flag_copies(layout: &Layout, words: &[u32]) -> usize {
    // One GPU has no start words: its launch always takes the relay start.
    if !layout.multi_gpu() {
        return 1;
    }
    match words[layout.gpu_start_knob()] {
        start_mode::RELAY | start_mode::PACED => 1,
        _ => (words[layout.gpu_flags_knob()] as usize).clamp(1, START_FLAG_COPIES),
    }
}

/// Raises every copy of the start flag the buffer holds (see
/// [`flag_copies`]).
pub(super) fn raise(go: &Buffer) -> Result<(), GpuError> {
    host_threads::raise(host_words(go)?);
    Ok(())
}

/// The host's view of page-locked memory; an error for device memory
/// (a buffer the set-up should have put in host memory).
pub(super) fn host_words(b: &Buffer) -> Result<&[std::sync::atomic::AtomicU32], GpuError> {
    b.host_words()
        .ok_or_else(|| GpuError::Host("a host buffer is not in host memory".into()))
}

/// The largest stride at which the harness may reset the locations' GPU
/// memory with a fill before each launch instead of the classifier's
/// scattered store per instance and location: a fill writes `stride`
/// words a slot in whole lines, a scattered store a 32-byte sector.
pub(super) const FILL_STRIDE: u32 = 8;

/// The fewest instances per launch at which a fill pays for its own launch.
/// On an H100 at stride 1 and 2M instances the fills made MP 13% and SB,
/// IRIW and WRC 11–14% faster; at 131,072 instances (the defaults) they
/// made every shape 2–13% slower.
pub(super) const FILL_MIN_INSTANCES: usize = 1 << 20;

/// The fills that reset the locations in GPU memory before each launch
/// (word offset, words, value), neighbouring locations with one initial
/// value in one fill. None past [`FILL_STRIDE`] or below
/// [`FILL_MIN_INSTANCES`], and none for slots in host memory, in another
/// GPU's memory (the fills run on logical GPU 0's stream, into its buffer)
/// or in the final condition, which the classifier resets as it reads
/// them.
pub(super) fn refills(
    layout: &Layout,
    test: &Test,
    n: usize,
    k: &Knobs,
) -> Vec<(usize, usize, u32)> {
    let mut fills: Vec<(usize, usize, u32)> = Vec::new();
    // Interleaved slots are no run of words a fill could reset apart
    // from the observed ones: the classifier resets them all.
    let interleaved = slots::effective(layout, test, k) == LocLayout::Interleaved;
    if k.stride > FILL_STRIDE || n < FILL_MIN_INSTANCES || interleaved {
        return fills;
    }
    let span = n * k.stride as usize;
    for (j, loc) in layout.global_locs.iter().enumerate() {
        if !layout.refillable(j) {
            continue;
        }
        let value = test.locations[*loc].init.value as u32;
        match fills.last_mut() {
            Some((offset, words, v)) if *v == value && *offset + *words == j * span => {
                *words += span;
            }
            _ => fills.push((j * span, span, value)),
        }
    }
    fills
}

/// Status words per instance: whether a role gave up on a loop, and the
/// instance's spin barrier. One word more follows them all: the grid-wide
/// spin barrier's ([`knob::SPIN_GRID`]).
pub(super) const STATUS_WORDS_PER_INSTANCE: usize = 2;

/// The dynamic shared memory each CTA of the test kernel asks for: what
/// its shared locations `need`, or, with a cap of `per_sm` CTAs an SM,
/// enough that no more than that fit (each resident CTA also holds the
/// driver's reserved share).
pub(super) fn shared_for_occupancy(ctx: &Context, need: u32, per_sm: u32) -> Result<u32, GpuError> {
    if per_sm == 0 {
        return Ok(need);
    }
    let attribute = |a| -> Result<u32, GpuError> { Ok(ctx.attribute(a)?.max(0) as u32) };
    let per_sm_bytes = attribute(
        sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
    )?;
    let block_max =
        attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?;
    let reserved =
        attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK)?;
    let pad = (per_sm_bytes / per_sm)
        .saturating_sub(reserved)
        .min(block_max);
    Ok(need.max(pad))
}

#[cfg(test)]
mod tests {
    use super::*;
    use litmus_text as text;

    const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    fn fills_of(src: &str, n: usize, stride: u32) -> Vec<(usize, usize, u32)> {
        let test = text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("t")));
        let layout = Layout::of(&test).unwrap();
        let k = Knobs {
            stride,
            ..Knobs::default()
        };
        refills(&layout, &test, n, &k)
    }

    #[test]
    fn large_launches_at_small_strides_refill_unobserved_locations_in_one_fill() {
        let n = FILL_MIN_INSTANCES;
        // x and y start at 0 and lie side by side: one fill of both.
        assert_eq!(fills_of(MP, n, 1), vec![(0, 2 * n, 0)]);
        let mp_init = MP.replace("y=0;", "y=7;");
        assert_eq!(
            fills_of(&mp_init, n, 2),
            vec![(0, 2 * n, 0), (2 * n, 2 * n, 7)]
        );
        // Too few instances, or too wide a stride: the classifier resets.
        assert!(fills_of(MP, n / 2, 1).is_empty());
        assert!(fills_of(MP, n, FILL_STRIDE + 1).is_empty());
    }

    #[test]
    fn locations_in_the_final_condition_are_not_refilled() {
        let two_plus_two_w = "PTX 2+2W\n{ x=0; y=0; z=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n st.relaxed.gpu y, 2 | st.relaxed.gpu x, 2 ;\n st.relaxed.gpu z, 1 | ;\nexists (x == 1 /\\ y == 1)\n";
        let n = FILL_MIN_INSTANCES;
        // Only z, the third location, is refilled.
        assert_eq!(fills_of(two_plus_two_w, n, 1), vec![(2 * n, n, 0)]);
    }
}
