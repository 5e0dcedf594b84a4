//! `test`, `lint` and `miri`: the suite's steps, each counted and timed.

use super::*;

/// Runs a `cargo test` command, echoing its output, and returns the (passed, failed) counts of
/// its `test result:` lines. Exits on failure, after printing the counts so far.
pub(super) fn run_tests(cmd: &mut Command, total: &mut (u64, u64)) {
    run_tests_stderr(cmd, total, false);
}

/// [`run_tests`]; with `capture`, stderr (cargo's build output) is echoed and returned too.
pub(super) fn run_tests_stderr(cmd: &mut Command, total: &mut (u64, u64), capture: bool) -> String {
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
pub(super) fn lint() {
    run(cargo().args(["fmt", "--all", "--check"]));
    // `host/kernels` is its own workspace (nvptx64), which `--all` does not reach.
    run(cargo().args([
        "fmt",
        "--manifest-path",
        "host/kernels/Cargo.toml",
        "--check",
    ]));
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
pub(super) struct Steps {
    pub(super) t0: std::time::Instant,
    pub(super) rows: Vec<(&'static str, f64)>,
}

impl Steps {
    pub(super) fn new() -> Self {
        Steps {
            t0: std::time::Instant::now(),
            rows: Vec::new(),
        }
    }
    /// Runs step `name`, announcing it and recording its time.
    pub(super) fn run<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        eprintln!("xtask: test [{:>4} s]: {name}", self.t0.elapsed().as_secs());
        let t = std::time::Instant::now();
        let r = f();
        self.rows.push((name, t.elapsed().as_secs_f64()));
        r
    }
    pub(super) fn print(&self) {
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

pub(super) fn test() {
    let mut steps = Steps::new();
    steps.run("setup", setup);
    // The loom suite's build (release, `--cfg loom`, its own target directory) in the background
    // from the start: builds take turns on the two cores instead of leaving one idle while
    // a long crate compiles alone (ptx-sync-model, the device crate).
    let has_loom_tests = root()
        .join("loom-tests/tests")
        .read_dir()
        .map(|mut d| d.next().is_some())
        .unwrap_or(false);
    let loom_build = has_loom_tests.then(|| {
        std::thread::spawn(|| {
            run(&mut loom_suite(&["--no-run", "--quiet"]));
            // Then the examples' loom models (same directory and flags; each builds ptx-sync
            // again in release, a path dependency outside its workspace): built when their step
            // comes.
            for d in example_dirs() {
                if d.join("tests/loom.rs").exists() {
                    run(&mut example_loom(&d, &["--no-run", "--quiet"]));
                }
            }
        })
    });
    // What the workspace's build needs of the nvptx side first (`host/build.rs` embeds it), then
    // the rest of `ptx` (catalogs, examples' kernels, ptxas: read by the tests at run time only,
    // and mostly one core busy) while the other core lints and builds the workspace's tests.
    let k = steps.run("ptx: kernels", ptx_kernels);
    steps.run("ptx rest | lint, test build", || {
        let rest = std::thread::spawn(move || ptx_rest(&k));
        lint();
        run(cargo().args(["test", "--workspace", "--no-run"]));
        if rest.join().is_err() {
            exit(1);
        }
    });
    let mut total = (0u64, 0u64);
    // Workspace: unit, integration, doc and compile-fail tests (host backend); beside them, Miri
    // and the loom suite, which have target directories of their own (cargo holds the
    // workspace's for as long as its tests run) and fill the core that the workspace's long
    // single tests leave idle.
    steps.run("workspace tests | miri, loom suite", || {
        let side = std::thread::spawn(move || {
            let mut t = (0u64, 0u64);
            // Miri: the host backend's unsafe paths (aliasing, lifetimes, data races).
            miri(&mut t);
            // Loom suite: the seed's programs model-checked from the same source.
            if let Some(b) = loom_build {
                if b.join().is_err() {
                    exit(1);
                }
                run_tests(&mut loom_suite(&[]), &mut t);
            }
            t
        });
        run_tests(
            cargo().args(["test", "--workspace", "--no-fail-fast"]),
            &mut total,
        );
        let t = side.join().unwrap_or_else(|_| exit(1));
        total.0 += t.0;
        total.1 += t.1;
    });
    // Examples: each is its own crate, as a user's would be: its tests, then its loom model
    // (`tests/loom.rs`; `examples/ports`, a line-count study, has none).
    steps.run("examples", || {
        for d in example_dirs() {
            let err = run_tests_stderr(
                cargo()
                    .args(["test", "--manifest-path"])
                    // Through the guide's link (`user_root`): the ptx-sync, model and host
                    // crates the guide's crate builds, built once for both.
                    .arg(as_user(&d).join("Cargo.toml"))
                    // The workspace's own target directory: the registry crates the workspace's
                    // tests built (cargo keys units by package, features and flags, so the
                    // examples' own lock files and feature sets sit side by side with it).
                    .arg("--target-dir")
                    .arg(root().join("target"))
                    // As the guide's builds have it (the host crate's build script reads it).
                    .env("PTX_SYNC_PTX_DIR", no_kernels_dir()),
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
            run_tests(&mut example_loom(&d, &[]), &mut total);
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

/// `cargo test` of the loom suite: the seed's programs model-checked from the same source
/// (release, `--cfg loom`, in `target/loom`), with `extra` arguments.
fn loom_suite(extra: &[&str]) -> Command {
    let mut c = cargo();
    c.args(["test", "-p", "ptx-sync-loom-tests", "--release"])
        .args(extra)
        .arg("--target-dir")
        .arg(root().join("target/loom"))
        .env("RUSTFLAGS", "--cfg loom");
    c
}

/// `cargo test` of example `d`'s loom model (`tests/loom.rs`) with `extra` arguments: the loom
/// suite's directory and flags (`--cfg loom`, release).
fn example_loom(d: &Path, extra: &[&str]) -> Command {
    let mut c = cargo();
    c.args([
        "test",
        "--release",
        "--no-default-features",
        "--test",
        "loom",
    ])
    .args(extra)
    .arg("--manifest-path")
    .arg(d.join("Cargo.toml"))
    .arg("--target-dir")
    .arg(root().join("target/loom"))
    .env("RUSTFLAGS", "--cfg loom");
    c
}

/// The test files Miri runs: the host backend's unsafe paths — `ClusterShared`'s per-CTA copies
/// and `mapa`, `shared_array!`/`dynamic_smem` inside `index::launch`, its supervision (panics,
/// deadlocks), the mbarrier and pipeline run-time checks (issue #21).
pub(super) const MIRI_TESTS: &[&str] = &["host_safety"];

/// Tests of those files Miri skips, each for its time: `the_largest_cta_runs` interprets 1024
/// threads (most of a minute) and reaches no unsafe path the smaller launches do not.
pub(super) const MIRI_SKIP: &[&str] = &["the_largest_cta_runs"];

/// `cargo +nightly miri test -p ptx-sync --test …` under Stacked Borrows, then Tree Borrows.
/// Flags: `-Zmiri-permissive-provenance`, because the host backend hands shared memory out as
/// integer addresses by design (`SharedAddr(usize)`, `mapa` through `ClusterShared`'s table, a
/// CTA's `shared_array!` copy) and rebuilds pointers from them: Miri then accepts the
/// int-to-pointer casts of exposed allocations (without a warning per cast) and still checks
/// every access against its allocation and the aliasing model; `-Zmiri-tree-borrows` for the
/// second run. Isolation stays on (the barriers' timed waits use Miri's virtual clock).
pub(super) fn miri(total: &mut (u64, u64)) {
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
