//! Litmus files on the (stub) GPU: their kernels, placement, values, the model comparison.

use super::*;

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
