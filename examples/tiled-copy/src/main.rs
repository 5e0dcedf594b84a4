//! Runs the tiled-copy kernel on GPU 0 with cudarc: encodes the tensor map
//! (`cuTensorMapEncodeTiled`), launches `tiled_copy_s{STAGES}`, checks the copy against its
//! source (output poisoned first) and the status word, and compares its bandwidth with
//! `cuMemcpyDtoD`.
//!
//! Build the kernel first (nightly, see README.md), then
//! `TILED_COPY_PTX=tiled_copy.ptx cargo run --release -- [STAGES [WIDTH HEIGHT]]`
//! (defaults: 2 stages, 4100 × 4000 `u32`, sides that are not multiples of the 64 × 32 tile).
//! Without a driver it says so in one line and exits 1.

use cudarc::driver::sys;
use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;
use std::process::ExitCode;
use tiled_copy_example::{tiles, TILE_BYTES, TILE_H, TILE_W};

const POISON: u32 = 0xAAAA_AAAA;

fn main() -> ExitCode {
    // SAFETY: only tries to load libcuda.
    if !unsafe { sys::is_culib_present() } {
        eprintln!("tiled-copy: no NVIDIA driver (libcuda.so not found); `cargo test` runs the copy on CPU threads");
        return ExitCode::from(1);
    }
    let args: Vec<u32> = match std::env::args().skip(1).map(|a| a.parse::<u32>()).collect() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("tiled-copy: usage: tiled-copy [STAGES [WIDTH HEIGHT]] ({e})");
            return ExitCode::from(2);
        }
    };
    let stages = args.first().copied().unwrap_or(2);
    let (width, height) = (args.get(1).copied().unwrap_or(4100), args.get(2).copied().unwrap_or(4000));
    if !(1..=4).contains(&stages) || width % 4 != 0 || width < TILE_W || height < TILE_H {
        eprintln!("tiled-copy: STAGES must be 1..=4, WIDTH a multiple of 4 and at least {TILE_W}, HEIGHT at least {TILE_H}");
        return ExitCode::from(2);
    }
    let ptx = std::env::var("TILED_COPY_PTX").unwrap_or_else(|_| "tiled_copy.ptx".into());
    if !std::path::Path::new(&ptx).exists() {
        eprintln!("tiled-copy: kernel PTX {ptx} not found (build it as README.md says, or set TILED_COPY_PTX)");
        return ExitCode::from(1);
    }
    match run(&ptx, stages, width, height) {
        Ok(r) => {
            println!("{r}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tiled-copy: {e}");
            ExitCode::from(3)
        }
    }
}

/// GB/s for `bytes` read and written in `ms`.
fn gbps(bytes: usize, ms: f32) -> f64 {
    2.0 * bytes as f64 / (ms as f64 * 1e-3) / 1e9
}

/// `cuTensorMapEncodeTiled` for a `u32` matrix `height × width` at `addr`, box `TILE_W × TILE_H`.
fn encode(addr: u64, width: u32, height: u32) -> Result<[u8; 128], String> {
    let dims = [width as u64, height as u64];
    let strides = [width as u64 * 4]; // byte stride of dimension 1 (dimension 0 is contiguous)
    let boxes = [TILE_W, TILE_H];
    let elem_strides = [1u32, 1];
    // SAFETY: a zeroed CUtensorMap is the documented starting state; the arrays have rank 2
    // (strides: rank - 1) entries.
    unsafe {
        let mut m: sys::CUtensorMap = std::mem::zeroed();
        sys::cuTensorMapEncodeTiled(
            &mut m,
            sys::CUtensorMapDataType::CU_TENSOR_MAP_DATA_TYPE_UINT32,
            2,
            addr as *mut std::ffi::c_void,
            dims.as_ptr(),
            strides.as_ptr(),
            boxes.as_ptr(),
            elem_strides.as_ptr(),
            sys::CUtensorMapInterleave::CU_TENSOR_MAP_INTERLEAVE_NONE,
            sys::CUtensorMapSwizzle::CU_TENSOR_MAP_SWIZZLE_NONE,
            sys::CUtensorMapL2promotion::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            sys::CUtensorMapFloatOOBfill::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
        )
        .result()
        .map_err(|e| format!("cuTensorMapEncodeTiled({width} x {height} u32): {e:?}"))?;
        Ok(std::mem::transmute::<sys::CUtensorMap, [u8; 128]>(m))
    }
}

fn run(ptx: &str, stages: u32, width: u32, height: u32) -> Result<String, Box<dyn std::error::Error>> {
    let ctx = CudaContext::new(0)?;
    let module = ctx.load_module(Ptx::from_file(ptx))?;
    let f = module.load_function(&format!("tiled_copy_s{stages}"))?;
    let stream = ctx.default_stream();
    let words = width as usize * height as usize;
    let bytes = words * 4;
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let src: Vec<u32> = (0..words)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        })
        .collect();
    let d_src = stream.clone_htod(&src)?;
    let mut d_out = stream.clone_htod(&vec![POISON; words])?;
    let mut d_status = stream.alloc_zeros::<u32>(1)?;
    let src_addr = {
        use cudarc::driver::DevicePtr;
        let (p, _sync) = d_src.device_ptr(&stream);
        p
    };
    // The map goes to global memory (cuMemAlloc is 256-byte aligned; the kernel needs 64).
    let d_map = stream.clone_htod(&encode(src_addr, width, height)?)?;
    let (_, n_tiles) = tiles(width, height);
    let sms = ctx.attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32;
    let cfg = LaunchConfig {
        grid_dim: (n_tiles.min(2 * sms).max(1), 1, 1),
        block_dim: (160, 1, 1),
        shared_mem_bytes: stages * TILE_BYTES,
    };
    let launch = |out: &mut cudarc::driver::CudaSlice<u32>, status: &mut cudarc::driver::CudaSlice<u32>| {
        let mut b = stream.launch_builder(&f);
        b.arg(&d_map).arg(out).arg(&width).arg(&height).arg(status);
        // SAFETY: (map*, out*, width, height, status*) as the kernel declares them; `out` holds
        // width × height words, `status` one.
        unsafe { b.launch(cfg) }.map(drop)
    };
    launch(&mut d_out, &mut d_status)?; // warm-up (JIT, caches)
    stream.memcpy_htod(&vec![POISON; words], &mut d_out)?;
    let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
    let e0 = stream.record_event(timing)?;
    launch(&mut d_out, &mut d_status)?;
    let e1 = stream.record_event(timing)?;
    let ms = e0.elapsed_ms(&e1)?;
    let status = stream.clone_dtoh(&d_status)?[0];
    if status != 0 {
        return Err(format!("a bounded wait timed out (status {status:#x}: 1 consumer, 2 producer, 4 tail)").into());
    }
    let out = stream.clone_dtoh(&d_out)?;
    if let Some(i) = out.iter().zip(&src).position(|(a, b)| a != b) {
        let n = out.iter().zip(&src).filter(|(a, b)| a != b).count();
        return Err(format!("the copy differs from its source in {n} word(s), first at ({}, {})", i % width as usize, i / width as usize).into());
    }
    let mut d_ref = stream.alloc_zeros::<u32>(words)?;
    stream.memcpy_dtod(&d_src, &mut d_ref)?; // warm-up
    let e2 = stream.record_event(timing)?;
    stream.memcpy_dtod(&d_src, &mut d_ref)?;
    let e3 = stream.record_event(timing)?;
    let mc = e2.elapsed_ms(&e3)?;
    Ok(format!(
        "tiled copy of {width} x {height} u32 ({:.1} MB), {stages} stage(s), {} tiles of {TILE_W} x {TILE_H}, {} CTAs on {}: identical\n  \
         pipeline      {ms:>8.3} ms  {:>8.1} GB/s\n  cuMemcpyDtoD  {mc:>8.3} ms  {:>8.1} GB/s",
        bytes as f64 / 1e6,
        n_tiles,
        cfg.grid_dim.0,
        ctx.name()?,
        gbps(bytes, ms),
        gbps(bytes, mc),
    ))
}
