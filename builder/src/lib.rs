//! `ptx-sync-build`: builds an nvptx64 kernel crate to PTX (and a cubin when ptxas is found),
//! from a user's `build.rs` or from `ptx-sync build`. It is the one place that knows the flags.
//!
//! ```no_run
//! // build.rs of the host crate; the kernel crate lives in ../kernels
//! fn main() -> Result<(), ptx_sync_build::Error> {
//!     let out = ptx_sync_build::KernelCrate::new("../kernels").arch("sm_90a").build()?;
//!     println!("cargo:rustc-env=KERNELS_PTX={}", out.ptx.display());
//!     Ok(())
//! }
//! ```
//!
//! What [`KernelCrate::build`] runs (the 12-flag line a user would otherwise type):
//!
//! ```text
//! CARGO_ENCODED_RUSTFLAGS="-Ctarget-cpu=ARCH␟-Ctarget-feature=+ptxNN" \
//! rustup run nightly cargo rustc --release --lib --crate-type cdylib \
//!     --manifest-path KERNELS/Cargo.toml --target nvptx64-nvidia-cuda -Zbuild-std=core \
//!     --target-dir TARGET --config 'profile.release.lto="fat"' --config 'profile.release.panic="abort"' \
//!     --config profile.release.codegen-units=1 --config profile.release.opt-level=3 \
//!     [--features F] -- -Zno-link --emit=asm=NAME.ptx
//! ptxas -arch=ARCH NAME.ptx -o NAME.cubin
//! ```
//!
//! in an environment cleared of the outer cargo's settings (`RUSTFLAGS`, `CARGO_TARGET_DIR`,
//! `RUSTC`, the build script's `CARGO_*`, …). `--crate-type cdylib` is what makes fat LTO link
//! `core` into one self-contained module, and it overrides a manifest's `["cdylib", "rlib"]`,
//! so a kernel crate may also be an `rlib` for host tests.
//!
//! Every failure is an [`Error`] whose message names the fix: a missing nightly toolchain, a
//! missing `rust-src`, a toolchain without the nvptx64 target, an unknown arch or PTX version, a
//! crate without a library target, rustc's errors, ptxas's errors.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

pub mod sass;
#[doc(hidden)]
pub mod testing;
pub mod tools;

use tools::{absolute, normalize};

mod error;
mod krate;
mod metadata;
mod toolchain;

pub use error::*;
pub use krate::*;
use metadata::*;
pub use toolchain::*;

/// The rustc target.
pub const TARGET: &str = "nvptx64-nvidia-cuda";

/// The default PTX ISA version (`+ptx86`, PTX ISA 8.6), raised to an arch's minimum.
pub const DEFAULT_PTX: u32 = 86;

/// The archs this builder accepts, each with the oldest PTX ISA version that supports it
/// (LLVM's NVPTX processor table; the nightly's `rustc --print target-cpus`).
pub const ARCHS: &[(&str, u32)] = &[
    ("sm_70", 60),
    ("sm_72", 61),
    ("sm_75", 63),
    ("sm_80", 70),
    ("sm_86", 71),
    ("sm_87", 74),
    ("sm_88", 90),
    ("sm_89", 78),
    ("sm_90", 78),
    ("sm_90a", 80),
    ("sm_100", 86),
    ("sm_100a", 86),
    ("sm_100f", 88),
    ("sm_101", 86),
    ("sm_101a", 86),
    ("sm_101f", 88),
    ("sm_103", 88),
    ("sm_103a", 88),
    ("sm_103f", 88),
    ("sm_110", 90),
    ("sm_110a", 90),
    ("sm_110f", 90),
    ("sm_120", 87),
    ("sm_120a", 87),
    ("sm_120f", 88),
    ("sm_121", 88),
    ("sm_121a", 88),
    ("sm_121f", 88),
];

/// The PTX ISA versions LLVM's NVPTX back end knows (`+ptxNN`).
pub const PTX_VERSIONS: &[u32] = &[
    60, 61, 62, 63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88,
    90,
];

/// How to install what the build needs.
pub const INSTALL_NIGHTLY: &str = "rustup toolchain install nightly --component rust-src";
/// How to add `rust-src` (`-Zbuild-std=core` builds `core` from it).
pub const INSTALL_RUST_SRC: &str = "rustup component add rust-src --toolchain nightly";
/// How to get ptxas.
pub const INSTALL_PTXAS: &str = "run `ptx-sync setup` (installs the PyPI PTX tools into ~/.cache/ptx-sync/venv, where ptx-sync-build finds them), or set PTX_SYNC_PTXAS=/path/to/ptxas, or put ptxas on PATH";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_for_arch_and_ptx_version() {
        let k = KernelCrate::new("k");
        assert_eq!(
            k.rustflags().unwrap(),
            ["-Ctarget-cpu=sm_90", "-Ctarget-feature=+ptx86"]
        );
        let k = KernelCrate::new("k").arch("sm_120a");
        assert_eq!(k.rustflags().unwrap()[1], "-Ctarget-feature=+ptx87");
        let k = KernelCrate::new("k").arch("sm_90a").ptx_version(88);
        assert_eq!(
            k.rustflags().unwrap(),
            ["-Ctarget-cpu=sm_90a", "-Ctarget-feature=+ptx88"]
        );
    }

    #[test]
    fn bad_arch_and_ptx_version_name_the_fix() {
        let e = KernelCrate::new("k").arch("sm_10").rustflags().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Config);
        assert!(e.message.contains("unsupported arch `sm_10`"), "{e}");
        assert!(
            e.message.contains("sm_90a") && e.message.contains("sm_70"),
            "{e}"
        );
        let e = KernelCrate::new("k")
            .ptx_version(99)
            .rustflags()
            .unwrap_err();
        assert!(e.message.contains("unsupported PTX ISA version 99"), "{e}");
        let e = KernelCrate::new("k")
            .arch("sm_100a")
            .ptx_version(80)
            .rustflags()
            .unwrap_err();
        assert!(e.message.contains("sm_100a needs PTX ISA 8.6"), "{e}");
    }

    #[test]
    fn compile_errors_carry_their_fix() {
        let e = compile_error(
            "error[E0658]: the extern \"ptx-kernel\" ABI is experimental and subject to change\n",
            Path::new("k/Cargo.toml"),
        );
        assert!(e.message.contains("#![feature(abi_ptx)]"), "{e}");
        let e = compile_error(
            "error: `#[panic_handler]` function required, but not found\n",
            Path::new("k"),
        );
        assert!(e.message.contains("add a #[panic_handler]"), "{e}");
    }
}
