//! `cargo xtask <command>` — set-up, device builds and the test suite of ptx-sync.
//!
//! * `setup`     — installs what is missing: nightly `rust-src`, and a project venv `.venv` with
//!   the PTX tools from PyPI (ptxas/nvcc 13.0 line, cuobjdump, nvdisasm, libcu++ headers).
//! * `ptx`       — builds `host/kernels` for nvptx64 (`kernels.ptx`, and `catalog.ptx` with every
//!   instruction variant), assembles both with ptxas for sm_90 (and kernels.sm_90a.cubin) and
//!   dumps the SASS; builds the architecture-specific catalog kernels for sm_90a and sm_100a
//!   (`catalog_sm90a.ptx`, `catalog_sm100a.ptx`, feature `catalog_arch`) and assembles each for
//!   its target; prints paths.
//! * `lint`      — `cargo fmt --all --check` and `cargo clippy --workspace --all-targets -- -D
//!   warnings`.
//! * `test`      — `setup`, `ptx`, `lint`, then every test: the workspace (unit, integration, doc,
//!   compile-fail), `miri`, the loom suite (`--cfg loom`, release), the examples (their tests and
//!   loom models; `ptx` builds and assembles their kernels), `guide`, then `docs`.
//! * `miri`      — the host backend's unsafe paths under Miri (`device/tests/host_safety.rs`,
//!   Stacked Borrows then Tree Borrows); installs the nightly `miri` component if missing.
//! * `tour`      — `setup`, `ptx`, then `ptx-sync tour` (the main job).
//! * `gpu-check` — builds everything here and prints the one command to run on a GPU machine.
//! * `docs`      — `cargo doc` of the device crate with `-D missing_docs -D
//!   rustdoc::broken_intra_doc_links` (host and nvptx64), then `doc-coverage`.
//! * `doc-coverage` — the share of public functions with an example, per module of the device
//!   crate; fails if one of `index`, `pipeline`, `shared`, `wait` lacks one.
//! * `guide`     — runs `docs/guide.md`: its files in a fresh `cargo new` crate, its commands.
//! * `env`       — prints the environment variables the tests read.
//! * `isa`       — rewrites the docs tables the instruction rows generate (`device/isa/*.rows`,
//!   `device/isa/gen`) in the device crate's module sources; `--check`: fail if one differs
//!   (`device/tests/isa.rs` checks the same).
//! * `loc`       — lines of Rust per crate and module (`--markdown`: the README's Layout table;
//!   `--update-readme`: rewrite it; `--check`: fail if its rows differ from the count).
//!
//! Environment handed to tests: `PTX_SYNC_TOOLS` (directory with ptxas, nvcc, cuobjdump,
//! nvdisasm), `PTX_SYNC_CUDA_INCLUDE` (CUDA/libcu++ headers), `PTX_SYNC_PTX_DIR` (the built
//! `.ptx`, `.cubin`, `.sass`).

// The instruction rows' generator, the one `device/build.rs` runs (for the docs tables).
#[path = "../../device/isa/gen/mod.rs"]
mod isa_gen;
mod loc;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{exit, Command};

/// The PyPI packages with the PTX tools. nvcc/ptxas are pinned to the 13.0 line, the CUDA of the
/// GPU machines; cuobjdump and nvdisasm exist on PyPI only from 13.2 (they read 13.0 cubins).
const PIP_PACKAGES: &[&str] = &[
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

/// The SM that ptxas assembles the device code for (the PTX says `.target sm_90`).
pub const SM: &str = "sm_90";

/// The architecture-specific catalog builds: `(target CPU, target/ptx/NAME.ptx)` — the rows
/// whose `Variant::catalog_ptx()` is `NAME`.
pub const ARCH_CATALOGS: [(&str, &str); 2] =
    [("sm_90a", "catalog_sm90a"), ("sm_100a", "catalog_sm100a")];

fn root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap().to_path_buf()
}

fn run(cmd: &mut Command) {
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

fn venv() -> PathBuf {
    root().join(".venv")
}

/// `.venv/lib/python3.X/site-packages/nvidia/cu13` (the parent of the tool directory that the
/// workspace's one finder, `ptx_sync_build::tools::venv_bin`, finds in the project venv).
fn cuda_dir() -> Option<PathBuf> {
    ptx_sync_build::tools::venv_bin(&venv()).and_then(|b| b.parent().map(Path::to_path_buf))
}

fn tools_ready() -> bool {
    cuda_dir().is_some_and(|d| {
        ["ptxas", "nvcc", "cuobjdump", "nvdisasm"]
            .iter()
            .all(|t| d.join("bin").join(t).exists())
            && d.join("include/cccl/cuda/atomic").exists()
            && std::fs::read_to_string(d.join("include/cuda_runtime_api.h"))
                .is_ok_and(|h| h.contains("#define CUDART_VERSION  13000"))
    })
}

fn setup() {
    // 1. nightly rust-src (device code is built with -Zbuild-std=core).
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
        run(Command::new("rustup").args([
            "component",
            "add",
            "rust-src",
            "--toolchain",
            "nightly",
        ]));
    }
    // 2. the venv with the PTX tools.
    if !tools_ready() {
        let py = env::var("PYTHON").unwrap_or_else(|_| "python3".into());
        if !venv().join("bin/pip").exists() {
            run(Command::new(&py).arg("-m").arg("venv").arg(venv()));
        }
        let mut pip = Command::new(venv().join("bin/pip"));
        pip.args(["install", "--quiet", "--disable-pip-version-check"])
            .args(PIP_PACKAGES);
        run(&mut pip);
        if !tools_ready() {
            eprintln!(
                "xtask: the PTX tools are still missing under {}",
                venv().display()
            );
            exit(1);
        }
    }
    eprintln!(
        "xtask: tools in {}",
        cuda_dir().unwrap().join("bin").display()
    );
}

fn ptx_dir() -> PathBuf {
    root().join("target/ptx")
}

/// Environment for anything that reads the PTX tools or the built kernels.
fn tool_env(cmd: &mut Command) -> &mut Command {
    if let Some(d) = cuda_dir() {
        cmd.env("PTX_SYNC_TOOLS", d.join("bin"));
        cmd.env("PTX_SYNC_CUDA_INCLUDE", d.join("include"));
        cmd.env("PTX_SYNC_CCCL_INCLUDE", d.join("include/cccl"));
    }
    cmd.env("PTX_SYNC_PTX_DIR", ptx_dir())
}

/// Builds the kernel crate once with the given features into `target/ptx/<name>.ptx`, through
/// `ptx-sync-build` (the one place that knows the nightly flags: `-Zbuild-std=core`, the nvptx64
/// target, `-Ctarget-cpu`, `+ptx86`, fat LTO, `panic = "abort"`, `-Zno-link --emit=asm`).
fn build_kernels(name: &str, features: &str) -> PathBuf {
    build_kernels_for(name, features, SM, "target/nvptx")
}

/// [`build_kernels`] for another target CPU (`sm_90a`), in its own target directory (rustc
/// flags differ per arch, so a shared directory would rebuild `core` on every switch).
fn build_kernels_for(name: &str, features: &str, arch: &str, target_dir: &str) -> PathBuf {
    let mut k = ptx_sync_build::KernelCrate::new(root().join("host/kernels"))
        .arch(arch)
        // sm_100a: PTX 8.7, for the `st.async`/`red.async` `.release` forms (st_async/release.rs)
        .ptx_version(if arch == "sm_100a" { 87 } else { 86 })
        .name(name)
        .out_dir(ptx_dir())
        .target_dir(root().join(target_dir))
        // assemble() runs ptxas itself (its advisories, the SASS dump, the sm_90a cubin).
        .ptxas(ptx_sync_build::Ptxas::Skip)
        .rerun_if_changed(false);
    if !features.is_empty() {
        k = k.features(features.split(','));
    }
    match k.build() {
        Ok(a) => {
            eprint!("{}", a.log);
            a.ptx
        }
        Err(e) => {
            eprintln!("xtask: {e}");
            exit(1)
        }
    }
}

/// ptxas → cubin, cuobjdump → SASS. Fails on any ptxas error.
fn assemble(ptx: &Path) {
    assemble_for(ptx, SM, &ptx.with_extension("cubin"), true);
}

/// ptxas for `sm` into `cubin`; with `sass`, cuobjdump's SASS next to the PTX.
fn assemble_for(ptx: &Path, sm: &str, cubin: &Path, sass: bool) {
    let bin = cuda_dir().expect("tools").join("bin");
    let out = Command::new(bin.join("ptxas"))
        .arg(format!("-arch={sm}"))
        .arg(ptx)
        .arg("-o")
        .arg(cubin)
        .output()
        .expect("run ptxas");
    let stderr = String::from_utf8_lossy(&out.stderr);
    // ptxas advises sm_90a for `.multicast::cluster` (a performance note, not an error): count
    // those, print anything else.
    let advisories = stderr.lines().filter(|l| l.contains("Advisory")).count();
    for l in stderr.lines().filter(|l| !l.contains("Advisory")) {
        eprintln!("{l}");
    }
    if !out.status.success() {
        eprintln!("xtask: ptxas failed on {}", ptx.display());
        exit(1);
    }
    if advisories > 0 {
        eprintln!(
            "xtask: ptxas {}: {advisories} advisories (multicast::cluster prefers sm_90a)",
            ptx.display()
        );
    }
    if !sass {
        return;
    }
    let sass = Command::new(bin.join("cuobjdump"))
        .arg("-sass")
        .arg(cubin)
        .output()
        .unwrap();
    if !sass.status.success() {
        eprintln!(
            "xtask: cuobjdump failed: {}",
            String::from_utf8_lossy(&sass.stderr)
        );
        exit(1);
    }
    std::fs::write(ptx.with_extension("sass"), &sass.stdout).unwrap();
}

/// The example crates (`examples/*/Cargo.toml`), sorted.
fn example_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(root().join("examples"))
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.join("Cargo.toml").exists())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

/// Builds every example's kernel crate (`crate-type = ["cdylib", "rlib"]`) through
/// `ptx-sync-build` for sm_90 into `target/ptx/examples/`, assembles it with ptxas (a cubin is
/// required), and checks the dynamic shared-memory declaration: present exactly in the crates
/// that read the window (`dynamic_smem!`), absent elsewhere.
fn examples_ptx() {
    for d in example_dirs() {
        // ptxas: found by the builder (PTX_SYNC_PTXAS, PATH, or the project venv above the crate).
        let a = ptx_sync_build::KernelCrate::new(&d)
            .arch(SM)
            .out_dir(ptx_dir().join("examples"))
            .target_dir(root().join("target/nvptx-examples"))
            .ptxas(ptx_sync_build::Ptxas::Required)
            .rerun_if_changed(false);
        let art = match a.build() {
            Ok(art) => art,
            Err(e) => {
                eprintln!("xtask: example {}: {e}", d.display());
                exit(1)
            }
        };
        let ptx = std::fs::read_to_string(&art.ptx).unwrap();
        let src = std::fs::read_to_string(d.join("src/lib.rs")).unwrap();
        let uses = src.contains("dynamic_smem!()");
        let declared = ptx.contains(".extern .shared .align 1024 .b8 __ptx_sync_dyn_smem[];");
        if uses != declared || (!uses && ptx.contains("__ptx_sync_dyn_smem")) {
            eprintln!(
                "xtask: {}: uses dynamic_smem!: {uses}, PTX declares __ptx_sync_dyn_smem: {declared}",
                art.ptx.display()
            );
            exit(1);
        }
        if art.cubin.is_none() {
            eprintln!("xtask: {}: no cubin", art.ptx.display());
            exit(1);
        }
        println!("{}", art.ptx.display());
    }
}

fn ptx() {
    examples_ptx();
    let k = build_kernels("kernels", "");
    assemble(&k);
    // The cubin the host binary embeds and loads first (H100/H200: compute capability 9.0).
    assemble_for(&k, "sm_90a", &ptx_dir().join("kernels.sm_90a.cubin"), false);
    let c = build_kernels("catalog", "catalog");
    assemble(&c);
    // The architecture-specific rows (`Variant::arch`): only their kernels (`catalog_arch`),
    // built and assembled for each `a` target.
    let mut arch = Vec::new();
    for (sm, name) in ARCH_CATALOGS {
        let p = build_kernels_for(name, "catalog_arch", sm, &format!("target/nvptx-{sm}"));
        assemble_for(&p, sm, &p.with_extension("cubin"), true);
        arch.push(p);
    }
    println!("{}", ptx_dir().join("kernels.sm_90a.cubin").display());
    for p in [&k, &c].into_iter().chain(&arch) {
        println!("{}", p.display());
        println!("{}", p.with_extension("cubin").display());
        println!("{}", p.with_extension("sass").display());
    }
}

fn cargo() -> Command {
    let mut c = Command::new(env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root());
    tool_env(&mut c);
    c
}

/// Runs a `cargo test` command, echoing its output, and returns the (passed, failed) counts of
/// its `test result:` lines. Exits on failure, after printing the counts so far.
fn run_tests(cmd: &mut Command, total: &mut (u64, u64)) {
    use std::io::{BufRead, BufReader};
    if env::var_os("XTASK_VERBOSE").is_some() {
        eprintln!("+ {:?}", cmd);
    }
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            eprintln!("xtask: cannot start {cmd:?}: {e}");
            exit(1)
        });
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap_or_default();
        println!("{line}");
        // "test result: ok. 12 passed; 0 failed; 0 ignored; ..."
        if let Some(rest) = line.trim().strip_prefix("test result: ") {
            let num = |key: &str| {
                rest.split(';')
                    .find_map(|p| {
                        p.trim()
                            .trim_start_matches("ok. ")
                            .trim_start_matches("FAILED. ")
                            .strip_suffix(key)
                    })
                    .and_then(|n| n.trim().parse::<u64>().ok())
                    .unwrap_or(0)
            };
            total.0 += num(" passed");
            total.1 += num(" failed");
        }
    }
    let status = child.wait().unwrap();
    if !status.success() {
        eprintln!("xtask: tests failed: {cmd:?}");
        println!("total: {} passed, {} failed", total.0, total.1.max(1));
        exit(1);
    }
}

/// `cargo fmt --check` and `cargo clippy -D warnings` on the workspace (all targets).
fn lint() {
    run(cargo().args(["fmt", "--all", "--check"]));
    run(cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--quiet",
        "--",
        "-D",
        "warnings",
    ]));
    println!("xtask: fmt and clippy clean");
}

fn test() {
    setup();
    ptx();
    lint();
    let mut total = (0u64, 0u64);
    // Workspace: unit, integration, doc and compile-fail tests (host backend).
    run_tests(
        cargo().args(["test", "--workspace", "--no-fail-fast"]),
        &mut total,
    );
    // Miri: the host backend's unsafe paths (aliasing, lifetimes, data races).
    miri(&mut total);
    // Loom suite: the seed's programs model-checked from the same source.
    let loom = root().join("loom-tests/tests");
    if loom
        .read_dir()
        .map(|mut d| d.next().is_some())
        .unwrap_or(false)
    {
        run_tests(
            cargo()
                .args([
                    "test",
                    "-p",
                    "ptx-sync-loom-tests",
                    "--release",
                    "--target-dir",
                ])
                .arg(root().join("target/loom"))
                .env("RUSTFLAGS", "--cfg loom"),
            &mut total,
        );
    }
    // Examples: each is its own crate, as a user's would be: its tests, then its loom model
    // (`tests/loom.rs`; `examples/ports`, a line-count study, has none).
    for d in example_dirs() {
        run_tests(
            cargo()
                .args(["test", "--manifest-path"])
                .arg(d.join("Cargo.toml"))
                .arg("--target-dir")
                .arg(root().join("target/examples")),
            &mut total,
        );
        if !d.join("tests/loom.rs").exists() {
            continue;
        }
        run_tests(
            cargo()
                .args([
                    "test",
                    "--release",
                    "--no-default-features",
                    "--test",
                    "loom",
                    "--manifest-path",
                ])
                .arg(d.join("Cargo.toml"))
                .arg("--target-dir")
                .arg(root().join("target/examples-loom"))
                .env("RUSTFLAGS", "--cfg loom"),
            &mut total,
        );
    }
    // docs/guide.md, step by step.
    guide(&mut total);
    // Docs: the device crate's docs are complete (host and nvptx targets), and the share of
    // public functions with an example, per module.
    docs_check();
    // The closing line CI reads: every test of every suite above.
    println!("total: {} passed, {} failed", total.0, total.1);
}

/// The test files Miri runs: the host backend's unsafe paths — `ClusterShared`'s per-CTA copies
/// and `mapa`, `shared_array!`/`dynamic_smem` inside `index::launch`, its supervision (panics,
/// deadlocks), the mbarrier and pipeline run-time checks (issue #21).
const MIRI_TESTS: &[&str] = &["host_safety"];
/// Tests of those files Miri skips, each for its time: `the_largest_cta_runs` interprets 1024
/// threads (most of a minute) and reaches no unsafe path the smaller launches do not.
const MIRI_SKIP: &[&str] = &["the_largest_cta_runs"];

/// `cargo +nightly miri test -p ptx-sync --test …` under Stacked Borrows, then Tree Borrows.
/// Flags: `-Zmiri-permissive-provenance`, because the host backend hands shared memory out as
/// integer addresses by design (`SharedAddr(usize)`, `mapa` through `ClusterShared`'s table, a
/// CTA's `shared_array!` copy) and rebuilds pointers from them: Miri then accepts the
/// int-to-pointer casts of exposed allocations (without a warning per cast) and still checks
/// every access against its allocation and the aliasing model; `-Zmiri-tree-borrows` for the
/// second run. Isolation stays on (the barriers' timed waits use Miri's virtual clock).
fn miri(total: &mut (u64, u64)) {
    let nightly = |args: &[&str]| {
        let mut c = Command::new("rustup");
        c.args(["run", "nightly"]).args(args).current_dir(root());
        // `cargo xtask` runs under the stable cargo: cargo-miri would call it back through
        // `CARGO` (and the nightly flags it passes would fail there).
        c.env_remove("CARGO")
            .env_remove("RUSTC")
            .env_remove("RUSTUP_TOOLCHAIN");
        c
    };
    let have = nightly(&["cargo", "miri", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        run(Command::new("rustup").args(["component", "add", "miri", "--toolchain", "nightly"]));
    }
    for (model, flags) in [
        ("Stacked Borrows", "-Zmiri-permissive-provenance"),
        (
            "Tree Borrows",
            "-Zmiri-permissive-provenance -Zmiri-tree-borrows",
        ),
    ] {
        eprintln!("xtask: Miri ({model}) on {}", MIRI_TESTS.join(", "));
        let mut c = nightly(&["cargo", "miri", "test", "-p", "ptx-sync"]);
        for t in MIRI_TESTS {
            c.args(["--test", t]);
        }
        c.arg("--");
        for t in MIRI_SKIP {
            c.args(["--skip", t]);
        }
        run_tests(c.env("MIRIFLAGS", flags), total);
    }
}

/// The files of `docs/guide.md`: each code block right after a `<!-- file: PATH -->` line.
fn guide_files(md: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut lines = md.lines();
    while let Some(l) = lines.next() {
        let Some(name) = l
            .strip_prefix("<!-- file: ")
            .and_then(|r| r.strip_suffix(" -->"))
        else {
            continue;
        };
        let fence = lines.next().unwrap_or_default();
        assert!(
            fence.starts_with("```"),
            "guide: {name}: no code block after its marker"
        );
        let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        files.push((name.to_string(), body.join("\n") + "\n"));
    }
    files
}

/// Output of a command that must run; `(success, stdout + stderr)`.
fn output(cmd: &mut Command) -> (bool, String) {
    let o = cmd.output().unwrap_or_else(|e| {
        eprintln!("xtask: cannot start {cmd:?}: {e}");
        exit(1)
    });
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success(), text)
}

fn guide_fail(what: &str, text: &str) -> ! {
    eprintln!("xtask: guide: {what}\n{text}");
    exit(1)
}

/// Runs `docs/guide.md`: `cargo new` next to a link to this checkout, the page's files, then its
/// commands — the CPU test, `ptx-sync build` (and the sm_80 error), `ptx-sync show --ptx`,
/// `cargo run` (no driver here: one line, exit 1), `ptx-sync check` with the verdicts it states.
fn guide(total: &mut (u64, u64)) {
    // Outside the workspace (inside it, `cargo new` would join the crate to the workspace).
    let dir = env::temp_dir().join(format!("ptx-sync-guide-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(root(), dir.join("ptx-sync")).unwrap();
    let cargo_bin = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run(Command::new(&cargo_bin).current_dir(&dir).args([
        "new",
        "--lib",
        "--vcs",
        "none",
        "mykernels",
    ]));
    let k = dir.join("mykernels");
    let md = std::fs::read_to_string(root().join("docs/guide.md")).unwrap();
    for (name, body) in guide_files(&md) {
        let p = k.join(&name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, body).unwrap();
    }
    // The examples' lock file: the same dependency versions (no new resolution needed).
    std::fs::copy(
        root().join("examples/handoff/Cargo.lock"),
        k.join("Cargo.lock"),
    )
    .unwrap();
    let manifest = k.join("Cargo.toml");
    let tdir = root().join("target/examples");
    run_tests(
        cargo()
            .args(["test", "--manifest-path"])
            .arg(&manifest)
            .arg("--target-dir")
            .arg(&tdir),
        total,
    );
    run(cargo().args(["build", "-q", "-p", "ptx-sync-host"]));
    let bin = root().join("target/debug/ptx-sync");
    let ptx_sync = |args: &[&str]| {
        let mut c = Command::new(&bin);
        c.current_dir(&k).args(args);
        tool_env(&mut c);
        output(&mut c)
    };
    let (ok, t) = ptx_sync(&[
        "build",
        "--manifest-path",
        "Cargo.toml",
        "--arch",
        "sm_90",
        "--out",
        "ptx",
    ]);
    if !ok || !k.join("ptx/mykernels.cubin").exists() {
        guide_fail("ptx-sync build did not write ptx/mykernels.{ptx,cubin}", &t);
    }
    let ptx = std::fs::read_to_string(k.join("ptx/mykernels.ptx")).unwrap();
    for want in ["st.release.gpu.u32", "ld.acquire.gpu.u32", ".entry mp("] {
        if !ptx.contains(want) {
            guide_fail(&format!("the PTX lacks {want}"), &ptx);
        }
    }
    if ptx.contains(".extern .shared") {
        guide_fail(
            "the PTX declares dynamic shared memory it does not use",
            &ptx,
        );
    }
    let (ok, t) = ptx_sync(&[
        "build",
        "--manifest-path",
        "Cargo.toml",
        "--arch",
        "sm_80",
        "--out",
        "ptx80",
    ]);
    if ok || !t.contains("ptx-sync needs sm_90 and PTX ISA 8.6 or newer: build with `-C target-cpu=sm_90 -C target-feature=+ptx86`") {
        guide_fail("--arch sm_80 must stop with ptx-sync's compile_error", &t);
    }
    let (ok, t) = ptx_sync(&["show", "--ptx", "ptx/mykernels.ptx"]);
    if !ok || !t.contains("st.release.gpu") || !t.contains("ld.acquire.gpu") {
        guide_fail("ptx-sync show --ptx", &t);
    }
    let has_driver = [
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/lib64/libcuda.so.1",
    ]
    .iter()
    .any(|p| Path::new(p).exists());
    let (ok, t) = output(
        cargo()
            .current_dir(&k)
            .args(["run", "-q", "--manifest-path"])
            .arg(&manifest)
            .arg("--target-dir")
            .arg(&tdir),
    );
    let last = t.lines().last().unwrap_or_default().to_string();
    if has_driver {
        if !ok && last.contains("no NVIDIA driver") {
            guide_fail(
                "cargo run: a driver is installed, yet it says there is none",
                &t,
            );
        }
    } else if ok || !last.starts_with("mykernels: no NVIDIA driver") {
        guide_fail(
            "cargo run without a driver: one line `mykernels: no NVIDIA driver …`, exit 1",
            &t,
        );
    }
    let (ok, t) = ptx_sync(&["check", "mp.litmus", "mp-cta.litmus"]);
    if !ok || !t.contains("Observation mp Never") || !t.contains("Observation mp-cta Sometimes") {
        guide_fail("ptx-sync check: mp Never, mp-cta Sometimes", &t);
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("xtask: guide: every step of docs/guide.md ran as it says");
}

/// One module's public functions: `(module, functions, with an example)`.
type Coverage = (String, usize, usize);

/// The share of public functions and methods of the device crate whose doc comment has a code
/// block (an example, run as a doctest on the host backend), per module (`device/src/*.rs`).
/// A function is a line `pub [const] [unsafe] fn` outside macro templates; its doc comment is
/// the run of `///` and attribute lines right above it.
fn doc_coverage() -> Vec<Coverage> {
    let mut rows = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(root().join("device/src"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    for f in files {
        let module = f.file_stem().unwrap().to_string_lossy().into_owned();
        if module == "backend" || module == "lib" {
            continue; // `#[doc(hidden)]` / the crate root (no functions)
        }
        let src = std::fs::read_to_string(&f).unwrap();
        let (mut n, mut with) = (0, 0);
        let mut doc = String::new();
        for line in src.lines() {
            let t = line.trim_start();
            if let Some(d) = t.strip_prefix("///") {
                doc.push_str(d);
                doc.push('\n');
                continue;
            }
            if t.starts_with("#[") {
                continue;
            }
            let is_fn = [
                "pub fn ",
                "pub const fn ",
                "pub unsafe fn ",
                "pub const unsafe fn ",
            ]
            .iter()
            .any(|k| t.starts_with(k))
                && !t.contains('$');
            let hidden = doc.is_empty() && line.contains("#[doc(hidden)]");
            if is_fn && !hidden {
                n += 1;
                if doc.contains("```") {
                    with += 1;
                }
            }
            doc.clear();
        }
        if n > 0 {
            rows.push((module, n, with));
        }
    }
    rows
}

/// Prints [`doc_coverage`]; fails when a module of `FULL` lacks an example somewhere.
fn print_doc_coverage() {
    /// Modules whose every public function must have an example.
    const FULL: &[&str] = &[
        "atomic",
        "barrier",
        "catalog",
        "cluster",
        "copy",
        "fence",
        "index",
        "mbarrier",
        "membar",
        "pipeline",
        "policy",
        "proxy",
        "shared",
        "sync_restrict",
        "tensormap",
        "wait",
    ];
    let rows = doc_coverage();
    println!("| module | public fns | with an example | share |");
    println!("|---|---|---|---|");
    let (mut n, mut w) = (0, 0);
    let mut missing = Vec::new();
    for (m, fns, with) in &rows {
        println!(
            "| {m} | {fns} | {with} | {:.0}% |",
            100.0 * *with as f64 / *fns as f64
        );
        n += fns;
        w += with;
        if FULL.contains(&m.as_str()) && with < fns {
            missing.push(m.clone());
        }
    }
    println!(
        "| all | {n} | {w} | {:.0}% |",
        100.0 * w as f64 / n.max(1) as f64
    );
    if !missing.is_empty() {
        eprintln!("xtask: every public function of {missing:?} needs an example (a ``` block in its docs)");
        exit(1);
    }
}

/// `cargo doc` of the device crate with `-D missing_docs -D rustdoc::broken_intra_doc_links`,
/// for the host and for nvptx64 (nightly, `-Zbuild-std=core`, the kernel flags), the same for
/// the host library (`ptx-sync-host --lib`), then the example coverage.
fn docs_check() {
    let deny = "-D missing_docs -D rustdoc::broken_intra_doc_links";
    run(cargo()
        .args(["doc", "-p", "ptx-sync", "--no-deps"])
        .arg("--target-dir")
        .arg(root().join("target/doc-check"))
        .env("RUSTDOCFLAGS", deny));
    let flags = format!("-Ctarget-cpu={SM} -Ctarget-feature=+ptx86");
    run(Command::new("rustup")
        .current_dir(root())
        .args([
            "run",
            "nightly",
            "cargo",
            "doc",
            "-p",
            "ptx-sync",
            "--no-deps",
        ])
        .args([
            "--target",
            "nvptx64-nvidia-cuda",
            "-Zbuild-std=core",
            "--target-dir",
        ])
        .arg(root().join("target/doc-check"))
        .env_remove("CARGO")
        .env_remove("RUSTC")
        .env_remove("RUSTDOC")
        .env("RUSTFLAGS", &flags)
        .env("RUSTDOCFLAGS", format!("{deny} {flags}")));
    // The host library (`ptx-sync-host`'s lib target: cuda, sass, costs, inspect, ...).
    run(cargo()
        .args(["doc", "-p", "ptx-sync-host", "--lib", "--no-deps"])
        .arg("--target-dir")
        .arg(root().join("target/doc-check"))
        .env("RUSTDOCFLAGS", deny));
    print_doc_coverage();
}

/// `cargo xtask isa [--check]`: the generated docs tables of the device crate's modules.
fn isa(check: bool) {
    let dev = root().join("device");
    let isa = isa_gen::read(&dev.join("isa")).unwrap_or_else(|e| {
        eprintln!("xtask: {e}");
        exit(2)
    });
    let mut stale = 0;
    for (module, files) in isa_gen::table_modules(&isa) {
        let rel = module.replace("::", "/");
        let flat = dev.join("src").join(format!("{rel}.rs"));
        let path = if flat.exists() {
            flat
        } else {
            dev.join("src").join(&rel).join("mod.rs")
        };
        let src = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("xtask: {}: {e}", path.display());
            exit(1)
        });
        let new = isa_gen::emit::doc_table(&isa, &module)
            .and_then(|t| isa_gen::splice_table(&src, &isa_gen::table_marker(&files), &t))
            .unwrap_or_else(|e| {
                eprintln!("xtask: {}: {e}", path.display());
                exit(2)
            });
        if new != src {
            stale += 1;
            if check {
                eprintln!(
                    "xtask: {}: its docs table differs from the rows",
                    path.display()
                );
            } else {
                std::fs::write(&path, new).expect("write the module source");
                println!("{}", path.display());
            }
        }
    }
    if check && stale > 0 {
        exit(1);
    }
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("setup") => setup(),
        Some("isa") => isa(args.get(1).map(String::as_str) == Some("--check")),
        Some("ptx") => {
            setup();
            ptx()
        }
        Some("test") => test(),
        Some("miri") => {
            let mut total = (0, 0);
            miri(&mut total);
            println!("total: {} passed, {} failed", total.0, total.1);
        }
        Some("lint") => lint(),
        Some("tour") => {
            setup();
            ptx();
            let mut c = cargo();
            c.args([
                "run",
                "--quiet",
                "--release",
                "-p",
                "ptx-sync-host",
                "--",
                "tour",
            ])
            .args(&args[1..]);
            run(&mut c);
        }
        Some("gpu-check") => {
            setup();
            ptx();
            run(Command::new("bash")
                .arg(root().join("scripts/gpu-check.sh"))
                .arg("--prepare"));
        }
        Some("loc") => {
            let rows = loc::rows(&root());
            match args.get(1).map(String::as_str) {
                Some("--markdown") => print!("{}", loc::markdown(&rows)),
                Some("--update-readme") => {
                    let path = root().join("README.md");
                    let readme = std::fs::read_to_string(&path).unwrap();
                    let Some(new) = loc::with_table(&readme, &loc::markdown(&rows)) else {
                        eprintln!("xtask: README.md has no loc markers");
                        exit(1)
                    };
                    std::fs::write(&path, new).unwrap();
                }
                Some("--check") => {
                    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
                    let have = loc::readme_table(&readme).map(loc::parse_markdown);
                    let want: Vec<_> = rows.into_iter().map(|r| (r.krate, r.module)).collect();
                    if have.as_ref() != Some(&want) {
                        eprintln!("xtask: README's Layout table is stale: run `cargo xtask loc --update-readme`");
                        exit(1)
                    }
                }
                _ => print!("{}", loc::text(&rows)),
            }
        }
        Some("doc-coverage") => print_doc_coverage(),
        Some("guide") => {
            setup();
            let mut total = (0, 0);
            guide(&mut total);
            println!("total: {} passed, {} failed", total.0, total.1);
        }
        Some("docs") => docs_check(),
        Some("env") => {
            let mut c = Command::new("env");
            tool_env(&mut c);
            run(&mut c);
        }
        _ => {
            eprintln!(
                "usage: cargo xtask <setup|ptx|test|miri|tour|gpu-check|lint|docs|doc-coverage|guide|env|loc>"
            );
            exit(2)
        }
    }
}
