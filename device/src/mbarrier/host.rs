//! The host and loom model of an mbarrier's state word (bits 0..20 pending, 20..40 expected,
//! 40..61 tx-count (21-bit two's complement), 63 phase) and the read-modify-writes of it that
//! the host arms of `backend.rs` make.

use super::Mbarrier;
use core::sync::atomic::Ordering;

// bits 0..20 pending, 20..40 expected, 40..61 tx-count (21-bit two's complement), 63 phase.
pub(crate) const M20: u64 = (1 << 20) - 1;
#[derive(Clone, Copy, Debug)]
pub(crate) struct St {
    pub pending: u32,
    pub expected: u32,
    pub tx: i32,
    pub phase: u32,
}
pub(crate) fn unpack(v: u64) -> St {
    let raw_tx = ((v >> 40) & ((1 << 21) - 1)) as i32;
    let tx = (raw_tx << 11) >> 11; // sign-extend 21 bits
    St {
        pending: (v & M20) as u32,
        expected: ((v >> 20) & M20) as u32,
        tx,
        phase: (v >> 63) as u32,
    }
}
pub(crate) fn pack(s: St) -> u64 {
    (s.pending as u64 & M20)
        | ((s.expected as u64 & M20) << 20)
        | (((s.tx as u32 as u64) & ((1 << 21) - 1)) << 40)
        | ((s.phase as u64 & 1) << 63)
}
/// The tx-count moved by `delta` bytes, checked against its range `[-(2^20-1), 2^20-1]`
/// (PTX ISA §9.7.13.15.1): outside it the device's behaviour is undefined, the host panics.
pub(crate) fn add_tx(mut s: St, delta: i64) -> St {
    let t = s.tx as i64 + delta;
    assert!(
        t.abs() <= super::MAX_COUNT as i64,
        "mbarrier: tx-count {} + {} = {} leaves its range [-(2^20-1), 2^20-1] \
         (PTX ISA §9.7.13.15.1)",
        s.tx,
        delta,
        t
    );
    s.tx = t as i32;
    s
}
/// Completes the phase if both counts are zero.
pub(crate) fn settle(mut s: St) -> St {
    if s.pending == 0 && s.tx == 0 {
        s.phase ^= 1;
        s.pending = s.expected;
    }
    s
}

impl<Tag> Mbarrier<Tag> {
    /// One read-modify-write of the state word: a strong RMW at scope level `lvl` (the scope the
    /// instruction names), reported to the model under loom as `what`.
    pub(super) fn h_rmw(
        &self,
        lvl: u8,
        what: &'static str,
        o: Ordering,
        f: impl Fn(St) -> St,
    ) -> u64 {
        self.state.rmw(lvl as i8, o, what, |v| pack(f(unpack(v))))
    }

    /// `init`/`inval` on the host: a relaxed store; under loom a strong store at `.cta` (the
    /// instruction is executed by a thread of the owning CTA; other CTAs must be ordered after it,
    /// seed §5.4).
    pub(super) fn h_store(&self, what: &'static str, v: u64) {
        self.state.store(v, 0, Ordering::Relaxed, what);
    }

    /// The `complete_tx` of a host async copy (the copy's own `.mbarrier::complete_tx::bytes`):
    /// under loom at `.cluster` scope (the copy may have been issued from another CTA of the
    /// cluster, seed §5.2).
    pub(crate) fn h_complete_tx(&self, tx: u32) {
        self.h_complete_tx_at(
            1,
            "mbarrier::complete_tx::bytes (async copy)",
            tx,
            Ordering::Release,
        )
    }

    pub(super) fn h_complete_tx_at(&self, lvl: u8, what: &'static str, tx: u32, o: Ordering) {
        self.h_rmw(lvl, what, o, |s| settle(add_tx(s, -(tx as i64))));
    }

    pub(super) fn h_phase_done(
        &self,
        lvl: u8,
        what: &'static str,
        o: Ordering,
        parity: u32,
    ) -> bool {
        unpack(self.state.load(lvl as i8, o, what)).phase != parity
    }
}
