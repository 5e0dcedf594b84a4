//! The workspace's one finder of the PTX tools (`ptxas`, `cuobjdump`, `nvdisasm`, `nvcc`): the
//! build helper, the host's `sass`/`inspect`, the device crate's tool tests and `cargo xtask`
//! all call it.
//!
//! Where a tool is looked for, in order: `PTX_SYNC_<TOOL>` (the binary or its directory; e.g.
//! `PTX_SYNC_PTXAS`), `PTX_SYNC_TOOLS` (the directory of all of them, set by `cargo xtask`),
//! `PATH` ([`find_tool`] only), then a project venv made by `cargo xtask setup`
//! (`.venv/lib/python3*/site-packages/nvidia/cu13/bin`) in the start directory, the current
//! directory, or a directory above one of them.

use std::path::{Path, PathBuf};

/// Where `pip install nvidia-cuda-nvcc` puts the tools inside a venv's `lib/python3.X`.
///
/// ```
/// assert!(ptx_sync_build::tools::VENV_BIN.ends_with("cu13/bin"));
/// ```
pub const VENV_BIN: &str = "site-packages/nvidia/cu13/bin";

/// The tool directory of the venv `venv` (a `.venv` folder): the `lib/python3*/` with `ptxas`
/// under [`VENV_BIN`] (the highest Python version when there are several).
///
/// ```
/// assert_eq!(ptx_sync_build::tools::venv_bin(std::path::Path::new("/nonexistent/.venv")), None);
/// ```
pub fn venv_bin(venv: &Path) -> Option<PathBuf> {
    let rd = std::fs::read_dir(venv.join("lib")).ok()?;
    let mut found: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path().join(VENV_BIN))
        .filter(|b| b.join("ptxas").is_file())
        .collect();
    found.sort();
    found.pop()
}

/// The tool directory of the nearest project venv: `.venv` in `start`, the current directory, or
/// a directory above one of them.
///
/// ```no_run
/// let bin = ptx_sync_build::tools::venv_tools(std::path::Path::new(".")).expect("cargo xtask setup");
/// assert!(bin.join("ptxas").is_file());
/// ```
pub fn venv_tools(start: &Path) -> Option<PathBuf> {
    let starts = [absolute(start), absolute(Path::new("."))];
    starts
        .iter()
        .flat_map(|s| s.ancestors())
        .find_map(|d| venv_bin(&d.join(".venv")))
}

/// The directory holding `ptxas` and `cuobjdump`: `PTX_SYNC_TOOLS` if set (it must then contain
/// `ptxas`), else [`venv_tools`]`(start)`; the error names the fix.
///
/// ```no_run
/// let tools = ptx_sync_build::tools::find_tools(std::path::Path::new(".")).unwrap();
/// assert!(tools.join("cuobjdump").is_file());
/// ```
pub fn find_tools(start: &Path) -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("PTX_SYNC_TOOLS") {
        let d = PathBuf::from(d);
        return if d.join("ptxas").is_file() {
            Ok(d)
        } else {
            Err(format!("PTX_SYNC_TOOLS={} has no ptxas", d.display()))
        };
    }
    venv_tools(start).ok_or_else(|| {
        format!(
            "no PTX tools: set PTX_SYNC_TOOLS to the directory holding ptxas and cuobjdump, or run \
             `cargo xtask setup` (installs them under {}/.venv/lib)",
            absolute(start).display()
        )
    })
}

/// Tool `name` (`"ptxas"`, `"cuobjdump"`, ...): `PTX_SYNC_<NAME>` (file or directory),
/// `PTX_SYNC_TOOLS`, `PATH`, then [`venv_tools`]`(start)`.
///
/// ```no_run
/// let ptxas = ptx_sync_build::tools::find_tool("ptxas", std::path::Path::new(".")).unwrap();
/// ```
pub fn find_tool(name: &str, start: &Path) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(format!("PTX_SYNC_{}", name.to_ascii_uppercase())) {
        let p = PathBuf::from(p);
        let p = if p.is_dir() { p.join(name) } else { p };
        return p.is_file().then_some(p);
    }
    if let Some(d) = std::env::var_os("PTX_SYNC_TOOLS") {
        let p = PathBuf::from(d).join(name);
        if p.is_file() {
            return Some(p);
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        for d in std::env::split_paths(&path) {
            let p = d.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    venv_tools(start)
        .map(|d| d.join(name))
        .filter(|p| p.is_file())
}

pub(crate) fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_path_buf())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_venv_is_found_from_below_and_the_highest_python_wins() {
        let root = std::env::temp_dir().join(format!("ptx-sync-tools-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for py in ["python3.10", "python3.12"] {
            let bin = root.join(".venv/lib").join(py).join(VENV_BIN);
            std::fs::create_dir_all(&bin).unwrap();
            std::fs::write(bin.join("ptxas"), "").unwrap();
        }
        let deep = root.join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        let want = root.join(".venv/lib/python3.12").join(VENV_BIN);
        assert_eq!(venv_bin(&root.join(".venv")), Some(want.clone()));
        assert_eq!(venv_tools(&deep).map(|p| p.starts_with(&root)), Some(true));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
