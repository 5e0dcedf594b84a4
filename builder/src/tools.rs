//! The workspace's one finder of the PTX tools (`ptxas`, `cuobjdump`, `nvdisasm`, `nvcc`): the
//! build helper, the host's `sass`/`inspect`, the device crate's tool tests and `cargo xtask`
//! all call it.
//!
//! Where a tool is looked for, in order: `PTX_SYNC_<TOOL>` (the binary or its directory; e.g.
//! `PTX_SYNC_PTXAS`), `PTX_SYNC_TOOLS` (the directory of all of them, set by `cargo xtask`),
//! `PATH` ([`find_tool`] only), a project venv (`.venv/lib/python3*/site-packages/nvidia/cu13/bin`)
//! in the start directory, the current directory, or a directory above one of them, then the
//! user's venv that `ptx-sync setup` (and `cargo xtask setup` in a checkout without `.venv`)
//! installs: [`user_venv`], `~/.cache/ptx-sync/venv` — the one place that works from anywhere,
//! whatever the layout of the crates that need the tools.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The PyPI packages with the PTX tools. nvcc/ptxas are pinned to the 13.0 line, the CUDA of the
/// GPU machines; cuobjdump and nvdisasm exist on PyPI only from 13.2 (they read 13.0 cubins).
///
/// ```
/// assert!(ptx_sync_build::tools::PIP_PACKAGES[0].starts_with("nvidia-cuda-nvcc==13.0"));
/// ```
pub const PIP_PACKAGES: &[&str] = &[
    "nvidia-cuda-nvcc==13.0.88",
    // nvcc's own dependencies, pinned to the same release (unpinned they float to the newest and
    // libcu++ then refuses the mismatched CUDART_VERSION).
    "nvidia-cuda-runtime==13.0.96",
    "nvidia-cuda-crt==13.0.88",
    "nvidia-nvvm==13.0.88",
    "nvidia-cuda-cccl==13.0.85",
    "nvidia-cuda-cuobjdump==13.2.86",
    "nvidia-cuda-nvdisasm==13.2.86",
];

/// The user's ptx-sync directory: `$PTX_SYNC_HOME`, else `$XDG_CACHE_HOME/ptx-sync`, else
/// `$HOME/.cache/ptx-sync` (`None` without any of them).
///
/// ```
/// if let Some(d) = ptx_sync_build::tools::user_dir() {
///     assert!(d.is_absolute() || std::env::var_os("PTX_SYNC_HOME").is_some());
/// }
/// ```
pub fn user_dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("PTX_SYNC_HOME")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("ptx-sync")))
        .or_else(|| var("HOME").map(|d| d.join(".cache/ptx-sync")))
}

/// The venv `ptx-sync setup` installs the PTX tools into: [`user_dir`]`/venv`.
///
/// ```
/// if let Some(v) = ptx_sync_build::tools::user_venv() {
///     assert!(v.ends_with("venv"));
/// }
/// ```
pub fn user_venv() -> Option<PathBuf> {
    user_dir().map(|d| d.join("venv"))
}

/// Whether `bin` (a venv's [`VENV_BIN`]) holds a complete install of [`PIP_PACKAGES`]: ptxas,
/// nvcc, cuobjdump and nvdisasm, the libcu++ headers, and the CUDA 13.0 runtime header (libcu++
/// refuses another `CUDART_VERSION`).
///
/// ```
/// assert!(!ptx_sync_build::tools::tools_ready(std::path::Path::new("/nonexistent")));
/// ```
pub fn tools_ready(bin: &Path) -> bool {
    let Some(d) = bin.parent() else {
        return false;
    };
    ["ptxas", "nvcc", "cuobjdump", "nvdisasm"]
        .iter()
        .all(|t| bin.join(t).is_file())
        && d.join("include/cccl/cuda/atomic").exists()
        && std::fs::read_to_string(d.join("include/cuda_runtime_api.h"))
            .is_ok_and(|h| h.contains("#define CUDART_VERSION  13000"))
}

/// Creates `venv` with `python` (`python3 -m venv`) if it has no `pip`, installs
/// [`PIP_PACKAGES`] into it unless [`tools_ready`], and returns its tool directory. `say` gets a
/// line for each step (the installs take a minute or more). The error names what failed.
///
/// ```no_run
/// let venv = ptx_sync_build::tools::user_venv().unwrap();
/// let bin = ptx_sync_build::tools::install(&venv, "python3", &mut |l| eprintln!("{l}")).unwrap();
/// assert!(bin.join("ptxas").is_file());
/// ```
pub fn install(venv: &Path, python: &str, say: &mut dyn FnMut(&str)) -> Result<PathBuf, String> {
    if let Some(bin) = venv_bin(venv).filter(|b| tools_ready(b)) {
        return Ok(bin);
    }
    let run = |c: &mut Command| -> Result<(), String> {
        let s = c.status().map_err(|e| format!("cannot run {c:?}: {e}"))?;
        s.success()
            .then_some(())
            .ok_or_else(|| format!("{c:?} failed ({s})"))
    };
    if !venv.join("bin/pip").exists() {
        say(&format!("creating a Python venv in {}", venv.display()));
        if let Some(p) = venv.parent() {
            std::fs::create_dir_all(p)
                .map_err(|e| format!("cannot create {}: {e}", p.display()))?;
        }
        run(Command::new(python).args(["-m", "venv"]).arg(venv))
            .map_err(|e| format!("{e} (ptx-sync needs Python 3 with the venv module)"))?;
    }
    say(&format!(
        "installing the PTX tools from PyPI into {} ({})",
        venv.display(),
        PIP_PACKAGES.join(" ")
    ));
    run(Command::new(venv.join("bin/pip"))
        .args(["install", "--quiet", "--disable-pip-version-check"])
        .args(PIP_PACKAGES))?;
    venv_bin(venv).filter(|b| tools_ready(b)).ok_or_else(|| {
        format!(
            "pip finished but the PTX tools are still missing under {}",
            venv.display()
        )
    })
}

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

/// The tool directory of the nearest project venv — `.venv` in `start`, the current directory, or
/// a directory above one of them — else of the user's venv ([`user_venv`], `ptx-sync setup`).
///
/// ```no_run
/// let bin = ptx_sync_build::tools::venv_tools(std::path::Path::new(".")).expect("ptx-sync setup");
/// assert!(bin.join("ptxas").is_file());
/// ```
pub fn venv_tools(start: &Path) -> Option<PathBuf> {
    let starts = [absolute(start), absolute(Path::new("."))];
    starts
        .iter()
        .flat_map(|s| s.ancestors())
        .find_map(|d| venv_bin(&d.join(".venv")))
        .or_else(|| user_venv().and_then(|v| venv_bin(&v)))
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
            "no PTX tools: run `ptx-sync setup` (installs them into {}), or set PTX_SYNC_TOOLS to \
             the directory holding ptxas and cuobjdump",
            user_venv().map_or("~/.cache/ptx-sync/venv".into(), |v| v.display().to_string())
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

/// `p` with `.` dropped and each `..` taking off the component before it, by the text alone
/// (links kept), as cargo normalizes a manifest path.
pub(crate) fn normalize(p: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            // `/..` is `/`.
            Component::ParentDir if out.has_root() && out.parent().is_none() => {}
            c => out.push(c),
        }
    }
    out
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
    fn normalize_resolves_dots_by_the_text() {
        assert_eq!(
            normalize(Path::new("/a/./b/../c/Cargo.toml")),
            PathBuf::from("/a/c/Cargo.toml")
        );
        assert_eq!(normalize(Path::new("/../a")), PathBuf::from("/a"));
        assert_eq!(normalize(Path::new("a/../../b")), PathBuf::from("../b"));
    }

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
