//! Modules and launches: [`Module`] (a loaded image), [`Kernel`] (one entry, its `.param` list) and
//! [`LaunchConfig`] (grid, block, cluster, dynamic shared memory, programmatic dependent launch).

use super::*;

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

/// A loaded module, unloaded on drop.
///
/// ```no_run
/// # let dev = ptx_sync_host::cuda::Device::open(0)?;
/// let m = dev.load_ptx(".version 8.6\n.target sm_90\n.address_size 64\n.visible .entry k() { ret; }\n")?;
/// let k = m.kernel("k")?;
/// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
/// ```
pub struct Module {
    pub(super) m: sys::CUmodule,
    pub(super) ptx: Option<String>,
    /// Keeps the context alive until the module is unloaded.
    pub(super) ctx: Arc<Ctx>,
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
    pub(super) f: sys::CUfunction,
    pub(super) name: String,
    pub(super) params: Option<Vec<PtxParam>>,
    /// The `.extern .shared` arrays it uses ([`dynamic_shared_arrays`]).
    pub(super) dyn_smem: Vec<String>,
    pub(super) module: &'m Module,
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
