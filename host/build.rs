//! Embeds the kernels (built by `cargo xtask ptx`) into the `ptx-sync` binary: the PTX
//! (`kernels.ptx`) and its ptxas output for sm_90a (`kernels.sm_90a.cubin`).
//!
//! Looks in `$PTX_SYNC_PTX_DIR`, else `<workspace>/target/ptx`. A missing file is embedded as an
//! empty one so that the binary still builds on a fresh checkout (its GPU commands then say
//! "kernels not built: run `cargo xtask ptx`"), and cargo prints a warning; the host's tests
//! (`gpu::tests::kernels_are_embedded`, the stub-driver suite) fail on such a build, naming the
//! command — nothing passes without the kernels.

use std::path::PathBuf;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(ptx_sync_kernels)");
    println!("cargo:rerun-if-env-changed=PTX_SYNC_PTX_DIR");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let dir = std::env::var_os("PTX_SYNC_PTX_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../target/ptx"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    // Also rerun when the files appear later (cargo watches the directory's mtime).
    println!("cargo:rerun-if-changed={}", dir.display());
    for (src, dst) in [
        ("kernels.ptx", "kernels.ptx"),
        ("kernels.sm_90a.cubin", "kernels.cubin"),
    ] {
        let src = dir.join(src);
        println!("cargo:rerun-if-changed={}", src.display());
        match std::fs::read(&src) {
            Ok(bytes) if !bytes.is_empty() => {
                std::fs::write(out_dir.join(dst), &bytes).unwrap();
                if dst == "kernels.ptx" {
                    println!("cargo:rustc-cfg=ptx_sync_kernels");
                }
            }
            _ => {
                println!(
                    "cargo:warning={} missing: GPU commands will say so; run `cargo xtask ptx`",
                    src.display()
                );
                std::fs::write(out_dir.join(dst), b"").unwrap();
            }
        }
    }
}
