//! `ptx` and `tour`: the nvptx builds of the kernels, catalogs and examples, assembled with ptxas
//! and dumped to SASS.

use super::*;

/// Builds the kernel crate once with the given features into `target/ptx/<name>.ptx`, through
/// `ptx-sync-build` (the one place that knows the nightly flags: `-Zbuild-std=core`, the nvptx64
/// target, `-Ctarget-cpu`, `+ptx86`, fat LTO, `panic = "abort"`, `-Zno-link --emit=asm`).
pub(super) fn build_kernels(name: &str, features: &str) -> PathBuf {
    build_kernels_for(name, features, SM)
}

/// [`build_kernels`] for another target CPU (`sm_90a`), in the same [`NVPTX_DIR`].
pub(super) fn build_kernels_for(name: &str, features: &str, arch: &str) -> PathBuf {
    let mut k = ptx_sync_build::KernelCrate::new(root().join("host/kernels"))
        .arch(arch)
        // sm_100a: PTX 8.7, for the `st.async`/`red.async` `.release` forms (st_async/release.rs)
        .ptx_version(if arch == "sm_100a" { 87 } else { 86 })
        .name(name)
        .out_dir(ptx_dir())
        .target_dir(root().join(NVPTX_DIR))
        // assemble_for() runs ptxas itself (its advisories, the SASS dump, the sm_90a cubin).
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

/// ptxas for `sm` into `cubin`; with `sass`, cuobjdump's SASS next to the PTX. Skipped when the
/// outputs were made from the same PTX text for the same `sm` by the same ptxas: the stamp next
/// to the cubin (`NAME.cubin.stamp`, written once ptxas succeeded) holds
/// `ptx_sync_build::testing::assembled_record` — which the tests that assemble the same built
/// PTX (`assemble_built` in `device/tests/common`) compare instead of running ptxas on it again
/// — then `sass` if the SASS was dumped. The builder rewrites the PTX on every run, and ptxas on
/// the catalog takes half a minute.
pub(super) fn assemble_for(ptx: &Path, sm: &str, cubin: &Path, sass: bool) {
    let stamp_path = cubin.with_extension("cubin.stamp");
    let ptxas = cuda_dir().expect("tools").join("bin/ptxas");
    let text = std::fs::read(ptx).unwrap_or_default();
    let Some(record) = ptx_sync_build::testing::assembled_record(&ptxas, sm, &text) else {
        eprintln!("xtask: cannot run {} --version", ptxas.display());
        exit(1)
    };
    let stamp = if sass { record + "sass\n" } else { record };
    let fresh = cubin.is_file()
        && (!sass || ptx.with_extension("sass").is_file())
        && std::fs::read_to_string(&stamp_path).is_ok_and(|s| s == stamp);
    if fresh {
        return;
    }
    // Gone first: a stamp stays only next to the cubin of its own successful run.
    let _ = std::fs::remove_file(&stamp_path);
    assemble_now(ptx, sm, cubin, sass);
    std::fs::write(&stamp_path, stamp).unwrap();
}

pub(super) fn assemble_now(ptx: &Path, sm: &str, cubin: &Path, sass: bool) {
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
pub(super) fn example_dirs() -> Vec<PathBuf> {
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
pub(super) fn examples_ptx() {
    for d in example_dirs() {
        // ptxas: found by the builder (PTX_SYNC_PTXAS, PATH, or the project venv above the crate).
        // Through the guide's link (`as_user`): the nvptx ptx-sync of the guide's `ptx-sync
        // build` (the same features and flags), built once for both.
        let a = ptx_sync_build::KernelCrate::new(as_user(&d))
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

pub(super) fn ptx() {
    let k = ptx_kernels();
    let rest = ptx_rest(&k);
    println!("{}", ptx_dir().join("kernels.sm_90a.cubin").display());
    for p in [&k].into_iter().chain(&rest) {
        println!("{}", p.display());
        println!("{}", p.with_extension("cubin").display());
        println!("{}", p.with_extension("sass").display());
    }
}

/// The first part of [`ptx`]: `kernels.ptx` and its sm_90a cubin, the two files the host crate's
/// build embeds (`host/build.rs`) — all `cargo build`/`cargo test` of the workspace need.
pub(super) fn ptx_kernels() -> PathBuf {
    let k = build_kernels("kernels", "");
    // The cubin the host binary embeds and loads first (H100/H200: compute capability 9.0).
    assemble_for(&k, "sm_90a", &ptx_dir().join("kernels.sm_90a.cubin"), false);
    k
}

/// The rest of [`ptx`], which only tests read (at run time): the kernels' sm_90 cubin and SASS,
/// the examples' kernels, the catalogs (every instruction variant) for sm_90, and the
/// architecture-specific catalogs for sm_90a and sm_100a. Returns the catalogs' PTX paths. Each
/// ptxas/cuobjdump run goes on a thread of its own while the next nvptx build runs (an nvptx
/// build is one crate at a time on one core, ptxas on the catalog takes half a minute on another).
pub(super) fn ptx_rest(k: &Path) -> Vec<PathBuf> {
    let mut jobs = Vec::new();
    let mut bg = |p: PathBuf, sm: &'static str| {
        jobs.push(std::thread::spawn(move || {
            assemble_for(&p, sm, &p.with_extension("cubin"), true)
        }))
    };
    bg(k.to_path_buf(), SM);
    let c = build_kernels("catalog", "catalog");
    bg(c.clone(), SM);
    examples_ptx();
    // The architecture-specific rows (`Variant::arch`): only their kernels (`catalog_arch`),
    // built and assembled for each `a` target.
    let mut out = vec![c];
    for (sm, name) in ARCH_CATALOGS {
        let p = build_kernels_for(name, "catalog_arch", sm);
        bg(p.clone(), sm);
        out.push(p);
    }
    for j in jobs {
        // `assemble_for` exits the process on a ptxas failure, after saying so.
        if j.join().is_err() {
            exit(1);
        }
    }
    out
}

/// `cargo xtask tour`: only what the tour shows — the kernels' PTX (which `ptx-sync` embeds and
/// reads the SASS of) and their sm_90a cubin (what a GPU runs) — then the binary in the dev
/// profile (the tour's run time is ptxas's; a release build would compile the dependency tree a
/// second time, next to the one `cargo build`/`cargo xtask test` use), saying what each step
/// does.
pub(super) fn tour(args: &[String]) {
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
    // `--workspace`: the features a workspace build resolves, so that this build is the one
    // `cargo build` and `cargo xtask test` make (`-p ptx-sync-host` alone drops ptx-sync's
    // `panic-handler` feature, which the loom suite asks for: a second ptx-sync and host crate).
    run(cargo().args(["build", "--workspace", "--bin", "ptx-sync"]));
    say("running `ptx-sync tour`");
    let mut c = Command::new(root().join("target/debug/ptx-sync"));
    c.current_dir(root()).arg("tour").args(args);
    tool_env(&mut c);
    run(&mut c);
}
