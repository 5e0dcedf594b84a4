//! Seed §5 (async copies and proxies) as Rust kernels: each bug and its fix.
//!
//! PTX ISA §9.7.9.25 (cp.async, cp.async.bulk), §9.7.13.15 (mbarrier), §9.7.13.4
//! (fence.proxy.async), §9.7.13.3 (barrier.cluster). Every wait is bounded by
//! [`BUDGET`] nanoseconds of `%globaltimer`; a wait that runs out ORs a bit into `status[0]` and
//! the thread carries on to the end of the kernel without waiting again (no early exit, so no
//! barrier is left short of a thread). Buffers must be 16-byte aligned.
//!
//! | kernel | grid | block | cluster | dyn smem | params |
//! |---|---|---|---|---|---|
//! | `s51_cp_async_bug`, `s51_cp_async_fix` | 1 | 64 | – | 0 | `(src: *const u32 [256], out: *mut u32 [256], status: *mut u32 [1])` |
//! | `s52_tma_bug`, `s52_tma_fix` | 1 | 64 | – | 0 | `(src: *const u32 [256], out: *mut u32 [256], status: *mut u32 [1])` |
//! | `s53_reuse_bug`, `s53_reuse_fix` | 1 | 64 | – | 0 | `(src: *const u32 [512], out: *mut u32 [512], status: *mut u32 [1])` |
//! | `s54_cluster_cta`, `s54_cluster_fix`, `s54_init_bug` | 2 | 64 | (2,1,1) | 0 | `(src: *const u32 [512], out: *mut u32 [1024], status: *mut u32 [1])` |
//!
//! Roles: warp 0 is P (lane 0 issues copies and initializes barriers), warp 1 is C. Expected
//! output when correct: `out == src` (5.1, 5.2), `out[0..256] == src[0..256]` and
//! `out[256..512] == src[256..512]` (5.3: round 0 = block A, round 1 = block B), and the same per
//! CTA in 5.4 (`out[rank*512 ..][..512]`). `status` bits: 1 = C's wait on `full` timed out,
//! 2 = P's wait on `empty` timed out, 4 = drain wait timed out. The bug variants may or may not
//! show stale data on a given run: they are *allowed* to (seed §5).
//!
//! The §5.4 kernels differ in one place each: `s54_cluster_fix` is the seed's program (remote
//! arrive `.release.cluster`, wait `.acquire.cluster`, barriers published with `mbarrier.init` →
//! `fence.mbarrier_init.release.cluster` → `barrier.cluster.arrive.relaxed` →
//! `barrier.cluster.wait`); `s54_cluster_cta` uses `.cta` for the remote arrive and the wait;
//! `s54_init_bug` keeps the `.cluster` arrive/wait but publishes the inits with only a CTA-local
//! `bar.sync` (no `fence.mbarrier_init`, no cluster barrier before first use), so CTA B's
//! consumers may arrive on CTA A's `empty` — and CTA A's multicast may complete tx on CTA B's
//! `full` — before that barrier's `mbarrier.init` is visible (or has even run). Its outcomes:
//! timeouts (an arrival or a `complete_tx` lost to a later init) or stale data. Same launch and
//! layout as `s54_cluster_fix`; all three end with the cluster barrier, so no CTA exits while its
//! peer may still touch its shared memory.

use ptx_sync::barrier::{sync_threads_unaligned, Aligned, ClusterBarrier, NamedBarrier};
use ptx_sync::cluster::cluster_ctarank;
use ptx_sync::copy::*;
use ptx_sync::proxy::{fence_mbarrier_init, fence_proxy_async};
use ptx_sync::shared::{shared_slice, SharedArray};
use ptx_sync::wait::Budget;
use ptx_sync::*;

/// Per-wait budget: 200 ms.
pub const BUDGET: u64 = 200_000_000;

#[inline(always)]
fn tid() -> u32 {
    let v: u32;
    unsafe { core::arch::asm!("mov.u32 {}, %tid.x;", out(reg32) v, options(pure, nomem, nostack)) };
    v
}

/// Bounded waits that give up for good after the first timeout.
struct Waits {
    status: *mut u32,
    failed: bool,
}
impl Waits {
    fn new(status: *mut u32) -> Self {
        Waits { status, failed: false }
    }
    fn budget(&self) -> Budget {
        if self.failed { Budget::iterations(1) } else { Budget::nanos(BUDGET) }
    }
    fn check<T, E>(&mut self, r: Result<T, E>, bit: u32) {
        if r.is_err() {
            self.failed = true;
            unsafe { AtomicRef::<u32, Gpu>::from_ptr(self.status).red_or::<Relaxed>(bit) };
        }
    }
}

shared_array!(static S5_DATA: [u32; 256], align 128);
shared_array!(static S5_BARS: [Mbarrier; 2], align 8);

#[inline(always)]
fn data_ptr() -> *mut u32 {
    S5_DATA.as_ptr()
}

/// Fill `data` with a poison value (all 64 threads), then `bar.sync 0`.
#[inline(always)]
unsafe fn poison(t: u32) {
    let mut i = t as usize;
    while i < 256 {
        core::ptr::write_volatile(data_ptr().add(i), 0xDEAD_BEEF);
        i += 64;
    }
}

/// C's read of the 256-word tile into `out` (32 lanes, 8 words each).
#[inline(always)]
unsafe fn consume(lane: u32, out: *mut u32) {
    let mut i = lane as usize;
    while i < 256 {
        *out.add(i) = core::ptr::read_volatile(data_ptr().add(i));
        i += 32;
    }
}

// ---- 5.1 cp.async: not in program order ------------------------------------------------------

#[inline(always)]
unsafe fn s51(src: *const u32, out: *mut u32, fix: bool) {
    let t = tid();
    poison(t);
    sync_threads_unaligned();
    let full = NamedBarrier::new(1, 64);
    if t < 32 {
        // P: 64 chunks of 16 bytes, two per lane.
        for k in 0..2u32 {
            let c = k * 32 + t;
            cp_async::<Cg, 16>(S5_DATA.addr().offset(c * 16), src.add(c as usize * 4) as *const u8);
        }
        cp_async_commit_group();
        if fix {
            cp_async_wait_all(); // seed 5.1 fix: the copies complete before the barrier
        }
        full.arrive_unaligned(); // barrier.arrive 1, 64
        if !fix {
            cp_async_wait_all(); // drain before exit only
        }
    } else {
        full.sync_unaligned(); // barrier.sync 1, 64
        consume(t - 32, out);
    }
}

/// Seed 5.1 bug: `cp.async` … `bar.arrive` without `cp.async.wait_all` in between.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn s51_cp_async_bug(src: *const u32, out: *mut u32, _status: *mut u32) {
    s51(src, out, false)
}
/// Seed 5.1 fix: `cp.async.wait_all` then `bar.arrive`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn s51_cp_async_fix(src: *const u32, out: *mut u32, _status: *mut u32) {
    s51(src, out, true)
}

// ---- 5.2 TMA: completion on an mbarrier ------------------------------------------------------

#[inline(always)]
unsafe fn s52(src: *const u32, out: *mut u32, status: *mut u32, fix: bool) {
    let t = tid();
    let mut w = Waits::new(status);
    let full: &Mbarrier = S5_BARS.get(0);
    if t == 0 {
        full.init(1);
    }
    poison(t);
    // The poison is a generic-proxy write and the TMA copy an async-proxy write to the same
    // words: without this fence the poison may land after the tile and fake a stale read.
    fence_proxy_async::<Shared>();
    sync_threads_unaligned(); // publishes init and the poison
    let bar = NamedBarrier::new(1, 64);
    if t < 32 {
        if t == 0 {
            let _ = full.arrive_expect_tx::<Release, Cta>(1024);
            cp_async_bulk_g2s(S5_DATA.addr(), src as *const u8, 1024, full);
        }
        if !fix {
            bar.arrive_unaligned(); // the bug: P signals C, but no instruction waits for TMA
        }
        if t == 0 {
            let r = full.wait_parity::<Acquire, Cta>(Phase::ZERO, w.budget()); // drain
            w.check(r, 4);
        }
    } else {
        if fix {
            let r = full.wait_parity::<Acquire, Cta>(Phase::ZERO, w.budget());
            w.check(r, 1);
        } else {
            bar.sync_unaligned();
        }
        consume(t - 32, out);
    }
}

/// Seed 5.2 bug: TMA then `bar.arrive`; C reads after `bar.sync`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn s52_tma_bug(src: *const u32, out: *mut u32, status: *mut u32) {
    s52(src, out, status, false)
}
/// Seed 5.2 fix: `mbarrier.arrive.expect_tx` + TMA `complete_tx` + `mbarrier.try_wait.parity`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn s52_tma_fix(src: *const u32, out: *mut u32, status: *mut u32) {
    s52(src, out, status, true)
}

// ---- 5.3 proxies: generic reads, then a TMA write into the same buffer -----------------------

#[inline(always)]
unsafe fn s53(src: *const u32, out: *mut u32, status: *mut u32, fix: bool) {
    let t = tid();
    let mut w = Waits::new(status);
    let full: &Mbarrier = S5_BARS.get(0);
    let empty: &Mbarrier = S5_BARS.get(1);
    if t == 0 {
        full.init(1);
        empty.init(32);
        // The inits are generic-proxy writes that TMA (async proxy) will read: make them
        // visible to it (CUDA programming guide's TMA example).
        fence_proxy_async::<Shared>();
    }
    sync_threads_unaligned();
    if t == 0 {
        let _ = full.arrive_expect_tx::<Release, Cta>(1024);
        cp_async_bulk_g2s(S5_DATA.addr(), src as *const u8, 1024, full); // block A
        let r = empty.wait_parity::<Acquire, Cta>(Phase::ZERO, w.budget());
        w.check(r, 2);
        let _ = full.arrive_expect_tx::<Release, Cta>(1024);
        cp_async_bulk_g2s(S5_DATA.addr(), src.add(256) as *const u8, 1024, full); // block B
        let r = full.wait_parity::<Acquire, Cta>(Phase::ONE, w.budget()); // drain
        w.check(r, 4);
    } else if t >= 32 {
        let lane = t - 32;
        let r = full.wait_parity::<Acquire, Cta>(Phase::ZERO, w.budget());
        w.check(r, 1);
        consume(lane, out);
        if fix {
            fence_proxy_async::<Shared>(); // seed 5.3 fix: generic reads before the async write
        }
        let _ = empty.arrive::<Release, Cta>();
        let r = full.wait_parity::<Acquire, Cta>(Phase::ONE, w.budget());
        w.check(r, 1);
        consume(lane, out.add(256));
    }
}

/// Seed 5.3 bug: C reads `data`, arrives on `empty` without `fence.proxy.async`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn s53_reuse_bug(src: *const u32, out: *mut u32, status: *mut u32) {
    s53(src, out, status, false)
}
/// Seed 5.3 fix: `fence.proxy.async.shared::cta` before the arrive on `empty`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn s53_reuse_fix(src: *const u32, out: *mut u32, status: *mut u32) {
    s53(src, out, status, true)
}

// ---- 5.4 cluster: multicast TMA, remote arrive on the leader's `empty` ----------------------

#[inline(always)]
unsafe fn s54<const CLUSTER_SCOPE: bool, const PUBLISH_INIT: bool>(src: *const u32, out: *mut u32, status: *mut u32) {
    let t = tid();
    let rank = cluster_ctarank();
    let mut w = Waits::new(status);
    let bars = shared_slice(S5_BARS);
    let (full, empty): (&Mbarrier, &Mbarrier) = (&bars[0], &bars[1]);
    let cb = ClusterBarrier::new(128);
    if t == 0 {
        full.init(1);
        empty.init(64); // C1 (32 lanes in CTA A) + C2 (32 lanes in CTA B); used in A only
        if PUBLISH_INIT {
            fence_mbarrier_init();
        }
    }
    if PUBLISH_INIT {
        // The init publication sequence of seed 5.4.
        let a = cb.arrive::<Relaxed, Aligned>();
        cb.wait::<Acquire, Aligned>(a);
    } else {
        // The init bug: bar.sync publishes the inits to this CTA only; the peer CTA may arrive
        // on (or multicast into) a barrier whose init it cannot see yet.
        sync_threads_unaligned();
    }
    let out = out.add(rank as usize * 512);
    if t == 0 {
        for r in 0..2u32 {
            if r == 1 {
                if rank == 0 {
                    // P waits for both consumers' release of round 0.
                    let res = if CLUSTER_SCOPE {
                        empty.wait_parity::<Acquire, Cluster>(Phase::ZERO, w.budget())
                    } else {
                        empty.wait_parity::<Acquire, Cta>(Phase::ZERO, w.budget())
                    };
                    w.check(res, 2);
                } else {
                    let res = full.wait_parity::<Acquire, Cta>(Phase::ZERO, w.budget());
                    w.check(res, 4);
                }
            }
            let _ = full.arrive_expect_tx::<Release, Cta>(1024);
            if rank == 0 {
                cp_async_bulk_g2s_multicast(S5_DATA.addr(), src.add(r as usize * 256) as *const u8, 1024, full, 0b11);
            }
        }
        let res = full.wait_parity::<Acquire, Cta>(Phase::ONE, w.budget()); // drain
        w.check(res, 4);
        if rank == 0 {
            let res = empty.wait_parity::<Acquire, Cluster>(Phase::ONE, w.budget());
            w.check(res, 2);
        }
    } else if t >= 32 {
        let lane = t - 32;
        let leader_empty = empty.remote(0);
        for r in 0..2u32 {
            let p = if r == 0 { Phase::ZERO } else { Phase::ONE };
            let res = full.wait_parity::<Acquire, Cta>(p, w.budget());
            w.check(res, 1);
            consume(lane, out.add(r as usize * 256));
            fence_proxy_async::<Shared>();
            if CLUSTER_SCOPE {
                leader_empty.arrive::<Release, Cluster>(); // seed 5.4 fix
            } else {
                leader_empty.arrive::<Release, Cta>(); // seed 5.4 bug: .cta does not reach CTA A
            }
        }
    }
    // Nobody leaves while a peer may still touch this CTA's shared memory.
    let a = cb.arrive::<Release, Aligned>();
    cb.wait::<Acquire, Aligned>(a);
}

/// Seed 5.4 bug: remote arrive `.release.cta`, wait `.acquire.cta`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn s54_cluster_cta(src: *const u32, out: *mut u32, status: *mut u32) {
    s54::<false, true>(src, out, status)
}
/// Seed 5.4 fix: remote arrive `.release.cluster`, wait `.acquire.cluster`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn s54_cluster_fix(src: *const u32, out: *mut u32, status: *mut u32) {
    s54::<true, true>(src, out, status)
}
/// Seed 5.4 init bug: as `s54_cluster_fix`, but the barriers' inits are published with a
/// CTA-local `bar.sync` only (no `fence.mbarrier_init.release.cluster`, no cluster barrier before
/// the first remote arrive / multicast).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn s54_init_bug(src: *const u32, out: *mut u32, status: *mut u32) {
    s54::<true, false>(src, out, status)
}
