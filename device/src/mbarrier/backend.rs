//! The backend seam of the mbarrier (like `BarBackend` for the CTA barriers): [`Mbarrier`]'s and
//! [`RemoteMbarrier`]'s methods carry no `#[cfg]`; they call `Active` (the one backend chosen in
//! `atomic.rs`). nvptx64: the table's inline PTX on the barrier's `.shared::cta` (or
//! `.shared::cluster`) address. Host and loom: one read-modify-write (or load) of the barrier's
//! state word (`backend::Word`: a CPU atomic on the host, a strong location of the scope model
//! under loom), at the scope level the instruction names, with the row's `HOST` ordering.
//!
//! An operation is named by a small enum ([`Arrive`], [`Wait`]) whose value is a constant at each
//! call site, so on the device each method still folds to its one instruction.

use super::{
    ArriveDropInstr, ArriveInstr, Mbarrier, RemoteArriveInstr, RemoteMbarrier, TxInstr, WaitInstr,
};
// The host/loom arms name the chosen backend; the nvptx build calls `Nvptx` directly.
#[cfg_attr(target_arch = "nvptx64", allow(unused_imports))]
use crate::backend::Active;
use crate::sem::Scope;

/// Which arrive.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arrive {
    /// `mbarrier.arrive` (one arrival).
    One,
    /// `mbarrier.arrive …, count`.
    N(u32),
    /// `mbarrier.arrive_drop` (one arrival, and one fewer expected from the next phase on).
    Drop,
    /// `mbarrier.arrive.expect_tx …, tx` (raise the tx-count by `tx`, then one arrival).
    ExpectTx(u32),
}

/// Which wait test.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Wait {
    /// `mbarrier.try_wait` on a token's phase.
    Try(u64),
    /// `mbarrier.try_wait …, ns` on a token's phase.
    TryHint(u64, u32),
    /// `mbarrier.try_wait.parity` on a parity.
    TryParity(u32),
    /// `mbarrier.try_wait.parity …, ns`.
    TryParityHint(u32, u32),
    /// `mbarrier.test_wait` on a token's phase.
    Test(u64),
    /// `mbarrier.test_wait.parity`.
    TestParity(u32),
}

/// What the mbarrier does on one backend.
pub(crate) trait MbarBackend {
    /// The state an [`Mbarrier`] holds: its 8 bytes on the device, a `backend::Word` on the host.
    type State;
    /// A fresh (uninitialized) state, outside loom (under loom `Word::new` is not `const`).
    #[cfg(not(loom))]
    #[allow(clippy::declare_interior_mutable_const)]
    const NEW: Self::State;
    /// `mbarrier.init.shared::cta.b64 [a], count;`
    fn init<Tag>(b: &Mbarrier<Tag>, count: u32);
    /// `mbarrier.inval.shared::cta.b64 [a];`
    unsafe fn inval<Tag>(b: &Mbarrier<Tag>);
    /// An arrive of kind `k`; returns the state token.
    fn arrive<S: ArriveInstr<Sco>, Sco: Scope, Tag>(b: &Mbarrier<Tag>, k: Arrive) -> u64;
    /// `mbarrier.arrive{_drop}.noComplete …, count` (`drop`); returns the state token.
    unsafe fn arrive_no_complete<Tag>(b: &Mbarrier<Tag>, count: u32, drop: bool) -> u64;
    /// `mbarrier.expect_tx` (`complete == false`) or `mbarrier.complete_tx`, `tx` bytes.
    fn tx<Sco: TxInstr, Tag>(b: &Mbarrier<Tag>, tx: u32, complete: bool);
    /// A wait test of kind `w`.
    fn wait<S: WaitInstr<Sco>, Sco: Scope, Tag>(b: &Mbarrier<Tag>, w: Wait) -> bool;
    /// `mbarrier.pending_count.b64` of a no-complete token's state.
    fn pending_count(state: u64) -> u32;
    /// A remote arrive of kind `k` (`One`, `N`, `ExpectTx`) on a peer CTA's barrier.
    fn remote_arrive<S: RemoteArriveInstr<Sco>, Sco: Scope, Tag>(
        r: RemoteMbarrier<'_, Tag>,
        k: Arrive,
    );
    /// `mbarrier.expect_tx` / `complete_tx` on a peer CTA's barrier (`.shared::cluster`).
    fn remote_tx<Sco: TxInstr, Tag>(r: RemoteMbarrier<'_, Tag>, tx: u32, complete: bool);
    /// `mbarrier.arrive_drop.expect_tx …shared::cta.b64 state, [a], tx;`; returns the state.
    fn arrive_drop_tx<S: ArriveDropInstr<Sco>, Sco: Scope, Tag>(b: &Mbarrier<Tag>, tx: u32) -> u64;
    /// `mbarrier.arrive_drop{.expect_tx} …shared::cluster.b64 _, [a]{, tx};` on a peer CTA's
    /// barrier: `tx` `None` for the plain drop.
    fn remote_drop<S: ArriveDropInstr<Sco>, Sco: Scope, Tag>(
        r: RemoteMbarrier<'_, Tag>,
        tx: Option<u32>,
    );
}

/// nvptx64: the table's inline PTX.
#[cfg(target_arch = "nvptx64")]
impl MbarBackend for crate::backend::nvptx::Nvptx {
    type State = core::cell::UnsafeCell<u64>;
    #[allow(clippy::declare_interior_mutable_const)]
    const NEW: Self::State = core::cell::UnsafeCell::new(0);
    #[inline(always)]
    fn init<Tag>(b: &Mbarrier<Tag>, count: u32) {
        unsafe { super::MbarrierInit::exec(b.a(), count) }
    }
    #[inline(always)]
    unsafe fn inval<Tag>(b: &Mbarrier<Tag>) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { super::MbarrierInval::exec(b.a()) }
    }
    #[inline(always)]
    fn arrive<S: ArriveInstr<Sco>, Sco: Scope, Tag>(b: &Mbarrier<Tag>, k: Arrive) -> u64 {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            match k {
                Arrive::One => S::arrive(b.a()),
                Arrive::N(n) => S::arrive_n(b.a(), n),
                Arrive::Drop => S::arrive_drop(b.a()),
                Arrive::ExpectTx(tx) => S::arrive_expect_tx(b.a(), tx),
            }
        }
    }
    #[inline(always)]
    unsafe fn arrive_no_complete<Tag>(b: &Mbarrier<Tag>, count: u32, drop: bool) -> u64 {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            if drop {
                super::MbarrierArriveDropNoComplete::exec(b.a(), count)
            } else {
                super::MbarrierArriveNoComplete::exec(b.a(), count)
            }
        }
    }
    #[inline(always)]
    fn tx<Sco: TxInstr, Tag>(b: &Mbarrier<Tag>, tx: u32, complete: bool) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            if complete {
                Sco::complete(b.a(), tx)
            } else {
                Sco::expect(b.a(), tx)
            }
        }
    }
    #[inline(always)]
    fn wait<S: WaitInstr<Sco>, Sco: Scope, Tag>(b: &Mbarrier<Tag>, w: Wait) -> bool {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            match w {
                Wait::Try(s) => S::try_wait(b.a(), s),
                Wait::TryHint(s, ns) => S::try_wait_hint(b.a(), s, ns),
                Wait::TryParity(p) => S::try_wait_parity(b.a(), p),
                Wait::TryParityHint(p, ns) => S::try_wait_parity_hint(b.a(), p, ns),
                Wait::Test(s) => S::test_wait(b.a(), s),
                Wait::TestParity(p) => S::test_wait_parity(b.a(), p),
            }
        }
    }
    #[inline(always)]
    fn pending_count(state: u64) -> u32 {
        unsafe { super::MbarrierPendingCount::exec(state) }
    }
    #[inline(always)]
    fn remote_arrive<S: RemoteArriveInstr<Sco>, Sco: Scope, Tag>(
        r: RemoteMbarrier<'_, Tag>,
        k: Arrive,
    ) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            match k {
                Arrive::N(n) => S::arrive_n(r.addr.0, n),
                Arrive::ExpectTx(tx) => S::arrive_expect_tx(r.addr.0, tx),
                Arrive::One | Arrive::Drop => S::arrive(r.addr.0),
            }
        }
    }
    #[inline(always)]
    fn remote_tx<Sco: TxInstr, Tag>(r: RemoteMbarrier<'_, Tag>, tx: u32, complete: bool) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            if complete {
                Sco::complete_cluster(r.addr.0, tx)
            } else {
                Sco::expect_cluster(r.addr.0, tx)
            }
        }
    }
    #[inline(always)]
    fn arrive_drop_tx<S: ArriveDropInstr<Sco>, Sco: Scope, Tag>(b: &Mbarrier<Tag>, tx: u32) -> u64 {
        unsafe { S::drop_expect_tx(b.a(), tx) }
    }
    #[inline(always)]
    fn remote_drop<S: ArriveDropInstr<Sco>, Sco: Scope, Tag>(
        r: RemoteMbarrier<'_, Tag>,
        tx: Option<u32>,
    ) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            match tx {
                None => S::remote_drop(r.addr.0),
                Some(tx) => S::remote_drop_expect_tx(r.addr.0, tx),
            }
        }
    }
}

/// Host and loom: read-modify-writes of the state word (`super::host`'s packing).
#[cfg(not(target_arch = "nvptx64"))]
impl MbarBackend for Active {
    type State = crate::backend::host::Word;
    #[cfg(not(loom))]
    #[allow(clippy::declare_interior_mutable_const)]
    const NEW: Self::State = crate::backend::host::Word::new(0);
    fn init<Tag>(b: &Mbarrier<Tag>, count: u32) {
        b.h_store(
            <super::MbarrierInit as crate::instr::Instr>::PTX,
            host::pack(host::St {
                pending: count,
                expected: count,
                tx: 0,
                phase: 0,
            }),
        );
    }
    unsafe fn inval<Tag>(b: &Mbarrier<Tag>) {
        b.h_store(<super::MbarrierInval as crate::instr::Instr>::PTX, 0);
    }
    fn arrive<S: ArriveInstr<Sco>, Sco: Scope, Tag>(b: &Mbarrier<Tag>, k: Arrive) -> u64 {
        let what = match k {
            Arrive::One | Arrive::N(_) => <S as ArriveInstr<Sco>>::PTX,
            Arrive::Drop => <S as ArriveInstr<Sco>>::PTX_DROP,
            Arrive::ExpectTx(_) => <S as ArriveInstr<Sco>>::PTX_EXPECT_TX,
        };
        b.h_rmw(Sco::LEVEL, what, <S as ArriveInstr<Sco>>::HOST, |s| {
            if let Arrive::Drop = k {
                return host_drop(s, 0);
            }
            host_arrive(s, k)
        })
    }
    unsafe fn arrive_no_complete<Tag>(b: &Mbarrier<Tag>, count: u32, drop: bool) -> u64 {
        use crate::instr::Instr;
        let what = if drop {
            super::MbarrierArriveDropNoComplete::PTX
        } else {
            super::MbarrierArriveNoComplete::PTX
        };
        b.h_rmw(crate::sem::Cta::LEVEL, what, Ordering::Release, |mut s| {
            if drop {
                assert!(
                    s.pending > count && s.expected >= count,
                    "mbarrier: arrive_drop.noComplete of {count} would complete the phase \
                         (pending {}, expected {}; PTX ISA §9.7.13.15.16: undefined)",
                    s.pending,
                    s.expected
                );
                s.expected -= count;
            } else {
                assert!(
                    s.pending > count,
                    "mbarrier: arrive.noComplete of {count} would complete the phase \
                         (pending {}; PTX ISA §9.7.13.15.15: undefined)",
                    s.pending
                );
            }
            s.pending -= count;
            s
        })
    }
    fn tx<Sco: TxInstr, Tag>(b: &Mbarrier<Tag>, tx: u32, complete: bool) {
        if complete {
            b.h_complete_tx_at(Sco::LEVEL, Sco::PTX_COMPLETE, tx, Ordering::Relaxed);
        } else {
            b.h_rmw(Sco::LEVEL, Sco::PTX_EXPECT, Ordering::Relaxed, |s| {
                host::add_tx(s, tx as i64)
            });
        }
    }
    fn wait<S: WaitInstr<Sco>, Sco: Scope, Tag>(b: &Mbarrier<Tag>, w: Wait) -> bool {
        let (what, parity) = match w {
            // The suspend-time hint (`ns`) is a hint: the host ignores it.
            Wait::Try(s) => (<S as WaitInstr<Sco>>::PTX_TRY, host::unpack(s).phase),
            Wait::TryHint(s, _ns) => (<S as WaitInstr<Sco>>::PTX_TRY, host::unpack(s).phase),
            Wait::TryParity(p) => (<S as WaitInstr<Sco>>::PTX_TRY_PARITY, p),
            Wait::TryParityHint(p, _ns) => (<S as WaitInstr<Sco>>::PTX_TRY_PARITY, p),
            Wait::Test(s) => (<S as WaitInstr<Sco>>::PTX_TEST, host::unpack(s).phase),
            Wait::TestParity(p) => (<S as WaitInstr<Sco>>::PTX_TEST_PARITY, p),
        };
        b.h_phase_done(Sco::LEVEL, what, <S as WaitInstr<Sco>>::HOST, parity)
    }
    fn pending_count(state: u64) -> u32 {
        host::unpack(state).pending
    }
    fn remote_arrive<S: RemoteArriveInstr<Sco>, Sco: Scope, Tag>(
        r: RemoteMbarrier<'_, Tag>,
        k: Arrive,
    ) {
        let what = match k {
            Arrive::ExpectTx(_) => <S as RemoteArriveInstr<Sco>>::PTX_EXPECT_TX,
            _ => <S as RemoteArriveInstr<Sco>>::PTX,
        };
        let _ = r.local().h_rmw(
            Sco::LEVEL,
            what,
            <S as RemoteArriveInstr<Sco>>::HOST,
            // The same arrival as the local one (a remote `Drop` is `RemoteMbarrier::arrive_drop`,
            // `remote_drop`): one check, so both panic alike on an arrival too many.
            |s| host_arrive(s, k),
        );
    }
    fn remote_tx<Sco: TxInstr, Tag>(r: RemoteMbarrier<'_, Tag>, tx: u32, complete: bool) {
        Self::tx::<Sco, Tag>(r.local(), tx, complete)
    }
    fn arrive_drop_tx<S: ArriveDropInstr<Sco>, Sco: Scope, Tag>(b: &Mbarrier<Tag>, tx: u32) -> u64 {
        b.h_rmw(
            Sco::LEVEL,
            <S as ArriveDropInstr<Sco>>::PTX_DROP_EXPECT_TX,
            <S as ArriveDropInstr<Sco>>::HOST,
            |s| host_drop(s, tx),
        )
    }
    fn remote_drop<S: ArriveDropInstr<Sco>, Sco: Scope, Tag>(
        r: RemoteMbarrier<'_, Tag>,
        tx: Option<u32>,
    ) {
        let what = match tx {
            None => <S as ArriveDropInstr<Sco>>::PTX_REMOTE_DROP,
            Some(_) => <S as ArriveDropInstr<Sco>>::PTX_REMOTE_DROP_EXPECT_TX,
        };
        let _ = r
            .local()
            .h_rmw(Sco::LEVEL, what, <S as ArriveDropInstr<Sco>>::HOST, |s| {
                host_drop(s, tx.unwrap_or(0))
            });
    }
}

/// Host: an arrive of kind `k` (`One`, `N`, `ExpectTx`; one arrival unless `N`), local or
/// remote alike: an arrival beyond the phase's pending count panics (on the device it would
/// complete a phase that has not been armed, or wrap the count).
#[cfg(not(target_arch = "nvptx64"))]
fn host_arrive(mut s: host::St, k: Arrive) -> host::St {
    let n = if let Arrive::N(n) = k { n } else { 1 };
    assert!(
        s.pending >= n,
        "mbarrier: more arrivals than expected in this phase (pending {}, arriving {n})",
        s.pending
    );
    if let Arrive::ExpectTx(tx) = k {
        s = host::add_tx(s, tx as i64);
    }
    s.pending -= n;
    host::settle(s)
}

/// Host: the arrive-drop of `arrive_drop` (pending and expected lowered by one) after an
/// `expect_tx` of `tx` bytes (none for the plain drop).
#[cfg(not(target_arch = "nvptx64"))]
fn host_drop(mut s: host::St, tx: u32) -> host::St {
    assert!(
        s.pending >= 1 && s.expected >= 1,
        "mbarrier: arrive_drop without arrivals left"
    );
    if tx != 0 {
        s = host::add_tx(s, tx as i64);
    }
    s.pending -= 1;
    s.expected -= 1;
    host::settle(s)
}

#[cfg(not(target_arch = "nvptx64"))]
use super::host;
#[cfg(not(target_arch = "nvptx64"))]
use core::sync::atomic::Ordering;
