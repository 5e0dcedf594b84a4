//! `mbarrier` — the split arrive/wait barrier in shared memory that TMA completes on.
//!
//! PTX ISA §9.7.13.15 (mbarrier: §9.7.13.15.11 init, .12 inval, .13 expect_tx, .14 complete_tx,
//! .15 arrive, .16 arrive_drop, .17 test_wait/try_wait, .18 pending_count), §9.7.13.15.1
//! (phases, arrival counts, tx-count). Seed §5.2 (TMA completion is recorded on an mbarrier:
//! `arrive.expect_tx` + `complete_tx` + `try_wait`), §5.3 (`arrive` on `empty` releases the
//! consumer's reads), §5.4 (remote arrive must be `.release.cluster`, the wait `.acquire.cluster`;
//! `init` is published with `fence.mbarrier_init.release.cluster`).
//!
//! A phase completes when both its **pending arrival count** and its **tx-count** reach zero; the
//! barrier then flips to the next phase with the pending count reset to the expected count.
//!
//! <!-- generated from device/isa/mbarrier.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`Mbarrier::init`] | `mbarrier.init.shared::cta.b64 [a], n;` | 7.8 / sm_80 |
//! | [`Mbarrier::arrive::<Release, Cta>`](Mbarrier::arrive) | `mbarrier.arrive.release.cta.shared::cta.b64 s, [a];` | 8.0 / sm_80 |
//! | [`Mbarrier::arrive::<Release, Cluster>`](Mbarrier::arrive) | `mbarrier.arrive.release.cluster.shared::cta.b64 s, [a];` | 8.0 / sm_90 |
//! | [`Mbarrier::arrive`] | `mbarrier.arrive.relaxed.{cta,cluster}.shared::cta.b64 s, [a];` | 8.6 / sm_90 |
//! | [`Mbarrier::arrive_n`] | `mbarrier.arrive.release.{cta,cluster}.shared::cta.b64 s, [a], n;` | 8.0 / sm_90 |
//! | [`Mbarrier::arrive_n`] | `mbarrier.arrive.relaxed.{cta,cluster}.shared::cta.b64 s, [a], n;` | 8.6 / sm_90 |
//! | [`Mbarrier::arrive_drop::<Release, Cta>`](Mbarrier::arrive_drop) | `mbarrier.arrive_drop.release.cta.shared::cta.b64 s, [a];` | 8.0 / sm_80 |
//! | [`Mbarrier::arrive_drop::<Release, Cluster>`](Mbarrier::arrive_drop) | `mbarrier.arrive_drop.release.cluster.shared::cta.b64 s, [a];` | 8.0 / sm_90 |
//! | [`Mbarrier::arrive_drop`] | `mbarrier.arrive_drop.relaxed.{cta,cluster}.shared::cta.b64 s, [a];` | 8.6 / sm_90 |
//! | [`Mbarrier::arrive_expect_tx`] | `mbarrier.arrive.expect_tx.release.{cta,cluster}.shared::cta.b64 s, [a], tx;` | 8.0 / sm_90 |
//! | [`Mbarrier::arrive_expect_tx`] | `mbarrier.arrive.expect_tx.relaxed.{cta,cluster}.shared::cta.b64 s, [a], tx;` | 8.6 / sm_90 |
//! | [`RemoteMbarrier::arrive`] | `mbarrier.arrive.release.{cta,cluster}.shared::cluster.b64 _, [a];` | 8.0 / sm_90 |
//! | [`RemoteMbarrier::arrive`] | `mbarrier.arrive.relaxed.{cta,cluster}.shared::cluster.b64 _, [a];` | 8.6 / sm_90 |
//! | [`RemoteMbarrier::arrive_n`] | `mbarrier.arrive.release.{cta,cluster}.shared::cluster.b64 _, [a], n;` | 8.0 / sm_90 |
//! | [`RemoteMbarrier::arrive_n`] | `mbarrier.arrive.relaxed.{cta,cluster}.shared::cluster.b64 _, [a], n;` | 8.6 / sm_90 |
//! | [`RemoteMbarrier::arrive_expect_tx`] | `mbarrier.arrive.expect_tx.release.{cta,cluster}.shared::cluster.b64 _, [a], tx;` | 8.0 / sm_90 |
//! | [`RemoteMbarrier::arrive_expect_tx`] | `mbarrier.arrive.expect_tx.relaxed.{cta,cluster}.shared::cluster.b64 _, [a], tx;` | 8.6 / sm_90 |
//! | [`Mbarrier::arrive_drop_expect_tx`] | `mbarrier.arrive_drop.expect_tx.release.{cta,cluster}.shared::cta.b64 s, [a], tx;` | 8.0 / sm_90 |
//! | [`Mbarrier::arrive_drop_expect_tx`] | `mbarrier.arrive_drop.expect_tx.relaxed.{cta,cluster}.shared::cta.b64 s, [a], tx;` | 8.6 / sm_90 |
//! | [`RemoteMbarrier::arrive_drop`] | `mbarrier.arrive_drop.release.{cta,cluster}.shared::cluster.b64 _, [a];` | 8.0 / sm_90 |
//! | [`RemoteMbarrier::arrive_drop`] | `mbarrier.arrive_drop.relaxed.{cta,cluster}.shared::cluster.b64 _, [a];` | 8.6 / sm_90 |
//! | [`RemoteMbarrier::arrive_drop_expect_tx`] | `mbarrier.arrive_drop.expect_tx.release.{cta,cluster}.shared::cluster.b64 _, [a], tx;` | 8.0 / sm_90 |
//! | [`RemoteMbarrier::arrive_drop_expect_tx`] | `mbarrier.arrive_drop.expect_tx.relaxed.{cta,cluster}.shared::cluster.b64 _, [a], tx;` | 8.6 / sm_90 |
//! | [`Mbarrier::pending_count`] | `mbarrier.pending_count.b64 d, x;` | 7.0 / sm_80 |
//! | [`Mbarrier::arrive_no_complete`] | `mbarrier.arrive.noComplete.release.cta.shared::cta.b64 s, [a], n;` | 8.0 / sm_80 |
//! | [`Mbarrier::arrive_drop_no_complete`] | `mbarrier.arrive_drop.noComplete.release.cta.shared::cta.b64 s, [a], n;` | 8.0 / sm_80 |
//! | [`Mbarrier::try_wait`] | `mbarrier.try_wait.acquire.{cta,cluster}.shared::cta.b64 p, [a], x;` | 8.0 / sm_90 |
//! | [`Mbarrier::try_wait`] | `mbarrier.try_wait.relaxed.{cta,cluster}.shared::cta.b64 p, [a], x;` | 8.6 / sm_90 |
//! | [`Mbarrier::try_wait_hint`] | `mbarrier.try_wait.acquire.{cta,cluster}.shared::cta.b64 p, [a], x, ns;` | 8.0 / sm_90 |
//! | [`Mbarrier::try_wait_hint`] | `mbarrier.try_wait.relaxed.{cta,cluster}.shared::cta.b64 p, [a], x, ns;` | 8.6 / sm_90 |
//! | [`Mbarrier::try_wait_parity`] | `mbarrier.try_wait.parity.acquire.{cta,cluster}.shared::cta.b64 p, [a], ph;` | 8.0 / sm_90 |
//! | [`Mbarrier::try_wait_parity`] | `mbarrier.try_wait.parity.relaxed.{cta,cluster}.shared::cta.b64 p, [a], ph;` | 8.6 / sm_90 |
//! | [`Mbarrier::try_wait_parity_hint`] | `mbarrier.try_wait.parity.acquire.{cta,cluster}.shared::cta.b64 p, [a], ph, ns;` | 8.0 / sm_90 |
//! | [`Mbarrier::try_wait_parity_hint`] | `mbarrier.try_wait.parity.relaxed.{cta,cluster}.shared::cta.b64 p, [a], ph, ns;` | 8.6 / sm_90 |
//! | [`Mbarrier::test_wait::<Acquire, Cta>`](Mbarrier::test_wait) | `mbarrier.test_wait.acquire.cta.shared::cta.b64 p, [a], x;` | 8.0 / sm_80 |
//! | [`Mbarrier::test_wait::<Acquire, Cluster>`](Mbarrier::test_wait) | `mbarrier.test_wait.acquire.cluster.shared::cta.b64 p, [a], x;` | 8.0 / sm_90 |
//! | [`Mbarrier::test_wait`] | `mbarrier.test_wait.relaxed.{cta,cluster}.shared::cta.b64 p, [a], x;` | 8.6 / sm_90 |
//! | [`Mbarrier::test_wait_parity::<Acquire, Cta>`](Mbarrier::test_wait_parity) | `mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 p, [a], ph;` | 8.0 / sm_80 |
//! | [`Mbarrier::test_wait_parity::<Acquire, Cluster>`](Mbarrier::test_wait_parity) | `mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [a], ph;` | 8.0 / sm_90 |
//! | [`Mbarrier::test_wait_parity`] | `mbarrier.test_wait.parity.relaxed.{cta,cluster}.shared::cta.b64 p, [a], ph;` | 8.6 / sm_90 |
//! | [`Mbarrier::expect_tx`] | `mbarrier.expect_tx.relaxed.{cta,cluster}.shared::cta.b64 [a], tx;` | 8.0 / sm_90 |
//! | [`Mbarrier::complete_tx`] | `mbarrier.complete_tx.relaxed.{cta,cluster}.shared::cta.b64 [a], tx;` | 8.0 / sm_90 |
//! | [`RemoteMbarrier::expect_tx`] | `mbarrier.expect_tx.relaxed.{cta,cluster}.shared::cluster.b64 [a], tx;` | 8.0 / sm_90 |
//! | [`RemoteMbarrier::complete_tx`] | `mbarrier.complete_tx.relaxed.{cta,cluster}.shared::cluster.b64 [a], tx;` | 8.0 / sm_90 |
//! | [`Mbarrier::inval`] | `mbarrier.inval.shared::cta.b64 [a];` | 7.8 / sm_80 |
//!
//! `arrive::<Acquire, _>()` and `try_wait::<Release, _>()` do not compile: an arrive releases and
//! a wait acquires (PTX has no `mbarrier.arrive.acquire`). A [`Token`] carries the barrier's tag
//! type, so a token of a `Mbarrier<Full>` cannot be waited on a `Mbarrier<Empty>`; a [`Phase`]
//! (parity) is a separate type from a token. Operands are checked against the PTX limits (arrival
//! count in `1..2^20`, tx operand below `2^20`): a violation panics (a `trap` on the device).
//! The accumulated tx-count must stay in `[-(2^20-1), 2^20-1]` (PTX ISA §9.7.13.15.1): the
//! host and loom check it after every change and panic; on the device it is a precondition of
//! the protocol (leaving the range is undefined). `mbarrier.pending_count` is defined only on
//! the state of a `.noComplete` arrive, so it takes a [`NoCompleteToken`].
//!
//! # Backends
//! The methods carry no `#[cfg]`: each calls the one backend chosen in `backend/mod.rs` through the
//! `MbarBackend` seam (`mbarrier/backend.rs`, like `BarBackend` for the CTA barriers): nvptx64
//! the table's inline PTX, host and loom the state-word operations below. The layout is the same
//! 8 bytes on the device and the host (a loom location under `--cfg loom`).
//!
//! # Host backend
//! On the host an `Mbarrier` is one `AtomicU64` (loom's under `--cfg loom`) holding phase parity,
//! pending count, expected count and tx-count; every operation is one compare-exchange with the
//! ordering of its semantic (`Release` arrive, `Acquire` wait), so a phase completion is a
//! release sequence that every waiter's acquire load synchronizes with. `expect_tx` and
//! `complete_tx` are `Relaxed` RMWs, as the `.relaxed` instructions are (PTX ISA
//! §9.7.13.15.13-14: they order nothing); only the completion of a host async copy
//! (`Mbarrier::async_copy_complete_tx` (host), what the copy engine does after the copy's writes) is
//! a `Release` RMW. The tx-count is checked against its range `[-(2^20-1), 2^20-1]` after every
//! change (a panic on the host; on the device leaving it is undefined, a precondition).
//!
//! Under `--cfg loom` the word is a strong location of `ptx_sync::model` and every operation is a
//! strong access at the scope it names (`arrive::<_, Cta>` at `.cta`, `try_wait::<_, Cluster>` at
//! `.cluster`, `init`/`inval` at `.cta`, a host async copy's `complete_tx` at `.cluster`), so a
//! `.cta` arrive from another CTA (seed §5.4) is reported as not morally strong (PTX ISA §8.7),
//! and `wait`/`wait_parity` are model spins (a wait no thread can end is a `deadlock: …`).
//!
//! ```
//! use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cta};
//! let full: Mbarrier = Mbarrier::new();
//! full.init(1);
//! let p = Phase::ZERO;
//! assert!(!full.try_wait_parity::<Acquire, Cta>(p));        // phase 0 in progress
//! let _t = full.arrive_expect_tx::<Release, Cta>(256);     // one arrival + 256 bytes expected
//! assert!(!full.try_wait_parity::<Acquire, Cta>(p));        // bytes still missing
//! full.complete_tx::<Cta>(256);                             // what TMA does
//! assert!(full.try_wait_parity::<Acquire, Cta>(p));         // phase 0 complete
//! assert!(!full.try_wait_parity::<Acquire, Cta>(p.flipped()));
//! ```
//!
//! ```compile_fail
//! use ptx_sync::{Mbarrier, Acquire, Cta};
//! let b: Mbarrier = Mbarrier::new();
//! let _ = b.arrive::<Acquire, Cta>(); // PTX has no mbarrier.arrive.acquire
//! ```

use core::marker::PhantomData;

use crate::sem::{Acquire, Cluster, Cta, Relaxed, Release, Scope, Sem};
use crate::shared::{to_shared, ClusterAddr, SharedAddr};
#[cfg(not(target_arch = "nvptx64"))]
use core::sync::atomic::Ordering;

mod backend;
mod drop;
#[cfg(not(target_arch = "nvptx64"))]
mod host;
mod phase;
mod table;
mod wait;
use crate::backend::Active;
use backend::{Arrive, MbarBackend};
pub use phase::{NoCompleteToken, Phase, Token};
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) use table::CATALOG;
pub use table::{
    ArriveDropInstr, ArriveInstr, MbarrierArriveDropNoComplete, MbarrierArriveNoComplete,
    MbarrierInit, MbarrierInval, MbarrierPendingCount, RemoteArriveInstr, TxInstr, WaitInstr,
};

/// The largest arrival count and tx-count PTX accepts: `2^20 - 1` (PTX ISA §9.7.13.15.1).
pub const MAX_COUNT: u32 = (1 << 20) - 1;

/// An mbarrier object: 8 bytes, 8-aligned, in shared memory. `Tag` is a user type naming the
/// barrier's role (the pipeline uses [`Full`](crate::pipeline::Full) and
/// [`Empty`](crate::pipeline::Empty)); tokens carry it.
///
/// On the device a `&Mbarrier` must point into this CTA's shared memory (obtain it from
/// [`shared_array!`](crate::shared_array) with [`SharedArray::get`](crate::shared::SharedArray::get)
/// or with [`Mbarrier::from_shared`]); every method converts the address with [`to_shared`].
#[repr(C, align(8))]
pub struct Mbarrier<Tag = ()> {
    /// The backend's state word (`MbarBackend::State`): the barrier's 8 bytes on the device; on
    /// the host a [`backend::Word`](crate::backend::host::Word) (under loom a strong location of the
    /// model, accessed at the scope each operation names).
    state: <Active as MbarBackend>::State,
    _t: PhantomData<fn() -> Tag>,
}

unsafe impl<Tag> Sync for Mbarrier<Tag> {}
unsafe impl<Tag> Send for Mbarrier<Tag> {}

#[inline(always)]
fn check_count(n: u32) {
    assert!(
        (1..=MAX_COUNT).contains(&n),
        "mbarrier count must be in 1..2^20 (PTX ISA §9.7.13.15.1)"
    );
}
#[inline(always)]
fn check_tx(n: u32) {
    assert!(
        n <= MAX_COUNT,
        "mbarrier tx-count must be below 2^20 (PTX ISA §9.7.13.15.1)"
    );
}

impl<Tag> Default for Mbarrier<Tag> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Tag> Mbarrier<Tag> {
    /// An uninitialized barrier value (host tests; on the device barriers live in `.shared`
    /// arrays, see [`shared_array!`](crate::shared_array)). Call [`init`](Self::init) before use.
    ///
    /// No instruction (the 8 zero bytes of an uninitialized barrier). On the device declare
    /// barriers in shared memory ([`shared_array!`](crate::shared_array)) instead.
    ///
    /// # Examples
    ///
    /// ```
    /// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
    /// b.init(2);
    /// assert_eq!(b.host_state(), (0, 2, 2, 0)); // (phase, pending, expected, tx)
    /// ```
    #[cfg(not(loom))]
    pub const fn new() -> Self {
        Mbarrier {
            state: <Active as MbarBackend>::NEW,
            _t: PhantomData,
        }
    }
    /// An uninitialized barrier value (a loom atomic under `--cfg loom`).
    ///
    /// No instruction (under `--cfg loom` a location of the scope model).
    ///
    /// # Examples
    ///
    /// ```
    /// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
    /// b.init(1);
    /// ```
    #[cfg(loom)]
    pub fn new() -> Self {
        Mbarrier {
            state: crate::backend::host::Word::new(0),
            _t: PhantomData,
        }
    }

    /// Views the 8 bytes at generic address `p` (in this CTA's shared memory) as a barrier.
    ///
    /// # Safety
    /// `p` must be 8-aligned, in this CTA's shared memory, and live for `'a`.
    ///
    /// No instruction (a cast); every operation then converts the address with
    /// `cvta.to.shared::cta`.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Cta};
    /// let mut word = 0u64; // on the device: a u64 in this CTA's shared memory
    /// let b: &Mbarrier = unsafe { Mbarrier::from_shared(&mut word) };
    /// b.init(1);
    /// let _ = b.arrive::<Release, Cta>();
    /// assert_eq!(b.host_state().0, 1); // phase 0 completed
    /// ```
    pub unsafe fn from_shared<'a>(p: *mut u64) -> &'a Self {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { &*(p as *const Self) }
    }

    /// The barrier's `.shared::cta` address.
    ///
    /// PTX: `cvta.to.shared::cta.u64` + `cvt.u32.u64` (PTX ISA `cvta`, sm_20); host: the
    /// pointer's value. Seed §5.2 (every mbarrier operand is a `.shared::cta` address).
    ///
    /// # Examples
    ///
    /// ```
    /// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
    /// assert_eq!(b.shared_addr(), ptx_sync::shared::to_shared(&b));
    /// ```
    #[inline(always)]
    pub fn shared_addr(&self) -> SharedAddr {
        to_shared(self as *const Self)
    }

    #[cfg(target_arch = "nvptx64")]
    #[inline(always)]
    fn a(&self) -> u32 {
        self.shared_addr().0
    }

    /// `mbarrier.init.shared::cta.b64 [a], count;` — expected arrivals `count` (1..2^20), phase 0,
    /// tx-count 0. A plain (non-releasing) write: publish it with `bar.sync` in one CTA, or with
    /// [`fence_mbarrier_init`](crate::proxy::fence_mbarrier_init) + a cluster barrier across CTAs
    /// (seed §5.4). PTX 7.8 (the `.shared::cta` spelling), sm_80.
    ///
    /// `count` outside `1..2^20` panics (a `trap` on the device). SASS (ptxas 13.0.88, sm_90a,
    /// `host/tests/sass_async.rs`): `SYNCS.EXCH.64`. PTX ISA §9.7.13.15.11; seed §5.4.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cta};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(2);                               // mbarrier.init.shared::cta.b64 [a], 2;
    /// let _ = b.arrive::<Release, Cta>();
    /// assert!(!b.try_wait_parity::<Acquire, Cta>(Phase::ZERO)); // one of two arrivals
    /// let _ = b.arrive::<Release, Cta>();
    /// assert!(b.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
    /// ```
    ///
    /// ```should_panic
    /// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
    /// b.init(0); // PTX ISA §9.7.13.15.1: the count is 1..2^20
    /// ```
    #[inline(always)]
    pub fn init(&self, count: u32) {
        check_count(count);
        <Active as MbarBackend>::init(self, count)
    }

    /// `mbarrier.inval.shared::cta.b64 [a];` — before the memory is reused for anything else.
    /// PTX 7.8, sm_80.
    ///
    /// # Safety
    /// No thread may still use the barrier.
    ///
    /// SASS: not recorded in the repo. PTX ISA §9.7.13.15.12; seed §5.4 (a barrier is reused only
    /// after every CTA is done with it).
    ///
    /// # Examples
    ///
    /// ```
    /// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
    /// b.init(1);
    /// unsafe { b.inval() }; // mbarrier.inval.shared::cta.b64 [a];
    /// assert_eq!(b.host_state(), (0, 0, 0, 0));
    /// ```
    #[inline(always)]
    pub unsafe fn inval(&self) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { <Active as MbarBackend>::inval(self) }
    }

    /// `mbarrier.arrive.sem.scope.shared::cta.b64 state, [a];` — one arrival. `S` ∈ {`Release`
    /// (PTX 8.0), `Relaxed` (PTX 8.6, sm_90)}, `Sco` ∈ {`Cta`, `Cluster` (sm_90)}; sm_80. Seed §5.3: the
    /// consumer's arrive on `empty` releases its reads.
    ///
    /// `arrive::<Acquire, _>()` does not compile (an arrive releases); `Gpu`/`Sys` do not compile
    /// (PTX ISA §9.7.13.15.15: `.scope = {.cta, .cluster}`). More arrivals than the phase expects
    /// panic on the host. SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`):
    /// `mbarrier.arrive.release.cta` → `SYNCS.ARRIVE.TRANS64.A1T0`. PTX ISA §9.7.13.15.15.
    ///
    /// # Examples
    ///
    /// A consumer releases its reads of a buffer to the producer waiting on `empty` (seed §5.3):
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Data, Phase, Release, Acquire, Cta, wait::Budget};
    /// use ptx_sync::mbarrier::ArriveInstr;
    /// let (empty, buf) = (Mbarrier::<()>::new(), Data::new(1u32));
    /// empty.init(1);
    /// std::thread::scope(|s| {
    ///     s.spawn(|| {
    ///         assert_eq!(unsafe { buf.read() }, 1);      // the consumer's read
    ///         let _ = empty.arrive::<Release, Cta>();    // mbarrier.arrive.release.cta.shared::cta.b64
    ///     });
    ///     s.spawn(|| {
    ///         let r = empty.wait_parity::<Acquire, Cta>(Phase::ZERO, Budget::iterations(1 << 30));
    ///         assert!(r.is_ok());
    ///         unsafe { buf.write(2) };                    // ordered after the read: no race
    ///     });
    /// });
    /// assert_eq!(<Release as ArriveInstr<Cta>>::PTX, "mbarrier.arrive.release.cta.shared::cta.b64");
    /// ```
    ///
    /// ```compile_fail
    /// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
    /// let _ = b.arrive::<ptx_sync::Release, ptx_sync::Gpu>(); // no .gpu scope on mbarrier
    /// ```
    #[inline(always)]
    pub fn arrive<S: Sem, Sco: Scope>(&self) -> Token<Tag>
    where
        S: ArriveInstr<Sco>,
    {
        let state = <Active as MbarBackend>::arrive::<S, Sco, Tag>(self, Arrive::One);
        Token::of(state, self)
    }

    /// `mbarrier.arrive.sem.scope.shared::cta.b64 state, [a], count;` — `count` arrivals
    /// (1..2^20). PTX 8.0 (Release) / 8.6 (Relaxed), sm_90.
    ///
    /// `S` ∈ {`Release`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}; `Acquire` does not compile.
    /// `count` outside `1..2^20` panics. SASS: not recorded in the repo. PTX ISA §9.7.13.15.15;
    /// seed §5.3.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cta};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(4);
    /// let _ = b.arrive_n::<Release, Cta>(3); // mbarrier.arrive.release.cta.shared::cta.b64 _, [a], 3;
    /// assert!(!b.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
    /// let _ = b.arrive_n::<Release, Cta>(1);
    /// assert!(b.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
    /// ```
    #[inline(always)]
    pub fn arrive_n<S: Sem, Sco: Scope>(&self, count: u32) -> Token<Tag>
    where
        S: ArriveInstr<Sco>,
    {
        check_count(count);
        let state = <Active as MbarBackend>::arrive::<S, Sco, Tag>(self, Arrive::N(count));
        Token::of(state, self)
    }

    /// `mbarrier.arrive_drop.sem.scope.shared::cta.b64 state, [a];` — arrives and lowers the
    /// expected count of the following phases by one (a thread leaving the protocol).
    /// PTX 8.0 / 8.6; sm_80 (`Relaxed` or `Cluster`: sm_90).
    ///
    /// `S` ∈ {`Release`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}; `Acquire` does not compile.
    /// SASS: not recorded in the repo. PTX ISA §9.7.13.15.16; seed §5.3.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Cta, mbarrier::ArriveInstr};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(2);
    /// let _ = b.arrive_drop::<Release, Cta>(); // this thread leaves: later phases expect 1
    /// let _ = b.arrive::<Release, Cta>();      // phase 0 completes
    /// assert_eq!(b.host_state(), (1, 1, 1, 0)); // (phase, pending, expected, tx)
    /// assert_eq!(<Release as ArriveInstr<Cta>>::PTX_DROP, "mbarrier.arrive_drop.release.cta.shared::cta.b64");
    /// ```
    #[inline(always)]
    pub fn arrive_drop<S: Sem, Sco: Scope>(&self) -> Token<Tag>
    where
        S: ArriveInstr<Sco>,
    {
        let state = <Active as MbarBackend>::arrive::<S, Sco, Tag>(self, Arrive::Drop);
        Token::of(state, self)
    }

    /// `mbarrier.arrive.noComplete.release.cta.shared::cta.b64 state, [a], count;` — `count`
    /// arrivals (1..2^20) that do not complete the current phase; the returned state is the one
    /// [`pending_count`](Self::pending_count) is defined on. PTX ISA §9.7.13.15.15; sm_80.
    ///
    /// # Safety
    /// The arrivals must leave the phase incomplete: the current phase's pending arrival count
    /// must exceed `count` (PTX ISA §9.7.13.15.15: "the behavior is undefined if the arrive
    /// operation causes the phase to complete"). The host panics instead.
    ///
    /// Only `.release.cta` exists (PTX ISA §9.7.13.15.15), so the method takes no semantic or scope
    /// parameter. SASS: not recorded in the repo. Seed §5.3.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::Mbarrier;
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(5);
    /// let s = unsafe { b.arrive_no_complete(2) }; // 2 of 5: the phase stays open
    /// assert_eq!(Mbarrier::pending_count(s), 5); // the state before the arrival
    /// assert_eq!(b.host_state(), (0, 3, 5, 0));
    /// ```
    #[inline(always)]
    pub unsafe fn arrive_no_complete(&self, count: u32) -> NoCompleteToken<Tag> {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            check_count(count);
            let state = <Active as MbarBackend>::arrive_no_complete(self, count, false);
            NoCompleteToken::of(state, self)
        }
    }

    /// `mbarrier.arrive_drop.noComplete.release.cta.shared::cta.b64 state, [a], count;` —
    /// `count` arrivals that do not complete the phase, and the expected count of the following
    /// phases lowered by `count`. PTX ISA §9.7.13.15.16; sm_80.
    ///
    /// # Safety
    /// As [`arrive_no_complete`](Self::arrive_no_complete): the current phase's pending count
    /// must exceed `count` (and the expected count must be at least `count`).
    ///
    /// Only `.release.cta` exists. SASS: not recorded in the repo. Seed §5.3.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::Mbarrier;
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(4);
    /// let _ = unsafe { b.arrive_drop_no_complete(1) };
    /// assert_eq!(b.host_state(), (0, 3, 3, 0)); // (phase, pending, expected, tx)
    /// ```
    #[inline(always)]
    pub unsafe fn arrive_drop_no_complete(&self, count: u32) -> NoCompleteToken<Tag> {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            check_count(count);
            let state = <Active as MbarBackend>::arrive_no_complete(self, count, true);
            NoCompleteToken::of(state, self)
        }
    }

    /// `mbarrier.arrive.expect_tx.sem.scope.shared::cta.b64 state, [a], tx;` — raises the
    /// tx-count by `tx` bytes (< 2^20), then arrives: the producer's arming of `full` before it
    /// issues TMA (seed §5.2). PTX 8.0 / 8.6, sm_90.
    ///
    /// `S` ∈ {`Release`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}; `Acquire` does not compile; `tx` of
    /// 2^20 or more panics. SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`):
    /// `SYNCS.ARRIVE.TRANS64`. PTX ISA §9.7.13.15.15, §9.7.13.15.13.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cta, mbarrier::ArriveInstr};
    /// let full: Mbarrier = Mbarrier::new();
    /// full.init(1);
    /// let _ = full.arrive_expect_tx::<Release, Cta>(128); // armed: 1 arrival done, 128 bytes due
    /// assert!(!full.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
    /// full.async_copy_complete_tx(128);                   // what the TMA copy does on completion
    /// assert!(full.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
    /// assert_eq!(<Release as ArriveInstr<Cta>>::PTX_EXPECT_TX,
    ///            "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64");
    /// ```
    #[inline(always)]
    pub fn arrive_expect_tx<S: Sem, Sco: Scope>(&self, tx: u32) -> Token<Tag>
    where
        S: ArriveInstr<Sco>,
    {
        check_tx(tx);
        let state = <Active as MbarBackend>::arrive::<S, Sco, Tag>(self, Arrive::ExpectTx(tx));
        Token::of(state, self)
    }

    /// `mbarrier.expect_tx.relaxed.scope.shared::cta.b64 [a], tx;` — raises the tx-count without
    /// arriving. PTX 8.0, sm_90.
    ///
    /// `.relaxed` only (PTX ISA §9.7.13.15.13), so there is no semantic parameter; `Sco` ∈ {`Cta`,
    /// `Cluster`} (`Gpu` does not compile). SASS: not recorded in the repo. Seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cta, mbarrier::TxInstr};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// b.expect_tx::<Cta>(64);              // mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [a], 64;
    /// let _ = b.arrive::<Release, Cta>();
    /// assert_eq!(b.host_state(), (0, 0, 1, 64)); // arrivals done, 64 bytes still due
    /// b.complete_tx::<Cta>(64);
    /// assert!(b.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
    /// assert_eq!(<Cta as TxInstr>::PTX_EXPECT, "mbarrier.expect_tx.relaxed.cta.shared::cta.b64");
    /// ```
    ///
    /// ```compile_fail
    /// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
    /// b.expect_tx::<ptx_sync::Gpu>(64);
    /// ```
    #[inline(always)]
    pub fn expect_tx<Sco: TxInstr>(&self, tx: u32) {
        check_tx(tx);
        <Active as MbarBackend>::tx::<Sco, Tag>(self, tx, false)
    }

    /// `mbarrier.complete_tx.relaxed.scope.shared::cta.b64 [a], tx;` — lowers the tx-count by
    /// `tx` bytes. PTX 8.0, sm_90 (PTX ISA §9.7.13.15.14).
    ///
    /// The instruction is `.relaxed`: it orders **nothing** — a thread that writes data and then
    /// executes `complete_tx` has not published the data to a waiter whose `try_wait` sees the
    /// phase complete. Only the completion of an async copy (the copy engine's own
    /// `.mbarrier::complete_tx::bytes`, seed §5.2) makes the copy's writes visible to the waiter.
    /// Host and loom: a `Relaxed` RMW (the copy engine's completion is
    /// `async_copy_complete_tx` (host)).
    ///
    /// The tx-count must stay in `[-(2^20-1), 2^20-1]` (PTX ISA §9.7.13.15.1): on the device
    /// leaving the range is undefined (a precondition of the protocol); the host and loom panic.
    ///
    /// `Sco` ∈ {`Cta`, `Cluster`}. SASS: not recorded in the repo. Seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cluster, mbarrier::TxInstr};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// let _ = b.arrive_expect_tx::<Release, Cluster>(32);
    /// b.complete_tx::<Cluster>(16);
    /// b.complete_tx::<Cluster>(16);     // mbarrier.complete_tx.relaxed.cluster.shared::cta.b64
    /// assert!(b.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
    /// assert_eq!(<Cluster as TxInstr>::PTX_COMPLETE, "mbarrier.complete_tx.relaxed.cluster.shared::cta.b64");
    /// ```
    #[inline(always)]
    pub fn complete_tx<Sco: TxInstr>(&self, tx: u32) {
        check_tx(tx);
        <Active as MbarBackend>::tx::<Sco, Tag>(self, tx, true)
    }

    /// Host and loom only: the completion of an async copy on this barrier — what the copy
    /// engine does when a `cp.async.bulk{.tensor}` with `.mbarrier::complete_tx::bytes` has
    /// written its `tx` bytes (seed §5.2). Unlike the `complete_tx` *instruction*
    /// ([`complete_tx`](Self::complete_tx), `.relaxed`), it is ordered after the copy's writes:
    /// a `Release` RMW (under loom at `.cluster` scope: the copy may have been issued from
    /// another CTA of the cluster). Use it in a model of a TMA copy (the copy's writes, then this).
    ///
    /// No instruction: on the device the copy engine does this. PTX ISA §9.7.9.25.4
    /// (`.mbarrier::complete_tx::bytes`).
    ///
    /// # Examples
    ///
    /// A host model of a TMA copy: the copy's writes, then the completion; the waiter's acquire
    /// sees the data.
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Data, Phase, Release, Acquire, Cta, wait::Budget};
    /// let (full, tile) = (Mbarrier::<()>::new(), Data::new([0u8; 64]));
    /// full.init(1);
    /// let _ = full.arrive_expect_tx::<Release, Cta>(64);
    /// std::thread::scope(|s| {
    ///     s.spawn(|| { unsafe { tile.write([9; 64]) }; full.async_copy_complete_tx(64); });
    ///     s.spawn(|| {
    ///         assert!(full.wait_parity::<Acquire, Cta>(Phase::ZERO, Budget::iterations(1 << 30)).is_ok());
    ///         assert_eq!(unsafe { tile.read() }[63], 9);
    ///     });
    /// });
    /// ```
    #[cfg(not(target_arch = "nvptx64"))]
    pub fn async_copy_complete_tx(&self, tx: u32) {
        check_tx(tx);
        self.h_complete_tx(tx)
    }

    /// `mbarrier.pending_count.b64 n, state;` — the pending arrival count captured in `token`.
    /// PTX 7.0, sm_80. The instruction is defined only on a state returned by
    /// `mbarrier.arrive.noComplete` / `arrive_drop.noComplete` (PTX ISA §9.7.13.15.18), so it
    /// takes a [`NoCompleteToken`]; the [`Token`] of an ordinary arrive does not compile:
    ///
    /// ```compile_fail
    /// use ptx_sync::{Mbarrier, Release, Cta};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(2);
    /// let n = Mbarrier::pending_count(b.arrive::<Release, Cta>()); // undefined in PTX
    /// ```
    ///
    /// SASS: not recorded in the repo. Seed §5.3.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::Mbarrier;
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(5);
    /// let s0 = unsafe { b.arrive_no_complete(2) };
    /// let s1 = unsafe { b.arrive_no_complete(1) };
    /// assert_eq!((Mbarrier::pending_count(s0), Mbarrier::pending_count(s1)), (5, 3));
    /// ```
    #[inline(always)]
    pub fn pending_count(token: NoCompleteToken<Tag>) -> u32 {
        <Active as MbarBackend>::pending_count(token.raw())
    }

    /// This barrier as seen through `.shared::cluster` from this CTA (no instruction). The view
    /// borrows the barrier: it cannot outlive it.
    ///
    /// The executing CTA's `.shared::cta` window lies inside its `.shared::cluster` window (PTX
    /// ISA, state spaces: `.shared`); the remote operations need sm_90. Seed §5.4.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cluster};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// b.cluster_view().arrive::<Release, Cluster>(); // mbarrier.arrive.release.cluster.shared::cluster.b64
    /// assert!(b.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
    /// ```
    #[inline(always)]
    pub fn cluster_view(&self) -> RemoteMbarrier<'_, Tag> {
        RemoteMbarrier {
            addr: self.shared_addr().to_cluster(),
            _t: PhantomData,
        }
    }

    /// The barrier at the same offset in the CTA of rank `cta` of this cluster:
    /// `mapa.shared::cluster.u32 d, a, cta;` (PTX 7.8, sm_90). Host: this barrier, or rank
    /// `cta`'s copy of it when a `cluster::ClusterShared` (host) owns this
    /// barrier's copies. The view borrows this barrier, so it cannot outlive it; on the device a
    /// peer CTA's barrier at the same offset is kept alive by the cluster protocol (seed §5.4),
    /// on the host by the `ClusterShared` that owns both copies (the borrow of this one borrows
    /// the guard).
    ///
    /// PTX ISA §9.7.9.22 (`mapa`); seed §5.4 (consumers in peer CTAs arrive on the leader's
    /// `empty`).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cluster};
    /// let empty: Mbarrier = Mbarrier::new();
    /// empty.init(2);
    /// empty.remote(0).arrive::<Release, Cluster>(); // host: rank 0 is this barrier
    /// empty.remote(1).arrive::<Release, Cluster>();
    /// assert!(empty.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
    /// ```
    #[inline(always)]
    pub fn remote(&self, cta: u32) -> RemoteMbarrier<'_, Tag> {
        RemoteMbarrier {
            addr: crate::cluster::mapa(self.shared_addr(), cta),
            _t: PhantomData,
        }
    }

    /// Host only: the packed state (phase bit 63, tx-count bits 40..61, expected 20..40,
    /// pending 0..20), for tests.
    ///
    /// Returns `(phase, pending, expected, tx)`. Not on nvptx64 (no instruction reads them).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Cta};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(3);
    /// let _ = b.arrive_expect_tx::<Release, Cta>(10);
    /// assert_eq!(b.host_state(), (0, 2, 3, 10));
    /// ```
    #[cfg(not(target_arch = "nvptx64"))]
    pub fn host_state(&self) -> (u32, u32, u32, i32) {
        let s = host::unpack(self.state.load(3, Ordering::Acquire, "host_state"));
        (s.phase, s.pending, s.expected, s.tx)
    }
}

/// An mbarrier addressed through `.shared::cluster` — possibly in a peer CTA (seed §5.4).
///
/// The lifetime `'a` is the borrow of the [`Mbarrier`] it was made from
/// ([`Mbarrier::remote`], [`Mbarrier::cluster_view`]): the view cannot outlive the barrier
/// (on the host it is a pointer to it, or to a peer's copy that the same
/// `cluster::ClusterShared` (host) owns, so it cannot outlive that either).
#[allow(clippy::type_complexity)]
pub struct RemoteMbarrier<'a, Tag = ()> {
    addr: ClusterAddr,
    _t: PhantomData<(fn() -> Tag, &'a Mbarrier<Tag>)>,
}
impl<Tag> Clone for RemoteMbarrier<'_, Tag> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<Tag> Copy for RemoteMbarrier<'_, Tag> {}

impl<'a, Tag> RemoteMbarrier<'a, Tag> {
    /// A barrier at `.shared::cluster` address `addr`.
    ///
    /// # Safety
    /// `addr` must be an initialized mbarrier in some CTA of this cluster that stays valid for
    /// `'a` (on the host: the address of a live `Mbarrier<Tag>`).
    ///
    /// No instruction. Seed §5.4.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, RemoteMbarrier, Phase, Release, Acquire, Cluster};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// let r: RemoteMbarrier = unsafe { RemoteMbarrier::from_addr(b.remote(0).addr()) };
    /// r.arrive::<Release, Cluster>();
    /// assert!(b.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
    /// ```
    pub unsafe fn from_addr(addr: ClusterAddr) -> Self {
        RemoteMbarrier {
            addr,
            _t: PhantomData,
        }
    }
    /// The `.shared::cluster` address.
    ///
    /// No instruction.
    ///
    /// # Examples
    ///
    /// ```
    /// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
    /// assert_eq!(b.cluster_view().addr(), b.shared_addr().to_cluster());
    /// ```
    pub fn addr(self) -> ClusterAddr {
        self.addr
    }
    /// Host: the barrier the view points at (the view was made from a live `&'a Mbarrier`,
    /// whose peers' copies a `ClusterShared` borrowed for `'a` owns, or declared with
    /// `ClusterShared::from_raw`, or promised by `from_addr`'s contract).
    #[cfg(not(target_arch = "nvptx64"))]
    pub(crate) fn local(self) -> &'a Mbarrier<Tag> {
        unsafe { &*(self.addr.0 as *const Mbarrier<Tag>) }
    }

    /// `mbarrier.arrive.sem.scope.shared::cluster.b64 _, [a];` — `S` ∈ {`Release`, `Relaxed`}.
    /// Use `Cluster` scope for a barrier in a peer CTA: `.cta` is accepted by PTX but does not
    /// synchronize with the owner's waiter (seed §5.4). PTX 8.0 / 8.6, sm_90.
    ///
    /// No token is returned (`_` sink: a thread cannot wait on a peer's barrier). `Acquire` does
    /// not compile. SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`):
    /// `mbarrier.arrive.release.cluster.shared::cluster` → `SYNCS.ARRIVE.TRANS64.RED.A1T0`.
    /// PTX ISA §9.7.13.15.15.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cluster, mbarrier::RemoteArriveInstr};
    /// let empty: Mbarrier = Mbarrier::new();
    /// empty.init(1);
    /// std::thread::scope(|s| {
    ///     s.spawn(|| empty.remote(0).arrive::<Release, Cluster>()); // a consumer in another CTA
    /// });
    /// assert!(empty.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
    /// assert_eq!(<Release as RemoteArriveInstr<Cluster>>::PTX,
    ///            "mbarrier.arrive.release.cluster.shared::cluster.b64");
    /// ```
    ///
    /// ```compile_fail
    /// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
    /// b.remote(1).arrive::<ptx_sync::Acquire, ptx_sync::Cluster>();
    /// ```
    #[inline(always)]
    pub fn arrive<S: Sem, Sco: Scope>(self)
    where
        S: RemoteArriveInstr<Sco>,
    {
        <Active as MbarBackend>::remote_arrive::<S, Sco, Tag>(self, Arrive::One)
    }

    /// `mbarrier.arrive.sem.scope.shared::cluster.b64 _, [a], count;`. PTX 8.0, sm_90.
    ///
    /// `S` ∈ {`Release`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`} (use `Cluster` across CTAs, seed
    /// §5.4); `count` outside `1..2^20` panics. SASS: not recorded in the repo. PTX ISA
    /// §9.7.13.15.15.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cluster};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(3);
    /// b.remote(1).arrive_n::<Release, Cluster>(3);
    /// assert!(b.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
    /// ```
    #[inline(always)]
    pub fn arrive_n<S: Sem, Sco: Scope>(self, count: u32)
    where
        S: RemoteArriveInstr<Sco>,
    {
        check_count(count);
        <Active as MbarBackend>::remote_arrive::<S, Sco, Tag>(self, Arrive::N(count))
    }

    /// `mbarrier.arrive.expect_tx.sem.scope.shared::cluster.b64 _, [a], tx;`. PTX 8.0, sm_90.
    ///
    /// `S` ∈ {`Release`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}. SASS: not recorded in the repo.
    /// PTX ISA §9.7.13.15.15; seed §5.2, §5.4 (a multicast producer arms a peer's `full`).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Cluster, mbarrier::RemoteArriveInstr};
    /// let full: Mbarrier = Mbarrier::new();
    /// full.init(1);
    /// full.remote(1).arrive_expect_tx::<Release, Cluster>(256);
    /// assert_eq!(full.host_state(), (0, 0, 1, 256));
    /// assert_eq!(<Release as RemoteArriveInstr<Cluster>>::PTX_EXPECT_TX,
    ///            "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64");
    /// ```
    #[inline(always)]
    pub fn arrive_expect_tx<S: Sem, Sco: Scope>(self, tx: u32)
    where
        S: RemoteArriveInstr<Sco>,
    {
        check_tx(tx);
        <Active as MbarBackend>::remote_arrive::<S, Sco, Tag>(self, Arrive::ExpectTx(tx))
    }

    /// `mbarrier.expect_tx.relaxed.scope.shared::cluster.b64 [a], tx;`. PTX 8.0, sm_90.
    ///
    /// `.relaxed` only; `Sco` ∈ {`Cta`, `Cluster`}. SASS: not recorded in the repo. PTX ISA
    /// §9.7.13.15.13; seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Cluster, mbarrier::TxInstr};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// b.cluster_view().expect_tx::<Cluster>(8);
    /// assert_eq!(b.host_state().3, 8);
    /// assert_eq!(<Cluster as TxInstr>::PTX_EXPECT_CLUSTER,
    ///            "mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64");
    /// ```
    #[inline(always)]
    pub fn expect_tx<Sco: TxInstr>(self, tx: u32) {
        check_tx(tx);
        <Active as MbarBackend>::remote_tx::<Sco, Tag>(self, tx, false)
    }

    /// `mbarrier.complete_tx.relaxed.scope.shared::cluster.b64 [a], tx;`. PTX 8.0, sm_90.
    ///
    /// `.relaxed` only (orders nothing, as [`Mbarrier::complete_tx`]); `Sco` ∈ {`Cta`, `Cluster`}.
    /// SASS: not recorded in the repo. PTX ISA §9.7.13.15.14; seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Cluster};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// b.cluster_view().expect_tx::<Cluster>(8);
    /// b.cluster_view().complete_tx::<Cluster>(8);
    /// assert_eq!(b.host_state().3, 0);
    /// ```
    #[inline(always)]
    pub fn complete_tx<Sco: TxInstr>(self, tx: u32) {
        check_tx(tx);
        <Active as MbarBackend>::remote_tx::<Sco, Tag>(self, tx, true)
    }
}

#[allow(unused)]
fn _markers(_: (Acquire, Release, Relaxed, Cta, Cluster)) {}
