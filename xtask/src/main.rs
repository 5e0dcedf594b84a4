//! `cargo xtask <command>` — set-up, device builds and the test suite of ptx-sync.
//!
//! * `setup`     — installs what is missing: nightly `rust-src`, and a project venv `.venv` with
//!   the PTX tools from PyPI (ptxas/nvcc 13.0 line, cuobjdump, nvdisasm, libcu++ headers).
//! * `ptx`       — builds `host/kernels` for nvptx64 (`kernels.ptx`, and `catalog.ptx` with every
//!   instruction variant), assembles both with ptxas for sm_90 (and kernels.sm_90a.cubin) and
//!   dumps the SASS; builds the architecture-specific catalog kernels for sm_90a and sm_100a
//!   (`catalog_sm90a.ptx`, `catalog_sm100a.ptx`, feature `catalog_arch`) and assembles each for
//!   its target; prints paths.
//! * `lint`      — `cargo fmt --all --check` (and `--check` of `host/kernels`, its own workspace)
//!   and `cargo clippy --workspace --all-targets -- -D warnings`.
//! * `test`      — `setup`, the kernels' PTX (what the host crate embeds), then the rest of `ptx`
//!   on one core while the other runs `lint` and builds the workspace's tests, then every test:
//!   the workspace (unit, integration, doc, compile-fail), `miri`, the loom suite (`--cfg
//!   loom`, release), the examples (their tests and loom models; `ptx` builds and assembles
//!   their kernels), `guide`, then `docs`.
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
mod docs;
mod guide;
#[path = "../../device/isa/gen/mod.rs"]
mod isa_gen;
mod kernels;
mod loc;
mod setup;
mod suite;
mod tools;

use std::env;
use std::path::{Path, PathBuf};
use std::process::{exit, Command};

use docs::*;
use guide::*;
use kernels::*;
use setup::*;
use suite::*;
use tools::*;

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
