//! `ptx-sync build [--manifest-path P] [--arch A] [--out DIR]`: a kernel crate to PTX (and a
//! cubin when ptxas is found) through `ptx-sync-build`, the helper a `build.rs` calls. Prints the
//! artifact paths, one a line; exit 2 for a bad `--arch`/`--ptx-version`, 1 for a failed build
//! (the message names the fix).

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The kernel crate: its Cargo.toml or directory.
    #[arg(long, value_name = "P", default_value = "Cargo.toml")]
    manifest_path: PathBuf,
    /// GPU arch: rustc's -Ctarget-cpu and ptxas's -arch.
    #[arg(long, value_name = "A", default_value = "sm_90", value_parser = parse_arch)]
    arch: String,
    /// PTX ISA version as MAJOR*10+MINOR (-Ctarget-feature=+ptxNN); default 86 or the arch's
    /// minimum.
    #[arg(long, value_name = "NN")]
    ptx_version: Option<u32>,
    /// Where NAME.ptx and NAME.cubin go (default: the kernel crate's target/ptx).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Cargo features of the kernel crate (comma-separated).
    #[arg(long, value_name = "F", value_delimiter = ',')]
    features: Vec<String>,
    /// The nested cargo's --target-dir (default: the kernel crate's target/ptx-sync-build).
    #[arg(long, value_name = "DIR")]
    target_dir: Option<PathBuf>,
}

fn parse_arch(s: &str) -> Result<String, String> {
    ptx_sync_build::KernelCrate::new(".")
        .arch(s)
        .rustflags()
        .map(|_| s.to_string())
        .map_err(|e| e.message)
}

pub fn run(a: &BuildArgs) -> ExitCode {
    // A command is not a build script: the `OUT_DIR` that cargo sets for `cargo run` of a package
    // with a build script must not redirect the artifacts (the default is the crate's target/ptx).
    // SAFETY: `main` dispatches here before any thread starts (nothing reads the environment
    // concurrently).
    unsafe { std::env::remove_var("OUT_DIR") };
    let mut k = ptx_sync_build::KernelCrate::new(&a.manifest_path)
        .arch(&a.arch)
        .features(a.features.iter().cloned())
        .rerun_if_changed(false);
    if let Some(v) = a.ptx_version {
        k = k.ptx_version(v);
    }
    if let Some(d) = &a.out {
        k = k.out_dir(d);
    }
    if let Some(d) = &a.target_dir {
        k = k.target_dir(d);
    }
    match k.build() {
        Ok(art) => {
            eprint!("{}", art.log);
            for p in art.paths() {
                println!("{}", p.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ptx-sync: {e}");
            let config = e.kind == ptx_sync_build::ErrorKind::Config;
            ExitCode::from(if config { 2 } else { 1 })
        }
    }
}
