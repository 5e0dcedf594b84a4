//! Seed §2: the data hand-off (P writes `data`, C1 and C2 read it, P overwrites it once both are
//! done) with `fence.sc.gpu` next to every flag (§2.5), and with one of the fences removed
//! (§2.1–2.4). Flags are `Strong<u32>` accessed `.relaxed.gpu`; `data` is ordinary (`Data`), so
//! a read that is not ordered after the write it needs is a data race that loom reports.
//!
//! | program | removed fence | verdict |
//! |---|---|---|
//! | §2.5 | none | passes |
//! | §2.1 | W→R between `done1 = 1` and reading `done2` | caught: nobody writes `empty` (deadlock) |
//! | §2.2 | W→W between `data = 42` and `full = 1` | caught: data race on `data` |
//! | §2.3 | R→R between reading `full` and reading `data` | caught: data race on `data` |
//! | §2.4 | R→W between reading `data` and `done1 = 1` | not expressible (below); GPU runner |
//!
//! §2.4 is out of loom's reach. The outcome (C1's read returns 43) needs load buffering — a read
//! returning a write later in causality order — which loom does not explore, so a value assertion
//! could never fail. The data race that the missing fence leaves (C1's read of `data` unordered
//! with P's `data = 43`) is not found either: loom models every `fence(SeqCst)` as joining one
//! global clock in execution order, which is stronger than the C++ (and PTX) Fence-SC order, so
//! C1's *later* `fence.sc` (the W→R one) orders its read before P's `fence.sc` in almost every
//! schedule, and the schedule that would expose it (C1 preempted between `done1 = 1` and that
//! fence) is not one DPOR considers (fences are not DPOR operations). Tried with preemption bounds
//! 2 and 3: not caught. No test is written for it; the GPU runner covers it.
//!
//! Preemption bound: 1 for every test (three threads, each with bounded spins).
#![cfg(loom)]

use ptx_sync_loom_tests::programs::handoff;
use ptx_sync_programs::handoff::Handoff;

const BOUND: usize = 1;

/// Which of the §2.5 fences are present (the program is `ptx_sync_programs::handoff`, version
/// `V2`: the source the GPU kernels `litmus_handoff_2_5*` are built from).
#[derive(Clone, Copy)]
struct Fences {
    /// P: between `data = 42` and `full = 1` (§2.2).
    ww: bool,
    /// C: between reading `full` and reading `data` (§2.3).
    rr: bool,
    /// C: between reading `data` and `done = 1` (§2.4).
    rw: bool,
    /// C: between `done = 1` and reading the other's `done` (§2.1).
    wr: bool,
}

const ALL: Fences = Fences {
    ww: true,
    rr: true,
    rw: true,
    wr: true,
};

fn run(f: Fences) {
    // P's fence after seeing `empty` and C's before `empty = 1` stay in every variant here.
    let Fences { ww, rr, rw, wr } = f;
    handoff(
        BOUND,
        Handoff::V2 {
            ww,
            rr,
            rw,
            wr,
            hand_back: true,
        },
    );
}

/// §2.5: ten `fence.sc.gpu`, each next to a flag — every interleaving hands off 42 and then 43.
#[test]
fn s2_5_all_fences_passes() {
    run(ALL);
}

/// §2.1 (write buffer, W→R): both consumers may read the other's `done` as 0; nobody writes
/// `empty` and P waits forever — reported as a deadlock by the bounded spin.
#[test]
#[should_panic(expected = "deadlock: nobody writes empty")]
fn s2_1_without_wr_fence_caught() {
    run(Fences { wr: false, ..ALL });
}

/// §2.2 (write overlap, W→W): C may see `full == 1` before `data = 42`: a race on `data`.
#[test]
#[should_panic(expected = "ptx-sync model: data race on Data")]
fn s2_2_without_ww_fence_caught() {
    run(Fences { ww: false, ..ALL });
}

/// §2.3 (non-blocking reads, R→R): C's read of `data` may be performed before its read of
/// `full`: a race on `data`.
#[test]
#[should_panic(expected = "ptx-sync model: data race on Data")]
fn s2_3_without_rr_fence_caught() {
    run(Fences { rr: false, ..ALL });
}
