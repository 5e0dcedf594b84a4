//! The kernel crate as cargo sees it (`cargo metadata`): its package, lib target and target
//! directory.

use super::*;

pub(super) struct Meta {
    /// The directories of the crate's direct path dependencies (e.g. `ptx-sync`'s `device/`).
    pub(super) path_deps: Vec<PathBuf>,
    pub(super) lib_name: String,
    pub(super) lib_src: PathBuf,
    pub(super) target_dir: PathBuf,
}

/// `cargo metadata --no-deps` of the kernel crate: its library target and target directory.
pub(super) fn metadata(toolchain: &str, manifest: &Path) -> Result<Meta, Error> {
    let o = rustup(toolchain, "cargo")
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(manifest)
        .output()
        .map_err(|e| Error::new(ErrorKind::Toolchain, format!("cannot run cargo: {e}")))?;
    if !o.status.success() {
        return Err(Error::new(
            ErrorKind::Manifest,
            format!(
                "cannot read {}:\n{}",
                manifest.display(),
                String::from_utf8_lossy(&o.stderr).trim()
            ),
        ));
    }
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).map_err(|e| {
        Error::new(
            ErrorKind::Manifest,
            format!("cargo metadata gave no JSON: {e}"),
        )
    })?;
    let want = std::fs::canonicalize(manifest).unwrap_or_else(|_| manifest.to_path_buf());
    let pkg = v["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| {
            p["manifest_path"]
                .as_str()
                .map(|m| std::fs::canonicalize(m).unwrap_or_else(|_| m.into()) == want)
                .unwrap_or(false)
        })
        .ok_or_else(|| {
            Error::new(
                ErrorKind::Manifest,
                format!("{} is not a package manifest (a virtual workspace?): point at the kernel crate itself", manifest.display()),
            )
        })?;
    let lib = pkg["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|t| {
            t["kind"].as_array().is_some_and(|k| {
                k.iter().any(|k| {
                    matches!(k.as_str(), Some("lib" | "cdylib" | "rlib" | "staticlib" | "dylib"))
                })
            })
        })
        .ok_or_else(|| {
            Error::new(
                ErrorKind::Manifest,
                format!(
                    "{} has no library target: kernels live in src/lib.rs with [lib] crate-type = [\"cdylib\"] (or [\"cdylib\", \"rlib\"] to test them on the host too)",
                    manifest.display()
                ),
            )
        })?;
    if lib["kind"]
        .as_array()
        .is_some_and(|k| k.iter().any(|k| k == "proc-macro"))
    {
        return Err(Error::new(
            ErrorKind::Manifest,
            format!(
                "{} is a proc-macro crate, not a kernel crate",
                manifest.display()
            ),
        ));
    }
    let path_deps = pkg["dependencies"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["path"].as_str().map(PathBuf::from))
        .collect();
    Ok(Meta {
        path_deps,
        lib_name: lib["name"].as_str().unwrap_or("kernels").replace('-', "_"),
        lib_src: PathBuf::from(lib["src_path"].as_str().unwrap_or_default()),
        target_dir: PathBuf::from(v["target_directory"].as_str().unwrap_or("target")),
    })
}
