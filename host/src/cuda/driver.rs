//! The driver before any context: is `libcuda.so` there with the entry points this module calls,
//! is it new enough for the PTX, and what devices it sees ([`DeviceInfo`]).

use super::*;

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

pub(super) fn attr(d: sys::CUdevice, a: sys::CUdevice_attribute) -> Result<i32, CudaError> {
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
