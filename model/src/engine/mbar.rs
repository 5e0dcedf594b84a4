//! mbarrier objects (PTX ISA §9.7.13.15): their state and what each operation does to it.
//!
//! The model reads §8.8 literally: `mbarrier.arrive.release [M]` is a release operation on M and
//! `mbarrier.test_wait.acquire [M]` an acquire operation on M. So an mbarrier object is a memory
//! location whose value is its state; `init`/`inval` are weak writes, arrive-on, expect-tx and
//! complete-tx are atomic read-modify-writes, and the waits are reads (`model/SEMANTICS.md` S1, S2).

/// The largest count and tx-count magnitude (PTX ISA §9.7.13.15.2: "2^20 - 1").
pub const MAX_COUNT: i64 = (1 << 20) - 1;

/// The state of a valid mbarrier object (PTX ISA §9.7.13.15.2: "Current phase …, Count of
/// pending arrivals for the current phase …, Count of expected arrivals for the next phase …,
/// Count of pending asynchronous memory operations … tx-count").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MbarState {
    /// Current phase (0, 1, 2, …; §9.7.13.15.4).
    pub phase: u32,
    /// Pending arrivals of the current phase.
    pub pending: i64,
    /// Expected arrivals of the next phase.
    pub expected: i64,
    /// tx-count.
    pub tx: i64,
}

/// A misuse the ISA leaves undefined, reported as a flag of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MbarError {
    /// Not a valid object (never initialised, invalidated, or the init is not visible).
    Uninit,
    /// A count or the tx-count out of its range (§9.7.13.15.2).
    Range,
    /// An arrive-on with a count larger than the pending count, a `.noComplete` arrive that
    /// completes the phase, or a wait on a phase that is neither current nor the one before.
    Phase,
    /// A plain access to, or an `init` of, a valid object.
    Misuse,
}

impl MbarError {
    /// The flag's name (`Flag mbarrier-…`).
    pub fn flag(self) -> &'static str {
        match self {
            MbarError::Uninit => "mbarrier-uninit",
            MbarError::Range => "mbarrier-tx-range",
            MbarError::Phase => "mbarrier-phase",
            MbarError::Misuse => "mbarrier-misuse",
        }
    }
}

impl MbarState {
    /// `mbarrier.init … count` (§9.7.13.15.9: "Initializing the current phase to 0 … the expected
    /// arrival count to count … the pending arrival count to count … the tx-count to 0").
    pub fn init(count: u64) -> Result<MbarState, MbarError> {
        if count == 0 || count as i64 > MAX_COUNT {
            return Err(MbarError::Range);
        }
        Ok(MbarState {
            phase: 0,
            pending: count as i64,
            expected: count as i64,
            tx: 0,
        })
    }

    /// §9.7.13.15.6: "An mbarrier object completes the current phase when … The count of the
    /// pending arrivals has reached zero. The tx-count has reached zero." and then, atomically,
    /// "transitions to the next phase" and "The pending arrival count is reinitialized to the
    /// expected arrival count."
    fn settle(mut self) -> (MbarState, bool) {
        if self.pending == 0 && self.tx == 0 {
            self.phase += 1;
            self.pending = self.expected;
            (self, true)
        } else {
            (self, false)
        }
    }

    fn tx_add(mut self, d: i64) -> Result<MbarState, MbarError> {
        self.tx += d;
        if self.tx.abs() > MAX_COUNT {
            return Err(MbarError::Range);
        }
        Ok(self)
    }

    /// An arrive-on (§9.7.13.15.7: "the pending arrival count is decremented by count"), after
    /// the expect-tx of `.expect_tx`; `drop` also lowers the expected count (§9.7.13.15.14).
    /// Returns the new state and whether this operation completed the phase.
    pub fn arrive(
        self,
        count: u64,
        expect_tx: Option<u64>,
        drop: bool,
        no_complete: bool,
    ) -> Result<(MbarState, bool), MbarError> {
        let mut s = self;
        if let Some(t) = expect_tx {
            if t as i64 > MAX_COUNT {
                return Err(MbarError::Range);
            }
            s = s.tx_add(t as i64)?;
        }
        if count == 0 || count as i64 > MAX_COUNT {
            return Err(MbarError::Range);
        }
        if count as i64 > s.pending {
            return Err(MbarError::Phase);
        }
        s.pending -= count as i64;
        if drop {
            s.expected -= count as i64;
            if s.expected < 0 {
                return Err(MbarError::Phase);
            }
        }
        let (s, done) = s.settle();
        if done && no_complete {
            return Err(MbarError::Phase);
        }
        Ok((s, done))
    }

    /// expect-tx (§9.7.13.15.11: "increases the tx-count … by txCount").
    pub fn expect_tx(self, t: u64) -> Result<MbarState, MbarError> {
        if t as i64 > MAX_COUNT {
            return Err(MbarError::Range);
        }
        self.tx_add(t as i64)
    }

    /// complete-tx (§9.7.13.15.12: "decrements the tx-count … by txCount", then the phase may
    /// complete).
    pub fn complete_tx(self, t: u64) -> Result<(MbarState, bool), MbarError> {
        if t as i64 > MAX_COUNT {
            return Err(MbarError::Range);
        }
        Ok(self.tx_add(-(t as i64))?.settle())
    }

    /// The pending-count increment of `cp.async.mbarrier.arrive` without `.noinc`
    /// (§9.7.13.15.15: "the pending count of the mbarrier object is incremented by 1 prior to the
    /// asynchronous arrive-on").
    pub fn pending_inc(mut self) -> Result<MbarState, MbarError> {
        self.pending += 1;
        if self.pending > MAX_COUNT {
            return Err(MbarError::Range);
        }
        Ok(self)
    }

    /// `test_wait/try_wait … state` (§9.7.13.15.16: valid "only for the current incomplete phase,
    /// for which waitComplete returns False" and "the immediately preceding phase, for which
    /// waitComplete returns True").
    pub fn wait_token(&self, token_phase: u64) -> Result<bool, MbarError> {
        let p = self.phase as u64;
        if p == token_phase {
            Ok(false)
        } else if p == token_phase + 1 {
            Ok(true)
        } else {
            Err(MbarError::Phase)
        }
    }

    /// `test_wait/try_wait.parity p` (§9.7.13.15.16: "the integer parity of either the current
    /// phase or the immediately preceding phase"): True when the phase with parity `p` is the one
    /// before the current one, i.e. the current phase's parity differs from `p`.
    pub fn wait_parity(&self, parity: u64) -> bool {
        (self.phase as u64 & 1) != (parity & 1)
    }

    /// The opaque token an arrive returns: the phase before the arrive (§9.7.13.15.13: "capturing
    /// the phase of the mbarrier object prior to the arrive-on operation").
    pub fn token(&self) -> u64 {
        self.phase as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phase_completes_when_arrivals_and_tx_reach_zero() {
        // Expected values from §9.7.13.15.6/7 by hand: init 2, arrive.expect_tx 16 → pending 1,
        // tx 16; arrive → pending 0 but tx 16: not complete; complete_tx 16 → phase 1, pending 2.
        let s = MbarState::init(2).unwrap();
        let (s, done) = s.arrive(1, Some(16), false, false).unwrap();
        assert!(!done);
        assert_eq!((s.pending, s.tx), (1, 16));
        let (s, done) = s.arrive(1, None, false, false).unwrap();
        assert!(!done && s.phase == 0);
        let (s, done) = s.complete_tx(16).unwrap();
        assert!(done);
        assert_eq!((s.phase, s.pending, s.tx), (1, 2, 0));
        assert!(s.wait_parity(0) && !s.wait_parity(1));
        assert_eq!(s.wait_token(0), Ok(true));
        assert_eq!(s.wait_token(1), Ok(false));
        // Two phases later: a stale token.
        let (s2, _) = s.arrive(2, None, false, false).unwrap();
        assert_eq!(s2.wait_token(0), Err(MbarError::Phase));
    }

    #[test]
    fn ranges_and_misuse_are_errors() {
        assert_eq!(MbarState::init(0), Err(MbarError::Range));
        assert_eq!(MbarState::init(1 << 20), Err(MbarError::Range));
        let s = MbarState::init(1).unwrap();
        assert_eq!(s.arrive(2, None, false, false), Err(MbarError::Phase));
        assert_eq!(s.arrive(1, None, false, true), Err(MbarError::Phase));
        assert_eq!(s.expect_tx(1 << 20), Err(MbarError::Range));
        let s = s.expect_tx(MAX_COUNT as u64).unwrap();
        assert_eq!(s.expect_tx(1), Err(MbarError::Range));
        // arrive_drop lowers the next phase's expected count.
        let s = MbarState::init(2).unwrap();
        let (s, _) = s.arrive(1, None, true, false).unwrap();
        let (s, done) = s.arrive(1, None, false, false).unwrap();
        assert!(done);
        assert_eq!(s.pending, 1);
    }
}
