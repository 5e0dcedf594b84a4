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

use loom::sync::Arc;
use ptx_sync::{fence, AcqRel, Acquire, Data, Gpu, Relaxed, Release, Sc, Strong};
use ptx_sync_loom_tests::{check, spawn, spin_until};

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

struct Handoff {
    data: Data<u32>,
    full: Strong<u32>,
    done1: Strong<u32>,
    done2: Strong<u32>,
    empty: Strong<u32>,
}

fn producer(s: &Handoff) {
    unsafe { s.data.write(42) };
    fence::<Release, Gpu>();
    s.full.at::<Gpu>().store::<Relaxed>(1);
    spin_until("nobody writes empty", || {
        s.empty.at::<Gpu>().load::<Relaxed>() == 1
    });
    fence::<Acquire, Gpu>();
    unsafe { s.data.write(43) };
}

fn consumer(
    s: &Handoff,
    mine: &Strong<u32>,
    other: &Strong<u32>,
    wr: WrFence,
    release: bool,
) -> u32 {
    spin_until("nobody writes full", || {
        s.full.at::<Gpu>().load::<Relaxed>() == 1
    });
    fence::<Acquire, Gpu>();
    let v = unsafe { s.data.read() };
    if release {
        fence::<Release, Gpu>();
    }
    mine.at::<Gpu>().store::<Relaxed>(1);
    match wr {
        WrFence::Sc => fence::<Sc, Gpu>(),
        WrFence::AcqRel => fence::<AcqRel, Gpu>(),
    }
    if other.at::<Gpu>().load::<Relaxed>() == 1 {
        fence::<AcqRel, Gpu>();
        s.empty.at::<Gpu>().store::<Relaxed>(1);
    }
    v
}

fn run(v: Variant) {
    check(BOUND, move || {
        let s = Arc::new(Handoff {
            data: Data::new(0),
            full: Strong::new(0),
            done1: Strong::new(0),
            done2: Strong::new(0),
            empty: Strong::new(0),
        });
        let (s1, s2, sp) = (s.clone(), s.clone(), s.clone());
        let c1 = spawn(move || consumer(&s1, &s1.done1, &s1.done2, v.wr, true));
        let c2 = spawn(move || consumer(&s2, &s2.done2, &s2.done1, v.wr, v.c2_release));
        let p = spawn(move || producer(&sp));
        assert_eq!(
            (c1.join(), c2.join()),
            (42, 42),
            "a consumer read stale data"
        );
        p.join();
        assert_eq!(unsafe { s.data.read() }, 43);
    });
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
