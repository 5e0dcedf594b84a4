//! Seed §5.2: `cp.reduce.async.bulk` and `cp.reduce.async.bulk.tensor` through the library's copy
//! engine (`device/src/copy/engine.rs`): under `--cfg loom` the reduction is performed by a
//! copy-engine thread and completes only at `cp.async.bulk.wait_group` (PTX ISA §9.7.9.25.4: the
//! bulk async-group is the completion mechanism), so the issuing thread that reads the
//! destination without the wait may see it unreduced. Each element is an atomic reduction: two
//! reducers into the same elements do not race each other, and lose nothing.
//!
//! | program | variant | verdict |
//! |---|---|---|
//! | P: `cp.reduce.async.bulk.add.u32` into `acc`, `commit_group`, `wait_group 0`, reads `acc` | with the wait | passes |
//! | the same | no `wait_group` | caught: stale read |
//! | P: `cp.reduce.async.bulk.tensor.1d.add.tile` into `acc` (a typed host map) | with the wait | passes |
//! | the same | no `wait_group` | caught: stale read |
//! | P and Q each `cp.reduce.async.bulk.add.u32` into the same `acc`, each waits; then `acc` is read | — | passes (no lost update, no race report) |
//!
//! The destination is a [`Tile`] (one address space in the model: it stands for the global
//! memory the reduction writes), whose accesses the model race-checks; the reduction's element
//! updates are recorded as atomic (a reduction does not race another one).
//!
//! Preemption bound: 1 (at most five threads: the model's, P, Q and their engine threads).
#![cfg(loom)]

use loom::sync::Arc;
use ptx_sync::atomic::op::Add;
use ptx_sync::copy::{
    cp_async_bulk_commit_group, cp_async_bulk_wait_group, cp_reduce_async_bulk,
    cp_reduce_async_bulk_tensor, TensorMap, Tile as TileMode,
};
use ptx_sync::model::{drain_copies, Tile};
use ptx_sync::shared::to_shared;
use ptx_sync_loom_tests::{assert_caught, check, spawn_in};

const BOUND: usize = 1;

/// Shared memory of the reducing CTA: the 16-byte source (a bulk operand is 16-aligned).
#[repr(align(16))]
struct Src([u32; 4]);

/// P reduces `[5; 4]` into `acc` (`[10; 4]`) — by `cp.reduce.async.bulk` or, `tensor`, by
/// `cp.reduce.async.bulk.tensor` on a 1-D u32 map over `acc` — commits, [waits,] and reads `acc`.
fn reduce_then_read(tensor: bool, wait: bool) {
    check(BOUND, move || {
        let acc = Arc::new(Tile::new(4, 10u32));
        let a = acc.clone();
        let p = spawn_in(0, 0, move || {
            let src = Src([5; 4]);
            if tensor {
                let map = TensorMap::host_tiled_of(a.as_ptr().cast_const(), &[4], &[], &[4])
                    .expect("a 1-D map of 4 u32");
                // cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [map, {0}], [src]
                unsafe {
                    cp_reduce_async_bulk_tensor::<Add, TileMode, _>(
                        &map,
                        [0],
                        to_shared(src.0.as_ptr()),
                    )
                };
            } else {
                // cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [acc], [src], 16
                unsafe {
                    cp_reduce_async_bulk::<Add, u32>(a.as_ptr(), to_shared(src.0.as_ptr()), 16)
                };
            }
            cp_async_bulk_commit_group(); // cp.async.bulk.commit_group
            if wait {
                cp_async_bulk_wait_group::<0>(); // cp.async.bulk.wait_group 0
            }
            let v = (0..4).map(|i| unsafe { a.read(i) }).collect::<Vec<_>>();
            // the source lives until the reduction has read it (a kernel keeps its shared
            // memory until its bulk operations complete)
            cp_async_bulk_wait_group::<0>();
            drop(src);
            v
        });
        let v = p.join();
        drain_copies();
        assert_eq!(v, [15; 4], "P read acc before its reduction completed");
    });
}

#[test]
fn bulk_reduce_wait_group_then_read_passes() {
    reduce_then_read(false, true);
}

#[test]
fn bulk_reduce_read_without_wait_group_caught() {
    assert_caught(
        || reduce_then_read(false, false),
        &["P read acc before its reduction completed"],
    );
}

#[test]
fn tensor_reduce_wait_group_then_read_passes() {
    reduce_then_read(true, true);
}

#[test]
fn tensor_reduce_read_without_wait_group_caught() {
    assert_caught(
        || reduce_then_read(true, false),
        &["P read acc before its reduction completed"],
    );
}

/// P and Q (two CTAs) each reduce `[1, 2, 3, 4]` into `acc` and wait for it; after both are
/// joined, `acc` holds both contributions: the element updates are atomic, not a race.
#[test]
fn two_reducers_lose_nothing() {
    check(BOUND, || {
        let acc = Arc::new(Tile::new(4, 100u32));
        let hs: Vec<_> = (0..2)
            .map(|cta| {
                let a = acc.clone();
                spawn_in(0, cta, move || {
                    let src = Src([1, 2, 3, 4]);
                    unsafe {
                        cp_reduce_async_bulk::<Add, u32>(a.as_ptr(), to_shared(src.0.as_ptr()), 16)
                    };
                    cp_async_bulk_commit_group();
                    cp_async_bulk_wait_group::<0>();
                })
            })
            .collect();
        for h in hs {
            h.join();
        }
        drain_copies();
        let v: Vec<u32> = (0..4).map(|i| unsafe { acc.read(i) }).collect();
        assert_eq!(v, [102, 104, 106, 108], "a reduction was lost");
    });
}
