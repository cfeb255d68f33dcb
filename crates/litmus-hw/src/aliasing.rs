//! The device side of PTX 7.5 aliases: one physical allocation mapped at
//! several virtual addresses (generic aliases, through the driver's virtual
//! memory management API), and texture objects over it (texture aliases).
//! Both are freed on drop, like [`Buffer`]'s plain allocations.

use std::ptr;

use cudarc::driver::sys;

use super::driver::{check, Buffer, Context, Mapping};
use super::GpuError;

/// A texture object; destroyed on drop.
pub(crate) struct Texture {
    object: sys::CUtexObject,
}

impl Drop for Texture {
    fn drop(&mut self) {
        // SAFETY: destroying our own texture object, once.
        unsafe {
            sys::cuTexObjectDestroy(self.object);
        }
    }
}

impl Texture {
    /// The handle the kernel takes as its `.u64` texture parameter.
    pub(crate) fn handle(&self) -> u64 {
        self.object
    }
}

impl Context {
    /// A device attribute of the context's device.
    pub(super) fn attribute(&self, attr: sys::CUdevice_attribute) -> Result<i64, GpuError> {
        let mut v = 0;
        // SAFETY: valid out-pointer and device.
        check("cuDeviceGetAttribute", unsafe {
            sys::cuDeviceGetAttribute(&mut v, attr, self.dev)
        })?;
        Ok(i64::from(v))
    }

    /// `words` 32-bit words of device memory, zeroed, mapped at
    /// `1 + views` virtual addresses: writes through one address are the
    /// memory every other reads. [`Buffer::view`] gives the bases. Each
    /// base is aligned to the allocation granularity (2 MiB on current
    /// GPUs), far past what a texture needs.
    pub fn alloc_aliased(&self, words: usize, views: usize) -> Result<Buffer, GpuError> {
        self.bind()?;
        // SAFETY: all-zero is a valid value of these plain C structs.
        let mut prop: sys::CUmemAllocationProp = unsafe { std::mem::zeroed() };
        prop.type_ = sys::CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED;
        prop.requestedHandleTypes = sys::CUmemAllocationHandleType::CU_MEM_HANDLE_TYPE_NONE;
        prop.location.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
        prop.location.id = self.dev;
        let mut granularity = 0usize;
        // SAFETY: valid out-pointer and property struct.
        check("cuMemGetAllocationGranularity", unsafe {
            sys::cuMemGetAllocationGranularity(
                &mut granularity,
                &prop,
                sys::CUmemAllocationGranularity_flags::CU_MEM_ALLOC_GRANULARITY_MINIMUM,
            )
        })?;
        let bytes = (words.max(1) * 4).next_multiple_of(granularity.max(1));
        let mut handle = 0;
        // SAFETY: valid out-pointer; the size is a multiple of the
        // granularity, as the driver requires.
        check("cuMemCreate", unsafe {
            sys::cuMemCreate(&mut handle, bytes, &prop, 0)
        })?;
        let mut mapping = Mapping {
            handle,
            bytes,
            reserved: Vec::new(),
            mapped: Vec::new(),
        };
        // SAFETY: as for `prop`.
        let mut access: sys::CUmemAccessDesc = unsafe { std::mem::zeroed() };
        access.location = prop.location;
        access.flags = sys::CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        for _ in 0..=views {
            let mut base = 0;
            // SAFETY: valid out-pointer; the range is recorded at once so
            // that the mapping's drop frees it.
            check("cuMemAddressReserve", unsafe {
                sys::cuMemAddressReserve(&mut base, bytes, granularity, 0, 0)
            })?;
            mapping.reserved.push(base);
            // SAFETY: the whole reserved range onto the whole allocation.
            check("cuMemMap", unsafe {
                sys::cuMemMap(base, bytes, 0, handle, 0)
            })?;
            mapping.mapped.push(base);
            // SAFETY: the range is mapped; one descriptor.
            check("cuMemSetAccess", unsafe {
                sys::cuMemSetAccess(base, bytes, &access, 1)
            })?;
        }
        let base = mapping.mapped[0];
        // SAFETY: the range lies inside the mapping made above.
        check("cuMemsetD32", unsafe {
            sys::cuMemsetD32_v2(base, 0, words.max(1))
        })?;
        Ok(Buffer::mapped(mapping, words))
    }

    /// A texture object over `words` 32-bit words from `base`: one
    /// unsigned 32-bit channel per texel, read as integers, point
    /// filtering, so that `tex.1d` with integer coordinates fetches word
    /// `i` as it is. Refused when the words pass the device's limit on a
    /// 1D linear texture, or `base` is not aligned as textures need.
    pub fn texture(&self, base: u64, words: usize) -> Result<Texture, GpuError> {
        self.bind()?;
        let max = self.attribute(
            sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH,
        )?;
        if words as i64 > max {
            return Err(GpuError::TextureTooLarge {
                texels: words as u64,
                max: max as u64,
            });
        }
        let align =
            self.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT)?;
        if align > 0 && !base.is_multiple_of(align as u64) {
            return Err(GpuError::Driver {
                call: "cuTexObjectCreate".into(),
                name: "misaligned texture base".into(),
                text: format!(
                    "{base:#x} is not a multiple of the device's texture alignment, {align} bytes"
                ),
            });
        }
        // SAFETY: all-zero is a valid value of these plain C structs (a
        // union among them, of which only `linear` is set and read).
        let mut res: sys::CUDA_RESOURCE_DESC = unsafe { std::mem::zeroed() };
        res.resType = sys::CUresourcetype::CU_RESOURCE_TYPE_LINEAR;
        res.res.linear = sys::CUDA_RESOURCE_DESC_st__bindgen_ty_1__bindgen_ty_3 {
            devPtr: base,
            format: sys::CUarray_format::CU_AD_FORMAT_UNSIGNED_INT32,
            numChannels: 1,
            sizeInBytes: words * 4,
        };
        // SAFETY: as above.
        let mut desc: sys::CUDA_TEXTURE_DESC = unsafe { std::mem::zeroed() };
        desc.filterMode = sys::CUfilter_mode::CU_TR_FILTER_MODE_POINT;
        desc.flags = sys::CU_TRSF_READ_AS_INTEGER;
        let mut object = 0;
        // SAFETY: valid out-pointer and descriptors; no view descriptor.
        check("cuTexObjectCreate", unsafe {
            sys::cuTexObjectCreate(&mut object, &res, &desc, ptr::null())
        })?;
        Ok(Texture { object })
    }
}
