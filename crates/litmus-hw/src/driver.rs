//! A thin safe layer over the CUDA driver API (cudarc's `sys`, loaded at run
//! time): a context of our own per device, modules loaded with the JIT
//! log, device buffers, streams and events, launches on explicit streams
//! (so that the kernels of two logical GPUs on one device can overlap).
//!
//! Why not cudarc's safe layer: the hot loop issues thousands of launches,
//! and the safe layer's per-argument event tracking costs more than the
//! kernels; and a run owns its context from start to end, which is
//! simplest with a context we created ourselves.

use std::ffi::{c_void, CStr, CString};
use std::ptr;
use std::sync::atomic::{AtomicU32, Ordering};

use cudarc::driver::sys;
use litmus_ptx::isa::SmArch;

use super::GpuError;

/// Turns a driver status into a `Result`, naming the call.
pub(super) fn check(call: &'static str, status: sys::CUresult) -> Result<(), GpuError> {
    if status == sys::CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    let mut name: *const std::ffi::c_char = ptr::null();
    let mut text: *const std::ffi::c_char = ptr::null();
    // SAFETY: the driver fills in pointers to static strings, or leaves them null.
    unsafe {
        sys::cuGetErrorName(status, &mut name);
        sys::cuGetErrorString(status, &mut text);
    }
    let read = |p: *const std::ffi::c_char| {
        if p.is_null() {
            format!("{status:?}")
        } else {
            // SAFETY: non-null pointers from the driver are NUL-terminated statics.
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
    };
    let (name, text) = (read(name), read(text));
    let fault = matches!(
        status,
        sys::CUresult::CUDA_ERROR_ILLEGAL_ADDRESS
            | sys::CUresult::CUDA_ERROR_MISALIGNED_ADDRESS
            | sys::CUresult::CUDA_ERROR_ILLEGAL_INSTRUCTION
            | sys::CUresult::CUDA_ERROR_INVALID_PC
            | sys::CUresult::CUDA_ERROR_LAUNCH_FAILED
            | sys::CUresult::CUDA_ERROR_HARDWARE_STACK_ERROR
            | sys::CUresult::CUDA_ERROR_LAUNCH_TIMEOUT
    );
    if fault {
        Err(GpuError::Fault {
            test: String::new(),
            call: call.to_string(),
            name,
            text,
        })
    } else {
        Err(GpuError::Driver {
            call: call.to_string(),
            name,
            text,
        })
    }
}

/// Whether a driver library can be opened at all. cudarc panics on the
/// first call when it cannot, so this comes first.
pub fn driver_present() -> bool {
    // SAFETY: only tries to open the library.
    unsafe { sys::is_culib_present() }
}

/// The CUDA release of the driver (`12040` for 12.4), which sets the
/// highest PTX ISA its JIT reads
/// ([`PtxIsa::of_cuda`](litmus_ptx::isa::PtxIsa::of_cuda)).
pub fn cuda_version() -> Result<u32, GpuError> {
    let mut v = 0;
    // SAFETY: valid out-pointer; answers without cuInit.
    check("cuDriverGetVersion", unsafe {
        sys::cuDriverGetVersion(&mut v)
    })?;
    Ok(v.max(0) as u32)
}

/// The driver as a toolchain's name: `driver JIT 580.159.04` (the kernel
/// module's version, which users know their driver by), or the CUDA
/// release where the module's version cannot be read.
pub fn jit_name() -> Result<String, GpuError> {
    let module = std::fs::read_to_string("/sys/module/nvidia/version")
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty());
    Ok(match module {
        Some(v) => format!("driver JIT {v}"),
        None => {
            let c = cuda_version()?;
            format!("driver JIT (CUDA {}.{})", c / 1000, c % 1000 / 10)
        }
    })
}

/// A context on one device, current on the calling thread while in use.
pub struct Context {
    ctx: sys::CUcontext,
    /// The device the context is on (for attributes and allocations).
    pub(super) dev: sys::CUdevice,
    pub name: String,
    /// The device's ordinal (0 for the first).
    pub ordinal: u32,
    /// The device's architecture (`sm_90` for compute capability 9.0):
    /// the target its modules are compiled for.
    pub arch: SmArch,
}

/// The number of devices the driver sees (initialising it first); 0 when
/// the driver is there but no device is. [`GpuError::NoDriver`] without a
/// driver.
pub fn device_count() -> Result<u32, GpuError> {
    if !driver_present() {
        return Err(GpuError::NoDriver);
    }
    // SAFETY: plain driver calls with valid out-pointers.
    unsafe {
        // A driver without a device (a CI image with libcuda) answers
        // NO_DEVICE here: that is no GPU, not a broken one.
        let status = sys::cuInit(0);
        if status == sys::CUresult::CUDA_ERROR_NO_DEVICE {
            return Ok(0);
        }
        check("cuInit", status)?;
        let mut count = 0;
        check("cuDeviceGetCount", sys::cuDeviceGetCount(&mut count))?;
        Ok(count.max(0) as u32)
    }
}

/// The name and architecture number (90 for `sm_90`) of every device the
/// driver sees, by ordinal, without opening a context on any (a context
/// costs device memory on a device that a campaign may not use). Empty
/// when the driver is there but no device is.
pub fn device_names() -> Result<Vec<(String, u32)>, GpuError> {
    let count = device_count()?;
    (0..count)
        .map(|ordinal| {
            let (dev, name) = device_and_name(ordinal)?;
            Ok((name, arch_of(dev)?.number()))
        })
        .collect()
}

/// Device `dev`'s architecture, from its compute capability.
fn arch_of(dev: sys::CUdevice) -> Result<SmArch, GpuError> {
    let capability = |attr| {
        let mut v = 0;
        // SAFETY: a plain driver call with a valid out-pointer.
        check("cuDeviceGetAttribute", unsafe {
            sys::cuDeviceGetAttribute(&mut v, attr, dev)
        })
        .map(|()| v.max(0) as u32)
    };
    Ok(SmArch::of_capability(
        capability(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
        capability(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
    ))
}

/// Device `ordinal`'s handle and name (after `cuInit`, which
/// [`device_count`] makes).
fn device_and_name(ordinal: u32) -> Result<(sys::CUdevice, String), GpuError> {
    // SAFETY: plain driver calls with valid out-pointers.
    unsafe {
        let mut dev = 0;
        check("cuDeviceGet", sys::cuDeviceGet(&mut dev, ordinal as i32))?;
        let mut raw = [0 as std::ffi::c_char; 256];
        check(
            "cuDeviceGetName",
            sys::cuDeviceGetName(raw.as_mut_ptr(), 256, dev),
        )?;
        let name = CStr::from_ptr(raw.as_ptr()).to_string_lossy().into_owned();
        Ok((dev, name))
    }
}

/// A stream of one context's: launches and fills queued on it run in
/// order; those on different streams may overlap.
pub struct Stream {
    stream: sys::CUstream,
}

// SAFETY: a stream handle belongs to its context, not to a thread; it is
// only passed to thread-safe driver calls.
unsafe impl Send for Stream {}
// SAFETY: see `Send`.
unsafe impl Sync for Stream {}

impl Drop for Stream {
    fn drop(&mut self) {
        // SAFETY: destroying our own stream, once; queued work still
        // completes.
        unsafe {
            sys::cuStreamDestroy_v2(self.stream);
        }
    }
}

impl Stream {
    /// Makes the work queued on this stream from now on wait for what
    /// `event` last recorded, on any stream of any context (across devices
    /// too).
    pub fn wait(&self, event: &Event) -> Result<(), GpuError> {
        // SAFETY: live stream and event.
        check("cuStreamWaitEvent", unsafe {
            sys::cuStreamWaitEvent(self.stream, event.event, 0)
        })
    }

    /// Records `event` after the work queued on this stream so far.
    pub fn record(&self, event: &Event) -> Result<(), GpuError> {
        // SAFETY: live stream and event.
        check("cuEventRecord", unsafe {
            sys::cuEventRecord(event.event, self.stream)
        })
    }

    /// Waits for the work queued on this stream; a kernel fault shows up
    /// here.
    pub fn synchronize(&self) -> Result<(), GpuError> {
        // SAFETY: live stream.
        check("cuStreamSynchronize", unsafe {
            sys::cuStreamSynchronize(self.stream)
        })
    }
}

/// An event, for ordering one stream's work after another's.
pub struct Event {
    event: sys::CUevent,
}

// SAFETY: as for `Stream`.
unsafe impl Send for Event {}
// SAFETY: see `Send`.
unsafe impl Sync for Event {}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: destroying our own event, once.
        unsafe {
            sys::cuEventDestroy_v2(self.event);
        }
    }
}

// SAFETY: a CUDA context may be used from any thread once made current
// there; every entry point makes it current first, and runs are serialised
// by the harness's lock.
unsafe impl Send for Context {}
// SAFETY: the driver API is thread-safe, and every entry point makes the
// context current on the calling thread first; the worker JIT-compiles
// modules on helper threads while its main thread runs kernels.
unsafe impl Sync for Context {}

impl Context {
    /// Opens device `ordinal`. `Ok(None)` when the driver is there but no
    /// device is; an error when the machine has devices but not this one.
    pub fn open_on(ordinal: u32) -> Result<Option<Context>, GpuError> {
        let count = device_count()?;
        if count == 0 {
            return Ok(None);
        }
        if ordinal >= count {
            return Err(GpuError::Worker(format!(
                "device {ordinal} was asked for and this machine has {count}"
            )));
        }
        Context::open_device(ordinal).map(Some)
    }

    /// Opens a context of our own on device `ordinal` (after
    /// [`device_count`] said it exists).
    pub fn open_device(ordinal: u32) -> Result<Context, GpuError> {
        let (dev, name) = device_and_name(ordinal)?;
        let arch = arch_of(dev)?;
        // SAFETY: plain driver calls with valid out-pointers.
        unsafe {
            let mut ctx = ptr::null_mut();
            check("cuCtxCreate", sys::cuCtxCreate_v2(&mut ctx, 0, dev))?;
            Ok(Context {
                ctx,
                dev,
                name,
                ordinal,
                arch,
            })
        }
    }

    /// Whether this context's device can reach `other`'s memory
    /// (`cuDeviceCanAccessPeer`).
    pub fn can_access_peer(&self, other: &Context) -> Result<bool, GpuError> {
        let mut can = 0;
        // SAFETY: valid out-pointer and device handles.
        check("cuDeviceCanAccessPeer", unsafe {
            sys::cuDeviceCanAccessPeer(&mut can, self.dev, other.dev)
        })?;
        Ok(can != 0)
    }

    /// How this context's device reaches `other`'s memory, from the
    /// driver's P2P attributes (`cuDeviceGetP2PAttribute`): `NVLink` where
    /// both ways have native atomics (peer atomics over PCIe are not
    /// native), else `PCIe`; with the driver's performance rank of the
    /// link (0 the best it ranks).
    pub fn peer_link(&self, other: &Context) -> Result<String, GpuError> {
        use sys::CUdevice_P2PAttribute as A;
        let attribute = |a: A, from: sys::CUdevice, to: sys::CUdevice| {
            let mut v = 0;
            // SAFETY: valid out-pointer and device handles.
            check("cuDeviceGetP2PAttribute", unsafe {
                sys::cuDeviceGetP2PAttribute(&mut v, a, from, to)
            })
            .map(|()| v)
        };
        let native = A::CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED;
        let nvlink = attribute(native, self.dev, other.dev)? != 0
            && attribute(native, other.dev, self.dev)? != 0;
        let rank = attribute(
            A::CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK,
            self.dev,
            other.dev,
        )?;
        let kind = if nvlink { "NVLink" } else { "PCIe" };
        Ok(format!("{kind}, P2P rank {rank}"))
    }

    /// Lets kernels of this context reach `other`'s allocations through
    /// their (unified) addresses. Enabling it twice is no error.
    pub fn enable_peer_access(&self, other: &Context) -> Result<(), GpuError> {
        self.bind()?;
        // SAFETY: both contexts are live; the call applies to the current one.
        let status = unsafe { sys::cuCtxEnablePeerAccess(other.ctx, 0) };
        if status == sys::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED {
            return Ok(());
        }
        check("cuCtxEnablePeerAccess", status)
    }

    /// A stream of this context's.
    pub fn stream(&self) -> Result<Stream, GpuError> {
        self.bind()?;
        let mut stream = ptr::null_mut();
        // SAFETY: valid out-pointer; the stream is destroyed on drop.
        // Flags 0: a blocking stream, ordered after the legacy default
        // stream's work (the set-up's synchronous copies and memsets).
        check("cuStreamCreate", unsafe {
            sys::cuStreamCreate(&mut stream, 0)
        })?;
        Ok(Stream { stream })
    }

    /// An event of this context's, without timing (only for ordering).
    pub fn event(&self) -> Result<Event, GpuError> {
        self.bind()?;
        let mut event = ptr::null_mut();
        // SAFETY: valid out-pointer; the event is destroyed on drop.
        check("cuEventCreate", unsafe {
            sys::cuEventCreate(
                &mut event,
                sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32,
            )
        })?;
        Ok(Event { event })
    }

    /// Makes this context current on the calling thread.
    pub fn bind(&self) -> Result<(), GpuError> {
        // SAFETY: `ctx` is a live context we created.
        check("cuCtxSetCurrent", unsafe { sys::cuCtxSetCurrent(self.ctx) })
    }

    /// JIT-compiles `ptx` to a loadable image without loading it, through
    /// the driver's linker. The prefetching threads use it: loading a PTX
    /// module holds the context while it compiles (on an H100, threads that
    /// each loaded a module took as long as one thread loading them all),
    /// while a link is its own state and loading its image is quick.
    pub fn compile(&self, ptx: &str) -> Result<Vec<u8>, GpuError> {
        self.compile_with(ptx, false)
    }

    /// [`Context::compile`], with the PTX line of each instruction kept
    /// in the image when `lineinfo` is set (`CU_JIT_GENERATE_LINE_INFO`),
    /// so that its SASS can be mapped back to the PTX (`gpu-litmus sass
    /// --jit`).
    pub fn compile_with(&self, ptx: &str, lineinfo: bool) -> Result<Vec<u8>, GpuError> {
        self.bind()?;
        let mut jit = Jit::new(ptx)?;
        let (mut options, mut values) = jit.options(lineinfo);
        let mut state = ptr::null_mut();
        // SAFETY: the options and values arrays have the same length and,
        // with the log buffer, outlive the link state, destroyed below.
        unsafe {
            check(
                "cuLinkCreate",
                sys::cuLinkCreate_v2(
                    options.len() as u32,
                    options.as_mut_ptr(),
                    values.as_mut_ptr(),
                    &mut state,
                ),
            )?;
        }
        // SAFETY: `state` is live until cuLinkDestroy; the text is
        // NUL-terminated and outlives the call; the image the linker returns
        // belongs to the state, so it is copied before the state goes.
        unsafe {
            let added = check(
                "cuLinkAddData",
                sys::cuLinkAddData_v2(
                    state,
                    sys::CUjitInputType::CU_JIT_INPUT_PTX,
                    jit.text.as_ptr() as *mut c_void,
                    jit.text.as_bytes_with_nul().len(),
                    c"litmus.ptx".as_ptr(),
                    0,
                    ptr::null_mut(),
                    ptr::null_mut(),
                ),
            );
            let mut cubin = ptr::null_mut();
            let mut size = 0usize;
            let linked = added.and_then(|()| {
                check(
                    "cuLinkComplete",
                    sys::cuLinkComplete(state, &mut cubin, &mut size),
                )
            });
            let image = linked
                .map(|()| std::slice::from_raw_parts(cubin as *const u8, size).to_vec())
                .map_err(|e| jit.error(e));
            sys::cuLinkDestroy(state);
            image
        }
    }

    /// Loads an image that [`Context::compile`] made.
    pub fn load_image(&self, image: &[u8]) -> Result<Module, GpuError> {
        self.bind()?;
        let mut module = ptr::null_mut();
        // SAFETY: `image` is a complete image from the driver's linker and
        // outlives the call.
        check("cuModuleLoadData", unsafe {
            sys::cuModuleLoadData(&mut module, image.as_ptr() as *const c_void)
        })?;
        Ok(Module { module })
    }

    /// Allocates `words` 32-bit words of device memory, zeroed.
    pub fn alloc(&self, words: usize) -> Result<Buffer, GpuError> {
        self.bind()?;
        let mut ptr = 0;
        let bytes = words.max(1) * 4;
        // SAFETY: valid out-pointer; the buffer is freed on drop.
        unsafe {
            check("cuMemAlloc", sys::cuMemAlloc_v2(&mut ptr, bytes))?;
            let buf = Buffer {
                ptr,
                words,
                mapping: None,
                host: None,
            };
            check("cuMemsetD32", sys::cuMemsetD32_v2(ptr, 0, words.max(1)))?;
            Ok(buf)
        }
    }

    /// Allocates `words` 32-bit words of page-locked host memory that the
    /// GPU reaches through a device address (`CU_MEMHOSTALLOC_DEVICEMAP`;
    /// `PORTABLE`, so that any context may map it), zeroed. The host sees
    /// it through [`Buffer::host_words`], kernels through [`Buffer::ptr`].
    pub fn alloc_host(&self, words: usize) -> Result<Buffer, GpuError> {
        self.bind()?;
        let bytes = words.max(1) * 4;
        let mut host: *mut c_void = ptr::null_mut();
        // SAFETY: valid out-pointer; the memory is freed on drop (or just
        // below, when mapping it fails).
        unsafe {
            check(
                "cuMemHostAlloc",
                sys::cuMemHostAlloc(
                    &mut host,
                    bytes,
                    sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE,
                ),
            )?;
        }
        let Some(host) = std::ptr::NonNull::new(host as *mut u32) else {
            return Err(GpuError::Worker("cuMemHostAlloc returned no memory".into()));
        };
        let mut dev = 0;
        // SAFETY: `host` is the page-locked allocation made above.
        let mapped = check("cuMemHostGetDevicePointer", unsafe {
            sys::cuMemHostGetDevicePointer_v2(&mut dev, host.as_ptr() as *mut c_void, 0)
        });
        if let Err(e) = mapped {
            // SAFETY: freeing the allocation made above, once.
            unsafe {
                sys::cuMemFreeHost(host.as_ptr() as *mut c_void);
            }
            return Err(e);
        }
        // SAFETY: the allocation holds `words.max(1)` words, page-aligned.
        unsafe { std::ptr::write_bytes(host.as_ptr(), 0, words.max(1)) };
        Ok(Buffer {
            ptr: dev,
            words,
            mapping: None,
            host: Some(host),
        })
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: destroying our own context; after a fault this is what
        // makes the device usable again for the next run.
        unsafe {
            sys::cuCtxDestroy_v2(self.ctx);
        }
    }
}

/// A JIT's input and its error log, for [`Context::compile`].
struct Jit {
    text: CString,
    target: String,
    log: Vec<u8>,
}

/// The word after a module's `.target` directive, or `?` where it has none.
fn target_of(ptx: &str) -> String {
    ptx.lines()
        .find_map(|l| l.trim().strip_prefix(".target"))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or("?")
        .trim_end_matches(',')
        .to_string()
}

impl Jit {
    fn new(ptx: &str) -> Result<Jit, GpuError> {
        let target = target_of(ptx);
        let text = CString::new(ptx).map_err(|_| GpuError::Jit {
            code: "NUL byte in PTX text".into(),
            target: target.clone(),
            log: String::new(),
        })?;
        Ok(Jit {
            text,
            target,
            log: vec![0u8; 1 << 16],
        })
    }

    /// The options that point the JIT at the log buffer, and their values;
    /// the buffer must outlive the call that takes them.
    fn options(&mut self, lineinfo: bool) -> ([sys::CUjit_option; 3], [*mut c_void; 3]) {
        (
            [
                sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
                sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                sys::CUjit_option::CU_JIT_GENERATE_LINE_INFO,
            ],
            [
                self.log.as_mut_ptr() as *mut c_void,
                self.log.len() as *mut c_void,
                usize::from(lineinfo) as *mut c_void,
            ],
        )
    }

    /// A failed JIT, with what its log says.
    fn error(&self, e: GpuError) -> GpuError {
        let end = self
            .log
            .iter()
            .position(|b| *b == 0)
            .unwrap_or(self.log.len());
        GpuError::Jit {
            code: e.to_string(),
            target: self.target.clone(),
            log: String::from_utf8_lossy(&self.log[..end]).trim().to_string(),
        }
    }
}

/// A loaded module.
pub struct Module {
    module: sys::CUmodule,
}

// SAFETY: a module handle belongs to its context, not to a thread; the
// driver API may use it from any thread where the context is current.
unsafe impl Send for Module {}
// SAFETY: as for `Send`: the handle is only passed to thread-safe driver
// calls.
unsafe impl Sync for Module {}

impl Drop for Module {
    fn drop(&mut self) {
        // SAFETY: unloading our own module; after its context is gone the
        // driver answers with an error, which changes nothing.
        unsafe {
            sys::cuModuleUnload(self.module);
        }
    }
}

impl Module {
    pub fn function(&self, name: &str) -> Result<Function, GpuError> {
        let cname = CString::new(name).expect("kernel names have no NUL");
        let mut f = ptr::null_mut();
        // SAFETY: valid module and NUL-terminated name.
        check("cuModuleGetFunction", unsafe {
            sys::cuModuleGetFunction(&mut f, self.module, cname.as_ptr())
        })?;
        Ok(Function { f })
    }
}

/// A kernel of a loaded module.
#[derive(Clone, Copy)]
pub struct Function {
    f: sys::CUfunction,
}

// SAFETY: as for `Module`: a handle of the context's, used only in
// thread-safe driver calls.
unsafe impl Send for Function {}
// SAFETY: see `Send`.
unsafe impl Sync for Function {}

impl Function {
    /// Queues a launch on `stream`. Every parameter but the last is a
    /// `u64` (a device pointer or a number), as in both generated kernels;
    /// the last is the knob words by value (`p_knobw`, a `.b8` array of
    /// `4 × words.len()` bytes). The shape is (CTAs, threads a CTA,
    /// dynamic shared bytes). With `dependent`, as a programmatic
    /// dependent of the kernel before it on `stream`: it may start while
    /// that one drains, so its kernel must wait for it
    /// (`griddepcontrol.wait`) before it touches what that one writes.
    pub fn launch(
        &self,
        stream: &Stream,
        (grid, block, shared_bytes): (u32, u32, u32),
        params: &[u64],
        words: &[u32],
        dependent: bool,
    ) -> Result<(), GpuError> {
        let mut ptrs: Vec<*mut c_void> = params
            .iter()
            .map(|p| p as *const u64 as *mut c_void)
            .collect();
        ptrs.push(words.as_ptr() as *mut c_void);
        if !dependent {
            // SAFETY: `ptrs` points at `params` and `words`, which outlive
            // the call (the driver copies parameter values at launch), and
            // the kernel's last parameter is exactly `words`' bytes long.
            return check("cuLaunchKernel", unsafe {
                sys::cuLaunchKernel(
                    self.f,
                    grid,
                    1,
                    1,
                    block,
                    1,
                    1,
                    shared_bytes,
                    stream.stream,
                    ptrs.as_mut_ptr(),
                    ptr::null_mut(),
                )
            });
        }
        // SAFETY: a zeroed attribute is a valid value of its plain-data
        // union; the one field the id names is set next.
        let mut attr: sys::CUlaunchAttribute = unsafe { std::mem::zeroed() };
        attr.id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        attr.value.programmaticStreamSerializationAllowed = 1;
        let config = sys::CUlaunchConfig {
            gridDimX: grid,
            gridDimY: 1,
            gridDimZ: 1,
            blockDimX: block,
            blockDimY: 1,
            blockDimZ: 1,
            sharedMemBytes: shared_bytes,
            hStream: stream.stream,
            attrs: &mut attr,
            numAttrs: 1,
        };
        // SAFETY: as for `cuLaunchKernel` above; `config` and `attr` live
        // across the call.
        check("cuLaunchKernelEx", unsafe {
            sys::cuLaunchKernelEx(&config, self.f, ptrs.as_mut_ptr(), ptr::null_mut())
        })
    }

    /// How many CTAs of `block` threads (and `shared_bytes` of dynamic
    /// shared memory) one SM holds at once.
    pub fn resident_ctas_per_sm(&self, block: u32, shared_bytes: u32) -> Result<u32, GpuError> {
        let mut n = 0;
        // SAFETY: valid out-pointer and function.
        check("cuOccupancyMaxActiveBlocksPerMultiprocessor", unsafe {
            sys::cuOccupancyMaxActiveBlocksPerMultiprocessor(
                &mut n,
                self.f,
                block as i32,
                shared_bytes as usize,
            )
        })?;
        Ok(n.max(0) as u32)
    }

    /// Raises the dynamic shared memory this kernel may use.
    pub fn allow_shared(&self, bytes: u32) -> Result<(), GpuError> {
        // SAFETY: plain attribute set on a valid function.
        check("cuFuncSetAttribute", unsafe {
            sys::cuFuncSetAttribute(
                self.f,
                sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                bytes as i32,
            )
        })
    }
}

/// Physical memory and the virtual ranges it is mapped at (made by
/// [`Context::alloc_aliased`], in `aliasing.rs`). On drop the
/// ranges are unmapped and freed and the memory released, in that order;
/// a mapping half made (a call failed) undoes exactly what was done.
pub(crate) struct Mapping {
    pub(super) handle: sys::CUmemGenericAllocationHandle,
    pub(super) bytes: usize,
    pub(super) reserved: Vec<sys::CUdeviceptr>,
    pub(super) mapped: Vec<sys::CUdeviceptr>,
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: undoing our own mappings, reservations and allocation,
        // each once; after the context is gone the driver answers with
        // errors, which change nothing.
        unsafe {
            for &a in &self.mapped {
                sys::cuMemUnmap(a, self.bytes);
            }
            for &a in &self.reserved {
                sys::cuMemAddressFree(a, self.bytes);
            }
            sys::cuMemRelease(self.handle);
        }
    }
}

impl Mapping {
    /// The base of every mapping, the first one first.
    pub(crate) fn bases(&self) -> &[u64] {
        &self.mapped
    }
}

/// Device memory of 32-bit words, or page-locked host memory the device
/// reaches (see [`Context::alloc_host`]).
pub struct Buffer {
    ptr: sys::CUdeviceptr,
    words: usize,
    /// `Some` for memory mapped at several addresses (see
    /// [`Context::alloc_aliased`]), which its mapping frees.
    mapping: Option<Mapping>,
    /// `Some` for page-locked host memory: its host address.
    host: Option<std::ptr::NonNull<u32>>,
}

// SAFETY: the buffer owns its allocation; the host address of page-locked
// memory is only handed out as atomics (`host_words`), which any thread
// may use.
unsafe impl Send for Buffer {}
// SAFETY: see `Send`: shared use goes through atomics or the thread-safe
// driver API.
unsafe impl Sync for Buffer {}

impl Drop for Buffer {
    fn drop(&mut self) {
        if let Some(host) = self.host {
            // SAFETY: freeing our own page-locked allocation, once.
            unsafe {
                sys::cuMemFreeHost(host.as_ptr() as *mut std::ffi::c_void);
            }
            return;
        }
        if self.mapping.is_some() {
            return;
        }
        // SAFETY: freeing our own allocation; after its context is gone the
        // driver answers with an error, which changes nothing.
        unsafe {
            sys::cuMemFree_v2(self.ptr);
        }
    }
}

impl Buffer {
    /// A buffer over memory that `mapping` maps, its first address first.
    pub(super) fn mapped(mapping: Mapping, words: usize) -> Buffer {
        Buffer {
            ptr: mapping.bases()[0],
            words,
            mapping: Some(mapping),
            host: None,
        }
    }

    pub fn ptr(&self) -> u64 {
        self.ptr
    }

    /// How many 32-bit words the buffer holds.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The base address of view `v` of the buffer's memory: 0 is
    /// [`Buffer::ptr`], the others the further mappings of
    /// [`Context::alloc_aliased`]; `None` past them.
    pub fn view(&self, v: usize) -> Option<u64> {
        match &self.mapping {
            Some(m) => m.bases().get(v).copied(),
            None => (v == 0).then_some(self.ptr),
        }
    }

    /// The words of page-locked host memory as the host reaches them;
    /// `None` for device memory. Atomics, because the GPU may use the
    /// same words while a kernel runs.
    pub fn host_words(&self) -> Option<&[AtomicU32]> {
        // SAFETY: the allocation holds `words` words, is page-aligned
        // (AtomicU32 has u32's layout), and lives as long as `self`; all
        // access through the slice is atomic.
        self.host.map(|h| unsafe {
            std::slice::from_raw_parts(h.as_ptr() as *const AtomicU32, self.words)
        })
    }

    /// Queues a fill of `count` words from word `offset` with `value` on
    /// `stream` (page-locked host memory: fills it now, from the host; the
    /// caller runs no kernel on it meanwhile).
    pub fn fill(
        &self,
        stream: &Stream,
        offset: usize,
        count: usize,
        value: u32,
    ) -> Result<(), GpuError> {
        assert!(
            offset + count <= self.words,
            "fill past the end of a device buffer"
        );
        if let Some(words) = self.host_words() {
            for w in &words[offset..offset + count] {
                w.store(value, Ordering::Relaxed);
            }
            return Ok(());
        }
        // SAFETY: the range lies inside the allocation (asserted above).
        check("cuMemsetD32Async", unsafe {
            sys::cuMemsetD32Async(self.ptr + offset as u64 * 4, value, count, stream.stream)
        })
    }

    pub fn write(&self, data: &[u32]) -> Result<(), GpuError> {
        assert!(
            data.len() <= self.words,
            "write past the end of a device buffer"
        );
        if let Some(words) = self.host_words() {
            for (w, v) in words.iter().zip(data) {
                w.store(*v, Ordering::Relaxed);
            }
            return Ok(());
        }
        // SAFETY: the range lies inside the allocation (asserted above).
        check("cuMemcpyHtoD", unsafe {
            sys::cuMemcpyHtoD_v2(self.ptr, data.as_ptr() as *const c_void, data.len() * 4)
        })
    }

    pub fn read(&self) -> Result<Vec<u32>, GpuError> {
        if let Some(words) = self.host_words() {
            return Ok(words.iter().map(|w| w.load(Ordering::Relaxed)).collect());
        }
        let mut out = vec![0u32; self.words];
        // SAFETY: `out` has exactly the buffer's size.
        check("cuMemcpyDtoH", unsafe {
            sys::cuMemcpyDtoH_v2(out.as_mut_ptr() as *mut c_void, self.ptr, self.words * 4)
        })?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::target_of;

    #[test]
    fn a_jit_error_names_the_modules_target() {
        assert_eq!(
            target_of(".version 8.3\n.target sm_80\n.address_size 64\n"),
            "sm_80"
        );
        assert_eq!(target_of(".target sm_90a, texmode_independent\n"), "sm_90a");
        assert_eq!(target_of(".version 8.3\n"), "?");
    }
}
