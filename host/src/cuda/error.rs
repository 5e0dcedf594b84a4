//! [`CudaError`]: every failure of this module, and the driver's error codes turned into it.

use super::*;

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

pub(super) fn derr(e: result::DriverError) -> String {
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
