//! `ptx-sync copy`: the tiled-copy pipeline (TMA + mbarrier ring, `host/kernels/src/tiled_copy.rs`)
//! and the host side of its tensor map: `cuTensorMapEncodeTiled` through cudarc's raw binding,
//! after checking every rule the driver would otherwise reject with a bare
//! `CUDA_ERROR_INVALID_VALUE`.

#![allow(dead_code)] // the tensor-map helpers are used once the tiled-copy kernel lands

use crate::gpu::{self, GpuError};
use cudarc::driver::sys;
use std::path::PathBuf;
use std::process::ExitCode;

/// The element type of a tensor map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    U8,
    U16,
    U32,
    U64,
    F32,
}

impl Elem {
    pub fn bytes(self) -> u64 {
        match self {
            Elem::U8 => 1,
            Elem::U16 => 2,
            Elem::U32 | Elem::F32 => 4,
            Elem::U64 => 8,
        }
    }
    fn cu(self) -> sys::CUtensorMapDataType {
        use sys::CUtensorMapDataType::*;
        match self {
            Elem::U8 => CU_TENSOR_MAP_DATA_TYPE_UINT8,
            Elem::U16 => CU_TENSOR_MAP_DATA_TYPE_UINT16,
            Elem::U32 => CU_TENSOR_MAP_DATA_TYPE_UINT32,
            Elem::U64 => CU_TENSOR_MAP_DATA_TYPE_UINT64,
            Elem::F32 => CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        }
    }
}

/// A tiled tensor map request (no interleave, no swizzle, elementwise strides 1).
///
/// Dimension 0 is the innermost (contiguous) one, as in the driver API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileMap {
    pub elem: Elem,
    /// The global address (device pointer) of element 0.
    pub addr: u64,
    /// Elements per dimension, innermost first.
    pub dims: Vec<u64>,
    /// Byte strides of dimensions 1.. (dimension 0's stride is the element size), innermost first.
    pub strides: Vec<u64>,
    /// The box (tile) in elements per dimension.
    pub box_dims: Vec<u32>,
}

impl TileMap {
    /// A dense 2-D `rows × cols` tensor of `elem` with `box_rows × box_cols` tiles.
    pub fn dense_2d(elem: Elem, addr: u64, rows: u64, cols: u64, box_rows: u32, box_cols: u32) -> Self {
        TileMap {
            elem,
            addr,
            dims: vec![cols, rows],
            strides: vec![cols * elem.bytes()],
            box_dims: vec![box_cols, box_rows],
        }
    }

    /// Every rule of `cuTensorMapEncodeTiled` (CUDA driver API, tensor-map section) that applies
    /// without interleave and swizzle; the first broken one as a sentence.
    pub fn validate(&self) -> Result<(), String> {
        let rank = self.dims.len();
        if !(1..=5).contains(&rank) {
            return Err(format!("tensor map: rank {rank} is not supported (1 to 5 dimensions)"));
        }
        if self.box_dims.len() != rank {
            return Err(format!("tensor map: {} box dimensions for a rank-{rank} tensor", self.box_dims.len()));
        }
        if self.strides.len() + 1 != rank {
            return Err(format!(
                "tensor map: a rank-{rank} tensor needs {} byte stride(s) (dimension 0 is contiguous), got {}",
                rank - 1,
                self.strides.len()
            ));
        }
        if self.addr % 16 != 0 {
            return Err(format!("tensor map: global address {:#x} is not 16-byte aligned", self.addr));
        }
        for (i, &d) in self.dims.iter().enumerate() {
            if d == 0 || d > 1 << 32 {
                return Err(format!("tensor map: dimension {i} has {d} elements (must be 1 to 2^32)"));
            }
        }
        let e = self.elem.bytes();
        for (k, &s) in self.strides.iter().enumerate() {
            let i = k + 1;
            if s % 16 != 0 {
                return Err(format!("tensor map: stride of dimension {i} is {s} bytes, not a multiple of 16"));
            }
            if s >= 1 << 40 {
                return Err(format!("tensor map: stride of dimension {i} is {s} bytes (must be < 2^40)"));
            }
            let inner = if k == 0 { self.dims[0] * e } else { self.strides[k - 1] * self.dims[k] };
            if s < inner {
                return Err(format!(
                    "tensor map: stride of dimension {i} ({s} B) is smaller than the span of the dimensions inside it ({inner} B)"
                ));
            }
        }
        for (i, &b) in self.box_dims.iter().enumerate() {
            if !(1..=256).contains(&b) {
                return Err(format!("tensor map: box dimension {i} is {b} elements, too large or zero (1 to 256)"));
            }
            if b as u64 > self.dims[i] {
                return Err(format!(
                    "tensor map: box dimension {i} ({b}) is larger than the tensor's dimension ({})",
                    self.dims[i]
                ));
            }
        }
        if (self.box_dims[0] as u64 * e) % 16 != 0 {
            return Err(format!(
                "tensor map: the box's inner extent is {} bytes, not a multiple of 16",
                self.box_dims[0] as u64 * e
            ));
        }
        Ok(())
    }

    /// Bytes of one box (what one TMA transfer moves, the `expect_tx` count).
    pub fn box_bytes(&self) -> u64 {
        self.box_dims.iter().map(|&b| b as u64).product::<u64>() * self.elem.bytes()
    }

    /// Encodes the map with the driver (needs a current context).
    pub fn encode(&self) -> Result<sys::CUtensorMap, GpuError> {
        self.validate().map_err(GpuError::Invalid)?;
        let rank = self.dims.len();
        let elem_strides = vec![1u32; rank];
        // SAFETY: a zeroed CUtensorMap is the documented starting state; all arrays have `rank`
        // (strides: rank - 1) entries, validated above.
        unsafe {
            let mut m: sys::CUtensorMap = std::mem::zeroed();
            let r = sys::cuTensorMapEncodeTiled(
                &mut m,
                self.elem.cu(),
                rank as u32,
                self.addr as *mut std::ffi::c_void,
                self.dims.as_ptr(),
                self.strides.as_ptr(),
                self.box_dims.as_ptr(),
                elem_strides.as_ptr(),
                sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
                sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
                sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
            );
            r.result().map_err(|e| GpuError::Driver {
                what: format!("cuTensorMapEncodeTiled({self:?})"),
                err: format!("{e:?}"),
            })?;
            Ok(m)
        }
    }
}

/// `ptx-sync copy --bytes N --stages S`.
pub fn command(bytes: u64, stages: u32, json: Option<&PathBuf>) -> ExitCode {
    match run(bytes, stages) {
        Ok(r) => {
            println!("{}", r.text());
            if let Some(p) = json {
                if let Err(e) = std::fs::write(p, serde_json::to_string_pretty(&r).unwrap()) {
                    eprintln!("ptx-sync: cannot write {}: {e}", p.display());
                    return ExitCode::from(1);
                }
            }
            if r.mismatches > 0 {
                eprintln!("ptx-sync: the tiled copy differs from its source in {} byte(s)", r.mismatches);
                return ExitCode::from(3);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ptx-sync: {e}");
            ExitCode::from(1)
        }
    }
}

/// The result of one copy run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CopyReport {
    pub device: String,
    pub bytes: u64,
    pub stages: u32,
    pub tile_bytes: u64,
    pub mismatches: u64,
    pub first_mismatch: Option<u64>,
    pub pipeline_ms: f32,
    pub pipeline_gbps: f64,
    pub memcpy_ms: f32,
    pub memcpy_gbps: f64,
}

impl CopyReport {
    pub fn text(&self) -> String {
        format!(
            "tiled copy of {} bytes, {} stages, {}-byte tiles on {}\n  check against the source: {}\n  pipeline      {:>8.3} ms  {:>8.1} GB/s\n  cuMemcpyDtoD  {:>8.3} ms  {:>8.1} GB/s",
            crate::hist::group(self.bytes),
            self.stages,
            self.tile_bytes,
            self.device,
            if self.mismatches == 0 {
                "identical".to_string()
            } else {
                format!("{} byte(s) differ, first at offset {}", self.mismatches, self.first_mismatch.unwrap_or(0))
            },
            self.pipeline_ms,
            self.pipeline_gbps,
            self.memcpy_ms,
            self.memcpy_gbps
        )
    }
}

/// GB/s for `bytes` read + written in `ms`.
pub fn gbps(bytes: u64, ms: f32) -> f64 {
    if ms <= 0.0 {
        return 0.0;
    }
    2.0 * bytes as f64 / (ms as f64 * 1e-3) / 1e9
}

/// Compares two byte slices: (number of differing bytes, first differing offset).
pub fn diff(a: &[u8], b: &[u8]) -> (u64, Option<u64>) {
    let mut n = 0;
    let mut first = None;
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            n += 1;
            first.get_or_insert(i as u64);
        }
    }
    let extra = a.len().abs_diff(b.len()) as u64;
    if extra > 0 && first.is_none() {
        first = Some(a.len().min(b.len()) as u64);
    }
    (n + extra, first)
}

/// The kernel of the tiled-copy pipeline (`host/kernels/src/tiled_copy.rs`).
pub const KERNEL: &str = "tiled_copy";

fn run(bytes: u64, stages: u32) -> Result<CopyReport, GpuError> {
    let g = gpu::Gpu::open()?;
    if gpu::ptx_param_sizes(gpu::KERNELS_PTX, KERNEL).is_none() {
        return Err(GpuError::Invalid(format!(
            "the tiled-copy kernel `{KERNEL}` is not in this build ({bytes} bytes, {stages} stages not run)"
        )));
    }
    let _ = &g;
    Err(GpuError::Invalid("the tiled-copy launch is not wired yet".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok_map() -> TileMap {
        TileMap::dense_2d(Elem::U32, 0x1000_0000, 1024, 256, 64, 32)
    }

    #[test]
    fn valid_map_passes() {
        assert_eq!(ok_map().validate(), Ok(()));
        assert_eq!(ok_map().box_bytes(), 64 * 32 * 4);
    }

    #[test]
    fn each_rule_has_its_message() {
        let mut m = ok_map();
        m.dims = vec![1; 6];
        m.box_dims = vec![1; 6];
        m.strides = vec![16; 5];
        assert!(m.validate().unwrap_err().contains("rank 6 is not supported"));

        let mut m = ok_map();
        m.strides = vec![1000];
        assert!(m.validate().unwrap_err().contains("not a multiple of 16"));

        let mut m = ok_map();
        m.box_dims = vec![32, 512];
        assert!(m.validate().unwrap_err().contains("too large or zero"));

        let mut m = ok_map();
        m.addr += 8;
        assert!(m.validate().unwrap_err().contains("not 16-byte aligned"));

        let mut m = ok_map();
        m.box_dims = vec![3, 64];
        assert!(m.validate().unwrap_err().contains("inner extent is 12 bytes"));

        let mut m = ok_map();
        m.strides = vec![512];
        assert!(m.validate().unwrap_err().contains("smaller than the span"));

        let mut m = ok_map();
        m.strides = vec![];
        assert!(m.validate().unwrap_err().contains("needs 1 byte stride"));

        let mut m = ok_map();
        m.dims = vec![256, 0];
        assert!(m.validate().unwrap_err().contains("dimension 1 has 0 elements"));

        let mut m = ok_map();
        m.box_dims = vec![32, 2048];
        assert!(m.validate().is_err());
    }

    #[test]
    fn diff_and_bandwidth() {
        assert_eq!(diff(b"abcd", b"abcd"), (0, None));
        assert_eq!(diff(b"abcd", b"abxy"), (2, Some(2)));
        assert_eq!(diff(b"abc", b"abcd"), (1, Some(3)));
        assert!((gbps(1_000_000_000, 1000.0) - 2.0).abs() < 1e-9);
        assert_eq!(gbps(1, 0.0), 0.0);
    }
}
