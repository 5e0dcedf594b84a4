//! `ptx-sync-build` on a kernel crate generated outside the workspace, as a user's would be:
//! a path dependency on `device/`, `#![no_std]`, one kernel calling `ptx_sync::fence`.
//!
//! These tests need the nightly toolchain with `rust-src` and ptxas (`cargo xtask setup`
//! installs both); without them they fail with the command that installs them.

use ptx_sync_build::{testing, ErrorKind, KernelCrate, Ptxas};
use std::path::{Path, PathBuf};

/// The nvptx target directory `cargo xtask` builds into (the builder's default for this
/// workspace): the `core` built there for each arch is reused (cargo keys it by the RUSTFLAGS).
fn shared_target() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ptx-sync-build")
}

/// A fresh kernel crate in the temp dir; `crate_types` as in `[lib] crate-type = …`.
pub fn user_crate(tag: &str, crate_types: &str) -> PathBuf {
    testing::user_crate(
        &format!("ptx-sync-build-{tag}"),
        "user-kernels",
        crate_types,
        r#"
use ptx_sync::{fence, AcqRel, Gpu};

#[no_mangle]
pub unsafe extern "ptx-kernel" fn user_publish(out: *mut u32) {
    *out = 1;
    fence::<AcqRel, Gpu>();
    *out.add(1) = 2;
}
"#,
    )
}

fn fail_with_fix(e: ptx_sync_build::Error) -> ! {
    panic!(
        "ptx-sync-build failed (install: `{}`; ptxas: {}):\n{e}",
        ptx_sync_build::INSTALL_NIGHTLY,
        ptx_sync_build::INSTALL_PTXAS
    )
}

#[test]
fn builds_a_fresh_kernel_crate_to_ptx_and_cubin() {
    // cdylib + rlib: the builder passes --crate-type cdylib, so fat LTO still links one module.
    let dir = user_crate("ok", r#"["cdylib", "rlib"]"#);
    let out = dir.join("out");
    let a = KernelCrate::new(&dir)
        .arch("sm_90a")
        .out_dir(&out)
        .target_dir(shared_target())
        .ptxas(Ptxas::Required)
        .build()
        .unwrap_or_else(|e| fail_with_fix(e));
    assert_eq!(a.ptx, out.join("user_kernels.ptx"));
    let ptx = std::fs::read_to_string(&a.ptx).unwrap();
    assert!(ptx.contains(".entry user_publish"), "{ptx}");
    assert!(ptx.contains("fence.acq_rel.gpu"), "{ptx}");
    assert!(ptx.contains(".target sm_90a"), "{ptx}");
    assert!(ptx.contains(".version 8.6"), "{ptx}");
    let cubin = a.cubin.clone().expect("ptxas ran");
    assert_eq!(cubin, out.join("user_kernels.cubin"));
    let bytes = std::fs::read(&cubin).unwrap();
    assert!(bytes.starts_with(b"\x7fELF"), "a cubin is an ELF file");

    // The output deleted, the build run again: cargo finds the unit fresh, the builder still
    // delivers the PTX.
    std::fs::remove_dir_all(&out).unwrap();
    let b = KernelCrate::new(dir.join("Cargo.toml"))
        .arch("sm_90a")
        .out_dir(&out)
        .target_dir(shared_target())
        .ptxas(Ptxas::Skip)
        .build()
        .unwrap_or_else(|e| fail_with_fix(e));
    assert!(std::fs::read_to_string(&b.ptx)
        .unwrap()
        .contains(".entry user_publish"));
    assert_eq!(b.cubin, None);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wrong_arch_names_the_supported_ones() {
    let dir = user_crate("arch", r#"["cdylib"]"#);
    let e = KernelCrate::new(&dir).arch("sm_10").build().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Config);
    let m = e.to_string();
    assert!(m.contains("unsupported arch `sm_10`"), "{m}");
    for a in ["sm_70", "sm_80", "sm_90", "sm_90a", "sm_100a", "sm_120"] {
        assert!(m.contains(a), "{a} missing from: {m}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_feature_flag_and_bad_manifest_name_their_fix() {
    // A kernel without #![feature(abi_ptx)]: rustc's error, with the line that fixes it.
    let dir = user_crate("feat", r#"["cdylib"]"#);
    let src = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        src.replace(
            "#![feature(abi_ptx, asm_experimental_arch)]",
            "#![feature(asm_experimental_arch)]",
        ),
    )
    .unwrap();
    let e = KernelCrate::new(&dir)
        .target_dir(shared_target())
        .out_dir(dir.join("out"))
        .build()
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Compile, "{e}");
    assert!(e.message.contains("add #![feature(abi_ptx)]"), "{e}");
    assert!(
        e.message.contains("ptx-kernel"),
        "rustc's own error is kept: {e}"
    );

    // No crate there.
    let e = KernelCrate::new(dir.join("nope")).build().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Manifest);
    assert!(e.message.contains("no kernel crate at"), "{e}");

    // A binary-only crate: no library target.
    std::fs::rename(dir.join("src/lib.rs"), dir.join("src/main.rs")).unwrap();
    let toml = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        toml.replace("[lib]\ncrate-type = [\"cdylib\"]\n", ""),
    )
    .unwrap();
    let e = KernelCrate::new(&dir).build().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Manifest, "{e}");
    assert!(e.message.contains("has no library target"), "{e}");
    assert!(e.message.contains("crate-type = [\"cdylib\"]"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_ptxas_error_carries_ptxas_message() {
    // rustc passes inline-asm text through unchecked, so ptxas is the one that rejects it.
    let dir = user_crate("ptxas", r#"["cdylib"]"#);
    let src = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        src.replace(
            "*out.add(1) = 2;",
            "core::arch::asm!(\"not.an.instruction;\");\n    *out.add(1) = 2;",
        ),
    )
    .unwrap();
    let e = KernelCrate::new(&dir)
        .target_dir(shared_target())
        .out_dir(dir.join("out"))
        .ptxas(Ptxas::Required)
        .build()
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Ptxas, "{e}");
    assert!(e.message.contains("ptxas -arch=sm_90 rejected"), "{e}");
    assert!(
        e.message.contains("error   : Unknown modifier '.an'"),
        "ptxas's own message: {e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_or_stable_toolchain_names_the_install_command() {
    let dir = user_crate("tc", r#"["cdylib"]"#);
    let e = KernelCrate::new(&dir)
        .toolchain("nightly-1999-01-01")
        .build()
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Toolchain, "{e}");
    assert!(
        e.message
            .contains("rustup toolchain install nightly-1999-01-01 --component rust-src"),
        "{e}"
    );
    // A stable toolchain cannot -Zbuild-std: the message says to install and use nightly
    // (or, where there is no stable, to install that).
    let e = KernelCrate::new(&dir)
        .toolchain("stable")
        .build()
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Toolchain, "{e}");
    assert!(
        e.message.contains("is not a nightly") || e.message.contains("no `stable` toolchain"),
        "{e}"
    );
    assert!(e.message.contains(ptx_sync_build::INSTALL_NIGHTLY), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
