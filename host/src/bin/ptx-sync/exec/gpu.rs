//! The GPU runtime of the bundled binary: the embedded kernels on top of the library's public
//! API (`ptx_sync_host::cuda`: driver checks, module loading with the JIT log, launches, the
//! parameter check field by field against `ptx_sync_abi`'s structs), plus what only the binary
//! needs (timed launches, occupancy, the embedded images).
//!
//! Nothing here panics on a machine without a GPU: [`Gpu::open`] first asks
//! `cudarc::driver::sys::is_culib_present()` (no `libcuda` → [`GpuError::NoDriver`]) and only then
//! calls into the driver. Launches take their parameters as one `bytemuck::Pod` value passed as
//! the kernel's parameter buffer (`CU_LAUNCH_PARAM_BUFFER_POINTER`): the struct's `#[repr(C)]`
//! layout must equal the kernel's `.param` list (checked against the PTX by
//! [`check_params`] before every launch).

use bytemuck::Pod;
use cudarc::driver::result;
use cudarc::driver::sys;
use ptx_sync_host::cuda::{self, KernelParams};
pub use ptx_sync_host::cuda::{
    driver_version_text, min_driver_for_ptx, ptx_isa_version, DeviceInfo,
};
use std::ffi::{c_void, CString};
use std::fmt;
use std::time::Duration;

/// The kernels' PTX, embedded by `build.rs` from `target/ptx/kernels.ptx` (empty if not built).
pub const KERNELS_PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));

/// The same kernels assembled by ptxas for `sm_90a` (`target/ptx/kernels.sm_90a.cubin`, empty if
/// not built). Loaded first: no JIT on the GPU machine, and the SASS that ran is the SASS that
/// `cargo xtask ptx` dumped and the tests read. The PTX is the fallback (see [`Gpu::open`]).
pub static KERNELS_CUBIN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/kernels.cubin"));

/// The driver entry points this binary calls beyond the library's [`cuda::API_SYMBOLS`] (cudarc
/// resolves each by name on first use and panics if it is missing): checked up front by
/// [`check_driver`], so a wrong or partial `libcuda.so` is one line and exit 1 instead of a panic.
/// `cuEventElapsedTime_v2` (CUDA 12.8+) is optional: older drivers time with `cuEventElapsedTime`.
pub const DRIVER_SYMBOLS: &[&str] = &[
    "cuMemcpyDtoDAsync_v2",
    "cuOccupancyMaxActiveBlocksPerMultiprocessor",
    "cuEventCreate",
    "cuEventRecord",
    "cuEventSynchronize",
    "cuEventElapsedTime",
    "cuEventDestroy_v2",
];

use cuda::has_symbol;

/// Whether the driver has `cuEventElapsedTime_v2` (CUDA 12.8+), checked once.
fn has_elapsed_v2() -> bool {
    static V2: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *V2.get_or_init(|| has_symbol("cuEventElapsedTime_v2"))
}

/// The driver library is there and exports every entry point of [`cuda::API_SYMBOLS`] and
/// [`DRIVER_SYMBOLS`]; else the first missing one, as an error (never a panic).
pub fn check_driver() -> Result<(), GpuError> {
    cuda::check_driver(cuda::API_SYMBOLS).map_err(GpuError::from)?;
    cuda::check_driver(DRIVER_SYMBOLS).map_err(GpuError::from)
}

/// `cuDriverGetVersion` (after [`check_driver`]).
pub fn driver_version() -> Result<i32, GpuError> {
    cuda::driver_version().map_err(GpuError::from)
}

/// Milliseconds between two recorded events: `cuEventElapsedTime_v2` where the driver has it,
/// `cuEventElapsedTime` (same contract) on drivers before CUDA 12.8.
///
/// # Safety
/// Both events were created and recorded on the same stream, and `b` has completed.
pub unsafe fn event_elapsed_ms(a: sys::CUevent, b: sys::CUevent) -> Result<f32, GpuError> {
    let mut ms = 0f32;
    let r = if has_elapsed_v2() {
        // SAFETY: the caller's contract (both events recorded on one stream, `b` completed).
        unsafe { sys::cuEventElapsedTime_v2(&mut ms, a, b) }
    } else {
        // cudarc's CUDA 13 bindings have only the _v2 name; the pre-12.8 entry point has the
        // same signature (CUDA driver API, event management).
        type F = unsafe extern "C" fn(*mut f32, sys::CUevent, sys::CUevent) -> sys::CUresult;
        // SAFETY: the driver library is loaded (the events exist), and `F` is the entry
        // point's C signature.
        match unsafe { sys::culib().get::<F>(b"cuEventElapsedTime") } {
            // SAFETY: the caller's contract, as for the _v2 call.
            Ok(f) => unsafe { f(&mut ms, a, b) },
            Err(_) => {
                return Err(GpuError::OldDriver(
                    "the driver has neither cuEventElapsedTime_v2 nor cuEventElapsedTime".into(),
                ))
            }
        }
    };
    drv("cuEventElapsedTime", r.result())?;
    Ok(ms)
}

/// Median, minimum and maximum of samples (milliseconds, cycles, ...).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub n: usize,
}

impl Spread {
    /// `None` for no samples.
    pub fn of(samples: &[f64]) -> Option<Spread> {
        if samples.is_empty() {
            return None;
        }
        let mut v = samples.to_vec();
        v.sort_by(|a, b| a.total_cmp(b));
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Some(Spread {
            median,
            min: v[0],
            max: v[n - 1],
            n,
        })
    }
}

/// Set once a kernel outlived the host-side hang limit (the library's flag, set by
/// `cuda::wait_stream`): the kernel is still running, and `cuMemFree`/`cuModuleUnload`/releasing
/// the context would block on it, so the drops below leak instead.
fn hung() -> bool {
    cuda::hung()
}

/// Whether the binary carries the kernels' PTX.
pub fn kernels_built() -> bool {
    !KERNELS_PTX.trim().is_empty()
}

/// Why a GPU command could not run. Each renders as one line.
#[derive(Debug)]
pub enum GpuError {
    /// No `libcuda.so` (no NVIDIA driver on this machine).
    NoDriver,
    /// The driver is there but reports no device (or `cuInit` failed).
    NoDevice(String),
    /// The driver library lacks an entry point, or is older than the kernels need.
    OldDriver(String),
    /// The binary was built without `target/ptx/kernels.ptx`.
    NoKernels,
    /// A driver call failed.
    Driver { what: String, err: String },
    /// A kernel trapped, faulted or failed to launch.
    Launch { program: String, err: String },
    /// A kernel did not finish within the host-side limit.
    Hung { program: String, secs: u64 },
    /// Bad arguments (e.g. a tensor-map parameter).
    Invalid(String),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoDriver => write!(
                f,
                "no NVIDIA driver: libcuda.so not found (this command needs a GPU)"
            ),
            GpuError::NoDevice(e) => write!(f, "no CUDA device: {e}"),
            GpuError::OldDriver(e) => write!(f, "unusable CUDA driver: {e}"),
            GpuError::NoKernels => write!(
                f,
                "kernels not built: run `cargo xtask ptx`, then rebuild ptx-sync"
            ),
            GpuError::Driver { what, err } => write!(f, "CUDA driver error in {what}: {err}"),
            GpuError::Launch { program, err } => {
                write!(f, "program {program} failed on the GPU: {err}")
            }
            GpuError::Hung { program, secs } => {
                write!(
                    f,
                    "program {program} did not finish within {secs} s (host-side limit)"
                )
            }
            GpuError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GpuError {}

/// A launch error of the cuda layer, named after `program` (the cuda layer names the kernel).
fn program_error(program: &str, e: cuda::CudaError) -> GpuError {
    match e {
        cuda::CudaError::Launch { err, .. } => GpuError::Launch {
            program: program.into(),
            err,
        },
        e => e.into(),
    }
}

impl From<cuda::CudaError> for GpuError {
    fn from(e: cuda::CudaError) -> Self {
        use cuda::CudaError as C;
        match e {
            C::NoDriver => GpuError::NoDriver,
            C::NoDevice(e) => GpuError::NoDevice(e),
            C::OldDriver(e) => GpuError::OldDriver(e),
            C::Driver { what, err } => GpuError::Driver { what, err },
            C::Launch { kernel, err } => GpuError::Launch {
                program: kernel,
                err,
            },
            C::Hung { secs } => GpuError::Hung {
                program: "(the last launch)".into(),
                secs,
            },
            e => GpuError::Invalid(e.to_string()),
        }
    }
}

fn derr(e: result::DriverError) -> String {
    cuda::driver_error_text(e)
}

fn drv<T>(what: &str, r: Result<T, result::DriverError>) -> Result<T, GpuError> {
    r.map_err(|e| GpuError::Driver {
        what: what.to_string(),
        err: derr(e),
    })
}

fn info(ordinal: i32, d: sys::CUdevice) -> Result<DeviceInfo, GpuError> {
    cuda::device_info(ordinal, d).map_err(GpuError::from)
}

/// Lists the devices, or says why it cannot.
pub fn devices() -> Result<(i32, Vec<DeviceInfo>), GpuError> {
    check_driver()?;
    result::init().map_err(|e| GpuError::NoDevice(derr(e)))?;
    let version = driver_version()?;
    let n = drv("cuDeviceGetCount", result::device::get_count())?;
    let mut out = Vec::new();
    for i in 0..n {
        let d = drv("cuDeviceGet", result::device::get(i))?;
        out.push(info(i, d)?);
    }
    Ok((version, out))
}

/// `cuModuleLoadDataEx` of `image`.
///
/// # Safety
/// `image` is NUL-terminated PTX or a cubin that `cuda::image::validate_image` accepted; the
/// context is current.
unsafe fn load_module(image: *const c_void) -> Result<sys::CUmodule, String> {
    // SAFETY: the caller's contract.
    unsafe { cuda::load_module_raw(image) }
}

/// An open device with the kernels module loaded.
pub struct Gpu {
    pub info: DeviceInfo,
    /// The embedded kernels (unloaded by [`Module`]'s drop).
    module: Module,
    /// Declared after `module`: dropped (context released) after the module is unloaded.
    device: cuda::Device,
    /// What the module was loaded from: `"cubin (sm_90a)"` or `"PTX (JIT)"`.
    pub loaded_from: &'static str,
    /// `cuDriverGetVersion`.
    pub driver_version: i32,
    /// Host-side limit for one kernel (device waits are bounded far below it).
    pub hang_limit: Duration,
}

impl Gpu {
    /// Device 0 with the embedded kernels loaded: the `sm_90a` cubin if the driver takes it,
    /// else the PTX, JIT-compiled by the driver (`cuModuleLoadDataEx` with an error-log buffer, so
    /// a JIT failure says why in one line).
    pub fn open() -> Result<Gpu, GpuError> {
        check_driver()?;
        if !kernels_built() {
            return Err(GpuError::NoKernels);
        }
        result::init().map_err(|e| GpuError::NoDevice(derr(e)))?;
        let version = driver_version()?;
        let isa = ptx_isa_version(KERNELS_PTX)
            .ok_or_else(|| GpuError::Invalid("the embedded PTX has no .version".into()))?;
        if let Some(min) = min_driver_for_ptx(isa) {
            if version < min {
                return Err(GpuError::OldDriver(format!(
                    "driver CUDA {} is older than CUDA {}, the first to take the kernels' PTX ISA \
                     {}.{} (PTX ISA §12, release notes)",
                    driver_version_text(version),
                    driver_version_text(min),
                    isa.0,
                    isa.1
                )));
            }
        }
        // The device and its primary context: the library's `cuda::Device` (released on drop,
        // after the module).
        let device = cuda::Device::open(0)?;
        let info = device.info().clone();
        let mut loaded = "PTX (JIT)";
        let mut module = None;
        let mut cubin_err = String::new();
        // sm_90a code runs on compute capability 9.0 only.
        if !KERNELS_CUBIN.is_empty() && info.compute_capability == (9, 0) {
            // The driver reads as far as the cubin's headers say: checked to lie inside it first.
            match cuda::image::validate_image(KERNELS_CUBIN) {
                Ok(cuda::image::ImageKind::Cubin) => {
                    // SAFETY: a cubin whose declared sizes lie inside it; our context is current.
                    match unsafe { load_module(KERNELS_CUBIN.as_ptr() as *const c_void) } {
                        Ok(m) => {
                            module = Some(m);
                            loaded = "cubin (sm_90a)";
                        }
                        Err(e) => cubin_err = format!(" (the sm_90a cubin was refused: {e})"),
                    }
                }
                Ok(_) => cubin_err = " (the embedded sm_90a cubin is not an ELF image)".into(),
                Err(e) => cubin_err = format!(" (the embedded sm_90a cubin: {e})"),
            }
        }
        let module = match module {
            Some(m) => m,
            None => {
                let ptx = CString::new(KERNELS_PTX)
                    .map_err(|_| GpuError::Invalid("embedded PTX has a NUL byte".into()))?;
                // SAFETY: NUL-terminated PTX; our context is current.
                unsafe { load_module(ptx.as_ptr() as *const c_void) }.map_err(|e| {
                    GpuError::Driver {
                        what: format!("cuModuleLoadDataEx (JIT of the embedded PTX){cubin_err}"),
                        err: e,
                    }
                })?
            }
        };
        Ok(Gpu {
            info,
            module: Module { m: module },
            device,
            loaded_from: loaded,
            driver_version: version,
            hang_limit: Duration::from_secs(60),
        })
    }

    /// Loads a PTX module of its own (JIT-compiled by the driver, `cuModuleLoadDataEx` with an
    /// error-log buffer: a JIT failure says why in one line).
    pub fn load_ptx(&self, what: &str, ptx: &str) -> Result<Module, GpuError> {
        let c = CString::new(ptx)
            .map_err(|_| GpuError::Invalid(format!("{what}: PTX with a NUL byte")))?;
        // SAFETY: NUL-terminated PTX; our context is current.
        let m =
            unsafe { load_module(c.as_ptr() as *const c_void) }.map_err(|e| GpuError::Driver {
                what: format!("cuModuleLoadDataEx (JIT of {what})"),
                err: e,
            })?;
        Ok(Module { m })
    }

    /// A kernel of the embedded module.
    pub fn function(&self, name: &str) -> Result<sys::CUfunction, GpuError> {
        self.module.function(name)
    }

    /// Device memory of `bytes` bytes, zeroed.
    pub fn alloc(&self, bytes: usize) -> Result<DevBuf, GpuError> {
        let buf = self.device.alloc(bytes)?;
        Ok(DevBuf {
            ptr: buf.ptr(),
            buf,
        })
    }

    /// Device memory holding `data`.
    #[allow(dead_code)] // used by the tiled-copy run
    pub fn upload<T: Pod>(&self, data: &[T]) -> Result<DevBuf, GpuError> {
        let b = self.alloc(std::mem::size_of_val(data))?;
        b.write(data)?;
        Ok(b)
    }

    /// The number of blocks of `threads` threads (with `smem` dynamic shared memory) that can be
    /// resident at once on the whole GPU: the grid size for which every CTA runs concurrently.
    pub fn resident_blocks(
        &self,
        f: sys::CUfunction,
        threads: u32,
        smem: usize,
    ) -> Result<u32, GpuError> {
        // SAFETY: f is valid.
        let per_sm = drv("cuOccupancyMaxActiveBlocksPerMultiprocessor", unsafe {
            result::occupancy::max_active_block_per_multiprocessor(f, threads as i32, smem)
        })?;
        Ok((per_sm.max(1) as u32) * self.info.sms as u32)
    }

    /// Launches `program`'s kernel `name` with parameters `p` and the geometry `cfg` (grid,
    /// block, dynamic shared memory, cluster dimension for sm_90) and waits for it. Errors name
    /// the program.
    pub fn launch<P: KernelParams>(
        &self,
        program: &str,
        name: &str,
        cfg: &cuda::LaunchConfig,
        p: &P,
    ) -> Result<(), GpuError> {
        self.launch_with(program, name, cfg, p, false).map(|_| ())
    }

    /// As [`launch`](Self::launch), with events recorded immediately before and after
    /// `cuLaunchKernelEx` on the launch's stream: returns the kernel's device time in ms. The
    /// parameter check, the function lookup and the host's completion polling are outside the
    /// window.
    pub fn launch_timed<P: KernelParams>(
        &self,
        program: &str,
        name: &str,
        cfg: &cuda::LaunchConfig,
        p: &P,
    ) -> Result<f32, GpuError> {
        self.launch_with(program, name, cfg, p, true)
            .map(|ms| ms.unwrap_or(0.0))
    }

    /// The one checked launch behind [`launch`](Self::launch) and
    /// [`launch_timed`](Self::launch_timed): parameter check, function lookup, shared-memory
    /// attribute, then [`launch_raw`](Self::launch_raw).
    fn launch_with<P: KernelParams>(
        &self,
        program: &str,
        name: &str,
        cfg: &cuda::LaunchConfig,
        p: &P,
        timed: bool,
    ) -> Result<Option<f32>, GpuError> {
        let want = check_params::<P>(name).map_err(GpuError::Invalid)?;
        let f = self.function(name)?;
        // SAFETY: f is valid.
        unsafe { cuda::set_max_dyn_smem(f, name, cfg.dyn_smem) }
            .map_err(|e| program_error(program, e))?;
        self.launch_raw(program, name, f, cfg, &p.as_bytes()[..want], timed)
    }

    /// Launches function `f` (named `name` in messages) with the geometry `cfg` and the parameter
    /// buffer `params` as is, and waits for it; `timed`: events right around the launch (returns
    /// ms).
    pub fn launch_raw(
        &self,
        program: &str,
        name: &str,
        f: sys::CUfunction,
        cfg: &cuda::LaunchConfig,
        params: &[u8],
        timed: bool,
    ) -> Result<Option<f32>, GpuError> {
        let events = if timed {
            Some((self.event()?, self.event()?))
        } else {
            None
        };
        if let Some((a, _)) = events {
            // SAFETY: a valid event on the launch's (null) stream.
            drv("cuEventRecord", unsafe {
                result::event::record(a, std::ptr::null_mut())
            })?;
        }
        // SAFETY: f is valid, the parameter buffer matches the kernel's .param list
        // (check_params), the shared-memory attribute was set by the caller.
        unsafe { cuda::launch_function(f, name, cfg, params) }
            .map_err(|e| program_error(program, e))?;
        if let Some((_, b)) = events {
            // SAFETY: as above; recorded right behind the kernel in stream order.
            drv("cuEventRecord", unsafe {
                result::event::record(b, std::ptr::null_mut())
            })?;
        }
        self.wait(program)?;
        match events {
            None => Ok(None),
            // SAFETY: both recorded on the null stream; `wait` saw the stream idle, so `b` is
            // complete.
            Some((a, b)) => unsafe {
                drv("cuEventSynchronize", result::event::synchronize(b))?;
                let ms = event_elapsed_ms(a, b)?;
                let _ = result::event::destroy(a);
                let _ = result::event::destroy(b);
                Ok(Some(ms))
            },
        }
    }

    /// Waits for the device, with the host-side hang limit.
    pub fn wait(&self, program: &str) -> Result<(), GpuError> {
        // SAFETY: the null stream of the current context.
        unsafe { cuda::wait_stream(std::ptr::null_mut(), self.hang_limit, program) }.map_err(|e| {
            match e {
                cuda::CudaError::Hung { secs } => GpuError::Hung {
                    program: program.into(),
                    secs,
                },
                e => e.into(),
            }
        })
    }

    /// Device-to-device copy, timed with events: returns milliseconds.
    #[allow(dead_code)] // used by the tiled-copy run
    pub fn memcpy_dtod_ms(
        &self,
        dst: &DevBuf,
        src: &DevBuf,
        bytes: usize,
    ) -> Result<f32, GpuError> {
        let (a, b) = (self.event()?, self.event()?);
        // SAFETY: both buffers are at least `bytes` long; events are valid.
        unsafe {
            drv(
                "cuEventRecord",
                result::event::record(a, std::ptr::null_mut()),
            )?;
            drv(
                "cuMemcpyDtoDAsync",
                result::memcpy_dtod_async(dst.ptr, src.ptr, bytes, std::ptr::null_mut()),
            )?;
            drv(
                "cuEventRecord",
                result::event::record(b, std::ptr::null_mut()),
            )?;
            drv("cuEventSynchronize", result::event::synchronize(b))?;
            let ms = event_elapsed_ms(a, b)?;
            let _ = result::event::destroy(a);
            let _ = result::event::destroy(b);
            Ok(ms)
        }
    }

    fn event(&self) -> Result<sys::CUevent, GpuError> {
        drv(
            "cuEventCreate",
            result::event::create(sys::CUevent_flags::CU_EVENT_DEFAULT),
        )
    }

    /// The raw device handle (for tensor-map encoding and attributes).
    #[allow(dead_code)] // used by the tiled-copy run
    pub fn device(&self) -> sys::CUdevice {
        self.device.raw()
    }
}

/// A module loaded by [`Gpu::open`] (the embedded kernels) or [`Gpu::load_ptx`], unloaded on
/// drop (before the context: `Gpu` declares its module before its device).
pub struct Module {
    m: sys::CUmodule,
}

impl Module {
    /// A kernel of this module.
    pub fn function(&self, name: &str) -> Result<sys::CUfunction, GpuError> {
        let c = CString::new(name).unwrap();
        // SAFETY: the module is loaded.
        drv(&format!("cuModuleGetFunction({name})"), unsafe {
            result::module::get_function(self.m, c)
        })
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        if hung() {
            return; // would block on the stuck kernel (see HUNG)
        }
        // SAFETY: loaded by `open` or `load_ptx`; the context is still current.
        unsafe {
            let _ = result::module::unload(self.m);
        }
    }
}

/// A device allocation, freed on drop: the library's `cuda::DevBuf`, with its address as a field
/// for the runners.
pub struct DevBuf {
    pub ptr: sys::CUdeviceptr,
    buf: cuda::DevBuf,
}

impl DevBuf {
    /// Copies `data` to the start of the buffer (an error if larger).
    pub fn write<T: Pod>(&self, data: &[T]) -> Result<(), GpuError> {
        Ok(self.buf.write(data)?)
    }
    /// Copies the start of the buffer into `out` (an error if larger).
    pub fn read<T: Pod>(&self, out: &mut [T]) -> Result<(), GpuError> {
        Ok(self.buf.read(out)?)
    }
    /// Fills the buffer with the 32-bit pattern `v`.
    pub fn fill_u32(&self, v: u32) -> Result<(), GpuError> {
        Ok(self.buf.fill_u32(v)?)
    }
}

/// The `.param` list of kernel `name` in PTX `ptx` as (size, alignment) pairs, in order, or
/// `None` if the kernel is not there (the library's `cuda::ptx_params`).
#[cfg(test)]
pub fn ptx_param_sizes(ptx: &str, name: &str) -> Option<Vec<(usize, usize)>> {
    Some(
        cuda::ptx_params(ptx, name)?
            .iter()
            .map(|p| (p.size, p.align))
            .collect(),
    )
}

/// The parameter-buffer size the kernel expects: each param at its alignment.
#[cfg(test)]
pub fn param_buffer_size(params: &[(usize, usize)]) -> usize {
    let mut off: usize = 0;
    for &(s, a) in params {
        let a = a.max(1);
        off = off.div_ceil(a) * a + s;
    }
    off
}

/// Checks `P`'s fields one by one against kernel `name`'s `.param` list in the embedded PTX
/// (`cuda::check_params`). Returns the size to pass.
pub fn check_params<P: KernelParams>(name: &str) -> Result<usize, String> {
    let list = cuda::ptx_params(KERNELS_PTX, name).ok_or_else(|| {
        format!("kernel {name} is not in the embedded PTX (rebuild after `cargo xtask ptx`)")
    })?;
    cuda::check_params::<P>(name, &list).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = ".visible .entry k(\n\t.param .u64 .ptr .align 1 k_param_0,\n\t.param .u64 k_param_1,\n\t.param .u32 k_param_2,\n\t.param .u32 k_param_3\n)\n{\n}\n.visible .entry t(\n\t.param .align 64 .b8 t_param_0[128],\n\t.param .u32 t_param_1\n)\n";

    #[test]
    fn reads_param_lists() {
        assert_eq!(
            ptx_param_sizes(PTX, "k"),
            Some(vec![(8, 8), (8, 8), (4, 4), (4, 4)])
        );
        assert_eq!(ptx_param_sizes(PTX, "t"), Some(vec![(128, 64), (4, 4)]));
        assert_eq!(ptx_param_sizes(PTX, "nope"), None);
        assert_eq!(param_buffer_size(&[(8, 8), (8, 8), (4, 4), (4, 4)]), 24);
        assert_eq!(param_buffer_size(&[(4, 4), (8, 8)]), 16);
        assert_eq!(param_buffer_size(&[(4, 4), (128, 64)]), 192);
    }

    #[test]
    fn ptx_isa_versions_map_to_drivers() {
        let p = "//\n// x\n//\n\n.version 8.6\n.target sm_90\n.address_size 64\n";
        assert_eq!(ptx_isa_version(p), Some((8, 6)));
        assert_eq!(ptx_isa_version(".target sm_90\n"), None);
        assert_eq!(min_driver_for_ptx((8, 6)), Some(12080));
        assert_eq!(min_driver_for_ptx((8, 3)), Some(12030));
        assert_eq!(min_driver_for_ptx((7, 1)), None);
        assert_eq!(driver_version_text(12070), "12.7");
        assert_eq!(driver_version_text(13000), "13.0");
    }

    /// The embedded kernels are there (a test binary built without `cargo xtask ptx` fails
    /// here, naming the command), their `.version` is one the driver table knows, and the
    /// cubin is an ELF image.
    #[test]
    fn kernels_are_embedded() {
        assert!(
            kernels_built(),
            "no kernels embedded: run `cargo xtask ptx`, then rebuild (cargo xtask test does both)"
        );
        let v = ptx_isa_version(KERNELS_PTX).expect("a .version line");
        assert!(
            min_driver_for_ptx(v).is_some(),
            "PTX ISA {v:?} not in the driver table"
        );
        assert!(
            KERNELS_CUBIN.starts_with(b"\x7fELF"),
            "the embedded sm_90a cubin is missing or not ELF ({} bytes): run `cargo xtask ptx`",
            KERNELS_CUBIN.len()
        );
        // A ptxas cubin passes the image check the driver call depends on.
        assert_eq!(
            cuda::image::validate_image(KERNELS_CUBIN),
            Ok(cuda::image::ImageKind::Cubin)
        );
        // The cubin is the PTX's: every `.entry` of the PTX is a symbol of the cubin (a stale
        // cubin next to a rebuilt PTX would launch other code than the PTX the tests read).
        let mut entries = 0;
        for part in KERNELS_PTX.split(".entry ").skip(1) {
            let name = part[..part.find('(').unwrap()].trim();
            let sym: Vec<u8> = [b"\0", name.as_bytes(), b"\0"].concat();
            assert!(
                KERNELS_CUBIN
                    .windows(sym.len())
                    .any(|w| w == sym.as_slice()),
                "{name} is in kernels.ptx but not in the embedded cubin: run `cargo xtask ptx`"
            );
            entries += 1;
        }
        assert!(entries > 50, "only {entries} kernels in the embedded PTX");
    }

    /// The bundled kernels' structs (`ptx-sync-abi`) against the embedded PTX, field by field:
    /// the right struct passes, a wrong one is refused naming the field or parameter.
    #[test]
    fn bundled_params_are_checked_field_by_field() {
        use ptx_sync_abi::{DeepepParams, LitmusParams, S5Params};
        assert_eq!(check_params::<DeepepParams>("deepep_barrier"), Ok(48));
        let e = check_params::<S5Params>("deepep_barrier").unwrap_err();
        assert!(
            e.contains("has 3 parameter field(s); the kernel's .param #3 (offset 24, 8 bytes) has no field"),
            "{e}"
        );
        let e = check_params::<LitmusParams>("deepep_barrier").unwrap_err();
        assert!(
            e.contains(
                "field `sync` (offset 40, 8 bytes) differs from .param #5 (offset 40, 4 bytes)"
            ),
            "{e}"
        );
        assert!(check_params::<S5Params>("no_such_kernel")
            .unwrap_err()
            .contains("not in the embedded PTX"));
    }

    #[test]
    fn spreads() {
        let s = Spread::of(&[3.0, 1.0, 2.0, 10.0]).unwrap();
        assert_eq!((s.median, s.min, s.max, s.n), (2.5, 1.0, 10.0, 4));
        assert_eq!(Spread::of(&[5.0]).unwrap().median, 5.0);
        assert!(Spread::of(&[]).is_none());
    }

    #[test]
    fn error_lines_are_single_lines() {
        for e in [
            GpuError::NoDriver,
            GpuError::NoKernels,
            GpuError::NoDevice("x".into()),
            GpuError::OldDriver("x".into()),
            GpuError::Hung {
                program: "mp".into(),
                secs: 60,
            },
            GpuError::Launch {
                program: "mp".into(),
                err: "CUDA_ERROR_ILLEGAL_INSTRUCTION".into(),
            },
        ] {
            let s = e.to_string();
            assert!(!s.contains('\n') && !s.is_empty(), "{s}");
        }
        assert!(GpuError::Launch {
            program: "sb_sc".into(),
            err: "x".into()
        }
        .to_string()
        .contains("sb_sc"));
    }
}
