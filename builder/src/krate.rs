//! [`KernelCrate`]: the builder — the one place that knows the nvptx flags — and what a build
//! produces ([`Artifacts`]).

use super::*;

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
    pub(super) path: PathBuf,
    pub(super) arch: String,
    pub(super) ptx_version: Option<u32>,
    pub(super) out_dir: Option<PathBuf>,
    pub(super) features: Vec<String>,
    pub(super) target_dir: Option<PathBuf>,
    pub(super) name: Option<String>,
    pub(super) toolchain: String,
    pub(super) ptxas: Ptxas,
    pub(super) rerun_if_changed: Option<bool>,
    pub(super) progress: bool,
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

    pub(super) fn checked_ptx_version(&self) -> Result<u32, Error> {
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
        // Only when the text changed: a `build.rs` that embeds the PTX (`cargo:rerun-if-changed`)
        // then does not rebuild its crate because the same PTX was copied again.
        let same = std::fs::read(&emit)
            .ok()
            .is_some_and(|new| std::fs::read(&ptx).is_ok_and(|old| old == new));
        if !same {
            std::fs::copy(&emit, &ptx).map_err(|e| {
                Error::new(
                    ErrorKind::Io,
                    format!("cannot copy {} to {}: {e}", emit.display(), ptx.display()),
                )
            })?;
        }
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

    pub(super) fn manifest_path(&self) -> Result<PathBuf, Error> {
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
        // As cargo does with a `--manifest-path` or a `path` dependency: `.` and `..` resolved
        // by the text, links kept. Cargo keys a path dependency outside the workspace by the
        // path it was reached through, so a crate built through a link (a checkout linked next
        // to the user's crates, as in the guide) shares its dependencies' builds with the other
        // crates reached through that link.
        Ok(normalize(&m))
    }

    /// The nested cargo; returns its stderr on success.
    pub(super) fn cargo(
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

pub(super) fn mkdir(d: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(d)
        .map_err(|e| Error::new(ErrorKind::Io, format!("cannot create {}: {e}", d.display())))
}
