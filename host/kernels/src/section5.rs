//! Seed §5 (async copies and proxies) as Rust kernels: each bug and its fix. The §5.1–§5.3
//! programs are written once in `ptx_sync_programs::section5` (the source the CPU runs and the
//! loom suite share); this file is their GPU harness ([`S5Mem`] over the shared tile, [`S5Env`]
//! over bounded waits) and one kernel per entry of `for_each_section5!`. §5.4 is still written
//! here.
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

use ptx_sync::barrier::{sync_threads_unaligned, ClusterBarrier, NamedBarrier};
use ptx_sync::cluster::cluster_ctarank;
use ptx_sync::copy::*;
use ptx_sync::proxy::{fence_mbarrier_init, fence_proxy_async};
use ptx_sync::shared::{shared_slice, SharedAddr, SharedArray};
use ptx_sync_programs::section5::{S5Env, S5Mem, Section5};
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

/// C's read of the 256-word tile into `out` (32 lanes, 8 words each).
#[inline(always)]
unsafe fn consume(lane: u32, out: *mut u32) {
    let mut i = lane as usize;
    while i < 256 {
        *out.add(i) = core::ptr::read_volatile(data_ptr().add(i));
        i += 32;
    }
}

// ---- 5.1–5.3: the programs of `ptx_sync_programs::section5`, one kernel each ----------------

/// The GPU's [`S5Mem`]: the 256-word tile `S5_DATA`, the barriers `S5_BARS`, the kernel's `src`
/// and `out`, `bar` = named barrier 1 of both warps.
struct Smem5 {
    src: *const u32,
    out: *mut u32,
    bar: NamedBarrier,
}

impl S5Mem for Smem5 {
    #[inline(always)]
    fn words(&self) -> u32 {
        256
    }
    #[inline(always)]
    fn tile(&self) -> SharedAddr {
        S5_DATA.addr()
    }
    #[inline(always)]
    unsafe fn read(&self, i: u32) -> u32 {
        core::ptr::read_volatile(data_ptr().add(i as usize))
    }
    #[inline(always)]
    fn src(&self, b: u32) -> *const u32 {
        unsafe { self.src.add(b as usize * 256) }
    }
    #[inline(always)]
    fn put(&self, k: u32, v: u32) {
        unsafe { *self.out.add(k as usize) = v }
    }
    #[inline(always)]
    fn full(&self) -> &Mbarrier {
        unsafe { S5_BARS.get(0) }
    }
    #[inline(always)]
    fn empty(&self) -> &Mbarrier {
        unsafe { S5_BARS.get(1) }
    }
    #[inline(always)]
    fn bar(&self) -> &NamedBarrier {
        &self.bar
    }
    /// Fill `data` with a poison value (lane `lane` of `lanes`: all 64 threads).
    #[inline(always)]
    fn poison(&self, lane: u32, lanes: u32) {
        let mut i = lane as usize;
        while i < 256 {
            unsafe { core::ptr::write_volatile(data_ptr().add(i), 0xDEAD_BEEF) };
            i += lanes as usize;
        }
    }
}

/// The GPU's [`S5Env`]: [`Waits`] (bounded `wait_parity`, a timeout ORs its bit into `status`).
struct Env5(core::cell::Cell<Waits>);

impl S5Env for Env5 {
    #[inline(always)]
    fn wait_phase(&self, b: &Mbarrier, phase: Phase, bit: u32) -> bool {
        let mut w = self.0.replace(Waits::new(core::ptr::null_mut()));
        let r = b.wait_parity::<Acquire, Cta>(phase, w.budget());
        let ok = r.is_ok();
        w.check(r, bit);
        self.0.set(w);
        ok
    }
}

/// A §5.1–§5.3 program on one CTA of 64 threads: every thread runs the setup, `bar.sync 0`
/// (unaligned), then warp 0 runs P and warp 1 runs C, one lane per thread.
#[inline(always)]
unsafe fn s5<T: Section5>(src: *const u32, out: *mut u32, status: *mut u32) {
    let t = tid();
    let m = Smem5 { src, out, bar: NamedBarrier::new(1, 64) };
    let e = Env5(core::cell::Cell::new(Waits::new(status)));
    T::setup(&m, t, 64);
    sync_threads_unaligned();
    T::role(t / 32, t % 32, 32, &e, &m);
}

macro_rules! s5_kernels {
    ($($kernel:ident: $T:path),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($kernel), "`: the program `", stringify!($T), "` of `ptx_sync_programs::section5`.")]
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $kernel(src: *const u32, out: *mut u32, status: *mut u32) {
            s5::<$T>(src, out, status)
        }
    )*};
}
ptx_sync_programs::for_each_section5!(s5_kernels);

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
        // SAFETY: every thread of the CTA takes this branch (`PUBLISH_INIT` is a constant).
        let a = unsafe { cb.arrive_aligned::<Relaxed>() };
        unsafe { cb.wait_aligned::<Acquire>(a) };
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
    // SAFETY: outside every branch on the thread index: all threads of each warp here.
    let a = unsafe { cb.arrive_aligned::<Release>() };
    unsafe { cb.wait_aligned::<Acquire>(a) };
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
