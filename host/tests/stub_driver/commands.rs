//! Every subcommand against the stub: launches, parameters, read-backs, errors.

use super::*;

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
