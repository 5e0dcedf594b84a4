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

mod device;
mod driver;
mod error;
mod launch;
mod memory;
mod params;

pub use device::*;
pub use driver::*;
pub use error::*;
pub use launch::*;
pub use memory::*;
pub use params::*;
