//! Runs the hand-off kernel on GPU 0 with ptx-sync-host's launcher. Build the kernel first:
//! `ptx-sync build --manifest-path Cargo.toml --arch sm_90` (see README.md), or set HANDOFF_PTX.
//! Every failure (no driver, no device, no PTX, a launch error) is one line and exit 1.
use ptx_sync_host::cuda::{kernel_params, Device, LaunchConfig};
use std::process::ExitCode;

kernel_params! {
    /// `handoff_kernel(h: *mut Handoff, out: *mut u32)`.
    struct Params { h: *mut u32, out: *mut u32 }
}

fn main() -> ExitCode {
    match run() {
        Ok([v1, v2, p]) => {
            println!("value1={v1} value2={v2} P saw both: {}", p == 1);
            ExitCode::from(if [v1, v2, p] == [42, 42, 1] { 0 } else { 3 })
        }
        Err(e) => {
            eprintln!("handoff: {e}");
            ExitCode::from(1)
        }
    }
}

fn run() -> Result<[u32; 3], Box<dyn std::error::Error>> {
    let dev = Device::open(0)?;
    let path = std::env::var("HANDOFF_PTX")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/target/ptx/handoff_example.ptx").into());
    let ptx = std::fs::read_to_string(&path).map_err(|e| format!("kernel PTX {path}: {e} (run `ptx-sync build`, README.md)"))?;
    let module = dev.load_ptx(&ptx)?;
    let (h, out) = (dev.alloc(12)?, dev.alloc(12)?);
    h.fill_u32(0)?;
    out.fill_u32(0)?;
    // SAFETY: the kernel reads/writes 3 words of `h` and writes 3 of `out`; 3 CTAs of 1 thread.
    unsafe { module.kernel("handoff_kernel")?.launch(&LaunchConfig::new(3, 1), &Params { h: h.ptr(), out: out.ptr() })? };
    dev.synchronize()?;
    let mut v = [0u32; 3];
    out.read(&mut v)?;
    Ok(v)
}
