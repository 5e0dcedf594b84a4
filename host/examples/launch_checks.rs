//! What `ptx_sync_host::cuda` refuses before the driver sees it, one case per run: each refusal
//! is one line naming what is wrong, exit 1; what passes prints what it did, exit 0. The host's
//! tests run it against the recording driver stub (`tests/cuda_api.rs`).
//!
//! ```text
//! cargo run -p ptx-sync-host --example launch_checks -- load IMAGE [--truncate N]
//! cargo run -p ptx-sync-host --example launch_checks -- outlive KERNELS.ptx
//! cargo run -p ptx-sync-host --example launch_checks -- launch KERNELS.ptx KERNEL CASE [--smem BYTES]
//! ```
//!
//! * `load`: `Device::load_cubin` of the file's first `N` bytes (all by default), copied into a
//!   buffer of exactly that length: a truncated cubin or fatbin is refused, the driver never
//!   reads past the slice.
//! * `outlive`: the `Device` is dropped first, then a buffer made from it is written and the
//!   module and buffer are dropped: the context stays retained until the last of them is gone.
//! * `launch`: kernel `KERNEL(sums: *mut u64, flags: *mut u32, n: u32)` with `sums` made for
//!   `u64` and `flags` uploaded as `u32`, and `CASE` one of `ok` (as declared), `swapped` (the two
//!   pointers exchanged), `value` (the count 256 in `flags`), `freed` (`flags` from a dropped
//!   buffer), `misaligned` (`sums` 4 bytes into its buffer), `value-field` (a struct whose
//!   `flags` field is declared `u64`, not a pointer).

use ptx_sync_host::cuda::{kernel_params, CudaError, Device, LaunchConfig};
use std::process::ExitCode;

kernel_params! {
    /// `KERNEL(sums: *mut u64, flags: *mut u32, n: u32)`.
    struct Pair { sums: *mut u64, flags: *mut u32, n: u32, _pad: u32 }
    /// The same kernel with `flags` declared as a value.
    struct PairValue { sums: *mut u64, flags: u64, n: u32, _pad: u32 }
}

fn load(args: &[String]) -> Result<String, CudaError> {
    let path = args
        .first()
        .ok_or_else(|| CudaError::Invalid("load IMAGE".into()))?;
    let bytes =
        std::fs::read(path).map_err(|e| CudaError::Invalid(format!("cannot read {path}: {e}")))?;
    let n = match args.get(1).map(String::as_str) {
        Some("--truncate") => args
            .get(2)
            .and_then(|v| v.parse::<usize>().ok())
            .ok_or_else(|| CudaError::Invalid("--truncate N".into()))?
            .min(bytes.len()),
        _ => bytes.len(),
    };
    // Exactly `n` bytes: nothing of the file beyond them is in this allocation.
    let image: Vec<u8> = bytes[..n].to_vec();
    let dev = Device::open(0)?;
    let _m = dev.load_cubin(&image, None)?;
    Ok(format!("loaded {n} bytes"))
}

fn outlive(args: &[String]) -> Result<String, CudaError> {
    let path = args
        .first()
        .ok_or_else(|| CudaError::Invalid("outlive PTX".into()))?;
    let ptx = std::fs::read_to_string(path)
        .map_err(|e| CudaError::Invalid(format!("cannot read {path}: {e}")))?;
    let dev = Device::open(0)?;
    let module = dev.load_ptx(&ptx)?;
    let buf = dev.alloc(64)?;
    drop(dev);
    buf.fill_u32(7)?;
    drop(module);
    drop(buf);
    Ok("device dropped first; module and buffer used and dropped after it".into())
}

fn launch(args: &[String]) -> Result<String, CudaError> {
    let [path, kernel, case, rest @ ..] = args else {
        return Err(CudaError::Invalid("launch PTX KERNEL CASE".into()));
    };
    let smem = match rest {
        [flag, v] if flag == "--smem" => v
            .parse()
            .map_err(|e| CudaError::Invalid(format!("--smem: {e}")))?,
        _ => 0,
    };
    let ptx = std::fs::read_to_string(path)
        .map_err(|e| CudaError::Invalid(format!("cannot read {path}: {e}")))?;
    let dev = Device::open(0)?;
    let module = dev.load_ptx(&ptx)?;
    let k = module.kernel(kernel)?;
    let sums = dev.upload(&[0u64; 256])?;
    let flags = dev.upload(&[0u32; 256])?;
    let freed = dev.alloc(1024)?.ptr();
    let cfg = LaunchConfig::new(2, 128).dyn_smem(smem);
    let p = Pair {
        sums: sums.ptr(),
        flags: flags.ptr(),
        n: 256,
        _pad: 0,
    };
    // SAFETY: the kernels these cases launch (tests/cuda_api.rs) do nothing; every refused case
    // is refused before the driver sees it.
    unsafe {
        match case.as_str() {
            "ok" => k.launch(&cfg, &p)?,
            "swapped" => k.launch(
                &cfg,
                &Pair {
                    sums: p.flags,
                    flags: p.sums,
                    ..p
                },
            )?,
            "value" => k.launch(&cfg, &Pair { flags: 256, ..p })?,
            "freed" => k.launch(&cfg, &Pair { flags: freed, ..p })?,
            "misaligned" => k.launch(
                &cfg,
                &Pair {
                    sums: p.sums + 4,
                    ..p
                },
            )?,
            "value-field" => k.launch(
                &cfg,
                &PairValue {
                    sums: p.sums,
                    flags: p.flags,
                    n: 256,
                    _pad: 0,
                },
            )?,
            other => return Err(CudaError::Invalid(format!("unknown case {other}"))),
        }
    }
    dev.synchronize()?;
    Ok(format!("launched {kernel} ({case})"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.first().map(String::as_str) {
        Some("load") => load(&args[1..]),
        Some("outlive") => outlive(&args[1..]),
        Some("launch") => launch(&args[1..]),
        _ => {
            eprintln!("launch_checks: usage: launch_checks load|outlive|launch ...");
            return ExitCode::from(2);
        }
    };
    match r {
        Ok(s) => {
            println!("{s}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("launch_checks: {e}");
            ExitCode::from(1)
        }
    }
}
