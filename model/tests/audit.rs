//! The wrong answers issue #19's audit (§4) found in the checker of commit feb866b, each as a
//! test that failed there and passes now. The expected verdicts are derived from the PTX ISA,
//! not from the checker:
//!
//! * 17 or more threads of one CTA at a barrier: `Always`, not a hang (feb866b: `Never` + hang);
//! * 65 or more threads: no 64-thread or 64-event cap, and a thread blocked for ever is that
//!   thread only (feb866b: `unsupported`, or thread 64's blocked bit wrapped onto thread 0);
//! * a loop cut at the unroll bound gives no decided verdict: `Bounded`, exit 3 (feb866b: `Never`,
//!   exit 0); `--unroll N` decides it;
//! * `check DIR` does not follow symlink loops (feb866b: 3 files listed 123 times) nor block on a
//!   FIFO (feb866b: blocked in `read`).
//!
//! The parser's items of the audit (a condition nested 10 000 deep, `atom.inc/dec` on 64-bit
//! types, `bar.sync 16`, a count of 0 or a negative count) are in `front.rs`.

use ptx_sync_model::{check, check_file_with, cli, CheckOptions, Observation};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// A test of `n` threads in CTA 0: P0 stores x = 1 and every thread executes `bar.cta.sync 0`
/// (no count: every thread of the CTA); the last thread then reads x.
fn barrier_test(n: usize) -> String {
    let head: Vec<String> = (0..n).map(|i| format!("P{i}@cta 0,gpu 0")).collect();
    let row1: Vec<&str> = (0..n)
        .map(|i| {
            if i == 0 {
                "st.u32 [x], 1"
            } else {
                "bar.cta.sync 0"
            }
        })
        .collect();
    let row2: Vec<&str> = (0..n)
        .map(|i| match i {
            0 => "bar.cta.sync 0",
            i if i == n - 1 => "ld.u32 r0, [x]",
            _ => "",
        })
        .collect();
    format!(
        "PTX bar-{n}\n{{\nx=0;\n}}\n {} ;\n {} ;\n {} ;\nexists (P{}:r0 == 1)\n",
        head.join(" | "),
        row1.join(" | "),
        row2.join(" | "),
        n - 1
    )
}

/// PTX ISA `bar`: "If no thread count is specified, all threads in the CTA participate in the
/// barrier"; 8.9.4: "A bar{.cta}.sync ... operation synchronizes with a bar{.cta}.sync ...
/// operation executed on the same barrier". P0's store is causally before the last thread's load
/// (8.9.5), so by 8.10.6 the load returns 1 in every execution: `Always`, no hang, no race.
#[test]
fn seventeen_and_more_threads_of_one_cta_complete_a_barrier() {
    for n in [16, 17, 32, 65, 100] {
        let out = check(&barrier_test(n), &format!("bar-{n}.litmus")).unwrap();
        assert_eq!(
            (out.observation, out.ok),
            (Observation::Always, true),
            "{n} threads:\n{}",
            out.herd()
        );
        assert!(out.flag_names().is_empty(), "{n} threads:\n{}", out.herd());
        assert_eq!((out.found.positive, out.found.negative), (1, 0));
    }
}

/// 65 threads; P64, alone in CTA 1, waits at `bar.cta.sync 0, 2` for a second thread that never
/// comes (PTX ISA `bar`: it waits "until the specified number of threads arrive"): a hang, and
/// its later store never happens. P0 (CTA 0) stores x = 1 and reads it back: program order
/// (8.10.6 / CoWR) gives 1 in every execution, and P0 finishes, so its state counts: `Always`
/// with `Flag hang` (FORMAT.md: a blocked thread has no final state; the others do). feb866b
/// set P64's blocked bit as `1 << 64`, which wrapped onto P0: `Never`.
#[test]
fn a_blocked_thread_64_does_not_block_thread_0() {
    let n = 65;
    let head: Vec<String> = (0..n)
        .map(|i| format!("P{i}@cta {},gpu 0", if i == n - 1 { 1 } else { 0 }))
        .collect();
    let cell = |i: usize, row: usize| match (i, row) {
        (0, 0) => "st.u32 [x], 1",
        (0, 1) => "ld.u32 r0, [x]",
        (64, 0) => "bar.cta.sync 0, 2",
        (64, 1) => "st.u32 [z], 1",
        _ => "",
    };
    let rows: Vec<String> = (0..2)
        .map(|r| (0..n).map(|i| cell(i, r)).collect::<Vec<_>>().join(" | "))
        .collect();
    let text = format!(
        "PTX wrap-65\n{{\nx=0; z=0;\n}}\n {} ;\n {} ;\n {} ;\nexists (P0:r0 == 1)\n",
        head.join(" | "),
        rows[0],
        rows[1]
    );
    let out = check(&text, "wrap-65.litmus").unwrap();
    assert_eq!(out.observation, Observation::Always, "{}", out.herd());
    assert_eq!(out.flag_names(), vec!["hang".to_string()], "{}", out.herd());
    assert!(
        out.found.hangs.iter().any(|h| h.contains("P64")),
        "{:?}",
        out.found.hangs
    );
}

/// A loop that stores 1, 2, …, 6 to x: the branch back is taken 5 times. x's final value is 6
/// (8.10.1: program-ordered writes of one thread are in coherence order), but the default bound
/// ([`ptx_sync_model::parse::DEFAULT_UNROLL`] = 4 backward jumps) cuts the only path: the verdict
/// is `Bounded`, not `ok`, and `check` exits 3. `--unroll 5` lets the path finish: `Always`.
const LOOP6: &str = "PTX loop-6\n{\nx=0;\n}\n P0@cta 0,gpu 0 ;\n mov.u32 r1, 0 ;\n L0: ;\n add.u32 r1, r1, 1 ;\n st.u32 [x], r1 ;\n setp.lt.u32 p0, r1, 6 ;\n @p0 bra L0 ;\nexists (x == 6)\n";

fn tmp_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("audit")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_loop_cut_at_the_unroll_bound_is_bounded_and_exits_3() {
    assert_eq!(ptx_sync_model::parse::DEFAULT_UNROLL, 4);
    let out = check(LOOP6, "loop-6.litmus").unwrap();
    assert_eq!(out.observation, Observation::Bounded, "{}", out.herd());
    assert!(out.bounded() && !out.ok);
    assert_eq!(out.found.cut, 1);
    let herd = out.herd();
    assert!(herd.contains("\nBounded\n"), "{herd}");
    assert!(herd.contains("Observation loop-6 Bounded 0 0"), "{herd}");
    assert!(
        !herd.contains("\nOk\n") && !herd.contains("\nNo\n"),
        "{herd}"
    );
    assert_eq!(out.json()["bounded"], true);
    assert_eq!(out.json()["observation"], "Bounded");

    let d = tmp_dir("loop");
    let f = d.join("loop-6.litmus");
    std::fs::write(&f, LOOP6).unwrap();
    let paths = [f.clone()];
    assert_eq!(cli(&paths, &CheckOptions::default()), 3);
    let opts = CheckOptions {
        unroll: Some(4),
        ..Default::default()
    };
    let out = check_file_with(&f, &opts).unwrap();
    assert_eq!(out.observation, Observation::Bounded, "{}", out.herd());
    assert_eq!(cli(&paths, &opts), 3);
}

/// `--unroll N` (here 5, the loop's five backward jumps, and 50) lets the path finish, and the
/// verdict is decided: the six stores of one thread are in program order, so x's final value is
/// 6 (8.10.1: "If a write W precedes an overlapping write W' in causality order, then W must
/// precede W' in coherence order"): `Always`, exit 0.
#[test]
fn unroll_n_decides_the_loop_and_its_iterations_stay_in_program_order() {
    let d = tmp_dir("loop-unroll");
    let f = d.join("loop-6.litmus");
    std::fs::write(&f, LOOP6).unwrap();
    let paths = [f.clone()];
    for unroll in [5, 50] {
        let opts = CheckOptions {
            unroll: Some(unroll),
            ..Default::default()
        };
        let out = check_file_with(&f, &opts).unwrap();
        assert_eq!(out.test.unroll, unroll);
        assert_eq!(
            (out.observation, out.found.cut),
            (Observation::Always, 0),
            "--unroll {unroll}: x's final value must be 6 (each iteration's store is \
             program-ordered after the previous one's):\n{}",
            out.herd()
        );
        assert_eq!(cli(&paths, &opts), 0, "--unroll {unroll}");
    }
}

/// Runs `f` on another thread; a call that does not return within a minute is a failure (a
/// FIFO read blocks for ever), not a hung test.
fn within_a_minute<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("did not return within 60 s (blocked on a FIFO?)")
}

#[cfg(unix)]
#[test]
fn check_dir_follows_no_symlink_loop_and_never_opens_a_fifo() {
    let d = tmp_dir("tree");
    let sub = d.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    let sb = "PTX SB\n{\nx=0; y=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu.u32 [x], 1 | st.relaxed.gpu.u32 [y], 1 ;\n ld.relaxed.gpu.u32 r0, [y] | ld.relaxed.gpu.u32 r0, [x] ;\nexists (P0:r0 == 0 /\\ P1:r0 == 0)\n";
    for i in 0..3 {
        std::fs::write(sub.join(format!("t{i}.litmus")), sb).unwrap();
    }
    // A loop back to the top, a second link to the same directory, a link to a file.
    std::os::unix::fs::symlink("..", sub.join("up")).unwrap();
    std::os::unix::fs::symlink("sub", d.join("again")).unwrap();
    std::os::unix::fs::symlink("sub/t0.litmus", d.join("link.litmus")).unwrap();
    // A FIFO named like a litmus file: opening it for reading would block.
    let st = std::process::Command::new("mkfifo")
        .arg(d.join("fifo.litmus"))
        .status()
        .expect("mkfifo runs");
    assert!(st.success());

    let dd = d.clone();
    let files = within_a_minute(move || ptx_sync_model::litmus_files(&[dd])).unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|f| f.strip_prefix(&d).unwrap().display().to_string())
        .collect();
    // Each real file once, by the first path found in sorted order (`again` < `link…` < `sub`).
    assert_eq!(
        names,
        ["again/t0.litmus", "again/t1.litmus", "again/t2.litmus"],
        "{names:?}"
    );
    let dd = d.clone();
    assert_eq!(
        within_a_minute(move || cli(&[dd], &CheckOptions::default())),
        0
    );
    // Named explicitly, the FIFO is refused (bad input), never opened.
    let fifo = d.join("fifo.litmus");
    assert!(ptx_sync_model::litmus_files(std::slice::from_ref(&fifo))
        .unwrap_err()
        .contains("not a regular file"));
    assert_eq!(
        within_a_minute(move || cli(&[fifo], &CheckOptions::default())),
        2
    );
}
