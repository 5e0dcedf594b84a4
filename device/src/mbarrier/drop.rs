//! The `arrive_drop` forms beside the table of `mbarrier.rs`: `arrive_drop.expect_tx` on a
//! local barrier, `arrive_drop` and `arrive_drop.expect_tx` on a `.shared::cluster` (possibly a
//! peer CTA's) barrier. PTX ISA §9.7.13.15.16 (`mbarrier.arrive_drop`):
//!
//! ```text
//! mbarrier.arrive_drop{.sem}{.scope}{.shared{::cta}}.b64           state, [addr]{, count};
//! mbarrier.arrive_drop{.sem}{.scope}{.shared::cluster}.b64         _, [addr]{, count};
//! mbarrier.arrive_drop.expect_tx{.sem}{.scope}{.shared{::cta}}.b64 state, [addr], txCount;
//! mbarrier.arrive_drop.expect_tx{.sem}{.scope}{.shared::cluster}.b64 _, [addr], txCount;
//! .sem = { .release, .relaxed }, .scope = { .cta, .cluster }
//! ```
//!
//! PTX 8.0 (`.relaxed` 8.6), sm_90. Seed §5.4: a consumer CTA leaving a cluster pipeline drops
//! its arrival from the peer producer's barrier. The semantic and scope rows are
//! the `arrive` group's of `device/isa/mbarrier.rows` (the same legal set as `arrive`); the expect-tx half is an
//! `expect_tx` of `tx` bytes before the arrive-drop, as in `arrive.expect_tx` (§9.7.13.15.16).
//!
//! Their lines are in the module's table ([`crate::mbarrier`]).
//!
//! Host and `--cfg loom`: one read-modify-write of the barrier's state word with the row's
//! ordering (`Release` or `Relaxed`) at the row's scope, as the other arrive forms. The methods
//! carry no `#[cfg]`: they call the `MbarBackend` seam (`backend.rs`: `arrive_drop_tx`,
//! `remote_drop`) like every other mbarrier method.

use super::*;

impl<Tag> Mbarrier<Tag> {
    /// `mbarrier.arrive_drop.expect_tx.sem.scope.shared::cta.b64 state, [a], tx;` — raises the
    /// tx-count by `tx` bytes (< 2^20), then arrives and lowers the expected count of the
    /// following phases by one: a producer's last arming of `full` before it leaves the
    /// protocol. PTX 8.0 (`Relaxed` 8.6), sm_90; PTX ISA §9.7.13.15.16, seed §5.2.
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Cta};
    /// let m: Mbarrier = Mbarrier::new();
    /// m.init(2);
    /// let t = m.arrive_drop_expect_tx::<Release, Cta>(16); // 1 of 2 arrivals, 16 bytes owed
    /// m.complete_tx::<Cta>(16);
    /// assert!(!m.test_wait::<ptx_sync::Acquire, Cta>(t)); // one arrival still pending
    /// ```
    #[inline(always)]
    pub fn arrive_drop_expect_tx<S: Sem, Sco: Scope>(&self, tx: u32) -> Token<Tag>
    where
        S: ArriveDropInstr<Sco>,
    {
        check_tx(tx);
        Token::of(
            <Active as MbarBackend>::arrive_drop_tx::<S, Sco, Tag>(self, tx),
            self,
        )
    }
}

impl<Tag> RemoteMbarrier<'_, Tag> {
    /// `mbarrier.arrive_drop.sem.scope.shared::cluster.b64 _, [a];` — arrives on this CTA's or
    /// a peer CTA's barrier and lowers its expected count of the following phases by one (a
    /// consumer CTA leaving a cluster pipeline, seed §5.4). Use `Cluster` for a peer's barrier.
    /// PTX 8.0 (`Relaxed` 8.6), sm_90; PTX ISA §9.7.13.15.16.
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Cluster, Acquire};
    /// let m: Mbarrier = Mbarrier::new();
    /// m.init(1);
    /// m.remote(0).arrive_drop::<Release, Cluster>();
    /// assert!(m.test_wait_parity::<Acquire, Cluster>(ptx_sync::Phase::ZERO)); // phase 0 done
    /// ```
    #[inline(always)]
    pub fn arrive_drop<S: Sem, Sco: Scope>(self)
    where
        S: ArriveDropInstr<Sco>,
    {
        <Active as MbarBackend>::remote_drop::<S, Sco, Tag>(self, None)
    }

    /// `mbarrier.arrive_drop.expect_tx.sem.scope.shared::cluster.b64 _, [a], tx;` — the
    /// remote form of [`Mbarrier::arrive_drop_expect_tx`]. PTX 8.0 (`Relaxed` 8.6), sm_90;
    /// PTX ISA §9.7.13.15.16.
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Cluster};
    /// let m: Mbarrier = Mbarrier::new();
    /// m.init(1);
    /// m.remote(0).arrive_drop_expect_tx::<Release, Cluster>(8);
    /// m.complete_tx::<Cluster>(8); // the phase completes with the bytes
    /// ```
    #[inline(always)]
    pub fn arrive_drop_expect_tx<S: Sem, Sco: Scope>(self, tx: u32)
    where
        S: ArriveDropInstr<Sco>,
    {
        check_tx(tx);
        <Active as MbarBackend>::remote_drop::<S, Sco, Tag>(self, Some(tx))
    }
}
