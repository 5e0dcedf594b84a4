//! Seed §5.1–5.3: asynchronous copies into shared memory with the library's own copy functions
//! (`ptx_sync::copy`): under `--cfg loom` each issued copy is performed by a copy-engine thread of
//! the library (`device/src/copy/engine.rs`), so that reading the destination before the copy's
//! completion is a race rather than silently fine. P and C are two warps of one CTA (placed in
//! CTA 0); the tile is a [`Tile`] (shared memory whose generic and async-proxy accesses the model
//! checks).
//!
//! | program | variant | verdict |
//! |---|---|---|
//! | §5.1 | `cp.async`, `bar.arrive` / `bar.sync`, no `cp.async.wait_all` | caught: stale read (or data race on `data`) |
//! | §5.1 | `cp.async.wait_all` before `bar.arrive` | passes |
//! | §5.1 | two groups, `cp.async.wait_group 1`, P reads the older group's tile | passes |
//! | §5.1 | the same, P reads the newest group's tile | caught: stale read (or data race on the tile) |
//! | §5.2 | TMA (`cp.async.bulk`) with the §5.1 barrier (no wait exists) | caught: stale read (or data race on the tile, or proxy race) |
//! | §5.2 | `full` is an mbarrier: `arrive.expect_tx`, TMA `complete_tx`, `try_wait` | passes |
//! | §5.2 | P: `arrive.expect_tx`, writes the tile itself, `complete_tx` (`.relaxed`: orders nothing) | caught: data race on `data` (or stale read) |
//! | §5.2 | P writes the tile itself, then `arrive.expect_tx` (`.release`), `complete_tx` | passes |
//! | §5.3 | reuse: C's `ld`, then `arrive(empty)`; P's next TMA, no `fence.proxy.async` | caught: proxy race |
//! | §5.3 | `fence.proxy.async` in C before its arrive | passes |
//!
//! The barriers are the library's own: `bar` is [`NamedBarrier`] and the mbarriers are
//! [`Mbarrier`] (its host backend under `--cfg loom`: strong accesses of the model at the scope
//! each call names), so the same code paths a kernel uses are checked.
//!
//! Preemption bound: 0 for every test (loom still explores the switches at yields and blocking
//! points, and the values each load may return) (three threads, one of them the copy's engine
//! thread).
#![cfg(loom)]

use loom::sync::Arc;
use ptx_sync::barrier::NamedBarrier;
use ptx_sync::copy::{
    cp_async, cp_async_bulk_g2s, cp_async_commit_group, cp_async_wait_all, cp_async_wait_group, Ca,
};
use ptx_sync::model::{drain_copies, Place, Tile};
use ptx_sync::proxy::fence_proxy_async;
use ptx_sync::{Acquire, Cta, Data, Mbarrier, Phase, Release, Shared};
use ptx_sync_loom_tests::{assert_caught, check, place, spawn_in, spin_until};

/// An `mbarrier.init`ed barrier (by the model's main thread, before the threads start: their
/// creation publishes it).
fn init_mbarrier(count: u32) -> Mbarrier {
    let b = Mbarrier::new();
    b.init(count);
    b
}

/// `mbarrier.try_wait.parity.acquire.cta` on `phase` until it succeeds.
fn wait_phase(b: &Mbarrier, phase: Phase, what: &str) {
    spin_until(what, || b.try_wait_parity::<Acquire, Cta>(phase));
}

const BOUND: usize = 0;
#[allow(dead_code)]
const CTA0: Place = place(0, 0);

/// Global memory: 16 bytes holding `v` in every word (a TMA source must be 16-aligned).
#[repr(align(16))]
struct Src([u32; 4]);

/// §5.1: P `cp.async`s the tile, [waits for it,] `bar.arrive`; C `bar.sync`s and reads.
fn cp_async_then_bar(wait_all: bool) {
    check(BOUND, move || {
        let src = Arc::new(Src([42; 4]));
        let tile = Arc::new(Tile::new(1, 0u32));
        let full = Arc::new(NamedBarrier::new(1, 2));
        let (s, t, f) = (src.clone(), tile.clone(), full.clone());
        let p = spawn_in(0, 0, move || {
            // cp.async.ca.shared::cta.global [tile], [src], 4
            unsafe { cp_async::<Ca, 4>(t.addr(), s.0.as_ptr().cast()) };
            cp_async_commit_group();
            if wait_all {
                cp_async_wait_all(); // cp.async.wait_all
            }
            f.arrive(); // bar.arrive 1, 64
        });
        let c = spawn_in(0, 0, move || {
            full.sync(); // bar.sync 1, 64
            unsafe { tile.read(0) }
        });
        p.join();
        let v = c.join();
        drain_copies(); // the copy has been performed (and race-checked) before the assert
        assert_eq!(v, 42, "C read the tile before the copy");
    });
}

/// Caught as a stale read (C reads 0) or as a race on the tile, whichever schedule loom meets
/// first.
#[test]
fn s5_1_cp_async_without_wait_all_caught() {
    assert_caught(
        || cp_async_then_bar(false),
        &["C read the tile before the copy", "data race on Data"],
    );
}

#[test]
fn s5_1_cp_async_wait_all_then_bar_passes() {
    cp_async_then_bar(true);
}

/// §5.1 with two groups: P `cp.async`s tile 0 (group 1), then tile 1 (group 2), and
/// `cp.async.wait_group 1` (at most the newest group pending); it then reads tile `read`
/// itself. Group 1 is complete; group 2 may not be.
fn two_groups(read: usize) {
    check(BOUND, move || {
        let src = Arc::new(Src([42; 4]));
        let tiles = Arc::new([Tile::new(1, 0u32), Tile::new(1, 0u32)]);
        let (s, t) = (src.clone(), tiles.clone());
        let p = spawn_in(0, 0, move || {
            for tile in t.iter() {
                unsafe { cp_async::<Ca, 4>(tile.addr(), s.0.as_ptr().cast()) };
                cp_async_commit_group(); // cp.async.commit_group
            }
            cp_async_wait_group::<1>(); // cp.async.wait_group 1
            unsafe { t[read].read(0) }
        });
        let v = p.join();
        drain_copies();
        assert_eq!(v, 42, "P read a tile whose group may be pending");
    });
}

#[test]
fn s5_1_wait_group_1_then_read_the_older_group_passes() {
    two_groups(0);
}

/// The newest group may still be in flight after `wait_group 1`.
#[test]
fn s5_1_wait_group_1_then_read_the_newest_group_caught() {
    assert_caught(
        || two_groups(1),
        &[
            "P read a tile whose group may be pending",
            "data race on Data",
        ],
    );
}

/// §5.2: TMA. Broken: the §5.1 barrier (there is no wait for a bulk copy). Fixed: `full` is an
/// mbarrier that the TMA completes (`complete_tx`).
fn tma(mbarrier: bool) {
    check(BOUND, move || {
        let src = Arc::new(Src([42; 4]));
        let tile = Arc::new(Tile::new(4, 0u32));
        let bar = Arc::new(NamedBarrier::new(1, 2));
        let full = Arc::new(init_mbarrier(1));
        let (s, t, b, f) = (src.clone(), tile.clone(), bar.clone(), full.clone());
        let p = spawn_in(0, 0, move || {
            if mbarrier {
                let _ = f.arrive_expect_tx::<Release, Cta>(16); // mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [full], 16
            }
            // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [tile], [src], 16, [full]
            unsafe { cp_async_bulk_g2s(t.addr(), s.0.as_ptr().cast(), 16, &*f) };
            if !mbarrier {
                b.arrive();
            }
        });
        let (t2, f2) = (tile.clone(), full.clone());
        let c = spawn_in(0, 0, move || {
            if mbarrier {
                wait_phase(&f2, Phase::ZERO, "full never completes"); // mbarrier.try_wait.parity.acquire.cta
            } else {
                bar.sync();
            }
            unsafe { t2.read(3) }
        });
        p.join();
        let v = c.join();
        drain_copies();
        assert_eq!(v, 42, "C read the tile before the TMA wrote it");
    });
}

/// Caught as a stale read, as a race on the tile, or — when C's read comes first — as a proxy
/// race (C's generic read, then the TMA's async-proxy write, no proxy fence between).
#[test]
fn s5_2_tma_with_bar_caught() {
    assert_caught(
        || tma(false),
        &[
            "C read the tile before the TMA wrote it",
            "data race on Data",
            "proxy race",
        ],
    );
}

#[test]
fn s5_2_tma_with_mbarrier_complete_tx_passes() {
    tma(true);
}

/// §5.2 without a copy engine: P arms `full` (`mbarrier.arrive.expect_tx.release.cta`, 4
/// bytes), writes the tile with an ordinary store and lowers the tx-count itself
/// (`mbarrier.complete_tx.relaxed.cta`), which completes the phase; C waits with
/// `try_wait.parity.acquire.cta` and reads. `complete_tx` is `.relaxed` (PTX ISA §9.7.13.15.14):
/// it releases nothing, so the write after the release arrive races with the read. Written
/// before the arrive, the tile is published by the arrive's release (the relaxed `complete_tx`
/// RMW continues its release sequence).
fn write_then_complete(write_before_arrive: bool) {
    check(BOUND, move || {
        let data = Arc::new(Data::new(0u32));
        let full = Arc::new(init_mbarrier(1));
        let (d, f) = (data.clone(), full.clone());
        let p = spawn_in(0, 0, move || {
            if write_before_arrive {
                unsafe { d.write(42) };
            }
            let _ = f.arrive_expect_tx::<Release, Cta>(4);
            if !write_before_arrive {
                unsafe { d.write(42) };
            }
            f.complete_tx::<Cta>(4); // completes phase 0
        });
        let c = spawn_in(0, 0, move || {
            wait_phase(&full, Phase::ZERO, "full never completes");
            unsafe { data.read() }
        });
        p.join();
        let v = c.join();
        assert_eq!(v, 42, "C read the tile before P wrote it");
    });
}

#[test]
fn s5_2_write_then_relaxed_complete_tx_caught() {
    assert_caught(
        || write_then_complete(false),
        &["data race on Data", "C read the tile before P wrote it"],
    );
}

#[test]
fn s5_2_write_then_release_arrive_then_complete_tx_passes() {
    write_then_complete(true);
}

/// §5.3: the tile is reused. C reads tile 1 (generic proxy), arrives on `empty`; P waits on
/// `empty` and TMAs tile 2 into the same shared memory (async proxy); C waits on `full` (phase 0)
/// and reads tile 2. Tile 1 is in place before the threads start.
fn reuse(proxy_fence: bool) {
    check(BOUND, move || {
        let src = Arc::new(Src([2; 4]));
        let tile = Arc::new(Tile::new(4, 1u32));
        let full = Arc::new(init_mbarrier(1));
        let empty = Arc::new(init_mbarrier(1));
        let (s, t, f, em) = (src.clone(), tile.clone(), full.clone(), empty.clone());
        let p = spawn_in(0, 0, move || {
            wait_phase(&em, Phase::ZERO, "empty never completes");
            let _ = f.arrive_expect_tx::<Release, Cta>(16);
            unsafe { cp_async_bulk_g2s(t.addr(), s.0.as_ptr().cast(), 16, &*f) };
        });
        let (t2, f2) = (tile.clone(), full.clone());
        let c = spawn_in(0, 0, move || {
            let first = unsafe { t2.read(0) };
            if proxy_fence {
                fence_proxy_async::<Shared>(); // fence.proxy.async.shared::cta
            }
            let _ = empty.arrive::<Release, Cta>();
            wait_phase(&f2, Phase::ZERO, "full never completes");
            let second = unsafe { t2.read(0) };
            (first, second)
        });
        p.join();
        let v = c.join();
        drain_copies();
        assert_eq!(v, (1, 2));
    });
}

#[test]
#[should_panic(expected = "proxy race")]
fn s5_3_reuse_without_proxy_fence_caught() {
    reuse(false);
}

#[test]
fn s5_3_reuse_with_proxy_fence_passes() {
    reuse(true);
}
