//! A thin safe layer over the CUDA driver API (cudarc's `sys`, loaded at run
//! time): a context of our own per device, modules loaded with the JIT
//! log, device buffers, streams and events, launches on explicit streams
//! (so that the kernels of two logical GPUs on one device can overlap).
//!
//! Why not cudarc's safe layer: the hot loop issues thousands of launches,
//! and the safe layer's per-argument event tracking costs more than the
//! kernels; and a run owns its context from start to end, which is
//! simplest with a context we created ourselves.

use std::ffi::{c_void, CStr};
use std::ptr;

use cudarc::driver::sys;
use litmus_ptx::isa::SmArch;

use super::GpuError;

mod memory;
mod module;

pub use memory::Buffer;
pub(crate) use memory::Mapping;
use module::Jit;
pub use module::{Function, Module};

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
