//! Modules and kernels: the JIT that compiles a module's PTX (with its
//! log), a loaded module and its functions, and a launch. Apart from
//! `driver.rs` for its length; the context that compiles and loads them
//! is there.

use std::ffi::{c_void, CString};
use std::ptr;

use cudarc::driver::sys;

use super::{check, Stream};
use crate::GpuError;

/// A JIT's input and its error log, for [`Context::compile`].
pub(super) struct Jit {
    pub(super) text: CString,
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
    pub(super) fn new(ptx: &str) -> Result<Jit, GpuError> {
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
    pub(super) fn options(&mut self, lineinfo: bool) -> ([sys::CUjit_option; 3], [*mut c_void; 3]) {
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
    pub(super) fn error(&self, e: GpuError) -> GpuError {
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
    pub(super) module: sys::CUmodule,
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
