//! The seed's programs at model-check size (issue #22): the same program code as the GPU
//! harnesses (`litmus.rs`, `section5.rs`, `deepep.rs`: the roles of `ptx_sync_programs`), run by
//! harnesses small enough for `ptx-sync check FILE.ptx` to explore every execution — one
//! instance, explicit role mapping, 4-word tiles, no stress, no random placement.
//!
//! Every wait is still bounded by `%globaltimer` ([`BUDGET`]): a wait that runs out ORs its bit
//! into the status word (`out[3]` for the litmus programs, `status[0]` for §5) and **ends the
//! thread** (`exit`), so that no role goes on after a wait it did not see end (the GPU harnesses
//! go on and report the timeout; here that would be a race of the harness, not of the program).
//! The checker judges a bounded wait as the unbounded wait it bounds (`model/SEMANTICS.md` S6).
//!
//! # Launches
//!
//! | kernels | grid | block | cluster | params | roles |
//! |---|---|---|---|---|---|
//! | `tiny_litmus_*` (2 roles: MP, SB, counters) | 2 | 1 | – | `0=buf:8 1=buf:16` (`mem`: the variables, word `v` = variable `v`; `out`: 4 words) | CTA `r` = role `r` (P, C / C1, C2) |
//! | `tiny_litmus_handoff_*` (3 roles) | 3 | 1 | – | `0=buf:24 1=buf:16` | CTA 0 = P, 1 = C1, 2 = C2 |
//! | `tiny_s51_*`, `tiny_s52_*`, `tiny_s53_*` | 1 | 64 | – | `0=buf:32 1=buf:32 2=buf:4` (`src`: 2 blocks of 4 words, `out`, `status`) | thread 0 = P (issues the copies), thread 32 = C (reads the 4 words); the other 62 threads only arrive on named barrier 1 (64 threads) where the program uses it |
//! | `tiny_s54_*` | 2 | 2 | 2 | `0=buf:32 1=buf:64 2=buf:4` (`out`: CTA `r`'s 2 blocks at word `8r`) | thread 0 = P, thread 1 = C, in each CTA |
//! | `tiny_deepep_barrier`, `tiny_deepep_barrier_missing` | 2 | 2 | – | `0=buf:16 1=buf:8` (`rows`: 2 × 2 entries, `out`: a word per rank) | CTA `r` = rank `r`, thread `t` = lane `t`; `_missing`: rank 1 never arrives |
//!
//! Roles, variables and output words are the programs' own (`ptx_sync_programs`): word 3 of
//! `out` is the timeout mask of the litmus programs (bit `r`: role `r` gave up), as on the GPU.
//! The expected verdicts, derived by hand from the seed and the PTX ISA, are in
//! `host/tests/kernel_check.rs` and `docs/kernel-check.md`.

use crate::rt::{ctaid_x, give_up, tid_x as tid};
use ptx_sync::barrier::{sync_threads_unaligned, ClusterBarrier, NamedBarrier};
use ptx_sync::cluster::cluster_ctarank;
use ptx_sync::shared::{SharedAddr, SharedArray};
use ptx_sync::wait::{spin_until, Budget};
use ptx_sync::*;
use ptx_sync_programs::section5::{s54_exit, s54_setup, S5Env, S5Mem, Section5, Section54};
use ptx_sync_programs::{deepep, Env, Litmus, Mem};

/// Every wait's budget: 100 ms of `%globaltimer`.
pub const BUDGET: u64 = 100_000_000;

// ---- §2–§4: the litmus programs, one instance, a CTA of one thread per role ------------------

/// One instance's variables (`mem[v]`) and output words (`out[k]`), role `role`.
struct One {
    mem: *mut u32,
    out: *mut u32,
    role: u32,
}

impl Mem for One {
    #[inline(always)]
    fn data(&self, v: usize) -> &Data<u32> {
        unsafe { Data::from_ptr(self.mem.add(v)) }
    }
    #[inline(always)]
    fn flag(&self, v: usize) -> &Strong<u32> {
        unsafe { Strong::from_ptr(self.mem.add(v)) }
    }
    #[inline(always)]
    fn put(&self, k: usize, x: u32) {
        unsafe { core::ptr::write_volatile(self.out.add(k), x) }
    }
}

impl Env for One {
    #[inline(always)]
    fn wait(&self, _what: &'static str, done: impl FnMut() -> bool) -> bool {
        if spin_until(Budget::nanos(BUDGET), done).is_err() {
            give_up(unsafe { self.out.add(3) }, 1 << self.role);
        }
        true
    }
}

/// One `tiny_` kernel per program of `ptx_sync_programs::for_each_litmus!`: CTA `r` runs role `r`.
macro_rules! mc_litmus {
    ($($name:ident: $T:path),* $(,)?) => {$(
        #[allow(non_snake_case)]
        mod $name {
            use super::*;
            #[doc = concat!("`tiny_", stringify!($name), "`: the program [`", stringify!($T), "`], one instance, CTA `r` = role `r`.")]
            #[export_name = concat!("tiny_", stringify!($name))]
            pub unsafe extern "ptx-kernel" fn kernel(mem: *mut u32, out: *mut u32) {
                let role = ctaid_x();
                if role < <$T as Litmus>::SHAPE.roles() {
                    let one = One { mem, out, role };
                    <$T as Litmus>::role(role, &one, &one);
                }
            }
        }
    )*};
}
ptx_sync_programs::for_each_litmus!(mc_litmus);

// ---- §5.1–§5.3: warp 0 = P, warp 1 = C, a 4-word tile -----------------------------------------

/// Words of the tile (one 16-byte chunk: one `cp.async.cg`, one bulk copy).
pub const WORDS: u32 = 4;

shared_array!(static MC_TILE: [u32; WORDS as usize], align 128);
shared_array!(static MC_BARS: [Mbarrier; 2], align 8);

/// [`S5Mem`] over `MC_TILE`, `MC_BARS`, the kernel's `src` and `out`; named barrier 1 of both
/// warps.
struct Small5 {
    src: *const u32,
    out: *mut u32,
    bar: NamedBarrier,
}

impl S5Mem for Small5 {
    #[inline(always)]
    fn words(&self) -> u32 {
        WORDS
    }
    #[inline(always)]
    fn tile(&self) -> SharedAddr {
        MC_TILE.addr()
    }
    #[inline(always)]
    unsafe fn read(&self, i: u32) -> u32 {
        core::ptr::read_volatile(MC_TILE.as_ptr().add(i as usize))
    }
    #[inline(always)]
    fn src(&self, b: u32) -> *const u32 {
        unsafe { self.src.add((b * WORDS) as usize) }
    }
    #[inline(always)]
    fn put(&self, k: u32, v: u32) {
        unsafe { core::ptr::write_volatile(self.out.add(k as usize), v) }
    }
    #[inline(always)]
    fn full(&self) -> &Mbarrier {
        unsafe { MC_BARS.get(0) }
    }
    #[inline(always)]
    fn empty(&self) -> &Mbarrier {
        unsafe { MC_BARS.get(1) }
    }
    #[inline(always)]
    fn bar(&self) -> &NamedBarrier {
        &self.bar
    }
}

/// [`S5Env`]: a bounded `mbarrier.try_wait.parity.acquire.<scope>` loop; running out ends the
/// thread ([`give_up`]).
struct Exit5 {
    status: *mut u32,
}

impl S5Env for Exit5 {
    #[inline(always)]
    fn wait_phase(&self, b: &Mbarrier, phase: Phase, bit: u32) -> bool {
        if b.wait_parity::<Acquire, Cta>(phase, Budget::nanos(BUDGET))
            .is_err()
        {
            give_up(self.status, bit);
        }
        true
    }
    #[inline(always)]
    fn wait_phase_cluster(&self, b: &Mbarrier, phase: Phase, bit: u32) -> bool {
        if b.wait_parity::<Acquire, Cluster>(phase, Budget::nanos(BUDGET))
            .is_err()
        {
            give_up(self.status, bit);
        }
        true
    }
}

/// Whether a §5.1–§5.3 program hands over with named barrier 1 (`bar.arrive` / `bar.sync`):
/// then the idle threads of the model-sized launch arrive on it too (its count is the CTA's 64
/// threads).
trait UsesBar {
    const BAR: bool;
}

macro_rules! uses_bar {
    ($($T:ident: $b:expr),* $(,)?) => {$(
        impl UsesBar for ptx_sync_programs::section5::$T {
            const BAR: bool = $b;
        }
    )*};
}
// §5.1: P `barrier.arrive 1, 64`, C `barrier.sync 1, 64`; §5.2 bug: the same hand-over; §5.2 fix
// and §5.3: mbarriers only.
uses_bar!(S51Bug: true, S51Fix: true, S52Bug: true, S52Fix: false, S53Bug: false, S53Fix: false);

/// A §5.1–§5.3 program on one CTA of 64 threads at model-check size: the setup on every thread
/// (for a P and a C of one lane each: `empty` counts one arrival), `barrier.sync 0`, then thread
/// 0 = P (lane 0 of 1: it issues the copies) and thread 32 = C (lane 0 of 1: it reads the 4
/// words); the other 62 threads only arrive on named barrier 1 where the program uses it (as
/// the idle lanes of the GPU harness's warps do: they copy and read nothing).
#[inline(always)]
unsafe fn mc_s5<T: Section5 + UsesBar>(src: *const u32, out: *mut u32, status: *mut u32) {
    let t = tid();
    let m = Small5 {
        src,
        out,
        bar: NamedBarrier::new(1, 64),
    };
    T::setup(&m, t, 2);
    sync_threads_unaligned();
    if t == 0 || t == 32 {
        T::role(t / 32, 0, 1, &Exit5 { status }, &m);
    } else if T::BAR {
        m.bar.arrive_unaligned();
    }
}

macro_rules! mc_s5_kernels {
    ($($kernel:ident: $T:path),* $(,)?) => {$(
        #[allow(non_snake_case)]
        mod $kernel {
            use super::*;
            #[doc = concat!("`tiny_", stringify!($kernel), "`: [`", stringify!($T), "`] on a 4-word tile.")]
            #[export_name = concat!("tiny_", stringify!($kernel))]
            pub unsafe extern "ptx-kernel" fn kernel(src: *const u32, out: *mut u32, status: *mut u32) {
                mc_s5::<$T>(src, out, status)
            }
        }
    )*};
}
ptx_sync_programs::for_each_section5!(mc_s5_kernels);

// ---- §5.4: a cluster of two CTAs of two threads ---------------------------------------------

/// A §5.4 program on a cluster of two CTAs of two threads: thread 0 = P, thread 1 = C (one
/// lane), between the program's setup and its exit cluster barrier.
#[inline(always)]
unsafe fn mc_s54<T: Section54>(src: *const u32, out: *mut u32, status: *mut u32) {
    let t = tid();
    let rank = cluster_ctarank();
    let m = crate::section5::Mem54 {
        m: Small5 {
            src,
            out: out.add((rank * 2 * WORDS) as usize),
            bar: NamedBarrier::new(1, 64),
        },
        rank,
        cluster: ClusterBarrier::new(4),
    };
    s54_setup(T::CFG, &m, t, 1);
    T::role(t, 0, 1, &Exit5 { status }, &m);
    s54_exit(&m);
}

macro_rules! mc_s54_kernels {
    ($($kernel:ident: $T:path),* $(,)?) => {$(
        #[allow(non_snake_case)]
        mod $kernel {
            use super::*;
            #[doc = concat!("`tiny_", stringify!($kernel), "`: [`", stringify!($T), "`], two CTAs of two threads.")]
            #[export_name = concat!("tiny_", stringify!($kernel))]
            pub unsafe extern "ptx-kernel" fn kernel(src: *const u32, out: *mut u32, status: *mut u32) {
                mc_s54::<$T>(src, out, status)
            }
        }
    )*};
}
ptx_sync_programs::for_each_section54!(mc_s54_kernels);

// ---- DeepEP's barrier (seed 004): two ranks of two lanes -------------------------------------

/// Ranks of the model-sized barrier.
pub const RANKS: u32 = 2;

/// `rows[r * RANKS + t]`.
struct Rows2(*mut i32);

impl deepep::Fifo for Rows2 {
    #[inline(always)]
    fn entry(&self, r: usize, t: usize) -> &Strong<i32> {
        unsafe { Strong::from_ptr(self.0.add(r * RANKS as usize + t)) }
    }
}

/// `timeout_check` bounded by [`BUDGET`]; running out ORs lane `t`'s bit into the rank's
/// output word and ends the thread.
struct DeepepWait {
    out: *mut u32,
    lane: u32,
}

impl Env for DeepepWait {
    #[inline(always)]
    fn wait(&self, _what: &'static str, done: impl FnMut() -> bool) -> bool {
        if spin_until(Budget::nanos(BUDGET), done).is_err() {
            give_up(self.out, 1 << self.lane);
        }
        true
    }
}

/// Rank `ctaid.x` (unless it is `missing`), lane `tid.x`: `deepep::rank` as DeepEP writes it.
#[inline(always)]
unsafe fn mc_deepep(rows: *mut i32, out: *mut u32, missing: u32) {
    let (rank, t) = (ctaid_x(), tid());
    if rank >= RANKS || t >= RANKS || rank == missing {
        return; // a rank that "died" before the barrier
    }
    let e = DeepepWait {
        out: out.add(rank as usize),
        lane: t,
    };
    let lane = t as usize..t as usize + 1;
    deepep::rank(
        deepep::AS_WRITTEN,
        &Rows2(rows),
        &e,
        rank as usize,
        lane,
        true,
    );
}

/// `tiny_deepep_barrier`: DeepEP's `barrier_device` on 2 ranks (CTAs) of 2 lanes; every rank
/// arrives.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn tiny_deepep_barrier(rows: *mut i32, out: *mut u32) {
    mc_deepep(rows, out, u32::MAX)
}

/// `tiny_deepep_barrier_missing`: the same with rank 1 dead before the barrier (seed 004: the
/// other rank's `timeout_check` can never pass).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn tiny_deepep_barrier_missing(rows: *mut i32, out: *mut u32) {
    mc_deepep(rows, out, 1)
}
