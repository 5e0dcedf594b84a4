//! Where things are and how a step runs: the repository root, the project venv's PTX tools, the
//! environment handed to tests, one command run to success.

use super::*;

/// The one target directory of every nvptx build (kernels, catalogs, examples, the guide's crate,
/// the tests' kernel crates): `ptx-sync-build`'s default for a crate of this workspace. Cargo
/// keys each unit by its RUSTFLAGS, so `core` built for sm_90, sm_90a and sm_100a lives side by
/// side here and is built once per arch.
pub(super) const NVPTX_DIR: &str = "target/ptx-sync-build";

/// The SM that ptxas assembles the device code for (the PTX says `.target sm_90`).
pub const SM: &str = "sm_90";

/// The architecture-specific catalog builds: `(target CPU, target/ptx/NAME.ptx)` — the rows
/// whose `Variant::catalog_ptx()` is `NAME`.
pub const ARCH_CATALOGS: [(&str, &str); 2] =
    [("sm_90a", "catalog_sm90a"), ("sm_100a", "catalog_sm100a")];

pub(super) fn root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap().to_path_buf()
}

pub(super) fn run(cmd: &mut Command) {
    if env::var_os("XTASK_VERBOSE").is_some() {
        eprintln!("+ {:?}", cmd);
    }
    match cmd.status() {
        Ok(s) if s.success() => {}
        Ok(s) => {
            eprintln!("xtask: command failed ({s}): {cmd:?}");
            exit(1)
        }
        Err(e) => {
            eprintln!("xtask: cannot start {cmd:?}: {e}");
            exit(1)
        }
    }
}

pub(super) fn venv() -> PathBuf {
    root().join(".venv")
}

/// The directory holding ptxas, nvcc, cuobjdump and nvdisasm (`…/nvidia/cu13/bin`): the project
/// venv `.venv` when it is complete, else the user's venv that `ptx-sync setup` installs
/// (`ptx_sync_build::tools::user_venv`, `~/.cache/ptx-sync/venv`) — the same places the
/// workspace's one finder (`ptx_sync_build::tools`) looks.
pub(super) fn tools_bin() -> Option<PathBuf> {
    use ptx_sync_build::tools::{tools_ready, user_venv, venv_bin};
    venv_bin(&venv()).filter(|b| tools_ready(b)).or_else(|| {
        user_venv()
            .and_then(|v| venv_bin(&v))
            .filter(|b| tools_ready(b))
    })
}

/// `…/nvidia/cu13`: the parent of [`tools_bin`] (`bin/`, `include/`).
pub(super) fn cuda_dir() -> Option<PathBuf> {
    tools_bin().and_then(|b| b.parent().map(Path::to_path_buf))
}

pub(super) fn ptx_dir() -> PathBuf {
    root().join("target/ptx")
}

/// Environment for anything that reads the PTX tools or the built kernels.
pub(super) fn tool_env(cmd: &mut Command) -> &mut Command {
    if let Some(d) = cuda_dir() {
        cmd.env("PTX_SYNC_TOOLS", d.join("bin"));
        cmd.env("PTX_SYNC_CUDA_INCLUDE", d.join("include"));
        cmd.env("PTX_SYNC_CCCL_INCLUDE", d.join("include/cccl"));
    }
    cmd.env("PTX_SYNC_PTX_DIR", ptx_dir())
}

/// The directory where a user's crates sit next to the checkout (`ptx-sync/`, a link to this
/// one): the guide's layout, at a path fixed per checkout. The examples' tests and the guide's
/// crate reach ptx-sync through this link, so that
/// cargo, which keys a path dependency outside the workspace by its path, builds ptx-sync, the
/// model and the host crate once for all of them (a second tree, 30 CPU-s of debug build, when
/// the examples named them by the checkout's own path). Made when missing.
pub(super) fn user_dir() -> PathBuf {
    let tag = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        root().hash(&mut h);
        h.finish()
    };
    let dir = env::temp_dir().join(format!("ptx-sync-guide-{tag:016x}"));
    let link = dir.join("ptx-sync");
    if std::fs::read_link(&link).ok() != Some(root()) {
        std::fs::create_dir_all(&dir).unwrap();
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(root(), &link).unwrap();
    }
    dir
}

/// The checkout as a user's crate names it: `<user_dir>/ptx-sync`.
pub(super) fn user_root() -> PathBuf {
    user_dir().join("ptx-sync")
}

/// Path `p` of the checkout as the user's crates name it (through [`user_root`]).
pub(super) fn as_user(p: &Path) -> PathBuf {
    user_root().join(p.strip_prefix(root()).expect("a path of the checkout"))
}

/// `PTX_SYNC_PTX_DIR` of the user's crates' builds (the examples' tests, the guide): an empty
/// directory under `target/`, the launcher library built as in a checkout whose own kernels were
/// never built (its build must stay quiet). One value for all of them: the host crate's build
/// script reads it, and two values would rebuild the shared host crate at each switch.
pub(super) fn no_kernels_dir() -> PathBuf {
    let d = root().join("target/guide-no-kernels");
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub(super) fn cargo() -> Command {
    let mut c = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root());
    tool_env(&mut c);
    c
}
