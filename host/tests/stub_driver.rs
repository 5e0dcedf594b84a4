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

mod common;

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

// ---- the tests ----------------------------------------------------------------------------

#[test]
fn devices_lists_the_stub_device() {
    let (r, v) = run_json("devices", &["devices"], &[]);
    r.expect("CUDA driver 13.0; 1 device(s)");
    r.expect("ptx-sync stub H200 (sm_90), 132 SMs, 141.0 GiB, cluster launch: yes");
    assert_eq!(v[0]["compute_capability"], serde_json::json!([9, 0]));
    assert_eq!(v[0]["sms"], 132);
    // cuInit comes first, and each attribute the report shows was asked for.
    assert_eq!(r.log[0].name, "cuInit");
    let attrs: Vec<u64> = r
        .calls("cuDeviceGetAttribute")
        .iter()
        .map(|c| c.num("attr"))
        .collect();
    for a in [16, 39, 75, 76, 120] {
        assert!(attrs.contains(&a), "attribute {a} not queried: {attrs:?}");
    }
}

/// `litmus sb_sc`: grid = resident CTAs (the stub answers 1 per SM × 132 SMs), 256 threads, no
/// shared memory, no cluster; each parameter what the host allocated or computed; the results
/// the stub's kernel wrote are read back into the histogram.
#[test]
fn litmus_launches_match_the_ptx_and_results_are_read_back() {
    let (r, v) = run_json(
        "litmus-sb",
        &["litmus", "sb_sc", "--iters", "2", "--quiet"],
        &[
            ("CUDA_STUB_LITMUS_OUT", "1,0,0,0"),
            ("CUDA_STUB_LITMUS_SYNC", "3,5"),
        ],
    );
    let ls = r.launches();
    assert_eq!(ls.len(), 2, "--iters 2 is two launches");
    let names: Vec<String> = params("litmus_sb_sc").into_iter().map(|p| p.0).collect();
    assert_eq!(names.len(), 13, "{names:?}");
    let (threads, instances) = (132u64 * 256, 132 * 256 / 2 / 2);
    for l in &ls {
        assert_eq!(l.get("fn"), "litmus_sb_sc");
        assert_eq!(dims(l, "grid"), [132, 1, 1]);
        assert_eq!(dims(l, "block"), [256, 1, 1]);
        assert_eq!(l.num("smem"), 0);
        assert_eq!(l.get("attrs"), "[]");
        assert_eq!(l.get("kernel_params"), "null");
        let p = decode(l);
        // slots, mem, locs, out, scratch, sync: device allocations of the sizes the kernel
        // indexes (litmus.rs's parameter table).
        assert_eq!(
            p[4], p[1],
            "the stress works on the instances' own lines (scratch = mem)"
        );
        for (i, bytes, what) in [
            (0, threads * 4, "slots: one word per thread"),
            (1, instances * 2 * 32 * 4, "mem: 2 vars, 32 words apart"),
            (2, instances * 4, "locs: one per instance"),
            (3, instances * 16, "out: 4 words per instance"),
            (4, p[9] * 4, "scratch: scratch_words words"),
            (
                5,
                (4 + 2 * instances) * 4,
                "sync: 4 counters + a start barrier and a done count per instance",
            ),
        ] {
            assert_eq!(r.alloc_size(l, p[i]), bytes, "{what}");
        }
        assert_eq!(p[6], 5_000_000, "budget_ns: the default 5000 µs");
        assert_eq!(p[7], instances, "n_instances");
        assert_eq!(p[8], 32, "stride");
        assert_eq!(p[9], instances * 2 * 32, "scratch_words: all of mem");
        assert_eq!(p[10], 2 * instances, "n_testers: 2 roles per instance");
        assert_eq!(p[11], 1 << 16, "stress_iters");
    }
    assert_ne!(
        decode(ls[0])[12],
        decode(ls[1])[12],
        "a fresh seed per launch"
    );
    // After each launch the host reads `out` back whole.
    for (k, c) in r
        .log
        .iter()
        .enumerate()
        .filter(|(_, c)| c.name == "cuLaunchKernelEx")
    {
        let out = decode(c)[3];
        let back = r.log[k..]
            .iter()
            .find(|x| x.name == "cuMemcpyDtoH_v2")
            .expect("a read-back after the launch");
        assert_eq!((back.num("src"), back.num("bytes")), (out, instances * 16));
    }
    // The stub's kernel wrote r1=1 r2=0 into every instance: that is the whole histogram.
    let rows = v[0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["outcome"], "r1=1 r2=0");
    assert_eq!(rows[0]["count"], 2 * instances);
    // The timeout counters are read back after each launch and summed.
    assert_eq!(v[0]["start_barrier_timeouts"], 2 * 3);
    assert_eq!(v[0]["stress_timeouts"], 2 * 5);
    r.expect("start barriers timed out for 6 tester(s)");
    // Testers: 2 roles × instances threads in CTAs without stress; stress: whole CTAs.
    for l in &ls {
        let p = decode(l);
        assert_eq!(p[10], 2 * instances);
    }
}

/// `--sweep`: one run per parameter point, each with its own placement and stride; the
/// calibration line says per point whether SB's weak outcome showed.
#[test]
fn litmus_sweep_and_calibration() {
    let (r, v) = run_json(
        "sweep",
        &["litmus", "sb_plain", "--sweep", "--iters", "1", "--quiet"],
        &[("CUDA_STUB_LITMUS_OUT", "0,0,0,0")],
    );
    let pts: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["point"].as_str().unwrap())
        .collect();
    assert_eq!(pts.len(), 4, "{pts:?}");
    assert_eq!(pts[0], "stress 50% of CTAs, a line per variable");
    let strides: Vec<u64> = r.launches().iter().map(|l| decode(l)[8]).collect();
    assert_eq!(strides, [32, 32, 2, 32]);
    let stress: Vec<u64> = r.launches().iter().map(|l| decode(l)[11]).collect();
    assert_eq!(
        stress,
        [1 << 16, 1 << 16, 1 << 16, 0],
        "the last point runs without stress"
    );
    let testers: Vec<u64> = r.launches().iter().map(|l| decode(l)[10]).collect();
    assert_eq!(
        testers[1] * 2,
        testers[0],
        "75% stress: half the testers of 50%"
    );
    assert_eq!(
        r.out.matches("the stress is effective").count(),
        4,
        "{}",
        r.out
    );
    // The pre-stress quorum written into sync[0] before each launch: half the stress threads
    // (66 of 132 CTAs stress at 50%, 99 at 75%; none without stress).
    let quorums: Vec<u64> = r
        .launches()
        .iter()
        .map(|l| {
            let sync = decode(l)[5];
            r.log[..l.idx]
                .iter()
                .rev()
                .find(|c| c.name == "cuMemcpyHtoD_v2" && c.num("dst") == sync)
                .map(|c| {
                    assert_eq!(c.num("bytes"), 4);
                    c.num("first")
                })
                .expect("the quorum is written")
        })
        .collect();
    assert_eq!(quorums, [66 * 256 / 2, 99 * 256 / 2, 66 * 256 / 2, 0]);
    let r = litmus(
        "sweep-none",
        "sb_plain",
        "1",
        &[("CUDA_STUB_LITMUS_OUT", "1,1,0,0")],
    );
    r.expect("calibration: sb_plain (SB without fences) showed no weak outcome in");
    r.expect("the stress is ineffective here");
}

/// The once-form of MP: word 1 is the flag as C read it; a stale read with the flag set is a
/// violation of the correct variant, a read before P's store is not.
#[test]
fn mp_once_reads_flag_and_data_back() {
    let once = |tag, out| {
        litmus(
            tag,
            "mp_rel_acq_once",
            "1",
            &[("CUDA_STUB_LITMUS_OUT", out)],
        )
    };
    let r = once("once-stale", "0,1,0,0");
    r.exits(3);
    r.expect("full=1, data=0 (stale)");
    r.expect("random delay (nanosleep.u32 t, t in 0..2047)");
    let r = once("once-early", "0,0,0,0");
    r.exits(0);
    r.expect("full=0 (read before P's store), data=0");
    assert_eq!(r.launches()[0].get("fn"), "litmus_mp_rel_acq_once");
}

/// Instances that never reported (their done count, `sync[4 + n + i]`, below the program's
/// roles) are counted apart: their output words are the host's zero fill, which for SB would read
/// as its forbidden outcome `r1=0 r2=0`. Here the stub's kernel runs all but the last 1000
/// instances with r1=1 r2=0: no forbidden outcome, 1000 unreported per launch, exit 0.
#[test]
fn instances_that_never_reported_are_counted_apart() {
    let (r, v) = run_json(
        "litmus-unreported",
        &["litmus", "sb_sc", "--iters", "2", "--quiet"],
        &[
            ("CUDA_STUB_LITMUS_OUT", "1,0,0,0"),
            ("CUDA_STUB_LITMUS_UNREPORTED", "1000"),
        ],
    );
    let instances = 132 * 256 / 2 / 2;
    let rows = v[0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["outcome"], "r1=1 r2=0");
    assert_eq!(rows[0]["count"], 2 * (instances - 1000));
    assert_eq!(v[0]["unreported"], 2 * 1000);
    assert_eq!(v[0]["rounds"], 2 * (instances - 1000));
    assert!(!r.out.contains("r1=0 r2=0"), "{}", r.out);
    r.expect(
        "2,000 instance(s) never reported (a role did not finish): counted apart, not as outcomes",
    );
    r.expect("; 2,000 instance(s) never reported");
    // The done counts are read back with the counters: the whole sync buffer after each launch.
    for l in r.launches() {
        let sync = decode(l)[5];
        let back = r.log[l.idx..]
            .iter()
            .find(|c| c.name == "cuMemcpyDtoH_v2" && c.num("src") == sync)
            .expect("sync read back");
        assert_eq!(back.num("bytes"), (4 + 2 * instances) * 4);
    }
}

#[test]
fn litmus_outcomes_decide_the_exit_code() {
    // A forbidden outcome in a correct program: exit 3.
    let r = litmus(
        "litmus-forbidden",
        "sb_sc",
        "1",
        &[("CUDA_STUB_LITMUS_OUT", "0,0,0,0")],
    );
    r.exits(3);
    r.expect("r1=0 r2=0");
    assert!(
        r.err
            .contains("a correct program showed a forbidden outcome"),
        "{}",
        r.err
    );
    // Every instance timed out: classified as timeouts, not as outcomes.
    let r = litmus(
        "litmus-timeout",
        "mp_rel_acq",
        "1",
        &[("CUDA_STUB_LITMUS_OUT", "0,0,0,2")],
    );
    r.exits(0);
    r.expect("timeout: C never saw full == 1");
    assert!(!r.out.contains("data=0"), "{}", r.out);
}

#[test]
fn handoff_runs_every_program_of_its_version() {
    let r = run(
        "full",
        "handoff",
        &["handoff", "--version", "3.4", "--iters", "1", "--quiet"],
        &[("CUDA_STUB_LITMUS_OUT", "42,42,1,0")],
    );
    r.exits(0);
    let fns: Vec<&str> = r.launches().iter().map(|l| l.get("fn")).collect();
    assert_eq!(
        fns,
        [
            "litmus_handoff_3_4_no_sc",
            "litmus_handoff_3_4_no_c2_release",
            "litmus_handoff_3_4"
        ]
    );
    for l in r.launches() {
        let p = decode(l);
        let instances = 132 * 256 / 2 / 3;
        assert_eq!(p[7], instances, "3 roles per instance");
        assert_eq!(
            r.alloc_size(l, p[1]),
            instances * 6 * 32 * 4,
            "6 variables per instance"
        );
    }
    r.expect("value1=42 value2=42, P wrote 43");
}

/// `copy`: the tensor map's arguments, the launch, the read-back check, and the timing window —
/// the stub's clock moves 1 ms per launch, 0.5 ms per DtoD copy and 100 ms for most other calls,
/// so a median of exactly 1 ms proves the events enclose the launch alone.
#[test]
fn copy_encodes_the_map_launches_checks_and_times_the_launch_alone() {
    let (r, v) = run_json("copy", &["copy", "--bytes", "1M", "--stages", "2"], &[]);
    let tm = r.calls("cuTensorMapEncodeTiled");
    assert_eq!(tm.len(), 1);
    let t = tm[0];
    let (rows, cols) = (64u64, 4096u64); // 1 MiB of u32 in 16 KiB rows
    assert_eq!(t.num("dtype"), 2, "CU_TENSOR_MAP_DATA_TYPE_UINT32");
    assert_eq!(t.num("rank"), 2);
    assert_eq!(dims(t, "dims"), [cols, rows], "innermost first");
    assert_eq!(dims(t, "strides"), [cols * 4], "row pitch in bytes");
    assert_eq!(dims(t, "box"), [64, 32], "64 × 32 u32 tiles");
    assert_eq!(dims(t, "elem_strides"), [1, 1]);
    assert_eq!(
        (
            t.num("interleave"),
            t.num("swizzle"),
            t.num("l2"),
            t.num("oob")
        ),
        (0, 0, 2, 0)
    );
    assert_eq!(t.num("map_aligned64"), 1);
    assert_eq!(
        r.alloc_size(t, t.num("addr")),
        rows * cols * 4,
        "the source tensor"
    );
    let ls = r.launches();
    assert_eq!(ls.len(), 2 + 9, "2 warm-up runs and 9 samples");
    for l in &ls {
        assert_eq!(l.get("fn"), "tiled_copy_s2");
        assert_eq!(
            dims(l, "grid"),
            [128, 1, 1],
            "one CTA per tile: 64 × 2 tiles"
        );
        assert_eq!(
            dims(l, "block"),
            [160, 1, 1],
            "a producer warp and 128 consumers"
        );
        assert_eq!(l.num("smem"), 2 * 8192, "two 8 KiB stages");
        assert_eq!(l.get("attrs"), "[]");
        let p = decode(l);
        assert_eq!(r.alloc_size(l, p[0]), 128, "the uploaded CUtensorMap");
        assert_eq!(r.alloc_size(l, p[1]), rows * cols * 4, "out");
        assert_eq!((p[2], p[3]), (cols, rows), "width, height");
        assert_eq!(r.alloc_size(l, p[4]), 16, "status");
    }
    // Events immediately around each launch: record, launch, record (the stub's own `effect`
    // lines are the kernel running, not driver calls).
    let calls: Vec<&Call> = r.log.iter().filter(|c| c.name != "effect").collect();
    let mut windows = 0;
    for k in (0..calls.len()).filter(|&k| calls[k].name == "cuLaunchKernelEx") {
        assert_eq!(
            calls[k - 1].name,
            "cuEventRecord",
            "before: {}",
            calls[k - 1].line
        );
        assert_eq!(
            calls[k + 1].name,
            "cuEventRecord",
            "after: {}",
            calls[k + 1].line
        );
        windows += 1;
    }
    assert_eq!(windows, 11);
    assert_eq!(v["mismatches"], 0);
    assert_eq!(v["module"], "cubin (sm_90a)");
    assert_eq!(v["pipeline_ms"]["median"], 1.0);
    assert_eq!(v["pipeline_ms"]["max"], 1.0);
    assert_eq!(v["pipeline_ms"]["n"], 9);
    assert_eq!(v["memcpy_ms"]["median"], 0.5);
    assert_eq!(v["ratio_to_memcpy"], 0.5);
    let gbps = 2.0 * (1u64 << 20) as f64 / 1e-3 / 1e9;
    assert!((v["pipeline_gbps"].as_f64().unwrap() - gbps).abs() < 1e-9);
    assert!(
        (v["pipeline_share_of_h200_peak"].as_f64().unwrap() - gbps * 1e9 / 4.8e12).abs() < 1e-12
    );
    r.expect("pipeline / cuMemcpyDtoD: 0.500");

    // A corrupted byte in the copy is found: exit 3, one line.
    let r = run(
        "full",
        "copy-corrupt",
        &["copy", "--bytes", "1M", "--stages", "1"],
        &[("CUDA_STUB_CORRUPT", "1")],
    );
    r.one_line_error(3, "differs from its source in 1 byte(s)");
    r.expect("1 byte(s) differ, first at offset 349525");
}

#[test]
fn copy_with_four_stages_asks_for_its_shared_memory() {
    let r = run(
        "full",
        "copy4",
        &["copy", "--bytes", "2M", "--stages", "4"],
        &[],
    );
    r.exits(0);
    for l in r.launches() {
        assert_eq!(l.get("fn"), "tiled_copy_s4");
        assert_eq!(l.num("smem"), 4 * 8192);
        assert_eq!(dims(l, "grid"), [256, 1, 1]);
    }
}

/// `bench`: the stub's kernels take iters × (10 + cost) cycles per warp; the host subtracts the
/// empty loop and divides by iters, so the table must show the costs exactly.
#[test]
fn bench_reads_cycles_back_and_subtracts_the_empty_loop() {
    let (r, v) = run_json("bench", &["bench"], &[]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5 * 16, "5 situations × 16 fences");
    for row in rows {
        let f = row["fence"].as_str().unwrap();
        let want = if f.starts_with("fence.sc.") {
            400.0
        } else if f.starts_with("fence.acq_rel.") {
            200.0
        } else {
            100.0
        };
        assert_eq!(row["cycles"], want, "{row}");
        assert_eq!(
            (row["cycles_min"].as_f64(), row["cycles_max"].as_f64()),
            (Some(want), Some(want))
        );
    }
    // 80 rows × (1 warm-up + 7 measured) pairs.
    assert_eq!(r.launches().len(), 80 * 8 * 2);
    let contended: Vec<_> = r
        .launches()
        .into_iter()
        .filter(|l| dims(l, "grid")[0] > 1)
        .collect();
    assert_eq!(contended.len(), 16 * 8 * 2);
    for l in r.launches() {
        assert!(l.get("fn").starts_with("bench_fence_"));
        assert_eq!(dims(l, "block"), [32, 1, 1]);
        let p = decode(l);
        assert_eq!(r.alloc_size(l, p[0]), 8, "out: one u64 per warp");
        assert_eq!(p[4], 1000, "iters");
        assert!([0, 1, 8, 32].contains(&p[5]), "stores {}", p[5]);
        if dims(l, "grid")[0] > 1 {
            assert_eq!(dims(l, "grid")[0], 132, "contention from every SM");
        }
    }
}

/// The §5 programs: 64 threads per CTA, the cluster programs with a 2-CTA cluster attribute.
#[test]
fn section5_launches_carry_their_cluster_dimension() {
    for (prog, cluster) in [
        ("s51_cp_async_fix", None),
        ("s54_cluster_fix", Some("2,1,1")),
        ("s54_init_bug", Some("2,1,1")),
    ] {
        let r = litmus("s5", prog, "2", &[]);
        assert!(matches!(r.code, Some(0) | Some(3)), "{prog}: {}", r.err);
        let ls = r.launches();
        assert_eq!(ls.len(), 2, "{prog}");
        for l in ls {
            assert_eq!(l.get("fn"), prog);
            assert_eq!(dims(l, "block"), [64, 1, 1]);
            let want = cluster.map_or("[]".to_string(), |c| format!("[cluster={c}]"));
            assert_eq!(l.get("attrs"), want, "{prog}");
            if cluster.is_some() {
                assert_eq!(dims(l, "grid")[0] % 2, 0, "{prog}: whole clusters");
            }
            let p = decode(l);
            assert_eq!(p.len(), 3, "(src, out, status)");
            assert_eq!(r.alloc_size(l, p[2]), 16, "status");
        }
    }
}

#[test]
fn driver_errors_are_one_line() {
    let r = litmus(
        "launch-fail",
        "sb_sc",
        "1",
        &[("CUDA_STUB_LAUNCH_ERROR", "719")],
    );
    r.one_line_error(
        1,
        "program sb_sc failed on the GPU: launch of litmus_sb_sc: CUDA_ERROR_LAUNCH_FAILED",
    );
    let r = run(
        "full",
        "no-device",
        &["devices"],
        &[("CUDA_STUB_DEVICES", "0")],
    );
    r.one_line_error(1, "no CUDA device: CUDA_ERROR_NO_DEVICE");
    let r = run(
        "full",
        "no-device-copy",
        &["copy", "--bytes", "1M", "--stages", "1"],
        &[("CUDA_STUB_DEVICES", "0")],
    );
    r.one_line_error(1, "no CUDA device");
}

#[test]
fn a_refused_cubin_falls_back_to_the_ptx_and_a_jit_error_shows_its_log() {
    let (r, v) = run_json(
        "cubin-refused",
        &["copy", "--bytes", "1M", "--stages", "1"],
        &[("CUDA_STUB_REJECT_CUBIN", "1")],
    );
    let loads: Vec<&str> = r
        .calls("cuModuleLoadDataEx")
        .iter()
        .map(|c| c.get("image"))
        .collect();
    assert_eq!(loads, ["cubin", "ptx"]);
    assert!(r
        .calls("cuModuleLoadDataEx")
        .iter()
        .all(|c| c.get("error_log") == "yes"));
    assert_eq!(v["module"], "PTX (JIT)");
    let r = run(
        "full",
        "jit-error",
        &["litmus", "sb_sc", "--iters", "1"],
        &[
            ("CUDA_STUB_REJECT_CUBIN", "1"),
            ("CUDA_STUB_REJECT_PTX", "1"),
        ],
    );
    r.one_line_error(1, "CUDA_ERROR_INVALID_PTX");
    assert!(
        r.err.contains("fatal   : stub JIT error") && r.err.contains("cubin was refused"),
        "{}",
        r.err
    );
}

/// A `libcuda.so` without `cuInit` (not a CUDA driver): every GPU command says so, exit 1.
#[test]
fn a_library_without_cuinit_is_refused_by_every_command() {
    for args in [
        &["devices"][..],
        &["litmus", "sb_sc", "--iters", "1"],
        &["handoff", "--version", "4.4"],
        &["copy", "--bytes", "1M", "--stages", "2"],
        &["bench"],
    ] {
        let r = run("no-cuinit", "no-cuinit", args, &[]);
        r.refused(
            1,
            "unusable CUDA driver: the libcuda.so found lacks `cuInit`",
            &format!("{args:?}"),
        );
    }
}

/// Drivers before CUDA 12.8 lack `cuEventElapsedTime_v2`: a driver that lacks it times with
/// `cuEventElapsedTime` (today's kernels, PTX ISA 8.6, need 12.8 anyway, so this guards builds
/// of a lower ISA); a 12.6 driver is older than the kernels' PTX ISA and says so, for every
/// command.
#[test]
fn old_drivers_time_with_the_old_entry_point_or_say_they_are_too_old() {
    let r = run(
        "pre-12.8",
        "old-ok",
        &["copy", "--bytes", "1M", "--stages", "1"],
        &[("CUDA_STUB_DRIVER_VERSION", "12080")],
    );
    r.exits(0);
    assert_eq!(
        r.calls("cuEventElapsedTime").len(),
        2 * 11,
        "11 pipeline + 11 memcpy windows"
    );
    assert!(r.calls("cuEventElapsedTime_v2").is_empty());
    for args in [
        &["copy", "--bytes", "1M", "--stages", "1"][..],
        &["bench"],
        &["litmus", "all"],
    ] {
        let r = run(
            "pre-12.8",
            "old-too-old",
            args,
            &[("CUDA_STUB_DRIVER_VERSION", "12060")],
        );
        r.one_line_error(
            1,
            "driver CUDA 12.6 is older than CUDA 12.8, the first to take the kernels' PTX ISA 8.6",
        );
        assert!(r.launches().is_empty());
    }
}

/// Bad input: exit 2 and one line, before any driver call; a missing or fake driver: exit 1.
#[test]
fn bad_input_table() {
    let missing_dir = tmp("no-such-dir").join("out.json");
    let absurd = "1000000000000".to_string();
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (
            vec!["litmus", "no_such_program"],
            2,
            "unknown program `no_such_program`",
        ),
        (
            vec!["litmus", "sb_sc", "--iters", "0"],
            2,
            "0 is not in 1..=100000",
        ),
        (
            vec!["litmus", "sb_sc", "--iters", &absurd],
            2,
            "is not in 1..=100000",
        ),
        (vec!["tour", "--iters", &absurd], 2, "is not in 1..=100000"),
        (
            vec!["copy", "--bytes", "7", "--stages", "1"],
            2,
            "--bytes 7 is not a multiple of the 16384-byte row",
        ),
        (
            vec!["copy", "--bytes", "16K", "--stages", "1"],
            2,
            "smaller than one 32-row tile band",
        ),
        (
            vec!["copy", "--bytes", "1M", "--stages", "5"],
            2,
            "5 is not in 1..=4",
        ),
        (vec!["copy", "--stages", "2"], 2, "--bytes"),
        (
            vec!["litmus", "sb_sc", "--json", missing_dir.to_str().unwrap()],
            2,
            "does not exist",
        ),
        (
            vec!["bench", "--json", missing_dir.to_str().unwrap()],
            2,
            "does not exist",
        ),
        (
            vec!["devices", "--json", missing_dir.to_str().unwrap()],
            2,
            "does not exist",
        ),
        (
            vec!["frobnicate"],
            2,
            "unrecognized subcommand 'frobnicate'",
        ),
    ];
    for (args, code, needle) in &cases {
        let r = run("full", "bad-input", args, &[]);
        r.refused(*code, needle, &format!("{args:?}"));
    }
    // A fake libcuda (a file that is no library at all) and no driver at all: exit 1, one line.
    let fake = tmp("fake-libcuda");
    std::fs::create_dir_all(&fake).unwrap();
    std::fs::write(fake.join("libcuda.so"), b"not an ELF library").unwrap();
    let empty = tmp("no-libcuda");
    std::fs::create_dir_all(&empty).unwrap();
    let system_driver = [
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/lib64/libcuda.so.1",
        "/usr/lib/libcuda.so.1",
    ]
    .iter()
    .any(|p| Path::new(p).exists());
    for (dir, needle) in [(&fake, "no NVIDIA driver"), (&empty, "no NVIDIA driver")] {
        for args in [
            &["devices"][..],
            &["copy", "--bytes", "1M", "--stages", "1"],
            &["bench"],
            &["litmus", "all"],
        ] {
            let o = Command::new(env!("CARGO_BIN_EXE_ptx-sync"))
                .args(args)
                .env("LD_LIBRARY_PATH", dir)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(!err.contains("panicked"), "{args:?}: {err}");
            if system_driver {
                // This machine has a real driver, which dlopen finds after the directory: the
                // command must not claim there is none.
                assert!(!err.contains(needle), "{args:?}: {err}");
            } else {
                assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
                assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
                assert!(
                    err.starts_with("ptx-sync: ") && err.contains(needle),
                    "{args:?}: {err}"
                );
            }
        }
    }
}

// ---- scripts/gpu-check.sh against the stub --------------------------------------------------

const PLANNED: [&str; 10] = [
    "devices",
    "calibrate",
    "litmus",
    "copy-1",
    "copy-2",
    "copy-4",
    "bench",
    "tour",
    "litmus-files",
    "litmus-rest",
];

/// `bash scripts/gpu-check.sh` with the stub as the driver and the test's binary as ptx-sync.
fn gpu_check(tag: &str, budget: u32, env: &[(&str, &str)]) -> (std::process::Child, PathBuf) {
    let out = tmp(&format!("gpu-check-{tag}"));
    let _ = std::fs::remove_dir_all(&out);
    let mut c = Command::new("bash");
    c.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/gpu-check.sh"))
        .env("OUT", &out)
        .env("PTX_SYNC_BIN", env!("CARGO_BIN_EXE_ptx-sync"))
        .env("LD_LIBRARY_PATH", stub("full"))
        .env("GPU_CHECK_BUDGET_S", budget.to_string())
        .env("GPU_CHECK_LITMUS_ITERS", "1")
        .env("GPU_CHECK_COPY_BYTES", "1M")
        .env("GPU_CHECK_TOUR_ITERS", "1")
        // The stub run shares 2 CI cores with the other tests of this file: each step's limit
        // (sized for the device machine) times 4; the whole budget still bounds the run.
        .env("GPU_CHECK_STEP_SCALE", "4")
        .env("CUDA_STUB_LITMUS_OUT", "42,1,1,0")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    (c.spawn().expect("bash starts"), out)
}

/// The files that come back from the device machine: at most 8, at most 2 folders deep.
fn returned_files(out: &Path) -> Vec<String> {
    fn walk(d: &Path, depth: usize, acc: &mut Vec<String>, root: &Path) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                assert!(depth < 2, "{} is more than 2 folders down", p.display());
                walk(&p, depth + 1, acc, root);
            } else {
                acc.push(p.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    let mut v = Vec::new();
    walk(out, 0, &mut v, out);
    v.sort();
    v
}

/// Status of each step in summary.txt (`name: status ...`).
fn statuses(summary: &str) -> BTreeMap<String, String> {
    summary
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(n, _)| PLANNED.contains(&n.trim()) || n.starts_with("litmus-"))
        .map(|(n, s)| (n.trim().to_string(), s.trim().to_string()))
        .collect()
}

fn archive_listing(out: &Path) -> Vec<String> {
    let o = Command::new("tar")
        .arg("-tzf")
        .arg(out.join("gpu-check.tar.gz"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| l.trim_start_matches("./").to_string())
        .collect()
}

#[test]
fn gpu_check_dry_run_fits_the_device_machine() {
    let (mut child, out) = gpu_check("dry", 120, &[]);
    let st = child.wait().unwrap();
    assert_eq!(st.code(), Some(0));
    assert_eq!(
        returned_files(&out),
        ["gpu-check.tar.gz", "results.json", "summary.txt"]
    );
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    let s = statuses(&summary);
    for p in PLANNED {
        let st = s
            .get(p)
            .unwrap_or_else(|| panic!("no status for {p}:\n{summary}"));
        assert!(
            st.starts_with("ran on ptx-sync stub H200") || st.starts_with("failed"),
            "{p}: {st}"
        );
    }
    assert!(summary.contains("device: ptx-sync stub H200"), "{summary}");
    assert!(
        summary.contains("complete: every planned step has a status"),
        "{summary}"
    );
    // count_atom_gpu (correct) sees old1 == old2 from the stub's words: the litmus step failed,
    // and says why.
    assert!(s["litmus"].starts_with("failed (exit 3"), "{summary}");
    assert!(
        s["litmus"].contains("a correct program showed a forbidden outcome"),
        "{summary}"
    );
    for p in ["copy-1", "copy-2", "copy-4", "bench", "litmus-files"] {
        assert!(
            s[p].starts_with("ran on ptx-sync stub H200 (exit 0"),
            "{p}: {summary}"
        );
    }
    // The stub's kernels never show SB's weak outcome: the calibration says the stress is
    // ineffective, at each of the 4 sweep points.
    assert!(
        s["calibrate"].starts_with("ran on ptx-sync stub H200 (exit 0"),
        "{summary}"
    );
    assert_eq!(
        s["calibrate"]
            .matches("the stress is ineffective here")
            .count(),
        4,
        "{summary}"
    );
    let v = json(&out.join("results.json"));
    assert_eq!(v["complete"], true);
    let names: Vec<&str> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, PLANNED);
    let files = archive_listing(&out);
    for f in [
        "devices.json",
        "calibrate.json",
        "calibrate.txt",
        "litmus.json",
        "litmus.svg",
        "litmus.txt",
        "copy-1.json",
        "copy-4.json",
        "copy.txt",
        "bench.json",
        "bench.md",
        "tour.txt",
        "summary.txt",
        "results.json",
        "litmus-files.txt",
        "litmus-file-1.json",
        "litmus-file-6.json",
    ] {
        assert!(
            files.iter().any(|x| x == f),
            "{f} not in the archive: {files:?}"
        );
    }
    // The archive's litmus.json holds every program.
    let x = tmp("gpu-check-dry-x");
    let _ = std::fs::remove_dir_all(&x);
    std::fs::create_dir_all(&x).unwrap();
    assert!(Command::new("tar")
        .arg("-xzf")
        .arg(out.join("gpu-check.tar.gz"))
        .arg("-C")
        .arg(&x)
        .status()
        .unwrap()
        .success());
    let l = json(&x.join("litmus.json"));
    let list = Command::new(env!("CARGO_BIN_EXE_ptx-sync"))
        .args(["litmus", "list"])
        .output()
        .unwrap();
    let n = String::from_utf8_lossy(&list.stdout).lines().count();
    assert_eq!(
        l.as_array().unwrap().len(),
        n,
        "every program of `litmus list` reported"
    );
    assert_eq!(json(&x.join("copy-2.json"))["mismatches"], 0);
    // The litmus-files step ran its six corpus files (the stub's generated kernel writes nothing
    // without CUDA_STUB_FILE_OUT: every instance is reported incomplete, none as a state).
    let lf = std::fs::read_to_string(x.join("litmus-files.txt")).unwrap();
    assert_eq!(lf.matches("\nStates 0\n").count(), 6, "{lf}");
    assert!(
        lf.contains("Test cluster-barrier-MP") && lf.contains("clusters of 2"),
        "{lf}"
    );
}

/// A kernel that never ends: the step times out at the budget, the rest are skipped, and the
/// summary is complete; a kill of the script itself leaves what finished.
#[test]
fn gpu_check_reports_timeouts_skips_and_survives_a_kill() {
    let (mut child, out) = gpu_check("hang", 12, &[("CUDA_STUB_HANG", "1")]);
    assert_eq!(child.wait().unwrap().code(), Some(0));
    assert!(returned_files(&out).len() <= 8);
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    let s = statuses(&summary);
    assert!(
        s["devices"].starts_with("ran on ptx-sync stub H200"),
        "{summary}"
    );
    assert!(
        s["calibrate"].starts_with("timed out (exit 124"),
        "{summary}"
    );
    // Every step after devices and calibrate but the last (litmus .. litmus-files).
    for &p in &PLANNED[2..PLANNED.len() - 1] {
        assert!(
            s[p].starts_with("skipped") && s[p].contains("of the 12 s budget left"),
            "{p}: {summary}"
        );
    }
    assert!(
        summary.contains("complete: every planned step has a status"),
        "{summary}"
    );

    let (mut child, out) = gpu_check("kill", 200, &[("CUDA_STUB_HANG", "1")]);
    let t = std::time::Instant::now();
    // Wait for the devices step to be published, then kill the script during `litmus`.
    while !std::fs::read_to_string(out.join("summary.txt"))
        .unwrap_or_default()
        .contains("devices:")
    {
        assert!(
            t.elapsed().as_secs() < 60,
            "the devices step never appeared"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    unsafe_kill_term(child.id());
    let code = child.wait().unwrap().code();
    assert_eq!(code, Some(130), "the script exits 130 on TERM");
    assert!(
        t.elapsed().as_secs() < 30,
        "the kill took {:?}",
        t.elapsed()
    );
    assert_eq!(
        returned_files(&out),
        ["gpu-check.tar.gz", "results.json", "summary.txt"]
    );
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(
        statuses(&summary)["devices"].starts_with("ran on"),
        "{summary}"
    );
    assert!(
        summary.contains("INCOMPLETE: the script was cut short"),
        "{summary}"
    );
    assert!(
        summary.contains("calibrate:                 no status yet"),
        "{summary}"
    );
    assert_eq!(json(&out.join("results.json"))["complete"], false);
    assert!(archive_listing(&out).iter().any(|f| f == "devices.json"));
}

/// SIGTERM to a process we started (no libc dependency: the `kill` command).
fn unsafe_kill_term(pid: u32) {
    assert!(Command::new("kill")
        .arg("-TERM")
        .arg(pid.to_string())
        .status()
        .unwrap()
        .success());
}

// ---- litmus files on the GPU ----------------------------------------------------------------

/// MP with release/acquire across CTAs, `x` observed too (its final value comes from memory).
const MP_FILE: &str = "PTX MP+rel-acq-file\n\"Expected: Never\"\n{\nx=0; flag=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.u32 [x], 42 | ld.acquire.gpu.u32 r0, [flag] ;\n st.release.gpu.u32 [flag], 1 | ld.u32 r1, [x] ;\nlocations [x;]\nexists (P1:r0 == 1 /\\ P1:r1 != 42)\n";

fn corpus(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../model/litmus")
        .join(rel)
        .display()
        .to_string()
}

/// Decodes the generated kernel's 80-byte parameter buffer (`litmus_file::FileParams`):
/// six u64 then eight u32.
fn decode_file_params(launch: &Call) -> Vec<u64> {
    let b = param_bytes(launch);
    assert_eq!(b.len(), 80, "{}", launch.line);
    let mut v: Vec<u64> = (0..6)
        .map(|k| u64::from_le_bytes(b[8 * k..8 * k + 8].try_into().unwrap()))
        .collect();
    v.extend(
        (0..8).map(|k| u32::from_le_bytes(b[48 + 4 * k..52 + 4 * k].try_into().unwrap()) as u64),
    );
    v
}

/// `litmus FILE.litmus`: the generated PTX is JIT-loaded (with an error log), launched with the
/// grid, block and parameter buffer the layout gives, and the stub's chosen results decide the
/// exit code: an allowed state 0, a state the model forbids 3 (also through final memory).
#[test]
fn litmus_file_runs_its_own_kernel_and_compares_with_the_model() {
    let f = tmp("mp-file.litmus");
    std::fs::write(&f, MP_FILE).unwrap();
    let fs = f.to_str().unwrap();
    // Done mask 0b11, no timeout, r0 = 1, r1 = 42; x = 42, flag = 1 at the end.
    let ok = [
        ("CUDA_STUB_FILE_OUT", "3,0,1,42"),
        ("CUDA_STUB_FILE_MEM", "42,1"),
    ];
    let r = litmus("file-ok", fs, "2", &ok);
    r.exits(0);
    r.expect("Test MP+rel-acq-file");
    r.expect("allowed   x=42; 1:r0=1; 1:r1=42;");
    r.expect("Result: ok");
    // The module: the embedded cubin, then the generated PTX with the JIT error log.
    let loads = r.calls("cuModuleLoadDataEx");
    assert!(
        loads
            .iter()
            .any(|c| c.get("image") == "ptx" && c.get("error_log") == "yes"),
        "{loads:?}"
    );
    let getf = r.calls("cuModuleGetFunction");
    assert!(getf
        .iter()
        .any(|c| c.get("name") == "ptxsync_litmus_file" && c.get("found") == "1"));
    let l = r.launches();
    assert_eq!(l.len(), 2);
    for c in &l {
        assert_eq!(c.get("fn"), "ptxsync_litmus_file");
        // 132 resident CTAs (1 per SM): 33 instances of 2 CTAs test, 66 CTAs stress.
        assert_eq!(dims(c, "grid"), vec![132, 1, 1]);
        assert_eq!(dims(c, "block"), vec![32, 1, 1]);
        assert_eq!(c.get("attrs"), "[]");
        assert_eq!(c.get("smem"), "0");
        let p = decode_file_params(c);
        let (inst, ow, nloc) = (33u64, 4u64, 2u64);
        assert_eq!(
            r.alloc_size(c, p[0]),
            inst * nloc * 32 * 4,
            "mem: a 128-byte line per location"
        );
        assert_eq!(r.alloc_size(c, p[1]), 132 * 4, "units");
        assert_eq!(r.alloc_size(c, p[2]), inst * 4, "locs");
        assert_eq!(r.alloc_size(c, p[3]), inst * ow * 4, "out");
        assert_eq!(r.alloc_size(c, p[4]), (4 + inst) * 4, "sync");
        assert_eq!(p[5], 5_000_000, "budget_ns");
        assert_eq!(
            &p[6..14],
            &[
                inst,
                ow,
                nloc,
                inst * nloc * 32,
                1 << 16,
                inst * 2,
                p[12],
                0
            ]
        );
    }
    // Results are read back: out and mem after every launch.
    let reads = r.calls("cuMemcpyDtoH_v2");
    let p = decode_file_params(l[1]);
    assert!(reads
        .iter()
        .any(|c| c.num("src") == p[3] && c.idx > l[1].idx));
    assert!(reads
        .iter()
        .any(|c| c.num("src") == p[0] && c.idx > l[1].idx));

    // One launch whose stub kernel leaves `out` (done mask, timeouts, registers) and `mem`.
    let once = |tag, out, mem| {
        litmus(
            tag,
            fs,
            "1",
            &[("CUDA_STUB_FILE_OUT", out), ("CUDA_STUB_FILE_MEM", mem)],
        )
    };
    // A state the model forbids: r0 = 1, r1 = 0.
    let r = once("file-forbidden", "3,0,1,0", "42,1");
    r.exits(3);
    r.expect("FORBIDDEN x=42; 1:r0=1; 1:r1=0;");
    r.expect("VIOLATION");
    r.one_line_error(3, "a state the PTX model forbids");
    // Forbidden through final memory: x = 7 can never be x's last value.
    let r = once("file-mem", "3,0,1,42", "7,1");
    r.exits(3);
    r.expect("FORBIDDEN x=7;");
    // Timeouts are their own outcome, never a state.
    let r = once("file-timeout", "3,2,0,0", "42,1");
    r.exits(0);
    r.expect("Timeouts 33,");
    r.expect("States 0");
}

/// Placement: two litmus threads of one CTA are two warps of one block; a test that names a
/// cluster is a cluster launch (`.explicitcluster`, the launch attribute gives its CTAs); an unsupported file says why in one
/// line before any driver call.
#[test]
fn litmus_files_carry_their_placement_and_unsupported_ones_say_why() {
    // Both roles done, no timeout, r0 = 1.
    let done = [("CUDA_STUB_FILE_OUT", "3,0,1")];
    let r = litmus(
        "file-cta",
        &corpus("barrier/bar-MP-same-cta.litmus"),
        "1",
        &done,
    );
    r.exits(0);
    let l = r.launches();
    assert_eq!(dims(l[0], "block"), vec![64, 1, 1]);
    let cluster = corpus("barrier/cluster-barrier-MP.litmus");
    let r = litmus("file-cluster", &cluster, "1", &done);
    r.exits(0);
    let l = r.launches();
    assert_eq!(l[0].get("attrs"), "[cluster=2,1,1]");
    assert_eq!(dims(l[0], "grid")[0] % 2, 0);
    let alias = corpus("proxy/alias-MP-no-fence.litmus");
    let r = run(
        "full",
        "file-alias",
        &["litmus", &alias, "--iters", "1"],
        &[],
    );
    r.refused(
        1,
        "unsupported: virtual aliases on hardware",
        "an unsupported file",
    );
    let r = run("full", "file-missing", &["litmus", "no/such.litmus"], &[]);
    r.one_line_error(2, "no litmus file no/such.litmus");
    let bad = tmp("bad.litmus");
    std::fs::write(
        &bad,
        "PTX bad\n{\n}\n P0@cta 0,gpu 0 ;\n ld.u32 r0 ;\nexists (0:r0 == 0)\n",
    )
    .unwrap();
    let r = run("full", "file-bad", &["litmus", bad.to_str().unwrap()], &[]);
    r.refused(2, "bad.litmus", "a file that does not parse");
}

/// Issue #19 audit: 32-bit values at or above 2^31 are the same words on both sides. The model
/// gives `atom.sub.u32` below zero as 4294967295 (0 - 1 modulo 2^32, PTX ISA `atom`: `.u32`
/// arithmetic) and the store of 3000000000 as 3000000000; the GPU's words 0xffffffff and
/// 0xb2d05e00 are those values, so the state is allowed and the run exits 0 (the checker of
/// commit feb866b read the words as signed, -1 and -1294967296, and called it a violation).
/// Literals that a 32-bit word cannot hold are refused before any driver call.
#[test]
fn litmus_file_values_are_words_modulo_2_to_the_32() {
    let f = tmp("big-values.litmus");
    std::fs::write(
        &f,
        "PTX big-values\n{\nx=0; y=0;\n}\n P0@cta 0,gpu 0 ;\n atom.relaxed.gpu.sub.u32 r0, [x], 1 ;\n st.u32 [y], 3000000000 ;\n ld.u32 r1, [x] ;\nexists (P0:r1 == -1 /\\ y == 3000000000)\n",
    )
    .unwrap();
    let fs = f.to_str().unwrap();
    // x = 0xffffffff, y = 3000000000 at the end; the stub's done mask 1, no timeout, and r1.
    let once = |tag, r1| {
        litmus(
            tag,
            fs,
            "1",
            &[
                ("CUDA_STUB_FILE_OUT", r1),
                ("CUDA_STUB_FILE_MEM", "0xffffffff,0xb2d05e00"),
            ],
        )
    };
    // r1 = 0xffffffff.
    let r = once("file-big", "1,0,0xffffffff");
    r.exits(0);
    r.expect("allowed   0:r1=4294967295; y=3000000000;");
    assert!(!r.out.contains("FORBIDDEN"), "{}", r.out);
    r.expect("Result: ok");
    // A state the model does forbid is still one: r1 = 0 (the RMW happened before the load).
    let r = once("file-big-forbidden", "1,0,0");
    r.exits(3);
    r.expect("FORBIDDEN 0:r1=0; y=3000000000;");
    // Literals outside -2^31 ..= 2^32-1 cannot be a kernel word: one line, no driver call; exit
    // 1 where the model takes the file (an initial value, an untyped register's literal), exit 2
    // where the model itself refuses it (a condition constant beyond a 32-bit term's range).
    for (name, init, cell, cond, code, what) in [
        (
            "wide-init",
            "x=5000000000;",
            "ld.u32 r0, [x]",
            "P0:r0 == 0",
            1,
            "the initial value 5000000000 of `x` does not fit 32 bits",
        ),
        (
            "wide-mov",
            "x=0;",
            "mov r0, 5000000000",
            "P0:r0 == 0",
            1,
            "the literal 5000000000 (line 6) does not fit 32 bits",
        ),
        (
            "wide-cond",
            "x=0;",
            "mov r0, 1",
            "P0:r0 == -5000000000",
            2,
            "-5000000000 does not fit the 32-bit term",
        ),
    ] {
        let f = tmp(&format!("{name}.litmus"));
        std::fs::write(
            &f,
            format!("PTX {name}\n{{\n{init}\n}}\n P0@cta 0,gpu 0 ;\n {cell} ;\nexists ({cond})\n"),
        )
        .unwrap();
        let r = run("full", name, &["litmus", f.to_str().unwrap()], &[]);
        r.refused(code, what, name);
    }
}

/// Issue #19 audit: a loop the model cuts at its unroll bound gives no decided verdict, so the
/// GPU's outcome is never called a violation. The loop stores 1..6 to x; the only final value
/// hardware can give is x = 6 (program order, PTX ISA 8.10.1 coherence of one thread's writes),
/// which needs six iterations: more than the model's bound of 4 backward jumps, so every path is
/// cut and the model lists no state. The checker of commit feb866b printed `FORBIDDEN x=6` and
/// exited 3.
#[test]
fn litmus_file_bounded_model_never_calls_the_gpu_outcome_a_violation() {
    let f = tmp("loop-6.litmus");
    std::fs::write(
        &f,
        "PTX loop-6\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n mov r1, 0 ;\n L0: ;\n add r1, r1, 1 ;\n st.u32 [x], r1 ;\n blt r1, 6, L0 ;\nexists (x == 6)\n",
    )
    .unwrap();
    let r = litmus(
        "file-bounded",
        f.to_str().unwrap(),
        "1",
        &[("CUDA_STUB_FILE_OUT", "1,0"), ("CUDA_STUB_FILE_MEM", "6")],
    );
    r.exits(0);
    r.expect("unlisted  x=6;");
    r.expect("the model's verdict is bounded: it cut 1 path(s) at its loop unroll bound 4");
    r.expect("Result: not decided");
    assert!(
        !r.out.contains("FORBIDDEN") && !r.out.contains("VIOLATION"),
        "{}",
        r.out
    );
}
