//! The consumer's side of an mbarrier: the `try_wait` / `test_wait` tests (with a token or a
//! parity, with or without a suspend-time hint) and the bounded waits built on them
//! (PTX ISA §9.7.13.15.17).

use super::{backend::Wait, Active, MbarBackend, Mbarrier, Phase, Token, WaitInstr};
use crate::sem::{Scope, Sem};
use crate::wait::{spin_until, Budget, Timeout};

impl<Tag> Mbarrier<Tag> {
    /// `mbarrier.try_wait.sem.scope.shared::cta.b64 p, [a], state;` — `true` once the phase that
    /// `token` was taken in has completed; may suspend the thread for a system-dependent time.
    /// `S` ∈ {`Acquire` (PTX 8.0), `Relaxed` (8.6)}; sm_90. Seed §5.2.
    ///
    /// `S` ∈ {`Acquire`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}; `try_wait::<Release, _>()` does not
    /// compile (a wait acquires). A token of another tag's barrier does not compile. SASS: not
    /// recorded in the repo (the parity form is). PTX ISA §9.7.13.15.17.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Acquire, Cta, mbarrier::WaitInstr};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(2);
    /// let t = b.arrive::<Release, Cta>();
    /// assert!(!b.try_wait::<Acquire, Cta>(t));
    /// let _ = b.arrive::<Release, Cta>();
    /// assert!(b.try_wait::<Acquire, Cta>(t)); // mbarrier.try_wait.acquire.cta.shared::cta.b64
    /// assert_eq!(<Acquire as WaitInstr<Cta>>::PTX_TRY, "mbarrier.try_wait.acquire.cta.shared::cta.b64");
    /// ```
    ///
    /// ```compile_fail
    /// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
    /// let t = b.arrive::<ptx_sync::Release, ptx_sync::Cta>();
    /// let _ = b.try_wait::<ptx_sync::Release, ptx_sync::Cta>(t); // no mbarrier.try_wait.release
    /// ```
    ///
    /// ```compile_fail
    /// enum Full {}
    /// enum Empty {}
    /// let (f, e) = (ptx_sync::Mbarrier::<Full>::new(), ptx_sync::Mbarrier::<Empty>::new());
    /// let t = f.arrive::<ptx_sync::Release, ptx_sync::Cta>();
    /// let _ = e.try_wait::<ptx_sync::Acquire, ptx_sync::Cta>(t); // a Full token on an Empty barrier
    /// ```
    #[inline(always)]
    pub fn try_wait<S: Sem, Sco: Scope>(&self, token: Token<Tag>) -> bool
    where
        S: WaitInstr<Sco>,
    {
        <Active as MbarBackend>::wait::<S, Sco, Tag>(self, Wait::Try(token.state_for(self)))
    }

    /// `mbarrier.try_wait.sem.scope.shared::cta.b64 p, [a], state, ns;` — with a suspend-time
    /// hint in nanoseconds. PTX 8.0, sm_90.
    ///
    /// `S` ∈ {`Acquire`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}; host: the hint is ignored. SASS:
    /// not recorded in the repo. PTX ISA §9.7.13.15.17; seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Acquire, Cta};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// let t = b.arrive::<Release, Cta>();
    /// assert!(b.try_wait_hint::<Acquire, Cta>(t, 1_000)); // ..., [a], state, 1000;
    /// ```
    #[inline(always)]
    pub fn try_wait_hint<S: Sem, Sco: Scope>(&self, token: Token<Tag>, ns: u32) -> bool
    where
        S: WaitInstr<Sco>,
    {
        <Active as MbarBackend>::wait::<S, Sco, Tag>(self, Wait::TryHint(token.state_for(self), ns))
    }

    /// `mbarrier.try_wait.parity.sem.scope.shared::cta.b64 p, [a], parity;` — `true` once the
    /// phase with parity `phase` has completed. PTX 8.0 / 8.6, sm_90.
    ///
    /// `S` ∈ {`Acquire`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}; `Release` does not compile. SASS
    /// (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`): `SYNCS.PHASECHK.TRANS64.TRYWAIT`.
    /// PTX ISA §9.7.13.15.17; seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Relaxed, Cta, mbarrier::WaitInstr};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// assert!(b.try_wait_parity::<Acquire, Cta>(Phase::ONE)); // a producer's first wait on `empty`
    /// assert!(!b.try_wait_parity::<Relaxed, Cta>(Phase::ZERO));
    /// let _ = b.arrive::<Release, Cta>();
    /// assert!(b.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
    /// assert_eq!(<Acquire as WaitInstr<Cta>>::PTX_TRY_PARITY,
    ///            "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64");
    /// ```
    #[inline(always)]
    pub fn try_wait_parity<S: Sem, Sco: Scope>(&self, phase: Phase) -> bool
    where
        S: WaitInstr<Sco>,
    {
        <Active as MbarBackend>::wait::<S, Sco, Tag>(self, Wait::TryParity(phase.0))
    }

    /// `mbarrier.try_wait.parity.sem.scope.shared::cta.b64 p, [a], parity, ns;` — with a
    /// suspend-time hint. PTX 8.0, sm_90.
    ///
    /// `S` ∈ {`Acquire`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}; host: the hint is ignored. SASS:
    /// not recorded in the repo. PTX ISA §9.7.13.15.17; seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Acquire, Cluster};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// assert!(!b.try_wait_parity_hint::<Acquire, Cluster>(Phase::ZERO, 500));
    /// ```
    #[inline(always)]
    pub fn try_wait_parity_hint<S: Sem, Sco: Scope>(&self, phase: Phase, ns: u32) -> bool
    where
        S: WaitInstr<Sco>,
    {
        <Active as MbarBackend>::wait::<S, Sco, Tag>(self, Wait::TryParityHint(phase.0, ns))
    }

    /// `mbarrier.test_wait.sem.scope.shared::cta.b64 p, [a], state;` — non-blocking test.
    /// PTX 8.0; sm_80 (`Relaxed` or `Cluster`: sm_90).
    ///
    /// `S` ∈ {`Acquire`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}; `Release` does not compile. SASS:
    /// not recorded in the repo. PTX ISA §9.7.13.15.17; seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Acquire, Cta, mbarrier::WaitInstr};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// let t = b.arrive::<Release, Cta>();
    /// assert!(b.test_wait::<Acquire, Cta>(t));
    /// assert_eq!(<Acquire as WaitInstr<Cta>>::PTX_TEST, "mbarrier.test_wait.acquire.cta.shared::cta.b64");
    /// ```
    #[inline(always)]
    pub fn test_wait<S: Sem, Sco: Scope>(&self, token: Token<Tag>) -> bool
    where
        S: WaitInstr<Sco>,
    {
        <Active as MbarBackend>::wait::<S, Sco, Tag>(self, Wait::Test(token.state_for(self)))
    }

    /// `mbarrier.test_wait.parity.sem.scope.shared::cta.b64 p, [a], parity;` — non-blocking.
    /// PTX 8.0 (`.parity`: 7.1); sm_80 (`Relaxed` or `Cluster`: sm_90).
    ///
    /// `S` ∈ {`Acquire`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}. SASS: not recorded in the repo.
    /// PTX ISA §9.7.13.15.17; seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Acquire, Cta, mbarrier::WaitInstr};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// assert!(!b.test_wait_parity::<Acquire, Cta>(Phase::ZERO));
    /// assert_eq!(<Acquire as WaitInstr<Cta>>::PTX_TEST_PARITY,
    ///            "mbarrier.test_wait.parity.acquire.cta.shared::cta.b64");
    /// ```
    #[inline(always)]
    pub fn test_wait_parity<S: Sem, Sco: Scope>(&self, phase: Phase) -> bool
    where
        S: WaitInstr<Sco>,
    {
        <Active as MbarBackend>::wait::<S, Sco, Tag>(self, Wait::TestParity(phase.0))
    }

    /// Bounded wait on a token: `try_wait` until it succeeds (`Ok(checks)`) or `budget` is spent
    /// ([`wait::spin_until`](crate::wait::spin_until)).
    ///
    /// PTX: a loop around [`try_wait`](Self::try_wait) (`mbarrier.try_wait.sem.scope.shared::cta.b64`)
    /// and the budget's clock reads; `S` ∈ {`Acquire`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}.
    /// Floor as `try_wait` (PTX 8.0, sm_90). PTX ISA §9.7.13.15.17; seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Acquire, Cta, wait::Budget};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(2);
    /// let t = b.arrive::<Release, Cta>();
    /// assert!(b.wait::<Acquire, Cta>(t, Budget::iterations(100)).is_err()); // nobody arrives: Timeout
    /// let _ = b.arrive::<Release, Cta>();
    /// assert_eq!(b.wait::<Acquire, Cta>(t, Budget::iterations(100)), Ok(1));
    /// ```
    #[inline(always)]
    pub fn wait<S: Sem, Sco: Scope>(
        &self,
        token: Token<Tag>,
        budget: Budget,
    ) -> Result<u64, Timeout>
    where
        S: WaitInstr<Sco>,
    {
        spin_until(budget, || self.try_wait::<S, Sco>(token))
    }

    /// Bounded wait on a parity: `try_wait.parity` until it succeeds or `budget` is spent.
    ///
    /// PTX: a loop around [`try_wait_parity`](Self::try_wait_parity) (SASS of each check:
    /// `SYNCS.PHASECHK.TRANS64.TRYWAIT`, ptxas 13.0.88); `S` ∈ {`Acquire`, `Relaxed`}, `Sco` ∈
    /// {`Cta`, `Cluster`}. PTX 8.0, sm_90. PTX ISA §9.7.13.15.17; seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Data, Phase, Release, Acquire, Cta, wait::Budget};
    /// let (full, x) = (Mbarrier::<()>::new(), Data::new(0u32));
    /// full.init(1);
    /// std::thread::scope(|s| {
    ///     s.spawn(|| { unsafe { x.write(3) }; let _ = full.arrive::<Release, Cta>(); });
    ///     assert!(full.wait_parity::<Acquire, Cta>(Phase::ZERO, Budget::iterations(1 << 30)).is_ok());
    ///     assert_eq!(unsafe { x.read() }, 3);
    /// });
    /// ```
    #[inline(always)]
    pub fn wait_parity<S: Sem, Sco: Scope>(
        &self,
        phase: Phase,
        budget: Budget,
    ) -> Result<u64, Timeout>
    where
        S: WaitInstr<Sco>,
    {
        spin_until(budget, || self.try_wait_parity::<S, Sco>(phase))
    }
}
