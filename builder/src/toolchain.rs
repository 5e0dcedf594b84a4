//! The toolchain the build needs: nightly with `rust-src` (checked through rustup) and ptxas (found,
//! its PTX accepted).

use super::*;

/// `rustup run TOOLCHAIN PROGRAM`, in an environment without the outer cargo's settings.
pub(super) fn rustup(toolchain: &str, program: &str) -> Command {
    let mut cmd = Command::new("rustup");
    cmd.args(["run", toolchain, program]);
    for (k, _) in std::env::vars_os() {
        let Some(k) = k.to_str() else { continue };
        let drop = matches!(
            k,
            "RUSTFLAGS"
                | "RUSTDOCFLAGS"
                | "RUSTC"
                | "RUSTDOC"
                | "RUSTC_WRAPPER"
                | "RUSTC_WORKSPACE_WRAPPER"
                | "RUSTC_LINKER"
                | "RUSTUP_TOOLCHAIN"
                | "CARGO"
                | "CARGO_ENCODED_RUSTFLAGS"
                | "CARGO_ENCODED_RUSTDOCFLAGS"
                | "CARGO_PRIMARY_PACKAGE"
                | "CARGO_CRATE_NAME"
                | "CARGO_MANIFEST_DIR"
                | "CARGO_MANIFEST_PATH"
                | "CARGO_MANIFEST_LINKS"
                | "OUT_DIR"
                | "TARGET"
                | "HOST"
                | "NUM_JOBS"
                | "OPT_LEVEL"
                | "PROFILE"
                | "DEBUG"
        ) || [
            "CARGO_CFG_",
            "CARGO_FEATURE_",
            "CARGO_PKG_",
            "CARGO_TARGET_",
            "CARGO_BUILD_",
            "CARGO_BIN_",
            "DEP_",
        ]
        .iter()
        .any(|p| k.starts_with(p));
        if drop {
            cmd.env_remove(k);
        }
    }
    cmd
}

/// Nightly present (never installed behind the caller's back), with `rust-src`, knowing the
/// nvptx64 target.
pub(super) fn check_toolchain(toolchain: &str) -> Result<(), Error> {
    let o = rustup(toolchain, "rustc")
        .env("RUSTUP_AUTO_INSTALL", "0")
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| {
            Error::new(
                ErrorKind::Toolchain,
                format!("cannot run rustup ({e}): install it from https://rustup.rs, then {INSTALL_NIGHTLY}"),
            )
        })?;
    if !o.status.success() {
        let install = if toolchain == "nightly" {
            INSTALL_NIGHTLY.to_string()
        } else {
            format!("rustup toolchain install {toolchain} --component rust-src")
        };
        return Err(Error::new(
            ErrorKind::Toolchain,
            format!(
                "no `{toolchain}` toolchain (the nvptx64 build needs a nightly for -Zbuild-std): {install}\n{}",
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        ));
    }
    let sysroot = PathBuf::from(String::from_utf8_lossy(&o.stdout).trim());
    let v = rustup(toolchain, "rustc")
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    if !(v.contains("-nightly") || v.contains("-dev")) {
        return Err(Error::new(
            ErrorKind::Toolchain,
            format!(
                "the `{toolchain}` toolchain is not a nightly ({}), and the nvptx64 build needs -Zbuild-std=core: {INSTALL_NIGHTLY}, then .toolchain(\"nightly\") (the default)",
                v.trim()
            ),
        ));
    }
    if !sysroot
        .join("lib/rustlib/src/rust/library/core/Cargo.toml")
        .exists()
    {
        return Err(Error::new(
            ErrorKind::Toolchain,
            format!(
                "the `{toolchain}` toolchain has no rust-src (-Zbuild-std=core builds core from it): {}",
                INSTALL_RUST_SRC.replace("nightly", toolchain)
            ),
        ));
    }
    let o = rustup(toolchain, "rustc")
        .args(["--print", "target-list"])
        .output()
        .map_err(|e| Error::new(ErrorKind::Toolchain, format!("cannot run rustc: {e}")))?;
    if !String::from_utf8_lossy(&o.stdout)
        .lines()
        .any(|l| l.trim() == TARGET)
    {
        return Err(Error::new(
            ErrorKind::Toolchain,
            format!("the `{toolchain}` toolchain does not know {TARGET}: rustup update {toolchain}, or rustup target add {TARGET} --toolchain {toolchain}"),
        ));
    }
    Ok(())
}

/// The PTX has at least one kernel; else say why (no `#[no_mangle]`, wrong ABI).
pub(super) fn check_ptx(ptx: &Path) -> Result<(), Error> {
    let text = std::fs::read_to_string(ptx)
        .map_err(|e| Error::new(ErrorKind::Io, format!("cannot read {}: {e}", ptx.display())))?;
    if !text.contains(".entry") {
        return Err(Error::new(
            ErrorKind::Compile,
            format!(
                "{} has no kernel (.entry): a kernel is `#[no_mangle] pub unsafe extern \"ptx-kernel\" fn name(…)` in the library crate",
                ptx.display()
            ),
        ));
    }
    Ok(())
}

/// ptxas: `PTX_SYNC_PTXAS` (file or directory), `PTX_SYNC_TOOLS`, `PATH`, then a project venv
/// (`.venv/lib/python3*/site-packages/nvidia/cu13/bin/ptxas`) in `start`, the current directory
/// or a directory above one of them ([`tools::find_tool`]).
///
/// ```no_run
/// let ptxas = ptx_sync_build::find_ptxas(std::path::Path::new(".")).expect("ptxas");
/// ```
pub fn find_ptxas(start: &Path) -> Option<PathBuf> {
    tools::find_tool("ptxas", start)
}
