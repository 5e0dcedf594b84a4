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
//! `for_mbar_arrive!`'s (the same legal set as `arrive`); the expect-tx half is an
//! `expect_tx` of `tx` bytes before the arrive-drop, as in `arrive.expect_tx` (§9.7.13.15.16).
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`Mbarrier::arrive_drop_expect_tx::<S, Sco>`](Mbarrier::arrive_drop_expect_tx) | `mbarrier.arrive_drop.expect_tx.sem.scope.shared::cta.b64 s, [a], tx;` | 8.0 / sm_90 |
//! | [`RemoteMbarrier::arrive_drop::<S, Sco>`](RemoteMbarrier::arrive_drop) | `mbarrier.arrive_drop.sem.scope.shared::cluster.b64 _, [a];` | 8.0 / sm_90 |
//! | [`RemoteMbarrier::arrive_drop_expect_tx::<S, Sco>`](RemoteMbarrier::arrive_drop_expect_tx) | `mbarrier.arrive_drop.expect_tx.sem.scope.shared::cluster.b64 _, [a], tx;` | 8.0 / sm_90 |
//!
//! Host and `--cfg loom`: one read-modify-write of the barrier's state word with the row's
//! ordering (`Release` or `Relaxed`) at the row's scope, as the other arrive forms. The methods
//! carry no `#[cfg]`: they call the `MbarBackend` seam (`backend.rs`: `arrive_drop_tx`,
//! `remote_drop`) like every other mbarrier method.

use super::*;

/// The `arrive_drop` forms not in [`ArriveInstr`] / [`RemoteArriveInstr`], at one (semantic,
/// scope): the same legal set (`S` ∈ {`Release`, `Relaxed`}, `Sco` ∈ {`Cta`, `Cluster`}).
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `mbarrier.arrive_drop{{.sem}}{{.scope}}` for `{Self}` at `{Sco}`: an arrive_drop takes Release or Relaxed, at Cta or Cluster",
    label = "an mbarrier arrive_drop releases; it cannot acquire",
    note = "PTX ISA §9.7.13.15.16: `.sem = {{.release, .relaxed}}`, `.scope = {{.cta, .cluster}}`"
)]
pub unsafe trait ArriveDropInstr<Sco: Scope>: Sem {
    /// `mbarrier.arrive_drop.expect_tx.sem.scope.shared::cta.b64`
    const PTX_DROP_EXPECT_TX: &'static str;
    /// `mbarrier.arrive_drop.sem.scope.shared::cluster.b64`
    const PTX_REMOTE_DROP: &'static str;
    /// `mbarrier.arrive_drop.expect_tx.sem.scope.shared::cluster.b64`
    const PTX_REMOTE_DROP_EXPECT_TX: &'static str;
    #[doc(hidden)]
    #[cfg(not(target_arch = "nvptx64"))]
    const HOST: Ordering;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn drop_expect_tx(a: u32, tx: u32) -> u64;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn remote_drop(a: u32);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn remote_drop_expect_tx(a: u32, tx: u32);
}

macro_rules! drop_leaf {
    ($S:ident $O:ident, $Sco:ident) => {
        drop_leaf! { @ (concat!("mbarrier.arrive_drop.expect_tx", tok!($S), tok!($Sco), tok!(Shared), ".b64"))
                       (concat!("mbarrier.arrive_drop", tok!($S), tok!($Sco), tok!(SharedCluster), ".b64"))
                       (concat!("mbarrier.arrive_drop.expect_tx", tok!($S), tok!($Sco), tok!(SharedCluster), ".b64"))
                       $S $O $Sco }
    };
    (@ ($($e:tt)*) ($($r:tt)*) ($($re:tt)*) $S:ident $O:ident $Sco:ident) => {
        unsafe impl ArriveDropInstr<$Sco> for $S {
            const PTX_DROP_EXPECT_TX: &'static str = $($e)*;
            const PTX_REMOTE_DROP: &'static str = $($r)*;
            const PTX_REMOTE_DROP_EXPECT_TX: &'static str = $($re)*;
            #[cfg(not(target_arch = "nvptx64"))]
            const HOST: Ordering = Ordering::$O;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn drop_expect_tx(a: u32, tx: u32) -> u64 {
                let s: u64;
                asm!(asm_text!(none; (mbar_state_tx); $($e)*), s = out(reg64) s, a = in(reg32) a, tx = in(reg32) tx, options(nostack, preserves_flags));
                s
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn remote_drop(a: u32) {
                asm!(asm_text!(none; (mbar_sink); $($r)*), a = in(reg32) a, options(nostack, preserves_flags));
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn remote_drop_expect_tx(a: u32, tx: u32) {
                asm!(asm_text!(none; (mbar_sink_tx); $($re)*), a = in(reg32) a, tx = in(reg32) tx, options(nostack, preserves_flags));
            }
        }
    };
}
for_mbar_arrive! { drop_leaf }

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

/// Catalog rows of the `arrive_drop` forms (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Form, Marker as M, Variant};
    macro_rules! row {
        ($S:ident $O:ident, $Sco:ident) => {
            let w = Variant {
                family: "mbarrier",
                ty: "b64",
                sem: M::$S,
                scope: M::$Sco,
                sm: 90,
                ptx_isa: if M::$S == M::Relaxed { 86 } else { 80 },
                isa: "9.7.13.15.16",
                seed: "5.4",
                ..Variant::EMPTY
            };
            f(with_ops!(none; (mbar_state_tx); Variant {
                op: "arrive_drop.expect_tx",
                space: M::Shared,
                form: Form::TX,
                ptx: <$S as ArriveDropInstr<$Sco>>::PTX_DROP_EXPECT_TX,
                rust: concat!(
                    "Mbarrier::arrive_drop_expect_tx::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
            f(with_ops!(none; (mbar_sink); Variant {
                op: "arrive_drop",
                space: M::SharedCluster,
                ptx: <$S as ArriveDropInstr<$Sco>>::PTX_REMOTE_DROP,
                rust: concat!(
                    "RemoteMbarrier::arrive_drop::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
            f(with_ops!(none; (mbar_sink_tx); Variant {
                op: "arrive_drop.expect_tx",
                space: M::SharedCluster,
                form: Form::TX,
                ptx: <$S as ArriveDropInstr<$Sco>>::PTX_REMOTE_DROP_EXPECT_TX,
                rust: concat!(
                    "RemoteMbarrier::arrive_drop_expect_tx::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sco),
                    ">"
                ),
                ..w
            }));
        };
    }
    for_mbar_arrive! { row }
}
