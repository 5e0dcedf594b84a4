//! Every GPU subcommand of `ptx-sync` against a recording driver stub (`tests/stub/libcuda_stub.c`,
//! built here with `cc` into the test's tmp dir and found by cudarc's `dlopen("libcuda.so")`
//! through `LD_LIBRARY_PATH`). The stub logs each driver call with its arguments; the tests read
//! that log and check what a real driver would receive: launch configurations, the parameter
//! buffer field by field against the kernel's `.param` list in the PTX that `cargo xtask ptx`
//! built, `cuTensorMapEncodeTiled`'s arguments, that results are read back (the stub's kernels
//! write known values), where the timing events sit, and that every failure is one line and
//! exit 1 (exit 2 for bad input), never a panic.
//!
//! Needs `cc` and the built kernels (`cargo xtask ptx`); without them the tests fail, saying so.

#[path = "../common/mod.rs"]
mod common;

mod commands;
mod gpu_check;
mod litmus_files;

use common::{run_logged, stub, Call, Run};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

// ---- the stub (built by `common::stub`) ------------------------------------------------------

fn tmp(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stub-runs");
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

/// Runs `ptx-sync args` with the stub `variant` first on the library path and `env` set.
fn run(variant: &str, tag: &str, args: &[&str], env: &[(&str, &str)]) -> Run {
    let log = tmp(&format!("{tag}.log"));
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptx-sync"));
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    let (_, r) = run_logged(c, variant, &log);
    assert!(
        !r.err.contains("panicked") && r.code != Some(101),
        "{args:?} panicked:\n{}",
        r.err
    );
    r
}

/// `ptx-sync litmus PROG --iters ITERS --quiet` (a program name or a `.litmus` file) with the
/// full stub and `env` set.
fn litmus(tag: &str, prog: &str, iters: &str, env: &[(&str, &str)]) -> Run {
    run(
        "full",
        tag,
        &["litmus", prog, "--iters", iters, "--quiet"],
        env,
    )
}

/// `ptx-sync args --json FILE` with the full stub and `env` set, which exits 0: the run and the
/// JSON it wrote.
fn run_json(tag: &str, args: &[&str], env: &[(&str, &str)]) -> (Run, serde_json::Value) {
    let j = tmp(&format!("{tag}.json"));
    let mut a = args.to_vec();
    a.extend(["--json", j.to_str().unwrap()]);
    let r = run("full", tag, &a, env);
    r.exits(0);
    (r, json(&j))
}

impl Run {
    /// Asserts the exit code (prints stdout and stderr otherwise).
    fn exits(&self, code: i32) {
        assert_eq!(self.code, Some(code), "{}\n{}", self.out, self.err);
    }
    fn calls(&self, name: &str) -> Vec<&Call> {
        self.log.iter().filter(|c| c.name == name).collect()
    }
    fn launches(&self) -> Vec<&Call> {
        self.calls("cuLaunchKernelEx")
    }
    /// Size of the allocation at `ptr` live at `at` (the latest `cuMemAlloc_v2` before `at` that
    /// returned it).
    fn alloc_size(&self, at: &Call, ptr: u64) -> u64 {
        self.log[..at.idx]
            .iter()
            .rev()
            .find(|c| c.name == "cuMemAlloc_v2" && c.num("->") == ptr)
            .map(|c| c.num("bytes"))
            .unwrap_or_else(|| panic!("{ptr:#x} is not a cuMemAlloc_v2 pointer"))
    }
    /// Asserts that stdout contains `needle` (prints all of it otherwise).
    fn expect(&self, needle: &str) {
        assert!(
            self.out.contains(needle),
            "missing `{needle}` in:\n{}",
            self.out
        );
    }

    /// [`one_line_error`](Self::one_line_error), and no driver call was made (`what`: the case).
    fn refused(&self, code: i32, needle: &str, what: &str) {
        self.one_line_error(code, needle);
        assert!(
            self.log.is_empty(),
            "{what}: the driver was called: {:?}",
            self.log.first()
        );
    }

    fn one_line_error(&self, code: i32, needle: &str) {
        assert_eq!(self.code, Some(code), "stderr:\n{}", self.err);
        let lines: Vec<&str> = self.err.lines().collect();
        assert_eq!(lines.len(), 1, "want one line, got:\n{}", self.err);
        assert!(
            lines[0].starts_with("ptx-sync: ") && lines[0].contains(needle),
            "`{needle}` not in: {}",
            lines[0]
        );
    }
}

// ---- the kernels' PTX ---------------------------------------------------------------------

fn ptx() -> &'static str {
    static P: OnceLock<String> = OnceLock::new();
    P.get_or_init(|| {
        let dir = std::env::var("PTX_SYNC_PTX_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ptx"));
        let p = dir.join("kernels.ptx");
        std::fs::read_to_string(&p).unwrap_or_else(|e| {
            panic!(
                "{}: {e}: run `cargo xtask ptx` (cargo xtask test does)",
                p.display()
            )
        })
    })
}

/// Kernel `name`'s `.param` list in the PTX: (name, offset, size), offsets at each param's
/// alignment (PTX ISA §5.1.6.1 kernel parameters: the buffer is the params laid out in order).
fn params(name: &str) -> Vec<(String, usize, usize)> {
    let head = format!(".entry {name}(");
    let s = ptx()
        .find(&head)
        .unwrap_or_else(|| panic!("{name} not in kernels.ptx"))
        + head.len();
    let e = s + ptx()[s..].find(')').unwrap();
    let mut off = 0usize;
    let mut v = Vec::new();
    for p in ptx()[s..e]
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let toks: Vec<&str> = p.split_whitespace().collect();
        let pname = toks.last().unwrap().to_string();
        let (size, align) = if let Some(lb) = p.find('[') {
            let n: usize = p[lb + 1..p.find(']').unwrap()].parse().unwrap();
            let a = toks
                .iter()
                .position(|t| *t == ".align")
                .map(|k| toks[k + 1].parse().unwrap())
                .unwrap_or(1);
            (n, a)
        } else {
            let bits: usize = toks[1]
                .trim_start_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .unwrap();
            (bits / 8, bits / 8)
        };
        off = off.div_ceil(align) * align;
        v.push((pname, off, size));
        off += size;
    }
    v
}

/// The launch's parameter buffer decoded by the kernel's PTX `.param` list: one integer per
/// parameter, in order. Also checks the buffer's size is the list's.
/// The launch's parameter buffer: the bytes the stub logged in hex.
fn param_bytes(launch: &Call) -> Vec<u8> {
    let hex = launch.get("params");
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn decode(launch: &Call) -> Vec<u64> {
    let name = launch.get("fn");
    let bytes = param_bytes(launch);
    let ps = params(name);
    let (_, last_off, last_size) = ps.last().cloned().unwrap();
    assert_eq!(
        bytes.len(),
        last_off + last_size,
        "{name}: parameter buffer of {} bytes, the PTX's .param list takes {}",
        bytes.len(),
        last_off + last_size
    );
    assert_eq!(launch.num("param_bytes") as usize, bytes.len());
    ps.iter()
        .map(|(_, off, size)| {
            let mut b = [0u8; 8];
            b[..*size.min(&8)].copy_from_slice(&bytes[*off..off + size.min(&8)]);
            u64::from_le_bytes(b)
        })
        .collect()
}

fn dims(c: &Call, k: &str) -> Vec<u64> {
    c.get(k).split(',').map(|x| x.parse().unwrap()).collect()
}

fn json(path: &Path) -> serde_json::Value {
    let t = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&t).unwrap()
}
