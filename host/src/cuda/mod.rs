//! Load and launch your own kernels: a thin layer over cudarc's driver API (dynamically loaded,
//! so a program built with it starts on a machine without a GPU and reports that as an error).
//!
//! * [`Device::open`] — `Result` for every failure: no `libcuda.so` ([`CudaError::NoDriver`],
//!   checked before any driver call), a library without the entry points this module calls or a
//!   driver too old for the PTX ([`CudaError::OldDriver`]), no device ([`CudaError::NoDevice`]).
//! * [`Device::load_ptx`] / [`Device::load_cubin`] — the JIT's error log in the error
//!   ([`CudaError::Jit`]).
//! * [`Module::kernel`] — a kernel by name, with its `.param` list read from the PTX.
//! * [`Kernel::launch`] — grid, block, cluster dims, dynamic shared memory (the
//!   max-dynamic-shared-memory attribute is set above 48 KiB) and programmatic dependent launch,
//!   with [`LaunchConfig`]; parameters are a [`KernelParams`] struct (declare it with
//!   [`kernel_params!`]) checked field by field against the `.param` list
//!   ([`CudaError::Params`]).
//! * [`tensor_map`] — `cuTensorMapEncodeTiled`, validated first.
//! * [`StatusWord`] — the device-side timeout convention: a kernel whose bounded wait
//!   (`ptx_sync::wait::spin_until`) returns `Err(Timeout)` ORs a non-zero bit into a `u32` status
//!   word; [`StatusWord::check`] reads it back and returns [`CudaError::Timeout`].
//!
//! cudarc's raw bindings are re-exported as [`sys`] for everything this module does not cover
//! (streams, events, graphs): no wrapper is added where cudarc's own is enough.
//!
//! ```no_run
//! use ptx_sync_host::cuda::{kernel_params, Device, LaunchConfig};
//!
//! kernel_params! {
//!     /// `scale(out: *mut f32, n: u32, k: f32)`.
//!     pub struct ScaleParams { pub out: *mut f32, pub n: u32, pub k: f32 }
//! }
//!
//! # let ptx = "";
//! let dev = Device::open(0)?;
//! let module = dev.load_ptx(ptx)?;
//! let kernel = module.kernel("scale")?;
//! let out = dev.alloc(1024 * 4)?;
//! let status = dev.status_word()?;
//! let p = ScaleParams { out: out.ptr(), n: 1024, k: 2.0 };
//! // SAFETY: `scale` writes `n` floats to `out`, which holds 1024.
//! unsafe { kernel.launch(&LaunchConfig::new(8, 128), &p)? };
//! dev.synchronize()?;
//! status.check("scale")?;
//! let mut host = vec![0f32; 1024];
//! out.read(&mut host)?;
//! # Ok::<(), ptx_sync_host::cuda::CudaError>(())
//! ```

/// Tiled tensor maps (`cuTensorMapEncodeTiled`), validated first.
///
/// ```
/// use ptx_sync_host::cuda::tensor_map::{Elem, TiledMap};
/// assert!(TiledMap::dense_2d(Elem::U32, 0x1000, 64, 64, 8, 16).validate().is_ok());
/// ```
pub mod tensor_map;

/// The checks an image passes before the driver sees it (cubin, fatbin, PTX text).
///
/// ```
/// assert!(ptx_sync_host::cuda::image::validate_image(b"\x7fELF").is_err());
/// ```
pub mod image;

pub use cudarc::driver::sys;
pub use ptx_sync_abi::{kernel_params, Abi, Field, KernelParams};

use bytemuck::Pod;
use cudarc::driver::result;
use std::collections::BTreeMap;
use std::ffi::{c_void, CString};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Why a call of this module failed. Each renders as one line.
///
/// ```
/// use ptx_sync_host::cuda::CudaError;
/// assert!(CudaError::NoDriver.to_string().contains("libcuda.so"));
/// ```
#[derive(Debug)]
pub enum CudaError {
    /// No `libcuda.so` (no NVIDIA driver on this machine).
    NoDriver,
    /// The driver is there but reports no device (or `cuInit` failed).
    NoDevice(String),
    /// The driver library lacks an entry point, or is older than the PTX needs.
    OldDriver(String),
    /// A driver call failed.
    Driver {
        /// The call.
        what: String,
        /// The driver's error name and description.
        err: String,
    },
    /// `cuModuleLoadDataEx` refused the image: the driver's error and the JIT log's first lines.
    Jit {
        /// What was loaded.
        what: String,
        /// The error and log, one line.
        log: String,
    },
    /// The parameter struct does not match the kernel's `.param` list.
    Params(ParamMismatch),
    /// A tensor map was rejected before encoding.
    TensorMap(tensor_map::TensorMapError),
    /// A launch failed, or the kernel trapped or faulted.
    Launch {
        /// The kernel.
        kernel: String,
        /// The driver's error, with a hint.
        err: String,
    },
    /// The device did not go idle within the host-side limit ([`Device::set_hang_limit`]).
    Hung {
        /// The limit in seconds.
        secs: u64,
    },
    /// A kernel reported a device-side timeout through its [`StatusWord`].
    Timeout {
        /// The kernel (as named to [`StatusWord::check`]).
        kernel: String,
        /// The status word: the bits of the waits that ran out.
        status: u32,
    },
    /// Bad arguments.
    Invalid(String),
}

impl fmt::Display for CudaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CudaError::NoDriver => write!(
                f,
                "no NVIDIA driver: libcuda.so not found (this needs a GPU)"
            ),
            CudaError::NoDevice(e) => write!(f, "no CUDA device: {e}"),
            CudaError::OldDriver(e) => write!(f, "unusable CUDA driver: {e}"),
            CudaError::Driver { what, err } => write!(f, "CUDA driver error in {what}: {err}"),
            CudaError::Jit { what, log } => write!(f, "the driver refused {what}: {log}"),
            CudaError::Params(m) => write!(f, "{m}"),
            CudaError::TensorMap(e) => write!(f, "{e}"),
            CudaError::Launch { kernel, err } => {
                write!(f, "kernel {kernel} failed on the GPU: {err}")
            }
            CudaError::Hung { secs } => write!(
                f,
                "the GPU did not finish within {secs} s (host-side limit)"
            ),
            CudaError::Timeout { kernel, status } => {
                write!(
                    f,
                    "kernel {kernel}: a device-side wait timed out (status word {status:#x})"
                )
            }
            CudaError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CudaError {}

impl From<tensor_map::TensorMapError> for CudaError {
    fn from(e: tensor_map::TensorMapError) -> Self {
        CudaError::TensorMap(e)
    }
}

impl From<ParamMismatch> for CudaError {
    fn from(e: ParamMismatch) -> Self {
        CudaError::Params(e)
    }
}

/// The driver's name and description of an error, one line: `CUDA_ERROR_X (description)`.
///
/// ```no_run
/// use ptx_sync_host::cuda::{driver_error_text, sys};
/// let e = cudarc::driver::result::DriverError(sys::CUresult::CUDA_ERROR_INVALID_VALUE);
/// assert!(driver_error_text(e).starts_with("CUDA_ERROR_INVALID_VALUE"));
/// ```
pub fn driver_error_text(e: result::DriverError) -> String {
    derr(e)
}

fn derr(e: result::DriverError) -> String {
    let name = e
        .error_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| format!("{:?}", e.0));
    let desc = e
        .error_string()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if desc.is_empty() {
        name
    } else {
        format!("{name} ({desc})")
    }
}

pub(crate) fn drv<T>(what: &str, r: Result<T, result::DriverError>) -> Result<T, CudaError> {
    r.map_err(|e| CudaError::Driver {
        what: what.to_string(),
        err: derr(e),
    })
}

// ---- the driver ------------------------------------------------------------------------------

/// Every driver entry point this module calls (cudarc resolves each by name on first use and
/// panics if it is missing): checked by [`check_driver`] before the first call.
///
/// ```
/// assert!(ptx_sync_host::cuda::API_SYMBOLS.contains(&"cuLaunchKernelEx"));
/// ```
pub const API_SYMBOLS: &[&str] = &[
    "cuInit",
    "cuDriverGetVersion",
    "cuGetErrorName",
    "cuGetErrorString",
    "cuDeviceGetCount",
    "cuDeviceGet",
    "cuDeviceGetName",
    "cuDeviceGetAttribute",
    "cuDeviceTotalMem_v2",
    "cuDevicePrimaryCtxRetain",
    "cuDevicePrimaryCtxRelease_v2",
    "cuCtxSetCurrent",
    "cuModuleLoadDataEx",
    "cuModuleGetFunction",
    "cuModuleUnload",
    "cuMemAlloc_v2",
    "cuMemFree_v2",
    "cuMemsetD32_v2",
    "cuMemcpyHtoD_v2",
    "cuMemcpyDtoH_v2",
    "cuFuncSetAttribute",
    "cuLaunchKernelEx",
    "cuStreamQuery",
    "cuTensorMapEncodeTiled",
];

/// Whether the CUDA driver library can be loaded (without calling into it).
///
/// ```
/// let _maybe = ptx_sync_host::cuda::driver_present();
/// ```
pub fn driver_present() -> bool {
    // SAFETY: only tries to dlopen libcuda.
    unsafe { sys::is_culib_present() }
}

/// Whether the loaded driver library exports `name`.
///
/// ```no_run
/// assert!(ptx_sync_host::cuda::has_symbol("cuInit"));
/// ```
pub fn has_symbol(name: &str) -> bool {
    if !driver_present() {
        return false;
    }
    // SAFETY: only looks the symbol up; the library is present.
    unsafe {
        sys::culib()
            .get::<unsafe extern "C" fn()>(name.as_bytes())
            .is_ok()
    }
}

/// The driver library is there and exports every name of `symbols`; else the first missing one
/// as [`CudaError::OldDriver`], or [`CudaError::NoDriver`] without a library. Never panics.
///
/// ```
/// use ptx_sync_host::cuda::{check_driver, API_SYMBOLS, CudaError};
/// match check_driver(API_SYMBOLS) {
///     Ok(()) | Err(CudaError::NoDriver) | Err(CudaError::OldDriver(_)) => {}
///     Err(e) => panic!("{e}"),
/// }
/// ```
pub fn check_driver(symbols: &[&str]) -> Result<(), CudaError> {
    if !driver_present() {
        return Err(CudaError::NoDriver);
    }
    if let Some(missing) = symbols.iter().find(|s| !has_symbol(s)) {
        return Err(CudaError::OldDriver(format!(
            "the libcuda.so found lacks `{missing}`: not an NVIDIA CUDA 12+ driver library (check LD_LIBRARY_PATH)"
        )));
    }
    Ok(())
}

/// `cuDriverGetVersion` (1000 × major + 10 × minor), after [`check_driver`].
///
/// ```no_run
/// let v = ptx_sync_host::cuda::driver_version()?;
/// assert!(v >= 12000);
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub fn driver_version() -> Result<i32, CudaError> {
    check_driver(&["cuDriverGetVersion"])?;
    let mut v = 0;
    // SAFETY: valid out pointer; the symbol exists.
    drv("cuDriverGetVersion", unsafe {
        sys::cuDriverGetVersion(&mut v).result()
    })?;
    Ok(v)
}

/// The PTX ISA version of `ptx`'s `.version` directive, as `(major, minor)`.
///
/// ```
/// assert_eq!(ptx_sync_host::cuda::ptx_isa_version(".version 8.6\n.target sm_90\n"), Some((8, 6)));
/// ```
pub fn ptx_isa_version(ptx: &str) -> Option<(u32, u32)> {
    let line = ptx
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with(".version "))?;
    let (a, b) = line[".version ".len()..].trim().split_once('.')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// The oldest released CUDA driver (`cuDriverGetVersion` encoding) that JIT-compiles PTX ISA
/// `v`: the PTX ISA's release history (§12) gives the CUDA release of every ISA version, and a
/// driver accepts its own and older ones. 8.6 is listed with CUDA 12.7, which was never released,
/// so it maps to 12.8. `None` for a version the table does not know.
///
/// ```
/// assert_eq!(ptx_sync_host::cuda::min_driver_for_ptx((8, 3)), Some(12030));
/// ```
pub fn min_driver_for_ptx(v: (u32, u32)) -> Option<i32> {
    Some(match v {
        (8, 0) => 12000,
        (8, 1) => 12010,
        (8, 2) => 12020,
        (8, 3) => 12030,
        (8, 4) => 12040,
        (8, 5) => 12050,
        (8, 6) => 12080, // CUDA 12.7 was never released
        (8, 7) => 12080,
        (8, 8) => 12090,
        (9, 0) => 13000,
        _ => return None,
    })
}

/// `12070` → `"12.7"`.
///
/// ```
/// assert_eq!(ptx_sync_host::cuda::driver_version_text(13000), "13.0");
/// ```
pub fn driver_version_text(v: i32) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}

/// Whether a driver of version `driver` takes `ptx`: [`CudaError::OldDriver`] naming both
/// versions when it is too old. PTX without `.version`, or of a version the table does not know,
/// is left to the JIT.
///
/// ```
/// use ptx_sync_host::cuda::check_ptx_version;
/// assert!(check_ptx_version(".version 8.6\n", 12060).is_err());
/// assert!(check_ptx_version(".version 8.6\n", 12080).is_ok());
/// ```
pub fn check_ptx_version(ptx: &str, driver: i32) -> Result<(), CudaError> {
    if let Some(isa) = ptx_isa_version(ptx) {
        if let Some(min) = min_driver_for_ptx(isa) {
            if driver < min {
                return Err(CudaError::OldDriver(format!(
                    "driver CUDA {} is older than CUDA {}, the first to take PTX ISA {}.{} (PTX ISA §12, release notes)",
                    driver_version_text(driver),
                    driver_version_text(min),
                    isa.0,
                    isa.1
                )));
            }
        }
    }
    Ok(())
}

/// `cuModuleLoadDataEx` of a cubin or NUL-terminated PTX image with an error-log buffer: the
/// error is the driver's code and the log's first lines, joined into one line.
///
/// # Safety
/// `image` points to a cubin, or to NUL-terminated PTX; a context is current.
///
/// ```no_run
/// let _dev = ptx_sync_host::cuda::Device::open(0)?;
/// let ptx = c".version 8.6\n.target sm_90\n.address_size 64\n";
/// // SAFETY: NUL-terminated PTX, the device's context is current.
/// let m = unsafe { ptx_sync_host::cuda::load_module_raw(ptx.as_ptr().cast()) };
/// assert!(m.is_ok());
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub unsafe fn load_module_raw(image: *const c_void) -> Result<sys::CUmodule, String> {
    let mut log = vec![0u8; 8192];
    let mut opts = [
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    let mut vals: [*mut c_void; 2] = [log.as_mut_ptr() as *mut c_void, log.len() as *mut c_void];
    let mut m: sys::CUmodule = std::ptr::null_mut();
    // SAFETY: two options with their values; the log buffer outlives the call.
    let r =
        unsafe { sys::cuModuleLoadDataEx(&mut m, image, 2, opts.as_mut_ptr(), vals.as_mut_ptr()) };
    match r.result() {
        Ok(()) => Ok(m),
        Err(e) => {
            let text =
                String::from_utf8_lossy(&log[..log.iter().position(|&b| b == 0).unwrap_or(0)])
                    .into_owned();
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .take(3)
                .collect();
            if lines.is_empty() {
                Err(derr(e))
            } else {
                Err(format!("{}: {}", derr(e), lines.join(" | ")))
            }
        }
    }
}

// ---- devices ---------------------------------------------------------------------------------

/// One device's description.
///
/// ```no_run
/// let dev = ptx_sync_host::cuda::Device::open(0)?;
/// println!("{} sm_{}{}", dev.info().name, dev.info().compute_capability.0, dev.info().compute_capability.1);
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
#[derive(Clone, Debug, serde::Serialize)]
pub struct DeviceInfo {
    /// The device ordinal.
    pub ordinal: i32,
    /// `cuDeviceGetName`.
    pub name: String,
    /// (major, minor).
    pub compute_capability: (i32, i32),
    /// Streaming multiprocessors.
    pub sms: i32,
    /// Global memory in bytes.
    pub total_mem_bytes: usize,
    /// Resident threads per SM.
    pub max_threads_per_sm: i32,
    /// Whether the device launches clusters (sm_90+).
    pub cluster_launch: bool,
}

fn attr(d: sys::CUdevice, a: sys::CUdevice_attribute) -> Result<i32, CudaError> {
    // SAFETY: d is a valid device.
    drv("cuDeviceGetAttribute", unsafe {
        result::device::get_attribute(d, a)
    })
}

/// The description of device `d` (ordinal `ordinal`), after `cuInit`.
///
/// ```no_run
/// use ptx_sync_host::cuda::{device_info, sys};
/// let _n = ptx_sync_host::cuda::device_count()?;
/// let mut d: sys::CUdevice = 0;
/// // SAFETY: after cuInit (device_count), a valid out pointer.
/// unsafe { sys::cuDeviceGet(&mut d, 0) }.result().unwrap();
/// println!("{}", device_info(0, d)?.name);
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub fn device_info(ordinal: i32, d: sys::CUdevice) -> Result<DeviceInfo, CudaError> {
    use sys::CUdevice_attribute::*;
    Ok(DeviceInfo {
        ordinal,
        name: drv("cuDeviceGetName", result::device::get_name(d))?,
        compute_capability: (
            attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
            attr(d, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        ),
        sms: attr(d, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        // SAFETY: d is valid.
        total_mem_bytes: drv("cuDeviceTotalMem", unsafe { result::device::total_mem(d) })?,
        max_threads_per_sm: attr(d, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)?,
        cluster_launch: attr(d, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH)? != 0,
    })
}

/// `cuInit`, then the number of devices.
///
/// ```no_run
/// let n = ptx_sync_host::cuda::device_count()?;
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub fn device_count() -> Result<i32, CudaError> {
    check_driver(API_SYMBOLS)?;
    result::init().map_err(|e| CudaError::NoDevice(derr(e)))?;
    drv("cuDeviceGetCount", result::device::get_count())
}

/// The primary context of one device, shared (`Arc`) by the [`Device`] and everything made from
/// it — [`Module`], [`DevBuf`], [`StatusWord`] — and released when the last of them is dropped:
/// none of them can call the driver after the context is gone, whatever the drop order.
struct Ctx {
    dev: sys::CUdevice,
    /// Live allocations of this context: start address → size and element type, for the
    /// pointer check of [`Kernel::launch`].
    allocs: Mutex<BTreeMap<u64, Alloc>>,
}

/// One live allocation.
#[derive(Clone, Copy, Debug)]
struct Alloc {
    bytes: usize,
    /// The element type it was made for ([`Device::upload`], [`Device::alloc_for`]); `None`:
    /// untyped bytes ([`Device::alloc`]).
    elem: Option<Elem>,
}

/// An element type: its name (`std::any::type_name`) and size.
#[derive(Clone, Copy, Debug)]
struct Elem {
    name: &'static str,
    size: usize,
}

impl Ctx {
    fn allocs(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Alloc>> {
        // A panic while the lock was held leaves the map consistent (single inserts/removes).
        self.allocs.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// The allocation holding address `p`: (start, allocation).
    fn find(&self, p: u64) -> Option<(u64, Alloc)> {
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
    ctx: Arc<Ctx>,
    info: DeviceInfo,
    driver_version: i32,
    hang_limit: Duration,
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

    fn alloc_typed(&self, bytes: usize, elem: Option<Elem>) -> Result<DevBuf, CudaError> {
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
static HUNG: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

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

// ---- memory ----------------------------------------------------------------------------------

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
    ptr: sys::CUdeviceptr,
    bytes: usize,
    /// Keeps the context alive until the memory is freed.
    ctx: Arc<Ctx>,
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

fn elem_of<T>() -> Elem {
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
    buf: DevBuf,
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

// ---- modules and kernels ---------------------------------------------------------------------

/// A loaded module, unloaded on drop.
///
/// ```no_run
/// # let dev = ptx_sync_host::cuda::Device::open(0)?;
/// let m = dev.load_ptx(".version 8.6\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n")?;
/// let k = m.kernel("k")?;
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub struct Module {
    m: sys::CUmodule,
    ptx: Option<String>,
    /// Keeps the context alive until the module is unloaded.
    ctx: Arc<Ctx>,
}

impl Module {
    /// Kernel `name` of this module, with its `.param` list when the module's PTX is known.
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// # let m = dev.load_ptx("")?;
    /// let k = m.kernel("scale")?;
    /// assert_eq!(k.name(), "scale");
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn kernel(&self, name: &str) -> Result<Kernel<'_>, CudaError> {
        let c = CString::new(name)
            .map_err(|_| CudaError::Invalid(format!("kernel name {name:?} has a NUL")))?;
        // SAFETY: the module is loaded.
        let f = drv(&format!("cuModuleGetFunction({name})"), unsafe {
            result::module::get_function(self.m, c)
        })?;
        let params = match &self.ptx {
            Some(ptx) => Some(ptx_params(ptx, name).ok_or_else(|| {
                CudaError::Invalid(format!(
                    "kernel {name} is in the module but its `.entry` is not in the PTX given"
                ))
            })?),
            None => None,
        };
        let dyn_smem = self
            .ptx
            .as_deref()
            .map(|ptx| dynamic_shared_arrays(ptx, name))
            .unwrap_or_default();
        Ok(Kernel {
            f,
            name: name.to_string(),
            params,
            dyn_smem,
            module: self,
        })
    }

    /// The raw module handle.
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// # let m = dev.load_ptx("")?;
    /// let _raw = m.raw();
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn raw(&self) -> sys::CUmodule {
        self.m
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        if hung() {
            return;
        }
        // SAFETY: loaded by load_ptx / load_cubin in `self.ctx`, which this module keeps retained.
        unsafe {
            let _ = result::module::unload(self.m);
        }
    }
}

/// Three launch dimensions. From `u32` (x), `(x, y)` or `(x, y, z)`.
///
/// ```
/// use ptx_sync_host::cuda::Dim3;
/// assert_eq!(Dim3::from(4), Dim3 { x: 4, y: 1, z: 1 });
/// assert_eq!(Dim3::from((2, 3)), Dim3 { x: 2, y: 3, z: 1 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3 {
    /// x.
    pub x: u32,
    /// y.
    pub y: u32,
    /// z.
    pub z: u32,
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Self {
        Dim3 { x, y: 1, z: 1 }
    }
}
impl From<(u32, u32)> for Dim3 {
    fn from((x, y): (u32, u32)) -> Self {
        Dim3 { x, y, z: 1 }
    }
}
impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Dim3 { x, y, z }
    }
}

/// How to launch: grid and block, optional cluster dims (sm_90), dynamic shared memory, and
/// programmatic dependent launch.
///
/// ```
/// use ptx_sync_host::cuda::LaunchConfig;
/// let cfg = LaunchConfig::new((4, 2), 128).cluster(2).dyn_smem(64 * 1024).programmatic_dependent_launch(true);
/// assert_eq!(cfg.grid.y, 2);
/// assert_eq!(cfg.cluster.unwrap().x, 2);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct LaunchConfig {
    /// Blocks per grid.
    pub grid: Dim3,
    /// Threads per block.
    pub block: Dim3,
    /// Blocks per cluster (`CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION`); the grid is a multiple.
    pub cluster: Option<Dim3>,
    /// Dynamic shared memory in bytes (`sharedMemBytes`; above 48 KiB the launch sets
    /// `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` first).
    pub dyn_smem: u32,
    /// `CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION` (programmatic dependent launch,
    /// sm_90): this kernel may start before the previous kernel of the stream has finished, once
    /// every CTA of that kernel has executed `griddepcontrol.launch_dependents` or exited. That
    /// instruction orders no memory: this kernel must execute `griddepcontrol.wait` (which waits
    /// for the prerequisite grids to complete and their memory operations to be visible) before
    /// it reads what the previous kernel wrote (PTX ISA, "Parallel Synchronization and
    /// Communication Instructions: griddepcontrol"; CUDA driver API, `CUlaunchAttributeID`).
    pub pdl: bool,
    /// The stream (null: the default stream).
    pub stream: sys::CUstream,
}

impl LaunchConfig {
    /// `grid` blocks of `block` threads, nothing else.
    ///
    /// ```
    /// let cfg = ptx_sync_host::cuda::LaunchConfig::new(8, (32, 4));
    /// assert_eq!((cfg.grid.x, cfg.block.y, cfg.dyn_smem), (8, 4, 0));
    /// ```
    pub fn new(grid: impl Into<Dim3>, block: impl Into<Dim3>) -> Self {
        LaunchConfig {
            grid: grid.into(),
            block: block.into(),
            cluster: None,
            dyn_smem: 0,
            pdl: false,
            stream: std::ptr::null_mut(),
        }
    }
    /// With cluster dims.
    ///
    /// ```
    /// let cfg = ptx_sync_host::cuda::LaunchConfig::new(4, 64).cluster((2, 1, 1));
    /// assert!(cfg.cluster.is_some());
    /// ```
    pub fn cluster(mut self, c: impl Into<Dim3>) -> Self {
        self.cluster = Some(c.into());
        self
    }
    /// With `bytes` of dynamic shared memory.
    ///
    /// ```
    /// assert_eq!(ptx_sync_host::cuda::LaunchConfig::new(1, 32).dyn_smem(1024).dyn_smem, 1024);
    /// ```
    pub fn dyn_smem(mut self, bytes: u32) -> Self {
        self.dyn_smem = bytes;
        self
    }
    /// With or without the programmatic-dependent-launch attribute.
    ///
    /// ```
    /// assert!(ptx_sync_host::cuda::LaunchConfig::new(1, 32).programmatic_dependent_launch(true).pdl);
    /// ```
    pub fn programmatic_dependent_launch(mut self, on: bool) -> Self {
        self.pdl = on;
        self
    }
    /// On `stream` (a cudarc `CUstream` of the current context).
    ///
    /// ```
    /// let cfg = ptx_sync_host::cuda::LaunchConfig::new(1, 32).stream(std::ptr::null_mut());
    /// assert!(cfg.stream.is_null());
    /// ```
    pub fn stream(mut self, s: sys::CUstream) -> Self {
        self.stream = s;
        self
    }
}

/// A kernel of a [`Module`].
///
/// ```no_run
/// # let dev = ptx_sync_host::cuda::Device::open(0)?;
/// # let m = dev.load_ptx("")?;
/// let k = m.kernel("scale")?;
/// println!("{} takes {:?}", k.name(), k.params());
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub struct Kernel<'m> {
    f: sys::CUfunction,
    name: String,
    params: Option<Vec<PtxParam>>,
    /// The `.extern .shared` arrays it uses ([`dynamic_shared_arrays`]).
    dyn_smem: Vec<String>,
    module: &'m Module,
}

impl Kernel<'_> {
    /// The kernel's name.
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// # let m = dev.load_ptx("")?;
    /// assert_eq!(m.kernel("k")?.name(), "k");
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Its `.param` list from the PTX (`None` for a cubin loaded without its PTX).
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// # let m = dev.load_ptx("")?;
    /// let n = m.kernel("k")?.params().map_or(0, |p| p.len());
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn params(&self) -> Option<&[PtxParam]> {
        self.params.as_deref()
    }
    /// The raw function handle.
    ///
    /// ```no_run
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// # let m = dev.load_ptx("")?;
    /// let _f = m.kernel("k")?.raw();
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn raw(&self) -> sys::CUfunction {
        self.f
    }

    /// Enqueues the kernel with parameters `p` (`cuLaunchKernelEx`, the struct's bytes as the
    /// parameter buffer); does not wait (see [`Device::synchronize`]). Before the driver sees
    /// anything, [`CudaError::Params`] naming the field and the parameter when:
    ///
    /// * `P`'s fields differ from the kernel's `.param` list in offset or size, or a parameter
    ///   the PTX declares `.ptr` is a value field, or points to elements of another alignment
    ///   ([`check_params`]);
    /// * a pointer field holds an address in no live allocation of this device (a value where a
    ///   pointer is expected, freed memory, another device's memory), misaligned for its element
    ///   type or the `.ptr .align`, with no room for one element, or inside a buffer made for
    ///   elements of another size ([`Device::upload`], [`Device::alloc_for`]: two pointers of
    ///   different element types swapped). Null is passed as it is. Two swapped pointers to
    ///   buffers of the same element type cannot be told apart: the PTX names no sizes;
    /// * the kernel uses dynamic shared memory (an `.extern .shared` array, such as
    ///   `ptx_sync::dynamic_smem!`'s `__ptx_sync_dyn_smem`, in its body or a function it calls)
    ///   and `cfg.dyn_smem` is 0.
    ///
    /// # Safety
    /// The kernel's behaviour with these parameters and this configuration is defined: its
    /// pointers point to live device memory of the sizes it accesses, and it meets the ISA's
    /// preconditions (cluster dims for cluster code, shared-memory sizes, `griddepcontrol.wait`
    /// before reading a predecessor's output under `pdl`).
    ///
    /// ```no_run
    /// use ptx_sync_host::cuda::{kernel_params, Device, LaunchConfig};
    /// kernel_params! { pub struct P { pub out: *mut u32, pub n: u32, pub _pad: u32 } }
    /// # let dev = Device::open(0)?;
    /// # let m = dev.load_ptx("")?;
    /// let out = dev.alloc(4 * 256)?;
    /// // SAFETY: `fill` writes n words to out.
    /// unsafe { m.kernel("fill")?.launch(&LaunchConfig::new(2, 128), &P { out: out.ptr(), n: 256, _pad: 0 })? };
    /// dev.synchronize()?;
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub unsafe fn launch<P: KernelParams>(
        &self,
        cfg: &LaunchConfig,
        p: &P,
    ) -> Result<(), CudaError> {
        let Some(list) = &self.params else {
            return Err(CudaError::Invalid(format!(
                "kernel {}: no PTX to check the parameters against (load_cubin(.., Some(ptx)), or launch_unchecked)",
                self.name
            )));
        };
        let n = check_params::<P>(&self.name, list)?;
        check_values(&self.name, list, p, &self.module.ctx)?;
        if cfg.dyn_smem == 0 {
            if let Some(sym) = self.dyn_smem.first() {
                return Err(CudaError::Params(ParamMismatch {
                    kernel: self.name.clone(),
                    params: std::any::type_name::<P>(),
                    detail: format!(
                        "launch: dyn_smem is 0, but the kernel uses dynamic shared memory (`.extern .shared` {sym}): give its size with LaunchConfig::dyn_smem(bytes)"
                    ),
                }));
            }
        }
        // SAFETY: the caller's contract; the buffer matches the .param list (checked).
        unsafe { self.launch_unchecked(cfg, &p.as_bytes()[..n]) }
    }

    /// Enqueues the kernel with the parameter buffer `params` as it is (no check).
    ///
    /// # Safety
    /// As [`launch`](Self::launch), and `params` is laid out as the kernel's `.param` list.
    ///
    /// ```no_run
    /// use ptx_sync_host::cuda::LaunchConfig;
    /// # let dev = ptx_sync_host::cuda::Device::open(0)?;
    /// # let m = dev.load_ptx("")?;
    /// // SAFETY: `k` takes one u32 and ignores it.
    /// unsafe { m.kernel("k")?.launch_unchecked(&LaunchConfig::new(1, 32), &7u32.to_le_bytes())? };
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub unsafe fn launch_unchecked(
        &self,
        cfg: &LaunchConfig,
        params: &[u8],
    ) -> Result<(), CudaError> {
        // SAFETY: forwarded contract; the shared-memory limit is raised first.
        unsafe {
            set_max_dyn_smem(self.f, &self.name, cfg.dyn_smem)?;
            launch_function(self.f, &self.name, cfg, params)
        }
    }
}

/// Sets `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` of `f` to `bytes` when `bytes` is above
/// the 48 KiB every kernel may use without it (CUDA driver API, `cuFuncSetAttribute`); nothing
/// otherwise. Errors name `name`.
///
/// # Safety
/// `f` is a valid function of the current context.
///
/// ```no_run
/// # let dev = ptx_sync_host::cuda::Device::open(0)?;
/// # let m = dev.load_ptx("")?;
/// let k = m.kernel("big_smem")?;
/// // SAFETY: a function of the current context.
/// unsafe { ptx_sync_host::cuda::set_max_dyn_smem(k.raw(), k.name(), 128 * 1024)? };
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub unsafe fn set_max_dyn_smem(
    f: sys::CUfunction,
    name: &str,
    bytes: u32,
) -> Result<(), CudaError> {
    if bytes <= 48 * 1024 {
        return Ok(());
    }
    // SAFETY: f is valid (the caller's contract).
    unsafe {
        sys::cuFuncSetAttribute(
            f,
            sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            bytes as i32,
        )
    }
    .result()
    .map_err(|e| CudaError::Launch {
        kernel: name.into(),
        err: format!("cannot set {bytes} B of shared memory: {}", derr(e)),
    })
}

/// `cuLaunchKernelEx` of function `f` (named `name` in errors) with the parameter buffer
/// `params` (`CU_LAUNCH_PARAM_BUFFER_POINTER`/`_SIZE`) and the cluster and PDL attributes of
/// `cfg`. Sets no function attribute: [`Kernel::launch_unchecked`] calls [`set_max_dyn_smem`]
/// first.
///
/// # Safety
/// As [`Kernel::launch_unchecked`]; `f` is a valid function of the current context, and its
/// dynamic shared memory limit admits `cfg.dyn_smem`.
///
/// ```no_run
/// use ptx_sync_host::cuda::{launch_function, LaunchConfig};
/// # let dev = ptx_sync_host::cuda::Device::open(0)?;
/// # let m = dev.load_ptx("")?;
/// let k = m.kernel("k")?;
/// // SAFETY: `k` takes one u32 and ignores it; no dynamic shared memory.
/// unsafe { launch_function(k.raw(), k.name(), &LaunchConfig::new(1, 32), &0u32.to_le_bytes())? };
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub unsafe fn launch_function(
    f: sys::CUfunction,
    name: &str,
    cfg: &LaunchConfig,
    params: &[u8],
) -> Result<(), CudaError> {
    let mut buf: Vec<u8> = params.to_vec();
    let mut size: usize = buf.len();
    let mut extra: [*mut c_void; 5] = [
        sys::CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT as usize as *mut c_void,
        buf.as_mut_ptr() as *mut c_void,
        sys::CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT as usize as *mut c_void,
        &mut size as *mut usize as *mut c_void,
        std::ptr::null_mut(), // CU_LAUNCH_PARAM_END
    ];
    // SAFETY: a zeroed attribute is a valid POD; id and value are set below.
    let mut attrs: [sys::CUlaunchAttribute; 2] = unsafe { std::mem::zeroed() };
    let mut n = 0;
    if let Some(c) = cfg.cluster {
        attrs[n].id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
        attrs[n].value.clusterDim.x = c.x;
        attrs[n].value.clusterDim.y = c.y;
        attrs[n].value.clusterDim.z = c.z;
        n += 1;
    }
    if cfg.pdl {
        attrs[n].id =
            sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
        attrs[n].value.programmaticStreamSerializationAllowed = 1;
        n += 1;
    }
    let lc = sys::CUlaunchConfig {
        gridDimX: cfg.grid.x,
        gridDimY: cfg.grid.y,
        gridDimZ: cfg.grid.z,
        blockDimX: cfg.block.x,
        blockDimY: cfg.block.y,
        blockDimZ: cfg.block.z,
        sharedMemBytes: cfg.dyn_smem,
        hStream: cfg.stream,
        attrs: attrs.as_mut_ptr(),
        numAttrs: n as u32,
    };
    // SAFETY: the caller's contract; `extra` is terminated and its buffers outlive the call.
    unsafe { sys::cuLaunchKernelEx(&lc, f, std::ptr::null_mut(), extra.as_mut_ptr()) }
        .result()
        .map_err(|e| CudaError::Launch {
            kernel: name.into(),
            err: format!("launch of {name}: {}", derr(e)),
        })
}

// ---- the parameter check ---------------------------------------------------------------------

/// One `.param` of a kernel in PTX: its index, byte offset in the parameter buffer (each
/// parameter at its alignment, PTX ISA §5.1.6.1), size and alignment, and its `.ptr` attribute
/// (§5.1.6.3) if it has one.
///
/// ```
/// use ptx_sync_host::cuda::{ptx_params, PtrAttr, PtxParam};
/// let ptx = ".visible .entry k(\n.param .u32 k_param_0,\n.param .u64 .ptr .global .align 8 k_param_1\n)\n{ ret; }";
/// let ptr = Some(PtrAttr { space: Some("global".into()), align: Some(8) });
/// assert_eq!(ptx_params(ptx, "k").unwrap()[1], PtxParam { index: 1, offset: 8, size: 8, align: 8, ptr });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxParam {
    /// Position in the list.
    pub index: usize,
    /// Byte offset in the parameter buffer.
    pub offset: usize,
    /// Size in bytes.
    pub size: usize,
    /// Alignment in bytes.
    pub align: usize,
    /// The `.ptr` attribute: the parameter is a pointer to memory (PTX ISA §5.1.6.3).
    pub ptr: Option<PtrAttr>,
}

/// A `.ptr` attribute: `.ptr [.space] [.align N]` (PTX ISA §5.1.6.3: "If no alignment is
/// specified, the memory pointed to is assumed to be aligned to a 4 byte boundary").
///
/// ```
/// let a = ptx_sync_host::cuda::PtrAttr { space: None, align: None };
/// assert_eq!(a.pointee_align(), 4);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtrAttr {
    /// `global`, `const`, `local` or `shared`; `None`: a generic address.
    pub space: Option<String>,
    /// The `.align N` of the memory pointed to.
    pub align: Option<usize>,
}

impl PtrAttr {
    /// The alignment the memory pointed to has: `N`, or 4 without `.align`.
    ///
    /// ```
    /// let a = ptx_sync_host::cuda::PtrAttr { space: None, align: Some(16) };
    /// assert_eq!(a.pointee_align(), 16);
    /// ```
    pub fn pointee_align(&self) -> usize {
        self.align.unwrap_or(4)
    }
}

/// PTX text with `//` and `/* */` comments removed.
fn strip_ptx_comments(ptx: &str) -> String {
    let mut out = String::with_capacity(ptx.len());
    let mut rest = ptx;
    while let Some(i) = rest.find('/') {
        out.push_str(&rest[..i]);
        let r = &rest[i..];
        if r.starts_with("//") {
            rest = r.find('\n').map_or("", |k| &r[k..]);
        } else if r.starts_with("/*") {
            rest = r.find("*/").map_or("", |k| &r[k + 2..]);
        } else {
            out.push('/');
            rest = &r[1..];
        }
    }
    out.push_str(rest);
    out
}

/// Whether `w` occurs in `text` as a whole PTX identifier.
fn has_word(text: &str, w: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    text.match_indices(w).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(ident)
            && !text[i + w.len()..].chars().next().is_some_and(ident)
    })
}

/// The functions of a module: name → (whether it is an `.entry`, its body).
fn ptx_bodies(ptx: &str) -> BTreeMap<String, (bool, String)> {
    let text = strip_ptx_comments(ptx);
    let mut out = BTreeMap::new();
    let mut pos = 0;
    while let Some(k) = [".entry", ".func"]
        .iter()
        .filter_map(|kw| {
            text[pos..]
                .find(kw)
                .map(|i| (pos + i, kw.len(), *kw == ".entry"))
        })
        .min()
    {
        let (at, kwlen, entry) = k;
        pos = at + kwlen;
        let mut rest = text[pos..].trim_start();
        if rest.starts_with('(') {
            // A `.func`'s return parameters.
            rest = rest.find(')').map_or("", |i| rest[i + 1..].trim_start());
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        // The body: the `{` after the header's statement, up to its matching `}`; a `;` first
        // means a declaration without a body.
        let from = text.len() - rest.len();
        let Some(open) = text[from..].find(['{', ';']).map(|i| from + i) else {
            break;
        };
        if text.as_bytes()[open] == b';' || name.is_empty() {
            pos = open + 1;
            continue;
        }
        let mut depth = 0usize;
        let mut end = text.len();
        for (i, c) in text[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.insert(name, (entry, text[open..end].to_string()));
        pos = end;
    }
    out
}

/// The `.extern .shared` arrays of `ptx` (dynamic shared memory: PTX ISA §5.1.5, "the size of
/// an `.extern` shared array is given at launch") that kernel `name` uses, in its own body or
/// in a function it calls (transitively).
///
/// ```
/// let ptx = ".extern .shared .align 1024 .b8 __ptx_sync_dyn_smem[];\n\
///            .visible .entry k() { mov.u64 %rd1, __ptx_sync_dyn_smem; ret; }\n\
///            .visible .entry j() { ret; }\n";
/// assert_eq!(ptx_sync_host::cuda::dynamic_shared_arrays(ptx, "k"), ["__ptx_sync_dyn_smem"]);
/// assert!(ptx_sync_host::cuda::dynamic_shared_arrays(ptx, "j").is_empty());
/// ```
pub fn dynamic_shared_arrays(ptx: &str, name: &str) -> Vec<String> {
    let text = strip_ptx_comments(ptx);
    let mut externs = Vec::new();
    for stmt in text.split(';') {
        let toks: Vec<&str> = stmt.split_whitespace().collect();
        if toks.contains(&".extern") && toks.contains(&".shared") {
            if let Some(last) = toks.last() {
                let id: String = last
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                    .collect();
                if !id.is_empty() {
                    externs.push(id);
                }
            }
        }
    }
    if externs.is_empty() {
        return externs;
    }
    let bodies = ptx_bodies(ptx);
    let mut seen = vec![name.to_string()];
    let mut k = 0;
    while k < seen.len() {
        if let Some((_, body)) = bodies.get(&seen[k]) {
            for f in bodies.keys() {
                if !seen.contains(f) && has_word(body, f) {
                    seen.push(f.clone());
                }
            }
        }
        k += 1;
    }
    externs
        .into_iter()
        .filter(|x| {
            seen.iter()
                .any(|f| bodies.get(f).is_some_and(|(_, b)| has_word(b, x)))
        })
        .collect()
}

/// The `.param` list of kernel `name` in `ptx`, in order, or `None` if the kernel is not there.
/// Scalars (`.param .u64 .ptr .align 1 k_param_0`: the `.align` of a `.ptr` is the pointee's)
/// are their type's size and alignment; arrays (`.param .align 64 .b8 k_param_0[128]`) their
/// length and `.align`.
///
/// ```
/// let ptx = ".visible .entry t(\n.param .align 64 .b8 t_param_0[128],\n.param .u32 t_param_1\n)\n";
/// let p = ptx_sync_host::cuda::ptx_params(ptx, "t").unwrap();
/// assert_eq!((p[0].size, p[0].align, p[1].offset), (128, 64, 128));
/// ```
pub fn ptx_params(ptx: &str, name: &str) -> Option<Vec<PtxParam>> {
    let head = format!(".entry {name}(");
    let start = ptx.find(&head)? + head.len();
    let end = start + ptx[start..].find(')')?;
    let mut out = Vec::new();
    let mut off = 0usize;
    for p in ptx[start..end].split(',') {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        // `.ptr.global.align 16` is `.ptr .global .align 16` (§5.1.6.3).
        let spaced = p.replace('.', " .");
        let toks: Vec<&str> = spaced.split_whitespace().collect();
        let after = |kw: &str| {
            toks.iter()
                .position(|t| *t == kw)
                .and_then(|k| toks.get(k + 1))
                .and_then(|a| a.parse::<usize>().ok())
        };
        let ptr_at = toks.iter().position(|t| *t == ".ptr");
        let (size, align) = if let Some(lb) = p.find('[') {
            let size: usize = p[lb + 1..p.find(']')?].parse().ok()?;
            (size, after(".align").unwrap_or(1))
        } else {
            let ty = toks.iter().find(|t| {
                t.len() > 2
                    && t.starts_with(['.'])
                    && matches!(t.as_bytes()[1], b'u' | b's' | b'b' | b'f')
                    && t[2..].bytes().all(|c| c.is_ascii_digit())
            })?;
            let bits: usize = ty[2..].parse().ok()?;
            (bits / 8, bits / 8)
        };
        let ptr = ptr_at.map(|k| {
            let tail = &toks[k + 1..];
            PtrAttr {
                space: tail.first().and_then(|t| {
                    ["global", "const", "local", "shared"]
                        .into_iter()
                        .find(|s| t.strip_prefix('.') == Some(*s))
                        .map(String::from)
                }),
                align: tail
                    .iter()
                    .position(|t| *t == ".align")
                    .and_then(|i| tail.get(i + 1))
                    .and_then(|a| a.parse().ok()),
            }
        });
        let align: usize = align.max(1);
        off = off.div_ceil(align) * align;
        out.push(PtxParam {
            index: out.len(),
            offset: off,
            size,
            align,
            ptr,
        });
        off += size;
    }
    Some(out)
}

/// A parameter struct that differs from the kernel's `.param` list, or a launch whose values the
/// PTX refuses, naming the field and the parameter.
///
/// ```
/// use ptx_sync_host::cuda::{check_params, kernel_params, ptx_params};
/// kernel_params! { pub struct P { pub n: u32, pub _pad: u32, pub out: *mut u32 } }
/// let ptx = ".entry k(\n.param .u64 k_param_0,\n.param .u32 k_param_1\n)";
/// let e = check_params::<P>("k", &ptx_params(ptx, "k").unwrap()).unwrap_err();
/// assert!(e.to_string().contains("field `n`"), "{e}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamMismatch {
    /// The kernel.
    pub kernel: String,
    /// The parameter struct's type name.
    pub params: &'static str,
    /// What differs, one sentence.
    pub detail: String,
}

impl fmt::Display for ParamMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "parameters of kernel {}: {} {}",
            self.kernel, self.params, self.detail
        )
    }
}

impl std::error::Error for ParamMismatch {}

/// The fields of `P` that are parameters (`_…` fields are explicit padding).
fn param_fields<P: KernelParams>() -> Vec<&'static Field> {
    P::FIELDS
        .iter()
        .filter(|f| !f.name.starts_with('_'))
        .collect()
}

/// Compares `P`'s fields one by one with `list` (offset and size of the `i`-th field against
/// parameter `i`); fields named `_…` are explicit padding and skipped. A parameter the PTX
/// declares `.ptr` (PTX ISA §5.1.6.3) must be a pointer field (`*const T`/`*mut T`), and where
/// it declares `.align N` with `N > 1` (the alignment of the memory it points to), `T`'s
/// alignment must be `N` — unless `T` is a byte type (`align_of` 1: untyped memory; the launch
/// then checks the address against `N`). A pointer field whose parameter has no `.ptr` is
/// accepted: nvcc's PTX declares pointers as plain `.u64`. Returns the number of bytes to pass
/// (the end of the last parameter).
///
/// ```
/// use ptx_sync_host::cuda::{check_params, kernel_params, ptx_params};
/// kernel_params! { pub struct P { pub out: *mut u32, pub n: u32, pub _pad: u32 } }
/// let ptx = ".entry k(\n.param .u64 .ptr .align 1 k_param_0,\n.param .u32 k_param_1\n)";
/// assert_eq!(check_params::<P>("k", &ptx_params(ptx, "k").unwrap()), Ok(12));
/// ```
pub fn check_params<P: KernelParams>(
    kernel: &str,
    list: &[PtxParam],
) -> Result<usize, ParamMismatch> {
    let err = |detail: String| ParamMismatch {
        kernel: kernel.into(),
        params: std::any::type_name::<P>(),
        detail,
    };
    // Fields named `_...` are explicit padding (kernel_params! forbids implicit padding): they
    // are bytes of the buffer, not parameters.
    let fields = param_fields::<P>();
    for (i, f) in fields.iter().enumerate() {
        match list.get(i) {
            Some(p) if p.offset == f.offset && p.size == f.size => {
                if let Some(ptr) = &p.ptr {
                    let Some(pointee) = f.pointee else {
                        return Err(err(format!(
                            "field `{}` is a value ({}) where .param #{i} is a pointer (.ptr)",
                            f.name, f.ty
                        )));
                    };
                    let n = ptr.pointee_align();
                    if ptr.align.is_some() && n > 1 && pointee.align > 1 && pointee.align != n {
                        return Err(err(format!(
                            "field `{}` ({}) points to {}-byte-aligned elements; .param #{i} points to memory aligned to {n} (.ptr .align {n})",
                            f.name, f.ty, pointee.align
                        )));
                    }
                }
            }
            Some(p) => {
                return Err(err(format!(
                "field `{}` (offset {}, {} bytes) differs from .param #{i} (offset {}, {} bytes)",
                f.name, f.offset, f.size, p.offset, p.size
            )))
            }
            None => {
                return Err(err(format!(
                    "field `{}` has no .param: the kernel takes {} parameter(s)",
                    f.name,
                    list.len()
                )))
            }
        }
    }
    if let Some(p) = list.get(fields.len()) {
        return Err(err(format!(
            "has {} parameter field(s); the kernel's .param #{} (offset {}, {} bytes) has no field",
            fields.len(),
            p.index,
            p.offset,
            p.size
        )));
    }
    Ok(list.last().map_or(0, |p| p.offset + p.size))
}

/// The launch-time half of the check, on the values of `p` (after [`check_params`]): every
/// pointer field (a `*const T`/`*mut T` field, or a parameter the PTX declares `.ptr`) holds
/// null or an address inside a live allocation of `ctx`'s device, aligned to `T` and to the
/// `.ptr .align` (4 without one, PTX ISA §5.1.6.3), with room for one `T`; an allocation made
/// for elements of another size ([`Device::upload`], [`Device::alloc_for`]) is refused — two
/// pointers of different element types swapped. Errors name the field and the parameter.
fn check_values<P: KernelParams>(
    kernel: &str,
    list: &[PtxParam],
    p: &P,
    ctx: &Ctx,
) -> Result<(), ParamMismatch> {
    let err = |detail: String| ParamMismatch {
        kernel: kernel.into(),
        params: std::any::type_name::<P>(),
        detail,
    };
    let bytes = p.as_bytes();
    for (i, f) in param_fields::<P>().into_iter().enumerate() {
        let attr = list.get(i).and_then(|p| p.ptr.as_ref());
        let Some(pointee) = f.pointee else {
            continue;
        };
        let Some(v) = bytes
            .get(f.offset..f.offset + 8)
            .and_then(|b| b.try_into().ok())
            .map(u64::from_le_bytes)
        else {
            continue;
        };
        if v == 0 {
            continue; // null: the kernel decides what it means
        }
        let Some((start, a)) = ctx.find(v) else {
            return Err(err(format!(
                "field `{}` ({}, .param #{i}) holds {v:#x}, which is in no live allocation of this device: a value where a pointer is expected, or freed memory (memory from elsewhere: launch_unchecked)",
                f.name, f.ty
            )));
        };
        let align = pointee.align.max(attr.map_or(1, PtrAttr::pointee_align));
        if v % align as u64 != 0 {
            return Err(err(format!(
                "field `{}` ({}, .param #{i}) holds {v:#x}, not aligned to {align} bytes",
                f.name, f.ty
            )));
        }
        let left = start + a.bytes as u64 - v;
        if left < pointee.size as u64 {
            return Err(err(format!(
                "field `{}` ({}, .param #{i}) points {left} byte(s) before the end of a {}-byte allocation: no room for one {}-byte element",
                f.name, f.ty, a.bytes, pointee.size
            )));
        }
        if let Some(e) = a.elem {
            if e.size != pointee.size && e.size > 1 && pointee.size > 1 {
                return Err(err(format!(
                    "field `{}` ({}, {}-byte elements, .param #{i}) points into a buffer of {} ({}-byte elements) at {start:#x}: pointers swapped?",
                    f.name, f.ty, pointee.size, e.name, e.size
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    kernel_params! {
        struct Two { a: *mut u32, n: u32, _pad: u32 }
        struct Swapped { n: u32, _p: u32, a: *mut u32 }
        struct Short { a: *mut u32 }
        struct Wide { a: *mut u32, n: u64 }
    }

    const PTX: &str = ".visible .entry k(\n\t.param .u64 .ptr .align 1 k_param_0,\n\t.param .u32 k_param_1\n)\n{\n}\n.visible .entry t(\n\t.param .align 64 .b8 t_param_0[128],\n\t.param .u32 t_param_1\n)\n";

    #[test]
    fn param_lists_and_checks() {
        let k = ptx_params(PTX, "k").unwrap();
        assert_eq!(
            k.iter().map(|p| (p.offset, p.size)).collect::<Vec<_>>(),
            [(0, 8), (8, 4)]
        );
        let t = ptx_params(PTX, "t").unwrap();
        assert_eq!(
            t.iter()
                .map(|p| (p.offset, p.size, p.align))
                .collect::<Vec<_>>(),
            [(0, 128, 64), (128, 4, 4)]
        );
        assert_eq!(ptx_params(PTX, "nope"), None);
        assert_eq!(check_params::<Two>("k", &k), Ok(12));
        let e = check_params::<Swapped>("k", &k).unwrap_err().to_string();
        assert!(
            e.contains("field `n` (offset 0, 4 bytes) differs from .param #0 (offset 0, 8 bytes)"),
            "{e}"
        );
        let e = check_params::<Short>("k", &k).unwrap_err().to_string();
        assert!(
            e.contains(".param #1 (offset 8, 4 bytes) has no field"),
            "{e}"
        );
        let e = check_params::<Wide>("k", &k).unwrap_err().to_string();
        assert!(e.contains("field `n` (offset 8, 8 bytes)"), "{e}");
        let e = check_params::<Two>("t", &t).unwrap_err().to_string();
        assert!(e.contains("field `a`"), "{e}");
    }

    #[test]
    fn errors_are_single_lines() {
        for e in [
            CudaError::NoDriver,
            CudaError::NoDevice("x".into()),
            CudaError::OldDriver("x".into()),
            CudaError::Hung { secs: 60 },
            CudaError::Timeout {
                kernel: "k".into(),
                status: 2,
            },
            CudaError::Jit {
                what: "the PTX".into(),
                log: "a | b".into(),
            },
        ] {
            let s = e.to_string();
            assert!(!s.contains('\n') && !s.is_empty(), "{s}");
        }
        assert!(CudaError::Timeout {
            kernel: "k".into(),
            status: 2
        }
        .to_string()
        .contains("0x2"));
    }
}
