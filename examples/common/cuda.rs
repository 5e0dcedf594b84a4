//! Shared by the examples' `tests/cuda.rs`: compiles an example's CUDA C++ (libcu++) twin with
//! the venv's nvcc (`nvcc -arch=sm_90 -ptx`), and counts the lines of the Rust kernel source and
//! of the CUDA C++ one for `examples/README.md`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The example's directory.
pub fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory with nvcc: `PTX_SYNC_TOOLS` (set by `cargo xtask test`), else the project
/// venv's `nvidia/cu13/bin`.
pub fn tools() -> PathBuf {
    if let Some(d) = std::env::var_os("PTX_SYNC_TOOLS") {
        return PathBuf::from(d);
    }
    let lib = here().join("../../.venv/lib");
    let found = std::fs::read_dir(&lib).ok().and_then(|rd| {
        rd.flatten()
            .map(|e| e.path().join("site-packages/nvidia/cu13/bin"))
            .find(|p| p.join("nvcc").exists())
    });
    found.unwrap_or_else(|| panic!("no nvcc: run `cargo xtask setup` in the ptx-sync repository (it installs the venv), or set PTX_SYNC_TOOLS"))
}

/// `nvcc -arch=sm_90 -ptx -O3 -I <cccl> FILE.cu -o OUT.ptx`; the PTX text. Panics with nvcc's
/// output on failure.
pub fn nvcc_ptx(cu: &Path) -> String {
    let bin = tools();
    let inc = bin.join("../include/cccl");
    let out = std::env::temp_dir().join(format!(
        "ptx-sync-example-{}-{}.ptx",
        cu.file_stem().unwrap().to_string_lossy(),
        std::process::id()
    ));
    let o = std::process::Command::new(bin.join("nvcc"))
        .env("PATH", format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default()))
        .args(["-arch=sm_90", "-ptx", "-O3", "-I"])
        .arg(&inc)
        .arg(cu)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run nvcc");
    assert!(
        o.status.success(),
        "nvcc failed on {}:\n{}",
        cu.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    let ptx = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    ptx
}

/// Lines that are neither blank nor only a comment (`//`, `///`, `//!`).
pub fn code_lines(src: &str) -> usize {
    src.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .count()
}

/// `| name | rust | cuda | ratio |` — the row of examples/README.md's table.
pub fn loc_row(name: &str, rust: &Path, cuda: &Path) -> (String, f64) {
    let r = code_lines(&std::fs::read_to_string(rust).unwrap());
    let c = code_lines(&std::fs::read_to_string(cuda).unwrap());
    let ratio = r as f64 / c as f64;
    (format!("| {name} | {r} | {c} | {ratio:.2} |"), ratio)
}

/// Asserts that examples/README.md has this example's row, as counted now, and that the Rust
/// kernel is at most 1.3 × the CUDA C++ one.
pub fn check_loc(name: &str, rust: &str, cuda: &str) {
    let (row, ratio) = loc_row(name, &here().join(rust), &here().join(cuda));
    println!("{row}");
    let readme = std::fs::read_to_string(here().join("../README.md")).unwrap();
    assert!(
        readme.lines().any(|l| l.trim() == row),
        "examples/README.md must have the row {row:?} (the counts changed: update the table)"
    );
    assert!(ratio <= 1.3, "{name}: Rust is {ratio:.2}× the CUDA C++ lines (goal ≤ 1.3×)");
}

#[test]
fn code_lines_skips_blanks_and_comments() {
    assert_eq!(code_lines("// a\n\n  /// b\nfn f() {}\n  //! c\n  x; // trailing\n"), 2);
}
