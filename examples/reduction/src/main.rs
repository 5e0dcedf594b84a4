//! Runs the reduction kernel on GPU 0 with ptx-sync-host's launcher. Build the kernel first:
//! `ptx-sync build --manifest-path Cargo.toml --arch sm_90` (see README.md), or set REDUCTION_PTX.
//! Every failure (no driver, no device, no PTX, a launch error) is one line and exit 1.
use ptx_sync_host::cuda::{kernel_params, Device, LaunchConfig};
use std::process::ExitCode;

kernel_params! {
    /// `reduce_kernel(input: *const u32, partials: *mut u32, ticket: *mut u32, out: *mut u32, n: u32)`.
    struct Params { input: *const u32, partials: *mut u32, ticket: *mut u32, out: *mut u32, n: u32, _pad: u32 }
}

const GRID: u32 = 132;
const BLOCK: u32 = 256;

fn main() -> ExitCode {
    match run() {
        Ok((got, want)) => {
            println!("sum={got} expected={want}");
            ExitCode::from(if got == want { 0 } else { 3 })
        }
        Err(e) => {
            eprintln!("reduction: {e}");
            ExitCode::from(1)
        }
    }
}

fn run() -> Result<(u32, u32), Box<dyn std::error::Error>> {
    let dev = Device::open(0)?;
    let path = std::env::var("REDUCTION_PTX")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/target/ptx/reduction_example.ptx").into());
    let ptx = std::fs::read_to_string(&path).map_err(|e| format!("kernel PTX {path}: {e} (run `ptx-sync build`, README.md)"))?;
    let kernel_module = dev.load_ptx(&ptx)?;
    let data: Vec<u32> = (0..1u32 << 24).map(|i| i.wrapping_mul(2654435761)).collect();
    let want = data.iter().fold(0u32, |s, &x| s.wrapping_add(x));
    let input = dev.upload(&data)?;
    let (partials, ticket, out) = (dev.alloc(4 * GRID as usize)?, dev.alloc(4)?, dev.alloc(4)?);
    ticket.fill_u32(0)?;
    let p = Params { input: input.ptr(), partials: partials.ptr(), ticket: ticket.ptr(), out: out.ptr(), n: data.len() as u32, _pad: 0 };
    // SAFETY: `input` holds n words, `partials` one per CTA, `ticket` is 0; 4 bytes of dynamic smem.
    unsafe { kernel_module.kernel("reduce_kernel")?.launch(&LaunchConfig::new(GRID, BLOCK).dyn_smem(4), &p)? };
    dev.synchronize()?;
    let mut got = [0u32];
    out.read(&mut got)?;
    Ok((got[0], want))
}
