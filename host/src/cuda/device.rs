//! [`Device`]: one opened device and its context — allocation, loading, synchronisation with a
//! deadline (a hung kernel is reported, not waited on forever).

use super::*;

/// The primary context of one device, shared (`Arc`) by the [`Device`] and everything made from
/// it — [`Module`], [`DevBuf`], [`StatusWord`] — and released when the last of them is dropped:
/// none of them can call the driver after the context is gone, whatever the drop order.
pub(super) struct Ctx {
    pub(super) dev: sys::CUdevice,
    /// Live allocations of this context: start address → size and element type, for the
    /// pointer check of [`Kernel::launch`].
    pub(super) allocs: Mutex<BTreeMap<u64, Alloc>>,
}

/// One live allocation.
#[derive(Clone, Copy, Debug)]
pub(super) struct Alloc {
    pub(super) bytes: usize,
    /// The element type it was made for ([`Device::upload`], [`Device::alloc_for`]); `None`:
    /// untyped bytes ([`Device::alloc`]).
    pub(super) elem: Option<Elem>,
}

/// An element type: its name (`std::any::type_name`) and size.
#[derive(Clone, Copy, Debug)]
pub(super) struct Elem {
    pub(super) name: &'static str,
    pub(super) size: usize,
}

impl Ctx {
    pub(super) fn allocs(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Alloc>> {
        // A panic while the lock was held leaves the map consistent (single inserts/removes).
        self.allocs.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// The allocation holding address `p`: (start, allocation).
    pub(super) fn find(&self, p: u64) -> Option<(u64, Alloc)> {
        let m = self.allocs();
        let (&start, &a) = m.range(..=p).next_back()?;
        (p - start < a.bytes as u64).then_some((start, a))
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        if hung() {
            return; // would block on the stuck kernel (see HUNG)
        }
        // SAFETY: retained in `Device::open`; every module and allocation of the context held a
        // reference to this `Ctx`, so all of them are gone.
        unsafe {
            let _ = result::primary_ctx::release(self.dev);
        }
    }
}

/// An open device: its primary context retained and current on this thread. The context lives
/// as long as the device or anything made from it ([`Module`], [`DevBuf`], [`StatusWord`]):
/// dropping the `Device` first is fine, the context is released after the last of them.
///
/// ```no_run
/// let dev = ptx_sync_host::cuda::Device::open(0)?;
/// assert!(dev.driver_version() >= 12000);
/// let buf = dev.alloc(64)?;
/// drop(dev); // the context stays until `buf` is freed
/// buf.fill_u32(0)?;
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub struct Device {
    pub(super) ctx: Arc<Ctx>,
    pub(super) info: DeviceInfo,
    pub(super) driver_version: i32,
    pub(super) hang_limit: Duration,
}

impl Device {
    /// Device `ordinal`: checks the driver library first ([`check_driver`]), then `cuInit`,
    /// retains the primary context and makes it current. Every failure is an error value.
    ///
    /// ```
    /// use ptx_sync_host::cuda::{CudaError, Device};
    /// match Device::open(0) {
    ///     Ok(dev) => println!("{}", dev.info().name),
    ///     Err(e @ (CudaError::NoDriver | CudaError::NoDevice(_) | CudaError::OldDriver(_))) => {
    ///         println!("no GPU here: {e}")
    ///     }
    ///     Err(e) => panic!("{e}"),
    /// }
    /// ```
    pub fn open(ordinal: i32) -> Result<Device, CudaError> {
        let n = device_count()?;
        if n == 0 {
            return Err(CudaError::NoDevice("the driver reports 0 devices".into()));
        }
        if ordinal < 0 || ordinal >= n {
            return Err(CudaError::NoDevice(format!(
                "no device {ordinal} (the driver reports {n})"
            )));
        }
        let driver_version = driver_version()?;
        let dev = drv("cuDeviceGet", result::device::get(ordinal))?;
        let info = device_info(ordinal, dev)?;
        // SAFETY: dev is valid; the primary context is released in Drop.
        unsafe {
            let ctx = drv("cuDevicePrimaryCtxRetain", result::primary_ctx::retain(dev))?;
            drv("cuCtxSetCurrent", result::ctx::set_current(ctx))?;
        }
        Ok(Device {
            ctx: Arc::new(Ctx {
                dev,
                allocs: Mutex::new(BTreeMap::new()),
            }),
            info,
            driver_version,
            hang_limit: Duration::from_secs(60),
        })
    }

    /// The device's description.
    ///
    /// ```no_run
    /// let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// assert!(dev.info().sms > 0);
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// `cuDriverGetVersion`.
    ///
    /// ```no_run
    /// let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// println!("CUDA {}", ptx_sync_host::cuda::driver_version_text(dev.driver_version()));
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn driver_version(&self) -> i32 {
        self.driver_version
    }

    /// The raw device handle (for cudarc calls this module does not wrap).
    ///
    /// ```no_run
    /// let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// let _raw: ptx_sync_host::cuda::sys::CUdevice = dev.raw();
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn raw(&self) -> sys::CUdevice {
        self.ctx.dev
    }

    /// How long [`synchronize`](Self::synchronize) waits for the device (default 60 s). Device
    /// waits written with `ptx_sync::wait` are bounded far below it; this catches the rest.
    ///
    /// ```no_run
    /// let mut dev = ptx_sync_host::cuda::Device::open(0)?;
    /// dev.set_hang_limit(std::time::Duration::from_secs(5));
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn set_hang_limit(&mut self, limit: Duration) {
        self.hang_limit = limit;
    }

    /// Loads PTX, JIT-compiled by the driver: [`CudaError::OldDriver`] when the driver is older
    /// than the PTX's `.version`, [`CudaError::Jit`] with the JIT log when it is refused. The
    /// kernels' `.param` lists are read from it for [`Kernel::launch`]'s check.
    ///
    /// ```no_run
    /// let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// let m = dev.load_ptx(include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx")))?;
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn load_ptx(&self, ptx: &str) -> Result<Module, CudaError> {
        check_ptx_version(ptx, self.driver_version)?;
        let c = CString::new(ptx).map_err(|_| CudaError::Invalid("PTX with a NUL byte".into()))?;
        // SAFETY: NUL-terminated PTX; our context is current.
        let m = unsafe { load_module_raw(c.as_ptr() as *const c_void) }.map_err(|log| {
            CudaError::Jit {
                what: "the PTX (JIT)".into(),
                log,
            }
        })?;
        Ok(Module {
            m,
            ptx: Some(ptx.to_string()),
            ctx: self.ctx.clone(),
        })
    }

    /// Loads a module image: a cubin (ptxas output for this device's SM), a fatbin, or PTX text.
    /// `cuModuleLoadDataEx` takes only a pointer, so the image is checked first
    /// ([`image::validate_image`]): every size and offset its ELF or fatbin headers declare must
    /// lie inside `cubin` — a truncated or corrupt image is [`CudaError::Invalid`] and the driver
    /// never sees it. The image is copied into an 8-aligned buffer (PTX without a NUL is
    /// terminated there). `ptx`: the PTX it was assembled from, for the parameter check; without
    /// it [`Kernel::launch`] cannot compare field by field and says so ([`Kernel::launch_unchecked`]
    /// passes the bytes as they are). For PTX text, the text itself is used when `ptx` is `None`.
    ///
    /// ```no_run
    /// let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// let cubin = std::fs::read("kernels.sm_90a.cubin").unwrap();
    /// let ptx = std::fs::read_to_string("kernels.ptx").unwrap();
    /// let m = dev.load_cubin(&cubin, Some(&ptx))?;
    /// // A 4-byte slice is refused before any driver call:
    /// assert!(dev.load_cubin(b"\x7fELF", None).is_err());
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn load_cubin(&self, cubin: &[u8], ptx: Option<&str>) -> Result<Module, CudaError> {
        let kind = image::validate_image(cubin).map_err(CudaError::Invalid)?;
        if let image::ImageKind::Ptx { nul } = kind {
            let text = if nul {
                &cubin[..cubin.iter().position(|&b| b == 0).unwrap_or(0)]
            } else {
                cubin
            };
            // validate_image checked it is UTF-8 text.
            let text = std::str::from_utf8(text)
                .map_err(|_| CudaError::Invalid("PTX text that is not UTF-8".into()))?;
            let mut m = self.load_ptx(text)?;
            if let Some(p) = ptx {
                m.ptx = Some(p.to_string());
            }
            return Ok(m);
        }
        // Our own copy, 8-aligned, of exactly the bytes checked.
        let mut buf = vec![0u64; cubin.len().div_ceil(8)];
        bytemuck::cast_slice_mut::<u64, u8>(&mut buf)[..cubin.len()].copy_from_slice(cubin);
        let what = match kind {
            image::ImageKind::Fatbin => "the fatbin",
            _ => "the cubin",
        };
        // SAFETY: a cubin or fatbin whose declared sizes all lie inside `buf` (validate_image);
        // our context is current.
        let m = unsafe { load_module_raw(buf.as_ptr() as *const c_void) }.map_err(|log| {
            CudaError::Jit {
                what: what.into(),
                log,
            }
        })?;
        Ok(Module {
            m,
            ptx: ptx.map(str::to_string),
            ctx: self.ctx.clone(),
        })
    }

    /// Device memory of `bytes` bytes (at least 4), zeroed. Untyped: [`Kernel::launch`] checks
    /// that a pointer parameter points into it, not what it holds (see [`alloc_for`](Self::alloc_for)).
    ///
    /// ```no_run
    /// let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// let buf = dev.alloc(4096)?;
    /// assert_eq!(buf.len(), 4096);
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn alloc(&self, bytes: usize) -> Result<DevBuf, CudaError> {
        self.alloc_typed(bytes, None)
    }

    /// Device memory for `n` values of `T`, zeroed, recorded as holding `T`: [`Kernel::launch`]
    /// refuses it for a pointer parameter whose element type has another size (two pointers of
    /// different element types swapped).
    ///
    /// ```no_run
    /// let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// let cycles = dev.alloc_for::<u64>(32)?;
    /// assert_eq!(cycles.len(), 256);
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn alloc_for<T: Pod>(&self, n: usize) -> Result<DevBuf, CudaError> {
        let bytes = n.checked_mul(std::mem::size_of::<T>()).ok_or_else(|| {
            CudaError::Invalid(format!(
                "{n} values of {} overflow",
                std::any::type_name::<T>()
            ))
        })?;
        self.alloc_typed(bytes, Some(elem_of::<T>()))
    }

    pub(super) fn alloc_typed(
        &self,
        bytes: usize,
        elem: Option<Elem>,
    ) -> Result<DevBuf, CudaError> {
        let bytes = bytes.max(4).div_ceil(4) * 4;
        // SAFETY: plain allocation; freed in Drop.
        let ptr = drv("cuMemAlloc", unsafe { result::malloc_sync(bytes) })?;
        self.ctx.allocs().insert(ptr, Alloc { bytes, elem });
        let b = DevBuf {
            ptr,
            bytes,
            ctx: self.ctx.clone(),
        };
        b.fill_u32(0)?;
        Ok(b)
    }

    /// Device memory holding `data`, recorded as holding `T` (see [`alloc_for`](Self::alloc_for)).
    ///
    /// ```no_run
    /// let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// let buf = dev.upload(&[1u32, 2, 3])?;
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn upload<T: Pod>(&self, data: &[T]) -> Result<DevBuf, CudaError> {
        let b = self.alloc_typed(std::mem::size_of_val(data), Some(elem_of::<T>()))?;
        b.write(data)?;
        Ok(b)
    }

    /// A zeroed [`StatusWord`] for a kernel to report device-side timeouts into.
    ///
    /// ```no_run
    /// let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// let status = dev.status_word()?;
    /// status.check("my_kernel")?; // nothing ran yet: Ok
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn status_word(&self) -> Result<StatusWord, CudaError> {
        Ok(StatusWord {
            buf: self.alloc(4)?,
        })
    }

    /// Waits until the null stream is idle (polling `cuStreamQuery`, bounded by the hang limit):
    /// a trap or fault of a kernel is [`CudaError::Launch`], a device that does not finish is
    /// [`CudaError::Hung`].
    ///
    /// ```no_run
    /// let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// dev.synchronize()?;
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn synchronize(&self) -> Result<(), CudaError> {
        // SAFETY: the null stream; this device's context is current.
        unsafe { wait_stream(std::ptr::null_mut(), self.hang_limit, "(the last launch)") }
    }
}

/// Set once a kernel outlived the host-side hang limit: freeing memory or modules and releasing
/// the context would block on it, so the drops of this module leak instead.
pub(super) static HUNG: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a kernel outlived a host-side hang limit in this process (see [`CudaError::Hung`]):
/// drops then leak rather than block.
///
/// ```
/// assert!(!ptx_sync_host::cuda::hung());
/// ```
pub fn hung() -> bool {
    HUNG.load(std::sync::atomic::Ordering::Relaxed)
}

/// Polls `stream` until idle, bounded by `limit`; errors name `kernel`.
///
/// # Errors
/// [`CudaError::Hung`] past `limit` (and [`hung`] is then true), [`CudaError::Launch`] with a
/// hint for a trap, fault or watchdog.
///
/// # Safety
/// `stream` is null (the default stream) or a live stream of the current context.
///
/// ```no_run
/// let _dev = ptx_sync_host::cuda::Device::open(0)?;
/// // SAFETY: the null stream of the current context.
/// unsafe { ptx_sync_host::cuda::wait_stream(std::ptr::null_mut(), std::time::Duration::from_secs(5), "k")? };
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub unsafe fn wait_stream(
    stream: sys::CUstream,
    limit: Duration,
    kernel: &str,
) -> Result<(), CudaError> {
    let start = Instant::now();
    loop {
        // SAFETY: the caller's contract.
        let r = unsafe { sys::cuStreamQuery(stream) };
        match r {
            sys::CUresult::CUDA_SUCCESS => return Ok(()),
            sys::CUresult::CUDA_ERROR_NOT_READY => {
                if start.elapsed() > limit {
                    HUNG.store(true, std::sync::atomic::Ordering::Relaxed);
                    return Err(CudaError::Hung {
                        secs: limit.as_secs(),
                    });
                }
                std::thread::sleep(Duration::from_micros(50));
            }
            e => {
                let err = derr(result::DriverError(e));
                let hint = match e {
                    sys::CUresult::CUDA_ERROR_ILLEGAL_INSTRUCTION => " — the kernel trapped",
                    sys::CUresult::CUDA_ERROR_ILLEGAL_ADDRESS => " — out-of-bounds access",
                    sys::CUresult::CUDA_ERROR_LAUNCH_TIMEOUT => " — watchdog timeout",
                    _ => "",
                };
                return Err(CudaError::Launch {
                    kernel: kernel.into(),
                    err: format!("{err}{hint}"),
                });
            }
        }
    }
}
