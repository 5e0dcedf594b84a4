//! Tiled tensor maps: `cuTensorMapEncodeTiled`, after checking every rule of the CUDA driver API
//! (CUDA Driver API reference, "Tensor Map Object Management", `cuTensorMapEncodeTiled`) that
//! the driver would otherwise answer with a bare `CUDA_ERROR_INVALID_VALUE`.
//!
//! The rules checked ([`TensorMapError`](crate::cuda::tensor_map::TensorMapError) has one variant per rule):
//! * `tensorRank` is 1 to 5 (3 to 5 when interleaved);
//! * `globalAddress` is 16-byte aligned (32 with 32-byte interleave);
//! * each `globalDim` is non-zero and ≤ 2^32;
//! * each `globalStrides` entry is a multiple of 16 (32 with 32-byte interleave) and < 2^40, and
//!   (not a driver rule, a layout one) covers the dimensions inside it;
//! * each `boxDim` is non-zero and ≤ 256; without interleave, `boxDim[0] × elementSize` is a
//!   multiple of 16 bytes;
//! * each `elementStrides` entry is non-zero and ≤ 8;
//! * without interleave, a swizzle's span (32, 64 or 128 bytes) is at least the inner box
//!   dimension in bytes (`boxDim[0] × elementSize ≤ span`).
//!
//! The map itself must be 64-byte aligned: [`TensorMap`](crate::cuda::tensor_map::TensorMap) is `#[repr(C, align(64))]`.

use super::sys;
use std::fmt;

/// The element type of a tensor map (`CUtensorMapDataType`, the integer and float types).
///
/// ```
/// use ptx_sync_host::cuda::tensor_map::Elem;
/// assert_eq!(Elem::F16.bytes(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// `CU_TENSOR_MAP_DATA_TYPE_UINT8`.
    U8,
    /// `CU_TENSOR_MAP_DATA_TYPE_UINT16`.
    U16,
    /// `CU_TENSOR_MAP_DATA_TYPE_UINT32`.
    U32,
    /// `CU_TENSOR_MAP_DATA_TYPE_INT32`.
    I32,
    /// `CU_TENSOR_MAP_DATA_TYPE_UINT64`.
    U64,
    /// `CU_TENSOR_MAP_DATA_TYPE_INT64`.
    I64,
    /// `CU_TENSOR_MAP_DATA_TYPE_FLOAT16`.
    F16,
    /// `CU_TENSOR_MAP_DATA_TYPE_FLOAT32`.
    F32,
    /// `CU_TENSOR_MAP_DATA_TYPE_FLOAT64`.
    F64,
    /// `CU_TENSOR_MAP_DATA_TYPE_BFLOAT16`.
    BF16,
}

impl Elem {
    /// Bytes per element.
    ///
    /// ```
    /// assert_eq!(ptx_sync_host::cuda::tensor_map::Elem::U32.bytes(), 4);
    /// ```
    pub fn bytes(self) -> u64 {
        match self {
            Elem::U8 => 1,
            Elem::U16 | Elem::F16 | Elem::BF16 => 2,
            Elem::U32 | Elem::I32 | Elem::F32 => 4,
            Elem::U64 | Elem::I64 | Elem::F64 => 8,
        }
    }

    /// The driver's enum value.
    ///
    /// ```
    /// use ptx_sync_host::cuda::{sys, tensor_map::Elem};
    /// assert_eq!(Elem::F32.cu(), sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
    /// ```
    pub fn cu(self) -> sys::CUtensorMapDataType {
        use sys::CUtensorMapDataType::*;
        match self {
            Elem::U8 => CU_TENSOR_MAP_DATA_TYPE_UINT8,
            Elem::U16 => CU_TENSOR_MAP_DATA_TYPE_UINT16,
            Elem::U32 => CU_TENSOR_MAP_DATA_TYPE_UINT32,
            Elem::I32 => CU_TENSOR_MAP_DATA_TYPE_INT32,
            Elem::U64 => CU_TENSOR_MAP_DATA_TYPE_UINT64,
            Elem::I64 => CU_TENSOR_MAP_DATA_TYPE_INT64,
            Elem::F16 => CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
            Elem::F32 => CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
            Elem::F64 => CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
            Elem::BF16 => CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        }
    }
}

/// The shared-memory swizzle of the box (`CUtensorMapSwizzle`).
///
/// ```
/// use ptx_sync_host::cuda::tensor_map::Swizzle;
/// assert_eq!(Swizzle::B128.span(), Some(128));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Swizzle {
    /// `CU_TENSOR_MAP_SWIZZLE_NONE`.
    #[default]
    None,
    /// `CU_TENSOR_MAP_SWIZZLE_32B`.
    B32,
    /// `CU_TENSOR_MAP_SWIZZLE_64B`.
    B64,
    /// `CU_TENSOR_MAP_SWIZZLE_128B`.
    B128,
}

impl Swizzle {
    /// The swizzle span in bytes (`None` for no swizzle).
    ///
    /// ```
    /// assert_eq!(ptx_sync_host::cuda::tensor_map::Swizzle::None.span(), None);
    /// ```
    pub fn span(self) -> Option<u64> {
        match self {
            Swizzle::None => None,
            Swizzle::B32 => Some(32),
            Swizzle::B64 => Some(64),
            Swizzle::B128 => Some(128),
        }
    }
    fn cu(self) -> sys::CUtensorMapSwizzle {
        use sys::CUtensorMapSwizzle::*;
        match self {
            Swizzle::None => CU_TENSOR_MAP_SWIZZLE_NONE,
            Swizzle::B32 => CU_TENSOR_MAP_SWIZZLE_32B,
            Swizzle::B64 => CU_TENSOR_MAP_SWIZZLE_64B,
            Swizzle::B128 => CU_TENSOR_MAP_SWIZZLE_128B,
        }
    }
}

/// The interleave of the global layout (`CUtensorMapInterleave`).
///
/// ```
/// use ptx_sync_host::cuda::tensor_map::Interleave;
/// assert_eq!(Interleave::default(), Interleave::None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Interleave {
    /// `CU_TENSOR_MAP_INTERLEAVE_NONE`.
    #[default]
    None,
    /// `CU_TENSOR_MAP_INTERLEAVE_16B`.
    B16,
    /// `CU_TENSOR_MAP_INTERLEAVE_32B`.
    B32,
}

impl Interleave {
    fn cu(self) -> sys::CUtensorMapInterleave {
        use sys::CUtensorMapInterleave::*;
        match self {
            Interleave::None => CU_TENSOR_MAP_INTERLEAVE_NONE,
            Interleave::B16 => CU_TENSOR_MAP_INTERLEAVE_16B,
            Interleave::B32 => CU_TENSOR_MAP_INTERLEAVE_32B,
        }
    }
}

/// A tiled tensor map request. Dimension 0 is the innermost (contiguous) one, as in the driver
/// API; `strides` are the byte strides of dimensions 1.. (dimension 0's is the element size).
///
/// ```
/// use ptx_sync_host::cuda::tensor_map::{Elem, TiledMap};
/// // A 256 × 1024 f32 matrix at 0x1000 in 32 × 64 tiles.
/// let m = TiledMap::dense_2d(Elem::F32, 0x1000, 256, 1024, 32, 64);
/// assert_eq!(m.validate(), Ok(()));
/// assert_eq!(m.box_bytes(), 32 * 64 * 4);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledMap {
    /// The element type.
    pub elem: Elem,
    /// The global address (device pointer) of element 0.
    pub addr: u64,
    /// Elements per dimension, innermost first.
    pub dims: Vec<u64>,
    /// Byte strides of dimensions 1.., innermost first.
    pub strides: Vec<u64>,
    /// The box (tile) in elements per dimension.
    pub box_dims: Vec<u32>,
    /// Element strides per dimension (traversal step inside the box); empty means all 1.
    pub elem_strides: Vec<u32>,
    /// Global interleave.
    pub interleave: Interleave,
    /// Shared-memory swizzle.
    pub swizzle: Swizzle,
}

/// Why a [`TiledMap`] is rejected before it reaches the driver; each renders as one line that
/// names the rule.
///
/// ```
/// use ptx_sync_host::cuda::tensor_map::{Elem, TensorMapError, TiledMap};
/// let m = TiledMap::dense_2d(Elem::U32, 0x1008, 64, 64, 8, 8);
/// assert_eq!(m.validate(), Err(TensorMapError::AddressAlignment { addr: 0x1008, align: 16 }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TensorMapError {
    /// `tensorRank` outside 1..=5 (3..=5 when interleaved).
    Rank {
        /// The rank given.
        rank: usize,
        /// The smallest rank allowed.
        min: usize,
    },
    /// An array's length does not fit the rank.
    Lengths {
        /// Which array (`box_dims`, `strides`, `elem_strides`).
        what: &'static str,
        /// Its length.
        got: usize,
        /// The length the rank needs.
        want: usize,
    },
    /// `globalAddress` not aligned.
    AddressAlignment {
        /// The address.
        addr: u64,
        /// The alignment required.
        align: u64,
    },
    /// A `globalDim` of 0 or above 2^32.
    Dim {
        /// The dimension.
        dim: usize,
        /// Its size.
        size: u64,
    },
    /// A stride that is not a multiple of 16 (32), is ≥ 2^40, or is smaller than the
    /// dimensions inside it.
    Stride {
        /// The dimension (1..).
        dim: usize,
        /// The stride in bytes.
        stride: u64,
        /// What is wrong.
        why: String,
    },
    /// A `boxDim` of 0 or above 256, or larger than the tensor's dimension.
    Box {
        /// The dimension.
        dim: usize,
        /// The box size.
        size: u32,
        /// What is wrong.
        why: String,
    },
    /// Without interleave, `boxDim[0] × elementSize` is not a multiple of 16 bytes.
    InnerBoxBytes {
        /// The inner box extent in bytes.
        bytes: u64,
    },
    /// The inner box extent exceeds the swizzle span.
    SwizzleSpan {
        /// The inner box extent in bytes.
        bytes: u64,
        /// The swizzle's span.
        span: u64,
    },
    /// An element stride of 0 or above 8.
    ElemStride {
        /// The dimension.
        dim: usize,
        /// The stride.
        stride: u32,
    },
}

impl fmt::Display for TensorMapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use TensorMapError::*;
        match self {
            Rank { rank, min } => write!(f, "tensor map: rank {rank} is not supported ({min} to 5 dimensions)"),
            Lengths { what, got, want } => write!(f, "tensor map: {what} has {got} entries, the rank needs {want}"),
            AddressAlignment { addr, align } => {
                write!(f, "tensor map: global address {addr:#x} is not {align}-byte aligned")
            }
            Dim { dim, size } => write!(f, "tensor map: dimension {dim} has {size} elements (must be 1 to 2^32)"),
            Stride { dim, stride, why } => write!(f, "tensor map: stride of dimension {dim} is {stride} bytes: {why}"),
            Box { dim, size, why } => write!(f, "tensor map: box dimension {dim} is {size} elements: {why}"),
            InnerBoxBytes { bytes } => write!(
                f,
                "tensor map: the box's inner extent is {bytes} bytes, not a multiple of 16 (boxDim[0] × element size)"
            ),
            SwizzleSpan { bytes, span } => write!(
                f,
                "tensor map: the box's inner extent is {bytes} bytes, more than the {span}-byte swizzle span"
            ),
            ElemStride { dim, stride } => {
                write!(f, "tensor map: element stride of dimension {dim} is {stride} (must be 1 to 8)")
            }
        }
    }
}

impl std::error::Error for TensorMapError {}

impl TiledMap {
    /// A dense 2-D `rows × cols` tensor of `elem` at `addr`, in `box_rows × box_cols` tiles, no
    /// interleave or swizzle.
    ///
    /// ```
    /// use ptx_sync_host::cuda::tensor_map::{Elem, TiledMap};
    /// let m = TiledMap::dense_2d(Elem::U32, 0, 32, 64, 8, 16);
    /// assert_eq!((m.dims.clone(), m.strides.clone()), (vec![64, 32], vec![256]));
    /// ```
    pub fn dense_2d(
        elem: Elem,
        addr: u64,
        rows: u64,
        cols: u64,
        box_rows: u32,
        box_cols: u32,
    ) -> Self {
        TiledMap {
            elem,
            addr,
            dims: vec![cols, rows],
            strides: vec![cols * elem.bytes()],
            box_dims: vec![box_cols, box_rows],
            elem_strides: Vec::new(),
            interleave: Interleave::None,
            swizzle: Swizzle::None,
        }
    }

    /// Checks every rule listed in the [module docs](self); the first broken one.
    ///
    /// ```
    /// use ptx_sync_host::cuda::tensor_map::{Elem, TiledMap};
    /// let mut m = TiledMap::dense_2d(Elem::U32, 0x1000, 64, 64, 8, 8);
    /// m.box_dims[1] = 300;
    /// assert!(m.validate().unwrap_err().to_string().contains("box dimension 1"));
    /// ```
    pub fn validate(&self) -> Result<(), TensorMapError> {
        use TensorMapError::*;
        let rank = self.dims.len();
        let min = if self.interleave == Interleave::None {
            1
        } else {
            3
        };
        if !(min..=5).contains(&rank) {
            return Err(Rank { rank, min });
        }
        if self.box_dims.len() != rank {
            return Err(Lengths {
                what: "box_dims",
                got: self.box_dims.len(),
                want: rank,
            });
        }
        if self.strides.len() + 1 != rank {
            return Err(Lengths {
                what: "strides",
                got: self.strides.len(),
                want: rank - 1,
            });
        }
        if !self.elem_strides.is_empty() && self.elem_strides.len() != rank {
            return Err(Lengths {
                what: "elem_strides",
                got: self.elem_strides.len(),
                want: rank,
            });
        }
        let align = if self.interleave == Interleave::B32 {
            32
        } else {
            16
        };
        if !self.addr.is_multiple_of(align) {
            return Err(AddressAlignment {
                addr: self.addr,
                align,
            });
        }
        for (dim, &size) in self.dims.iter().enumerate() {
            if size == 0 || size > 1 << 32 {
                return Err(Dim { dim, size });
            }
        }
        let e = self.elem.bytes();
        for (k, &stride) in self.strides.iter().enumerate() {
            let dim = k + 1;
            if !stride.is_multiple_of(align) {
                return Err(Stride {
                    dim,
                    stride,
                    why: format!("not a multiple of {align}"),
                });
            }
            if stride >= 1 << 40 {
                return Err(Stride {
                    dim,
                    stride,
                    why: "must be < 2^40".into(),
                });
            }
            let inner = if k == 0 {
                self.dims[0] * e
            } else {
                self.strides[k - 1] * self.dims[k]
            };
            if stride < inner {
                return Err(Stride {
                    dim,
                    stride,
                    why: format!("smaller than the {inner} bytes of the dimensions inside it"),
                });
            }
        }
        for (dim, &size) in self.box_dims.iter().enumerate() {
            if !(1..=256).contains(&size) {
                return Err(Box {
                    dim,
                    size,
                    why: "must be 1 to 256".into(),
                });
            }
            if size as u64 > self.dims[dim] {
                return Err(Box {
                    dim,
                    size,
                    why: format!("larger than the tensor's {}", self.dims[dim]),
                });
            }
        }
        let inner = self.box_dims[0] as u64 * e;
        if self.interleave == Interleave::None {
            if !inner.is_multiple_of(16) {
                return Err(InnerBoxBytes { bytes: inner });
            }
            if let Some(span) = self.swizzle.span() {
                if inner > span {
                    return Err(SwizzleSpan { bytes: inner, span });
                }
            }
        }
        for (dim, &stride) in self.elem_strides.iter().enumerate() {
            if !(1..=8).contains(&stride) {
                return Err(ElemStride { dim, stride });
            }
        }
        Ok(())
    }

    /// Bytes of one box (what one TMA transfer moves: the `expect_tx` count).
    ///
    /// ```
    /// use ptx_sync_host::cuda::tensor_map::{Elem, TiledMap};
    /// assert_eq!(TiledMap::dense_2d(Elem::U16, 0, 64, 64, 8, 16).box_bytes(), 256);
    /// ```
    pub fn box_bytes(&self) -> u64 {
        self.box_dims.iter().map(|&b| b as u64).product::<u64>() * self.elem.bytes()
    }

    /// [`validate`](Self::validate)s, then encodes the map with `cuTensorMapEncodeTiled`
    /// (L2 promotion 128 B, no out-of-bounds fill). Needs a current context
    /// ([`Device::open`](super::Device::open)).
    ///
    /// ```no_run
    /// use ptx_sync_host::cuda::{Device, tensor_map::{Elem, TiledMap}};
    /// let dev = Device::open(0)?;
    /// let buf = dev.alloc(64 * 64 * 4)?;
    /// let map = TiledMap::dense_2d(Elem::U32, buf.ptr(), 64, 64, 16, 16).encode()?;
    /// let on_device = dev.upload(map.as_bytes())?; // pass on_device.ptr() to the kernel
    /// # Ok::<(), ptx_sync_host::cuda::CudaError>(())
    /// ```
    pub fn encode(&self) -> Result<TensorMap, super::CudaError> {
        self.validate()?;
        let rank = self.dims.len();
        let ones = vec![1u32; rank];
        let es = if self.elem_strides.is_empty() {
            &ones
        } else {
            &self.elem_strides
        };
        let mut m = TensorMap([0; 128]);
        // SAFETY: the map is 128 bytes, 64-aligned; every array has `rank` (strides: rank - 1)
        // entries (validated); the driver only reads them.
        let r = unsafe {
            sys::cuTensorMapEncodeTiled(
                m.0.as_mut_ptr() as *mut sys::CUtensorMap,
                self.elem.cu(),
                rank as u32,
                self.addr as *mut std::ffi::c_void,
                self.dims.as_ptr(),
                self.strides.as_ptr(),
                self.box_dims.as_ptr(),
                es.as_ptr(),
                self.interleave.cu(),
                self.swizzle.cu(),
                sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
            )
        };
        super::drv("cuTensorMapEncodeTiled", r.result())?;
        Ok(m)
    }
}

/// An encoded tensor map: the 128 opaque bytes of a `CUtensorMap`, 64-byte aligned.
///
/// ```
/// assert_eq!(std::mem::align_of::<ptx_sync_host::cuda::tensor_map::TensorMap>(), 64);
/// ```
#[repr(C, align(64))]
#[derive(Clone, Copy)]
pub struct TensorMap(pub [u8; 128]);

impl TensorMap {
    /// The bytes (to copy into device memory, or into a `__grid_constant__`-style parameter).
    ///
    /// ```
    /// let m = ptx_sync_host::cuda::tensor_map::TensorMap([0; 128]);
    /// assert_eq!(m.as_bytes().len(), 128);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for TensorMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TensorMap({} bytes)", self.0.len())
    }
}
