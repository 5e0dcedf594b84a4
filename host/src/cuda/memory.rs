//! Device memory: [`DevBuf`] (typed copies in and out) and the device-side timeout convention's
//! [`StatusWord`].

use super::*;

/// A device allocation, freed on drop.
///
/// ```no_run
/// let dev = ptx_sync_host::cuda::Device::open(0)?;
/// let buf = dev.upload(&[7u32; 16])?;
/// let mut back = [0u32; 16];
/// buf.read(&mut back)?;
/// assert_eq!(back, [7; 16]);
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub struct DevBuf {
    pub(super) ptr: sys::CUdeviceptr,
    pub(super) bytes: usize,
    /// Keeps the context alive until the memory is freed.
    pub(super) ctx: Arc<Ctx>,
}

impl DevBuf {
    /// The device address (a kernel parameter: a pointer field of a [`kernel_params!`] struct).
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// let p: u64 = dev.alloc(64)?.ptr();
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn ptr(&self) -> sys::CUdeviceptr {
        self.ptr
    }
    /// Its size in bytes.
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// assert_eq!(dev.alloc(64)?.len(), 64);
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.bytes
    }
    /// Never: an allocation has at least 4 bytes.
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// assert!(!dev.alloc(0)?.is_empty());
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }
    /// Copies `data` to the start of the buffer ([`CudaError::Invalid`] if larger).
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// dev.alloc(8)?.write(&[1u32, 2])?;
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn write<T: Pod>(&self, data: &[T]) -> Result<(), CudaError> {
        let n = std::mem::size_of_val(data);
        if n > self.bytes {
            return Err(CudaError::Invalid(format!(
                "upload of {n} bytes into a {}-byte buffer",
                self.bytes
            )));
        }
        // SAFETY: in bounds (checked).
        drv("cuMemcpyHtoD", unsafe {
            result::memcpy_htod_sync(self.ptr, data)
        })
    }
    /// Copies the start of the buffer into `out` ([`CudaError::Invalid`] if larger).
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// let mut out = [0u32; 2];
    /// dev.alloc(8)?.read(&mut out)?;
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn read<T: Pod>(&self, out: &mut [T]) -> Result<(), CudaError> {
        let n = std::mem::size_of_val(out);
        if n > self.bytes {
            return Err(CudaError::Invalid(format!(
                "download of {n} bytes from a {}-byte buffer",
                self.bytes
            )));
        }
        // SAFETY: in bounds (checked).
        drv("cuMemcpyDtoH", unsafe {
            result::memcpy_dtoh_sync(out, self.ptr)
        })
    }
    /// Fills the buffer with the 32-bit pattern `v`.
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// dev.alloc(64)?.fill_u32(0xffff_ffff)?;
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn fill_u32(&self, v: u32) -> Result<(), CudaError> {
        // SAFETY: the whole buffer, in 4-byte words.
        drv("cuMemsetD32", unsafe {
            sys::cuMemsetD32_v2(self.ptr, v, self.bytes / 4).result()
        })
    }
}

impl Drop for DevBuf {
    fn drop(&mut self) {
        self.ctx.allocs().remove(&self.ptr);
        if hung() {
            return;
        }
        // SAFETY: allocated by cuMemAlloc in `self.ctx`, which this buffer keeps retained.
        unsafe {
            let _ = result::free_sync(self.ptr);
        }
    }
}

pub(super) fn elem_of<T>() -> Elem {
    Elem {
        name: std::any::type_name::<T>(),
        size: std::mem::size_of::<T>(),
    }
}

/// The device-side timeout convention: one `u32` in device memory, zero before the launch; a
/// kernel whose bounded wait gives up (`ptx_sync::wait::spin_until` → `Err(Timeout)`) ORs a
/// non-zero bit into it (`red.global.or.b32`, one bit per wait so the host can tell which), and
/// returns instead of hanging. The bundled §5 and tiled-copy kernels take such a `status:
/// *mut u32` as their last parameter.
///
/// ```no_run
/// use ptx_sync_host::cuda::{CudaError, Device};
/// let dev = Device::open(0)?;
/// let status = dev.status_word()?;
/// // ... launch a kernel with `status.ptr()` as its `status: *mut u32` ...
/// dev.synchronize()?;
/// match status.check("handoff") {
///     Ok(()) => {}
///     Err(CudaError::Timeout { status, .. }) => eprintln!("waits that ran out: {status:#b}"),
///     Err(e) => return Err(e),
/// }
/// # Ok::<(), CudaError>(())
/// ```
pub struct StatusWord {
    pub(super) buf: DevBuf,
}

impl StatusWord {
    /// The word's device address (the kernel's `status` parameter).
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// let p: u64 = dev.status_word()?.ptr();
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn ptr(&self) -> sys::CUdeviceptr {
        self.buf.ptr
    }
    /// Reads the word (after [`Device::synchronize`]).
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// assert_eq!(dev.status_word()?.read()?, 0);
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn read(&self) -> Result<u32, CudaError> {
        let mut w = [0u32];
        self.buf.read(&mut w)?;
        Ok(w[0])
    }
    /// `Ok` if the word is still zero, else [`CudaError::Timeout`] naming `kernel`.
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// dev.status_word()?.check("k")?;
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn check(&self, kernel: &str) -> Result<(), CudaError> {
        match self.read()? {
            0 => Ok(()),
            status => Err(CudaError::Timeout {
                kernel: kernel.into(),
                status,
            }),
        }
    }
    /// Sets the word back to zero (before the next launch).
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// dev.status_word()?.reset()?;
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn reset(&self) -> Result<(), CudaError> {
        self.buf.fill_u32(0)
    }
}
