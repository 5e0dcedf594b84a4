//! Runs the tiled-copy kernel on GPU 0 with ptx-sync-host's launcher: encodes the tensor map
//! (`cuTensorMapEncodeTiled`, validated first), launches `tiled_copy_s{STAGES}`, checks the copy
//! against its source (output poisoned first) and the status word, and prints the bandwidth.
//!
//! Build the kernel first (`ptx-sync build`, see README.md), then
//! `cargo run --release -- [STAGES [WIDTH HEIGHT]]` (defaults: 2 stages, 4100 × 4000 `u32`,
//! sides that are not multiples of the 64 × 32 tile; TILED_COPY_PTX overrides the PTX path).
//! Every failure (no driver, no device, no PTX, a launch error, a stall) is one line and exit 1.
use ptx_sync_host::cuda::tensor_map::{Elem, TiledMap};
use ptx_sync_host::cuda::{kernel_params, Device, LaunchConfig};
use std::process::ExitCode;
use tiled_copy_example::{tiles, TILE_BYTES, TILE_H, TILE_W};

const POISON: u32 = 0xAAAA_AAAA;

kernel_params! {
    /// `tiled_copy_sN(tmap: *const TensorMap, out: *mut u32, width: u32, height: u32, status: *mut u32)`.
    struct Params { tmap: *const u8, out: *mut u32, width: u32, height: u32, status: *mut u32 }
}

fn main() -> ExitCode {
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
    match run(stages, width, height) {
        Ok(r) => {
            println!("{r}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tiled-copy: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(stages: u32, width: u32, height: u32) -> Result<String, Box<dyn std::error::Error>> {
    let dev = Device::open(0)?;
    let path = std::env::var("TILED_COPY_PTX")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/target/ptx/tiled_copy_example.ptx").into());
    let ptx = std::fs::read_to_string(&path).map_err(|e| format!("kernel PTX {path}: {e} (run `ptx-sync build`, README.md)"))?;
    let module = dev.load_ptx(&ptx)?;
    let kernel = module.kernel(&format!("tiled_copy_s{stages}"))?;
    let words = width as usize * height as usize;
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let src: Vec<u32> = (0..words)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        })
        .collect();
    let d_src = dev.upload(&src)?;
    let d_out = dev.upload(&vec![POISON; words])?;
    let status = dev.status_word()?;
    let map = TiledMap::dense_2d(Elem::U32, d_src.ptr(), height as u64, width as u64, TILE_H, TILE_W).encode()?;
    let d_map = dev.upload(map.as_bytes())?; // in global memory: the kernel takes a pointer
    let (_, n_tiles) = tiles(width, height);
    let grid = n_tiles.min(2 * dev.info().sms as u32).max(1);
    let cfg = LaunchConfig::new(grid, 160).dyn_smem(stages * TILE_BYTES);
    let p = Params { tmap: d_map.ptr(), out: d_out.ptr(), width, height, status: status.ptr() };
    // SAFETY: the map describes d_src; `out` holds width × height words, `status` one; the ring
    // is stages × TILE_BYTES of dynamic shared memory; 160 threads (thread 0 + 128 consumers).
    unsafe { kernel.launch(&cfg, &p)? }; // warm-up (JIT, caches)
    dev.synchronize()?;
    d_out.write(&vec![POISON; words])?;
    let t0 = std::time::Instant::now();
    unsafe { kernel.launch(&cfg, &p)? };
    dev.synchronize()?;
    let secs = t0.elapsed().as_secs_f64();
    status.check(&format!("tiled_copy_s{stages} (1 consumer, 2 producer, 4 tail)"))?;
    let mut out = vec![0u32; words];
    d_out.read(&mut out)?;
    if let Some(i) = out.iter().zip(&src).position(|(a, b)| a != b) {
        let n = out.iter().zip(&src).filter(|(a, b)| a != b).count();
        return Err(format!("the copy differs from its source in {n} word(s), first at ({}, {})", i % width as usize, i / width as usize).into());
    }
    Ok(format!(
        "tiled copy of {width} x {height} u32 ({:.1} MB), {stages} stage(s), {n_tiles} tiles of {TILE_W} x {TILE_H}, {grid} CTAs on {}: identical, {:.1} GB/s",
        words as f64 * 4e-6,
        dev.info().name,
        2.0 * words as f64 * 4.0 / secs / 1e9,
    ))
}
