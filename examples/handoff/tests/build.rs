//! The kernel crate as a user builds it for nvptx64 (nightly, `-Zbuild-std=core`):
//! * through `ptx-sync-build` for sm_80, the crate stops with ptx-sync's `compile_error!`, whose
//!   message names the fix (instead of building and failing later in ptxas);
//! * with plain `cargo rustc` and no `--crate-type cdylib` (the manifest's `["cdylib", "rlib"]`),
//!   the PTX has no `__ptx_sync_dyn_smem` (the crate does not use the dynamic window) and ptxas
//!   assembles it.
use std::path::PathBuf;
use std::process::Command;

fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn sm_80_stops_with_a_compile_error_that_names_the_fix() {
    let err = ptx_sync_build::KernelCrate::new(here())
        .arch("sm_80")
        .out_dir(std::env::temp_dir().join(format!("handoff-sm80-{}", std::process::id())))
        .target_dir(here().join("../../target/ptx-sync-build"))
        .ptxas(ptx_sync_build::Ptxas::Skip)
        .rerun_if_changed(false)
        .build()
        .expect_err("sm_80 is below ptx-sync's floor");
    let msg = err.to_string();
    assert!(msg.contains("ptx-sync needs sm_90 and PTX ISA 8.6 or newer"), "{msg}");
    assert!(msg.contains("-C target-cpu=sm_90 -C target-feature=+ptx86"), "{msg}");
    assert!(msg.contains("ptx-sync build --arch sm_90"), "{msg}");
}

#[test]
fn cdylib_and_rlib_build_with_plain_cargo_and_assemble() {
    let ptx = std::env::temp_dir().join(format!("handoff-raw-{}.ptx", std::process::id()));
    let mut emit = std::ffi::OsString::from("--emit=asm=");
    emit.push(&ptx);
    let o = Command::new("rustup")
        .args(["run", "nightly", "cargo", "rustc", "--release", "--lib", "--target", "nvptx64-nvidia-cuda", "-Zbuild-std=core"])
        .arg("--manifest-path")
        .arg(here().join("Cargo.toml"))
        .arg("--target-dir")
        .arg(here().join("../../target/nvptx-raw"))
        .args(["--config", "profile.release.lto=\"fat\"", "--config", "profile.release.panic=\"abort\"", "--", "-Zno-link"])
        .arg(&emit)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTC")
        .env_remove("CARGO")
        .env("CARGO_ENCODED_RUSTFLAGS", "-Ctarget-cpu=sm_90\u{1f}-Ctarget-feature=+ptx86")
        .output()
        .expect("rustup");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&ptx).unwrap();
    assert!(text.contains(".entry handoff_kernel("), "{text}");
    assert!(!text.contains("__ptx_sync_dyn_smem"), "an unused dynamic smem declaration");
    let ptxas = ptx_sync_build::find_ptxas(&here()).expect("ptxas (cargo xtask setup)");
    let cubin = ptx.with_extension("cubin");
    let a = Command::new(ptxas).arg("-arch=sm_90").arg(&ptx).arg("-o").arg(&cubin).output().unwrap();
    assert!(a.status.success(), "ptxas: {}", String::from_utf8_lossy(&a.stderr));
    assert!(std::fs::metadata(&cubin).unwrap().len() > 0);
    let _ = (std::fs::remove_file(&ptx), std::fs::remove_file(&cubin));
}
