//! `ptx-sync show --ptx FILE [FUNCTION]` on the hand-written modules of `tests/data/lints/`: each
//! lint fires on its triggering module (at the expected line) and on none of the clean ones;
//! every module is accepted by ptxas; a cubin shows its SASS; bad input exits 2.
//!
//! Needs the PTX tools: `PTX_SYNC_TOOLS` (set by `cargo xtask test`) or the `.venv` made by
//! `cargo xtask setup`. Without them these tests fail (they never pass vacuously).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tools() -> PathBuf {
    ptx_sync_host::sass::find_tools().unwrap_or_else(|e| {
        panic!("{e}\nthe inspector needs ptxas and cuobjdump: run `cargo xtask setup`")
    })
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/lints")
        .join(name)
}

fn show(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptx-sync"))
        .env("PTX_SYNC_TOOLS", tools())
        .arg("show")
        .args(args)
        .output()
        .expect("the ptx-sync binary starts")
}

/// `show --ptx FILE`: (exit code, stdout, stderr).
fn inspect(file: &Path) -> (i32, String, String) {
    let o = show(&["--ptx", file.to_str().unwrap()]);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// [`inspect`] of each module of `tests/data/lints/` named in `files`, once each, on threads of
/// their own (each run is a `ptx-sync` and a `ptxas`): by file name.
fn inspect_all<'a>(
    files: impl IntoIterator<Item = &'a str>,
) -> BTreeMap<&'a str, (i32, String, String)> {
    let files: BTreeSet<&str> = files.into_iter().collect();
    std::thread::scope(|s| {
        let runs: Vec<_> = files
            .into_iter()
            .map(|f| (f, s.spawn(move || inspect(&data(f)))))
            .collect();
        runs.into_iter()
            .map(|(f, h)| (f, h.join().expect("the inspect thread")))
            .collect()
    })
}

fn lints(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("lint: ")).collect()
}

/// (module, lint, function, line) that must fire. The lines are the instruction each lint
/// names, read off the hand-written module (see the comment at the top of each).
const FIRES: &[(&str, &str, &str, usize)] = &[
    (
        "barrier_two_paths.ptx",
        "aligned-barrier-two-paths",
        "two_paths",
        24,
    ),
    ("weak_spin.ptx", "weak-spin-loop", "spin_weak", 17),
    ("hoisted_spin.ptx", "weak-spin-loop", "spin_hoisted", 21),
    (
        "hoisted_spin.ptx",
        "sass-loop-without-load",
        "spin_hoisted",
        9,
    ),
    (
        "remote_arrive_cta.ptx",
        "remote-arrive-cta-scope",
        "remote_arrive",
        16,
    ),
    (
        "tma_after_load.ptx",
        "generic-load-then-tma-write",
        "tma_reuse",
        24,
    ),
    // #22 §4: the misses of the first lints.
    // The self-loop `bra.uni` LLVM leaves after hoisting a raw pointer's load (line 35), and a
    // loop that exits only on a predicate computed before it (line 54; its SASS loop has no
    // load either: the SASS lint names the function's `.entry` line, 39).
    ("raw_spin_hoisted.ptx", "hoisted-spin-loop", "raw_spin", 35),
    (
        "raw_spin_hoisted.ptx",
        "hoisted-spin-loop",
        "invariant_exit",
        54,
    ),
    (
        "raw_spin_hoisted.ptx",
        "sass-loop-without-load",
        "invariant_exit",
        39,
    ),
    // A `Data` flag in a bounded wait: the loop reads only %globaltimer (line 39).
    (
        "timed_wait_hoisted.ptx",
        "timed-wait-without-load",
        "data_flag_timed",
        39,
    ),
    // .cta release/acquire between CTAs (lines 38, 57), and __threadfence_block() next to a
    // volatile flag (lines 88, 101).
    (
        "cta_scope_two_ctas.ptx",
        "cta-scope-across-ctas",
        "mp_two_ctas_cta",
        38,
    ),
    (
        "cta_scope_two_ctas.ptx",
        "cta-scope-across-ctas",
        "mp_two_ctas_cta",
        57,
    ),
    (
        "cta_scope_two_ctas.ptx",
        "cta-scope-across-ctas",
        "mp_fence_cta",
        88,
    ),
    (
        "cta_scope_two_ctas.ptx",
        "cta-scope-across-ctas",
        "mp_fence_cta",
        101,
    ),
    // The consumer's arrive on `empty` after its generic read of the stage (line 95).
    (
        "consumer_arrive_no_fence.ptx",
        "arrive-without-proxy-fence",
        "pipe_reuse",
        95,
    ),
    // A generic load then a TMA write through the library's brace blocks (the TMA, line 39).
    (
        "tma_after_load_braces.ptx",
        "generic-load-then-tma-write",
        "tma_reuse_braces",
        39,
    ),
    // cp.async + commit_group, then barrier.sync with no wait (line 34).
    (
        "cp_async_no_wait.ptx",
        "cp-async-barrier-without-wait",
        "cp_async_tile",
        34,
    ),
];

/// Modules on which no lint fires: the fixed counterpart of each triggering one.
const CLEAN: &[&str] = &[
    "barrier_joined.ptx",
    "strong_spin.ptx",
    "remote_arrive_cluster.ptx",
    "tma_after_fence.ptx",
    "count_loop.ptx",
    "timed_wait_relaxed.ptx",
    "gpu_scope_two_ctas.ptx",
    "consumer_arrive_fenced.ptx",
    "tma_after_fence_braces.ptx",
    "cp_async_wait.ptx",
];

/// Each lint, a module it fires on and the fixed module it does not fire on.
const PAIRS: &[(&str, &str, &str)] = &[
    (
        "aligned-barrier-two-paths",
        "barrier_two_paths.ptx",
        "barrier_joined.ptx",
    ),
    ("weak-spin-loop", "weak_spin.ptx", "strong_spin.ptx"),
    (
        "sass-loop-without-load",
        "hoisted_spin.ptx",
        "strong_spin.ptx",
    ),
    (
        "remote-arrive-cta-scope",
        "remote_arrive_cta.ptx",
        "remote_arrive_cluster.ptx",
    ),
    (
        "generic-load-then-tma-write",
        "tma_after_load.ptx",
        "tma_after_fence.ptx",
    ),
    (
        "generic-load-then-tma-write",
        "tma_after_load_braces.ptx",
        "tma_after_fence_braces.ptx",
    ),
    (
        "hoisted-spin-loop",
        "raw_spin_hoisted.ptx",
        "count_loop.ptx",
    ),
    (
        "hoisted-spin-loop",
        "raw_spin_hoisted.ptx",
        "strong_spin.ptx",
    ),
    (
        "timed-wait-without-load",
        "timed_wait_hoisted.ptx",
        "timed_wait_relaxed.ptx",
    ),
    (
        "cta-scope-across-ctas",
        "cta_scope_two_ctas.ptx",
        "gpu_scope_two_ctas.ptx",
    ),
    (
        "arrive-without-proxy-fence",
        "consumer_arrive_no_fence.ptx",
        "consumer_arrive_fenced.ptx",
    ),
    (
        "cp-async-barrier-without-wait",
        "cp_async_no_wait.ptx",
        "cp_async_wait.ptx",
    ),
];

#[test]
fn each_lint_fires_on_its_module_at_its_line() {
    let modules: BTreeSet<&str> = FIRES.iter().map(|f| f.0).collect();
    let shown = inspect_all(modules.iter().copied());
    for (file, lint, func, line) in FIRES {
        let (rc, out, err) = &shown[file];
        assert_eq!(*rc, 0, "{file}: lints are warnings\n{out}{err}");
        let want = format!("lint: {lint}: {func}: ");
        let hit: Vec<&str> = lints(out)
            .into_iter()
            .filter(|l| l.starts_with(&want) && l.ends_with(&format!("(line {line})")))
            .collect();
        assert_eq!(
            hit.len(),
            1,
            "{file}: expected one `{want}… (line {line})`:\n{out}"
        );
    }
    // Each triggering module fires only its own lints.
    for file in modules {
        let (_, out, _) = &shown[file];
        let expected = FIRES.iter().filter(|f| f.0 == file).count();
        assert_eq!(lints(out).len(), expected, "{file}:\n{out}");
    }
}

#[test]
fn no_lint_fires_on_the_fixed_modules() {
    let shown = inspect_all(CLEAN.iter().copied());
    for file in CLEAN {
        let (rc, out, err) = &shown[file];
        assert_eq!(*rc, 0, "{file}\n{out}{err}");
        assert!(lints(out).is_empty(), "{file}:\n{out}");
        assert!(out.contains("no lint"), "{file}:\n{out}");
    }
}

#[test]
fn every_lint_has_a_firing_and_a_clean_module() {
    let names = [
        "aligned-barrier-two-paths",
        "weak-spin-loop",
        "sass-loop-without-load",
        "remote-arrive-cta-scope",
        "generic-load-then-tma-write",
        "hoisted-spin-loop",
        "timed-wait-without-load",
        "cta-scope-across-ctas",
        "arrive-without-proxy-fence",
        "cp-async-barrier-without-wait",
    ];
    for n in names {
        assert!(FIRES.iter().any(|f| f.1 == n), "{n} has no firing module");
        assert!(PAIRS.iter().any(|p| p.0 == n), "{n} has no fixed module");
    }
    for (lint, fires, clean) in PAIRS {
        assert!(
            FIRES.iter().any(|f| f.0 == *fires && f.1 == *lint),
            "{lint}: {fires} is not listed as firing it"
        );
        assert!(
            CLEAN.contains(clean),
            "{lint}: {clean} is not a clean module"
        );
    }
    // Every module under tests/data/lints is one of the two lists (and so is checked above).
    for e in std::fs::read_dir(data("")).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(
            FIRES.iter().any(|f| f.0 == name) || CLEAN.contains(&name.as_str()),
            "{name} is in no list"
        );
    }
}

#[test]
fn the_report_shows_meaning_sass_and_cost_row() {
    let (rc, out, _) = inspect(&data("strong_spin.ptx"));
    assert_eq!(rc, 0);
    assert!(out.contains("spin_strong (.entry, line 6), sm_90"), "{out}");
    assert!(
        out.contains("ld.relaxed.gpu.global.u32 %r1, [%rd2]"),
        "{out}"
    );
    assert!(
        out.contains("load: sem relaxed, scope gpu, space global, proxy generic; seed §3.5"),
        "{out}"
    );
    assert!(out.contains("SASS: LDG.E.STRONG.GPU"), "{out}");
    assert!(out.contains("approximate"), "{out}");
    assert!(
        out.contains("`ld.relaxed.gpu.u32` → LD.E.STRONG.GPU"),
        "{out}"
    );
    let (_, out, _) = inspect(&data("tma_after_fence.ptx"));
    assert!(
        out.contains("SASS: MEMBAR.ALL.CTA FENCE.VIEW.ASYNC.S"),
        "{out}"
    );
    assert!(out.contains("proxy async; seed §5.2"), "{out}");
    assert!(out.contains("SASS: UBLKCP.S.G"), "{out}");
    let (_, out, _) = inspect(&data("remote_arrive_cluster.ptx"));
    assert!(out.contains("SYNCS.ARRIVE.TRANS64.RED.A1T0"), "{out}");
    assert!(out.contains("seed §5.4"), "{out}");
}

#[test]
fn one_function_and_an_unknown_one() {
    let f = data("barrier_two_paths.ptx");
    let o = show(&["--ptx", f.to_str().unwrap(), "two_paths"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("two_paths (.entry"));
    let o = show(&["--ptx", f.to_str().unwrap(), "nope"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no function `nope`") && err.contains("two_paths"),
        "{err}"
    );
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ptx-sync-inspect-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn a_cubin_shows_its_sass_sync_instructions_and_sass_lints() {
    for (src, lint) in [("hoisted_spin.ptx", true), ("strong_spin.ptx", false)] {
        let cubin = scratch(&src.replace(".ptx", ".cubin"));
        let o = Command::new(tools().join("ptxas"))
            .args(["-arch=sm_90", "-O3"])
            .arg(data(src))
            .arg("-o")
            .arg(&cubin)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let (rc, out, err) = inspect(&cubin);
        assert_eq!(rc, 0, "{out}{err}");
        assert!(out.contains("(SASS, dump line"), "{out}");
        assert_eq!(
            out.contains("lint: sass-loop-without-load: spin_hoisted: "),
            lint,
            "{src}:\n{out}"
        );
        if !lint {
            assert!(out.contains("LDG.E.STRONG.GPU"), "{out}");
            assert!(out.contains("no lint"), "{out}");
        }
    }
}

#[test]
fn bad_input_exits_2_with_the_message_first() {
    let (rc, _, err) = inspect(Path::new("/nonexistent/x.ptx"));
    assert_eq!(rc, 2, "{err}");
    assert!(
        err.starts_with("ptx-sync: cannot read /nonexistent/x.ptx"),
        "{err}"
    );
    let bad = scratch("bad.ptx");
    std::fs::write(
        &bad,
        ".version 8.6\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tfoo.bar;\n\tret;\n}\n",
    )
    .unwrap();
    let (rc, out, err) = inspect(&bad);
    assert_eq!(rc, 2, "{out}{err}");
    let first = err.lines().next().unwrap_or("");
    assert!(
        first.starts_with("ptx-sync: ptxas rejects") && first.contains("line 6"),
        "{err}"
    );
    let junk = scratch("junk.cubin");
    std::fs::write(&junk, b"not an ELF").unwrap();
    let (rc, _, err) = inspect(&junk);
    assert_eq!(rc, 2, "{err}");
    assert!(err.starts_with("ptx-sync: cuobjdump cannot read"), "{err}");
}

#[test]
fn a_directory_is_bad_input_and_says_so() {
    let dir = data("");
    let (rc, out, err) = inspect(&dir);
    assert_eq!(rc, 2, "{out}{err}");
    assert_eq!(err.lines().count(), 1, "one line:\n{err}");
    assert!(
        err.starts_with("ptx-sync: cannot read ") && err.contains("is a directory"),
        "{err}"
    );
    assert!(!err.contains("no such file"), "{err}");
    assert!(out.is_empty(), "{out}");
}

#[test]
fn a_long_ptxas_log_shows_its_first_lines_and_counts_the_rest() {
    // 40 unknown instructions: ptxas reports one error line per instruction (and a summary
    // line); the CLI shows the first line, 10 more, and how many it left out.
    let mut body = String::new();
    for _ in 0..40 {
        body.push_str("\tfoo.bar;\n");
    }
    let bad = scratch("many_errors.ptx");
    std::fs::write(
        &bad,
        format!(
            ".version 8.6\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n{body}\tret;\n}}\n"
        ),
    )
    .unwrap();
    // What ptxas itself prints for it (the log the CLI shortens).
    let o = Command::new(tools().join("ptxas"))
        .args(["-arch=sm_90", "-O3"])
        .arg(&bad)
        .arg("-o")
        .arg(scratch("many_errors.cubin"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stderr),
        String::from_utf8_lossy(&o.stdout)
    );
    let log_lines = log.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(log_lines >= 40, "ptxas printed {log_lines} lines:\n{log}");
    let (rc, out, err) = inspect(&bad);
    assert_eq!(rc, 2, "{out}{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 12, "first line + 10 + the count:\n{err}");
    assert!(
        lines[0].starts_with("ptx-sync: ptxas rejects") && lines[0].contains("line 6"),
        "{err}"
    );
    assert_eq!(
        lines[11],
        format!("  … and {} more lines", log_lines - 11),
        "{err}"
    );
}

/// The project's own kernels (`target/ptx/kernels.ptx`, built by `cargo xtask ptx`): a lint
/// fires only on a kernel the programs' registry marks as broken (`CORRECT == false`: the
/// seed's bugs, kept on purpose), and exactly on those of them listed here with the bug the
/// lint names. No false positive on any other kernel (correct programs, the §5 fixes, the
/// tiled copy, DeepEP's barrier, the benchmarks, the comparisons with CUDA C++).
#[test]
fn the_project_kernels_fire_only_on_their_documented_bugs() {
    use ptx_sync_programs::section5::{Section5, Section54};
    use ptx_sync_programs::Litmus;
    macro_rules! litmus {
        ($($k:ident: $T:path),* $(,)?) => { [$((stringify!($k), <$T as Litmus>::CORRECT)),*] };
    }
    macro_rules! s5 {
        ($($k:ident: $T:path),* $(,)?) => { [$((stringify!($k), <$T as Section5>::CORRECT)),*] };
    }
    macro_rules! s54 {
        ($($k:ident: $T:path),* $(,)?) => { [$((stringify!($k), <$T as Section54>::CORRECT)),*] };
    }
    let mut correct: BTreeMap<String, bool> = BTreeMap::new();
    let own = |rows: &[(&str, bool)]| -> Vec<(String, bool)> {
        rows.iter().map(|(k, ok)| (k.to_string(), *ok)).collect()
    };
    correct.extend(own(&ptx_sync_programs::for_each_litmus!(litmus)));
    correct.extend(own(&ptx_sync_programs::for_each_section5!(s5)));
    correct.extend(own(&ptx_sync_programs::for_each_section54!(s54)));
    assert!(correct.len() > 30, "{correct:?}");
    // The same programs at model-check size (`tiny_<kernel>`, `host/kernels/src/kcheck.rs`),
    // DeepEP's barrier there (correct), and the planted bugs of issue #22
    // (`kcheck_planted.rs`: broken, their `_fix` twins correct).
    let tiny: Vec<(String, bool)> = correct
        .iter()
        .map(|(k, ok)| (format!("tiny_{k}"), *ok))
        .collect();
    correct.extend(tiny);
    correct.extend(own(&[
        ("tiny_deepep_barrier", true),
        ("tiny_deepep_barrier_missing", false),
    ]));
    for k in [
        "planted_weak_spin",
        "planted_data_flag_spin",
        "planted_cta_scope",
        "planted_no_proxy_fence",
        "planted_generic_then_tma",
        "planted_cp_async_no_wait",
        "planted_grid_barrier",
    ] {
        correct.insert(k.to_string(), false);
        if !matches!(
            k,
            "planted_weak_spin" | "planted_data_flag_spin" | "planted_cta_scope"
        ) {
            correct.insert(format!("{k}_fix"), true);
        }
    }

    let dir = std::env::var("PTX_SYNC_PTX_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ptx"));
    let k = dir.join("kernels.ptx");
    assert!(
        k.is_file(),
        "{}: run `cargo xtask ptx` (cargo xtask test does)",
        k.display()
    );
    let (rc, out, err) = inspect(&k);
    assert_eq!(rc, 0, "{err}");
    let mut got: BTreeMap<(String, String), usize> = BTreeMap::new();
    for l in lints(&out) {
        let mut parts = l.trim_start_matches("lint: ").splitn(3, ": ");
        let (name, func) = (parts.next().unwrap(), parts.next().unwrap());
        assert_eq!(
            correct.get(func),
            Some(&false),
            "a lint on `{func}`, which is not a broken program of the registry:\n{l}"
        );
        *got.entry((name.to_string(), func.to_string())).or_default() += 1;
    }
    // The registry's broken kernels each lint catches (and how many instructions it names).
    let want: BTreeMap<(String, String), usize> = [
        // Seed §3.5 fn. 15: st.release.cta / ld.acquire.cta between two CTAs.
        ("cta-scope-across-ctas", "litmus_mp_rel_acq_cta", 2),
        ("cta-scope-across-ctas", "litmus_mp_rel_acq_cta_once", 2),
        // Seed §5.1: cp.async + commit, then bar.arrive before cp.async.wait_all.
        ("cp-async-barrier-without-wait", "s51_cp_async_bug", 1),
        // Seed §5.3: the consumer arrives on `empty` without fence.proxy.async.
        ("arrive-without-proxy-fence", "s53_reuse_bug", 1),
        // Seed §5.4: the remote arrives on the peer's `empty` at .cta scope.
        ("remote-arrive-cta-scope", "s54_cluster_cta", 2),
        // The same programs at model-check size: the same lints on the same bugs.
        ("cta-scope-across-ctas", "tiny_litmus_mp_rel_acq_cta", 2),
        (
            "cta-scope-across-ctas",
            "tiny_litmus_mp_rel_acq_cta_once",
            2,
        ),
        ("cp-async-barrier-without-wait", "tiny_s51_cp_async_bug", 1),
        ("arrive-without-proxy-fence", "tiny_s53_reuse_bug", 1),
        ("remote-arrive-cta-scope", "tiny_s54_cluster_cta", 2),
        // Issue #22's planted bugs (`kcheck_planted.rs`): the weak spin's self-loop, the
        // `Data` flag's timer-only loop, the .cta pair, the arrive without the proxy fence, the
        // generic load then TMA, cp.async then the barrier (the grid barrier's deadlock is for
        // the checker: no lint sees it).
        ("hoisted-spin-loop", "planted_weak_spin", 1),
        ("timed-wait-without-load", "planted_data_flag_spin", 1),
        ("cta-scope-across-ctas", "planted_cta_scope", 2),
        ("arrive-without-proxy-fence", "planted_no_proxy_fence", 1),
        ("generic-load-then-tma-write", "planted_generic_then_tma", 1),
        (
            "cp-async-barrier-without-wait",
            "planted_cp_async_no_wait",
            1,
        ),
    ]
    .into_iter()
    .map(|(l, f, n)| ((l.to_string(), f.to_string()), n))
    .collect();
    assert_eq!(got, want, "{out}");
}
