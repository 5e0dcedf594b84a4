//! Test support (not part of the API): a kernel crate generated outside the workspace, as a
//! user's would be, shared by this crate's tests (`builder/tests/`) and `ptx-sync build`'s
//! (`host/tests/build_cmd.rs`).

use std::path::{Path, PathBuf};

/// The start of every generated kernel crate's `src/lib.rs`: `#![no_std]`, the nightly
/// features, and a `#[panic_handler]` that traps.
pub const PRELUDE: &str = r#"#![no_std]
#![feature(abi_ptx, asm_experimental_arch)]

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    unsafe { core::arch::asm!("trap;", options(noreturn)) }
}
"#;

/// The `Cargo.toml` of kernel crate `name`: `[lib] crate-type = crate_types` (`["cdylib"]`), a
/// path dependency on the device crate at `device`, and an empty `[workspace]`.
///
/// ```
/// let t = ptx_sync_build::testing::cargo_toml("k", r#"["cdylib"]"#, std::path::Path::new("/d"));
/// assert!(t.contains("[lib]\ncrate-type = [\"cdylib\"]\n") && t.contains("ptx-sync = { path = \"/d\" }"));
/// ```
pub fn cargo_toml(name: &str, crate_types: &str, device: &Path) -> String {
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [lib]\ncrate-type = {crate_types}\n\n\
         [dependencies]\nptx-sync = {{ path = \"{}\" }}\n\n[workspace]\n",
        device.display()
    )
}

/// The device crate of this repository (`device/`), canonical.
pub fn device_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../device")
        .canonicalize()
        .expect("the repository's device/ crate")
}

/// A fresh kernel crate `name` in the temp dir (`<temp>/<prefix>-<pid>`, emptied first):
/// [`cargo_toml`] and `src/lib.rs` = [`PRELUDE`] + `kernels`. Returns its directory.
pub fn user_crate(prefix: &str, name: &str, crate_types: &str, kernels: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{prefix}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        cargo_toml(name, crate_types, &device_dir()),
    )
    .unwrap();
    std::fs::write(dir.join("src/lib.rs"), format!("{PRELUDE}{kernels}")).unwrap();
    dir
}

/// The record of one ptxas run that succeeded: `ptxas -arch=ARCH` of a PTX text (its FNV-1a
/// hash) by the ptxas at `ptxas` (its `--version` text). `cargo xtask ptx` writes it next to each
/// cubin it assembled (`NAME.cubin.stamp`, after ptxas succeeded), and the tests that assemble
/// the same built PTX compare it instead of running ptxas on the same text again. `None` when
/// `ptxas --version` does not run.
///
/// ```
/// let a = ptx_sync_build::testing::fnv1a64(b"ld.acquire.gpu.u32");
/// assert_ne!(a, ptx_sync_build::testing::fnv1a64(b"ld.acquire.gpu.u64"));
/// ```
pub fn assembled_record(ptxas: &Path, arch: &str, ptx: &[u8]) -> Option<String> {
    let v = std::process::Command::new(ptxas)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(format!(
        "ptxas -arch={arch} {:016x}\n{}",
        fnv1a64(ptx),
        String::from_utf8_lossy(&v.stdout)
    ))
}

/// FNV-1a, 64 bits: a hash that is the same in every build and toolchain (unlike `std`'s
/// `DefaultHasher`), for [`assembled_record`].
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
