//! Seed §5.1–§5.4: asynchronous copies into shared memory, the proxies and the cluster, each
//! program written once over the library API (`ptx_sync::copy`, `Mbarrier`, `NamedBarrier`,
//! `proxy::fence_proxy_async`) in its broken and its fixed variant, and instantiated three ways:
//!
//! * **GPU**: `host/kernels/src/section5.rs` expands [`for_each_section5!`] into the kernels
//!   `s51_cp_async_bug` … `s53_reuse_fix` (one CTA of 64 threads: warp 0 is P, warp 1 is C; a
//!   256-word tile in shared memory; bounded `%globaltimer` waits);
//! * **CPU**: `host/src/bin/ptx-sync/exec/cpu.rs` runs each program's roles on two `std` threads over
//!   [`HostMem`] (the host backend: copies at issue, the barriers on CPU atomics);
//! * **loom**: `loom-tests/tests/section5.rs` model-checks each program over [`HostMem`] (under
//!   `--cfg loom` its tile is a `ptx_sync::model::Tile`, so the library's copy engine performs
//!   the copies on threads of their own, checks the proxies, and the outcome is checked) against
//!   its [`Section5::LOOM`] verdict.
//!
//! Roles: 0 = P (the producer: issues the copies), 1 = C (the consumer: reads the tile into the
//! output). Each role runs as `lanes` lanes (32 on the GPU, 1 elsewhere); [`Section5::setup`] runs
//! on every thread before the roles (followed by the harness's CTA barrier). A tile has
//! [`S5Mem::words`] words; block `b` of the source is [`S5Mem::src`]`(b)`; C writes block `b`'s
//! reads to output words `b * words ..`. Correct: the output equals the source blocks.
//!
//! | program | variant | correct | loom |
//! |---|---|---|---|
//! | §5.1 | `cp.async`, `bar.arrive` / `bar.sync`, no `cp.async.wait_all` before the arrive | no | caught: stale read or data race |
//! | §5.1 | `cp.async.wait_all` before `bar.arrive` | yes | passes |
//! | §5.2 | TMA (`cp.async.bulk`) with the §5.1 barrier (no wait exists) | no | caught: stale read, data race or proxy race |
//! | §5.2 | `arrive.expect_tx`, TMA `complete_tx`, C's `try_wait.parity` | yes | passes |
//! | §5.3 | reuse: C's `ld`, `arrive(empty)`, P's next TMA, no `fence.proxy.async` | no | caught: proxy race |
//! | §5.3 | `fence.proxy.async.shared::cta` in C before its arrive | yes | passes |
//! | §5.4 | cluster of 2, multicast TMA, C2's remote arrive `.release.cta`, P's wait `.acquire.cta` | no | caught: not morally strong |
//! | §5.4 | `.release.cluster` / `.acquire.cluster`, inits published with `fence.mbarrier_init` + `barrier.cluster` | yes | passes |
//! | §5.4 | inits published with `bar.sync` only | no | not modelled (see [`S54InitBug`]) |
//!
//! §5.4 ([`Section54`], [`for_each_section54!`]) runs on a cluster of two CTAs over
//! [`S54Mem`]: the GPU kernels `s54_*` (two CTAs of 64 threads, the roles as above), the CPU
//! and loom runs one thread per CTA over an [`S54Host`] (each CTA its own tile and barriers,
//! declared with `ptx_sync::cluster::ClusterShared` so that `mapa` reaches the peer's barrier and
//! the multicast writes both tiles; under loom one copy-engine thread per multicast).

use crate::registry::{Verdict, FORBIDDEN};
use ptx_sync::barrier::{ClusterBarrier, NamedBarrier};
use ptx_sync::copy::{
    cp_async, cp_async_bulk_g2s, cp_async_bulk_g2s_with, cp_async_commit_group, cp_async_wait_all,
    Cg, Mods,
};
use ptx_sync::proxy::{fence_mbarrier_init, fence_proxy_async};
use ptx_sync::shared::SharedAddr;
use ptx_sync::{Acquire, Cluster, Cta, Mbarrier, Phase, Relaxed, Release, Shared};

/// What a §5 role needs from where it runs: the tile, the source, the output, the barriers.
pub trait S5Mem {
    /// Words of the tile (GPU 256, loom and CPU 4).
    fn words(&self) -> u32;
    /// The tile's shared-memory address.
    fn tile(&self) -> SharedAddr;
    /// A generic-proxy `ld` of tile word `i`.
    ///
    /// # Safety
    /// As `Data::read`: the protocol must order it after the write it must see.
    unsafe fn read(&self, i: u32) -> u32;
    /// Block `b` of the global source (16-byte aligned, [`words`](Self::words) words).
    fn src(&self, b: u32) -> *const u32;
    /// Writes output word `k`.
    fn put(&self, k: u32, v: u32);
    /// The `full` mbarrier (the copies complete on it).
    fn full(&self) -> &Mbarrier;
    /// The `empty` mbarrier (C releases the tile on it, §5.3).
    fn empty(&self) -> &Mbarrier;
    /// The named barrier of §5.1 (`bar.arrive` / `bar.sync`, id 1, both roles' lanes).
    fn bar(&self) -> &NamedBarrier;
    /// Fills the tile with a poison value (lane `lane` of `lanes`; GPU only, so that a stale
    /// read shows; elsewhere nothing).
    fn poison(&self, _lane: u32, _lanes: u32) {}
}

/// How a §5 role waits.
pub trait S5Env {
    /// `mbarrier.try_wait.parity.acquire.cta` on `b` until `phase` has completed. `false`: the
    /// wait gave up (GPU: its budget ran out and `bit` was recorded in `status`); under loom it
    /// never gives up (a wait no thread can end is a `"deadlock: …"` panic).
    fn wait_phase(&self, b: &Mbarrier, phase: Phase, bit: u32) -> bool;
    /// As [`wait_phase`](Self::wait_phase) with `mbarrier.try_wait.parity.acquire.cluster`
    /// (§5.4: P waits on `empty`, which consumers of the peer CTA release).
    fn wait_phase_cluster(&self, b: &Mbarrier, phase: Phase, bit: u32) -> bool;
}

/// One §5 program in one variant.
pub trait Section5 {
    /// Kernel name (`s51_cp_async_bug`).
    const NAME: &'static str;
    /// Seed section.
    const SEED: &'static str;
    /// One line: what the variant does.
    const WHAT: &'static str;
    /// Correct per the PTX memory model (the output always equals the source).
    const CORRECT: bool;
    /// Source blocks copied (and output blocks written).
    const BLOCKS: u32;
    /// What the loom model reports ([`FORBIDDEN`]: the output differed from the source).
    const LOOM: Verdict;
    /// Runs on every thread (`lane` of `lanes`: all the threads of both roles) before the roles:
    /// barrier initialization by lane 0, the poison, the proxy fences the setup needs.
    fn setup<M: S5Mem>(m: &M, lane: u32, lanes: u32);
    /// Role `role` (0 = P, 1 = C), lane `lane` of the role's `lanes`.
    fn role<E: S5Env, M: S5Mem>(role: u32, lane: u32, lanes: u32, e: &E, m: &M);
}

/// C's reads of the tile into output block `b` (lane `lane` of `lanes`).
#[inline(always)]
fn consume<M: S5Mem>(m: &M, b: u32, lane: u32, lanes: u32) {
    let w = m.words();
    let mut i = lane;
    while i < w {
        m.put(b * w + i, unsafe { m.read(i) });
        i += lanes;
    }
}

/// P's TMA of source block `b` into the tile (`bytes`: the tile's):
/// `mbarrier.arrive.expect_tx.release.cta` on `full`, then `cp.async.bulk` completing on `full`.
#[inline(always)]
fn tma_block<M: S5Mem>(m: &M, b: u32, bytes: u32) {
    let _ = m.full().arrive_expect_tx::<Release, Cta>(bytes);
    unsafe { cp_async_bulk_g2s(m.tile(), m.src(b).cast(), bytes, m.full()) };
}

/// §5.1: `cp.async` is not in program order. `wait_all`: the fix (`cp.async.wait_all` before
/// the hand-over barrier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct S51 {
    /// `cp.async.wait_all` before `bar.arrive` (else after it, only to drain).
    pub wait_all: bool,
}

/// P: 16-byte `cp.async.cg` chunks, [`cp.async.wait_all`,] `bar.arrive`; C: `bar.sync`, reads.
#[inline(always)]
pub fn s51_role<E: S5Env, M: S5Mem>(c: S51, role: u32, lane: u32, lanes: u32, _e: &E, m: &M) {
    if role == 0 {
        let chunks = m.words() / 4;
        let mut k = lane;
        while k < chunks {
            // cp.async.cg.shared::cta.global [tile + 16k], [src + 16k], 16
            unsafe {
                cp_async::<Cg, 16>(m.tile().offset(k * 16), m.src(0).add(k as usize * 4).cast())
            };
            k += lanes;
        }
        cp_async_commit_group();
        if c.wait_all {
            cp_async_wait_all(); // seed 5.1 fix: the copies complete before the barrier
        }
        m.bar().arrive_unaligned(); // barrier.arrive 1, 64
        if !c.wait_all {
            cp_async_wait_all(); // drain before exit only
        }
    } else {
        m.bar().sync_unaligned(); // barrier.sync 1, 64
        consume(m, 0, lane, lanes);
    }
}

/// §5.2: a TMA copy has no wait of its own: it completes on an mbarrier. `mbarrier`: the fix (C
/// waits on `full`, which the copy completes), else C waits on the §5.1 named barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct S52 {
    /// C waits on the mbarrier the TMA completes (else on `bar.sync`).
    pub mbarrier: bool,
}

/// P (lane 0): `arrive.expect_tx`, the TMA; [`bar.arrive`]; drains on `full`. C: `try_wait` on
/// `full` [or `bar.sync`], reads.
#[inline(always)]
pub fn s52_role<E: S5Env, M: S5Mem>(c: S52, role: u32, lane: u32, _lanes: u32, e: &E, m: &M) {
    let bytes = m.words() * 4;
    if role == 0 {
        if lane == 0 {
            tma_block(m, 0, bytes);
        }
        if !c.mbarrier {
            m.bar().arrive_unaligned(); // the bug: P signals C, but no instruction waits for TMA
        }
        if lane == 0 {
            e.wait_phase(m.full(), Phase::ZERO, 4); // drain
        }
    } else {
        if c.mbarrier {
            e.wait_phase(m.full(), Phase::ZERO, 1);
        } else {
            m.bar().sync_unaligned();
        }
        consume(m, 0, lane, _lanes);
    }
}

/// §5.3: the tile is reused by a second TMA after C's generic reads. `fence`: the fix
/// (`fence.proxy.async.shared::cta` in C before its arrive on `empty`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct S53 {
    /// `fence.proxy.async.shared::cta` before C's arrive on `empty`.
    pub fence: bool,
}

/// P (lane 0): TMA block 0, wait `empty`, TMA block 1 into the same tile, drain. C: wait `full`
/// (phase 0), read, [`fence.proxy.async`,] arrive on `empty`, wait `full` (phase 1), read.
#[inline(always)]
pub fn s53_role<E: S5Env, M: S5Mem>(c: S53, role: u32, lane: u32, lanes: u32, e: &E, m: &M) {
    let bytes = m.words() * 4;
    if role == 0 {
        if lane == 0 {
            tma_block(m, 0, bytes); // block A
            e.wait_phase(m.empty(), Phase::ZERO, 2);
            tma_block(m, 1, bytes); // block B
            e.wait_phase(m.full(), Phase::ONE, 4); // drain
        }
    } else {
        e.wait_phase(m.full(), Phase::ZERO, 1);
        consume(m, 0, lane, lanes);
        if c.fence {
            fence_proxy_async::<Shared>(); // seed 5.3 fix: generic reads before the async write
        }
        let _ = m.empty().arrive::<Release, Cta>();
        e.wait_phase(m.full(), Phase::ONE, 1);
        consume(m, 1, lane, lanes);
    }
}

/// §5.2's setup (both variants): lane 0 initializes `full` (one arrival), every lane poisons
/// its part of the tile, then `fence.proxy.async.shared::cta`.
#[inline(always)]
fn s52_setup<M: S5Mem>(m: &M, lane: u32, lanes: u32) {
    if lane == 0 {
        m.full().init(1);
    }
    m.poison(lane, lanes);
    // The poison is a generic-proxy write and the TMA an async-proxy write to the same
    // words: without this fence the poison may land after the tile and fake a stale read.
    fence_proxy_async::<Shared>();
}

/// §5.3's setup (both variants): lane 0 initializes `full` (one arrival) and `empty` (one per
/// consumer lane) and publishes the inits to the async proxy.
#[inline(always)]
fn s53_setup<M: S5Mem>(m: &M, lane: u32, lanes: u32) {
    if lane == 0 {
        m.full().init(1);
        m.empty().init(lanes.div_ceil(2));
        // The inits are generic-proxy writes that TMA (async proxy) will read.
        fence_proxy_async::<Shared>();
    }
}

macro_rules! s5_variant {
    ($(#[$doc:meta])* $T:ident = $cfg:expr, $role:ident, $name:literal, $seed:literal,
     blocks: $blocks:expr, correct: $ok:expr, loom: $loom:expr, $what:literal,
     setup: |$m:ident, $lane:ident, $lanes:ident| $setup:block) => {
        $(#[$doc])*
        #[doc = concat!("\n\n`", $name, "` (", $seed, "): ", $what)]
        pub struct $T;
        impl Section5 for $T {
            const NAME: &'static str = $name;
            const SEED: &'static str = $seed;
            const WHAT: &'static str = $what;
            const CORRECT: bool = $ok;
            const BLOCKS: u32 = $blocks;
            const LOOM: Verdict = $loom;
            #[inline(always)]
            #[allow(unused_variables)]
            fn setup<M: S5Mem>($m: &M, $lane: u32, $lanes: u32) $setup
            #[inline(always)]
            fn role<E: S5Env, M: S5Mem>(role: u32, lane: u32, lanes: u32, e: &E, m: &M) {
                $role($cfg, role, lane, lanes, e, m)
            }
        }
    };
}

s5_variant!(
    /// Seed 5.1 bug.
    S51Bug = S51 { wait_all: false }, s51_role, "s51_cp_async_bug", "§5.1",
    blocks: 1, correct: false, loom: Verdict::Caught(&[FORBIDDEN, "ptx-sync model: data race on Data"]),
    "cp.async, then bar.arrive without cp.async.wait_all in between: C may read the tile first",
    setup: |m, lane, lanes| { m.poison(lane, lanes); });
s5_variant!(
    /// Seed 5.1 fix.
    S51Fix = S51 { wait_all: true }, s51_role, "s51_cp_async_fix", "§5.1",
    blocks: 1, correct: true, loom: Verdict::Passes,
    "cp.async.wait_all, then bar.arrive: the copies are complete before the hand-over",
    setup: |m, lane, lanes| { m.poison(lane, lanes); });
s5_variant!(
/// Seed 5.2 bug.
S52Bug = S52 { mbarrier: false }, s52_role, "s52_tma_bug", "§5.2",
blocks: 1, correct: false,
loom: Verdict::Caught(&[FORBIDDEN, "ptx-sync model: data race on Data", "proxy race"]),
"TMA, then bar.arrive; C reads after bar.sync: nothing waits for the copy",
setup: |m, lane, lanes| { s52_setup(m, lane, lanes); });
s5_variant!(
/// Seed 5.2 fix.
S52Fix = S52 { mbarrier: true }, s52_role, "s52_tma_fix", "§5.2",
blocks: 1, correct: true, loom: Verdict::Passes,
"mbarrier.arrive.expect_tx + TMA complete_tx + mbarrier.try_wait.parity",
setup: |m, lane, lanes| { s52_setup(m, lane, lanes); });
s5_variant!(
/// Seed 5.3 bug.
S53Bug = S53 { fence: false }, s53_role, "s53_reuse_bug", "§5.3",
blocks: 2, correct: false, loom: Verdict::Caught(&["proxy race"]),
"C reads the tile and arrives on empty without fence.proxy.async; P's next TMA rewrites it",
setup: |m, lane, lanes| { s53_setup(m, lane, lanes); });
s5_variant!(
/// Seed 5.3 fix.
S53Fix = S53 { fence: true }, s53_role, "s53_reuse_fix", "§5.3",
blocks: 2, correct: true, loom: Verdict::Passes,
"fence.proxy.async.shared::cta before the arrive on empty",
setup: |m, lane, lanes| { s53_setup(m, lane, lanes); });

// ---- §5.4: a cluster of two CTAs, multicast TMA, remote arrive, init publication -----------

/// What a §5.4 role needs beyond [`S5Mem`] (whose tile, `full`, `empty` and output are its own
/// CTA's: each CTA has its copy of the tile and of the barriers at the same offsets; `put(k)`
/// writes this CTA's output word `k`).
pub trait S54Mem: S5Mem {
    /// This CTA's rank in the cluster of two: 0 = A (P's CTA; its `empty` is the one used),
    /// 1 = B.
    fn rank(&self) -> u32;
    /// The cluster barrier (`barrier.cluster.arrive` / `wait`: every thread of both CTAs).
    fn cluster(&self) -> &ClusterBarrier;
    /// `bar.sync 0` of this CTA's threads: the only publication of the inits in the init bug
    /// (a CTA of one thread: nothing).
    fn cta_sync(&self);
}

/// §5.4: C2 runs in CTA B, P and C1 in CTA A; P's TMA multicast writes both CTAs' tiles and
/// completes on both CTAs' `full`; C1 and C2 release the tile on A's `empty` (C2 remotely,
/// `mapa` + `.shared::cluster`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct S54 {
    /// The consumers' remote arrive is `.release.cluster` and P's wait on `empty`
    /// `.acquire.cluster` (else both `.cta`, the seed's first bug).
    pub cluster_scope: bool,
    /// The inits are published with `fence.mbarrier_init.release.cluster` +
    /// `barrier.cluster.arrive.relaxed` + `barrier.cluster.wait` (else with the CTA's `bar.sync`
    /// only, the seed's second bug).
    pub publish_init: bool,
}

/// Every thread of the cluster, before the roles: thread 0 of each CTA initializes `full` (one
/// arrival: its P) and `empty` (`2 * c_lanes`: C1's and C2's lanes), then the inits'
/// publication (see [`S54::publish_init`]). `lane` is the thread's index in its CTA.
#[inline(always)]
pub fn s54_setup<M: S54Mem>(c: S54, m: &M, lane: u32, c_lanes: u32) {
    if lane == 0 {
        m.full().init(1);
        m.empty().init(2 * c_lanes); // used in A only
        if c.publish_init {
            fence_mbarrier_init(); // seed 5.4: release the inits to the cluster
        }
    }
    if c.publish_init {
        let a = m.cluster().arrive::<Relaxed>(); // barrier.cluster.arrive.relaxed
        m.cluster().wait::<Acquire>(a); // barrier.cluster.wait
    } else {
        // The init bug: bar.sync publishes the inits to this CTA only; the peer CTA may arrive
        // on (or multicast into) a barrier whose init it cannot see yet.
        m.cta_sync();
    }
}

/// P's round `r` (lane 0 of each CTA): from round 1 on, in A the wait for both consumers'
/// release of the tile on `empty`, in B the wait for its `full`'s previous phase; then
/// `arrive.expect_tx` on its CTA's `full`; in A, the multicast of source block `r` into both
/// tiles (`mask` 0b11).
#[inline(always)]
pub fn s54_produce<E: S5Env, M: S54Mem>(c: S54, r: u32, e: &E, m: &M) {
    let bytes = m.words() * 4;
    if r > 0 {
        let prev = if r & 1 == 1 { Phase::ZERO } else { Phase::ONE };
        if m.rank() == 0 {
            if c.cluster_scope {
                e.wait_phase_cluster(m.empty(), prev, 2); // seed 5.4 fix: .acquire.cluster
            } else {
                e.wait_phase(m.empty(), prev, 2); // seed 5.4 bug: .acquire.cta
            }
        } else {
            e.wait_phase(m.full(), prev, 4);
        }
    }
    let _ = m.full().arrive_expect_tx::<Release, Cta>(bytes);
    if m.rank() == 0 {
        // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster
        unsafe {
            cp_async_bulk_g2s_with(
                m.tile(),
                m.src(r).cast(),
                bytes,
                m.full(),
                Mods::NONE.multicast(0b11),
            )
        };
    }
}

/// C's round `r` (lane `lane` of `lanes`): wait `full` (phase `r & 1`), read the tile into
/// output block `r`, `fence.proxy.async.shared::cta` (§5.3), arrive on A's `empty`.
#[inline(always)]
pub fn s54_consume<E: S5Env, M: S54Mem>(c: S54, r: u32, lane: u32, lanes: u32, e: &E, m: &M) {
    let p = if r & 1 == 0 { Phase::ZERO } else { Phase::ONE };
    e.wait_phase(m.full(), p, 1);
    consume(m, r, lane, lanes);
    fence_proxy_async::<Shared>();
    let leader_empty = m.empty().remote(0); // mapa.shared::cluster.u32
    if c.cluster_scope {
        leader_empty.arrive::<Release, Cluster>(); // seed 5.4 fix
    } else {
        leader_empty.arrive::<Release, Cta>(); // seed 5.4 bug: .cta does not reach CTA A
    }
}

/// P's drain (lane 0): its `full`'s last phase; in A, both consumers' last release.
#[inline(always)]
pub fn s54_drain<E: S5Env, M: S54Mem>(e: &E, m: &M) {
    e.wait_phase(m.full(), Phase::ONE, 4);
    if m.rank() == 0 {
        e.wait_phase_cluster(m.empty(), Phase::ONE, 2);
    }
}

/// Every thread, at the end: the cluster barrier, so that no CTA exits while its peer may still
/// touch its shared memory.
#[inline(always)]
pub fn s54_exit<M: S54Mem>(m: &M) {
    let a = m.cluster().arrive::<Release>();
    m.cluster().wait::<Acquire>(a);
}

/// One §5.4 program in one variant.
pub trait Section54 {
    /// Kernel name (`s54_cluster_fix`).
    const NAME: &'static str;
    /// One line: what the variant does.
    const WHAT: &'static str;
    /// Correct per the PTX memory model.
    const CORRECT: bool;
    /// What the loom model reports.
    const LOOM: Verdict;
    /// The variant.
    const CFG: S54;
    /// Rounds (blocks multicast, output blocks per CTA).
    const BLOCKS: u32 = 2;

    /// The roles as the GPU runs them, each on its own threads: role 0 = P (lane 0 acts),
    /// role 1 = C (lane `lane` of `lanes`). Between [`s54_setup`] and [`s54_exit`].
    #[inline(always)]
    fn role<E: S5Env, M: S54Mem>(role: u32, lane: u32, lanes: u32, e: &E, m: &M) {
        if role == 0 {
            if lane == 0 {
                for r in 0..Self::BLOCKS {
                    s54_produce(Self::CFG, r, e, m);
                }
                s54_drain(e, m);
            }
        } else {
            for r in 0..Self::BLOCKS {
                s54_consume(Self::CFG, r, lane, lanes, e, m);
            }
        }
    }

    /// A whole CTA on one thread (P and C, one lane each, interleaved by round: P's round `r`,
    /// then C's — an order the concurrent roles may also run in): setup, roles, exit. The CPU
    /// and loom runs start one such thread per CTA.
    fn cta<E: S5Env, M: S54Mem>(e: &E, m: &M) {
        s54_setup(Self::CFG, m, 0, 1);
        for r in 0..Self::BLOCKS {
            s54_produce(Self::CFG, r, e, m);
            s54_consume(Self::CFG, r, 0, 1, e, m);
        }
        s54_drain(e, m);
        s54_exit(m);
    }
}

macro_rules! s54_variant {
    ($(#[$doc:meta])* $T:ident = $cfg:expr, $name:literal, correct: $ok:expr, loom: $loom:expr,
     $what:literal) => {
        $(#[$doc])*
        #[doc = concat!("\n\n`", $name, "` (§5.4): ", $what)]
        pub struct $T;
        impl Section54 for $T {
            const NAME: &'static str = $name;
            const WHAT: &'static str = $what;
            const CORRECT: bool = $ok;
            const LOOM: Verdict = $loom;
            const CFG: S54 = $cfg;
        }
    };
}

s54_variant!(
    /// Seed 5.4 bug: the default `.cta` scope on the remote arrive and P's wait.
    S54ClusterCta = S54 { cluster_scope: false, publish_init: true }, "s54_cluster_cta",
    correct: false, loom: Verdict::Caught(&["not morally strong"]),
    "C2 arrives remotely on A's empty with .release.cta; P waits .acquire.cta");
s54_variant!(
    /// Seed 5.4 fix.
    S54ClusterFix = S54 { cluster_scope: true, publish_init: true }, "s54_cluster_fix",
    correct: true, loom: Verdict::Passes,
    "remote arrive .release.cluster, wait .acquire.cluster, inits published with fence.mbarrier_init + barrier.cluster");
s54_variant!(
    /// Seed 5.4 init bug: the fix without `fence.mbarrier_init` and the cluster barrier after
    /// the inits.
    S54InitBug = S54 { cluster_scope: true, publish_init: false }, "s54_init_bug",
    correct: false,
    loom: Verdict::NotModelled(
        "the bug is a lost complete_tx: A's multicast completing on B's full before B's \
         mbarrier.init, which then erases it. The model performs that complete_tx in B's CTA \
         (as the hardware does, so that B's .acquire.cta wait synchronizes with it), which makes \
         it morally strong with B's .cta init, so no race is reported; and loom at preemption \
         bound 0 schedules B's init before the copy-engine thread (bound 1 does not finish in 15 \
         minutes)"),
    "inits published with bar.sync only: A's multicast may complete_tx on B's full before B's init, which then erases it");

/// Calls `$m! { kernel_name: Type, ... }` with every §5.4 program ([`Section54`]): the kernels
/// (`host/kernels/src/section5.rs`), the CPU runs (`host/src/bin/ptx-sync/exec/cpu.rs`) and the loom suite
/// (`loom-tests/tests/section5.rs`) expand it.
#[macro_export]
macro_rules! for_each_section54 {
    ($m:ident) => {
        $m! {
            s54_cluster_cta: $crate::section5::S54ClusterCta,
            s54_cluster_fix: $crate::section5::S54ClusterFix,
            s54_init_bug: $crate::section5::S54InitBug,
        }
    };
}

/// Calls `$m! { kernel_name: Type, ... }` with every §5 program of the registry, in the seed's
/// order: the kernels (`host/kernels/src/section5.rs`), the CPU runs (`host/src/bin/ptx-sync/exec/cpu.rs`)
/// and the loom suite (`loom-tests/tests/section5.rs`) expand it.
#[macro_export]
macro_rules! for_each_section5 {
    ($m:ident) => {
        $m! {
            s51_cp_async_bug: $crate::section5::S51Bug,
            s51_cp_async_fix: $crate::section5::S51Fix,
            s52_tma_bug: $crate::section5::S52Bug,
            s52_tma_fix: $crate::section5::S52Fix,
            s53_reuse_bug: $crate::section5::S53Bug,
            s53_reuse_fix: $crate::section5::S53Fix,
        }
    };
}

#[cfg(not(target_arch = "nvptx64"))]
pub use host::{HostMem, SRC, WORDS};

#[cfg(not(target_arch = "nvptx64"))]
pub(crate) mod host {
    use super::S5Mem;
    use ptx_sync::barrier::NamedBarrier;
    use ptx_sync::shared::SharedAddr;
    use ptx_sync::{Gpu, Mbarrier, Relaxed, Strong};

    /// Words of the tile on the CPU and under loom (one 16-byte chunk: one `cp.async.cg`, one
    /// copy-engine thread per copy under loom).
    pub const WORDS: u32 = 4;

    /// The source blocks (block `b`: `SRC[b]`).
    pub static SRC: Src = Src([[11, 12, 13, 14], [21, 22, 23, 24]]);

    /// 16-byte aligned source blocks.
    #[repr(C, align(16))]
    pub struct Src(pub [[u32; WORDS as usize]; 2]);

    #[cfg(not(loom))]
    #[repr(C, align(128))]
    struct Tile(core::cell::UnsafeCell<[u32; WORDS as usize]>);

    // SAFETY: the roles touch the tile only through `TileMem::read` and the copy into
    // `TileMem::addr`, which the program orders with its barriers (the ordering the model checks
    // under `--cfg loom`); what makes an instance shareable between its role threads is this.
    #[cfg(not(loom))]
    unsafe impl Sync for Tile {}

    /// `Default` of the host instances: a fresh one, [`HostMem::new`] / [`S54Host::new`].
    macro_rules! default_is_new {
        ($($t:ty),*) => {$(
            impl Default for $t {
                fn default() -> Self {
                    Self::new()
                }
            }
        )*};
    }
    pub(super) use default_is_new;

    default_is_new!(HostMem);

    /// The output words of an instance, `N` of them (zero until a role puts them).
    pub(super) struct OutWords<const N: usize>([Strong<u32>; N]);

    impl<const N: usize> OutWords<N> {
        pub(super) fn new() -> Self {
            OutWords(core::array::from_fn(|_| Strong::new(0)))
        }
        /// Word `k` (after the roles have ended).
        pub(super) fn get(&self, k: u32) -> u32 {
            self.0[k as usize].at::<Gpu>().load::<Relaxed>()
        }
        pub(super) fn put(&self, k: u32, v: u32) {
            self.0[k as usize].at::<Gpu>().store::<Relaxed>(v)
        }
        /// Whether the `blocks` blocks from word `at` on equal the first `blocks` source blocks.
        pub(super) fn copied(&self, at: u32, blocks: u32) -> bool {
            (0..blocks).all(|b| {
                (0..WORDS).all(|i| self.get(at + b * WORDS + i) == SRC.0[b as usize][i as usize])
            })
        }
    }

    /// One tile of [`WORDS`] words: an aligned array, or under `--cfg loom` a
    /// `ptx_sync::model::Tile` (its accesses checked by the model).
    pub(super) struct TileMem {
        #[cfg(not(loom))]
        t: Tile,
        #[cfg(loom)]
        t: ptx_sync::model::Tile<u32>,
    }

    impl TileMem {
        pub(super) fn new() -> Self {
            TileMem {
                #[cfg(not(loom))]
                t: Tile(core::cell::UnsafeCell::new([0; WORDS as usize])),
                #[cfg(loom)]
                t: ptx_sync::model::Tile::new(WORDS as usize, 0),
            }
        }
        pub(super) fn base(&self) -> usize {
            #[cfg(not(loom))]
            return self.t.0.get() as usize;
            #[cfg(loom)]
            return self.t.as_ptr() as usize;
        }
        pub(super) fn addr(&self) -> SharedAddr {
            ptx_sync::shared::to_shared(self.base() as *const u32)
        }
        pub(super) unsafe fn read(&self, i: u32) -> u32 {
            #[cfg(not(loom))]
            return core::ptr::read_volatile((self.base() as *const u32).add(i as usize));
            #[cfg(loom)]
            return self.t.read(i as usize);
        }
    }

    /// A §5 instance on the host: the tile (under `--cfg loom` a `ptx_sync::model::Tile`, whose
    /// generic and async-proxy accesses the model checks), the barriers (the named barrier for
    /// the two roles, one lane each) and the output words.
    pub struct HostMem {
        tile: TileMem,
        full: Mbarrier,
        empty: Mbarrier,
        bar: NamedBarrier,
        out: OutWords<{ 2 * WORDS as usize }>,
    }

    impl HostMem {
        /// A fresh instance (tile zero, output zero, barriers not initialized).
        pub fn new() -> Self {
            HostMem {
                tile: TileMem::new(),
                full: Mbarrier::new(),
                empty: Mbarrier::new(),
                bar: NamedBarrier::new(1, 2),
                out: OutWords::new(),
            }
        }
        /// Output word `k` (after the roles have ended).
        pub fn word(&self, k: u32) -> u32 {
            self.out.get(k)
        }
        /// Whether the first `blocks` output blocks equal the source blocks.
        pub fn correct(&self, blocks: u32) -> bool {
            self.out.copied(0, blocks)
        }
    }

    impl S5Mem for HostMem {
        fn words(&self) -> u32 {
            WORDS
        }
        fn tile(&self) -> SharedAddr {
            self.tile.addr()
        }
        unsafe fn read(&self, i: u32) -> u32 {
            self.tile.read(i)
        }
        fn src(&self, b: u32) -> *const u32 {
            SRC.0[b as usize].as_ptr()
        }
        fn put(&self, k: u32, v: u32) {
            self.out.put(k, v)
        }
        fn full(&self) -> &Mbarrier {
            &self.full
        }
        fn empty(&self) -> &Mbarrier {
            &self.empty
        }
        fn bar(&self) -> &NamedBarrier {
            &self.bar
        }
    }
}

#[cfg(not(target_arch = "nvptx64"))]
mod host54 {
    use super::host::{default_is_new, OutWords, TileMem, SRC, WORDS};
    use super::{S54Mem, S5Mem};
    use ptx_sync::barrier::{ClusterBarrier, NamedBarrier};
    use ptx_sync::cluster::ClusterShared;
    use ptx_sync::shared::SharedAddr;
    use ptx_sync::Mbarrier;
    extern crate alloc;
    use alloc::boxed::Box;

    /// One CTA's shared memory: the tile (its barriers `full`, `empty` are the CTA's copy in
    /// [`S54Host::bars`]).
    struct CtaSmem {
        tile: TileMem,
    }

    /// A §5.4 instance on the host: a cluster of two CTAs, each with its own tile and barriers
    /// (declared with [`ClusterShared`] as the same variables of both CTAs, so that `mapa`
    /// reaches the peer's copy and the multicast writes both tiles), the cluster barrier (one
    /// thread per CTA) and the output (per CTA, two blocks of [`WORDS`]).
    pub struct S54Host {
        // Dropped first: the declaration names the CTAs' tiles.
        _decl: ClusterShared,
        /// Each CTA's `[full, empty]` (owned and declared per CTA).
        bars: ClusterShared<[Mbarrier; 2]>,
        ctas: Box<[CtaSmem; 2]>,
        cluster: ClusterBarrier,
        bar: NamedBarrier,
        out: OutWords<{ 4 * WORDS as usize }>,
    }

    impl S54Host {
        /// A fresh instance (tiles and output zero, barriers not initialized).
        pub fn new() -> Self {
            let ctas = Box::new([0, 1].map(|_| CtaSmem {
                tile: TileMem::new(),
            }));
            let tiles = [ctas[0].tile.base(), ctas[1].tile.base()];
            // SAFETY: the boxed tiles live as long as `self`, and `_decl` is dropped first (no
            // view of a tile outlives an instance: the roles borrow it).
            let _decl = unsafe { ClusterShared::from_raw(4 * WORDS as usize, &tiles) };
            let bars = ClusterShared::new([0, 1].map(|_| [Mbarrier::new(), Mbarrier::new()]));
            S54Host {
                _decl,
                bars,
                ctas,
                cluster: ClusterBarrier::new(2),
                bar: NamedBarrier::new(1, 1),
                out: OutWords::new(),
            }
        }
        /// The view of CTA `rank` (0 or 1).
        pub fn cta(&self, rank: u32) -> S54Cta<'_> {
            S54Cta { h: self, rank }
        }
        /// Output word `k` of CTA `rank` (after the roles have ended).
        pub fn word(&self, rank: u32, k: u32) -> u32 {
            self.out.get(rank * 2 * WORDS + k)
        }
        /// Whether both CTAs' first `blocks` output blocks equal the source blocks.
        pub fn correct(&self, blocks: u32) -> bool {
            (0..2).all(|c| self.out.copied(c * 2 * WORDS, blocks))
        }
    }

    default_is_new!(S54Host);

    /// CTA `rank` of an [`S54Host`]: its [`S54Mem`].
    pub struct S54Cta<'a> {
        h: &'a S54Host,
        rank: u32,
    }

    impl S54Cta<'_> {
        fn smem(&self) -> &CtaSmem {
            &self.h.ctas[self.rank as usize]
        }
    }

    impl S5Mem for S54Cta<'_> {
        fn words(&self) -> u32 {
            WORDS
        }
        fn tile(&self) -> SharedAddr {
            self.smem().tile.addr()
        }
        unsafe fn read(&self, i: u32) -> u32 {
            self.smem().tile.read(i)
        }
        fn src(&self, b: u32) -> *const u32 {
            SRC.0[b as usize].as_ptr()
        }
        fn put(&self, k: u32, v: u32) {
            self.h.out.put(self.rank * 2 * WORDS + k, v)
        }
        fn full(&self) -> &Mbarrier {
            &self.h.bars[self.rank as usize][0]
        }
        fn empty(&self) -> &Mbarrier {
            &self.h.bars[self.rank as usize][1]
        }
        fn bar(&self) -> &NamedBarrier {
            &self.h.bar
        }
    }

    impl S54Mem for S54Cta<'_> {
        fn rank(&self) -> u32 {
            self.rank
        }
        fn cluster(&self) -> &ClusterBarrier {
            &self.h.cluster
        }
        fn cta_sync(&self) {}
    }
}

#[cfg(not(target_arch = "nvptx64"))]
pub use host54::*;

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    extern crate std;

    struct Spin;
    impl S5Env for Spin {
        fn wait_phase(&self, b: &Mbarrier, phase: Phase, _bit: u32) -> bool {
            ptx_sync::wait::spin_until(ptx_sync::wait::Budget::iterations(1 << 28), || {
                b.try_wait_parity::<ptx_sync::Acquire, Cta>(phase)
            })
            .is_ok()
        }
        fn wait_phase_cluster(&self, b: &Mbarrier, phase: Phase, _bit: u32) -> bool {
            ptx_sync::wait::spin_until(ptx_sync::wait::Budget::iterations(1 << 28), || {
                b.try_wait_parity::<ptx_sync::Acquire, Cluster>(phase)
            })
            .is_ok()
        }
    }

    fn run<T: Section5>() -> bool {
        let m = HostMem::new();
        T::setup(&m, 0, 2);
        std::thread::scope(|s| {
            s.spawn(|| T::role(0, 0, 1, &Spin, &m));
            s.spawn(|| T::role(1, 0, 1, &Spin, &m));
        });
        m.correct(T::BLOCKS)
    }

    /// A registry's rows (of §5.1–§5.3 or of §5.4: each type is a program of one of the two)
    /// as (registry key, kernel name, correct).
    macro_rules! rows {
        ($($k:ident: $T:path),* $(,)?) => { [$((stringify!($k), <$T>::NAME, <$T>::CORRECT)),*] };
    }

    /// Every kernel name is its registry key; `correct` of the rows are correct.
    fn consistent(rows: &[(&str, &str, bool)], correct: usize) {
        for (k, name, _) in rows {
            assert_eq!(k, name);
        }
        assert_eq!(rows.iter().filter(|r| r.2).count(), correct);
    }

    /// Every kernel name is the program's name; the registry lists each §5.1–§5.3 program in a
    /// broken and a fixed variant.
    #[test]
    fn registry_rows_are_consistent() {
        let rows = crate::for_each_section5!(rows);
        assert_eq!(rows.len(), 6);
        consistent(&rows, 3);
    }

    fn run54<T: Section54>() -> bool {
        let h = S54Host::new();
        std::thread::scope(|s| {
            s.spawn(|| T::cta(&Spin, &h.cta(0)));
            s.spawn(|| T::cta(&Spin, &h.cta(1)));
        });
        h.correct(T::BLOCKS)
    }

    /// §5.4: three variants (the seed's program and its two bugs), named by their kernels.
    #[test]
    fn registry54_rows_are_consistent() {
        let rows = crate::for_each_section54!(rows);
        assert_eq!(rows.len(), 3);
        consistent(&rows, 1);
    }

    /// §5.4 on two CPU threads, one per CTA: the multicast writes both CTAs' tiles (each has
    /// its own, declared with `ClusterShared`), so both CTAs' outputs are the source blocks.
    #[test]
    fn s54_fix_copies_the_source_into_both_ctas_on_the_cpu() {
        // B's output is read from B's tile, which only A's multicast writes; B's `full`
        // completes only by the multicast's `complete_tx` on B's copy.
        assert!(run54::<S54ClusterFix>());
    }

    /// On the host every copy is done at issue, so even the broken variants read the source; the
    /// fixed ones must.
    #[test]
    fn fixed_programs_copy_the_source_on_the_cpu() {
        assert!(run::<S51Fix>());
        assert!(run::<S52Fix>());
        assert!(run::<S53Fix>());
    }
}
