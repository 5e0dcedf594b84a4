//! Seed §5.1–§5.3: asynchronous copies into shared memory and the proxies, each program written
//! once over the library API (`ptx_sync::copy`, `Mbarrier`, `NamedBarrier`,
//! `proxy::fence_proxy_async`) in its broken and its fixed variant, and instantiated three ways:
//!
//! * **GPU**: `host/kernels/src/section5.rs` expands [`for_each_section5!`] into the kernels
//!   `s51_cp_async_bug` … `s53_reuse_fix` (one CTA of 64 threads: warp 0 is P, warp 1 is C; a
//!   256-word tile in shared memory; bounded `%globaltimer` waits);
//! * **CPU**: `host/src/exec/cpu.rs` runs each program's roles on two `std` threads over
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

use crate::registry::{Verdict, FORBIDDEN};
use ptx_sync::barrier::NamedBarrier;
use ptx_sync::copy::{cp_async, cp_async_bulk_g2s, cp_async_commit_group, cp_async_wait_all, Cg};
use ptx_sync::proxy::fence_proxy_async;
use ptx_sync::shared::SharedAddr;
use ptx_sync::{Cta, Mbarrier, Phase, Release, Shared};

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
            let _ = m.full().arrive_expect_tx::<Release, Cta>(bytes);
            unsafe { cp_async_bulk_g2s(m.tile(), m.src(0).cast(), bytes, m.full()) };
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
            let _ = m.full().arrive_expect_tx::<Release, Cta>(bytes);
            unsafe { cp_async_bulk_g2s(m.tile(), m.src(0).cast(), bytes, m.full()) }; // block A
            e.wait_phase(m.empty(), Phase::ZERO, 2);
            let _ = m.full().arrive_expect_tx::<Release, Cta>(bytes);
            unsafe { cp_async_bulk_g2s(m.tile(), m.src(1).cast(), bytes, m.full()) }; // block B
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
setup: |m, lane, lanes| {
    if lane == 0 {
        m.full().init(1);
    }
    m.poison(lane, lanes);
    // The poison is a generic-proxy write and the TMA an async-proxy write to the same
    // words: without this fence the poison may land after the tile and fake a stale read.
    fence_proxy_async::<Shared>();
});
s5_variant!(
/// Seed 5.2 fix.
S52Fix = S52 { mbarrier: true }, s52_role, "s52_tma_fix", "§5.2",
blocks: 1, correct: true, loom: Verdict::Passes,
"mbarrier.arrive.expect_tx + TMA complete_tx + mbarrier.try_wait.parity",
setup: |m, lane, lanes| {
    if lane == 0 {
        m.full().init(1);
    }
    m.poison(lane, lanes);
    fence_proxy_async::<Shared>();
});
s5_variant!(
/// Seed 5.3 bug.
S53Bug = S53 { fence: false }, s53_role, "s53_reuse_bug", "§5.3",
blocks: 2, correct: false, loom: Verdict::Caught(&["proxy race"]),
"C reads the tile and arrives on empty without fence.proxy.async; P's next TMA rewrites it",
setup: |m, lane, lanes| {
    if lane == 0 {
        m.full().init(1);
        m.empty().init(lanes.div_ceil(2));
        // The inits are generic-proxy writes that TMA (async proxy) will read.
        fence_proxy_async::<Shared>();
    }
});
s5_variant!(
/// Seed 5.3 fix.
S53Fix = S53 { fence: true }, s53_role, "s53_reuse_fix", "§5.3",
blocks: 2, correct: true, loom: Verdict::Passes,
"fence.proxy.async.shared::cta before the arrive on empty",
setup: |m, lane, lanes| {
    if lane == 0 {
        m.full().init(1);
        m.empty().init(lanes.div_ceil(2));
        fence_proxy_async::<Shared>();
    }
});

/// Calls `$m! { kernel_name: Type, ... }` with every §5 program of the registry, in the seed's
/// order: the kernels (`host/kernels/src/section5.rs`), the CPU runs (`host/src/exec/cpu.rs`)
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
mod host {
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

    /// A §5 instance on the host: the tile (under `--cfg loom` a `ptx_sync::model::Tile`, whose
    /// generic and async-proxy accesses the model checks), the barriers (the named barrier for
    /// the two roles, one lane each) and the output words.
    pub struct HostMem {
        #[cfg(not(loom))]
        tile: Tile,
        #[cfg(loom)]
        tile: ptx_sync::model::Tile<u32>,
        full: Mbarrier,
        empty: Mbarrier,
        bar: NamedBarrier,
        out: [Strong<u32>; 2 * WORDS as usize],
    }

    unsafe impl Sync for HostMem {}
    unsafe impl Send for HostMem {}

    impl Default for HostMem {
        fn default() -> Self {
            Self::new()
        }
    }

    impl HostMem {
        /// A fresh instance (tile zero, output zero, barriers not initialized).
        pub fn new() -> Self {
            HostMem {
                #[cfg(not(loom))]
                tile: Tile(core::cell::UnsafeCell::new([0; WORDS as usize])),
                #[cfg(loom)]
                tile: ptx_sync::model::Tile::new(WORDS as usize, 0),
                full: Mbarrier::new(),
                empty: Mbarrier::new(),
                bar: NamedBarrier::new(1, 2),
                out: core::array::from_fn(|_| Strong::new(0)),
            }
        }
        /// Output word `k` (after the roles have ended).
        pub fn word(&self, k: u32) -> u32 {
            self.out[k as usize].at::<Gpu>().load::<Relaxed>()
        }
        /// Whether the first `blocks` output blocks equal the source blocks.
        pub fn correct(&self, blocks: u32) -> bool {
            (0..blocks).all(|b| {
                (0..WORDS).all(|i| self.word(b * WORDS + i) == SRC.0[b as usize][i as usize])
            })
        }
    }

    impl S5Mem for HostMem {
        fn words(&self) -> u32 {
            WORDS
        }
        fn tile(&self) -> SharedAddr {
            #[cfg(not(loom))]
            return ptx_sync::shared::to_shared(self.tile.0.get() as *const u32);
            #[cfg(loom)]
            return self.tile.addr();
        }
        unsafe fn read(&self, i: u32) -> u32 {
            #[cfg(not(loom))]
            return core::ptr::read_volatile((self.tile.0.get() as *const u32).add(i as usize));
            #[cfg(loom)]
            return self.tile.read(i as usize);
        }
        fn src(&self, b: u32) -> *const u32 {
            SRC.0[b as usize].as_ptr()
        }
        fn put(&self, k: u32, v: u32) {
            self.out[k as usize].at::<Gpu>().store::<Relaxed>(v)
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

    macro_rules! rows {
        ($($k:ident: $T:path),* $(,)?) => { [$((stringify!($k), <$T as Section5>::NAME, <$T as Section5>::CORRECT)),*] };
    }

    /// Every kernel name is the program's name; the registry lists each §5.1–§5.3 program in a
    /// broken and a fixed variant.
    #[test]
    fn registry_rows_are_consistent() {
        let rows = crate::for_each_section5!(rows);
        assert_eq!(rows.len(), 6);
        for (k, name, _) in rows {
            assert_eq!(k, name);
        }
        assert_eq!(rows.iter().filter(|r| r.2).count(), 3);
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
