//! The three-line `build.rs` of `builder/README.md` in a user's host crate: `cargo build` runs
//! it, the nested nightly build gets none of the outer build's settings (here `RUSTFLAGS=
//! -Dwarnings`, which would turn rustc's `+ptx86` note into an error), the PTX lands in
//! `OUT_DIR` for `include_str!`, and `cargo:rerun-if-changed` names the kernel crate.
//! Fixed paths under `target/` so that the outer build's dependencies and the kernel crate's
//! `core` stay built between runs; the kernel source is rewritten each run, so the build script
//! runs each time.

use ptx_sync_build::testing;
use std::path::Path;
use std::process::Command;

/// The kernel crate and the app with the README's `build.rs`, under `target/<dir>`; returns the
/// app's directory (the kernels are `../kernels` of it).
fn app(dir: &str) -> std::path::PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target")
        .join(dir);
    let device = testing::device_dir();
    let builder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .canonicalize()
        .unwrap();
    std::fs::create_dir_all(&root).unwrap();
    let root = root.canonicalize().unwrap();
    let (k, app) = (root.join("kernels"), root.join("app"));
    std::fs::create_dir_all(k.join("src")).unwrap();
    std::fs::create_dir_all(app.join("src")).unwrap();
    let w = |p: &Path, s: String| std::fs::write(p, s).unwrap();
    w(
        &k.join("Cargo.toml"),
        testing::cargo_toml("my-kernels", r#"["cdylib", "rlib"]"#, &device),
    );
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    w(
        &k.join("src/lib.rs"),
        format!(
            r#"//! run {stamp}
{}
#[no_mangle]
pub unsafe extern "ptx-kernel" fn from_build_rs(out: *mut u32) {{
    *out = 1;
    ptx_sync::fence::<ptx_sync::Release, ptx_sync::Gpu>();
}}
"#,
            testing::PRELUDE
        ),
    );
    w(
        &app.join("Cargo.toml"),
        format!(
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [build-dependencies]\nptx-sync-build = {{ path = \"{}\" }}\n\n[workspace]\n",
            builder.display()
        ),
    );
    w(
        &app.join("build.rs"),
        r#"fn main() -> Result<(), ptx_sync_build::Error> {
    ptx_sync_build::KernelCrate::new("../kernels").arch("sm_90a").build().map(|_| ())
}
"#
        .into(),
    );
    w(
        &app.join("src/main.rs"),
        r#"const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/my_kernels.ptx"));
fn main() {
    print!("{PTX}");
}
"#
        .into(),
    );
    app
}

#[test]
fn a_build_script_builds_the_kernels_into_out_dir() {
    let app = app("build-rs-test");
    let device = testing::device_dir();
    let k = app.parent().unwrap().join("kernels");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let o = Command::new(cargo)
        .args(["run", "--quiet", "--manifest-path"])
        .arg(app.join("Cargo.toml"))
        .env("RUSTFLAGS", "-Dwarnings")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success(),
        "cargo run of the app failed (install: `{}`):\n{stderr}",
        ptx_sync_build::INSTALL_NIGHTLY
    );
    let ptx = String::from_utf8_lossy(&o.stdout);
    assert!(ptx.contains(".entry from_build_rs"), "{ptx}");
    assert!(ptx.contains("fence.release.gpu"), "{ptx}");
    assert!(ptx.contains(".target sm_90a"), "{ptx}");

    // The build script's output names the kernel crate's sources and manifest.
    let build = app.join("target/debug/build");
    let outputs: Vec<String> = std::fs::read_dir(&build)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("app-"))
        .filter_map(|e| std::fs::read_to_string(e.path().join("output")).ok())
        .collect();
    let src = format!("cargo:rerun-if-changed={}", k.join("src").display());
    let toml = format!("cargo:rerun-if-changed={}", k.join("Cargo.toml").display());
    // …and those of its path dependency, ptx-sync.
    let dep = format!("cargo:rerun-if-changed={}", device.join("src").display());
    assert!(
        outputs
            .iter()
            .any(|o| o.contains(&src) && o.contains(&toml) && o.contains(&dep)),
        "want `{src}`, `{toml}` and `{dep}` in {outputs:?}"
    );
    without_ptxas_it_warns_that_it_wrote_no_cubin(&app);
}

/// Without ptxas (`PTX_SYNC_PTXAS` naming nothing) the build script still delivers the PTX, and
/// cargo shows the `cargo:warning` that no cubin was written, with the command that fixes it.
/// Run after [`a_build_script_builds_the_kernels_into_out_dir`], on the same app (the changed
/// variable re-runs the build script; the kernel crate's `core` is reused).
fn without_ptxas_it_warns_that_it_wrote_no_cubin(app: &Path) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let o = Command::new(cargo)
        .args(["run", "--manifest-path"])
        .arg(app.join("Cargo.toml"))
        // The first run's settings, so that this is the same build-script unit (its OUT_DIR).
        .env("RUSTFLAGS", "-Dwarnings")
        .env("PTX_SYNC_PTXAS", "/nonexistent/ptxas")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "cargo run failed:\n{stderr}");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(".entry from_build_rs"),
        "the PTX is still delivered"
    );
    assert!(
        stderr.contains("warning: app@0.1.0: ptx-sync-build: no ptxas found, so no my_kernels.cubin was written (only my_kernels.ptx): run `ptx-sync setup`"),
        "{stderr}"
    );
    // OUT_DIR (the one this run wrote: the newest PTX): the PTX, and no cubin — not even the
    // one the run with ptxas left there (it was assembled from other PTX).
    let newest = std::fs::read_dir(app.join("target/debug/build"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("out"))
        .filter_map(|o| {
            let t = o.join("my_kernels.ptx").metadata().ok()?.modified().ok()?;
            Some((t, o))
        })
        .max()
        .map(|(_, o)| o)
        .expect("an OUT_DIR with my_kernels.ptx");
    assert!(
        !newest.join("my_kernels.cubin").exists(),
        "a stale cubin in {}",
        newest.display()
    );
}
