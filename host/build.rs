//! Embeds the kernels (built by `cargo xtask ptx`) into the `ptx-sync` binary: the PTX
//! (`kernels.ptx`) and its ptxas output for sm_90a (`kernels.sm_90a.cubin`).
//!
//! Looks in `$PTX_SYNC_PTX_DIR`, else `<workspace>/target/ptx`. A missing file is embedded as an
//! empty one so that the binary still builds on a fresh checkout (its GPU commands then say
//! "kernels not built: run `cargo xtask ptx`"), without a warning: this crate is a dependency of
//! users' host crates too (`ptx_sync_host::cuda`), whose builds must stay quiet. The host's tests
//! (`gpu::tests::kernels_are_embedded`, the stub-driver suite) fail on such a build, naming the
//! command — nothing passes without the kernels.
//!
//! Also embeds the list of loom tests (`loom-tests/tests/*.rs`: file, test name, whether it
//! expects a panic) as `$OUT_DIR/loom_tests.rs`, so that `ptx-sync tour` names the loom test of
//! each step without reading the source tree at run time.

use std::path::PathBuf;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(ptx_sync_kernels)");
    println!("cargo:rerun-if-env-changed=PTX_SYNC_PTX_DIR");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let dir = std::env::var_os("PTX_SYNC_PTX_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../target/ptx"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    // Once both files are there, only they count: `cargo xtask ptx` writes the catalogs, the
    // examples' kernels and the SASS dumps into the same directory, which the binary does not
    // embed (a rebuild of the host crate and its tests for each of those). While one is missing,
    // the directory instead (cargo watches the newest mtime under it): rerun when it appears —
    // and not on every build, as cargo does for a watched file that does not exist.
    let embedded = ["kernels.ptx", "kernels.sm_90a.cubin"];
    if embedded.iter().all(|f| dir.join(f).is_file()) {
        for f in embedded {
            println!("cargo:rerun-if-changed={}", dir.join(f).display());
        }
    } else {
        println!("cargo:rerun-if-changed={}", dir.display());
    }
    loom_tests(
        &manifest.join("../loom-tests/tests"),
        &out_dir.join("loom_tests.rs"),
    );
    for (src, dst) in [
        ("kernels.ptx", "kernels.ptx"),
        ("kernels.sm_90a.cubin", "kernels.cubin"),
    ] {
        let src = dir.join(src);
        match std::fs::read(&src) {
            Ok(bytes) if !bytes.is_empty() => {
                std::fs::write(out_dir.join(dst), &bytes).unwrap();
                if dst == "kernels.ptx" {
                    println!("cargo:rustc-cfg=ptx_sync_kernels");
                }
            }
            // Silently: this crate is also a dependency of users' host crates (the launcher
            // API), whose builds must not warn about the checkout's own kernels.
            _ => std::fs::write(out_dir.join(dst), b"").unwrap(),
        }
    }
}

/// Writes `LOOM_TESTS: &[(file, test, should_panic)]`, every `#[test]` function of `dir/*.rs` in
/// file order then source order.
fn loom_tests(dir: &std::path::Path, out: &std::path::Path) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "rs"));
    files.sort();
    let mut rows = String::new();
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let src = std::fs::read_to_string(f).unwrap();
        let fname = f.file_name().unwrap().to_string_lossy().to_string();
        // Attributes seen since the last item: `#[test]`, `#[should_panic...]`.
        let (mut test, mut panics) = (false, false);
        for line in src.lines() {
            let l = line.trim_start();
            if l == "#[test]" {
                test = true;
            } else if l.starts_with("#[should_panic") {
                panics = true;
            } else if let Some(rest) = l.strip_prefix("fn ") {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if test {
                    rows.push_str(&format!("    ({fname:?}, {name:?}, {panics}),\n"));
                }
                (test, panics) = (false, false);
            }
        }
    }
    std::fs::write(
        out,
        format!("/// Every loom test: (file, name, expects a panic).\npub const LOOM_TESTS: &[(&str, &str, bool)] = &[\n{rows}];\n"),
    )
    .unwrap();
}
