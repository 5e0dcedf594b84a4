//! The multi-stage producer/consumer pipeline over `full`/`empty` mbarrier rings.
//!
//! PTX ISA §9.7.13.15 (mbarrier), §9.7.9.25.5 (TMA), §9.7.13.4 (`fence.proxy.async`). Seed §5.2
//! (`full`: the producer arms it with `arrive.expect_tx`, TMA completes it, consumers
//! `try_wait` it), §5.3 (`empty`: consumers release it after their generic reads, with
//! `fence.proxy.async` because the next write into the stage is TMA's), §5.4 (cluster: consumers
//! in other CTAs arrive on the leader's `empty` with `.release.cluster`; the leader waits with
//! `.acquire.cluster`). The shape follows CUTLASS's `PipelineTmaAsync`.
//!
//! ```text
//!   producer (one elected thread)               consumers (N threads)
//!   st = producer_start()   (phase 1)           st = consumer_start()   (phase 0)
//!   loop:                                       loop:
//!     producer_acquire(st, bytes)                 stage = consumer_wait(st)
//!       wait empty[i] parity st.phase               wait full[i] parity st.phase (acquire)
//!       full[i].arrive.expect_tx(bytes)           read stage i (generic ld)
//!     TMA(stage i, complete_tx on full[i])        consumer_release(stage)
//!     st.advance()                                  proxy fence; arrive empty[i] (release)
//!   producer_tail(st): wait every empty once      st.advance()
//! ```
//!
//! # Roles are types
//!
//! A state is a [`PipelineState<STAGES, Producer>`](PipelineState) or a
//! `PipelineState<STAGES, Consumer>`: the producer's verbs take only the first, the consumers'
//! only the second, so a consumer cannot start at the producer's phase 1 (its first wait would
//! pass on a stage nobody filled) and a producer cannot start at phase 0. A consumer's wait
//! returns the [`ConsumerStage`] it found full, and [`consumer_release`](Pipeline::consumer_release)
//! takes it by value: a stage is released once per wait (a second release, which would let the
//! producer refill a stage another consumer still reads, does not compile). The stage also
//! names its pipeline: releasing it on another pipeline panics on the host and in debug builds
//! on the device (a `trap`). CUTLASS's `PipelineState` is one type for both roles, and its debug
//! builds trap on role misuse; here the misuse does not compile.
//!
//! ```compile_fail
//! use ptx_sync::pipeline::PipelineState;
//! # use ptx_sync::pipeline::{Empty, Full, Pipeline};
//! # use ptx_sync::{wait::Budget, Cta, Mbarrier};
//! # let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
//! # let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
//! # let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
//! // A consumer at the producer's start state (phase 1): not a consumer state.
//! let _ = pipe.consumer_wait(PipelineState::producer_start(), Budget::iterations(10));
//! ```
//!
//! ```compile_fail
//! # use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
//! # use ptx_sync::{wait::Budget, Cta, Mbarrier};
//! # let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
//! # let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
//! # let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
//! let stage = pipe.consumer_wait(PipelineState::consumer_start(), Budget::iterations(10)).unwrap();
//! pipe.consumer_release(stage);
//! pipe.consumer_release(stage); // the stage was released (moved) above
//! ```
//!
//! Every stage starts empty, so a producer starts at phase 1: `try_wait.parity(1)` on a fresh
//! barrier (current phase 0) succeeds at once; a consumer starts at phase 0 and waits for the
//! first fill. [`PipelineState::advance`] moves to the next stage and flips the phase when it
//! wraps, which makes `STAGES == 1` work as well (every step flips).
//!
//! Waits are bounded by a [`Budget`] and return [`Timeout`] instead of hanging.
//!
//! # The proxy fence of `consumer_release` (issue #13 item 3)
//!
//! The hazard is a write-after-read across proxies: the consumers' generic-proxy `ld`s of
//! stage `i`, then their arrive on `empty[i]`, then the producer's wait on `empty[i]` and the
//! next TMA (async-proxy) write into stage `i`. Causality carries over from the generic to the
//! async proxy only through a proxy fence between the two accesses in base causality order
//! (PTX ISA §8 "proxy-preserved base causality order"; seed §5.3). What the step needs is one
//! direction, generic → async, released through the `empty` arrive.
//!
//! * `Sco = Cta`: [`consumer_release`](Pipeline::consumer_release) issues
//!   `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;` (PTX 8.6, sm_90;
//!   [`fence_proxy_async_sync_restrict`]). PTX ISA §9.7.13.4: `.async::generic` is the
//!   uni-directional ordering *from* the generic proxy *to* the async proxy ("between a prior
//!   memory access performed via the from-proxykind and a subsequent memory access performed
//!   via the to-proxykind") — exactly the reads-before-TMA-writes direction (the other one,
//!   TMA-writes-before-reads, is the `full` barrier's completion, seed §5.2); "a `.release`
//!   proxy fence can form a release sequence"; and with `.sync_restrict::shared::cta` "the
//!   effect of the fence only applies to operations performed on objects in `.shared::cta`
//!   state space", scope `.cluster` (⊇ `.cta`). Every object of the step is in the executing
//!   CTA's `.shared::cta`: the stage it reads, the `empty` barrier it arrives on
//!   (`mbarrier.arrive.release.cta.shared::cta`), and the TMA destination (the same CTA's
//!   shared memory, whichever window the copy names it through, §5.1.5). So the restricted
//!   fence provides what the bidirectional `fence.proxy.async` was used for, and no more than
//!   the async → generic half it drops (ptxas 13.0, sm_90: `MEMBAR.ALL.CTA` +
//!   `FENCE.VIEW.ASYNC.S` instead of `MEMBAR.ALL.GPU` + `FENCE.VIEW.ASYNC.S`,
//!   `device/tests/ptxas_async.rs`).
//! * `Sco = Cluster`: the consumer arrives on the **leader's** `empty`, through
//!   `.shared::cluster` (`mbarrier.arrive.release.cluster.shared::cluster`, seed §5.4) — an
//!   operation on an object outside this CTA's `.shared::cta`, which the
//!   `.sync_restrict::shared::cta` fence's effect does not cover (§9.7.13.4 above), and the only
//!   restricted form with `.shared::cluster` is the `.acquire` one. The step keeps the
//!   bidirectional `fence.proxy.async;`.
//!
//! The loom model `loom-tests/tests/pipeline.rs` runs the `Cta` pipeline with the stages as
//! `ptx_sync::model::Tile`s (generic and async-proxy accesses tracked per element): with
//! `consumer_release` it passes (under `--cfg loom` both release fences above are the model's
//! generic → async proxy fence), and the same protocol with the arrive but without the fence is
//! caught as a proxy race. It runs the `Cluster` pipeline too (`run_cluster`: the leader CTA's
//! producer multicasts every tile into both CTAs' stages, per-CTA shared memory declared with
//! `cluster::ClusterShared`; CTA 1's consumer releases the leader's `empty` remotely): with the
//! kept `fence.proxy.async` it passes; without a fence, and with the restricted
//! `…sync_restrict::shared::cta` fence, it is caught as a proxy race — the model applies a
//! `.sync_restrict::shared::cta` fence only to the async-proxy accesses issued by the fencing
//! thread's own CTA, so the leader's next multicast into CTA 1's stage is not covered (the
//! restriction above, modelled by where the TMA is issued rather than by which object carries
//! the ordering).
//!
//! ```
//! use ptx_sync::pipeline::PipelineState;
//! let mut s = PipelineState::<2>::producer_start(); // a PipelineState<2, Producer>
//! assert_eq!((s.index(), s.phase().bit()), (0, 1));
//! s.advance(); assert_eq!((s.index(), s.phase().bit()), (1, 1));
//! s.advance(); assert_eq!((s.index(), s.phase().bit()), (0, 0));
//! ```

use crate::backend::Origin;
use core::marker::PhantomData;

use crate::mbarrier::{Mbarrier, Phase};
#[allow(unused_imports)]
use crate::proxy::fence_proxy_async;
use crate::sem::{Acquire, Cluster, Cta, Generic, Release, Scope, Sealed, Shared};
#[allow(unused_imports)]
use crate::sync_restrict::fence_proxy_async_sync_restrict;
use crate::wait::{Budget, Timeout};

/// Tag of the `full` barriers (filled by the producer / TMA).
#[derive(Debug)]
pub enum Full {}
/// Tag of the `empty` barriers (released by the consumers).
#[derive(Debug)]
pub enum Empty {}

mod role {
    pub trait Sealed {}
}

/// The role a [`PipelineState`] belongs to: [`Producer`] or [`Consumer`] (sealed). No
/// instruction: a type-level tag.
pub trait Role: role::Sealed + Copy + core::fmt::Debug + Eq + 'static {}

/// The producer's role: its states start at phase 1 ([`PipelineState::producer_start`]) and
/// are what [`Pipeline::producer_acquire`] and [`Pipeline::producer_tail`] take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Producer {}
/// The consumers' role: their states start at phase 0 ([`PipelineState::consumer_start`]) and
/// are what [`Pipeline::consumer_wait`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consumer {}
impl role::Sealed for Producer {}
impl role::Sealed for Consumer {}
impl Role for Producer {}
impl Role for Consumer {}

/// Stage index, phase parity and iteration count of one role `R` (CUTLASS `PipelineState`);
/// `R` is [`Producer`] (the default) or [`Consumer`], fixed by the constructor
/// ([`producer_start`](Self::producer_start), [`consumer_start`](Self::consumer_start)). No
/// instruction: registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipelineState<const STAGES: usize, R: Role = Producer> {
    index: u32,
    phase: Phase,
    count: u32,
    _r: PhantomData<R>,
}

impl<const STAGES: usize> PipelineState<STAGES> {
    const VALID: () = assert!(STAGES >= 1 && STAGES <= 32, "a pipeline has 1..=32 stages");
    /// A consumer's first state: stage 0, phase 0 (waits for the first fill).
    ///
    /// ```
    /// use ptx_sync::pipeline::{Consumer, PipelineState};
    /// let s: PipelineState<3, Consumer> = PipelineState::<3>::consumer_start();
    /// assert_eq!((s.index(), s.phase().bit(), s.count()), (0, 0, 0));
    /// ```
    pub const fn consumer_start() -> PipelineState<STAGES, Consumer> {
        let () = Self::VALID;
        PipelineState {
            index: 0,
            phase: Phase::ZERO,
            count: 0,
            _r: PhantomData,
        }
    }
    /// A producer's first state: stage 0, phase 1 (every stage starts empty).
    ///
    /// ```
    /// use ptx_sync::pipeline::{PipelineState, Producer};
    /// let s: PipelineState<3, Producer> = PipelineState::<3>::producer_start();
    /// assert_eq!((s.index(), s.phase().bit()), (0, 1));
    /// ```
    pub const fn producer_start() -> PipelineState<STAGES, Producer> {
        let () = Self::VALID;
        PipelineState {
            index: 0,
            phase: Phase::ONE,
            count: 0,
            _r: PhantomData,
        }
    }
}

impl<const STAGES: usize, R: Role> PipelineState<STAGES, R> {
    /// The same index, phase and count as a state of role `R2` — for tests of a broken
    /// protocol (a producer that starts at phase 0, a consumer at phase 1).
    ///
    /// # Safety
    /// A state of the other role has the other phase: a consumer's wait with a producer's phase
    /// passes on a stage that nobody filled (its reads race with the copy that fills it), a
    /// producer's with a consumer's phase waits for a release that never comes. Only a protocol
    /// that expects this (a model of the bug) may do it.
    ///
    /// No instruction.
    ///
    /// ```
    /// use ptx_sync::pipeline::{Producer, PipelineState};
    /// // The producer started at the consumers' phase 0 (the bug a model must catch):
    /// let p = unsafe { PipelineState::<2>::consumer_start().with_role::<Producer>() };
    /// assert_eq!(p.phase().bit(), 0);
    /// ```
    pub const unsafe fn with_role<R2: Role>(self) -> PipelineState<STAGES, R2> {
        PipelineState {
            index: self.index,
            phase: self.phase,
            count: self.count,
            _r: PhantomData,
        }
    }
    /// The stage index `0..STAGES`.
    ///
    /// ```
    /// let mut s = ptx_sync::pipeline::PipelineState::<2>::consumer_start();
    /// s.advance();
    /// assert_eq!(s.index(), 1);
    /// ```
    pub const fn index(self) -> usize {
        self.index as usize
    }
    /// The phase parity to wait for on this stage.
    ///
    /// ```
    /// let mut s = ptx_sync::pipeline::PipelineState::<1>::consumer_start();
    /// s.advance(); // one stage: every step wraps and flips
    /// assert_eq!(s.phase().bit(), 1);
    /// ```
    pub const fn phase(self) -> Phase {
        self.phase
    }
    /// Number of `advance` calls so far.
    ///
    /// ```
    /// let mut s = ptx_sync::pipeline::PipelineState::<2>::producer_start();
    /// for _ in 0..5 { s.advance(); }
    /// assert_eq!((s.count(), s.index()), (5, 1));
    /// ```
    pub const fn count(self) -> u32 {
        self.count
    }
    /// Next stage; on wrap to 0 the phase flips.
    ///
    /// ```
    /// let mut s = ptx_sync::pipeline::PipelineState::<2>::consumer_start();
    /// s.advance();
    /// s.advance();
    /// assert_eq!((s.index(), s.phase().bit()), (0, 1));
    /// ```
    #[inline(always)]
    pub fn advance(&mut self) {
        self.index += 1;
        self.count += 1;
        if self.index as usize == STAGES {
            self.index = 0;
            self.phase.flip();
        }
    }
}

/// Where the `empty` barriers' producer lives: [`Cta`] (same CTA as the consumers) or
/// [`Cluster`] (the cluster's leader CTA; consumers arrive remotely).
#[diagnostic::on_unimplemented(
    message = "a pipeline's scope is `Cta` or `Cluster`, not `{Self}`",
    note = "mbarrier arrive/wait have only `.cta` and `.cluster` scopes (PTX ISA §9.7.13.15)"
)]
pub trait PipelineScope: Scope + Sealed {
    /// The proxy fence of `consumer_release` (the module docs).
    #[doc(hidden)]
    fn release_fence();
    #[doc(hidden)]
    fn release_empty(bar: &Mbarrier<Empty>, leader: u32);
    #[doc(hidden)]
    fn wait_empty(bar: &Mbarrier<Empty>, phase: Phase, dl: Budget) -> Result<(), Timeout>;
}
impl PipelineScope for Cta {
    #[inline(always)]
    fn release_fence() {
        fence_proxy_async_sync_restrict::<Release, Shared>();
    }
    #[inline(always)]
    fn release_empty(bar: &Mbarrier<Empty>, _leader: u32) {
        let _ = bar.arrive::<Release, Cta>();
    }
    #[inline(always)]
    fn wait_empty(bar: &Mbarrier<Empty>, phase: Phase, dl: Budget) -> Result<(), Timeout> {
        bar.wait_parity::<Acquire, Cta>(phase, dl).map(drop)
    }
}
impl PipelineScope for Cluster {
    #[inline(always)]
    fn release_fence() {
        fence_proxy_async::<Generic>();
    }
    #[inline(always)]
    fn release_empty(bar: &Mbarrier<Empty>, leader: u32) {
        bar.remote(leader).arrive::<Release, Cluster>();
    }
    #[inline(always)]
    fn wait_empty(bar: &Mbarrier<Empty>, phase: Phase, dl: Budget) -> Result<(), Timeout> {
        bar.wait_parity::<Acquire, Cluster>(phase, dl).map(drop)
    }
}

/// A `STAGES`-deep TMA pipeline over `full[STAGES]` and `empty[STAGES]` barriers in shared
/// memory. `Sco = Cta`: producer and consumers in one CTA. `Sco = Cluster`: the leader CTA's
/// producer multicasts into every CTA; every CTA's consumers release the **leader's** `empty`.
pub struct Pipeline<'a, const STAGES: usize, Sco: PipelineScope = Cta> {
    full: &'a [Mbarrier<Full>],
    empty: &'a [Mbarrier<Empty>],
    leader: u32,
    is_leader: bool,
    _s: PhantomData<Sco>,
}

impl<'a, const STAGES: usize, Sco: PipelineScope> Pipeline<'a, STAGES, Sco> {
    /// A pipeline over the first `STAGES` barriers of `full` and `empty` (panics if shorter).
    /// `leader` is the cluster rank owning the `empty` barriers that count (use 0 for `Cta`) and
    /// `is_leader` whether this CTA is it.
    ///
    /// ```
    /// use ptx_sync::pipeline::{Empty, Full, Pipeline};
    /// use ptx_sync::{Cta, Mbarrier};
    /// let full: [Mbarrier<Full>; 4] = core::array::from_fn(|_| Mbarrier::new());
    /// let empty: [Mbarrier<Empty>; 4] = core::array::from_fn(|_| Mbarrier::new());
    /// let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true); // the first 2 of 4 barriers
    /// pipe.init(1, 1);
    /// ```
    pub fn new(
        full: &'a [Mbarrier<Full>],
        empty: &'a [Mbarrier<Empty>],
        leader: u32,
        is_leader: bool,
    ) -> Self {
        let () = PipelineState::<STAGES>::VALID;
        assert!(
            full.len() >= STAGES && empty.len() >= STAGES,
            "pipeline: fewer barriers than stages"
        );
        Pipeline {
            full: &full[..STAGES],
            empty: &empty[..STAGES],
            leader,
            is_leader,
            _s: PhantomData,
        }
    }

    /// One thread per CTA, before any use: `full[i].init(producer_arrivals)` (1 for one elected
    /// TMA thread) and `empty[i].init(consumer_arrivals)` (every consumer thread that releases;
    /// in a cluster, the consumers of all CTAs). Publish afterwards: `bar.sync` in one CTA;
    /// `fence_mbarrier_init` + cluster barrier across CTAs (seed §5.4).
    ///
    /// ```
    /// # use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
    /// # use ptx_sync::{wait::Budget, Cta, Mbarrier};
    /// # let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
    /// # pipe.init(1, 1);
    /// # let b = Budget::iterations(1000);
    /// // init(1, 1): a stage is full after one producer arrival (and its tx bytes).
    /// assert!(pipe.consumer_wait(PipelineState::consumer_start(), b).is_err());
    /// let _ = pipe.producer_acquire(PipelineState::producer_start(), 0, b).unwrap();
    /// assert!(pipe.consumer_wait(PipelineState::consumer_start(), b).is_ok());
    /// ```
    pub fn init(&self, producer_arrivals: u32, consumer_arrivals: u32) {
        for i in 0..STAGES {
            self.full[i].init(producer_arrivals);
            self.empty[i].init(consumer_arrivals);
        }
    }

    /// The `full` barrier of stage `i` (what a TMA copy completes on).
    ///
    /// ```
    /// # use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
    /// # use ptx_sync::{wait::Budget, Cta, Mbarrier};
    /// # let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
    /// # pipe.init(1, 1);
    /// # let b = Budget::iterations(1000);
    /// assert!(core::ptr::eq(pipe.full(1), &full[1]));
    /// ```
    pub fn full(&self, i: usize) -> &'a Mbarrier<Full> {
        &self.full[i]
    }
    /// The `empty` barrier of stage `i`.
    ///
    /// ```
    /// # use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
    /// # use ptx_sync::{wait::Budget, Cta, Mbarrier};
    /// # let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
    /// # pipe.init(1, 1);
    /// # let b = Budget::iterations(1000);
    /// assert!(core::ptr::eq(pipe.empty(0), &empty[0]));
    /// ```
    pub fn empty(&self, i: usize) -> &'a Mbarrier<Empty> {
        &self.empty[i]
    }

    /// **Producer, one elected thread.** Waits until stage `st.index()` is empty (the leader: on
    /// its `empty` barrier, `.acquire` at scope `Sco`; another CTA of a cluster: until its own
    /// previous fill of the stage completed), then arms `full` with
    /// `mbarrier.arrive.expect_tx.release.cta` for `tx_bytes`. Returns the `full` barrier to pass
    /// to the TMA copy. Blocks (bounded by the budget `dl`, per wait).
    ///
    /// ```
    /// # use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
    /// # use ptx_sync::{wait::Budget, Cta, Mbarrier};
    /// # let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
    /// # pipe.init(1, 1);
    /// # let b = Budget::iterations(1000);
    /// let st = PipelineState::producer_start();
    /// // Stage 0 starts empty: passes at once and arms `full[0]` (0 bytes: the arrive completes it).
    /// let f = pipe.producer_acquire(st, 0, b).expect("stage 0 is empty");
    /// assert!(core::ptr::eq(f, pipe.full(0)));
    /// assert!(pipe.consumer_wait(PipelineState::consumer_start(), b).is_ok());
    /// ```
    #[inline(always)]
    pub fn producer_acquire(
        &self,
        st: PipelineState<STAGES, Producer>,
        tx_bytes: u32,
        dl: Budget,
    ) -> Result<&'a Mbarrier<Full>, Timeout> {
        let i = st.index();
        if self.is_leader {
            Sco::wait_empty(&self.empty[i], st.phase(), dl)?;
        } else {
            self.full[i].wait_parity::<Acquire, Cta>(st.phase(), dl)?;
        }
        let _ = self.full[i].arrive_expect_tx::<Release, Cta>(tx_bytes);
        Ok(&self.full[i])
    }

    /// **Consumer, every consumer thread.** Waits until stage `st.index()` is full
    /// (`mbarrier.try_wait.parity.acquire.cta`; TMA completion includes the async→generic proxy
    /// fence, seed §5.2) and returns it: the [`ConsumerStage`] to read (its
    /// [`index`](ConsumerStage::index)) and to hand to [`consumer_release`](Self::consumer_release).
    /// Blocks (bounded by the budget `dl`, per wait). Takes only a consumer's state (a
    /// producer's phase would pass on a stage nobody filled: the module docs).
    ///
    /// ```
    /// # use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
    /// # use ptx_sync::{wait::Budget, Cta, Mbarrier};
    /// # let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
    /// # pipe.init(1, 1);
    /// # let b = Budget::iterations(1000);
    /// let st = PipelineState::consumer_start();
    /// assert!(pipe.consumer_wait(st, b).is_err(), "nothing produced yet: Timeout");
    /// let _ = pipe.producer_acquire(PipelineState::producer_start(), 0, b).unwrap();
    /// let stage = pipe.consumer_wait(st, b).expect("stage 0 is full");
    /// assert_eq!(stage.index(), 0);
    /// pipe.consumer_release(stage);
    /// ```
    #[inline(always)]
    pub fn consumer_wait(
        &self,
        st: PipelineState<STAGES, Consumer>,
        dl: Budget,
    ) -> Result<ConsumerStage<STAGES>, Timeout> {
        let i = st.index();
        self.full[i]
            .wait_parity::<Acquire, Cta>(st.phase(), dl)
            .map(|_| ConsumerStage {
                index: i as u32,
                pipe: Origin::of(self.full.as_ptr()),
            })
    }

    /// The stage of consumer state `st` as if its [`consumer_wait`](Self::consumer_wait) had
    /// passed: for a kernel that, after a wait timed out (the run has failed), still releases
    /// the stage so that the producer's waits end. No instruction.
    ///
    /// # Safety
    /// Releasing a stage the wait did not find full arrives on its `empty` barrier out of
    /// turn: the producer may refill a stage that a consumer still reads. The caller must not
    /// read the stage as valid data, and the run must already count as failed (its outputs are
    /// not trusted).
    ///
    /// ```
    /// # use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
    /// # use ptx_sync::{wait::Budget, Cta, Mbarrier};
    /// # let full: [Mbarrier<Full>; 1] = [Mbarrier::new()];
    /// # let empty: [Mbarrier<Empty>; 1] = [Mbarrier::new()];
    /// # let pipe = Pipeline::<1, Cta>::new(&full, &empty, 0, true);
    /// # pipe.init(1, 1);
    /// let st = PipelineState::consumer_start();
    /// let stage = match pipe.consumer_wait(st, Budget::iterations(10)) {
    ///     Ok(stage) => stage,
    ///     // SAFETY: the run has failed (a timeout); the stage is released, not read.
    ///     Err(_) => unsafe { pipe.consumer_stage_unchecked(st) },
    /// };
    /// pipe.consumer_release(stage);
    /// ```
    #[inline(always)]
    pub unsafe fn consumer_stage_unchecked(
        &self,
        st: PipelineState<STAGES, Consumer>,
    ) -> ConsumerStage<STAGES> {
        ConsumerStage {
            index: st.index() as u32,
            pipe: Origin::of(self.full.as_ptr()),
        }
    }

    /// **Consumer, every consumer thread, after its last generic read of the stage.** The
    /// generic → async proxy fence (the next write into the stage is TMA's, seed §5.3), then the
    /// release arrive on `empty`: `Sco = Cta`:
    /// `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;` +
    /// `mbarrier.arrive.release.cta.shared::cta.b64` (PTX 8.6); `Sco = Cluster`:
    /// `fence.proxy.async;` + `mbarrier.arrive.release.cluster.shared::cluster.b64` on the
    /// leader's barrier (seed §5.4; PTX 8.0). Why each fence: the module docs (PTX ISA
    /// §9.7.13.4). sm_90. Does not block. Takes the stage its wait returned, by value: it is
    /// released once. A stage of another pipeline panics (host; a `trap` in a debug build on the
    /// device).
    ///
    /// ```
    /// # use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
    /// # use ptx_sync::{wait::Budget, Cta, Mbarrier};
    /// # let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
    /// # pipe.init(1, 1);
    /// # let b = Budget::iterations(1000);
    /// let mut p = PipelineState::producer_start();
    /// let _ = pipe.producer_acquire(p, 0, b).unwrap();
    /// p.advance();
    /// let _ = pipe.producer_acquire(p, 0, b).unwrap(); // stage 1
    /// p.advance(); // back at stage 0, phase 0: waits for the consumer's release
    /// assert!(pipe.producer_acquire(p, 0, b).is_err());
    /// let c = PipelineState::consumer_start();
    /// let stage = pipe.consumer_wait(c, b).unwrap();
    /// pipe.consumer_release(stage); // fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster; mbarrier.arrive.release.cta
    /// assert!(pipe.producer_acquire(p, 0, b).is_ok());
    /// ```
    #[inline(always)]
    pub fn consumer_release(&self, stage: ConsumerStage<STAGES>) {
        stage.pipe.check(
            self.full.as_ptr(),
            "pipeline: consumer_release of a stage another pipeline's consumer_wait returned",
        );
        Sco::release_fence();
        Sco::release_empty(&self.empty[stage.index as usize], self.leader);
    }

    /// **Producer, after its last `producer_acquire`.** Waits once more on every stage's `empty`
    /// (leader) so that the producer's CTA cannot exit while consumers still read stages or
    /// arrive on its barriers (CUTLASS `producer_tail`). Non-leader CTAs return at once.
    ///
    /// ```
    /// # use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
    /// # use ptx_sync::{wait::Budget, Cta, Mbarrier};
    /// # let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
    /// # let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
    /// # pipe.init(1, 1);
    /// # let b = Budget::iterations(1000);
    /// let mut p = PipelineState::producer_start();
    /// let _ = pipe.producer_acquire(p, 0, b).unwrap();
    /// p.advance();
    /// // Stage 0 was filled and never released: the tail waits for it and reports the Timeout.
    /// assert!(pipe.producer_tail(p, b).is_err());
    /// let c = PipelineState::consumer_start();
    /// let stage = pipe.consumer_wait(c, b).unwrap();
    /// pipe.consumer_release(stage);
    /// assert!(pipe.producer_tail(p, b).is_ok());
    /// ```
    pub fn producer_tail(
        &self,
        mut st: PipelineState<STAGES, Producer>,
        dl: Budget,
    ) -> Result<(), Timeout> {
        if !self.is_leader {
            return Ok(());
        }
        for _ in 0..STAGES {
            Sco::wait_empty(&self.empty[st.index()], st.phase(), dl)?;
            st.advance();
        }
        Ok(())
    }
}

/// A stage a consumer's [`consumer_wait`](Pipeline::consumer_wait) found full: which stage to
/// read, and what [`consumer_release`](Pipeline::consumer_release) takes (by value: not `Copy`,
/// not `Clone`, so a stage is released once per wait). On the host and in debug builds on the
/// device it also names its pipeline, and a release on another pipeline panics. No instruction.
///
/// ```
/// # use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
/// # use ptx_sync::{wait::Budget, Cta, Mbarrier};
/// # let full: [Mbarrier<Full>; 2] = [Mbarrier::new(), Mbarrier::new()];
/// # let empty: [Mbarrier<Empty>; 2] = [Mbarrier::new(), Mbarrier::new()];
/// # let pipe = Pipeline::<2, Cta>::new(&full, &empty, 0, true);
/// # pipe.init(1, 1);
/// # let b = Budget::iterations(1000);
/// let mut p = PipelineState::producer_start();
/// let _ = pipe.producer_acquire(p, 0, b).unwrap();
/// p.advance();
/// let _ = pipe.producer_acquire(p, 0, b).unwrap();
/// let mut c = PipelineState::consumer_start();
/// c.advance();
/// let stage = pipe.consumer_wait(c, b).unwrap(); // stage 1
/// assert_eq!(stage.index(), 1);
/// pipe.consumer_release(stage);
/// ```
#[must_use = "a stage is handed back with consumer_release once its reads are done"]
#[derive(Debug, PartialEq, Eq)]
pub struct ConsumerStage<const STAGES: usize> {
    index: u32,
    /// The pipeline's identity (its `full` ring's address): `consumer_release` checks it.
    pipe: Origin,
}

impl<const STAGES: usize> ConsumerStage<STAGES> {
    /// The stage index `0..STAGES`: where the consumer reads.
    ///
    /// No instruction.
    ///
    /// ```
    /// # use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
    /// # use ptx_sync::{wait::Budget, Cta, Mbarrier};
    /// # let full: [Mbarrier<Full>; 1] = [Mbarrier::new()];
    /// # let empty: [Mbarrier<Empty>; 1] = [Mbarrier::new()];
    /// # let pipe = Pipeline::<1, Cta>::new(&full, &empty, 0, true);
    /// # pipe.init(1, 1);
    /// # let b = Budget::iterations(1000);
    /// let _ = pipe.producer_acquire(PipelineState::producer_start(), 0, b).unwrap();
    /// let stage = pipe.consumer_wait(PipelineState::consumer_start(), b).unwrap();
    /// assert_eq!(stage.index(), 0);
    /// # pipe.consumer_release(stage);
    /// ```
    #[inline(always)]
    pub const fn index(&self) -> usize {
        self.index as usize
    }
}
