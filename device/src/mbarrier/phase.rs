//! What an arrival returns and a wait takes: the opaque [`Token`] / [`NoCompleteToken`] states
//! of `mbarrier.arrive`, and the phase [`Phase`] of the parity waits.

use super::Mbarrier;
use core::marker::PhantomData;

/// Declares an opaque-state newtype over the 64-bit `mbarrier.arrive` state: the struct (tagged
/// with the barrier's tag type, `Copy`, printed as `Name(0x…)`) and its `raw()` accessor, whose
/// doc (with its example) the caller writes. `Token` and `NoCompleteToken` differ only in which
/// instructions take them.
macro_rules! opaque_state {
    (
        $(#[$m:meta])*
        pub struct $name:ident;
        $(#[$raw:meta])*
        raw;
    ) => {
        $(#[$m])*
        pub struct $name<Tag = ()> {
            state: u64,
            /// The barrier the state came from: the waits check it (host, and debug builds on
            /// the device; PTX ISA §9.7.13.15.17: the state of an arrive "on the same mbarrier
            /// object").
            bar: crate::backend::Origin,
            _t: PhantomData<fn() -> Tag>,
        }
        impl<Tag> $name<Tag> {
            /// The state `state` of an arrive on `bar`.
            #[inline(always)]
            #[allow(unused_variables)]
            pub(super) fn of(state: u64, bar: &Mbarrier<Tag>) -> Self {
                $name {
                    state,
                    bar: crate::backend::Origin::of(bar),
                    _t: PhantomData,
                }
            }
            /// The state, for a wait on `bar`: panics (a `trap` on the device, in debug builds)
            /// if it came from another barrier.
            #[inline(always)]
            #[allow(unused_variables, dead_code)] // `NoCompleteToken` waits through `token()`
            pub(super) fn state_for(self, bar: &Mbarrier<Tag>) -> u64 {
                self.bar.check(
                    bar,
                    "mbarrier: a token of another barrier (PTX ISA §9.7.13.15.17: the state of an \
                     arrive on the same mbarrier object)",
                );
                self.state
            }
        }
        impl<Tag> Clone for $name<Tag> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<Tag> Copy for $name<Tag> {}
        impl<Tag> core::fmt::Debug for $name<Tag> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!(stringify!($name), "({:#x})"), self.state)
            }
        }
        impl<Tag> $name<Tag> {
            $(#[$raw])*
            // `self: $name<Tag>` spelled out: `cargo xtask docs`'s example count skips template
            // lines (they hold a `$`) and counts the callers' `raw` docs instead.
            pub const fn raw(self: $name<Tag>) -> u64 {
                self.state
            }
        }
    };
}

opaque_state! {
    /// The state an arrive returned (`mbarrier.arrive ... state`): names the phase it arrived in, for
    /// [`Mbarrier::try_wait`]. Tagged with the barrier's tag type.
    #[must_use = "a token is only useful to wait on the phase it names"]
    pub struct Token;
    /// The opaque 64-bit state.
    ///
    /// No instruction. The bits are the state `mbarrier.arrive` returned (PTX ISA §9.7.13.15.15:
    /// opaque, it names the phase the arrival was made in); on the host the packed word before
    /// the arrival. Compare tokens, do not decode them.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Acquire, Cta};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(2);
    /// let t0 = b.arrive::<Release, Cta>(); // an arrival in phase 0
    /// let _ = b.arrive::<Release, Cta>(); // completes phase 0
    /// let t1 = b.arrive::<Release, Cta>(); // an arrival in phase 1 (1 of 2)
    /// assert_ne!(t0.raw(), t1.raw());
    /// assert!(b.try_wait::<Acquire, Cta>(t0) && !b.try_wait::<Acquire, Cta>(t1));
    /// ```
    raw;
}

opaque_state! {
    /// The state returned by `mbarrier.arrive.noComplete` / `mbarrier.arrive_drop.noComplete`
    /// ([`Mbarrier::arrive_no_complete`], [`Mbarrier::arrive_drop_no_complete`]): the only state on
    /// which `mbarrier.pending_count` is defined (PTX ISA §9.7.13.15.18), so
    /// [`Mbarrier::pending_count`] takes this type and not a [`Token`]. It is also a state of the
    /// phase it arrived in: [`token`](Self::token) gives the [`Token`] to wait on.
    #[must_use = "a no-complete state is only useful for pending_count or to wait on its phase"]
    pub struct NoCompleteToken;
    /// The opaque 64-bit state.
    ///
    /// No instruction (the opaque state of `mbarrier.arrive.noComplete`, PTX ISA §9.7.13.15.15).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, NoCompleteToken};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(4);
    /// let s: NoCompleteToken = unsafe { b.arrive_no_complete(1) };
    /// assert_eq!(s.raw(), s.token().raw());
    /// ```
    raw;
}

impl<Tag> NoCompleteToken<Tag> {
    /// The same state as a [`Token`] of its phase, for `try_wait`/`test_wait`.
    ///
    /// No instruction. PTX ISA §9.7.13.15.17 (a `.noComplete` state is a valid `try_wait` operand).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Release, Acquire, Cta};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(3);
    /// let s = unsafe { b.arrive_no_complete(2) }; // 1 arrival still missing
    /// assert!(!b.test_wait::<Acquire, Cta>(s.token()));
    /// let _ = b.arrive::<Release, Cta>();
    /// assert!(b.test_wait::<Acquire, Cta>(s.token()));
    /// ```
    pub const fn token(self) -> Token<Tag> {
        Token {
            state: self.state,
            bar: self.bar,
            _t: PhantomData,
        }
    }
}

/// A phase parity (`0` or `1`) for `try_wait.parity`: `try_wait_parity(p)` succeeds once the
/// phase with parity `p` has completed (the current phase's parity differs from `p`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Phase(pub(super) u32);
impl Phase {
    /// Parity 0 (the first phase after `init`).
    pub const ZERO: Phase = Phase(0);
    /// Parity 1.
    pub const ONE: Phase = Phase(1);
    /// The parity bit.
    ///
    /// No instruction; the `phaseParity` operand of `mbarrier.try_wait.parity` (PTX ISA
    /// §9.7.13.15.17).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::Phase;
    /// assert_eq!((Phase::ZERO.bit(), Phase::ONE.bit()), (0, 1));
    /// ```
    pub const fn bit(self) -> u32 {
        self.0
    }
    /// The other parity.
    ///
    /// No instruction. After a phase with parity `p` completes, the next phase to wait for has
    /// parity `p.flipped()` (seed §5.2).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::Phase;
    /// assert_eq!(Phase::ZERO.flipped(), Phase::ONE);
    /// assert_eq!(Phase::ONE.flipped().flipped(), Phase::ONE);
    /// ```
    pub const fn flipped(self) -> Phase {
        Phase(self.0 ^ 1)
    }
    /// Flips in place.
    ///
    /// No instruction. A consumer flips its phase each time it wraps around a ring of barriers
    /// (what [`PipelineState::advance`](crate::pipeline::PipelineState::advance) does).
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cta};
    /// let b: Mbarrier = Mbarrier::new();
    /// b.init(1);
    /// let mut p = Phase::ZERO;
    /// for _ in 0..3 {
    ///     let _ = b.arrive::<Release, Cta>();
    ///     assert!(b.try_wait_parity::<Acquire, Cta>(p));
    ///     p.flip();
    /// }
    /// assert_eq!(p, Phase::ONE);
    /// ```
    pub fn flip(&mut self) {
        self.0 ^= 1;
    }
}
