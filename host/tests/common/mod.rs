//! Shared by the tests that run a program against the recording driver stub
//! (`tests/stub/libcuda_stub.c`, found by cudarc's `dlopen("libcuda.so")` through
//! `LD_LIBRARY_PATH`): `stub_driver/` (the `ptx-sync` binary) and `cuda_api.rs` (the public
//! `ptx_sync_host::cuda` API through an example): the stub built once per variant, and its call
//! log parsed.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::OnceLock;

/// One run of a program against the stub: exit code, stdout, stderr, the call log.
pub struct Run {
    pub code: Option<i32>,
    pub out: String,
    pub err: String,
    pub log: Vec<Call>,
}

/// Runs `c` with the stub `variant` first on the library path and its call log written to
/// `log` (removed first): the exit status and the [`Run`].
pub fn run_logged(mut c: Command, variant: &str, log: &Path) -> (ExitStatus, Run) {
    let _ = std::fs::remove_file(log);
    let o = c
        .env("LD_LIBRARY_PATH", stub(variant))
        .env("CUDA_STUB_LOG", log)
        .output()
        .expect("the program starts");
    let r = Run {
        code: o.status.code(),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
        log: parse_log(&std::fs::read_to_string(log).unwrap_or_default()),
    };
    (o.status, r)
}

/// Builds the stub in one variant once per test process; returns its directory (in the test's
/// tmp dir, named after the test binary, so that two test binaries never write the same file).
/// `"full"`; `"no-cuinit"` (`-DSTUB_NO_CUINIT`: a library without `cuInit`); `"pre-12.8"`
/// (`-DSTUB_NO_ELAPSED_V2`: no `cuEventElapsedTime_v2`).
pub fn stub(variant: &str) -> PathBuf {
    static BUILT: OnceLock<std::sync::Mutex<BTreeMap<String, PathBuf>>> = OnceLock::new();
    let mut m = BUILT.get_or_init(Default::default).lock().unwrap();
    if let Some(d) = m.get(variant) {
        return d.clone();
    }
    let flags: &[&str] = match variant {
        "full" => &[],
        "no-cuinit" => &["-DSTUB_NO_CUINIT"],
        "pre-12.8" => &["-DSTUB_NO_ELAPSED_V2"],
        v => panic!("unknown stub variant {v}"),
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cuda-stub-{}-{variant}", env!("CARGO_CRATE_NAME")));
    std::fs::create_dir_all(&dir).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/stub/libcuda_stub.c");
    let o = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .args(["-shared", "-fPIC", "-O1", "-Wall", "-Werror"])
        .args(flags)
        .arg("-o")
        .arg(dir.join("libcuda.so"))
        .arg(&src)
        .output()
        .unwrap_or_else(|e| panic!("cannot run cc to build the driver stub: {e}"));
    assert!(
        o.status.success(),
        "cc failed on {}:\n{}",
        src.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    m.insert(variant.into(), dir.clone());
    dir
}

/// One logged driver call: its name and `key=value` arguments (`-> v` as key `->`).
#[derive(Clone, Debug)]
pub struct Call {
    /// Position in the log.
    pub idx: usize,
    pub name: String,
    pub args: BTreeMap<String, String>,
    pub line: String,
}

impl Call {
    pub fn get(&self, k: &str) -> &str {
        self.args
            .get(k)
            .map(String::as_str)
            .unwrap_or_else(|| panic!("no `{k}` in: {}", self.line))
    }
    pub fn num(&self, k: &str) -> u64 {
        let v = self.get(k);
        if let Some(h) = v.strip_prefix("0x") {
            u64::from_str_radix(h, 16).unwrap()
        } else {
            v.parse()
                .unwrap_or_else(|_| panic!("`{k}={v}` is not a number"))
        }
    }
}

/// The stub's log, one [`Call`] a line.
pub fn parse_log(text: &str) -> Vec<Call> {
    text.lines()
        .enumerate()
        .map(|(idx, l)| {
            let mut toks = l.split_whitespace();
            let name = toks.next().unwrap_or("").to_string();
            let mut args = BTreeMap::new();
            let mut arrow = false;
            for t in toks {
                if t == "->" {
                    arrow = true;
                } else if arrow {
                    args.insert("->".to_string(), t.to_string());
                    arrow = false;
                } else if let Some((k, v)) = t.split_once('=') {
                    args.insert(k.to_string(), v.to_string());
                }
            }
            Call {
                idx,
                name,
                args,
                line: l.to_string(),
            }
        })
        .collect()
}
