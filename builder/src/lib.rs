//! `ptx-sync-build`: builds an nvptx64 kernel crate to PTX (and a cubin when ptxas is found),
//! from a user's `build.rs` or from `ptx-sync build`. It is the one place that knows the flags.
//!
//! ```no_run
//! // build.rs of the host crate; the kernel crate lives in ../kernels
//! fn main() -> Result<(), ptx_sync_build::Error> {
//!     let out = ptx_sync_build::KernelCrate::new("../kernels").arch("sm_90a").build()?;
//!     println!("cargo:rustc-env=KERNELS_PTX={}", out.ptx.display());
//!     Ok(())
//! }
//! ```
//!
//! What [`KernelCrate::build`] runs (the 12-flag line a user would otherwise type):
//!
//! ```text
//! CARGO_ENCODED_RUSTFLAGS="-Ctarget-cpu=ARCH␟-Ctarget-feature=+ptxNN" \
//! rustup run nightly cargo rustc --release --lib --crate-type cdylib \
//!     --manifest-path KERNELS/Cargo.toml --target nvptx64-nvidia-cuda -Zbuild-std=core \
//!     --target-dir TARGET --config 'profile.release.lto="fat"' --config 'profile.release.panic="abort"' \
//!     --config profile.release.codegen-units=1 --config profile.release.opt-level=3 \
//!     [--features F] -- -Zno-link --emit=asm=NAME.ptx
//! ptxas -arch=ARCH NAME.ptx -o NAME.cubin
//! ```
//!
//! in an environment cleared of the outer cargo's settings (`RUSTFLAGS`, `CARGO_TARGET_DIR`,
//! `RUSTC`, the build script's `CARGO_*`, …). `--crate-type cdylib` is what makes fat LTO link
//! `core` into one self-contained module, and it overrides a manifest's `["cdylib", "rlib"]`,
//! so a kernel crate may also be an `rlib` for host tests.
//!
//! Every failure is an [`Error`] whose message names the fix: a missing nightly toolchain, a
//! missing `rust-src`, a toolchain without the nvptx64 target, an unknown arch or PTX version, a
//! crate without a library target, rustc's errors, ptxas's errors.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

pub mod sass;
#[doc(hidden)]
pub mod testing;
pub mod tools;

use tools::absolute;

/// The rustc target.
pub const TARGET: &str = "nvptx64-nvidia-cuda";

/// The default PTX ISA version (`+ptx86`, PTX ISA 8.6), raised to an arch's minimum.
pub const DEFAULT_PTX: u32 = 86;

/// The archs this builder accepts, each with the oldest PTX ISA version that supports it
/// (LLVM's NVPTX processor table; the nightly's `rustc --print target-cpus`).
pub const ARCHS: &[(&str, u32)] = &[
    ("sm_70", 60),
    ("sm_72", 61),
    ("sm_75", 63),
    ("sm_80", 70),
    ("sm_86", 71),
    ("sm_87", 74),
    ("sm_88", 90),
    ("sm_89", 78),
    ("sm_90", 78),
    ("sm_90a", 80),
    ("sm_100", 86),
    ("sm_100a", 86),
    ("sm_100f", 88),
    ("sm_101", 86),
    ("sm_101a", 86),
    ("sm_101f", 88),
    ("sm_103", 88),
    ("sm_103a", 88),
    ("sm_103f", 88),
    ("sm_110", 90),
    ("sm_110a", 90),
    ("sm_110f", 90),
    ("sm_120", 87),
    ("sm_120a", 87),
    ("sm_120f", 88),
    ("sm_121", 88),
    ("sm_121a", 88),
    ("sm_121f", 88),
];

/// The PTX ISA versions LLVM's NVPTX back end knows (`+ptxNN`).
pub const PTX_VERSIONS: &[u32] = &[
    60, 61, 62, 63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88,
    90,
];

/// How to install what the build needs.
pub const INSTALL_NIGHTLY: &str = "rustup toolchain install nightly --component rust-src";
/// How to add `rust-src` (`-Zbuild-std=core` builds `core` from it).
pub const INSTALL_RUST_SRC: &str = "rustup component add rust-src --toolchain nightly";
/// How to get ptxas.
pub const INSTALL_PTXAS: &str = "run `ptx-sync setup` (installs the PyPI PTX tools into ~/.cache/ptx-sync/venv, where ptx-sync-build finds them), or set PTX_SYNC_PTXAS=/path/to/ptxas, or put ptxas on PATH";

/// A failed build; [`Display`](fmt::Display) gives the message with its fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong, as a category.
    pub kind: ErrorKind,
    /// The message, naming the fix.
    pub message: String,
}

/// The categories of [`Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `rustup`, the nightly toolchain, `rust-src` or the nvptx64 target is missing.
    Toolchain,
    /// An option has a value the builder does not accept (arch, PTX version, a path).
    Config,
    /// The kernel crate's manifest: not found, no library target, unreadable.
    Manifest,
    /// cargo/rustc failed on the kernel crate.
    Compile,
    /// ptxas is required and was not found.
    PtxasMissing,
    /// ptxas rejected the PTX.
    Ptxas,
    /// Reading or writing a file.
    Io,
}

impl Error {
    fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Whether to run ptxas after the PTX is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ptxas {
    /// Assemble when ptxas is found, else return no cubin (the default).
    #[default]
    IfFound,
    /// Assemble; a missing ptxas is an [`ErrorKind::PtxasMissing`] error.
    Required,
    /// Do not assemble.
    Skip,
}

/// What a build produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifacts {
    /// `OUT/NAME.ptx`.
    pub ptx: PathBuf,
    /// `OUT/NAME.cubin`, when ptxas ran.
    pub cubin: Option<PathBuf>,
    /// The ptxas that ran, if any.
    pub ptxas: Option<PathBuf>,
    /// cargo's and ptxas's warnings (stderr of a successful build), for the caller to show.
    pub log: String,
}

impl Artifacts {
    /// The artifact paths, PTX first.
    pub fn paths(&self) -> Vec<&Path> {
        let mut v = vec![self.ptx.as_path()];
        v.extend(self.cubin.as_deref());
        v
    }
}

/// A kernel crate to build for nvptx64. See the [crate docs](crate) for the flags.
#[derive(Debug, Clone)]
pub struct KernelCrate {
    path: PathBuf,
    arch: String,
    ptx_version: Option<u32>,
    out_dir: Option<PathBuf>,
    features: Vec<String>,
    target_dir: Option<PathBuf>,
    name: Option<String>,
    toolchain: String,
    ptxas: Ptxas,
    rerun_if_changed: Option<bool>,
    progress: bool,
}

impl KernelCrate {
    /// The kernel crate at `path`: its directory or its `Cargo.toml`, relative to the current
    /// directory (a build script runs in its package's directory). Defaults: `sm_90`, PTX 8.6,
    /// output into `OUT_DIR` (or `TARGET/ptx` outside a build script), ptxas if found.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        KernelCrate {
            path: path.into(),
            arch: "sm_90".into(),
            ptx_version: None,
            out_dir: None,
            features: Vec::new(),
            target_dir: None,
            name: None,
            toolchain: "nightly".into(),
            ptxas: Ptxas::IfFound,
            rerun_if_changed: None,
            progress: false,
        }
    }

    /// The GPU arch: `-C target-cpu=ARCH` for rustc and `-arch=ARCH` for ptxas (one of
    /// [`ARCHS`]; default `sm_90`).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), ptx_sync_build::Error> {
    /// // -Ctarget-cpu=sm_90a, ptxas -arch=sm_90a: wgmma, setmaxnreg and the other `a` features
    /// ptx_sync_build::KernelCrate::new("../kernels").arch("sm_90a").build()?;
    /// # Ok(()) }
    /// ```
    pub fn arch(mut self, arch: impl Into<String>) -> Self {
        self.arch = arch.into();
        self
    }

    /// The PTX ISA version as `MAJOR * 10 + MINOR`: `-C target-feature=+ptxNN` (one of
    /// [`PTX_VERSIONS`]; default [`DEFAULT_PTX`] or the arch's minimum if that is newer).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), ptx_sync_build::Error> {
    /// // -Ctarget-feature=+ptx87: the PTX says `.version 8.7`
    /// ptx_sync_build::KernelCrate::new("../kernels").ptx_version(87).build()?;
    /// # Ok(()) }
    /// ```
    pub fn ptx_version(mut self, v: u32) -> Self {
        self.ptx_version = Some(v);
        self
    }

    /// Where `NAME.ptx` and `NAME.cubin` go (default: `OUT_DIR` in a build script, else
    /// `TARGET/ptx` of the kernel crate). Created if missing.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), ptx_sync_build::Error> {
    /// // writes kernels/ptx/my_kernels.ptx (and .cubin)
    /// let a = ptx_sync_build::KernelCrate::new("kernels").out_dir("kernels/ptx").build()?;
    /// assert!(a.ptx.ends_with("ptx/my_kernels.ptx"));
    /// # Ok(()) }
    /// ```
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Cargo features of the kernel crate: `--features a,b`.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), ptx_sync_build::Error> {
    /// // cargo rustc ... --features catalog
    /// ptx_sync_build::KernelCrate::new("../kernels").features(["catalog"]).build()?;
    /// # Ok(()) }
    /// ```
    pub fn features<I, S>(mut self, features: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.features.extend(features.into_iter().map(Into::into));
        self
    }

    /// The nested cargo's `--target-dir` (default: the kernel crate's target directory joined
    /// with `ptx-sync-build`, never the outer build's own directories, whose locks it holds).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), ptx_sync_build::Error> {
    /// // cargo rustc ... --target-dir ../target/nvptx: shares the built `core` between crates
    /// ptx_sync_build::KernelCrate::new("../kernels").target_dir("../target/nvptx").build()?;
    /// # Ok(()) }
    /// ```
    pub fn target_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.target_dir = Some(dir.into());
        self
    }

    /// The artifacts' file stem (default: the crate's library name, `my-kernels` → `my_kernels`).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), ptx_sync_build::Error> {
    /// // --emit=asm=OUT/catalog.ptx
    /// ptx_sync_build::KernelCrate::new("../kernels").name("catalog").build()?;
    /// # Ok(()) }
    /// ```
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The rustup toolchain (default `nightly`): `rustup run TOOLCHAIN cargo …`.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), ptx_sync_build::Error> {
    /// ptx_sync_build::KernelCrate::new("../kernels").toolchain("nightly-2026-05-19").build()?;
    /// # Ok(()) }
    /// ```
    pub fn toolchain(mut self, t: impl Into<String>) -> Self {
        self.toolchain = t.into();
        self
    }

    /// Whether ptxas runs ([`Ptxas::IfFound`] by default). It is found through `PTX_SYNC_PTXAS`
    /// (the binary or its directory), `PTX_SYNC_TOOLS` (a directory), `PATH`, then a project
    /// venv `.venv/lib/python3*/site-packages/nvidia/cu13/bin` above the kernel crate.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), ptx_sync_build::Error> {
    /// use ptx_sync_build::{KernelCrate, Ptxas};
    /// // ptxas -arch=sm_90 OUT/NAME.ptx -o OUT/NAME.cubin, an error if there is no ptxas
    /// let a = KernelCrate::new("../kernels").ptxas(Ptxas::Required).build()?;
    /// assert!(a.cubin.is_some());
    /// # Ok(()) }
    /// ```
    pub fn ptxas(mut self, p: Ptxas) -> Self {
        self.ptxas = p;
        self
    }

    /// Whether the nested cargo's `Compiling …`/`Finished …` lines go to stderr as they come
    /// (off by default: a build script's stderr is cargo's to show; on in `cargo xtask`, whose
    /// first kernel build compiles `core` for a minute).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), ptx_sync_build::Error> {
    /// let a = ptx_sync_build::KernelCrate::new("../kernels").progress(true).build()?;
    /// # Ok(()) }
    /// ```
    pub fn progress(mut self, on: bool) -> Self {
        self.progress = on;
        self
    }

    /// Whether to print `cargo:rerun-if-changed` for the kernel crate's `src/`, `Cargo.toml`,
    /// `Cargo.lock` and `build.rs`, and for the `src/` and `Cargo.toml` of its direct path
    /// dependencies (default: when `OUT_DIR` is set, i.e. in a build script).
    ///
    /// ```no_run
    /// # fn main() -> Result<(), ptx_sync_build::Error> {
    /// ptx_sync_build::KernelCrate::new("../kernels").rerun_if_changed(false).build()?;
    /// # Ok(()) }
    /// ```
    pub fn rerun_if_changed(mut self, on: bool) -> Self {
        self.rerun_if_changed = Some(on);
        self
    }

    /// The rustc flags for the arch and PTX version, checked: `["-Ctarget-cpu=ARCH",
    /// "-Ctarget-feature=+ptxNN"]`.
    pub fn rustflags(&self) -> Result<Vec<String>, Error> {
        let ptx = self.checked_ptx_version()?;
        Ok(vec![
            format!("-Ctarget-cpu={}", self.arch),
            format!("-Ctarget-feature=+ptx{ptx}"),
        ])
    }

    fn checked_ptx_version(&self) -> Result<u32, Error> {
        let Some(&(_, min)) = ARCHS.iter().find(|(a, _)| *a == self.arch) else {
            let names: Vec<&str> = ARCHS.iter().map(|(a, _)| *a).collect();
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "unsupported arch `{}`: use .arch(…) / --arch with one of {} (rustc's nvptx64 target starts at sm_70)",
                    self.arch,
                    names.join(", ")
                ),
            ));
        };
        let v = self.ptx_version.unwrap_or(DEFAULT_PTX.max(min));
        if !PTX_VERSIONS.contains(&v) {
            let vs: Vec<String> = PTX_VERSIONS.iter().map(u32::to_string).collect();
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "unsupported PTX ISA version {v}: .ptx_version(NN) takes MAJOR*10+MINOR, one of {}",
                    vs.join(", ")
                ),
            ));
        }
        if v < min {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "{} needs PTX ISA {}.{} or newer: use .ptx_version({min}) or higher (asked: {v})",
                    self.arch,
                    min / 10,
                    min % 10
                ),
            ));
        }
        Ok(v)
    }

    /// Builds the crate: checks the toolchain, runs the nested cargo, copies `NAME.ptx` into the
    /// output directory and runs ptxas on it. See the [crate docs](crate).
    pub fn build(&self) -> Result<Artifacts, Error> {
        let flags = self.rustflags()?;
        let manifest = self.manifest_path()?;
        let krate_dir = manifest.parent().unwrap().to_path_buf();
        let emit_rerun = self
            .rerun_if_changed
            .unwrap_or_else(|| std::env::var_os("OUT_DIR").is_some());
        check_toolchain(&self.toolchain)?;
        let meta = metadata(&self.toolchain, &manifest)?;
        if emit_rerun {
            for (i, dir) in std::iter::once(&krate_dir)
                .chain(&meta.path_deps)
                .enumerate()
            {
                let own: &[&str] = &["src", "Cargo.toml", "Cargo.lock", "build.rs"];
                for p in if i == 0 { own } else { &own[..2] } {
                    let p = dir.join(p);
                    if p.exists() {
                        println!("cargo:rerun-if-changed={}", p.display());
                    }
                }
            }
            for v in ["PTX_SYNC_PTXAS", "PTX_SYNC_TOOLS"] {
                println!("cargo:rerun-if-env-changed={v}");
            }
        }
        let name = self.name.clone().unwrap_or_else(|| meta.lib_name.clone());
        if name.is_empty() || name.contains(['/', '\\']) {
            return Err(Error::new(
                ErrorKind::Config,
                format!("bad artifact name `{name}`: .name(…) takes a file stem"),
            ));
        }
        let target_dir = match &self.target_dir {
            Some(d) => absolute(d),
            None => meta.target_dir.join("ptx-sync-build"),
        };
        let out_dir = match &self.out_dir {
            Some(d) => absolute(d),
            None => match std::env::var_os("OUT_DIR") {
                Some(d) => PathBuf::from(d),
                None => meta.target_dir.join("ptx"),
            },
        };
        // One emit path per crate and configuration: cargo does not re-run rustc for a fresh
        // unit, so a shared path could keep another crate's or configuration's output.
        let crate_hash = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            manifest.hash(&mut h);
            h.finish()
        };
        let mut tag = format!(
            "{name}.{crate_hash:016x}.{}.{}",
            self.arch,
            flags[1].trim_start_matches("-Ctarget-feature=+")
        );
        for f in &self.features {
            tag.push('.');
            tag.push_str(&f.replace(
                |c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_',
                "_",
            ));
        }
        let emit_dir = target_dir.join("emit").join(tag);
        let emit = emit_dir.join(format!("{name}.ptx"));
        mkdir(&emit_dir)?;
        mkdir(&out_dir)?;

        let mut log = self.cargo(&manifest, &target_dir, &flags, &emit)?;
        if !emit.exists() {
            // The unit was fresh but its output is gone: make it stale and build again.
            if let Ok(f) = std::fs::File::options().append(true).open(&meta.lib_src) {
                let _ = f.set_modified(std::time::SystemTime::now());
            }
            log = self.cargo(&manifest, &target_dir, &flags, &emit)?;
        }
        if !emit.exists() {
            return Err(Error::new(
                ErrorKind::Compile,
                format!(
                    "cargo succeeded but wrote no {}; remove {} and build again",
                    emit.display(),
                    target_dir.display()
                ),
            ));
        }
        let ptx = out_dir.join(format!("{name}.ptx"));
        std::fs::copy(&emit, &ptx).map_err(|e| {
            Error::new(
                ErrorKind::Io,
                format!("cannot copy {} to {}: {e}", emit.display(), ptx.display()),
            )
        })?;
        check_ptx(&ptx)?;

        let mut art = Artifacts {
            ptx,
            cubin: None,
            ptxas: None,
            log,
        };
        if self.ptxas == Ptxas::Skip {
            return Ok(art);
        }
        let Some(ptxas) = find_ptxas(&krate_dir) else {
            if self.ptxas == Ptxas::Required {
                return Err(Error::new(
                    ErrorKind::PtxasMissing,
                    format!("ptxas not found (PTX_SYNC_PTXAS, PTX_SYNC_TOOLS, PATH, .venv, ptx-sync setup's venv): {INSTALL_PTXAS}"),
                ));
            }
            // A cubin left by an earlier build is of other PTX: gone, so that nothing stale is
            // embedded or loaded.
            let _ = std::fs::remove_file(out_dir.join(format!("{name}.cubin")));
            let msg = format!(
                "ptx-sync-build: no ptxas found, so no {name}.cubin was written (only {name}.ptx): {INSTALL_PTXAS}"
            );
            if emit_rerun {
                // From a build script: cargo shows this line; the build goes on with the PTX.
                println!("cargo:warning={msg}");
            }
            art.log.push_str(&msg);
            art.log.push('\n');
            return Ok(art);
        };
        let cubin = out_dir.join(format!("{name}.cubin"));
        let o = Command::new(&ptxas)
            .arg(format!("-arch={}", self.arch))
            .arg(&art.ptx)
            .arg("-o")
            .arg(&cubin)
            .output()
            .map_err(|e| {
                Error::new(
                    ErrorKind::PtxasMissing,
                    format!("cannot run {}: {e}; {INSTALL_PTXAS}", ptxas.display()),
                )
            })?;
        let err = String::from_utf8_lossy(&o.stderr).trim().to_string();
        if !o.status.success() {
            return Err(Error::new(
                ErrorKind::Ptxas,
                format!(
                    "ptxas -arch={} rejected {}:\n{err}\n(the PTX is there to read; a `not supported on .target` error means another .arch(…), a `.version` error another .ptx_version(…))",
                    self.arch,
                    art.ptx.display()
                ),
            ));
        }
        if !err.is_empty() {
            art.log.push_str(&err);
            art.log.push('\n');
        }
        art.cubin = Some(cubin);
        art.ptxas = Some(ptxas);
        Ok(art)
    }

    fn manifest_path(&self) -> Result<PathBuf, Error> {
        let p = absolute(&self.path);
        let m = if p.is_dir() { p.join("Cargo.toml") } else { p };
        if !m.is_file() {
            return Err(Error::new(
                ErrorKind::Manifest,
                format!(
                    "no kernel crate at {}: KernelCrate::new(…) / --manifest-path takes the crate's directory or its Cargo.toml",
                    m.display()
                ),
            ));
        }
        Ok(std::fs::canonicalize(&m).unwrap_or(m))
    }

    /// The nested cargo; returns its stderr on success.
    fn cargo(
        &self,
        manifest: &Path,
        target_dir: &Path,
        flags: &[String],
        emit: &Path,
    ) -> Result<String, Error> {
        let mut cmd = rustup(&self.toolchain, "cargo");
        cmd.args(["rustc", "--release", "--lib", "--crate-type", "cdylib"])
            .arg("--manifest-path")
            .arg(manifest)
            .args(["--target", TARGET, "-Zbuild-std=core"])
            .arg("--target-dir")
            .arg(target_dir);
        // The profile that makes one self-contained module, whatever the crate's (or its
        // workspace's) manifest says: fat LTO pulls in `core`, panics abort (`trap`).
        for c in [
            "profile.release.lto=\"fat\"",
            "profile.release.panic=\"abort\"",
            "profile.release.codegen-units=1",
            "profile.release.opt-level=3",
        ] {
            cmd.args(["--config", c]);
        }
        if !self.features.is_empty() {
            cmd.arg("--features").arg(self.features.join(","));
        }
        let mut emit_arg = OsString::from("--emit=asm=");
        emit_arg.push(emit);
        cmd.arg("--").arg("-Zno-link").arg(emit_arg);
        cmd.env("CARGO_ENCODED_RUSTFLAGS", flags.join("\x1f"));
        let spawn_err = |e: std::io::Error| {
            Error::new(
                ErrorKind::Toolchain,
                format!("cannot run rustup: {e}; install it from https://rustup.rs, then {INSTALL_NIGHTLY}"),
            )
        };
        let mut child = cmd
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .map_err(spawn_err)?;
        // stderr line by line: kept for the log or the error, the progress lines echoed as they
        // come when asked.
        let mut err = String::new();
        if let Some(e) = child.stderr.take() {
            use std::io::BufRead;
            for l in std::io::BufReader::new(e).lines().map_while(Result::ok) {
                let t = l.trim_start();
                if self.progress && (t.starts_with("Compiling ") || t.starts_with("Finished ")) {
                    eprintln!("{l}");
                }
                err.push_str(&l);
                err.push('\n');
            }
        }
        let status = child.wait().map_err(spawn_err)?;
        if status.success() {
            let log: String = without_ptx_feature_note(&err)
                .lines()
                .filter(|l| {
                    let t = l.trim_start();
                    !(t.starts_with("Compiling ")
                        || t.starts_with("Finished ")
                        || t.starts_with("Updating ")
                        || t.starts_with("Locking ")
                        || t.starts_with("Blocking "))
                })
                .map(|l| format!("{l}\n"))
                .collect();
            return Ok(log);
        }
        Err(compile_error(&err, manifest))
    }
}

/// `stderr` of a successful nested build without rustc's note on the PTX-version feature it was
/// given (`warning: unstable feature specified for `-Ctarget-feature`: `ptx86`` and its `= note`
/// lines): the flag is the builder's own, deliberate and the same on every build, and the note
/// is not a lint (no `-A` silences it). The per-crate counts it causes (`warning: `ptx-sync`
/// (lib) generated 1 warning`, `… (1 duplicate)`) go with it; a crate with a warning of its own
/// keeps its count line.
///
/// ```
/// let log = "warning: unstable feature specified for `-Ctarget-feature`: `ptx86`\n  |\n  = note: this feature is not stably supported; its behavior can change in the future\n\nwarning: `k` (lib) generated 1 warning\nwarning: unused variable: `x`\n";
/// assert_eq!(ptx_sync_build::without_ptx_feature_note(log), "warning: unused variable: `x`\n");
/// ```
pub fn without_ptx_feature_note(stderr: &str) -> String {
    let mut out = String::new();
    let mut lines = stderr.lines().peekable();
    let mut seen = false;
    while let Some(l) = lines.next() {
        if l.starts_with("warning: unstable feature specified for `-Ctarget-feature`: `ptx") {
            seen = true;
            // Its body: `  |`, `  = note: …`, then one blank line.
            while lines.peek().is_some_and(|n| {
                n.trim_start().starts_with('|') || n.trim_start().starts_with("= ")
            }) {
                lines.next();
            }
            if lines.peek().is_some_and(|n| n.trim().is_empty()) {
                lines.next();
            }
            continue;
        }
        if seen
            && l.starts_with("warning: `")
            && (l.ends_with("generated 1 warning")
                || l.ends_with("generated 1 warning (1 duplicate)"))
        {
            continue;
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// The message for a failed nested cargo: rustc's errors, with the fix for the known ones.
fn compile_error(stderr: &str, manifest: &Path) -> Error {
    let hints: &[(&str, &str)] = &[
        ("rust-src", INSTALL_RUST_SRC),
        ("\"ptx-kernel\" ABI is experimental", "add #![feature(abi_ptx)] to the kernel crate's lib.rs"),
        ("inline assembly is not stable yet on this architecture", "add #![feature(asm_experimental_arch)] to the kernel crate's lib.rs"),
        ("`#[panic_handler]` function required", "add a #[panic_handler] (e.g. one that runs `trap;`) to the kernel crate"),
        ("can't find crate for `std`", "the kernel crate and its dependencies must be #![no_std]"),
        ("no library targets found", "give the kernel crate a [lib] (src/lib.rs) with crate-type [\"cdylib\"] or [\"cdylib\", \"rlib\"]"),
        ("is not supported for this target", "a dependency does not build for nvptx64; gate it with [target.'cfg(not(target_arch = \"nvptx64\"))'.dependencies]"),
    ];
    let mut fix: Vec<&str> = hints
        .iter()
        .filter(|(needle, _)| stderr.contains(needle))
        .map(|(_, f)| *f)
        .collect();
    fix.dedup();
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            !(t.starts_with("Compiling ")
                || t.starts_with("Updating ")
                || t.starts_with("Locking "))
        })
        .collect();
    let tail = &lines[lines.len().saturating_sub(60)..];
    let mut msg = format!("building {} for {TARGET} failed", manifest.display());
    if !fix.is_empty() {
        msg.push_str(": ");
        msg.push_str(&fix.join("; "));
    }
    msg.push('\n');
    msg.push_str(&tail.join("\n"));
    Error::new(ErrorKind::Compile, msg)
}

/// `rustup run TOOLCHAIN PROGRAM`, in an environment without the outer cargo's settings.
fn rustup(toolchain: &str, program: &str) -> Command {
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
fn check_toolchain(toolchain: &str) -> Result<(), Error> {
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

struct Meta {
    /// The directories of the crate's direct path dependencies (e.g. `ptx-sync`'s `device/`).
    path_deps: Vec<PathBuf>,
    lib_name: String,
    lib_src: PathBuf,
    target_dir: PathBuf,
}

/// `cargo metadata --no-deps` of the kernel crate: its library target and target directory.
fn metadata(toolchain: &str, manifest: &Path) -> Result<Meta, Error> {
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

/// The PTX has at least one kernel; else say why (no `#[no_mangle]`, wrong ABI).
fn check_ptx(ptx: &Path) -> Result<(), Error> {
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

fn mkdir(d: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(d)
        .map_err(|e| Error::new(ErrorKind::Io, format!("cannot create {}: {e}", d.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_for_arch_and_ptx_version() {
        let k = KernelCrate::new("k");
        assert_eq!(
            k.rustflags().unwrap(),
            ["-Ctarget-cpu=sm_90", "-Ctarget-feature=+ptx86"]
        );
        let k = KernelCrate::new("k").arch("sm_120a");
        assert_eq!(k.rustflags().unwrap()[1], "-Ctarget-feature=+ptx87");
        let k = KernelCrate::new("k").arch("sm_90a").ptx_version(88);
        assert_eq!(
            k.rustflags().unwrap(),
            ["-Ctarget-cpu=sm_90a", "-Ctarget-feature=+ptx88"]
        );
    }

    #[test]
    fn bad_arch_and_ptx_version_name_the_fix() {
        let e = KernelCrate::new("k").arch("sm_10").rustflags().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Config);
        assert!(e.message.contains("unsupported arch `sm_10`"), "{e}");
        assert!(
            e.message.contains("sm_90a") && e.message.contains("sm_70"),
            "{e}"
        );
        let e = KernelCrate::new("k")
            .ptx_version(99)
            .rustflags()
            .unwrap_err();
        assert!(e.message.contains("unsupported PTX ISA version 99"), "{e}");
        let e = KernelCrate::new("k")
            .arch("sm_100a")
            .ptx_version(80)
            .rustflags()
            .unwrap_err();
        assert!(e.message.contains("sm_100a needs PTX ISA 8.6"), "{e}");
    }

    #[test]
    fn compile_errors_carry_their_fix() {
        let e = compile_error(
            "error[E0658]: the extern \"ptx-kernel\" ABI is experimental and subject to change\n",
            Path::new("k/Cargo.toml"),
        );
        assert!(e.message.contains("#![feature(abi_ptx)]"), "{e}");
        let e = compile_error(
            "error: `#[panic_handler]` function required, but not found\n",
            Path::new("k"),
        );
        assert!(e.message.contains("add a #[panic_handler]"), "{e}");
    }
}
