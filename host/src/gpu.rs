//! The GPU runtime: cudarc's raw driver API (dynamically loaded), kernels from the embedded PTX.
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
use std::ffi::{c_void, CString};
use std::fmt;
use std::time::{Duration, Instant};

/// The kernels' PTX, embedded by `build.rs` from `target/ptx/kernels.ptx` (empty if not built).
pub const KERNELS_PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/kernels.ptx"));

/// The lowest PTX ISA version the embedded kernels assemble with (`fence.proxy.tensormap` needs
/// 8.3); used when the driver rejects the `.version` rustc wrote.
pub const MIN_PTX_VERSION: &str = "8.3";

/// `ptx` with its `.version` directive replaced by `.version v`.
pub fn with_ptx_version(ptx: &str, v: &str) -> String {
    let mut out = String::with_capacity(ptx.len());
    let mut done = false;
    for line in ptx.split_inclusive('\n') {
        if !done && line.trim_start().starts_with(".version ") {
            out.push_str(&format!(".version {v}\n"));
            done = true;
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Set once a kernel outlived the host-side hang limit: the kernel is still running, and
/// `cuMemFree`/`cuModuleUnload`/releasing the context would block on it, so the drops below
/// leak instead; the process exits soon after and the driver tears the context down.
static HUNG: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn hung() -> bool {
    HUNG.load(std::sync::atomic::Ordering::Relaxed)
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

fn drv<T>(what: &str, r: Result<T, result::DriverError>) -> Result<T, GpuError> {
    r.map_err(|e| GpuError::Driver {
        what: what.to_string(),
        err: derr(e),
    })
}

/// Whether the CUDA driver library can be loaded (without touching a device).
pub fn driver_present() -> bool {
    // SAFETY: only tries to dlopen libcuda.
    unsafe { sys::is_culib_present() }
}

/// One device's description (`ptx-sync devices`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct DeviceInfo {
    pub ordinal: i32,
    pub name: String,
    pub compute_capability: (i32, i32),
    pub sms: i32,
    pub total_mem_bytes: usize,
    pub max_threads_per_sm: i32,
    pub cluster_launch: bool,
}

/// Lists the devices, or says why it cannot.
pub fn devices() -> Result<(i32, Vec<DeviceInfo>), GpuError> {
    if !driver_present() {
        return Err(GpuError::NoDriver);
    }
    result::init().map_err(|e| GpuError::NoDevice(derr(e)))?;
    let mut version = 0;
    // SAFETY: valid out pointer.
    unsafe { sys::cuDriverGetVersion(&mut version) };
    let n = drv("cuDeviceGetCount", result::device::get_count())?;
    let mut out = Vec::new();
    for i in 0..n {
        let d = drv("cuDeviceGet", result::device::get(i))?;
        out.push(info(i, d)?);
    }
    Ok((version, out))
}

fn attr(d: sys::CUdevice, a: sys::CUdevice_attribute) -> Result<i32, GpuError> {
    // SAFETY: d is a valid device.
    drv("cuDeviceGetAttribute", unsafe {
        result::device::get_attribute(d, a)
    })
}

fn info(ordinal: i32, d: sys::CUdevice) -> Result<DeviceInfo, GpuError> {
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

/// An open device with the kernels module loaded.
pub struct Gpu {
    pub info: DeviceInfo,
    dev: sys::CUdevice,
    module: sys::CUmodule,
    /// Host-side limit for one kernel (device waits are bounded far below it).
    pub hang_limit: Duration,
}

impl Gpu {
    /// Device 0 with the embedded kernels loaded (JIT-compiled by the driver from PTX).
    pub fn open() -> Result<Gpu, GpuError> {
        if !driver_present() {
            return Err(GpuError::NoDriver);
        }
        if !kernels_built() {
            return Err(GpuError::NoKernels);
        }
        result::init().map_err(|e| GpuError::NoDevice(derr(e)))?;
        let n = drv("cuDeviceGetCount", result::device::get_count())?;
        if n == 0 {
            return Err(GpuError::NoDevice("the driver reports 0 devices".into()));
        }
        let dev = drv("cuDeviceGet", result::device::get(0))?;
        let info = info(0, dev)?;
        // SAFETY: dev is valid; the primary context is released in Drop.
        unsafe {
            let ctx = drv("cuDevicePrimaryCtxRetain", result::primary_ctx::retain(dev))?;
            drv("cuCtxSetCurrent", result::ctx::set_current(ctx))?;
        }
        let load = |text: &str| {
            let ptx = CString::new(text)
                .map_err(|_| GpuError::Invalid("embedded PTX has a NUL byte".into()))?;
            // SAFETY: NUL-terminated PTX image.
            Ok::<_, GpuError>(unsafe { result::module::load_data(ptx.as_ptr() as *const c_void) })
        };
        let module = match load(KERNELS_PTX)? {
            // rustc writes `.version 8.6` (CUDA 12.7+ drivers); the kernels need only PTX ISA
            // 8.3 (CUDA 12.3, driver R545; checked by `lowered_ptx_assembles`): retry with
            // that version on an older driver instead of failing.
            Err(e) if e.0 == sys::CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION => drv(
                "cuModuleLoadData (JIT of the embedded PTX, lowered to .version 8.3; the \
                 kernels need a CUDA 12.3+ driver)",
                load(&with_ptx_version(KERNELS_PTX, MIN_PTX_VERSION))?,
            )?,
            r => drv("cuModuleLoadData (JIT of the embedded PTX)", r)?,
        };
        Ok(Gpu {
            info,
            dev,
            module,
            hang_limit: Duration::from_secs(60),
        })
    }

    /// A kernel of the embedded module.
    pub fn function(&self, name: &str) -> Result<sys::CUfunction, GpuError> {
        let c = CString::new(name).unwrap();
        // SAFETY: module is loaded.
        drv(&format!("cuModuleGetFunction({name})"), unsafe {
            result::module::get_function(self.module, c)
        })
    }

    /// Device memory of `bytes` bytes, zeroed.
    pub fn alloc(&self, bytes: usize) -> Result<DevBuf, GpuError> {
        let bytes = bytes.max(4);
        // SAFETY: plain allocation; freed in Drop.
        let ptr = drv("cuMemAlloc", unsafe { result::malloc_sync(bytes) })?;
        let b = DevBuf { ptr, bytes };
        b.fill_u32(0)?;
        Ok(b)
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

    /// Launches `program`'s kernel `name` with parameters `p` and waits for it.
    ///
    /// `cluster`: launch with a cluster dimension (sm_90). Errors name the program.
    #[allow(clippy::too_many_arguments)]
    pub fn launch<P: Pod>(
        &self,
        program: &str,
        name: &str,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        smem: u32,
        cluster: Option<(u32, u32, u32)>,
        p: &P,
    ) -> Result<(), GpuError> {
        let want = check_params::<P>(name).map_err(GpuError::Invalid)?;
        let f = self.function(name)?;
        if smem > 48 * 1024 {
            // SAFETY: f is valid.
            unsafe {
                sys::cuFuncSetAttribute(
                    f,
                    sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    smem as i32,
                )
            }
            .result()
            .map_err(|e| GpuError::Launch {
                program: program.into(),
                err: format!("cannot set {smem} B of shared memory: {}", derr(e)),
            })?;
        }
        let mut buf: Vec<u8> = bytemuck::bytes_of(p)[..want].to_vec();
        let mut size: usize = buf.len();
        let mut extra: [*mut c_void; 5] = [
            sys::CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT as usize as *mut c_void,
            buf.as_mut_ptr() as *mut c_void,
            sys::CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT as usize as *mut c_void,
            &mut size as *mut usize as *mut c_void,
            std::ptr::null_mut(), // CU_LAUNCH_PARAM_END
        ];
        // SAFETY: zeroed attribute is a valid POD; we set id + value.
        let mut attrs: [sys::CUlaunchAttribute; 1] = unsafe { std::mem::zeroed() };
        let mut n_attrs = 0;
        if let Some((x, y, z)) = cluster {
            attrs[0].id = sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
            attrs[0].value.clusterDim.x = x;
            attrs[0].value.clusterDim.y = y;
            attrs[0].value.clusterDim.z = z;
            n_attrs = 1;
        }
        let cfg = sys::CUlaunchConfig {
            gridDimX: grid.0,
            gridDimY: grid.1,
            gridDimZ: grid.2,
            blockDimX: block.0,
            blockDimY: block.1,
            blockDimZ: block.2,
            sharedMemBytes: smem,
            hStream: std::ptr::null_mut(),
            attrs: attrs.as_mut_ptr(),
            numAttrs: n_attrs,
        };
        // SAFETY: f is valid, the parameter buffer matches the kernel's .param list
        // (check_params), `extra` is terminated.
        unsafe { sys::cuLaunchKernelEx(&cfg, f, std::ptr::null_mut(), extra.as_mut_ptr()) }
            .result()
            .map_err(|e| GpuError::Launch {
                program: program.into(),
                err: format!("launch of {name}: {}", derr(e)),
            })?;
        self.wait(program)
    }

    /// Waits for the device, with the host-side hang limit.
    pub fn wait(&self, program: &str) -> Result<(), GpuError> {
        let start = Instant::now();
        loop {
            // SAFETY: the null stream of the current context.
            let r = unsafe { sys::cuStreamQuery(std::ptr::null_mut()) };
            match r {
                sys::CUresult::CUDA_SUCCESS => return Ok(()),
                sys::CUresult::CUDA_ERROR_NOT_READY => {
                    if start.elapsed() > self.hang_limit {
                        HUNG.store(true, std::sync::atomic::Ordering::Relaxed);
                        return Err(GpuError::Hung {
                            program: program.into(),
                            secs: self.hang_limit.as_secs(),
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
                    return Err(GpuError::Launch {
                        program: program.into(),
                        err: format!("{err}{hint}"),
                    });
                }
            }
        }
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
            let ms = drv("cuEventElapsedTime", result::event::elapsed(a, b))?;
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

    /// Runs `f` (which launches and waits) and returns its wall time on the device in ms, measured
    /// with events around it.
    pub fn timed<T>(&self, f: impl FnOnce() -> Result<T, GpuError>) -> Result<(T, f32), GpuError> {
        let (a, b) = (self.event()?, self.event()?);
        // SAFETY: valid events on the null stream.
        unsafe {
            drv(
                "cuEventRecord",
                result::event::record(a, std::ptr::null_mut()),
            )?
        };
        let v = f()?;
        unsafe {
            drv(
                "cuEventRecord",
                result::event::record(b, std::ptr::null_mut()),
            )?;
            drv("cuEventSynchronize", result::event::synchronize(b))?;
            let ms = drv("cuEventElapsedTime", result::event::elapsed(a, b))?;
            let _ = result::event::destroy(a);
            let _ = result::event::destroy(b);
            Ok((v, ms))
        }
    }

    /// The raw device handle (for tensor-map encoding and attributes).
    #[allow(dead_code)] // used by the tiled-copy run
    pub fn device(&self) -> sys::CUdevice {
        self.dev
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        if hung() {
            return; // would block on the stuck kernel (see HUNG)
        }
        // SAFETY: the module and the primary context were created in `open`.
        unsafe {
            let _ = result::module::unload(self.module);
            let _ = result::primary_ctx::release(self.dev);
        }
    }
}

/// A device allocation, freed on drop.
pub struct DevBuf {
    pub ptr: sys::CUdeviceptr,
    pub bytes: usize,
}

impl DevBuf {
    /// Copies `data` to the start of the buffer.
    pub fn write<T: Pod>(&self, data: &[T]) -> Result<(), GpuError> {
        assert!(
            std::mem::size_of_val(data) <= self.bytes,
            "upload larger than the buffer"
        );
        // SAFETY: in bounds (asserted).
        drv("cuMemcpyHtoD", unsafe {
            result::memcpy_htod_sync(self.ptr, data)
        })
    }
    /// Copies the start of the buffer into `out`.
    pub fn read<T: Pod>(&self, out: &mut [T]) -> Result<(), GpuError> {
        assert!(
            std::mem::size_of_val(out) <= self.bytes,
            "download larger than the buffer"
        );
        // SAFETY: in bounds (asserted).
        drv("cuMemcpyDtoH", unsafe {
            result::memcpy_dtoh_sync(out, self.ptr)
        })
    }
    /// Fills the buffer with the 32-bit pattern `v`.
    pub fn fill_u32(&self, v: u32) -> Result<(), GpuError> {
        // SAFETY: the whole buffer, in 4-byte words.
        drv("cuMemsetD32", unsafe {
            sys::cuMemsetD32_v2(self.ptr, v, self.bytes / 4).result()
        })
    }
}

impl Drop for DevBuf {
    fn drop(&mut self) {
        if hung() {
            return; // cuMemFree would wait for the stuck kernel (see HUNG)
        }
        // SAFETY: allocated by cuMemAlloc.
        unsafe {
            let _ = result::free_sync(self.ptr);
        }
    }
}

/// The `.param` list of kernel `name` in PTX `ptx` as (size, alignment) pairs, in order, or
/// `None` if the kernel is not there.
pub fn ptx_param_sizes(ptx: &str, name: &str) -> Option<Vec<(usize, usize)>> {
    let head = format!(".entry {name}(");
    let start = ptx.find(&head)? + head.len();
    let end = start + ptx[start..].find(')')?;
    let mut sizes = Vec::new();
    for p in ptx[start..end].split(',') {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        // `.param .u64 .ptr .align 1 name` (the .align is the pointee's), `.param .u32 name`,
        // or `.param .align 64 .b8 name[128]` (an aggregate: the .align is the parameter's).
        if let Some(lb) = p.find('[') {
            let size: usize = p[lb + 1..p.find(']')?].parse().ok()?;
            let toks: Vec<&str> = p.split_whitespace().collect();
            let align = toks
                .iter()
                .position(|t| *t == ".align")
                .and_then(|k| toks.get(k + 1))
                .and_then(|a| a.parse().ok())
                .unwrap_or(1);
            sizes.push((size, align));
        } else {
            let ty = p.split_whitespace().nth(1)?;
            let bits: usize = ty
                .trim_start_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .ok()?;
            sizes.push((bits / 8, bits / 8));
        }
    }
    Some(sizes)
}

/// The parameter-buffer size the kernel expects: each param at its alignment.
pub fn param_buffer_size(params: &[(usize, usize)]) -> usize {
    let mut off: usize = 0;
    for &(s, a) in params {
        let a = a.max(1);
        off = off.div_ceil(a) * a + s;
    }
    off
}

/// Checks that `P`'s size equals kernel `name`'s parameter buffer in the embedded PTX.
/// Returns the size to pass (without `P`'s trailing padding field, if any).
pub fn check_params<P: Pod>(name: &str) -> Result<usize, String> {
    let sizes = ptx_param_sizes(KERNELS_PTX, name).ok_or_else(|| {
        format!("kernel {name} is not in the embedded PTX (rebuild after `cargo xtask ptx`)")
    })?;
    let want = param_buffer_size(&sizes);
    let have = std::mem::size_of::<P>();
    let align = std::mem::align_of::<P>();
    // The struct may be padded at its end to its alignment.
    if have == want || (have > want && have == want.div_ceil(align) * align) {
        Ok(want)
    } else {
        Err(format!(
            "parameter block for {name} is {have} bytes, the kernel takes {want} ({sizes:?})"
        ))
    }
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
    fn ptx_version_is_rewritten() {
        let p = "//\n// x\n//\n\n.version 8.6\n.target sm_90\n.address_size 64\n";
        let l = with_ptx_version(p, "8.3");
        assert!(l.contains("\n.version 8.3\n.target sm_90\n"), "{l}");
        assert!(!l.contains("8.6"));
        assert_eq!(l.len(), p.len());
    }

    /// The fallback of `Gpu::open` on an older driver: the embedded kernels, lowered to
    /// `.version 8.3`, still assemble for sm_90 (skipped without the kernels or the PTX tools).
    #[test]
    fn lowered_ptx_assembles() {
        if !kernels_built() {
            return;
        }
        let Ok(tools) = ptx_sync_host::sass::find_tools() else {
            return;
        };
        let lowered = with_ptx_version(KERNELS_PTX, MIN_PTX_VERSION);
        assert!(lowered.contains(".version 8.3\n"));
        if let Err(e) = ptx_sync_host::sass::sass_of_ptx(&tools, &lowered, "sm_90") {
            panic!("the kernels do not assemble at .version {MIN_PTX_VERSION}: {e}");
        }
    }

    #[test]
    fn error_lines_are_single_lines() {
        for e in [
            GpuError::NoDriver,
            GpuError::NoKernels,
            GpuError::NoDevice("x".into()),
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
