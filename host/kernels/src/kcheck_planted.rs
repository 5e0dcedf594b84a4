//! The planted bugs of issue #22, rebuilt as small kernels of their own for `ptx-sync check`:
//! the synchronization mistakes a user makes that `show --ptx`'s lints (and, for some, loom)
//! missed. Each `planted_*` kernel carries one bug; a `planted_*_fix` twin (where the fix is
//! not already a seed kernel) is the same kernel corrected. The expected verdicts, derived from
//! the PTX ISA by hand, are in `host/tests/kernel_check.rs` and `docs/kernel-check.md`.
//!
//! These kernels are for the checker only: nothing launches them on a GPU. Every wait is
//! bounded by `%globaltimer` ([`BUDGET`]) except in [`planted_weak_spin`], whose unbounded
//! `while *flag == 0 {}` through a raw pointer *is* the bug (LLVM hoists the load and leaves a
//! branch to itself).
//!
//! | kernel | grid | block | params | threads |
//! |---|---|---|---|---|
//! | `planted_weak_spin`, `planted_data_flag_spin` | 1 | 2 | `0=buf:8 1=buf:16` (`mem`: data, flag; `out`: read, status) | thread 0 = P, thread 1 = C |
//! | `planted_cta_scope` | 2 | 1 | `0=buf:8 1=buf:16` | CTA 0 = P, CTA 1 = C |
//! | `planted_no_proxy_fence`, `planted_no_proxy_fence_fix` | 1 | 2 | `0=buf:32 1=buf:32 2=buf:4` (`src`: 2 blocks of 4 words, `out`, `status`) | thread 0 = P (TMA), thread 1 = C |
//! | `planted_generic_then_tma`, `planted_generic_then_tma_fix` | 1 | 1 | `0=buf:16 1=buf:32 2=buf:4` | one thread |
//! | `planted_cp_async_no_wait`, `planted_cp_async_no_wait_fix` | 1 | 2 | `0=buf:16 1=buf:16 2=buf:4` | thread 0 copies, thread 1 reads |
//! | `planted_grid_barrier`, `planted_grid_barrier_fix` | 2 | 1 | `0=buf:16 1=buf:8 2=buf:4` (`bar`: count, generation, a word per CTA; `out`; `status`) | CTA `r` = rank `r` |

use crate::rt::{ctaid_x, give_up, tid_x as tid};
use ptx_sync::barrier::sync_threads_unaligned;
use ptx_sync::copy::{cp_async, cp_async_bulk_g2s, cp_async_commit_group, cp_async_wait_all, Cg};
use ptx_sync::proxy::fence_proxy_async;
use ptx_sync::shared::SharedArray;
use ptx_sync::wait::{spin_until, Budget};
use ptx_sync::*;

/// Every bounded wait's budget: 100 ms of `%globaltimer`.
pub const BUDGET: u64 = 100_000_000;

/// `spin_until(BUDGET, done)`, giving up on timeout.
#[inline(always)]
fn wait(status: *mut u32, bit: u32, done: impl FnMut() -> bool) {
    if spin_until(Budget::nanos(BUDGET), done).is_err() {
        give_up(status, bit);
    }
}

// ---- flags: a weak spin, a `Data` flag, `.cta` scope across CTAs ------------------------------

/// P: `data = 42` (a weak `st`), then `st.release.gpu flag, 1`.
#[inline(always)]
unsafe fn publish(mem: *mut u32) {
    Data::from_ptr(mem).write(42);
    Strong::from_ptr(mem.add(1)).at::<Gpu>().store::<Release>(1);
}

/// Planted bug 1: C spins on the flag through a raw pointer (`while *flag == 0 {}`): a weak
/// load, which LLVM hoists out of the loop, leaving `bra.uni` to itself. Expected: `Flag hang`
/// (the loop reads nothing: PTX ISA §8.7.2 gives it no write to wait for) and a data race on
/// the flag (a weak `ld` and P's `st.release` are not morally strong, §8.6, §8.7.1).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn planted_weak_spin(mem: *mut u32, out: *mut u32) {
    if tid() == 0 {
        publish(mem);
    } else {
        while core::ptr::read(mem.add(1)) == 0 {}
        core::ptr::write_volatile(out, Data::from_ptr(mem).read());
    }
}

/// Planted bug 2: the flag is kept as [`Data`] and read in a bounded spin: LLVM hoists the
/// weak load, and the loop only reads `%globaltimer`. Expected: `Flag hang` (judged as the
/// unbounded wait it bounds, the loop can never see the flag change) and a data race on the
/// flag (weak `ld` vs `st.release`).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn planted_data_flag_spin(mem: *mut u32, out: *mut u32) {
    if tid() == 0 {
        publish(mem);
    } else {
        let flag = Data::from_ptr(mem.add(1));
        wait(out.add(1), 1, || flag.read() == 1);
        core::ptr::write_volatile(out, Data::from_ptr(mem).read());
    }
}

/// Planted bug 3: `st.release.cta` / `ld.acquire.cta` between two CTAs (seed §3.5 fn. 15).
/// Expected: data races on the flag (neither `.cta` scope includes the other CTA's thread: not
/// morally strong, §8.6) and on `data` (no synchronizes-with, §8.7.1).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn planted_cta_scope(mem: *mut u32, out: *mut u32) {
    if ctaid_x() == 0 {
        Data::from_ptr(mem).write(42);
        Strong::from_ptr(mem.add(1)).at::<Cta>().store::<Release>(1);
    } else {
        let flag = Strong::from_ptr(mem.add(1));
        wait(out.add(1), 1, || flag.at::<Cta>().load::<Acquire>() == 1);
        core::ptr::write_volatile(out, Data::from_ptr(mem).read());
    }
}

// ---- proxies: a consumer without fence.proxy.async, a generic load then TMA ------------------

shared_array!(static PL_TILE: [u32; 4], align 128);
shared_array!(static PL_BARS: [Mbarrier; 2], align 8);

/// A two-slot reuse of one tile: P (thread 0) fills it by TMA with block 0, waits for C's
/// release on `empty`, refills it with block 1; C (thread 1) waits on `full`, reads the tile
/// through a raw pointer into `out[0..4]`, [`fence.proxy.async.shared::cta`,] arrives on
/// `empty`, waits for the refill and reads it into `out[4..8]`.
#[inline(always)]
unsafe fn reuse(src: *const u32, out: *mut u32, status: *mut u32, fence: bool) {
    let (full, empty) = (PL_BARS.get(0), PL_BARS.get(1));
    let t = tid();
    if t == 0 {
        full.init(1);
        empty.init(1);
        // The inits are generic-proxy writes the TMA's complete_tx (async proxy) reads.
        fence_proxy_async::<Shared>();
    }
    sync_threads_unaligned();
    let tile = PL_TILE.as_ptr();
    if t == 0 {
        for b in 0..2u32 {
            if b == 1 {
                wait(status, 2, || {
                    empty.try_wait_parity::<Acquire, Cta>(Phase::ZERO)
                });
            }
            let _ = full.arrive_expect_tx::<Release, Cta>(16);
            cp_async_bulk_g2s(PL_TILE.addr(), src.add(4 * b as usize).cast(), 16, full);
        }
        wait(status, 4, || {
            full.try_wait_parity::<Acquire, Cta>(Phase::ONE)
        });
    } else {
        for b in 0..2u32 {
            let p = if b == 0 { Phase::ZERO } else { Phase::ONE };
            wait(status, 1, || full.try_wait_parity::<Acquire, Cta>(p));
            for i in 0..4 {
                core::ptr::write_volatile(
                    out.add(4 * b as usize + i),
                    core::ptr::read_volatile(tile.add(i)),
                );
            }
            if b == 0 {
                if fence {
                    fence_proxy_async::<Shared>();
                }
                let _ = empty.arrive::<Release, Cta>();
            }
        }
    }
}

/// Planted bug 4: a pipeline consumer arrives on `empty` without `fence.proxy.async`: its
/// generic reads of the tile and P's next TMA write (async proxy) are unordered (PTX ISA §8.8
/// proxy rules; seed §5.3). Expected: a data race naming both proxies.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn planted_no_proxy_fence(
    src: *const u32,
    out: *mut u32,
    status: *mut u32,
) {
    reuse(src, out, status, false)
}

/// [`planted_no_proxy_fence`] with `fence.proxy.async.shared::cta` before the arrive. Expected:
/// clean, and C reads block 0 then block 1.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn planted_no_proxy_fence_fix(
    src: *const u32,
    out: *mut u32,
    status: *mut u32,
) {
    reuse(src, out, status, true)
}

/// One thread reads the tile with a generic `ld`, then writes it by TMA (async proxy), waits
/// for the copy and reads it again.
#[inline(always)]
unsafe fn generic_then_tma(src: *const u32, out: *mut u32, status: *mut u32, fence: bool) {
    let full = PL_BARS.get(0);
    full.init(1);
    fence_proxy_async::<Shared>();
    let tile = PL_TILE.as_ptr();
    core::ptr::write_volatile(out, core::ptr::read_volatile(tile));
    if fence {
        fence_proxy_async::<Shared>();
    }
    let _ = full.arrive_expect_tx::<Release, Cta>(16);
    cp_async_bulk_g2s(PL_TILE.addr(), src.cast(), 16, full);
    wait(status, 1, || {
        full.try_wait_parity::<Acquire, Cta>(Phase::ZERO)
    });
    for i in 0..4 {
        core::ptr::write_volatile(out.add(4 + i), core::ptr::read_volatile(tile.add(i)));
    }
}

/// Planted bug 5: a generic load, then a TMA write of the same shared words in one thread, no
/// `fence.proxy.async` between: program order does not order accesses of two proxies (PTX ISA
/// §8.8). Expected: a data race naming the generic and the async proxy.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn planted_generic_then_tma(
    src: *const u32,
    out: *mut u32,
    status: *mut u32,
) {
    generic_then_tma(src, out, status, false)
}

/// [`planted_generic_then_tma`] with `fence.proxy.async.shared::cta` before the copy. Expected:
/// clean.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn planted_generic_then_tma_fix(
    src: *const u32,
    out: *mut u32,
    status: *mut u32,
) {
    generic_then_tma(src, out, status, true)
}

// ---- cp.async committed, then a barrier with no wait ----------------------------------------

/// Thread 0: `cp.async.cg` of 16 bytes into the tile, `cp.async.commit_group`, [`wait_all`,]
/// `barrier.sync 0`; thread 1: `barrier.sync 0`, reads the tile.
#[inline(always)]
unsafe fn cp_then_bar(src: *const u32, out: *mut u32, wait_first: bool) {
    let t = tid();
    if t == 0 {
        cp_async::<Cg, 16>(PL_TILE.addr(), src.cast());
        cp_async_commit_group();
        if wait_first {
            cp_async_wait_all();
        }
    }
    sync_threads_unaligned();
    if t == 0 {
        cp_async_wait_all(); // drain
    } else {
        let tile = PL_TILE.as_ptr();
        for i in 0..4 {
            core::ptr::write_volatile(out.add(i), core::ptr::read_volatile(tile.add(i)));
        }
    }
}

/// Planted bug 6: `cp.async` + `cp.async.commit_group`, then `barrier.sync` with no
/// `cp.async.wait_*`: the copy is not performed before the barrier (PTX ISA §9.7.9.25.3: only
/// the wait makes it complete; seed §5.1). Expected: a data race between the copy's write and
/// thread 1's reads.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn planted_cp_async_no_wait(
    src: *const u32,
    out: *mut u32,
    _status: *mut u32,
) {
    cp_then_bar(src, out, false)
}

/// [`planted_cp_async_no_wait`] with `cp.async.wait_all` before the barrier. Expected: clean,
/// and thread 1 reads the source.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn planted_cp_async_no_wait_fix(
    src: *const u32,
    out: *mut u32,
    _status: *mut u32,
) {
    cp_then_bar(src, out, true)
}

// ---- a software grid barrier -----------------------------------------------------------------

/// One pass of a software grid barrier over 2 CTAs (thread 0 of each): each rank writes its
/// word `bar[2 + rank]`, arrives with `atom.acq_rel.gpu.add` on `bar[0]`; the last arriver
/// resets the count and bumps the generation `bar[1]` with `st.release.gpu`; the others wait
/// with `ld.acquire.gpu` for the generation to change; then each reads the peer's word into
/// `out[rank]`. `read_after`: the generation is read after arriving (the bug) instead of before.
#[inline(always)]
unsafe fn grid_barrier(bar: *mut u32, out: *mut u32, status: *mut u32, read_after: bool) {
    let rank = ctaid_x();
    if rank >= 2 {
        return;
    }
    let (count, gen) = (Strong::from_ptr(bar), Strong::from_ptr(bar.add(1)));
    Data::from_ptr(bar.add(2 + rank as usize)).write(rank + 1);
    let mut g = 0;
    if !read_after {
        g = gen.at::<Gpu>().load::<Acquire>();
    }
    let old = count.at::<Gpu>().fetch_add::<AcqRel>(1);
    if read_after {
        g = gen.at::<Gpu>().load::<Acquire>();
    }
    if old == 1 {
        count.at::<Gpu>().store::<Relaxed>(0);
        gen.at::<Gpu>().store::<Release>(g + 1);
    } else {
        wait(status, 1 << rank, || gen.at::<Gpu>().load::<Acquire>() != g);
    }
    let peer = Data::from_ptr(bar.add(2 + (1 - rank) as usize)).read();
    core::ptr::write_volatile(out.add(rank as usize), peer);
}

/// Planted bug 7: a software grid barrier whose first arriver reads the generation after
/// arriving: if the last arriver has bumped it in between, the first waits for a bump that
/// never comes (a deadlock reachable even under SC). Expected: `Flag hang` naming the wait.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn planted_grid_barrier(
    bar: *mut u32,
    out: *mut u32,
    status: *mut u32,
) {
    grid_barrier(bar, out, status, true)
}

/// [`planted_grid_barrier`] reading the generation before arriving. Expected: clean, and each
/// rank reads its peer's word (rank 0 reads 2, rank 1 reads 1) unless its wait timed out.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn planted_grid_barrier_fix(
    bar: *mut u32,
    out: *mut u32,
    status: *mut u32,
) {
    grid_barrier(bar, out, status, false)
}
