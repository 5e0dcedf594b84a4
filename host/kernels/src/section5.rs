//! Seed §5 (async copies and proxies) as Rust kernels: each bug and its fix. The §5.1–§5.3
//! programs are written once in `ptx_sync_programs::section5` (the source the CPU runs and the
//! loom suite share); this file is their GPU harness ([`S5Mem`] over the shared tile, [`S5Env`]
//! over bounded waits) and one kernel per entry of `for_each_section5!`; the §5.4 programs
//! (`Section54`, the same source as the CPU and loom runs) one kernel per entry of
//! `for_each_section54!` over [`S54Mem`] (this CTA's tile and barriers, its rank, the cluster
//! barrier).
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

use crate::rt::tid_x as tid;
use ptx_sync::barrier::{sync_threads_unaligned, ClusterBarrier, NamedBarrier};
use ptx_sync::cluster::cluster_ctarank;
use ptx_sync::shared::{SharedAddr, SharedArray};
use ptx_sync::wait::Budget;
use ptx_sync::*;
use ptx_sync_programs::section5::{s54_exit, s54_setup, S54Mem, S5Env, S5Mem, Section5, Section54};

/// Per-wait budget: 200 ms.
pub const BUDGET: u64 = 200_000_000;

/// Bounded waits that give up for good after the first timeout.
struct Waits {
    status: *mut u32,
    failed: bool,
}
impl Waits {
    fn new(status: *mut u32) -> Self {
        Waits {
            status,
            failed: false,
        }
    }
    fn budget(&self) -> Budget {
        if self.failed {
            Budget::iterations(1)
        } else {
            Budget::nanos(BUDGET)
        }
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

impl Env5 {
    /// A bounded `mbarrier.try_wait.parity.acquire.<Sco>` loop on `b`.
    #[inline(always)]
    fn wait<Sco: ptx_sync::sem::Scope>(&self, b: &Mbarrier, phase: Phase, bit: u32) -> bool
    where
        Acquire: ptx_sync::mbarrier::WaitInstr<Sco>,
    {
        let mut w = self.0.replace(Waits::new(core::ptr::null_mut()));
        let r = b.wait_parity::<Acquire, Sco>(phase, w.budget());
        let ok = r.is_ok();
        w.check(r, bit);
        self.0.set(w);
        ok
    }
}

impl S5Env for Env5 {
    #[inline(always)]
    fn wait_phase(&self, b: &Mbarrier, phase: Phase, bit: u32) -> bool {
        self.wait::<Cta>(b, phase, bit)
    }
    #[inline(always)]
    fn wait_phase_cluster(&self, b: &Mbarrier, phase: Phase, bit: u32) -> bool {
        self.wait::<Cluster>(b, phase, bit)
    }
}

/// A §5.1–§5.3 program on one CTA of 64 threads: every thread runs the setup, `bar.sync 0`
/// (unaligned), then warp 0 runs P and warp 1 runs C, one lane per thread.
#[inline(always)]
unsafe fn s5<T: Section5>(src: *const u32, out: *mut u32, status: *mut u32) {
    let t = tid();
    let m = Smem5 {
        src,
        out,
        bar: NamedBarrier::new(1, 64),
    };
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

// ---- 5.4: the programs of `for_each_section54!`, one kernel each -----------------------------

/// An [`S54Mem`] over any [`S5Mem`] `M` (this CTA's tile and barriers, the peer's at the same
/// offsets): the rank and the cluster barrier. The GPU harness uses [`Smem5`] (`out` already
/// offset to this CTA's 512 words, the cluster barrier of the 128 threads); the model-check
/// harness (`kcheck.rs`) its small memory.
pub(crate) struct Mem54<M> {
    pub(crate) m: M,
    pub(crate) rank: u32,
    pub(crate) cluster: ClusterBarrier,
}

impl<M: S5Mem> S5Mem for Mem54<M> {
    #[inline(always)]
    fn words(&self) -> u32 {
        self.m.words()
    }
    #[inline(always)]
    fn tile(&self) -> SharedAddr {
        self.m.tile()
    }
    #[inline(always)]
    unsafe fn read(&self, i: u32) -> u32 {
        self.m.read(i)
    }
    #[inline(always)]
    fn src(&self, b: u32) -> *const u32 {
        self.m.src(b)
    }
    #[inline(always)]
    fn put(&self, k: u32, v: u32) {
        self.m.put(k, v)
    }
    #[inline(always)]
    fn full(&self) -> &Mbarrier {
        self.m.full()
    }
    #[inline(always)]
    fn empty(&self) -> &Mbarrier {
        self.m.empty()
    }
    #[inline(always)]
    fn bar(&self) -> &NamedBarrier {
        self.m.bar()
    }
}

impl<M: S5Mem> S54Mem for Mem54<M> {
    #[inline(always)]
    fn rank(&self) -> u32 {
        self.rank
    }
    #[inline(always)]
    fn cluster(&self) -> &ClusterBarrier {
        &self.cluster
    }
    #[inline(always)]
    fn cta_sync(&self) {
        sync_threads_unaligned()
    }
}

/// A §5.4 program on a cluster of two CTAs of 64 threads: every thread runs the setup (the
/// inits by thread 0, their publication), then warp 0 runs P (lane 0) and warp 1 runs C, then
/// every thread the exit cluster barrier.
#[inline(always)]
unsafe fn s54<T: Section54>(src: *const u32, out: *mut u32, status: *mut u32) {
    let t = tid();
    let rank = cluster_ctarank();
    let m = Mem54 {
        m: Smem5 {
            src,
            out: out.add(rank as usize * 512),
            bar: NamedBarrier::new(1, 64),
        },
        rank,
        cluster: ClusterBarrier::new(128),
    };
    let e = Env5(core::cell::Cell::new(Waits::new(status)));
    s54_setup(T::CFG, &m, t, 32);
    T::role(t / 32, t % 32, 32, &e, &m);
    s54_exit(&m);
}

macro_rules! s54_kernels {
    ($($kernel:ident: $T:path),* $(,)?) => {$(
        #[doc = concat!("`", stringify!($kernel), "`: the program `", stringify!($T), "` of `ptx_sync_programs::section5`.")]
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $kernel(src: *const u32, out: *mut u32, status: *mut u32) {
            s54::<$T>(src, out, status)
        }
    )*};
}
ptx_sync_programs::for_each_section54!(s54_kernels);
