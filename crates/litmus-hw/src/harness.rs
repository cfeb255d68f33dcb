//! Runs a test's generated kernels: buffers, knobs, the launch loop, the
//! histogram and the check that nothing was lost; `placement.rs` holds the
//! check that placement held.

use cudarc::driver::sys;
use std::time::Duration;

use litmus_core::ir::Test;
use litmus_ptx::layout::Mode;
use litmus_ptx::layout::{counter, knob, START_FLAG_SPACING};
use litmus_ptx::{layout, Layout};

use super::aliasing::Texture;
use super::devices::Devices;
use super::driver::{Buffer, Context, Function};
use super::host_threads::{self, Crew, HostRoles, Muster, Play};
use super::kernels::Kernels;
use super::knobs::Knobs;
use super::splitmix::splitmix;
use super::GpuError;

mod knob_words;
mod launches;
mod memory;
mod placement;
mod slots;
mod start;

use knob_words::{check_knobs, grid_spin_count, knob_words, permutation_words, stress_ctas};

use launches::{launch_until_done, Tally};
use memory::{
    flag_copies, host_words, raise, refills, shared_for_occupancy, Locations,
    STATUS_WORDS_PER_INSTANCE,
};
use start::{gpu_knobs, start_count, GpuKnobs, KNOBS_PARAM};

pub(crate) use placement::check_placement;
pub use placement::PlacementReport;

/// What a GPU run saw.
#[derive(Clone, Debug)]
pub struct HwResult {
    /// Outcome (values of the test's observables, in order) → count,
    /// most frequent first.
    pub histogram: Vec<(Vec<u32>, u64)>,
    /// Instances in which some role gave up on a loop.
    pub unfinished: u64,
    /// Kernel launches made.
    pub launches: u64,
    /// Instances run: launches × instances per launch (the knobs' CTAs ×
    /// threads, over the cluster size for a test with clusters).
    pub instances: u64,
    /// Wall time of the launch loop (set-up excluded).
    pub wall: Duration,
    /// The GPU's name, as the driver reports it.
    pub device: String,
    /// How the module was built for it: target, PTX version, toolchain.
    pub build: super::toolchain::Build,
    /// The knobs the run used.
    pub knobs: Knobs,
    /// CPU threads that played the host roles each launch (0: the test
    /// has none).
    pub host_threads: u32,
}

impl HwResult {
    /// Instances per second of wall time.
    pub fn rate(&self) -> f64 {
        self.instances as f64 / self.wall.as_secs_f64().max(1e-9)
    }
}

/// The buffers and kernels of one test on its GPUs; every buffer in logical
/// GPU 0's memory (or page-locked host memory) but the location buffers of
/// the other GPUs that hold locations.
struct Setup {
    layout: Layout,
    /// Per logical GPU: its test kernel, `None` for a GPU no role is
    /// placed on (it launches nothing).
    test_fns: Vec<Option<Function>>,
    classify_fn: Function,
    /// The texture objects of the test's texture aliases, in
    /// [`Layout::textures`] order (kernel parameters `p_tex0`...). Before
    /// `mem`, so that they are destroyed before the memory they read.
    textures: Vec<Texture>,
    mem: Buffer,
    /// Per logical GPU of [`Layout::remote_homes`], in that order: its
    /// location buffer, in its own memory and laid out like `mem` (only
    /// the slots of the locations it holds are used). Kernel parameters
    /// `p_mem1`...; every GPU reaches it by peer access.
    remote_mem: Vec<Buffer>,
    /// The fills that reset the locations' GPU memory before each launch
    /// (word offset, words, value); empty when the classifier resets them.
    fills: Vec<(usize, usize, u32)>,
    /// The registers the GPU roles store for the classifier.
    regs: Buffer,
    /// The registers the host roles store, in page-locked memory laid out
    /// like `regs` (the GPU roles' words of it go unused), for a test with
    /// host threads.
    host_regs: Option<Buffer>,
    shfinal: Buffer,
    status: Buffer,
    knobs_buf: Buffer,
    /// The other launching logical GPUs' knob words (index: logical GPU;
    /// `None` for GPU 0, whose are `words` and `knobs_buf`, and for a GPU
    /// that plays no role): a GPU's launches pass its own words, and its
    /// roles poll their start relay word in their own memory.
    gpu_knobs: Vec<Option<GpuKnobs>>,
    table: Buffer,
    counters: Buffer,
    scratch: Buffer,
    /// The host locations' page-locked buffer, laid out like `mem` (so
    /// that the kernels' address arithmetic is the same for both; the
    /// device slots of it, like the host slots of `mem`, go unused).
    host_mem: Option<Buffer>,
    /// The host roles, for a test with host threads.
    host: Option<HostRoles>,
    /// The start flag in page-locked host memory, for a test with host
    /// threads (they raise it) or on several GPUs (the host raises it once
    /// every GPU's kernel is queued): every GPU role polls it first.
    go: Option<Buffer>,
    /// The knob words, which the host roles read too.
    words: Vec<u32>,
    shared_bytes: u32,
    shape: Shape,
    n: usize,
    /// Whether each launch's kernels go in as programmatic dependents of
    /// the kernel before them (`codegen::on_device`): where the module's
    /// kernels wait for it, and nothing but kernels runs between launches
    /// (one GPU, no start flag, no fills).
    dependent: bool,
}

/// The launch shape of the test kernel.
#[derive(Clone, Copy, Debug)]
struct Shape {
    /// CTAs that run the test (stress CTAs come after them).
    grid: u32,
    block: u32,
    /// Units of instances: CTAs, or groups of 32 instances in role-per-warp
    /// mode; a power of two.
    units: u32,
    /// Instances per unit; a power of two.
    slots: u32,
}

impl Shape {
    /// Keeps the knobs' instances per launch (`ctas × threads`) in both
    /// modes, and makes room for what the test declares: CTAs wide enough
    /// for its declared warps, enough CTAs for its declared CTAs.
    fn of(layout: &Layout, k: &Knobs) -> Shape {
        // The CPU plays an instance far slower than the GPU: a test with
        // host threads runs fewer per launch (see `Knobs::host_instances`).
        let instances = if layout.has_host_roles() {
            k.instances_with_host() as u32
        } else {
            k.ctas * k.threads
        };
        match &layout.mode {
            Mode::EveryRole => {
                // A unit is a cluster (a single CTA without clusters): as
                // many CTAs in all as the knobs say.
                let size = layout.cluster_size;
                let threads = k.threads.max((32 * layout.warps).next_power_of_two());
                let units = (instances / threads / size)
                    .max(layout.clusters.next_power_of_two())
                    .max(1);
                Shape {
                    grid: units * size,
                    block: threads,
                    units,
                    slots: threads,
                }
            }
            Mode::RolePerWarp { ctas, warps, .. } => {
                // At least one group: CTAs narrower than a warp may ask
                // for fewer than 32 instances.
                let groups = (instances / 32).max(1);
                Shape {
                    grid: groups * ctas,
                    block: 32 * warps,
                    units: groups,
                    slots: 32,
                }
            }
        }
    }
}

impl Setup {
    fn new(devices: &Devices, test: &Test, k: &Knobs) -> Result<Setup, GpuError> {
        let ctx = devices.ctx(0);
        let layout = Layout::of(test).map_err(GpuError::Ptx)?;
        check_knobs(&layout, k)?;
        let test_fns: Vec<Option<Function>> = (0..devices.gpus())
            .map(|g| (!layout.roles_on(g as u32).is_empty()).then(|| devices.test_fn(g)))
            .collect();
        let classify_fn = devices.classify_fn();
        let shape = Shape::of(&layout, k);
        let n = (shape.units * shape.slots) as usize;
        let stride = k.stride as usize;
        // Every shared location's slots, each as wide as the layout says
        // (a word; an mbarrier's 8 bytes; a bulk copy's size).
        let shared_bytes = layout.shared_bytes(shape.slots);
        let shared_bytes = shared_for_occupancy(ctx, shared_bytes, k.ctas_per_sm)?;
        if shared_bytes > 48 * 1024 {
            for f in test_fns.iter().flatten() {
                f.allow_shared(shared_bytes)?;
            }
        }
        let mut words = knob_words(&layout, &shape, n, k);
        words[knob::SPIN_GRID] = grid_spin_count(&layout, &shape, k);
        let grid = shape.grid + stress_ctas(&layout, k);
        words[knob::START_COUNT] =
            start_count(devices, &test_fns, grid, shape.block, shared_bytes)?;
        let fills = refills(&layout, test, n, k);
        words[knob::RESET_BY_FILL] = u32::from(!fills.is_empty());
        permutation_words(&layout, k, &mut words);
        slots::layout_words(&layout, test, k, n, &mut words);
        let knobs_buf = ctx.alloc(words.len())?;
        knobs_buf.write(&words)?;
        let gpu_knobs = gpu_knobs(devices, &layout, &test_fns, &words, k)?;
        let mem_words = layout.global_locs.len().max(1) * n * stride;
        // Destructured in declaration order, so that on an error below
        // they are dropped as the locals they were: textures before `mem`.
        let Locations {
            mem,
            remote_mem,
            textures,
            host_mem,
        } = Locations::alloc(devices, &layout, mem_words)?;
        let host = HostRoles::of(test, &layout)?;
        let go = match layout.has_start_flag() {
            true => Some(ctx.alloc_host(flag_copies(&layout, &words) * START_FLAG_SPACING)?),
            false => None,
        };
        let dependent =
            devices.kernels_wait() && !layout.multi_gpu() && go.is_none() && fills.is_empty();
        // The host roles store their registers in page-locked memory, the
        // GPU roles theirs in device memory; the classifier reads each
        // where it is, so only the host's cross the bus.
        let regs_words = n * layout.stored_regs.len();
        let regs = ctx.alloc(regs_words)?;
        let host_regs = match host {
            Some(_) => Some(ctx.alloc_host(regs_words)?),
            None => None,
        };
        Ok(Setup {
            mem,
            remote_mem,
            fills,
            textures,
            regs,
            host_regs,
            host_mem,
            host,
            go,
            words,
            shfinal: ctx.alloc(n * layout.shared_locs.len())?,
            status: ctx.alloc(STATUS_WORDS_PER_INSTANCE * n + 1)?,
            table: ctx.alloc(k.table as usize * layout.entry_words())?,
            counters: ctx.alloc(2 * counter::COUNT)?,
            scratch: ctx.alloc(k.env.scratch_words())?,
            knobs_buf,
            gpu_knobs,
            layout,
            test_fns,
            classify_fn,
            shared_bytes,
            shape,
            n,
            dependent,
        })
    }

    /// Sets every location to its initial value; after that the classifier
    /// resets what each launch changed.
    fn reset(&self, devices: &Devices, test: &Test, k: &Knobs) -> Result<(), GpuError> {
        let s0 = devices.stream(0);
        let span = self.n * k.stride as usize;
        let remote = self.layout.remote_homes();
        let laid = slots::effective(&self.layout, test, k);
        let locations = self.layout.global_locs.len();
        for (j, loc) in self.layout.global_locs.iter().enumerate() {
            let value = test.locations[*loc].init.value as u32;
            if self.layout.in_remote_memory(j) {
                // On the stream of the GPU that holds it, in its context.
                let g = self.layout.homes[j];
                let i = remote.iter().position(|&h| h == g);
                let Some(buffer) = i.and_then(|i| self.remote_mem.get(i)) else {
                    return Err(GpuError::Worker(format!(
                        "no location buffer on logical GPU {g}"
                    )));
                };
                devices.ctx(g as usize).bind()?;
                let (offset, words) = slots::region(laid, locations, j, span);
                buffer.fill(devices.stream(g as usize), offset, words, value)?;
                continue;
            }
            let buffer = match &self.host_mem {
                Some(host) if self.layout.in_host_memory(j) => host,
                _ => &self.mem,
            };
            let (offset, words) = slots::region(laid, locations, j, span);
            buffer.fill(s0, offset, words, value)?;
        }
        if !remote.is_empty() {
            // The other GPUs' fills are done before GPU 0's first kernel,
            // which does not wait on their streams; this also makes logical
            // GPU 0's context current again.
            devices.synchronize()?;
        }
        self.status
            .fill(s0, 0, STATUS_WORDS_PER_INSTANCE * self.n + 1, 0)
    }

    /// Queues launch number `index`: run the test, fold its outcomes
    /// (which resets memory for the next launch). The launch's seed, from
    /// which the kernel draws its environment, comes from the run's seed
    /// and the index, so a run is reproduced by its knobs. With host roles
    /// the host threads play them while the test kernel runs; on several
    /// GPUs each logical GPU launches the test kernel on its own stream,
    /// the host raises the start flag once all are queued, and the
    /// classifier on logical GPU 0 waits for every one. Either way the
    /// launch waits for the classifier: the start flag lines the GPU roles
    /// up only when they were queued on idle GPUs.
    fn launch(
        &self,
        devices: &Devices,
        k: &Knobs,
        index: u64,
        place: Option<&Buffer>,
        crew: Option<&Crew>,
    ) -> Result<(), GpuError> {
        let s0 = devices.stream(0);
        let mut params = self.test_params(k, index, place);
        for &(offset, words, value) in &self.fills {
            self.mem.fill(s0, offset, words, value)?;
        }
        if let Some(go) = &self.go {
            // Down before the kernels start: their GPU roles wait for it.
            go.fill(s0, 0, go.words(), 0)?;
            params.push(go.ptr());
            // The count their relay words reach once every launch this
            // time has counted in (`wait_for_host` in the kernel): the
            // `index` launches before this one on this set-up each counted
            // in once at every launching GPU's word, which is never reset.
            let launching = u64::from(self.layout.launching_gpus());
            params.push(index * launching + u64::from(self.words[knob::START_COUNT]));
        }
        // The first launch follows the fills of the reset, which are no
        // kernel to depend on.
        let dependent = self.dependent && index > 0;
        let queued = self.queue_tests(devices, k, &params, dependent);
        if let Err(e) = queued {
            self.release_queued(devices)?;
            return Err(e);
        }
        if self.layout.multi_gpu() {
            devices.ctx(0).bind()?;
        }
        self.play_host(devices, crew)?;
        if let (None, Some(go)) = (&self.host, &self.go) {
            // Every GPU's kernel is queued: release them together.
            raise(go)?;
        }
        self.queue_classify(devices, self.dependent)?;
        if self.go.is_some() {
            // The next launch lowers the start flag, which no kernel of
            // this one may still be waiting for; and the classifier resets
            // the host locations, which the next host threads must not
            // touch before it is done.
            devices.synchronize()?;
        }
        Ok(())
    }

    /// The test kernel's parameters for launch number `index`, up to the
    /// start flag.
    fn test_params(&self, k: &Knobs, index: u64, place: Option<&Buffer>) -> Vec<u64> {
        let mut state = k.seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let launch_seed = splitmix(&mut state) & 0xffff_ffff;
        let mut params = vec![
            self.mem.ptr(),
            self.regs.ptr(),
            self.shfinal.ptr(),
            self.status.ptr(),
            self.knobs_buf.ptr(),
            place.map_or(0, Buffer::ptr),
            self.scratch.ptr(),
            launch_seed,
        ];
        // A test with aliases takes the views' bases, then the textures;
        // one with host memory its buffer, one with host threads or on
        // several GPUs the start flag, one on several GPUs its logical GPU.
        params.extend((1..=self.layout.views.len()).filter_map(|v| self.mem.view(v)));
        params.extend(self.textures.iter().map(Texture::handle));
        params.extend(self.host_mem.as_ref().map(Buffer::ptr));
        params
    }

    /// After a failed queueing: releases the kernels queued before the
    /// failure, which wait for the flag, and lets them finish before the
    /// error tears the buffers down.
    fn release_queued(&self, devices: &Devices) -> Result<(), GpuError> {
        if let Some(go) = &self.go {
            raise(go)?;
        }
        let _ = devices.synchronize();
        Ok(())
    }

    /// Logical GPU `g`'s copy of the knob words in its memory, and the
    /// words its launches pass.
    fn knobs_of(&self, g: usize) -> (&Buffer, &[u32]) {
        match self.gpu_knobs.get(g).and_then(Option::as_ref) {
            Some(own) => (&own.buf, &own.words),
            None => (&self.knobs_buf, &self.words),
        }
    }

    /// Queues the classifier on logical GPU 0's stream, as a dependent of
    /// the test kernel with `dependent`.
    fn queue_classify(&self, devices: &Devices, dependent: bool) -> Result<(), GpuError> {
        let mut classify = vec![
            self.mem.ptr(),
            self.regs.ptr(),
            self.shfinal.ptr(),
            self.status.ptr(),
            self.table.ptr(),
            self.counters.ptr(),
        ];
        classify.extend(self.host_mem.as_ref().map(Buffer::ptr));
        classify.extend(self.remote_mem.iter().map(Buffer::ptr));
        classify.extend(self.host_regs.as_ref().map(Buffer::ptr));
        self.classify_fn.launch(
            devices.stream(0),
            (
                self.n.div_ceil(layout::CLASSIFY_BLOCK as usize) as u32,
                layout::CLASSIFY_BLOCK,
                0,
            ),
            &classify,
            &self.words,
            dependent,
        )
    }

    /// Queues the test kernel on every logical GPU that plays roles, each
    /// on its stream after logical GPU 0's fills, and orders logical GPU
    /// 0's next work (the classifier) after all of them; with `dependent`
    /// as a dependent of the kernel before it (one GPU only).
    fn queue_tests(
        &self,
        devices: &Devices,
        k: &Knobs,
        params: &[u64],
        dependent: bool,
    ) -> Result<(), GpuError> {
        devices.line_up()?;
        let grid = self.shape.grid + stress_ctas(&self.layout, k);
        // Every launching GPU's start relay word, in its copy of the knobs:
        // each launch counts in at all of them.
        let relays: Vec<u64> = match self.layout.multi_gpu() {
            true => self
                .test_fns
                .iter()
                .enumerate()
                .filter(|(_, f)| f.is_some())
                .map(|(h, _)| self.knobs_of(h).0.ptr() + 4 * knob::START_RELAY as u64)
                .collect(),
            false => Vec::new(),
        };
        for (g, f) in self.test_fns.iter().enumerate() {
            let Some(f) = f else { continue };
            let mut p = params.to_vec();
            let (buf, words) = self.knobs_of(g);
            if self.layout.multi_gpu() {
                // A kernel launches in the current context: its GPU's.
                devices.ctx(g).bind()?;
                p[KNOBS_PARAM] = buf.ptr();
                p.push(g as u64);
                p.extend(&relays);
            }
            // After the logical GPU: the other GPUs' location buffers.
            p.extend(self.remote_mem.iter().map(Buffer::ptr));
            f.launch(
                devices.stream(g),
                (grid, self.shape.block, self.shared_bytes),
                &p,
                words,
                dependent,
            )?;
        }
        devices.join()
    }

    /// Runs `f` with the CPU threads that play the host roles started, for
    /// a test with host roles (`None` for the others), and stops them when
    /// `f` returns. `place` is the placement buffer of the launches `f`
    /// makes, if they record placements.
    fn with_crew<R>(
        &self,
        k: &Knobs,
        place: Option<&Buffer>,
        f: impl FnOnce(Option<&Crew>) -> Result<R, GpuError>,
    ) -> Result<R, GpuError> {
        let (Some(roles), Some(go), Some(regs)) = (&self.host, &self.go, &self.host_regs) else {
            return f(None);
        };
        let empty: [std::sync::atomic::AtomicU32; 0] = [];
        let mem = match &self.host_mem {
            Some(b) => host_words(b)?,
            None => &empty,
        };
        let place = match place {
            Some(b) => Some(host_words(b)?),
            None => None,
        };
        let play = Play {
            mem,
            regs: host_words(regs)?,
            place,
            go: host_words(go)?,
            words: &self.words,
            n: self.n,
            threads: k.host_threads as usize,
            loop_bound: k.loop_bound,
        };
        let muster = Muster::default();
        std::thread::scope(|s| f(Some(&Crew::start(s, roles, &play, &muster)?)))
    }

    /// With host roles: plays them on the crew's CPU threads while the
    /// test kernels run, then marks the instances in which one gave up on
    /// a loop unfinished in the status words (GPU memory, so through a
    /// copy once the kernels are done; only tests with loops ever need
    /// it).
    fn play_host(&self, devices: &Devices, crew: Option<&Crew>) -> Result<(), GpuError> {
        if self.host.is_none() {
            return Ok(());
        }
        let Some(crew) = crew else {
            self.release_queued(devices)?;
            return Err(GpuError::Host(
                "a launch with host roles was made without their CPU threads".into(),
            ));
        };
        let played = crew.launch();
        let gave_up = match played {
            Ok(g) => g,
            Err(e) => {
                // The kernels still run (the flag is up): let them finish
                // before the error tears the buffers down.
                let _ = devices.synchronize();
                return Err(e);
            }
        };
        if !gave_up.is_empty() {
            devices.synchronize()?;
            let mut status = self.status.read()?;
            for i in gave_up {
                if let Some(w) = status.get_mut(i as usize) {
                    *w = 1;
                }
            }
            self.status.write(&status)?;
        }
        Ok(())
    }
}

/// The knobs a test runs with: on several GPUs the multi-GPU profile
/// ([`Knobs::resolve_for_gpus`]), on one the lanes its layout takes
/// ([`super::arrangement::Lanes::resolve`]). The result names them, so
/// that its record says what ran: a record that names no lanes ran the
/// permuted ones, as every record did before `auto`. On one GPU
/// `perm=auto` needs no resolving: it always means the fixed permutation
/// there. The run and the placement check both take the knobs from here,
/// so the check sees the launches the run makes.
pub(super) fn profiled<'k>(layout: &Layout, k: &'k Knobs) -> std::borrow::Cow<'k, Knobs> {
    use std::borrow::Cow;
    let lanes = k.lanes.resolve(layout);
    match layout.multi_gpu() {
        true => Cow::Owned(k.resolve_for_gpus(layout.launching_gpus())),
        false if lanes != k.lanes => Cow::Owned(Knobs { lanes, ..k.clone() }),
        false => Cow::Borrowed(k),
    }
}

/// The knobs a run of `test` under `k` runs with ([`profiled`]): what its
/// result, and so its evidence record and its line that reproduces it,
/// must name. The worker's answer does not carry them.
pub(crate) fn knobs_ran(test: &Test, k: &Knobs) -> Result<Knobs, GpuError> {
    let layout = Layout::of(test).map_err(GpuError::Ptx)?;
    Ok(profiled(&layout, k).into_owned())
}

/// Runs the test for the knobs' launches or time budget and returns the
/// histogram. Checks that every instance was counted exactly once.
///
/// `ctx` is the worker's context (device 0) and `kernels` the test's
/// module loaded in it; a test on several GPUs, or a device map, may open
/// contexts on other devices, which load `ptx` again.
pub(crate) fn run(
    ctx: &Context,
    kernels: &Kernels,
    ptx: &str,
    test: &Test,
    k: &Knobs,
) -> Result<HwResult, GpuError> {
    let layout = Layout::of(test).map_err(GpuError::Ptx)?;
    let k = &*profiled(&layout, k);
    let devices = Devices::open(ctx, kernels, ptx, &layout, k)?;
    refuse_racing_host_atomics(&devices, test)?;
    super::peer_atomics::refuse_racing_peer_atomics(&devices, test)?;
    let setup = Setup::new(&devices, test, k)?;
    setup.reset(&devices, test, k)?;
    let (launches, wall) =
        setup.with_crew(k, None, |crew| launch_until_done(&devices, &setup, k, crew))?;
    let Tally {
        histogram,
        unfinished,
        overflow,
    } = Tally::read(&setup)?;
    let instances = launches * setup.n as u64;
    if overflow > 0 {
        return Err(GpuError::TableFull {
            entries: k.table,
            overflow,
        });
    }
    let counted = histogram.iter().map(|(_, c)| c).sum::<u64>() + unfinished;
    if counted != instances {
        return Err(GpuError::Lost {
            expected: instances,
            counted,
        });
    }
    Ok(HwResult {
        histogram,
        unfinished,
        launches,
        instances,
        wall,
        device: devices.describe(),
        build: kernels.build.clone(),
        knobs: k.clone(),
        host_threads: setup
            .host
            .as_ref()
            .map_or(0, |roles| roles.cpu_threads(k.host_threads as usize) as u32),
    })
}

/// Refuses a test whose GPU atomics race the host's on a GPU without
/// native host atomics: the run would not be faithful.
fn refuse_racing_host_atomics(devices: &Devices, test: &Test) -> Result<(), GpuError> {
    if let Some(race) = host_threads::gpu_atomic_racing_the_host(test) {
        let native = sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED;
        for g in 0..devices.gpus() {
            if devices.ctx(g).attribute(native)? == 0 {
                return Err(GpuError::Unfaithful(race));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use litmus_ptx::layout::START_FLAG_COPIES;
    use litmus_text as text;

    const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    /// The host keeps the copies of the start flag the kernel reads: the
    /// CTA start's count (the profile's two across GPUs, clamped as the
    /// kernel clamps it), one for the relay start and on one GPU.
    #[test]
    fn the_host_keeps_the_copies_of_the_start_flag_the_kernel_reads() {
        let copies = |src: &str, k: &Knobs| {
            let test = text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("t")));
            let layout = Layout::of(&test).unwrap();
            let k = knobs_ran(&test, k).unwrap();
            let words = knob_words(&layout, &Shape::of(&layout, &k), 1024, &k);
            flag_copies(&layout, &words)
        };
        let two = MP.replace("P1@cta 1,gpu 0", "P1@cta 0,gpu 1");
        assert_eq!(copies(&two, &Knobs::default()), 2);
        let cta = |flags| Knobs {
            gpu_start: crate::GpuStart::Cta,
            gpu_flags: flags,
            ..Knobs::default()
        };
        assert_eq!(copies(&two, &cta(5)), 5);
        assert_eq!(copies(&two, &cta(99)), START_FLAG_COPIES);
        let relay = Knobs {
            gpu_start: crate::GpuStart::Relay,
            gpu_flags: 4,
            ..Knobs::default()
        };
        assert_eq!(copies(&two, &relay), 1);
        // One GPU with a host thread: the relay start, one copy.
        let host = "PTX MP+host\n{ host x=0; host y=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.relaxed.sys x, 1 | ld.relaxed r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
        assert_eq!(copies(host, &cta(4)), 1);
    }

    /// A result names the knobs that ran: the multi-GPU profile's for a
    /// test on several GPUs (its record then reproduces the run), the
    /// knobs as given on one GPU, each with the lanes `auto` came to.
    #[test]
    fn a_result_names_the_multi_gpu_profile_it_ran_with() {
        let two = MP.replace("P1@cta 1,gpu 0", "P1@cta 0,gpu 1");
        let test = text::parse(&two).unwrap_or_else(|e| panic!("{}", e.render("t")));
        let ran = knobs_ran(&test, &Knobs::default()).unwrap();
        assert_eq!(
            ran.to_string(),
            "seed=0 perm=identity ctas=2048 threads=1024 budget_ms=1000 stride=4 spin=0 loop_bound=1000 gpu_start=cta gpu_flags=2"
        );
        assert_eq!(ran.lanes, crate::Lanes::Permuted);
        let one = text::parse(MP).unwrap();
        let ran = knobs_ran(&one, &Knobs::default()).unwrap();
        assert_eq!(
            ran,
            Knobs {
                lanes: crate::Lanes::Aligned,
                ..Knobs::default()
            }
        );
        assert_eq!(
            ran.to_string(),
            "seed=0 perm=auto ctas=2048 threads=64 budget_ms=1000 stride=4 spin=0 loop_bound=1000 lanes=aligned"
        );
        let cluster = MP
            .replace("P0@cta 0,gpu 0", "P0@cta 0,gpu 0,cluster 0")
            .replace("P1@cta 1,gpu 0", "P1@cta 1,gpu 0,cluster 0");
        let cluster = text::parse(&cluster).unwrap_or_else(|e| panic!("{}", e.render("t")));
        assert_eq!(
            knobs_ran(&cluster, &Knobs::default()).unwrap().lanes,
            crate::Lanes::Permuted
        );
        let asked = Knobs {
            lanes: crate::Lanes::Permuted,
            ..Knobs::default()
        };
        assert_eq!(knobs_ran(&one, &asked).unwrap(), asked);
    }
}
