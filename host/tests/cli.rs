//! The `ptx-sync` binary as a user meets it, on a machine without a GPU (this project's CI and
//! developer machines have no NVIDIA driver — that is what these tests rely on and check).
//!
//! * argument errors: a clear message naming the problem, exit code 2;
//! * every GPU command without a driver: exactly one line on stderr, exit code 1, no panic;
//! * `tour` runs to the end and says that outcomes are skipped;
//! * `show` prints catalog rows; `litmus list` lists every program.

use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ptx-sync"))
}

fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .output()
        .expect("the ptx-sync binary starts")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A fresh scratch directory `ptx-sync-TAG-PID` in the system's tmp dir, created.
fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ptx-sync-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `dir/name`; its path.
fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    f
}

/// `ptx-sync check ARGS`, which must exit 0 (its stderr shown otherwise).
fn check_ok(args: &[&str]) -> Output {
    let o = run(&[&["check"], args].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    o
}

fn driver_present() -> bool {
    [
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/lib64/libcuda.so.1",
        "/usr/lib/libcuda.so.1",
    ]
    .iter()
    .any(|p| std::path::Path::new(p).exists())
}

#[test]
fn argument_errors_are_clear_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["litmus", "no_such_program"],
            "unknown program `no_such_program`",
        ),
        (&["litmus", "mp_rel_acq", "--iters", "0"], "--iters"),
        (
            &["litmus", "mp_rel_acq", "--iters", "many"],
            "invalid value 'many'",
        ),
        (&["handoff", "--version", "9.9"], "invalid value '9.9'"),
        (
            &["copy", "--bytes", "12Q", "--stages", "2"],
            "not a byte count",
        ),
        (&["copy", "--bytes", "1M", "--stages", "0"], "--stages"),
        (&["copy", "--stages", "2"], "--bytes"),
        (&["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (
            &["show", "nosuchword"],
            "no instruction variant matches `nosuchword`",
        ),
        (&[], "Usage"),
    ];
    for (args, needle) in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(needle), "{args:?}: expected `{needle}` in:\n{e}");
        assert!(!e.contains("panicked"), "{args:?} panicked:\n{e}");
        // One line, except a bare `ptx-sync`, which prints the help.
        if !args.is_empty() {
            assert_eq!(e.lines().count(), 1, "{args:?}: want one line:\n{e}");
        }
    }
}

#[test]
fn gpu_commands_without_a_driver_say_so_in_one_line() {
    let gpu_machine = driver_present();
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../model/litmus/fence/MP+membar.gl.litmus"
    );
    for args in [
        &["devices"][..],
        &["litmus", file, "--iters", "1"],
        &["litmus", "mp_rel_acq", "--iters", "1"],
        &["litmus", "all"],
        &["handoff", "--version", "3.4"],
        &["copy", "--bytes", "1M", "--stages", "2"],
    ] {
        let o = run(args);
        let e = stderr(&o);
        assert!(!e.contains("panicked"), "{args:?}: {e}");
        if gpu_machine {
            // A real driver is installed: the command must not claim there is none.
            assert!(!e.contains("no NVIDIA driver"), "{args:?}: {e}");
            continue;
        }
        assert_eq!(o.status.code(), Some(1), "{args:?}: {e}");
        let lines: Vec<&str> = e.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: want one line, got:\n{e}");
        assert!(
            lines[0].starts_with("ptx-sync: no NVIDIA driver"),
            "{args:?}: {e}"
        );
        assert!(
            stdout(&o).is_empty(),
            "{args:?} printed to stdout: {}",
            stdout(&o)
        );
    }
}

#[test]
fn tour_runs_to_the_end_without_a_gpu() {
    let o = run(&["tour", "--no-gpu"]);
    let out = stdout(&o);
    assert!(o.status.success(), "tour failed: {}\n{out}", stderr(&o));
    for needle in [
        "§1 The hand-off",
        "§2.1 Write buffer",
        "§3.5 Flags must be strong",
        "§3.6 fence.sc",
        "§4.1",
        "DeepEP",
        "§5 Asynchronous copies",
        "no GPU: outcomes skipped",
        "st.release.cta.u32",
        "fence.sc.gpu",
        "tour done",
    ] {
        assert!(out.contains(needle), "tour output lacks `{needle}`:\n{out}");
    }
    // The CPU analogue of §4.1 really runs and the atomic version loses nothing.
    assert!(out.contains("atom (fetch_add): 0 lost"), "{out}");
    assert!(!out.contains("FORBIDDEN"), "{out}");
}

#[test]
fn litmus_list_names_every_program() {
    let o = run(&["litmus", "list"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for p in [
        "mp_rel_acq_cta",
        "sb_sc",
        "handoff_4_4",
        "count_atom_cta",
        "deepep_barrier_missing",
    ] {
        assert!(out.contains(p), "{p} missing:\n{out}");
    }
    assert!(out.lines().filter(|l| l.contains("broken")).count() >= 10);
}

#[test]
fn show_prints_catalog_rows() {
    let o = run(&["show", "fence", "acq_rel"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for s in [
        "fence.acq_rel.cta",
        "fence.acq_rel.cluster",
        "fence.acq_rel.gpu",
        "fence.acq_rel.sys",
        "4 variant(s)",
    ] {
        assert!(out.contains(s), "{s} missing:\n{out}");
    }
    // A filter that matches nothing is bad input: exit 2, one line (#21 §2).
    let o = run(&["show", "no_such_instruction"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no instruction variant matches"));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

fn repo() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn check_decides_the_whole_corpus_in_herd_format() {
    let corpus = repo().join("model/litmus");
    let json = std::env::temp_dir().join(format!("ptx-sync-check-{}.json", std::process::id()));
    let o = check_ok(&[corpus.to_str().unwrap(), "--json", json.to_str().unwrap()]);
    let out = stdout(&o);
    let n = std::fs::read_dir(&corpus)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|d| std::fs::read_dir(d.path()).unwrap().count())
        .sum::<usize>();
    let tests = out.lines().filter(|l| l.starts_with("Test ")).count();
    assert_eq!(tests, n, "every corpus file gets a herd block");
    for key in [
        "States ",
        "Witnesses",
        "Positive: ",
        "Condition ",
        "Observation ",
    ] {
        assert_eq!(
            out.lines().filter(|l| l.starts_with(key)).count(),
            n,
            "{key}"
        );
    }
    assert_eq!(
        out.lines().filter(|l| *l == "Ok" || *l == "No").count(),
        n,
        "one Ok/No per test"
    );
    assert!(
        stderr(&o).contains(&format!("checked {n} files")),
        "{}",
        stderr(&o)
    );
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(j.as_array().unwrap().len(), n);
    assert!(j[0]["observation"].is_string() && j[0]["states"].is_array());
    let _ = std::fs::remove_file(json);
}

#[test]
fn check_exit_codes_parse_error_2_unsupported_3() {
    let dir = scratch("check-bad");
    // A parse error exits 2, an unsupported instruction 3: each says where and what.
    for (name, text, code, msg) in [
        (
            "bad.litmus",
            "PTX bad\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.release.gpu r0, x ;\nexists (P0:r0 == 0)\n",
            2,
            "bad.litmus:4: `ld.release.gpu r0, x`: ld has no `.release`",
        ),
        (
            "uns.litmus",
            "PTX uns\n{ x=0; }\n P0@cta 0,gpu 0 ;\n cp.async.bulk r0, x ;\nexists (P0:r0 == 0)\n",
            3,
            "unsupported: instruction `cp.async.bulk` (",
        ),
    ] {
        let f = write(&dir, name, text);
        let o = run(&["check", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(code), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains(msg), "{name}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{name}");
    }
    let o = run(&["check", dir.join("missing.litmus").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["check"]);
    assert_eq!(o.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(dir);
}

/// `check FILE --unroll N` (issue #19 §2): a loop that needs more backward jumps than the bound
/// is `Bounded` and exits 3; a bound that lets it finish decides it. The loop counts r1 to 6 (five
/// jumps back, PTX ISA `bra`), then stores it: x's only final value is 6 (one write), `Always`.
#[test]
fn check_unroll_bounds_loops_and_a_cut_loop_is_bounded_exit_3() {
    let dir = scratch("check-unroll");
    let f = write(
        &dir,
        "count-6.litmus",
        "PTX count-6\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n mov.u32 r1, 0 ;\n L0: ;\n add.u32 r1, r1, 1 ;\n setp.lt.u32 p0, r1, 6 ;\n @p0 bra L0 ;\n st.u32 [x], r1 ;\nexists (x == 6)\n",
    );
    let fs = f.to_str().unwrap();
    let o = run(&["check", fs]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.lines().any(|l| l == "Bounded"), "{out}");
    assert!(out.contains("Observation count-6 Bounded 0 0"), "{out}");
    assert!(out.contains("cut at the loop unroll bound 4"), "{out}");
    assert!(stderr(&o).contains("1 bounded"), "{}", stderr(&o));
    for (n, code, obs) in [
        ("4", 3, "Bounded"),
        ("5", 0, "Always"),
        ("100", 0, "Always"),
    ] {
        let o = run(&["check", fs, "--unroll", n]);
        assert_eq!(o.status.code(), Some(code), "--unroll {n}: {}", stdout(&o));
        assert!(
            stdout(&o).contains(&format!("Observation count-6 {obs} ")),
            "--unroll {n}: {}",
            stdout(&o)
        );
    }
    // The bound is at least 1; the help states the default, which is the model's.
    for bad in ["0", "-1", "x"] {
        let o = run(&["check", fs, "--unroll", bad]);
        assert_eq!(o.status.code(), Some(2), "--unroll {bad}");
    }
    let o = run(&["check", "--help"]);
    assert!(
        stdout(&o).contains(&format!(
            "(default {};",
            ptx_sync_model::parse::DEFAULT_UNROLL
        )),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn check_witness_of_footnote_15_is_the_one_in_docs() {
    let dir = std::env::temp_dir().join(format!("ptx-sync-witness-{}", std::process::id()));
    let f = repo().join("model/litmus/seed/seed-3.5-fn15-release.cta-acquire.cta-2cta.litmus");
    check_ok(&[f.to_str().unwrap(), "--witness", dir.to_str().unwrap()]);
    let dot = std::fs::read_to_string(dir.join("seed-3.5-fn15-release.cta-acquire.cta-2cta.dot"))
        .unwrap();
    // the stale read: data read from the initial value while full was read from the release
    assert!(dot.contains("ld.acquire.cta.u32 r0, [full] = 1"), "{dot}");
    assert!(dot.contains("ld.u32 r1, [data] = 0"), "{dot}");
    assert!(dot.contains("label=\"race\""), "{dot}");
    let svg = std::fs::read_to_string(dir.join("seed-3.5-fn15-release.cta-acquire.cta-2cta.svg"))
        .unwrap();
    assert!(svg.starts_with("<?xml") && svg.contains("<svg"));
    assert_eq!(
        dot,
        std::fs::read_to_string(repo().join("docs/witness-fn15.dot")).unwrap(),
        "docs/witness-fn15.dot is stale: copy the new one"
    );
    assert_eq!(
        svg,
        std::fs::read_to_string(repo().join("docs/witness-fn15.svg")).unwrap(),
        "docs/witness-fn15.svg is stale: copy the new one"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// The two Hopper witnesses in `docs/` (issue #19, "what must be shown" 3) are what `check
/// --witness` writes today, and each shows its bug: seed §5.4's `.cta` remote arrive (the
/// waiter sees the phase complete, reads `x` from the initial value, and the store and the load
/// race) and the 2-stage ring whose consumer waits on the iteration's parity.
#[test]
fn check_witnesses_of_the_hopper_bugs_are_the_ones_in_docs() {
    let dir = std::env::temp_dir().join(format!("ptx-sync-witness-h-{}", std::process::id()));
    for (file, doc, must) in [
        (
            "model/litmus/bugs/cta-remote-arrive.litmus",
            "witness-s54-cta-remote-arrive",
            &[
                // the remote arrive completes phase 0, the wait observes it, x is still 0
                "mbarrier.arrive.shared::cluster.b64 _, [bar@0]",
                "mbarrier.try_wait.parity.shared::cta.b64 p0, [bar], 0 = 1",
                "ld.u32 r0, [x] = 0",
                "label=\"race\"",
            ][..],
        ),
        (
            "model/litmus/bugs/ring2-parity-is-iteration.litmus",
            "witness-ring2-parity",
            &["try_wait.parity", "label=\"race\""][..],
        ),
    ] {
        let f = repo().join(file);
        check_ok(&[f.to_str().unwrap(), "--witness", dir.to_str().unwrap()]);
        let stem = std::path::Path::new(file)
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap();
        let dot = std::fs::read_to_string(dir.join(format!("{stem}.dot"))).unwrap();
        for m in must {
            assert!(dot.contains(m), "{file}: {m} missing:\n{dot}");
        }
        let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
        assert!(svg.starts_with("<?xml") && svg.contains("<svg"));
        for (ext, text) in [("dot", &dot), ("svg", &svg)] {
            assert_eq!(
                *text,
                std::fs::read_to_string(repo().join(format!("docs/{doc}.{ext}"))).unwrap(),
                "docs/{doc}.{ext} is stale: copy the new one"
            );
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
