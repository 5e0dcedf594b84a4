//! Embeds the kernels' PTX (built by `cargo xtask ptx`) into the `ptx-sync` binary.
//!
//! Looks for `kernels.ptx` in `$PTX_SYNC_PTX_DIR`, else `<workspace>/target/ptx`. If it is there,
//! `$OUT_DIR/kernels.ptx` is a copy and the `ptx_sync_kernels` cfg is set; if not, an empty file is
//! written, the binary still builds, and its GPU commands say "kernels not built: run
//! `cargo xtask ptx`".

use std::path::PathBuf;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(ptx_sync_kernels)");
    println!("cargo:rerun-if-env-changed=PTX_SYNC_PTX_DIR");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let dir = std::env::var_os("PTX_SYNC_PTX_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../target/ptx"));
    let src = dir.join("kernels.ptx");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("kernels.ptx");
    println!("cargo:rerun-if-changed={}", src.display());
    // Also rerun when the file appears later (cargo watches the directory's mtime).
    println!("cargo:rerun-if-changed={}", dir.display());
    match std::fs::read(&src) {
        Ok(bytes) if !bytes.is_empty() => {
            std::fs::write(&out, &bytes).unwrap();
            println!("cargo:rustc-cfg=ptx_sync_kernels");
        }
        _ => std::fs::write(&out, b"").unwrap(),
    }
}
