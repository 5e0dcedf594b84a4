//! `setup`: nightly `rust-src` and the project venv with the PTX tools, installed where missing.

use super::*;

pub(super) fn setup() {
    setup_rust_src();
    setup_tools();
}

/// The nightly `rust-src` (device code is built with `-Zbuild-std=core`).
pub(super) fn setup_rust_src() {
    let out = Command::new("rustup")
        .args(["component", "list", "--toolchain", "nightly", "--installed"])
        .output();
    let have_src = out
        .as_ref()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.trim() == "rust-src")
        })
        .unwrap_or(false);
    if !have_src {
        eprintln!(
            "xtask: installing nightly rust-src (device code is built with -Zbuild-std=core)"
        );
        run(Command::new("rustup").args([
            "component",
            "add",
            "rust-src",
            "--toolchain",
            "nightly",
        ]));
    }
}

/// The PTX tools: a project `.venv` if the checkout has one, else the user's venv — the one
/// `ptx-sync setup` fills, so a user's crates find the same tools.
pub(super) fn setup_tools() {
    if tools_bin().is_none() {
        let target = if venv().exists() {
            venv()
        } else {
            match ptx_sync_build::tools::user_venv() {
                Some(v) => v,
                None => {
                    eprintln!("xtask: no HOME, XDG_CACHE_HOME or PTX_SYNC_HOME to install the PTX tools under");
                    exit(1)
                }
            }
        };
        let py = env::var("PYTHON").unwrap_or_else(|_| "python3".into());
        if let Err(e) =
            ptx_sync_build::tools::install(&target, &py, &mut |l| eprintln!("xtask: {l}"))
        {
            eprintln!("xtask: {e}");
            exit(1);
        }
    }
    eprintln!(
        "xtask: tools in {}",
        tools_bin().expect("installed above").display()
    );
}
