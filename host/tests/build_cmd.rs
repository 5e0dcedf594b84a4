//! `ptx-sync build`: a kernel crate generated outside the workspace, built to PTX and cubin by the
//! CLI, which prints the two paths; a wrong `--arch` is a one-line argument error (exit 2).
//! Needs the nightly toolchain with rust-src and ptxas (`cargo xtask setup`); without them the
//! test fails with the command that installs them.

use std::path::{Path, PathBuf};
use std::process::Command;

fn user_crate(tag: &str) -> PathBuf {
    ptx_sync_build::testing::user_crate(
        &format!("ptx-sync-cli-build-{tag}"),
        "cli-kernels",
        r#"["cdylib", "rlib"]"#,
        r#"
#[no_mangle]
pub unsafe extern "ptx-kernel" fn cli_fence(out: *mut u32) {
    *out = 1;
    ptx_sync::fence::<ptx_sync::Sc, ptx_sync::Gpu>();
}
"#,
    )
}

fn ptx_sync() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptx-sync"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

#[test]
fn build_prints_the_ptx_and_cubin_paths() {
    let dir = user_crate("ok");
    let out = dir.join("out");
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ptx-sync-build");
    let o = ptx_sync()
        .arg("build")
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .args(["--arch", "sm_90a", "--out"])
        .arg(&out)
        .arg("--target-dir")
        .arg(&target)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success(),
        "ptx-sync build failed (install: `{}`; ptxas: {}):\n{stderr}",
        ptx_sync_build::INSTALL_NIGHTLY,
        ptx_sync_build::INSTALL_PTXAS
    );
    // No noise about the builder's own deliberate `+ptx86` flag (rustc's unstable-feature note).
    assert!(
        !stderr.contains("unstable feature specified") && !stderr.contains("generated 1 warning"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    let ptx = out.join("cli_kernels.ptx");
    let cubin = out.join("cli_kernels.cubin");
    assert_eq!(
        lines,
        [ptx.to_str().unwrap(), cubin.to_str().unwrap()],
        "stderr: {stderr}"
    );
    let text = std::fs::read_to_string(&ptx).unwrap();
    assert!(
        text.contains(".entry cli_fence") && text.contains("fence.sc.gpu"),
        "{text}"
    );
    assert!(std::fs::read(&cubin).unwrap().starts_with(b"\x7fELF"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `cargo run -p ptx-sync-host -- build` runs the binary with cargo's `OUT_DIR` set: the command
/// is not a build script, so without `--out` the artifacts go to the crate's `target/ptx`.
#[test]
fn build_ignores_a_stray_out_dir() {
    let dir = user_crate("outdir");
    let stray = dir.join("stray-out-dir");
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ptx-sync-build");
    let o = ptx_sync()
        .arg("build")
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .args(["--arch", "sm_90a", "--target-dir"])
        .arg(&target)
        .env("OUT_DIR", &stray)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "ptx-sync build failed:\n{stderr}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let want = dir.join("target/ptx/cli_kernels.ptx");
    assert_eq!(
        stdout.lines().next(),
        Some(want.to_str().unwrap()),
        "{stderr}"
    );
    assert!(want.is_file() && !stray.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn build_with_a_wrong_arch_is_an_argument_error() {
    let o = ptx_sync()
        .args(["build", "--arch", "sm_10"])
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("unsupported arch `sm_10`") && e.contains("sm_90a"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "one line: {e}");
}

#[test]
fn build_without_a_crate_says_where_it_looked() {
    let dir = std::env::temp_dir().join(format!("ptx-sync-cli-none-{}", std::process::id()));
    let o = ptx_sync()
        .arg("build")
        .arg("--manifest-path")
        .arg(&dir)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("no kernel crate at"), "{e}");
}

/// `ptx-sync build … | head -0`: the paths meet a closed pipe after the build; the process ends
/// quietly on SIGPIPE (no panic, no exit 101), as every command does (`tests/broken_pipe.rs`).
#[test]
fn build_on_a_closed_pipe_ends_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let dir = user_crate("pipe");
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ptx-sync-build");
    let (r, w) = std::io::pipe().unwrap();
    drop(r);
    let o = ptx_sync()
        .arg("build")
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"))
        .args(["--arch", "sm_90a", "--out"])
        .arg(dir.join("out"))
        .arg("--target-dir")
        .arg(&target)
        .stdout(w)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(dir.join("out/cli_kernels.ptx").is_file(), "{stderr}");
    assert_eq!(
        (o.status.code(), o.status.signal()),
        (None, Some(13)),
        "want the end by SIGPIPE, got {:?}:\n{stderr}",
        o.status
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
