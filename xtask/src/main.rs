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
//! * `tour`      — `setup`, the kernels' PTX and sm_90a cubin (not the catalogs or examples),
//!   then `ptx-sync tour` in the dev profile (the main job), each step announced with its time.
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

/// The one target directory of every nvptx build (kernels, catalogs, examples, the guide's crate,
/// the tests' kernel crates): `ptx-sync-build`'s default for a crate of this workspace. Cargo
/// keys each unit by its RUSTFLAGS, so `core` built for sm_90, sm_90a and sm_100a lives side by
/// side here and is built once per arch.
const NVPTX_DIR: &str = "target/ptx-sync-build";

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

/// The directory holding ptxas, nvcc, cuobjdump and nvdisasm (`…/nvidia/cu13/bin`): the project
/// venv `.venv` when it is complete, else the user's venv that `ptx-sync setup` installs
/// (`ptx_sync_build::tools::user_venv`, `~/.cache/ptx-sync/venv`) — the same places the
/// workspace's one finder (`ptx_sync_build::tools`) looks.
fn tools_bin() -> Option<PathBuf> {
    use ptx_sync_build::tools::{tools_ready, user_venv, venv_bin};
    venv_bin(&venv()).filter(|b| tools_ready(b)).or_else(|| {
        user_venv()
            .and_then(|v| venv_bin(&v))
            .filter(|b| tools_ready(b))
    })
}

/// `…/nvidia/cu13`: the parent of [`tools_bin`] (`bin/`, `include/`).
fn cuda_dir() -> Option<PathBuf> {
    tools_bin().and_then(|b| b.parent().map(Path::to_path_buf))
}

fn setup() {
    setup_rust_src();
    setup_tools();
}

/// The nightly `rust-src` (device code is built with `-Zbuild-std=core`).
fn setup_rust_src() {
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
fn setup_tools() {
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
    build_kernels_for(name, features, SM)
}

/// [`build_kernels`] for another target CPU (`sm_90a`), in the same [`NVPTX_DIR`].
fn build_kernels_for(name: &str, features: &str, arch: &str) -> PathBuf {
    let mut k = ptx_sync_build::KernelCrate::new(root().join("host/kernels"))
        .arch(arch)
        // sm_100a: PTX 8.7, for the `st.async`/`red.async` `.release` forms (st_async/release.rs)
        .ptx_version(if arch == "sm_100a" { 87 } else { 86 })
        .name(name)
        .out_dir(ptx_dir())
        .target_dir(root().join(NVPTX_DIR))
        // assemble() runs ptxas itself (its advisories, the SASS dump, the sm_90a cubin).
        .ptxas(ptx_sync_build::Ptxas::Skip)
        .progress(true)
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

/// ptxas for `sm` into `cubin`; with `sass`, cuobjdump's SASS next to the PTX. Skipped when the
/// outputs were made from the same PTX text for the same `sm` (a stamp next to the cubin holds
/// the text's hash): the builder rewrites the PTX on every run, and ptxas on the catalog takes
/// half a minute.
fn assemble_for(ptx: &Path, sm: &str, cubin: &Path, sass: bool) {
    let stamp_path = cubin.with_extension("cubin.stamp");
    let stamp = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::fs::read(ptx).unwrap_or_default().hash(&mut h);
        (sm, sass).hash(&mut h);
        format!("{:016x}", h.finish())
    };
    let fresh = cubin.is_file()
        && (!sass || ptx.with_extension("sass").is_file())
        && std::fs::read_to_string(&stamp_path).is_ok_and(|s| s == stamp);
    if fresh {
        return;
    }
    assemble_now(ptx, sm, cubin, sass);
    std::fs::write(&stamp_path, stamp).unwrap();
}

fn assemble_now(ptx: &Path, sm: &str, cubin: &Path, sass: bool) {
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
            .target_dir(root().join(NVPTX_DIR))
            .ptxas(ptx_sync_build::Ptxas::Required)
            .progress(true)
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
        let p = build_kernels_for(name, "catalog_arch", sm);
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

/// `cargo xtask tour`: only what the tour shows — the kernels' PTX (which `ptx-sync` embeds and
/// reads the SASS of) and their sm_90a cubin (what a GPU runs) — then the binary in the dev
/// profile (the tour's run time is ptxas's; a release build would compile the dependency tree a
/// second time, next to the one `cargo build`/`cargo xtask test` use), saying what each step
/// does.
fn tour(args: &[String]) {
    let t0 = std::time::Instant::now();
    let say = |what: &str| eprintln!("xtask: tour [{:>3} s]: {what}", t0.elapsed().as_secs());
    setup_rust_src();
    // The PTX tools (a pip install the first time: mostly waiting on the network) while the
    // kernels build (which needs none of them: ptxas runs after).
    say("the PTX tools (ptxas & co. from PyPI, installed once) and, meanwhile, the kernels the tour shows: host/kernels for nvptx64 (nightly, core from source; about a minute the first time)");
    let tools = std::thread::spawn(setup_tools);
    let k = build_kernels("kernels", "");
    if tools.join().is_err() {
        exit(1);
    }
    assemble_for(&k, "sm_90a", &ptx_dir().join("kernels.sm_90a.cubin"), false);
    say("building ptx-sync (the binary and its dependencies; a few minutes the first time, cargo shows each crate)");
    run(cargo().args(["build", "-p", "ptx-sync-host", "--bin", "ptx-sync"]));
    say("running `ptx-sync tour`");
    let mut c = Command::new(root().join("target/debug/ptx-sync"));
    c.current_dir(root()).arg("tour").args(args);
    tool_env(&mut c);
    run(&mut c);
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
    run_tests_stderr(cmd, total, false);
}

/// [`run_tests`]; with `capture`, stderr (cargo's build output) is echoed and returned too.
fn run_tests_stderr(cmd: &mut Command, total: &mut (u64, u64), capture: bool) -> String {
    use std::io::{BufRead, BufReader};
    if env::var_os("XTASK_VERBOSE").is_some() {
        eprintln!("+ {:?}", cmd);
    }
    if capture {
        cmd.stderr(std::process::Stdio::piped());
    }
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            eprintln!("xtask: cannot start {cmd:?}: {e}");
            exit(1)
        });
    // Drained on a thread of its own, so that neither pipe can fill up and stall the child.
    let err = child.stderr.take().map(|e| {
        std::thread::spawn(move || {
            let mut text = String::new();
            for l in BufReader::new(e).lines().map_while(Result::ok) {
                eprintln!("{l}");
                text.push_str(&l);
                text.push('\n');
            }
            text
        })
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
    let err = err
        .map(|t| t.join().unwrap_or_default())
        .unwrap_or_default();
    if !status.success() {
        eprintln!("xtask: tests failed: {cmd:?}");
        println!("total: {} passed, {} failed", total.0, total.1.max(1));
        exit(1);
    }
    err
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

/// The wall time of each step of `cargo xtask test`, printed at the end (where a run's time
/// goes: README.md, "Test time").
struct Steps {
    t0: std::time::Instant,
    rows: Vec<(&'static str, f64)>,
}

impl Steps {
    fn new() -> Self {
        Steps {
            t0: std::time::Instant::now(),
            rows: Vec::new(),
        }
    }
    /// Runs step `name`, announcing it and recording its time.
    fn run<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        eprintln!("xtask: test [{:>4} s]: {name}", self.t0.elapsed().as_secs());
        let t = std::time::Instant::now();
        let r = f();
        self.rows.push((name, t.elapsed().as_secs_f64()));
        r
    }
    fn print(&self) {
        let parts: Vec<String> = self
            .rows
            .iter()
            .map(|(n, s)| format!("{n} {s:.0} s"))
            .collect();
        println!(
            "xtask: test times: {}; total {:.0} s",
            parts.join(", "),
            self.t0.elapsed().as_secs_f64()
        );
    }
}

fn test() {
    let mut steps = Steps::new();
    steps.run("setup", setup);
    steps.run("ptx", ptx);
    steps.run("lint", lint);
    let mut total = (0u64, 0u64);
    // Workspace: unit, integration, doc and compile-fail tests (host backend).
    steps.run("workspace tests", || {
        run_tests(
            cargo().args(["test", "--workspace", "--no-fail-fast"]),
            &mut total,
        )
    });
    // Miri: the host backend's unsafe paths (aliasing, lifetimes, data races).
    steps.run("miri", || miri(&mut total));
    // Loom suite: the seed's programs model-checked from the same source.
    let loom = root().join("loom-tests/tests");
    steps.run("loom suite", || {
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
    });
    // Examples: each is its own crate, as a user's would be: its tests, then its loom model
    // (`tests/loom.rs`; `examples/ports`, a line-count study, has none).
    steps.run("examples", || {
        for d in example_dirs() {
            let err = run_tests_stderr(
                cargo()
                    .args(["test", "--manifest-path"])
                    .arg(d.join("Cargo.toml"))
                    // The workspace's own target directory: the dependency tree the workspace's
                    // tests built (cargo keys units by package, features and flags, so the examples'
                    // own lock files and feature sets sit side by side with it).
                    .arg("--target-dir")
                    .arg(root().join("target")),
                &mut total,
                true,
            );
            // A user's crate: its build prints no warning (cargo replays those of fresh path
            // dependencies, so a warm run sees them too).
            let w = warnings(&err);
            if !w.is_empty() {
                eprintln!(
                    "xtask: {}: the build printed warnings:\n{}",
                    d.display(),
                    w.join("\n")
                );
                exit(1);
            }
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
                    // The loom suite's directory: same flags (`--cfg loom`, release).
                    .arg("--target-dir")
                    .arg(root().join("target/loom"))
                    .env("RUSTFLAGS", "--cfg loom"),
                &mut total,
            );
        }
    });
    // docs/guide.md, step by step.
    steps.run("guide", || guide(&mut total));
    // Docs: the device crate's docs are complete (host and nvptx targets), and the share of
    // public functions with an example, per module.
    steps.run("docs", docs_check);
    steps.print();
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

/// One step of `docs/guide.md`, in page order: a file (the code block right after a
/// `<!-- file: PATH -->` line) or a shell command (a line of a ```` ```sh ```` block, its `# …`
/// comment cut off).
#[derive(Debug)]
enum GuideStep {
    File(String, String),
    Sh(String),
}

fn guide_steps(md: &str) -> Vec<GuideStep> {
    let mut steps = Vec::new();
    let mut lines = md.lines();
    while let Some(l) = lines.next() {
        if let Some(name) = l
            .strip_prefix("<!-- file: ")
            .and_then(|r| r.strip_suffix(" -->"))
        {
            let fence = lines.next().unwrap_or_default();
            assert!(
                fence.starts_with("```"),
                "guide: {name}: no code block after its marker"
            );
            let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            steps.push(GuideStep::File(name.to_string(), body.join("\n") + "\n"));
        } else if l == "```sh" {
            // A line ending in `\` continues on the next, as in sh.
            let mut pending = String::new();
            for c in lines.by_ref().take_while(|l| *l != "```") {
                let cmd = match c.find(" #") {
                    Some(i) => &c[..i],
                    None => c,
                }
                .trim();
                if let Some(head) = cmd.strip_suffix('\\') {
                    pending.push_str(head.trim_end());
                    pending.push(' ');
                    continue;
                }
                let cmd = format!("{pending}{cmd}");
                pending.clear();
                if !cmd.trim().is_empty() {
                    steps.push(GuideStep::Sh(cmd.trim().to_string()));
                }
            }
        }
    }
    steps
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

/// The `warning:` lines of a build's output (a user's build of the guide's crate must have none:
/// no note about the checkout's kernels, no `cfg(loom)`, no `+ptx86`).
fn warnings(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.trim_start().starts_with("warning"))
        .collect()
}

/// Runs `docs/guide.md` as a user would, in the layout it describes: a directory holding the
/// checkout as `ptx-sync/` (a link to this one) where the page's commands run in page order,
/// with its files written where they fall — `cd` moves, `cargo install --path P` is checked to
/// name this checkout's `host/` crate from there and stands for the workspace's own build of
/// `ptx-sync` put first on `PATH`. Nothing points the commands at the PTX tools: the `PTX_SYNC_*`
/// variables are removed, and the cubin and SASS come from where the page's `ptx-sync setup`
/// put the tools. Three additions, none a tool path: `CARGO_TARGET_DIR` is the workspace's
/// target directory (the dependency tree is built once), `PTX_SYNC_PTX_DIR` an empty directory
/// (the launcher library built as in a checkout whose own kernels were never built), and the
/// examples' `Cargo.lock` is copied next to the new crate's manifest (the same versions, no
/// registry resolution). Each command's output is checked against what the page says it does;
/// builds of the user's crates must print no warning.
fn guide(total: &mut (u64, u64)) {
    // Outside the workspace (inside it, `cargo new` would join the crate to the workspace), at a
    // path fixed per checkout: cargo keys path dependencies by their path (`…/ptx-sync/device`
    // through the link), so a second run finds the ptx-sync crates it built fresh.
    let tag = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        root().hash(&mut h);
        h.finish()
    };
    let dir = env::temp_dir().join(format!("ptx-sync-guide-{tag:016x}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::os::unix::fs::symlink(root(), dir.join("ptx-sync")).unwrap();
    // The `ptx-sync` command, as `cargo install` would put it on PATH.
    run(cargo().args(["build", "-q", "-p", "ptx-sync-host", "--bin", "ptx-sync"]));
    std::os::unix::fs::symlink(
        root().join("target/debug/ptx-sync"),
        dir.join("bin/ptx-sync"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        env::var("PATH").unwrap_or_default()
    );
    let tdir = root().join("target");
    let no_kernels = dir.join("no-kernels");
    std::fs::create_dir_all(&no_kernels).unwrap();
    // A user's shell: none of cargo's variables for this `cargo xtask` run, no tool paths.
    let user = |c: &mut Command, cwd: &Path| {
        c.current_dir(cwd);
        for (k, _) in env::vars_os() {
            let k = k.to_string_lossy().into_owned();
            let cargo_var = (k.starts_with("CARGO") && k != "CARGO_HOME")
                || k.starts_with("RUSTC")
                // Tool paths and build settings; `PTX_SYNC_HOME` (where the user's cache is,
                // that `ptx-sync setup` fills) is the user's own and stays.
                || (k.starts_with("PTX_SYNC_") && k != "PTX_SYNC_HOME")
                || ["RUSTFLAGS", "RUSTDOCFLAGS", "OUT_DIR", "RUSTUP_TOOLCHAIN"]
                    .contains(&k.as_str());
            if cargo_var {
                c.env_remove(&k);
            }
        }
        // The launcher library's own kernels as in a checkout where `cargo xtask ptx` never
        // ran (the binary standing for `cargo install` has them): its build must stay quiet.
        c.env("PATH", &path)
            .env("CARGO_TARGET_DIR", &tdir)
            .env("PTX_SYNC_PTX_DIR", &no_kernels);
    };
    let md = std::fs::read_to_string(root().join("docs/guide.md")).unwrap();
    let mut cwd = dir.clone();
    let mut seen = Vec::new();
    for step in guide_steps(&md) {
        let cmd = match step {
            GuideStep::File(name, body) => {
                let p = cwd.join(&name);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(&p, body).unwrap();
                continue;
            }
            GuideStep::Sh(c) => c,
        };
        eprintln!("xtask: guide: $ {cmd}");
        let words: Vec<&str> = cmd.split_whitespace().collect();
        if let Some(d) = cmd.strip_prefix("cd ") {
            cwd = cwd.join(d.trim());
            if !cwd.is_dir() {
                guide_fail(&format!("`{cmd}`: no directory {}", cwd.display()), "");
            }
            if cwd.join("Cargo.toml").is_file() && !cwd.join("Cargo.lock").exists() {
                std::fs::copy(
                    root().join("examples/handoff/Cargo.lock"),
                    cwd.join("Cargo.lock"),
                )
                .unwrap();
            }
            continue;
        }
        if let ["cargo", "install", "--path", p] = words[..] {
            let m = std::fs::read_to_string(cwd.join(p).join("Cargo.toml")).unwrap_or_default();
            if !m.contains("name = \"ptx-sync-host\"") {
                guide_fail(
                    &format!(
                        "`{cmd}` run from {} names no ptx-sync-host crate",
                        cwd.display()
                    ),
                    &m,
                );
            }
            seen.push("install".to_string());
            continue;
        }
        let mut c = Command::new("sh");
        c.arg("-c").arg(&cmd);
        user(&mut c, &cwd);
        if cmd == "cargo test" {
            let err = run_tests_stderr(&mut c, total, true);
            if !warnings(&err).is_empty() {
                guide_fail(
                    "building the user's crate for `cargo test` printed warnings",
                    &err,
                );
            }
            seen.push("test".to_string());
            continue;
        }
        let (ok, t) = output(&mut c);
        match words[..] {
            ["ptx-sync", "setup"] => {
                if !ok
                    || !t
                        .lines()
                        .any(|l| Path::new(l.trim()).join("ptxas").is_file())
                {
                    guide_fail(
                        "ptx-sync setup must print the tool directory (ptxas in it)",
                        &t,
                    );
                }
            }
            ["cargo", "new", ..] => {
                if !ok {
                    guide_fail(&format!("`{cmd}`"), &t);
                }
            }
            ["ptx-sync", "build", ..] => {
                guide_build(&cwd, ok, &t);
                // The page's claim about an older target: ptx-sync's own error, at once (built
                // where the handoff example's sm_80 test builds: `core` for sm_80 is shared).
                let mut c = Command::new("ptx-sync");
                c.args([
                    "build",
                    "--manifest-path",
                    "Cargo.toml",
                    "--arch",
                    "sm_80",
                    "--out",
                    "ptx80",
                    "--target-dir",
                ])
                .arg(root().join(NVPTX_DIR));
                user(&mut c, &cwd);
                let (ok, t) = output(&mut c);
                if ok || !t.contains("ptx-sync needs sm_90 and PTX ISA 8.6 or newer: build with `-C target-cpu=sm_90 -C target-feature=+ptx86`") {
                    guide_fail("--arch sm_80 must stop with ptx-sync's compile_error", &t);
                }
            }
            ["ptx-sync", "show", "--ptx", _] => guide_show(&md, ok, &t),
            ["cargo", "run"] => guide_run(&cwd, &tdir, ok, &t),
            ["ptx-sync", "check", f, ..] if f.ends_with(".ptx") => {
                // Step 7: the built kernel's PTX, checked: the page says `Observation mp Never`
                // and no `Flag` line.
                if !ok
                    || !t.contains("Observation mp Never")
                    || t.lines().any(|l| l.starts_with("Flag"))
                {
                    guide_fail("ptx-sync check FILE.ptx: mp Never, no flag", &t);
                }
            }
            ["ptx-sync", "check", ..] => {
                if !ok
                    || !t.contains("Observation mp Never")
                    || !t.contains("Observation mp-cta Sometimes")
                {
                    guide_fail("ptx-sync check: mp Never, mp-cta Sometimes", &t);
                }
            }
            _ => guide_fail(&format!("a command this runner does not know: `{cmd}`"), ""),
        }
        seen.push(words[1].to_string());
    }
    for want in [
        "install", "setup", "new", "test", "build", "show", "run", "check",
    ] {
        if !seen.iter().any(|s| s == want) {
            guide_fail(
                &format!("the page has no `{want}` step"),
                &format!("{seen:?}"),
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("xtask: guide: every step of docs/guide.md ran as it says");
}

/// `ptx-sync build … --out ptx`: both artifacts, the flag's strong accesses, no dynamic shared
/// memory, and no warning.
fn guide_build(k: &Path, ok: bool, t: &str) {
    if !ok || !k.join("ptx/mykernels.cubin").exists() {
        guide_fail("ptx-sync build did not write ptx/mykernels.{ptx,cubin}", t);
    }
    if !warnings(t).is_empty() {
        guide_fail("ptx-sync build printed warnings", t);
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
}

/// `ptx-sync show --ptx`: the flag's accesses, and the SASS the page's table promises for step 4
/// (the backquoted upper-case opcode in the row `| 4 |`).
fn guide_show(md: &str, ok: bool, t: &str) {
    if !ok || !t.contains("st.release.gpu") || !t.contains("ld.acquire.gpu") {
        guide_fail("ptx-sync show --ptx", t);
    }
    let row = md
        .lines()
        .find(|l| l.starts_with("| 4 |"))
        .unwrap_or_default();
    let sass: Vec<&str> = row
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            w.contains('.')
                && w.chars()
                    .all(|c| c.is_ascii_uppercase() || c == '.' || c.is_ascii_digit())
        })
        .collect();
    if sass.is_empty() {
        guide_fail("the table's step 4 names no SASS", row);
    }
    for s in sass {
        if !t.contains(s) {
            guide_fail(
                &format!("the table promises {s}; ptx-sync show --ptx shows"),
                t,
            );
        }
    }
}

/// `cargo run`: without a driver one line naming it, exit 1; no warning from the build; and
/// the launcher run where `ptx/` is missing names the file it could not read.
fn guide_run(k: &Path, tdir: &Path, ok: bool, t: &str) {
    let has_driver = [
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/lib64/libcuda.so.1",
    ]
    .iter()
    .any(|p| Path::new(p).exists());
    if !warnings(t).is_empty() {
        guide_fail("building the user's host crate printed warnings", t);
    }
    let last = t.lines().last().unwrap_or_default().to_string();
    if has_driver {
        if !ok && last.contains("no NVIDIA driver") {
            guide_fail(
                "cargo run: a driver is installed, yet it says there is none",
                t,
            );
        }
    } else if ok || !last.starts_with("mykernels: no NVIDIA driver") {
        guide_fail(
            "cargo run without a driver: one line `mykernels: no NVIDIA driver …`, exit 1",
            t,
        );
    }
    // Run from a directory without `ptx/` (the launcher reads the PTX before it opens the
    // device): the error names the file.
    let (ok, t) = output(Command::new(tdir.join("debug/mykernels")).current_dir(k.join("src")));
    if ok || !t.contains("ptx/mykernels.ptx") {
        guide_fail(
            "the launcher's missing-file error must name ptx/mykernels.ptx",
            &t,
        );
    }
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
    // The stable docs in the workspace's target directory: the dependencies' metadata is the one
    // `cargo clippy` built (RUSTDOCFLAGS reach rustdoc only). The nightly nvptx64 build has its
    // own directory (another toolchain, `-Zbuild-std`).
    run(cargo()
        .args(["doc", "-p", "ptx-sync", "--no-deps"])
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
        Some("tour") => tour(&args[1..]),
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
