//! Seed §3.4 and §3.6: the hand-off written with release/acquire fences, keeping `fence.sc` only
//! for the W→R pair between writing one's own `done` and reading the other's.
//!
//! | program | variant | verdict |
//! |---|---|---|
//! | §3.4 | `fence.release`/`fence.acquire`/`fence.acq_rel` + two `fence.sc` | passes |
//! | §3.6 | `fence.acq_rel` in place of the two `fence.sc` (store buffering) | caught: nobody writes `empty` |
//! | §3.4 | C2's `fence.release` (before `done2 = 1`) removed | caught: data race on `data` (see below) |
//!
//! Removing C2's release breaks edge 1 of the seed's five-edge chain: C2's read of `data` is no
//! longer ordered before `done2 = 1`. On the GPU that lets C2's read return P's 43 — a load
//! buffering outcome that loom does not explore, so a value assertion could not fail here and is
//! left to the GPU runner. loom does report what the missing edge leaves behind: C2's read of
//! `data` and P's `data = 43` are unordered, a data race (PTX ISA §8.7.1).
//!
//! Preemption bound: 1 for every test.
#![cfg(loom)]

use ptx_sync_loom_tests::programs::handoff;
use ptx_sync_programs::handoff::Handoff;
use ptx_sync_programs::ops::{Fence, Sco};

const BOUND: usize = 1;

#[derive(Clone, Copy, PartialEq)]
enum WrFence {
    Sc,
    AcqRel,
}

#[derive(Clone, Copy)]
struct Variant {
    wr: WrFence,
    /// C2 keeps its `fence.release` before `done2 = 1`.
    c2_release: bool,
}

/// The program is `ptx_sync_programs::handoff`, version `V34` (the source of the GPU kernels
/// `litmus_handoff_3_4*`).
fn run(v: Variant) {
    let wr = match v.wr {
        WrFence::Sc => Fence::Sc(Sco::Gpu),
        WrFence::AcqRel => Fence::AcqRel(Sco::Gpu),
    };
    handoff(
        BOUND,
        Handoff::V34 {
            wr,
            c2_release: v.c2_release,
        },
    );
}

/// §3.4: release/acquire fences, `fence.acq_rel` before `empty = 1`, two `fence.sc` for W→R.
#[test]
fn s3_4_release_acquire_two_sc_passes() {
    run(Variant {
        wr: WrFence::Sc,
        c2_release: true,
    });
}

/// §3.6 (store buffering): with `fence.acq_rel` between `done = 1` and reading the other's
/// `done`, both consumers may read 0 — nobody writes `empty`, P never proceeds.
#[test]
#[should_panic(expected = "deadlock: nobody writes empty")]
fn s3_6_acq_rel_instead_of_sc_caught() {
    run(Variant {
        wr: WrFence::AcqRel,
        c2_release: true,
    });
}

/// §3.4, C2's release removed: the race the broken edge leaves (module docs).
#[test]
#[should_panic(expected = "ptx-sync model: data race on Data")]
fn s3_4_without_c2_release_caught_as_race() {
    run(Variant {
        wr: WrFence::Sc,
        c2_release: false,
    });
}
