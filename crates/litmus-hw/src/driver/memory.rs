//! Memory: device buffers, page-locked host memory the device reaches,
//! and memory mapped at several addresses (PTX 7.5 aliases). Apart from
//! `driver.rs` for its length; the context that allocates them is there.

use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};

use cudarc::driver::sys;

use super::{check, Stream};
use crate::GpuError;

/// Physical memory and the virtual ranges it is mapped at (made by
/// [`Context::alloc_aliased`], in `aliasing.rs`). On drop the
/// ranges are unmapped and freed and the memory released, in that order;
/// a mapping half made (a call failed) undoes exactly what was done.
pub(crate) struct Mapping {
    pub(crate) handle: sys::CUmemGenericAllocationHandle,
    pub(crate) bytes: usize,
    pub(crate) reserved: Vec<sys::CUdeviceptr>,
    pub(crate) mapped: Vec<sys::CUdeviceptr>,
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
    pub(super) ptr: sys::CUdeviceptr,
    pub(super) words: usize,
    /// `Some` for memory mapped at several addresses (see
    /// [`Context::alloc_aliased`]), which its mapping frees.
    pub(super) mapping: Option<Mapping>,
    /// `Some` for page-locked host memory: its host address.
    pub(super) host: Option<std::ptr::NonNull<u32>>,
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
    pub(crate) fn mapped(mapping: Mapping, words: usize) -> Buffer {
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
