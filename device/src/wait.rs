//! Bounded waiting: every spin ends, either because its condition held or because its budget ran
//! out — DeepEP's `timeout_check` (seed 004) as a primitive. A broken protocol then reports
//! [`Timeout`] instead of hanging the GPU.
//!
//! On `nvptx64` the budget is measured with `%globaltimer` (nanoseconds, `mov.u64 %rd, %globaltimer;`,
//! PTX ISA ch. 10 "Special Registers", sm_30+) or `%clock64` (SM cycles, `mov.u64 %rd, %clock64;`). On the host the
//! budget counts iterations (each one a `spin_loop` hint). Under `--cfg loom` a wait is a model
//! spin instead (`loom::thread::yield_now` per check, see `ptx_sync::model`): a wait that no
//! thread can end is a `deadlock: …` panic, a starved schedule is an abandoned (counted)
//! execution, and no budget ever reports `Timeout` — the model has no clock.
//!
//! <!-- generated from device/isa/wait.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`wait::nanosleep`](crate::wait::nanosleep) | `nanosleep.u32 t;` | 6.3 / sm_70 |
//!
//! ```
//! use ptx_sync::{wait::{spin_until, Budget}, Strong, Gpu, Acquire};
//! let flag = Strong::new(0u32);
//! // Nobody sets the flag: the wait gives up and says so.
//! let r = spin_until(Budget::nanos(1_000_000).or_iterations(1000), || flag.at::<Gpu>().load::<Acquire>() == 1);
//! assert!(r.is_err());
//! flag.at::<Gpu>().store::<ptx_sync::Release>(1);
//! assert!(spin_until(Budget::nanos(1_000_000), || flag.at::<Gpu>().load::<Acquire>() == 1).is_ok());
//! ```

// The rows of `device/isa/wait.rows`: the marker `Nanosleep` with its leaf and catalog row, the
// clock reads `Globaltimer`, `Clock64`.
include!(concat!(env!("OUT_DIR"), "/isa/wait.rs"));

use crate::backend::{Active, WaitBackend};

/// `mov.u64 %rd, %globaltimer;` — a global nanosecond timer (PTX ISA ch. 10, special registers). Host: 0.
///
/// ```
/// assert_eq!(ptx_sync::wait::globaltimer(), 0); // host: no GPU clock
/// ```
#[inline(always)]
pub fn globaltimer() -> u64 {
    unsafe { Globaltimer::read() }
}

/// `mov.u64 %rd, %clock64;` — the SM's cycle counter (PTX ISA ch. 10, special registers). Host: 0.
///
/// ```
/// assert_eq!(ptx_sync::wait::clock64(), 0); // host: no SM clock
/// ```
#[inline(always)]
pub fn clock64() -> u64 {
    unsafe { Clock64::read() }
}

/// `nanosleep.u32 t;` — suspends the calling thread for about `t` nanoseconds: a time in
/// `[0, 2·t]`, at most 1 ms (PTX ISA §9.7.19.2, "Miscellaneous Instructions: nanosleep";
/// sm_70, PTX 6.3). It orders no memory. Seed §5 (a spinning consumer's backoff); the backoff of
/// [`Budget::with_backoff`]. Host: `min(t, 1024)` `spin_loop` hints (no OS sleep in a `no_std`
/// crate).
///
/// ```
/// ptx_sync::wait::nanosleep(100); // nanosleep.u32 %r, with %r = 100
/// assert_eq!(<ptx_sync::wait::Nanosleep as ptx_sync::instr::Instr>::PTX, "nanosleep.u32");
/// ```
#[inline(always)]
pub fn nanosleep(t: u32) {
    // SAFETY: any `t` is valid (the hardware bounds the sleep to 1 ms).
    unsafe { Nanosleep::exec(t) }
}

/// How long a wait may last before it reports [`Timeout`].
///
/// The fields are private and every constructor makes its limit at least 1, so that every
/// budget bounds its spin (a budget with no limit at all would spin forever on the device,
/// where the host's default iteration limit does not apply). A limit of 0 means "none" only for
/// the *other* kinds of a budget made with one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Device limit in nanoseconds of `%globaltimer` (0: none).
    pub(crate) nanos: u64,
    /// Device limit in `%clock64` cycles (0: none).
    pub(crate) cycles: u64,
    /// Limit in iterations (host always; device too when non-zero).
    pub(crate) iterations: u64,
    /// Sleep between two checks: `nanosleep.u32` of this many nanoseconds on the device
    /// (0: none, a busy spin).
    pub(crate) backoff: u32,
}

impl Budget {
    /// At most `n` nanoseconds on the device (`n = 0` is taken as 1); on the host, 1 000 000
    /// iterations unless [`or_iterations`](Self::or_iterations) says otherwise.
    ///
    /// ```
    /// use ptx_sync::wait::Budget;
    /// assert_eq!(Budget::nanos(0).nanos_limit(), 1); // 0 would be unbounded: taken as 1
    /// assert_eq!(Budget::nanos(5_000).iteration_limit(), 0);
    /// ```
    pub const fn nanos(n: u64) -> Self {
        Budget {
            nanos: at_least_1(n),
            cycles: 0,
            iterations: 0,
            backoff: 0,
        }
    }
    /// At most `n` SM cycles on the device (DeepEP's `NUM_TIMEOUT_CYCLES`; `n = 0` is taken as 1).
    ///
    /// ```
    /// let b = ptx_sync::wait::Budget::cycles(1 << 30);
    /// assert_eq!((b.cycles_limit(), b.nanos_limit()), (1 << 30, 0));
    /// ```
    pub const fn cycles(n: u64) -> Self {
        Budget {
            nanos: 0,
            cycles: at_least_1(n),
            iterations: 0,
            backoff: 0,
        }
    }
    /// At most `n` iterations (everywhere; `n = 0` is taken as 1).
    ///
    /// ```
    /// use ptx_sync::wait::{spin_until, Budget};
    /// assert_eq!(spin_until(Budget::iterations(3), || false).unwrap_err().checks, 3);
    /// ```
    pub const fn iterations(n: u64) -> Self {
        Budget {
            nanos: 0,
            cycles: 0,
            iterations: at_least_1(n),
            backoff: 0,
        }
    }
    /// Adds an iteration limit to a time budget (`n = 0` is taken as 1).
    ///
    /// ```
    /// let b = ptx_sync::wait::Budget::nanos(1_000).or_iterations(10);
    /// assert_eq!((b.nanos_limit(), b.iteration_limit()), (1_000, 10));
    /// ```
    pub const fn or_iterations(self, n: u64) -> Self {
        Budget {
            iterations: at_least_1(n),
            ..self
        }
    }
    /// Sleeps about `ns` nanoseconds between two checks instead of busy-spinning: on the device
    /// [`nanosleep(ns)`](nanosleep) (`nanosleep.u32`, sm_70, PTX 6.3 — the warp is suspended for
    /// a time in `[0, 2·ns]`, so spinning warps leave issue slots to the ones that do work).
    /// The limits are unchanged: a sleeping wait still ends at its budget. Host: between two
    /// checks, `min(ns, 1024)` `spin_loop` hints (this crate is `no_std`: no OS sleep); under
    /// `--cfg loom` the model spin yields as without backoff. `ns = 0` is no backoff.
    ///
    /// ```
    /// use ptx_sync::wait::{spin_until, Budget};
    /// let b = Budget::nanos(1_000_000).or_iterations(10).with_backoff(256);
    /// assert_eq!(b.backoff_nanos(), 256);
    /// let mut n = 0;
    /// assert_eq!(spin_until(b, || { n += 1; n == 3 }), Ok(3));
    /// assert!(spin_until(b, || false).is_err()); // still bounded
    /// ```
    pub const fn with_backoff(self, ns: u32) -> Self {
        Budget {
            backoff: ns,
            ..self
        }
    }
    /// The sleep between two checks in nanoseconds (0: none).
    ///
    /// ```
    /// use ptx_sync::wait::Budget;
    /// assert_eq!(Budget::nanos(1_000).backoff_nanos(), 0);
    /// assert_eq!(Budget::nanos(1_000).with_backoff(64).backoff_nanos(), 64);
    /// ```
    pub const fn backoff_nanos(self) -> u32 {
        self.backoff
    }
    /// The device time limit in nanoseconds (0: none).
    ///
    /// ```
    /// assert_eq!(ptx_sync::wait::Budget::nanos(7).nanos_limit(), 7);
    /// assert_eq!(ptx_sync::wait::Budget::iterations(7).nanos_limit(), 0);
    /// ```
    pub const fn nanos_limit(self) -> u64 {
        self.nanos
    }
    /// The device limit in `%clock64` cycles (0: none).
    ///
    /// ```
    /// assert_eq!(ptx_sync::wait::Budget::cycles(9).cycles_limit(), 9);
    /// ```
    pub const fn cycles_limit(self) -> u64 {
        self.cycles
    }
    /// The iteration limit (0: none; on the host the default applies).
    ///
    /// ```
    /// assert_eq!(ptx_sync::wait::Budget::iterations(4).iteration_limit(), 4);
    /// ```
    pub const fn iteration_limit(self) -> u64 {
        self.iterations
    }
    /// Whether the budget bounds a device spin: always true for a constructed budget.
    ///
    /// ```
    /// use ptx_sync::wait::Budget;
    /// assert!(Budget::nanos(0).is_bounded() && Budget::cycles(0).is_bounded() && Budget::iterations(0).is_bounded());
    /// ```
    pub const fn is_bounded(self) -> bool {
        self.nanos != 0 || self.cycles != 0 || self.iterations != 0
    }
}

const fn at_least_1(n: u64) -> u64 {
    if n == 0 {
        1
    } else {
        n
    }
}

/// A wait that gave up: how many times the condition was checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeout {
    /// Checks made before giving up.
    pub checks: u64,
}

/// Checks `done()` until it returns true (`Ok(checks)`) or the budget is spent
/// (`Err(Timeout)`). The condition should be a strong load (seed §3.5); this function adds no
/// ordering of its own.
///
/// Under `--cfg loom` the budget is not a timeout: the wait is a model spin
/// (`ptx_sync::model::spin_until`) that returns `Ok` once `done()` holds, panics with
/// `"deadlock: …"` when no thread can ever make it true, and abandons (and counts) an execution
/// whose schedule starves a thread — so a correct protocol never reports `Timeout` in the model.
///
/// ```
/// use ptx_sync::wait::{spin_until, Budget};
/// let mut n = 0;
/// assert_eq!(spin_until(Budget::iterations(10), || { n += 1; n == 4 }), Ok(4));
/// ```
#[inline(always)]
pub fn spin_until(budget: Budget, done: impl FnMut() -> bool) -> Result<u64, Timeout> {
    Active::spin_until(budget, done)
}
