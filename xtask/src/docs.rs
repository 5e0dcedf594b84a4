//! `docs`, `doc-coverage` and `isa`: the device crate's rustdoc checks, the share of public
//! functions with an example, and the docs tables the instruction rows generate.

use super::*;

/// One module's public functions: `(module, functions, with an example)`.
pub(super) type Coverage = (String, usize, usize);

/// The share of public functions and methods of the device crate whose doc comment has a code
/// block (an example, run as a doctest on the host backend), per module (`device/src/*.rs`).
/// A function is a line `pub [const] [unsafe] fn` outside macro templates; its doc comment is
/// the run of `///` and attribute lines right above it.
pub(super) fn doc_coverage() -> Vec<Coverage> {
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
pub(super) fn print_doc_coverage() {
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
pub(super) fn docs_check() {
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
pub(super) fn isa(check: bool) {
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
