//! Runs the hand-off kernel on GPU 0 with cudarc.
//!
//! Build the kernel first (nightly, see README.md):
//! `cargo +nightly rustc --release --lib --crate-type cdylib --target nvptx64-nvidia-cuda -Zbuild-std=core -- -Ctarget-cpu=sm_90 -Ctarget-feature=+ptx86 --emit=asm=handoff.ptx`
//! then `HANDOFF_PTX=handoff.ptx cargo run`. Without a driver it says so and exits 1.

use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;
use std::process::ExitCode;

fn main() -> ExitCode {
    // SAFETY: only tries to load libcuda.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        eprintln!("handoff: no NVIDIA driver (libcuda.so not found); `cargo test` runs the protocol on CPU threads");
        return ExitCode::from(1);
    }
    let ptx = std::env::var("HANDOFF_PTX").unwrap_or_else(|_| "handoff.ptx".into());
    if !std::path::Path::new(&ptx).exists() {
        eprintln!("handoff: kernel PTX {ptx} not found (build it as README.md says, or set HANDOFF_PTX)");
        return ExitCode::from(1);
    }
    match run(&ptx) {
        Ok([v1, v2, p]) => {
            println!("value1={v1} value2={v2} P saw both: {}", p == 1);
            if v1 == 42 && v2 == 42 && p == 1 { ExitCode::SUCCESS } else { ExitCode::from(3) }
        }
        Err(e) => {
            eprintln!("handoff: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(ptx: &str) -> Result<[u32; 3], Box<dyn std::error::Error>> {
    let ctx = CudaContext::new(0)?;
    let module = ctx.load_module(Ptx::from_file(ptx))?;
    let f = module.load_function("handoff")?;
    let stream = ctx.default_stream();
    let mut h = stream.alloc_zeros::<u32>(3)?;
    let mut out = stream.alloc_zeros::<u32>(3)?;
    let mut b = stream.launch_builder(&f);
    b.arg(&mut h).arg(&mut out);
    let cfg = LaunchConfig { grid_dim: (3, 1, 1), block_dim: (1, 1, 1), shared_mem_bytes: 0 };
    // SAFETY: the kernel takes (Handoff*, u32*) — 3 and 3 words, allocated above.
    unsafe { b.launch(cfg) }?;
    let v = stream.clone_dtoh(&out)?;
    Ok([v[0], v[1], v[2]])
}
