//! Execution barriers: named CTA barriers (`bar.sync`, `bar.arrive`, `bar.red`) and the cluster
//! barrier (`barrier.cluster.arrive` / `barrier.cluster.wait`).
//!
//! PTX ISA §9.7.13.1 (`bar`, `barrier`), §9.7.13.3 (`barrier.cluster`). Seed §5.1 (`bar.arrive` /
//! `bar.sync` synchronize without reading a value; a barrier does not wait for `cp.async`),
//! §5.4 (`barrier.cluster.arrive.relaxed` + `barrier.cluster.wait` publish `mbarrier.init`
//! after `fence.mbarrier_init.release.cluster`).
//!
//! <!-- generated from device/isa/barrier.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`NamedBarrier::<Aligned>::sync`](NamedBarrier::sync) | `bar.sync id, n;` | 2.0 / sm_20 |
//! | [`sync_threads_aligned()`](sync_threads_aligned) | `bar.sync id;` | 2.0 / sm_20 |
//! | [`NamedBarrier::<Aligned>::arrive`](NamedBarrier::arrive) | `bar.arrive id, n;` | 2.0 / sm_20 |
//! | [`NamedBarrier::<Aligned>::red_popc`](NamedBarrier::red_popc) | `bar.red.popc.u32 d, id, n, p;` | 2.0 / sm_20 |
//! | [`NamedBarrier::<Aligned>::red_and`](NamedBarrier::red_and) | `bar.red.and.pred q, id, n, p;` | 2.0 / sm_20 |
//! | [`NamedBarrier::<Aligned>::red_or`](NamedBarrier::red_or) | `bar.red.or.pred q, id, n, p;` | 2.0 / sm_20 |
//! | [`NamedBarrier::<Unaligned>::sync`](NamedBarrier::sync) | `barrier.sync id, n;` | 6.0 / sm_30 |
//! | [`NamedBarrier::<Unaligned>::arrive`](NamedBarrier::arrive) | `barrier.arrive id, n;` | 6.0 / sm_30 |
//! | [`sync_threads()`](sync_threads) | `barrier.sync id;` | 6.0 / sm_30 |
//! | [`NamedBarrier::<Unaligned>::red_popc`](NamedBarrier::red_popc) | `barrier.red.popc.u32 d, id, n, p;` | 6.0 / sm_30 |
//! | [`NamedBarrier::<Unaligned>::red_and`](NamedBarrier::red_and) | `barrier.red.and.pred q, id, n, p;` | 6.0 / sm_30 |
//! | [`NamedBarrier::<Unaligned>::red_or`](NamedBarrier::red_or) | `barrier.red.or.pred q, id, n, p;` | 6.0 / sm_30 |
//! | [`bar_warp_sync`] | `bar.warp.sync mask;` | 6.0 / sm_30 |
//! | `unsafe` [`ClusterBarrier::arrive_aligned`] | `barrier.cluster.arrive.{release,relaxed}.aligned;` | 8.0 / sm_90 |
//! | [`ClusterBarrier::arrive`] | `barrier.cluster.arrive.{release,relaxed};` | 8.0 / sm_90 |
//! | `unsafe` [`ClusterBarrier::wait_aligned::<Acquire>`](ClusterBarrier::wait_aligned) | `barrier.cluster.wait.acquire.aligned;` | 8.0 / sm_90 |
//! | [`ClusterBarrier::wait::<Acquire>`](ClusterBarrier::wait) | `barrier.cluster.wait.acquire;` | 8.0 / sm_90 |
//!
//! # Alignment of the CTA barriers (issue #13 item 9)
//!
//! `.aligned` (which every `bar.*` spelling implies, PTX ISA §9.7.13.1: "`bar{.cta}.sync` is
//! equivalent to `barrier{.cta}.sync.aligned`") states that **all threads in the CTA** execute
//! the same barrier instruction; in conditionally executed code it is defined only if every
//! thread of the CTA evaluates the condition identically. rustc's inline asm is not
//! `convergent`, so LLVM may duplicate one call into two branches (two instructions; seen in this
//! repo's kernels, `host/tests/barriers.rs`). The alignment is therefore the type parameter `A`
//! of [`NamedBarrier<A>`](NamedBarrier) (and the cluster barrier's `.aligned` forms, whose
//! precondition is every thread of the warp, PTX ISA §9.7.13.3, are the `unsafe`
//! [`ClusterBarrier::arrive_aligned`], [`wait_aligned`](ClusterBarrier::wait_aligned) and
//! [`sync_aligned`](ClusterBarrier::sync_aligned); `arrive`, `wait`, `sync` omit it): the default
//! [`Unaligned`] (made by the safe [`NamedBarrier::new`]) emits `barrier.*`, always defined;
//! [`Aligned`] is made only by the `unsafe` [`NamedBarrier::new_aligned`] (and
//! [`sync_threads`]'s aligned form is the `unsafe` [`sync_threads_aligned`]), whose contract is
//! the ISA's precondition. `NamedBarrier::<Aligned>::new` does not compile. The SASS is the same
//! (`BAR.SYNC.DEFER_BLOCKING`, `BAR.ARV`, ptxas 13.0 sm_90: `host/tests/show_async.rs`).
//!
//! `barrier.cluster.arrive` without `.sem` means `.release` and `wait` without `.sem` means
//! `.acquire`; this crate always spells the semantic out. `arrive::<Acquire>()` and
//! `wait::<Release>()` do not compile.
//!
//! # Host backend
//! The methods carry no `#[cfg]`: they call the one backend of the build (the crate-private
//! `BarBackend` trait, implemented for nvptx64 with the table's `asm!` and for the host and loom
//! with the counting barriers below; the struct layouts are the same on every backend, the host
//! state a zero-sized `()` on the device).
//! A [`NamedBarrier`] is a counting, generation-numbered barrier over one word (AcqRel arrival,
//! Acquire wait) and a [`ClusterBarrier`] a monotonic arrival counter over all threads of the
//! "cluster" (Release or Relaxed arrival as the semantic says, Acquire wait); on the
//! device both are plain values (ids and counts) and hold no memory. Under `--cfg loom` their
//! words are strong locations of `ptx_sync::model` at `.cta` (`bar`) and `.cluster`
//! (`barrier.cluster`), so threads outside the barrier's scope are reported (PTX ISA §8.7,
//! §8.9.4), and the waits are model spins (a barrier that never completes is a `deadlock: …`).
//!
//! ```
//! use ptx_sync::barrier::{ClusterBarrier, NamedBarrier, Aligned};
//! use ptx_sync::{Relaxed, Acquire};
//! let bar = NamedBarrier::new(1, 1);
//! bar.sync();                                  // barrier.sync 1, 1;  (one thread: passes)
//! assert_eq!(bar.red_popc(true), 1);           // barrier.red.popc.u32
//! // all threads of the CTA at this one instruction (the caller's promise): bar.sync 2, 1;
//! let aligned: NamedBarrier<Aligned> = unsafe { NamedBarrier::new_aligned(2, 1) };
//! aligned.sync();
//! let cb = ClusterBarrier::new(1);
//! let t = cb.arrive::<Relaxed>();              // barrier.cluster.arrive.relaxed
//! cb.wait::<Acquire>(t);                       // barrier.cluster.wait.acquire
//! // SAFETY: every thread of the warp at these instructions (no branch).
//! let t = unsafe { cb.arrive_aligned::<Relaxed>() }; // barrier.cluster.arrive.relaxed.aligned
//! unsafe { cb.wait_aligned::<Acquire>(t) };          // barrier.cluster.wait.acquire.aligned
//! ```

use crate::sem::{Acquire, Relaxed, Release, Sem};
use core::marker::PhantomData;

// The rows of `device/isa/barrier.rows`: the markers `BarSync` … `BarrierRedOr` with their `asm!`
// leaves, the traits `ClusterArriveInstr` / `ClusterWaitInstr` with one impl per legal
// (semantic, alignment), and the catalog rows.
include!(concat!(env!("OUT_DIR"), "/isa/barrier.rs"));

mod red_unaligned;

crate::sem::token_markers! {
    /// Whether a barrier instruction carries `.aligned` (all threads of the CTA execute the same
    /// barrier instruction, PTX ISA §9.7.13.1).
    trait Alignment;
    /// `.aligned`: every thread of the CTA executes this same barrier instruction (PTX ISA
    /// §9.7.13.1; for `barrier.cluster`, every thread of the cluster, §9.7.13.3).
    Aligned
    /// No `.aligned`: the threads of the CTA may reach the barrier at different barrier
    /// instructions.
    Unaligned
}

/// A named CTA barrier: id `0..16` and a thread count (a multiple of 32, PTX ISA §9.7.13.1),
/// with its alignment `A` ([`Unaligned`] by default: `barrier.*`; [`Aligned`]: `bar.*`, made
/// only by the `unsafe` [`NamedBarrier::new_aligned`] — the module docs). Device: a plain
/// value. Host: a counting barrier shared by reference between threads.
pub struct NamedBarrier<A: Alignment = Unaligned> {
    id: u32,
    count: u32,
    /// The backend's state: nothing on the device, the counting barrier on the host.
    h: <Active as BarBackend>::Named,
    _a: PhantomData<A>,
}

use crate::backend::{Active, BarBackend};

impl NamedBarrier<Unaligned> {
    /// Barrier `id` (`< 16`) for `count` threads (`count % 32 == 0` on the device; any positive
    /// count on the host), **without `.aligned`**: its methods emit `barrier.*`, defined wherever
    /// the threads reach them (PTX ISA §9.7.13.1). Panics otherwise.
    ///
    /// No instruction: the id and count become the operands of each barrier instruction. `id >= 16`
    /// panics everywhere; `count % 32 != 0` panics on the device (a `trap`; PTX ISA §9.7.13.1), not
    /// on the host, so host tests can use a few threads. Seed §5.1.
    ///
    /// # Examples
    ///
    /// ```
    /// let bar = ptx_sync::barrier::NamedBarrier::new(3, 64); // barrier.sync 3, 64; on the device
    /// assert_eq!(bar.id(), 3);
    /// ```
    ///
    /// ```should_panic
    /// let _ = ptx_sync::barrier::NamedBarrier::new(16, 32); // ids are 0..16
    /// ```
    ///
    /// The aligned barrier has no safe constructor:
    ///
    /// ```compile_fail
    /// let _ = ptx_sync::barrier::NamedBarrier::<ptx_sync::barrier::Aligned>::new(1, 64);
    /// ```
    pub fn new(id: u32, count: u32) -> Self {
        NamedBarrier::make(id, count)
    }
}

impl NamedBarrier<Aligned> {
    /// [`new`](NamedBarrier::new) with `.aligned`: its methods emit `bar.sync` / `bar.arrive` /
    /// `bar.red` (≡ `barrier.*.aligned`, PTX ISA §9.7.13.1). PTX 2.0 / sm_20. Seed §5.1.
    ///
    /// # Safety
    /// PTX ISA §9.7.13.1: every thread of the CTA that executes a barrier instruction of this
    /// barrier executes **the same instruction** (all threads in the CTA, not only the warp);
    /// in conditionally executed code only where every thread of the CTA evaluates the
    /// condition identically — undefined behaviour otherwise. rustc's inline asm is not
    /// `convergent`: LLVM may duplicate one call into two branches, which breaks the
    /// precondition even for straight-line source; check the kernel's PTX (`ptx-sync show
    /// --ptx` lints `aligned-barrier-two-paths`) or use [`new`](NamedBarrier::new).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::barrier::{Aligned, NamedBarrier};
    /// let bar: NamedBarrier<Aligned> = unsafe { NamedBarrier::new_aligned(1, 1) };
    /// bar.sync(); // bar.sync 1, 1;
    /// ```
    pub unsafe fn new_aligned(id: u32, count: u32) -> Self {
        NamedBarrier::make(id, count)
    }
}

impl<A: Alignment> NamedBarrier<A> {
    /// `.aligned` or not, from the marker's token.
    const ALIGNED: bool = !A::PTX.is_empty();

    fn make(id: u32, count: u32) -> Self {
        assert!(
            id < 16,
            "bar: barrier id must be below 16 (PTX ISA §9.7.13.1)"
        );
        assert!(count > 0, "bar: thread count must be positive");
        NamedBarrier {
            id,
            count,
            h: <Active as BarBackend>::named(count),
            _a: PhantomData,
        }
    }
    /// The barrier id.
    ///
    /// No instruction.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(ptx_sync::barrier::NamedBarrier::new(1, 32).id(), 1);
    /// ```
    pub fn id(&self) -> u32 {
        self.id
    }
    /// `barrier.sync id, n;` ([`Unaligned`]) or `bar.sync id, n;` ([`Aligned`]) — arrive and
    /// wait for `n` threads. Orders memory among participants (PTX ISA §8.9.4: barrier =
    /// release + acquire at CTA scope).
    ///
    /// SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`, `show_async.rs`): both →
    /// `BAR.SYNC.DEFER_BLOCKING`. PTX 6.0 / sm_30 (`bar.sync`: 2.0 / sm_20). PTX ISA §9.7.13.1;
    /// seed §5.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{barrier::NamedBarrier, Data};
    /// let (bar, x) = (NamedBarrier::new(1, 2), Data::new(0u32));
    /// std::thread::scope(|s| {
    ///     s.spawn(|| { unsafe { x.write(1) }; bar.sync(); });
    ///     s.spawn(|| { bar.sync(); assert_eq!(unsafe { x.read() }, 1); }); // ordered by the barrier
    /// });
    /// ```
    #[inline(always)]
    pub fn sync(&self) {
        <Active as BarBackend>::sync(self.id, self.count, &self.h, Self::ALIGNED)
    }
    /// `barrier.arrive id, n;` ([`Unaligned`]) or `bar.arrive id, n;` ([`Aligned`]) — arrive
    /// without waiting (a producer's signal, seed §5.1). Does not wait for this thread's
    /// `cp.async` copies (seed §5.1: `cp_async_wait_all` first).
    ///
    /// SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`): `BAR.ARV`. PTX 6.0 / sm_30
    /// (`bar.arrive`: 2.0 / sm_20). PTX ISA §9.7.13.1; seed §5.1 (producer `arrive`, consumer
    /// `sync` on the same id).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{barrier::NamedBarrier, Data};
    /// let (bar, x) = (NamedBarrier::new(2, 2), Data::new(0u32));
    /// std::thread::scope(|s| {
    ///     s.spawn(|| { unsafe { x.write(5) }; bar.arrive(); });        // producer: no wait
    ///     s.spawn(|| { bar.sync(); assert_eq!(unsafe { x.read() }, 5); }); // consumer
    /// });
    /// ```
    #[inline(always)]
    pub fn arrive(&self) {
        <Active as BarBackend>::arrive(self.id, self.count, &self.h, Self::ALIGNED)
    }
    /// `barrier.sync id, n;` — [`sync`](Self::sync) without `.aligned`, whatever `A` is: use it
    /// wherever the compiler may duplicate the call into divergent paths (PTX ISA §9.7.13.1: for
    /// the `.aligned` form, all threads in the CTA must execute the same barrier instruction).
    ///
    /// SASS: not recorded in the repo. PTX 6.0 / sm_30. Seed §5.1.
    ///
    /// # Examples
    ///
    /// ```
    /// let bar = ptx_sync::barrier::NamedBarrier::new(4, 1);
    /// if std::hint::black_box(true) { bar.sync_unaligned() } else { bar.sync_unaligned() } // two call sites: fine
    /// ```
    #[inline(always)]
    pub fn sync_unaligned(&self) {
        <Active as BarBackend>::sync(self.id, self.count, &self.h, false)
    }
    /// `barrier.arrive id, n;` — [`arrive`](Self::arrive) without `.aligned` (PTX ISA
    /// §9.7.13.1).
    ///
    /// SASS: not recorded in the repo. PTX 6.0 / sm_30. Seed §5.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::barrier::NamedBarrier;
    /// let bar = NamedBarrier::new(5, 2);
    /// std::thread::scope(|s| {
    ///     s.spawn(|| bar.arrive_unaligned());
    ///     s.spawn(|| bar.sync_unaligned());
    /// });
    /// ```
    #[inline(always)]
    pub fn arrive_unaligned(&self) {
        <Active as BarBackend>::arrive(self.id, self.count, &self.h, false)
    }
    /// `barrier.red.popc.u32` ([`Unaligned`]) or `bar.red.popc.u32` ([`Aligned`]) — barrier,
    /// then the number of participants whose `pred` was true.
    ///
    /// Every participant gets the same count. SASS: not recorded in the repo. PTX 6.0 / sm_30
    /// (`bar.red`: 2.0 / sm_20). PTX ISA §9.7.13.1; seed §5.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::barrier::NamedBarrier;
    /// let bar = &NamedBarrier::new(1, 3);
    /// let counts: Vec<u32> = std::thread::scope(|s| {
    ///     let h: Vec<_> = [true, false, true].map(|p| s.spawn(move || bar.red_popc(p))).into();
    ///     h.into_iter().map(|h| h.join().unwrap()).collect()
    /// });
    /// assert_eq!(counts, [2, 2, 2]);
    /// ```
    #[inline(always)]
    pub fn red_popc(&self, pred: bool) -> u32 {
        <Active as BarBackend>::red_popc(self.id, self.count, &self.h, pred, Self::ALIGNED)
    }
    /// `barrier.red.and.pred` ([`Unaligned`]) or `bar.red.and.pred` ([`Aligned`]) — barrier,
    /// then whether every participant's `pred` was true.
    ///
    /// SASS: not recorded in the repo. PTX 6.0 / sm_30 (`bar.red`: 2.0 / sm_20). PTX ISA
    /// §9.7.13.1; seed §5.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::barrier::NamedBarrier;
    /// let bar = NamedBarrier::new(1, 2);
    /// std::thread::scope(|s| {
    ///     let a = s.spawn(|| bar.red_and(true));
    ///     assert!(!bar.red_and(false));
    ///     assert!(!a.join().unwrap());
    /// });
    /// ```
    #[inline(always)]
    pub fn red_and(&self, pred: bool) -> bool {
        <Active as BarBackend>::red_and(self.id, self.count, &self.h, pred, Self::ALIGNED)
    }
    /// `barrier.red.or.pred` ([`Unaligned`]) or `bar.red.or.pred` ([`Aligned`]) — barrier, then
    /// whether any participant's `pred` was true.
    ///
    /// SASS: not recorded in the repo. PTX 6.0 / sm_30 (`bar.red`: 2.0 / sm_20). PTX ISA
    /// §9.7.13.1; seed §5.1.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::barrier::NamedBarrier;
    /// let bar = NamedBarrier::new(1, 2);
    /// std::thread::scope(|s| {
    ///     let a = s.spawn(|| bar.red_or(true));
    ///     assert!(bar.red_or(false));
    ///     assert!(a.join().unwrap());
    /// });
    /// ```
    #[inline(always)]
    pub fn red_or(&self, pred: bool) -> bool {
        <Active as BarBackend>::red_or(self.id, self.count, &self.h, pred, Self::ALIGNED)
    }
}

/// `barrier.sync 0;` — the whole CTA (`__syncthreads`), without `.aligned` (PTX ISA
/// §9.7.13.1; the module docs: the aligned `bar.sync 0` is the `unsafe`
/// [`sync_threads_aligned`]). Host: the barrier of the calling thread's CTA in an
/// `index::launch` (host; outside one, a CTA of one thread: passes).
///
/// SASS (ptxas 13.0, sm_90): `BAR.SYNC.DEFER_BLOCKING`. PTX 6.0 / sm_30. Seed §5.1.
///
/// ```
/// ptx_sync::barrier::sync_threads(); // one host thread: a CTA of one
/// ```
#[inline(always)]
pub fn sync_threads() {
    sync_threads_unaligned()
}

/// `bar.sync 0;` (≡ `barrier.sync.aligned 0`) — [`sync_threads`] with `.aligned`. PTX 1.0,
/// all targets. PTX ISA §9.7.13.1; seed §5.1. Host: as [`sync_threads`].
///
/// # Safety
/// As [`NamedBarrier::new_aligned`]: every thread of the CTA executes this same instruction
/// (rustc may duplicate the call into two branches: check the kernel's PTX).
///
/// ```
/// unsafe { ptx_sync::barrier::sync_threads_aligned() };
/// ```
#[inline(always)]
pub unsafe fn sync_threads_aligned() {
    <Active as BarBackend>::sync_threads(true)
}

/// `bar.warp.sync membermask;` — waits until every thread of this warp whose lane is in
/// `membermask` has executed `bar.warp.sync` with the same mask, and orders their memory: a
/// thread's writes before it are visible to the others' reads after it (PTX ISA §9.7.13.2:
/// "threads within warp that wish to communicate via memory can store to memory, execute
/// `bar.warp.sync`, and then safely read values stored by other threads in warp").
///
/// Panics if the calling thread's lane is not in `membermask` (the ISA leaves that undefined; on
/// the device the check is `%laneid` and a `trap`). PTX 6.0 / sm_30. SASS: not recorded in the
/// repo. PTX ISA §9.7.13.2; seed §5.1 (a warp's threads handing data over in shared memory).
/// Host: the lanes of `membermask` of the caller's simulated warp in an
/// `index::launch` (host builds) meet (outside one, a warp of one).
///
/// # Examples
///
/// ```
/// use ptx_sync::{barrier::bar_warp_sync, index::{launch, lane_id, Dim3}, Strong, Cta, Relaxed};
/// let slots: Vec<Strong<u32>> = (0..32).map(|_| Strong::new(0)).collect();
/// launch(Dim3::x(1), Dim3::x(32), 0, || {
///     let me = lane_id() as usize;
///     slots[me].at::<Cta>().store::<Relaxed>(me as u32 + 1);
///     bar_warp_sync(u32::MAX); // bar.warp.sync %r; with %r = 0xffffffff
///     let next = slots[(me + 1) % 32].at::<Cta>().load::<Relaxed>();
///     assert_eq!(next, (me as u32 + 1) % 32 + 1); // the neighbour's write, ordered by the barrier
/// });
/// ```
#[inline(always)]
pub fn bar_warp_sync(membermask: u32) {
    assert!(
        membermask >> crate::index::lane_id() & 1 == 1,
        "bar.warp.sync: the calling lane is not in membermask (PTX ISA §9.7.13.2)"
    );
    // SAFETY: the calling lane is in the mask (checked above).
    unsafe { BarWarpSync::exec(membermask) }
}

/// `barrier.sync 0;` — the whole CTA, without `.aligned` (PTX ISA §9.7.13.1): the form to use
/// where LLVM may tail-duplicate the barrier into two branches; the same as [`sync_threads`].
/// Host: as [`sync_threads`].
///
/// ```
/// ptx_sync::barrier::sync_threads_unaligned();
/// ```
#[inline(always)]
pub fn sync_threads_unaligned() {
    <Active as BarBackend>::sync_threads(false)
}

/// Proof of a cluster-barrier arrival, consumed by [`ClusterBarrier::wait`] (PTX requires each
/// thread to arrive before it waits, PTX ISA §9.7.13.3).
#[must_use = "wait on the arrival with ClusterBarrier::wait"]
#[derive(Debug)]
pub struct ClusterArrival {
    /// The barrier phase this arrival belongs to (the host's; 0 on the device, where the
    /// hardware keeps it).
    generation: u32,
}

/// The cluster's hardware barrier (all non-exited threads of all CTAs of the cluster).
/// Device: a zero-sized handle. Host: a counting barrier for `threads` participants.
pub struct ClusterBarrier {
    /// The backend's state: nothing on the device, the arrival counter on the host.
    c: <Active as BarBackend>::Cluster,
}

impl ClusterBarrier {
    /// The cluster barrier; `threads` is used only by the host backend (the device counts every
    /// thread of the cluster).
    ///
    /// No instruction. PTX ISA §9.7.13.3; seed §5.4.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{barrier::ClusterBarrier, Release, Acquire};
    /// let cb = ClusterBarrier::new(1);
    /// let a = cb.arrive::<Release>();
    /// cb.wait::<Acquire>(a);
    /// ```
    pub fn new(threads: u32) -> Self {
        ClusterBarrier {
            c: <Active as BarBackend>::cluster(threads),
        }
    }
    /// `barrier.cluster.arrive{.release,.relaxed};` (no `.aligned`) — `S` ∈ {`Release`,
    /// `Relaxed`}. Seed §5.4: after `fence.mbarrier_init.release.cluster`, `Relaxed` is enough.
    /// PTX 8.0, sm_90. Always defined, in divergent code too; the `.aligned` form is the `unsafe`
    /// [`arrive_aligned`](Self::arrive_aligned).
    ///
    /// `arrive::<Acquire>()` does not compile (the arrive releases or is relaxed). SASS (ptxas
    /// 13.0.88, sm_90a, `host/tests/sass_async.rs`): `UCGABAR_ARV`. PTX ISA §9.7.13.3.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{barrier::{ClusterBarrier, Unaligned, ClusterArriveInstr}, Relaxed, Release, Acquire};
    /// let cb = ClusterBarrier::new(1);
    /// let a = cb.arrive::<Relaxed>(); // barrier.cluster.arrive.relaxed
    /// cb.wait::<Acquire>(a);          // barrier.cluster.wait.acquire
    /// assert_eq!(<Release as ClusterArriveInstr<Unaligned>>::PTX, "barrier.cluster.arrive.release");
    /// ```
    ///
    /// ```compile_fail
    /// use ptx_sync::{barrier::ClusterBarrier, Acquire};
    /// let _ = ClusterBarrier::new(1).arrive::<Acquire>();
    /// ```
    #[inline(always)]
    pub fn arrive<S: Sem>(&self) -> ClusterArrival
    where
        S: ClusterArriveInstr<Unaligned>,
    {
        ClusterArrival {
            generation: <Active as BarBackend>::cluster_arrive::<S, Unaligned>(&self.c),
        }
    }
    /// `barrier.cluster.arrive{.release,.relaxed}.aligned;` — as [`arrive`](Self::arrive), with
    /// `.aligned`. PTX 8.0, sm_90. SASS: `UCGABAR_ARV` (the same). PTX ISA §9.7.13.3; seed §5.4.
    ///
    /// # Safety
    /// PTX ISA §9.7.13.3: with `.aligned`, all threads in the warp must execute the same
    /// `barrier.cluster` instruction; in conditionally executed code it is defined only if every
    /// thread of the warp evaluates the condition identically. rustc's inline asm is not
    /// `convergent` (LLVM may duplicate the call into two branches, `host/tests/barriers.rs`), so
    /// the caller promises that every thread of each warp reaches this call together (e.g.
    /// outside any branch on the thread index), as for [`NamedBarrier::new_aligned`].
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{barrier::{ClusterBarrier, Aligned, ClusterArriveInstr}, Release, Acquire};
    /// let cb = ClusterBarrier::new(1);
    /// // SAFETY: one thread, no branch: every thread of the warp is here.
    /// let a = unsafe { cb.arrive_aligned::<Release>() }; // barrier.cluster.arrive.release.aligned
    /// unsafe { cb.wait_aligned::<Acquire>(a) };           // barrier.cluster.wait.acquire.aligned
    /// assert_eq!(<Release as ClusterArriveInstr<Aligned>>::PTX, "barrier.cluster.arrive.release.aligned");
    /// ```
    #[inline(always)]
    pub unsafe fn arrive_aligned<S: Sem>(&self) -> ClusterArrival
    where
        S: ClusterArriveInstr<Aligned>,
    {
        ClusterArrival {
            generation: <Active as BarBackend>::cluster_arrive::<S, Aligned>(&self.c),
        }
    }
    /// `barrier.cluster.wait.acquire;` (no `.aligned`) — waits for every thread's arrival.
    /// PTX 8.0, sm_90. Always defined; the `.aligned` form is the `unsafe`
    /// [`wait_aligned`](Self::wait_aligned).
    ///
    /// `S` = `Acquire` only (`Release`/`Relaxed` do not compile); the [`ClusterArrival`] is consumed,
    /// so a wait without an arrival does not compile. SASS (ptxas 13.0.88, sm_90a,
    /// `host/tests/sass_async.rs`): `UCGABAR_WAIT`. PTX ISA §9.7.13.3; seed §5.4.
    ///
    /// # Examples
    ///
    /// The cluster publishes data written before the release arrive (two "CTAs" on the host):
    ///
    /// ```
    /// use ptx_sync::{barrier::{ClusterBarrier, Unaligned, ClusterWaitInstr}, Data, Release, Acquire};
    /// let (cb, x) = (ClusterBarrier::new(2), Data::new(0u32));
    /// std::thread::scope(|s| {
    ///     s.spawn(|| { unsafe { x.write(8) }; let a = cb.arrive::<Release>(); cb.wait::<Acquire>(a); });
    ///     s.spawn(|| { let a = cb.arrive::<Release>(); cb.wait::<Acquire>(a); assert_eq!(unsafe { x.read() }, 8); });
    /// });
    /// assert_eq!(<Acquire as ClusterWaitInstr<Unaligned>>::PTX, "barrier.cluster.wait.acquire");
    /// ```
    ///
    /// ```compile_fail
    /// use ptx_sync::{barrier::ClusterBarrier, Release, Relaxed};
    /// let cb = ClusterBarrier::new(1);
    /// let a = cb.arrive::<Relaxed>();
    /// cb.wait::<Release>(a); // barrier.cluster.wait takes only .acquire
    /// ```
    #[inline(always)]
    pub fn wait<S: Sem>(&self, arrival: ClusterArrival)
    where
        S: ClusterWaitInstr<Unaligned>,
    {
        <Active as BarBackend>::cluster_wait::<S, Unaligned>(&self.c, arrival.generation)
    }
    /// `barrier.cluster.wait.acquire.aligned;` — as [`wait`](Self::wait), with `.aligned`.
    /// PTX 8.0, sm_90. SASS: `UCGABAR_WAIT`. PTX ISA §9.7.13.3; seed §5.4.
    ///
    /// # Safety
    /// As [`arrive_aligned`](Self::arrive_aligned): every thread of each warp executes this same
    /// instruction (PTX ISA §9.7.13.3, `.aligned`).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{barrier::{ClusterBarrier, Aligned, ClusterWaitInstr}, Release, Acquire};
    /// let cb = ClusterBarrier::new(1);
    /// let a = cb.arrive::<Release>();
    /// // SAFETY: one thread, no branch.
    /// unsafe { cb.wait_aligned::<Acquire>(a) };
    /// assert_eq!(<Acquire as ClusterWaitInstr<Aligned>>::PTX, "barrier.cluster.wait.acquire.aligned");
    /// ```
    #[inline(always)]
    pub unsafe fn wait_aligned<S: Sem>(&self, arrival: ClusterArrival)
    where
        S: ClusterWaitInstr<Aligned>,
    {
        <Active as BarBackend>::cluster_wait::<S, Aligned>(&self.c, arrival.generation)
    }
    /// `barrier.cluster.arrive.release; barrier.cluster.wait.acquire;` (no `.aligned`: always
    /// defined; the `.aligned` pair is the `unsafe` [`sync_aligned`](Self::sync_aligned)).
    ///
    /// SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`): `UCGABAR_ARV`, `UCGABAR_WAIT`.
    /// PTX 8.0 / sm_90. PTX ISA §9.7.13.3; seed §5.4.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::barrier::ClusterBarrier;
    /// let cb = ClusterBarrier::new(2);
    /// std::thread::scope(|s| { s.spawn(|| cb.sync()); cb.sync(); });
    /// ```
    #[inline(always)]
    pub fn sync(&self) {
        let t = self.arrive::<Release>();
        self.wait::<Acquire>(t);
    }
    /// `barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;`
    ///
    /// SASS: `UCGABAR_ARV`, `UCGABAR_WAIT`. PTX 8.0 / sm_90. PTX ISA §9.7.13.3; seed §5.4.
    ///
    /// # Safety
    /// As [`arrive_aligned`](Self::arrive_aligned): every thread of each warp reaches this call
    /// together (PTX ISA §9.7.13.3, `.aligned`).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::barrier::ClusterBarrier;
    /// let cb = ClusterBarrier::new(2);
    /// // SAFETY: no branch around the calls.
    /// std::thread::scope(|s| { s.spawn(|| unsafe { cb.sync_aligned() }); unsafe { cb.sync_aligned() } });
    /// ```
    #[inline(always)]
    pub unsafe fn sync_aligned(&self) {
        // SAFETY: the caller's promise (every thread of the warp here) covers both.
        unsafe {
            let t = self.arrive_aligned::<Release>();
            self.wait_aligned::<Acquire>(t);
        }
    }
}
