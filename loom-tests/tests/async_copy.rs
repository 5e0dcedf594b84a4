//! Seed §5.1–5.3: asynchronous copies into shared memory, with the copy done by a separate loom
//! thread (the [`CopyEngine`]), so that reading the destination before the copy's completion is
//! a race rather than silently fine. P and C are two warps of one CTA (placed in CTA 0); `data`
//! is the shared-memory tile.
//!
//! | program | variant | verdict |
//! |---|---|---|
//! | §5.1 | `cp.async`, `bar.arrive` / `bar.sync`, no `cp.async.wait_all` | caught: stale read (or data race on `data`) |
//! | §5.1 | `cp.async.wait_all` before `bar.arrive` | passes |
//! | §5.2 | TMA (`cp.async.bulk`) with the §5.1 barrier (no wait exists) | caught: stale read (or data race on `data`) |
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
//! points, and the values each load may return) (three threads, one of them the engine; the engine's queue
//! is a loom mutex, which multiplies the schedules).
#![cfg(loom)]

use loom::sync::Arc;
use ptx_sync::barrier::NamedBarrier;
use ptx_sync::model::Place;
use ptx_sync::{Acquire, Cta, Data, Mbarrier, Phase, Release};
use ptx_sync_loom_tests::{
    assert_caught, check, fence_proxy_async, spawn_in, spin_until, CopyEngine, ProxyTile,
};

/// An `mbarrier.init`ed barrier (by the model's main thread, before the threads start: their
/// creation publishes it).
fn init_mbarrier(count: u32) -> Mbarrier {
    let b = Mbarrier::new();
    b.init(count);
    b
}

/// `mbarrier.try_wait.parity.acquire.cta` on phase 0 until it succeeds.
fn wait_phase0(b: &Mbarrier, what: &str) {
    spin_until(what, || b.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
}

const BOUND: usize = 0;
const CTA0: Place = Place {
    gpu: 0,
    cluster: 0,
    cta: 0,
};

/// §5.1: P `cp.async`s the tile, [waits for it,] `bar.arrive`; C `bar.sync`s and reads.
fn cp_async(wait_all: bool) {
    check(BOUND, move || {
        let data = Arc::new(Data::new(0u32));
        let full = Arc::new(NamedBarrier::new(1, 2));
        let engine = Arc::new(CopyEngine::start(CTA0));
        let (d, f, e) = (data.clone(), full.clone(), engine.clone());
        let p = spawn_in(0, 0, move || {
            let dst = d.clone();
            e.issue(move || unsafe { dst.write(42) }); // cp.async.ca.shared.global [data], [src], 4
            if wait_all {
                e.wait_all(); // cp.async.wait_all
            }
            f.arrive(); // bar.arrive 1, 64
        });
        let c = spawn_in(0, 0, move || {
            full.sync(); // bar.sync 1, 64
            unsafe { data.read() }
        });
        p.join();
        let v = c.join();
        engine.shutdown(); // the copy has been performed (and race-checked) before the assert
        assert_eq!(v, 42, "C read the tile before the copy");
    });
}

/// Caught as a stale read (C reads 0) or as a race on `data`, whichever schedule loom meets first.
#[test]
fn s5_1_cp_async_without_wait_all_caught() {
    assert_caught(
        || cp_async(false),
        &["C read the tile before the copy", "data race on Data"],
    );
}

#[test]
fn s5_1_cp_async_wait_all_then_bar_passes() {
    cp_async(true);
}

/// §5.2: TMA. Broken: the §5.1 barrier (there is no wait for a bulk copy). Fixed: `full` is an
/// mbarrier that the TMA completes (`complete_tx`).
fn tma(mbarrier: bool) {
    check(BOUND, move || {
        let data = Arc::new(Data::new(0u32));
        let bar = Arc::new(NamedBarrier::new(1, 2));
        let full = Arc::new(init_mbarrier(1));
        let engine = Arc::new(CopyEngine::start(CTA0));
        let (d, b, f, e) = (data.clone(), bar.clone(), full.clone(), engine.clone());
        let p = spawn_in(0, 0, move || {
            if mbarrier {
                let _ = f.arrive_expect_tx::<Release, Cta>(4); // mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [full], 4
                let (dst, f2) = (d.clone(), f.clone());
                // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [data], [src], 4, [full]
                e.issue(move || {
                    unsafe { dst.write(42) };
                    f2.async_copy_complete_tx(4); // the copy engine's completion
                });
            } else {
                let dst = d.clone();
                e.issue(move || unsafe { dst.write(42) });
                b.arrive();
            }
        });
        let c = spawn_in(0, 0, move || {
            if mbarrier {
                wait_phase0(&full, "full never completes"); // mbarrier.try_wait.parity.acquire.cta
            } else {
                bar.sync();
            }
            unsafe { data.read() }
        });
        p.join();
        let v = c.join();
        engine.shutdown();
        assert_eq!(v, 42, "C read the tile before the TMA wrote it");
    });
}

/// Caught as a stale read or as a race on `data`.
#[test]
fn s5_2_tma_with_bar_caught() {
    assert_caught(
        || tma(false),
        &[
            "C read the tile before the TMA wrote it",
            "data race on Data",
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
            wait_phase0(&full, "full never completes");
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
/// `empty` and TMAs tile 2 into the same shared memory (async proxy); C waits on `full` (phase 1)
/// and reads tile 2. Tile 1 is in place before the threads start.
fn reuse(proxy_fence: bool) {
    check(BOUND, move || {
        let tile = Arc::new(ProxyTile::new(1u32));
        let full = Arc::new(init_mbarrier(1));
        let empty = Arc::new(init_mbarrier(1));
        let engine = Arc::new(CopyEngine::start(CTA0));
        let (t, f, em, e) = (tile.clone(), full.clone(), empty.clone(), engine.clone());
        let p = spawn_in(0, 0, move || {
            wait_phase0(&em, "empty never completes");
            let _ = f.arrive_expect_tx::<Release, Cta>(4);
            let (dst, f2) = (t.clone(), f.clone());
            e.issue(move || {
                unsafe { dst.write_async(2) };
                f2.async_copy_complete_tx(4); // the copy engine's completion
            });
        });
        let c = spawn_in(0, 0, move || {
            let first = unsafe { tile.read() };
            if proxy_fence {
                fence_proxy_async(); // fence.proxy.async.shared::cta
            }
            let _ = empty.arrive::<Release, Cta>();
            wait_phase0(&full, "full never completes");
            let second = unsafe { tile.read() };
            (first, second)
        });
        p.join();
        let v = c.join();
        engine.shutdown();
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
