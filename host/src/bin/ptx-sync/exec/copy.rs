//! `ptx-sync copy`: the tiled-copy pipeline (TMA + mbarrier ring, `host/kernels/src/tiled_copy.rs`)
//! and the host side of its tensor map: the library's `cuda::tensor_map` (`cuTensorMapEncodeTiled`
//! after checking every rule the driver would otherwise reject with a bare
//! `CUDA_ERROR_INVALID_VALUE`).

use crate::gpu::{self, GpuError};
use std::path::PathBuf;
use std::process::ExitCode;

/// The tensor map: the library's (`ptx_sync_host::cuda::tensor_map`, every rule of
/// `cuTensorMapEncodeTiled` checked before the driver sees it).
pub use ptx_sync_host::cuda::tensor_map::{Elem, TiledMap as TileMap};

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
                eprintln!(
                    "ptx-sync: the tiled copy differs from its source in {} byte(s)",
                    r.mismatches
                );
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

/// The H200's HBM3e bandwidth, bytes per second (NVIDIA H200 datasheet: 4.8 TB/s).
pub const H200_PEAK_BPS: f64 = 4.8e12;
/// Untimed launches before the samples (first-touch, TLB and L2 warm-up).
pub const WARMUP: usize = 2;
/// Timed samples of the pipeline and of `cuMemcpyDtoD`.
pub const SAMPLES: usize = 9;

/// The result of one copy run. Times are per sample (events immediately around the launch or
/// the `cuMemcpyDtoDAsync`), `WARMUP` untimed runs first; bandwidths count every byte twice
/// (read + written).
#[derive(Clone, Debug, serde::Serialize)]
pub struct CopyReport {
    pub device: String,
    /// `Gpu::loaded_from`: cubin or PTX JIT.
    pub module: String,
    /// The CUDA driver version (`cuDriverGetVersion`).
    pub driver: String,
    pub bytes: u64,
    pub stages: u32,
    pub tile_bytes: u64,
    pub grid: u32,
    pub mismatches: u64,
    pub first_mismatch: Option<u64>,
    pub warmup: usize,
    pub pipeline_ms: gpu::Spread,
    pub memcpy_ms: gpu::Spread,
    /// Median read+write GB/s (10^9 B/s).
    pub pipeline_gbps: f64,
    pub memcpy_gbps: f64,
    /// memcpy median time / pipeline median time: 1.0 = as fast as `cuMemcpyDtoD`.
    pub ratio_to_memcpy: f64,
    /// Median read+write bytes/s over [`H200_PEAK_BPS`].
    pub pipeline_share_of_h200_peak: f64,
    pub memcpy_share_of_h200_peak: f64,
}

impl CopyReport {
    pub fn text(&self) -> String {
        let row = |name: &str, s: &gpu::Spread, gbps: f64, share: f64| {
            format!(
                "  {name:<13} {:>8.3} ms median ({:.3}..{:.3}, {} samples)  {:>8.1} GB/s  {:>5.1}% of 4.8 TB/s",
                s.median, s.min, s.max, s.n, gbps, 100.0 * share
            )
        };
        format!(
            "tiled copy of {} bytes, {} stages, {}-byte tiles, grid {} on {} ({})\n  check against the source: {}\n{}\n{}\n  pipeline / cuMemcpyDtoD: {:.3} (same bytes, same run; read+write bytes counted)",
            crate::analysis::hist::group(self.bytes),
            self.stages,
            self.tile_bytes,
            self.grid,
            self.device,
            self.module,
            if self.mismatches == 0 {
                "identical".to_string()
            } else {
                format!("{} byte(s) differ, first at offset {}", self.mismatches, self.first_mismatch.unwrap_or(0))
            },
            row("pipeline", &self.pipeline_ms, self.pipeline_gbps, self.pipeline_share_of_h200_peak),
            row("cuMemcpyDtoD", &self.memcpy_ms, self.memcpy_gbps, self.memcpy_share_of_h200_peak),
            self.ratio_to_memcpy,
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

/// The tiled-copy kernels' parameters (`host/kernels/src/tiled_copy.rs`): `(tmap: *const
/// CUtensorMap, out: *mut u32, width: u32, height: u32, status: *mut u32)`, from `ptx-sync-abi`.
pub use ptx_sync_abi::TiledParams;

/// Tile of the kernel: 64 × 32 `u32` (8 KiB).
pub const TILE_W: u32 = 64;
pub const TILE_H: u32 = 32;
/// Row width of the copied matrix, in `u32` words (16 KiB rows).
pub const WIDTH: u32 = 4096;

/// The shape a byte count is copied as: `(width, height)` in `u32` words, or why not.
pub fn shape(bytes: u64) -> Result<(u32, u32), String> {
    let row = WIDTH as u64 * 4;
    if !bytes.is_multiple_of(row) {
        return Err(format!(
            "--bytes {bytes} is not a multiple of the {row}-byte row the copy uses (e.g. 64M)"
        ));
    }
    let height = bytes / row;
    if height < TILE_H as u64 {
        return Err(format!(
            "--bytes {bytes} is smaller than one {}-row tile band ({} bytes)",
            TILE_H,
            TILE_H as u64 * row
        ));
    }
    if height > u32::MAX as u64 {
        return Err(format!("--bytes {bytes} is too large"));
    }
    Ok((WIDTH, height as u32))
}

fn run(bytes: u64, stages: u32) -> Result<CopyReport, GpuError> {
    let (width, height) = shape(bytes).map_err(GpuError::Invalid)?;
    if !(1..=4).contains(&stages) {
        return Err(GpuError::Invalid(format!(
            "the pipeline kernels have 1 to 4 stages, not {stages}"
        )));
    }
    let g = gpu::Gpu::open()?;
    let kernel = format!("tiled_copy_s{stages}");
    let words = bytes as usize / 4;
    let mut rng = crate::exec::runner::Rng::new(0x7113d);
    let src: Vec<u32> = (0..words).map(|_| rng.next_u64() as u32).collect();
    let src_b = g.upload(&src)?;
    let out_b = g.alloc(bytes as usize)?;
    let ref_b = g.alloc(bytes as usize)?;
    out_b.fill_u32(crate::registry::programs::POISON)?;
    let map = TileMap::dense_2d(
        Elem::U32,
        src_b.ptr,
        height as u64,
        width as u64,
        TILE_H,
        TILE_W,
    );
    let tm = map.encode().map_err(GpuError::from)?;
    let tm_b = g.upload(tm.as_bytes())?; // cuMemAlloc is 256-byte aligned (the kernel needs 64)
    let st_b = g.alloc(16)?;
    let tiles = (width / TILE_W) as u64 * (height as u64).div_ceil(TILE_H as u64);
    let grid = tiles.min(2 * g.info.sms as u64).max(1) as u32;
    let p = TiledParams {
        tmap: tm_b.ptr,
        out: out_b.ptr,
        width,
        height,
        status: st_b.ptr,
    };
    let smem = stages * 8192;
    let cfg = ptx_sync_host::cuda::LaunchConfig::new(grid, 160).dyn_smem(smem);
    let launch = || g.launch_timed("copy", &kernel, &cfg, &p);
    let mut pipe = Vec::new();
    for k in 0..WARMUP + SAMPLES {
        // Every run starts from a poisoned output, so the check below sees the last run's work.
        out_b.fill_u32(crate::registry::programs::POISON)?;
        st_b.fill_u32(0)?;
        let ms = launch()?;
        if k >= WARMUP {
            pipe.push(ms as f64);
        }
    }
    let mut status = [0u32];
    st_b.read(&mut status)?;
    if status[0] != 0 {
        return Err(GpuError::Launch {
            program: "copy".into(),
            err: format!("a pipeline wait timed out (status {:#x})", status[0]),
        });
    }
    let mut out = vec![0u32; words];
    out_b.read(&mut out)?;
    let (mismatches, first) = diff(bytemuck::cast_slice(&src), bytemuck::cast_slice(&out));
    let mut mc = Vec::new();
    for k in 0..WARMUP + SAMPLES {
        let ms = g.memcpy_dtod_ms(&ref_b, &src_b, bytes as usize)?;
        if k >= WARMUP {
            mc.push(ms as f64);
        }
    }
    let (pipeline_ms, memcpy_ms) = (
        gpu::Spread::of(&pipe).expect("SAMPLES > 0"),
        gpu::Spread::of(&mc).expect("SAMPLES > 0"),
    );
    let (pg, mg) = (
        gbps(bytes, pipeline_ms.median as f32),
        gbps(bytes, memcpy_ms.median as f32),
    );
    Ok(CopyReport {
        device: g.info.name.clone(),
        module: g.loaded_from.to_string(),
        driver: gpu::driver_version_text(g.driver_version),
        bytes,
        stages,
        tile_bytes: map.box_bytes(),
        grid,
        mismatches,
        first_mismatch: first,
        warmup: WARMUP,
        pipeline_ms,
        memcpy_ms,
        pipeline_gbps: pg,
        memcpy_gbps: mg,
        ratio_to_memcpy: if pipeline_ms.median > 0.0 {
            memcpy_ms.median / pipeline_ms.median
        } else {
            0.0
        },
        pipeline_share_of_h200_peak: pg * 1e9 / H200_PEAK_BPS,
        memcpy_share_of_h200_peak: mg * 1e9 / H200_PEAK_BPS,
    })
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
        assert!(m
            .validate()
            .unwrap_err()
            .to_string()
            .contains("rank 6 is not supported"));

        let mut m = ok_map();
        m.strides = vec![1000];
        assert!(m
            .validate()
            .unwrap_err()
            .to_string()
            .contains("not a multiple of 16"));

        let mut m = ok_map();
        m.box_dims = vec![32, 512];
        assert!(m
            .validate()
            .unwrap_err()
            .to_string()
            .contains("must be 1 to 256"));

        let mut m = ok_map();
        m.addr += 8;
        assert!(m
            .validate()
            .unwrap_err()
            .to_string()
            .contains("not 16-byte aligned"));

        let mut m = ok_map();
        m.box_dims = vec![3, 64];
        assert!(m
            .validate()
            .unwrap_err()
            .to_string()
            .contains("inner extent is 12 bytes"));

        let mut m = ok_map();
        m.strides = vec![512];
        assert!(m
            .validate()
            .unwrap_err()
            .to_string()
            .contains("smaller than the 1024 bytes of the dimensions inside it"));

        let mut m = ok_map();
        m.strides = vec![];
        assert!(m
            .validate()
            .unwrap_err()
            .to_string()
            .contains("strides has 0 entries, the rank needs 1"));

        let mut m = ok_map();
        m.dims = vec![256, 0];
        assert!(m
            .validate()
            .unwrap_err()
            .to_string()
            .contains("dimension 1 has 0 elements"));

        let mut m = ok_map();
        m.box_dims = vec![32, 2048];
        assert!(m.validate().is_err());
    }

    #[test]
    fn params_match_the_kernels_when_built() {
        assert!(
            gpu::kernels_built(),
            "no kernels embedded: run `cargo xtask ptx`, then rebuild (cargo xtask test does both)"
        );
        for s in 1..=4 {
            let k = format!("tiled_copy_s{s}");
            assert_eq!(gpu::check_params::<TiledParams>(&k), Ok(32), "{k}");
        }
    }

    #[test]
    fn byte_counts_map_to_shapes() {
        assert_eq!(shape(64 << 20), Ok((4096, 4096)));
        assert!(shape(1000)
            .unwrap_err()
            .contains("not a multiple of the 16384-byte row"));
        assert!(shape(16384)
            .unwrap_err()
            .contains("smaller than one 32-row tile band"));
        let m = TileMap::dense_2d(Elem::U32, 0x1000, 4096, 4096, TILE_H, TILE_W);
        assert_eq!(m.validate(), Ok(()));
        assert_eq!(m.box_bytes(), 8192);
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
