//! `ptx-sync check FILE.ptx …` (issue #22 §1–§3) from the binary, on the small hand-written
//! modules of `host/tests/data/check/`. Every expected verdict is derived below from the PTX ISA
//! (chapter 8), every expected SASS difference from the rows of `docs/fence-costs.md`.
//!
//! The modules: `mp_gpu.ptx` is message passing — the thread with `%tid.x + %ctaid.x == 0`
//! writes data (word 1, weak `st`) then the flag (word 0, `st.release.gpu`, line 20); every other
//! thread spins on the flag with `ld.acquire.gpu` (line 23) until it reads 1, then reads data
//! (line 26) and copies it to word 2 (line 27). `mp_cta.ptx` is the same with `.cta` for both
//! flag accesses.
//!
//! Exit codes are the litmus files' convention: 0 whenever the verdict is decided (a data race or
//! a failed assertion is a decided verdict; `check` on litmus files exits 0 for a `No` too), 2 bad
//! input, 3 unsupported or bounded.

use std::path::PathBuf;
use std::process::Output;

#[path = "support/cli.rs"]
mod cli;
use cli::{run, stderr, stdout};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn data(name: &str) -> String {
    repo()
        .join("host/tests/data/check")
        .join(name)
        .display()
        .to_string()
}

/// A fresh empty temporary directory for one test.
fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ptx-sync-check-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// [`cli::check_mp`] on `host/tests/data/check/MODULE`.
fn check_mp(module: &str, grid: &str, block: &str, extra: &[&str]) -> Output {
    cli::check_mp(&data(module), grid, block, extra)
}

/// Two CTAs (grid 2, block 1; no `--cluster`, so each CTA is its own cluster): the `.gpu` scope
/// contains both threads, so the flag store and load are morally strong (PTX ISA §8.6); the
/// release store and the acquire load that reads it synchronize (§8.9.4: a release pattern
/// synchronizes with an acquire pattern that observes its write), so the data store precedes
/// the data load in causality order: no data race (§8.7.1), and the load cannot read the initial
/// value that the store overwrote in coherence order (§8.10.6) — it reads 42 in every execution.
#[test]
fn mp_release_acquire_gpu_across_two_ctas_is_clean() {
    let o = check_mp("mp_gpu.ptx", "2", "1", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("Flag"), "{out}");
    assert!(out.lines().any(|l| l == "Kernel mp"), "{out}");
    assert!(out.lines().any(|l| l == "Ok"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("Observation mp Never 0 ") && l.ends_with("(~exists)")),
        "{out}"
    );
}

/// `--max-steps` on the seed's §5.4 kernels (`target/ptx/kernels.ptx`, `cargo xtask ptx`; the
/// launch of `docs/kernel-check.md`), stopped after 5,000 steps. `tiny_s54_cluster_cta`'s
/// `.release.cta` remote arrives on CTA A's `empty` come from CTA B, outside their scope: not
/// morally strong with A's accesses (§8.6), a data race (§8.7.1) in its first executions — the
/// flags are printed, then `Incomplete tiny_s54_cluster_cta (…)`, exit 3: not decided, but each
/// flag holds. `tiny_s54_cluster_fix` has no flag to find: the limit is `unsupported: more than
/// 5000 exploration steps` on stderr, exit 3, nothing on stdout.
#[test]
fn max_steps_stops_with_the_flags_found_or_as_unsupported() {
    let ptx = repo().join("target/ptx/kernels.ptx").display().to_string();
    let s54 = |entry: &str| {
        run(&[
            "check",
            &ptx,
            "--entry",
            entry,
            "--grid",
            "2",
            "--block",
            "2",
            "--cluster",
            "2",
            "--param",
            "0=buf:32",
            "--param",
            "1=buf:64",
            "--param",
            "2=buf:4",
            "--max-steps",
            "5000",
        ])
    };
    let o = s54("tiny_s54_cluster_cta");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.starts_with("(* data race") && l.contains("mbarrier.arrive.release.cta")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l
                .starts_with("Incomplete tiny_s54_cluster_cta (more than 5000 exploration steps")),
        "{out}"
    );
    let o = s54("tiny_s54_cluster_fix");
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("more than 5000 exploration steps"),
        "{}",
        stderr(&o)
    );
}

/// The same at `.cta` scope across two CTAs: a `.cta` operation's scope does not contain a thread
/// of another CTA, so the flag accesses are not morally strong (§8.6): they conflict unordered —
/// a data race on the flag (§8.7.1) — and no release/acquire synchronization happens, so nothing
/// orders the weak data store before the weak data load: a second race, and the load may read
/// the initial 0 while the flag read 1: the assertion "never anything but 42" fails.
#[test]
fn mp_release_acquire_cta_across_two_ctas_races_and_can_read_0() {
    let dir = tmp("cta");
    let json = dir.join("v.json");
    let wit = dir.join("w");
    let (j, w) = (json.display().to_string(), wit.display().to_string());
    let o = check_mp("mp_cta.ptx", "2", "1", &["--json", &j, "--witness", &w]);
    assert_eq!(o.status.code(), Some(0), "decided: {}", stderr(&o));
    let out = stdout(&o);
    let races: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("(* data race"))
        .collect();
    assert_eq!(
        out.lines().filter(|l| *l == "Flag data-race").count(),
        2,
        "{out}"
    );
    assert!(
        races
            .iter()
            .any(|r| r.contains("(line 19)") && r.contains("(line 26)")),
        "the data store and load: {out}"
    );
    assert!(
        races
            .iter()
            .any(|r| r.contains("`st.release.cta.u32 [%rd1], 1` (line 20)")
                && r.contains("`ld.acquire.cta.u32 %r3, [%rd1]` (line 23)")),
        "the flag store and load: {out}"
    );
    assert!(out.lines().any(|l| l == "No"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("Observation mp Sometimes ")),
        "{out}"
    );
    // --json: the same verdict.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["entry"], "mp");
    assert_eq!(v["holds"], false);
    assert_eq!(v["bounded"], false);
    assert_eq!(v["races"].as_array().map(Vec::len), Some(2));
    // --witness: a graph whose events name their PTX lines, with the race edges.
    let dot = std::fs::read_to_string(wit.join("mp.dot")).unwrap();
    assert!(
        dot.contains("st.release.cta.u32 [%rd1], 1 (line 20)"),
        "{dot}"
    );
    assert!(dot.contains("label=\"race\""), "{dot}");
    let svg = std::fs::read_to_string(wit.join("mp.svg")).unwrap();
    assert!(svg.contains("<svg"));
    let _ = std::fs::remove_dir_all(dir);
}

/// `.cta` is enough when both threads are in one CTA (grid 1, block 2): the scope now contains
/// both, the accesses are morally strong and synchronize as in the `.gpu` case — clean. (This is
/// also what shows that `--grid`/`--block` place the threads.)
#[test]
fn mp_release_acquire_cta_in_one_cta_is_clean() {
    let o = check_mp("mp_cta.ptx", "1", "2", &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("Flag"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("Observation mp Never 0 ")),
        "{out}"
    );
}

/// Bad input: exit 2 and one line on stderr that names the bad argument.
#[test]
fn bad_arguments_exit_2_with_one_line_naming_them() {
    let mp = data("mp_gpu.ptx");
    let litmus = repo()
        .join("model/litmus/seed/seed-2.1-WR+fence.sc.gpu.litmus")
        .display()
        .to_string();
    let buf = ["--param", "0=buf:12"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--grid", "0"], "--grid 0"),
        (vec!["--block", "2,x"], "--block 2,x"),
        (vec!["--block", "1,1,1,1"], "--block 1,1,1,1"),
        (vec!["--param", "0=buf:lots"], "--param 0=buf:lots"),
        (vec!["--param", "7"], "--param 7"),
        (vec!["--entry", "nope"], "nope"),
        (vec!["--assert", "maybe (p0[0] == 1)"], "maybe"),
        (vec!["--param", "5=buf:4"], "parameter 5"),
        (vec!["--max-steps", "0"], "--max-steps 0"),
        (vec!["--jobs", "0"], "--jobs 0"),
    ];
    for (extra, want) in cases {
        let mut args = vec!["check", mp.as_str()];
        if !extra.iter().any(|a| a.starts_with("0=")) {
            args.extend_from_slice(&buf);
        }
        args.extend_from_slice(&extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(e.contains(want), "{args:?}: {e}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
    // A parameter left unbound is named.
    let o = run(&["check", mp.as_str()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("parameter 0"), "{}", stderr(&o));
    // A missing file.
    let o = run(&["check", "/no/such/kernel.ptx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/no/such/kernel.ptx"), "{}", stderr(&o));
    // A .ptx module is checked on its own; launch options do not apply to litmus files.
    let o = run(&["check", mp.as_str(), litmus.as_str()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("on its own"), "{}", stderr(&o));
    let o = run(&["check", litmus.as_str(), "--grid", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--grid"), "{}", stderr(&o));
    let o = run(&[
        "check",
        mp.as_str(),
        "--param",
        "0=buf:12",
        "--advise",
        "--json",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--json"), "{}", stderr(&o));
    // A text SASS dump is refused with what to give instead, with or without launch options (the
    // file need not exist: the name says what it is).
    for args in [
        vec!["check", "build/kernels.sass"],
        vec![
            "check",
            "build/kernels.sass",
            "--entry",
            "mp",
            "--grid",
            "2",
        ],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(
            e.contains(args[1]) && e.contains("machine code") && e.contains(".ptx"),
            "{args:?}: {e}"
        );
    }
    // A container (its PTX is checked: tests/check_containers.rs) that is missing, or is not
    // one, is named in one line.
    let junk = tmp("junk").join("k.cubin");
    std::fs::write(&junk, "not an ELF").unwrap();
    let junk = junk.display().to_string();
    for args in [
        vec!["check", "build/kernels.cubin"],
        vec!["check", "app.fatbin", "--entry", "mp", "--grid", "2"],
        vec!["check", junk.as_str()],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(e.contains(args[1]), "{args:?}: {e}");
    }
    let o = run(&["check", &junk]);
    assert!(stderr(&o).contains("nor an ELF file"), "{}", stderr(&o));
}

/// Litmus files keep working as before, exit 0 also for a `No`.
#[test]
fn litmus_files_still_check_as_before() {
    // §2.1 WR with fence.sc.gpu on both sides: both reading 0 is forbidden (PTX ISA §8.9.3–4,
    // Fence-SC order), so "exists both 0" is Never.
    let f = repo().join("model/litmus/seed/seed-2.1-WR+fence.sc.gpu.litmus");
    let o = run(&["check", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("Test seed-2.1-WR+fence.sc.gpu "), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("Observation seed-2.1-WR+fence.sc.gpu Never 0 ")),
        "{out}"
    );
}

/// `--jobs N` (`model/SEMANTICS.md` S9): the seed folder's reports are the same on one thread and
/// on three, but for the time lines; `--jobs 0` on litmus files is bad input (one line, exit 2).
#[test]
fn jobs_give_the_same_reports_and_zero_is_bad_input() {
    let dir = repo().join("model/litmus/seed");
    let d = dir.to_str().unwrap();
    let report = |jobs: &str| {
        let o = run(&["check", d, "--jobs", jobs]);
        assert_eq!(o.status.code(), Some(0), "--jobs {jobs}: {}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<String> = out
            .lines()
            .filter(|l| !l.starts_with("Time "))
            .map(str::to_owned)
            .collect();
        assert!(lines.len() > 100, "--jobs {jobs}: {out}");
        lines
    };
    assert_eq!(report("1"), report("3"));
    let o = run(&["check", d, "--jobs", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("--jobs 0"), "{}", stderr(&o));
}

/// Something the model does not know: exit 3, `unsupported: … (line N)`.
#[test]
fn an_unsupported_instruction_exits_3_naming_it() {
    let f = data("unsupported.ptx");
    let o = run(&["check", &f, "--param", "0=buf:4"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("unsupported: instruction `istypep.texref` (line 12)"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
}

/// A loop cut at the unroll bound leaves the verdict undecided: exit 3 and `Bounded`; with a
/// bound above the loop's 100 iterations every path ends and the count is 100.
#[test]
fn a_loop_cut_at_the_unroll_bound_exits_3() {
    let f = data("count.ptx");
    let o = run(&["check", &f, "--param", "0=buf:4", "--unroll", "4"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stdout(&o).lines().any(|l| l.starts_with("Bounded count ")),
        "{}",
        stdout(&o)
    );
    let o = run(&[
        "check",
        &f,
        "--param",
        "0=buf:4",
        "--unroll",
        "200",
        "--assert",
        "forall (p0[0] == 100)",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).lines().any(|l| l == "Ok"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("Bounded"), "{}", stdout(&o));
}

/// The rows of the table after the line starting with `title` (up to the next blank line), as
/// their `|`-separated cells, header excluded.
fn table_after(out: &str, title: &str) -> Vec<Vec<String>> {
    let mut lines = out.lines().skip_while(|l| !l.starts_with(title)).skip(2);
    let mut rows = Vec::new();
    for l in lines.by_ref() {
        if l.trim().is_empty() {
            break;
        }
        rows.push(l.split('|').map(|c| c.trim().to_string()).collect());
    }
    rows
}

fn row(cells: &[&str]) -> Vec<String> {
    cells.iter().map(|c| c.to_string()).collect()
}

/// `--advise` on a kernel (issue #22 §3). In one CTA (grid 1, block 2) both flag accesses can
/// narrow to `.cta` (the scope still contains both threads, §8.6) but neither can drop its
/// release/acquire (then no pattern synchronizes, §8.9.4, and the data load may read 0). The SASS
/// saved, from `docs/fence-costs.md`: `st.release.gpu.u32` = MEMBAR.ALL.GPU ERRBAR CGAERRBAR
/// ST.E.STRONG.GPU, `st.release.cta.u32` = MEMBAR.ALL.CTA ST.E.STRONG.SM; `ld.acquire.gpu.u32` =
/// LD.E.STRONG.GPU CCTL.IVALL, `ld.acquire.cta.u32` = LD.E.STRONG.SM.
/// Across two CTAs nothing can be weakened (`.cluster` already excludes the other CTA).
#[test]
fn advise_on_a_kernel_narrows_within_one_cta_only() {
    let o = check_mp("mp_gpu.ptx", "1", "2", &["--advise"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let combined = table_after(&out, "Combined");
    assert_eq!(
        combined,
        [
            row(&[
                "20",
                "mp",
                "st.release.gpu.u32 [%rd1], 1",
                "st.release.cta.u32 [%rd1], 1",
                "−MEMBAR.ALL.GPU −ERRBAR −CGAERRBAR −ST.E.STRONG.GPU +MEMBAR.ALL.CTA +ST.E.STRONG.SM"
            ]),
            row(&[
                "23",
                "mp",
                "ld.acquire.gpu.u32 %r3, [%rd1]",
                "ld.acquire.cta.u32 %r3, [%rd1]",
                "−LD.E.STRONG.GPU −CCTL.IVALL +LD.E.STRONG.SM"
            ]),
        ],
        "{out}"
    );
    let not_kept = table_after(&out, "Not kept");
    assert!(not_kept
        .iter()
        .any(|r| r[0] == "20" && r[3] == "st.relaxed.gpu.u32 [%rd1], 1"));
    assert!(not_kept
        .iter()
        .any(|r| r[0] == "23" && r[3] == "ld.relaxed.gpu.u32 %r3, [%rd1]"));

    let o = check_mp("mp_gpu.ptx", "2", "1", &["--advise"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("No single weakening keeps the verdict."),
        "{out}"
    );
    assert!(
        out.contains("nothing: the program stays as written"),
        "{out}"
    );
}

/// `--advise` on the seed's §2.5 hand-off (ten `fence.sc.gpu`, its two corpus tests together).
/// The combination, derived in `model/tests/advise.rs` (`seed_2_5_ten_fences`) from PTX ISA
/// §8.8–§8.10, is the seed's §3.4 program: the producer's first fence release, its second
/// acquire; each consumer's fence after the full read acquire, after the data read release, the
/// store-buffering fence (line 15) stays `fence.sc`, the one before the empty store acq_rel.
/// SASS from `docs/fence-costs.md`: `fence.sc.gpu` = MEMBAR.SC.GPU ERRBAR CGAERRBAR CCTL.IVALL,
/// `fence.acq_rel.gpu` = MEMBAR.ALL.GPU ERRBAR CGAERRBAR CCTL.IVALL, `fence.release.gpu` =
/// MEMBAR.ALL.GPU ERRBAR CGAERRBAR, `fence.acquire.gpu` = CCTL.IVALL.
#[test]
fn advise_on_the_seed_2_5_hand_off() {
    let seed = repo().join("model/litmus/seed");
    let a = seed.join("seed-2.5-ten-fences-data.litmus");
    let b = seed.join("seed-2.5-ten-fences-someone-empties.litmus");
    let o = run(&[
        "check",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--advise",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let rel = "−MEMBAR.SC.GPU −CCTL.IVALL +MEMBAR.ALL.GPU";
    let acq = "−MEMBAR.SC.GPU −ERRBAR −CGAERRBAR";
    let ar = "−MEMBAR.SC.GPU +MEMBAR.ALL.GPU";
    let mut want = vec![
        row(&["11", "P0", "fence.sc.gpu", "fence.release.gpu", rel]),
        row(&["14", "P0", "fence.sc.gpu", "fence.acquire.gpu", acq]),
    ];
    for c in ["P1", "P2"] {
        want.push(row(&["11", c, "fence.sc.gpu", "fence.acquire.gpu", acq]));
        want.push(row(&["13", c, "fence.sc.gpu", "fence.release.gpu", rel]));
        want.push(row(&["17", c, "fence.sc.gpu", "fence.acq_rel.gpu", ar]));
    }
    assert_eq!(table_after(&out, "Combined"), want, "{out}");
    // Line 15 (Fc) is never kept in any weaker form.
    assert!(
        !table_after(&out, "Kept")
            .iter()
            .any(|r| r[0] == "15" && r[1] != "P0"),
        "{out}"
    );
}

/// `--unroll` is shared by `--advise` on litmus files: one thread counts to 6 with a
/// `fence.sc.gpu` in the loop (five jumps back). At the default bound 4 the baseline is
/// `Bounded`, so there is no verdict to keep: exit 3, and the message says to raise `--unroll`.
/// At 10 it is decided (x's only write stores 6: `Always`); with no other thread a fence orders
/// nothing another thread could see (PTX ISA §8.8 patterns need two threads), so every weaker form
/// is kept and the greedy pass removes it, saving the whole `fence.sc.gpu` row.
#[test]
fn advise_on_a_litmus_loop_uses_the_unroll_bound() {
    let dir = tmp("unroll");
    let f = dir.join("count-fence.litmus");
    std::fs::write(
        &f,
        "PTX count-fence\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n mov.u32 r1, 0 ;\n L0: ;\n add.u32 r1, r1, 1 ;\n fence.sc.gpu ;\n setp.lt.u32 p0, r1, 6 ;\n @p0 bra L0 ;\n st.u32 [x], r1 ;\nexists (x == 6)\n",
    )
    .unwrap();
    let fs = f.to_str().unwrap();
    let o = run(&["check", fs, "--advise"]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    assert!(stderr(&o).contains("--unroll"), "{}", stderr(&o));
    let o = run(&["check", fs, "--advise", "--unroll", "10"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Observation Always"), "{out}");
    assert_eq!(
        table_after(&out, "Combined"),
        [row(&[
            "9",
            "P0",
            "fence.sc.gpu",
            "(removed)",
            "−MEMBAR.SC.GPU −ERRBAR −CGAERRBAR −CCTL.IVALL"
        ])],
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
