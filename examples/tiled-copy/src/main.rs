//! The GPU side of the example: checks for a driver, then copies a buffer device-to-device with
//! `cuMemcpyDtoD` and verifies it — the baseline the TMA pipeline of `ptx-sync copy` is measured
//! against. Without a driver it says so in one line and exits 1.

use cudarc::driver::CudaContext;
use std::process::ExitCode;

fn main() -> ExitCode {
    // SAFETY: only tries to load libcuda.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        eprintln!("tiled-copy: no NVIDIA driver (libcuda.so not found); `cargo test` runs the ring on CPU threads");
        return ExitCode::from(1);
    }
    match run(64 << 20) {
        Ok(ms) => {
            println!("cuMemcpyDtoD of 64 MiB: identical, {ms:.3} ms");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tiled-copy: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(bytes: usize) -> Result<f64, Box<dyn std::error::Error>> {
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let src: Vec<u8> = (0..bytes).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    let d_src = stream.clone_htod(&src)?;
    let mut d_dst = stream.alloc_zeros::<u8>(bytes)?;
    let t = std::time::Instant::now();
    stream.memcpy_dtod(&d_src, &mut d_dst)?;
    stream.synchronize()?;
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let back = stream.clone_dtoh(&d_dst)?;
    if back != src {
        return Err("the copy differs from its source".into());
    }
    Ok(ms)
}
