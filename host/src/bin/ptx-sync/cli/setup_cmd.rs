//! `ptx-sync setup`: what a user's machine needs once, installed where every ptx-sync tool looks
//! — the nightly `rust-src` (device crates are built with `-Zbuild-std=core`) and the PTX tools
//! from PyPI (ptxas/nvcc 13.0, cuobjdump, nvdisasm, the libcu++ headers) in the user's venv
//! (`ptx_sync_build::tools::user_venv`: `$PTX_SYNC_HOME/venv`, else
//! `$XDG_CACHE_HOME/ptx-sync/venv`, else `~/.cache/ptx-sync/venv`), which `ptx-sync build`,
//! `ptx-sync show` and a `build.rs` calling `ptx-sync-build` all find, whatever the layout of
//! the user's crates. Prints the tool directory; exit 1 with the reason when something is missing
//! (rustup, Python 3 with `venv`, the network).

use std::process::{Command, ExitCode};

/// Runs the set-up with `python` for the venv.
pub fn run(python: &str) -> ExitCode {
    if let Err(e) = rust_src() {
        eprintln!("ptx-sync: {e}");
        return ExitCode::from(1);
    }
    let Some(venv) = ptx_sync_build::tools::user_venv() else {
        eprintln!(
            "ptx-sync: no HOME, XDG_CACHE_HOME or PTX_SYNC_HOME to install the PTX tools under"
        );
        return ExitCode::from(1);
    };
    match ptx_sync_build::tools::install(&venv, python, &mut |l| eprintln!("ptx-sync: {l}")) {
        Ok(bin) => {
            println!("{}", bin.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ptx-sync: {e}");
            ExitCode::from(1)
        }
    }
}

/// The nightly toolchain with `rust-src`: added when missing (the toolchain itself is the
/// user's to install: the message says how).
fn rust_src() -> Result<(), String> {
    let o = Command::new("rustup")
        .args(["component", "list", "--toolchain", "nightly", "--installed"])
        .output()
        .map_err(|e| {
            format!(
                "cannot run rustup ({e}): install it from https://rustup.rs, then `{}`",
                ptx_sync_build::INSTALL_NIGHTLY
            )
        })?;
    if !o.status.success() {
        return Err(format!(
            "no nightly toolchain: `{}`",
            ptx_sync_build::INSTALL_NIGHTLY
        ));
    }
    if String::from_utf8_lossy(&o.stdout)
        .lines()
        .any(|l| l.trim() == "rust-src")
    {
        return Ok(());
    }
    eprintln!("ptx-sync: adding rust-src to the nightly toolchain");
    let s = Command::new("rustup")
        .args(["component", "add", "rust-src", "--toolchain", "nightly"])
        .status()
        .map_err(|e| format!("cannot run rustup: {e}"))?;
    s.success()
        .then_some(())
        .ok_or_else(|| format!("`{}` failed ({s})", ptx_sync_build::INSTALL_RUST_SRC))
}
