//! Runs a kernel of your own with `ptx_sync_host::cuda`.
//!
//! Build your kernel crate to PTX (`ptx-sync build --manifest-path my-kernels/Cargo.toml --out
//! out/`, or `ptx_sync_build::KernelCrate` from a `build.rs`), then:
//!
//! ```text
//! cargo run -p ptx-sync-host --example launch_user_kernel -- out/my_kernels.ptx \
//!     [--kernel NAME] [--grid N] [--block N] [--cluster N] [--smem BYTES] [--pdl] [--tmap]
//! ```
//!
//! The kernel's signature (checked against the PTX before the launch, field by field):
//!
//! ```text
//! #[no_mangle]
//! pub unsafe extern "ptx-kernel" fn user_kernel(out: *mut u32, n: u32, status: *mut u32)
//! ```
//!
//! It writes `n` words to `out` and, when one of its bounded waits
//! (`ptx_sync::wait::spin_until`) returns `Err(Timeout)`, ORs a bit into `*status` and returns.
//! The program prints the first words of `out`, or the error: no driver, no device, an old
//! driver, a JIT error with its log, a parameter mismatch naming the field, a device-side
//! timeout — each one line, exit 1. `--tmap` also encodes a tensor map over `out` (64-word rows,
//! 8 × 16 boxes), as a TMA kernel would take it.

use ptx_sync_host::cuda::tensor_map::{Elem, TiledMap};
use ptx_sync_host::cuda::{kernel_params, CudaError, Device, LaunchConfig};
use std::process::ExitCode;

kernel_params! {
    /// `user_kernel(out: *mut u32, n: u32, status: *mut u32)`.
    pub struct UserParams {
        /// `n` words, written by the kernel.
        pub out: *mut u32,
        /// Words to write.
        pub n: u32,
        /// Explicit padding: `status` is 8-aligned.
        pub _pad: u32,
        /// The status word (device-side timeouts).
        pub status: *mut u32,
    }
}

struct Opts {
    ptx: String,
    kernel: String,
    grid: u32,
    block: u32,
    cluster: Option<u32>,
    smem: u32,
    pdl: bool,
    tmap: bool,
}

fn parse() -> Result<Opts, String> {
    let mut a = std::env::args().skip(1);
    let mut o = Opts {
        ptx: String::new(),
        kernel: "user_kernel".into(),
        grid: 4,
        block: 128,
        cluster: None,
        smem: 0,
        pdl: false,
        tmap: false,
    };
    let num = |v: Option<String>, what: &str| -> Result<u32, String> {
        v.ok_or(format!("{what} needs a value"))?
            .parse()
            .map_err(|e| format!("{what}: {e}"))
    };
    while let Some(x) = a.next() {
        match x.as_str() {
            "--kernel" => o.kernel = a.next().ok_or("--kernel needs a name")?,
            "--grid" => o.grid = num(a.next(), "--grid")?,
            "--block" => o.block = num(a.next(), "--block")?,
            "--cluster" => o.cluster = Some(num(a.next(), "--cluster")?),
            "--smem" => o.smem = num(a.next(), "--smem")?,
            "--pdl" => o.pdl = true,
            "--tmap" => o.tmap = true,
            p if !p.starts_with('-') && o.ptx.is_empty() => o.ptx = p.into(),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if o.ptx.is_empty() {
        return Err("usage: launch_user_kernel KERNELS.ptx [--kernel NAME] [--grid N] [--block N] [--cluster N] [--smem BYTES] [--pdl] [--tmap]".into());
    }
    Ok(o)
}

fn run(o: &Opts) -> Result<Vec<u32>, CudaError> {
    let ptx = std::fs::read_to_string(&o.ptx)
        .map_err(|e| CudaError::Invalid(format!("cannot read {}: {e}", o.ptx)))?;
    let dev = Device::open(0)?;
    let module = dev.load_ptx(&ptx)?;
    let kernel = module.kernel(&o.kernel)?;
    let n = o.grid * o.block;
    let out = dev.alloc(n as usize * 4)?;
    let status = dev.status_word()?;
    if o.tmap {
        let rows = (n as u64 / 64).max(8);
        let out_map = dev.alloc((rows * 64 * 4) as usize)?;
        let map = TiledMap::dense_2d(Elem::U32, out_map.ptr(), rows, 64, 8, 16).encode()?;
        let _map_on_device = dev.upload(map.as_bytes())?;
    }
    let mut cfg = LaunchConfig::new(o.grid, o.block)
        .dyn_smem(o.smem)
        .programmatic_dependent_launch(o.pdl);
    if let Some(c) = o.cluster {
        cfg = cfg.cluster(c);
    }
    let p = UserParams {
        out: out.ptr(),
        n,
        _pad: 0,
        status: status.ptr(),
    };
    // SAFETY: the kernel's contract above: it writes `n` words to `out` (which holds `n`) and at
    // most one word to `status`.
    unsafe { kernel.launch(&cfg, &p)? };
    dev.synchronize()?;
    status.check(&o.kernel)?;
    let mut host = vec![0u32; n as usize];
    out.read(&mut host)?;
    Ok(host)
}

fn main() -> ExitCode {
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("launch_user_kernel: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&o) {
        Ok(words) => {
            println!(
                "{}: {} words, first {:?}",
                o.kernel,
                words.len(),
                &words[..words.len().min(4)]
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("launch_user_kernel: {e}");
            ExitCode::from(1)
        }
    }
}
