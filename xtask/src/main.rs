//! `cargo xtask <command>` — set-up, device builds and the test suite of ptx-sync.
//!
//! * `setup`     — installs what is missing: nightly `rust-src`, and a project venv `.venv` with
//!   the PTX tools from PyPI (ptxas/nvcc 13.0 line, cuobjdump, nvdisasm, libcu++ headers).
//! * `ptx`       — builds `host/kernels` for nvptx64 (`kernels.ptx`, and `catalog.ptx` with every
//!   instruction variant), assembles both with ptxas for sm_90a and dumps the SASS; prints paths.
//! * `test`      — `setup`, `ptx`, then every test: the workspace (unit, integration, doc,
//!   compile-fail), the loom suite (`--cfg loom`, release) and the examples.
//! * `tour`      — `setup`, `ptx`, then `ptx-sync tour` (the main job).
//! * `gpu-check` — builds everything here and prints the one command to run on a GPU machine.
//! * `env`       — prints the environment variables the tests read.
//! * `loc`       — lines of Rust per crate and module (`--markdown`: the README's Layout table;
//!   `--update-readme`: rewrite it; `--check`: fail if its rows differ from the count).
//!
//! Environment handed to tests: `PTX_SYNC_TOOLS` (directory with ptxas, nvcc, cuobjdump,
//! nvdisasm), `PTX_SYNC_CUDA_INCLUDE` (CUDA/libcu++ headers), `PTX_SYNC_PTX_DIR` (the built
//! `.ptx`, `.cubin`, `.sass`).

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
    let mut k = ptx_sync_build::KernelCrate::new(root().join("host/kernels"))
        .arch(SM)
        .ptx_version(86)
        .name(name)
        .out_dir(ptx_dir())
        .target_dir(root().join("target/nvptx"))
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
        .arg(&cubin)
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

fn ptx() {
    let k = build_kernels("kernels", "");
    assemble(&k);
    // The cubin the host binary embeds and loads first (H100/H200: compute capability 9.0).
    assemble_for(&k, "sm_90a", &ptx_dir().join("kernels.sm_90a.cubin"), false);
    let c = build_kernels("catalog", "catalog");
    assemble(&c);
    println!("{}", ptx_dir().join("kernels.sm_90a.cubin").display());
    for p in [&k, &c] {
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

fn test() {
    setup();
    ptx();
    let mut total = (0u64, 0u64);
    // Workspace: unit, integration, doc and compile-fail tests (host backend).
    run_tests(
        cargo().args(["test", "--workspace", "--no-fail-fast"]),
        &mut total,
    );
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
    // Examples: each is its own crate, as a user's would be.
    if let Ok(rd) = std::fs::read_dir(root().join("examples")) {
        let mut dirs: Vec<_> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.join("Cargo.toml").exists())
            .collect();
        dirs.sort();
        for d in dirs {
            run_tests(
                cargo()
                    .args(["test", "--manifest-path"])
                    .arg(d.join("Cargo.toml"))
                    .arg("--target-dir")
                    .arg(root().join("target/examples")),
                &mut total,
            );
        }
    }
    // The closing line CI reads: every test of every suite above.
    println!("total: {} passed, {} failed", total.0, total.1);
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("setup") => setup(),
        Some("ptx") => {
            setup();
            ptx()
        }
        Some("test") => test(),
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
        Some("env") => {
            let mut c = Command::new("env");
            tool_env(&mut c);
            run(&mut c);
        }
        _ => {
            eprintln!("usage: cargo xtask <setup|ptx|test|tour|gpu-check|env|loc>");
            exit(2)
        }
    }
}
