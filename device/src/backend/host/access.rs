//! The host's access backend (not under loom): `core::sync::atomic` with the semantic's
//! `Ordering`, on the [`HostScalar`](super::HostScalar) atomic that holds the scalar's bits; and
//! its bounded wait, which counts iterations (there is no GPU clock).

use super::host_fence;
use crate::atomic::{op, AtomInstr, CasInstr, LdInstr, RedInstr, Scalar, ScalarHost, StInstr};
use crate::backend::{AccessBackend, Loc, WaitBackend};
use crate::sem::{LoadSem, RedSem, RmwSem, Scope, Space, StoreSem};
use crate::wait::{Budget, Timeout};

/// Host: `core::sync::atomic` with the semantic's ordering (scope and space erased).
pub(crate) struct Host;
impl Host {
    #[inline(always)]
    fn at<T: Scalar>(l: Loc<'_, T>) -> &'_ <T as ScalarHost>::Atomic {
        // SAFETY: the constructor's contract.
        unsafe { T::atomic_from_ptr(l.0) }
    }
}
impl AccessBackend for Host {
    #[inline(always)]
    fn fence<S: crate::fence::FenceInstr<Sco>, Sco: Scope>() {
        host_fence(<S as crate::sem::FenceSem>::HOST)
    }
    #[inline(always)]
    fn load<T: LdInstr<S, Sco, Sp>, S: LoadSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>) -> T {
        T::h_load(Host::at(l), S::HOST)
    }
    #[inline(always)]
    fn store<T: StInstr<S, Sco, Sp>, S: StoreSem, Sco: Scope, Sp: Space>(l: Loc<'_, T>, v: T) {
        T::h_store(Host::at(l), v, S::HOST)
    }
    #[inline(always)]
    fn atom<T: AtomInstr<O, S, Sco, Sp>, O: op::Op, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) -> T {
        T::h_rmw(Host::at(l), O::KIND, b, S::HOST)
    }
    #[inline(always)]
    fn red<T: RedInstr<O, S, Sco, Sp>, O: op::Op, S: RedSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        b: T,
    ) {
        let _ = T::h_rmw(Host::at(l), O::KIND, b, S::HOST);
    }
    #[inline(always)]
    fn cas<T: CasInstr<S, Sco, Sp>, S: RmwSem, Sco: Scope, Sp: Space>(
        l: Loc<'_, T>,
        current: T,
        new: T,
    ) -> Result<T, T> {
        T::h_cas(Host::at(l), current, new, S::HOST)
    }
}

/// Default host iteration limit when the budget names only a device time.
const HOST_DEFAULT_ITERATIONS: u64 = 1_000_000;

/// The budget in iterations (a device time alone: [`HOST_DEFAULT_ITERATIONS`]); the backoff
/// `min(ns, 1024)` `spin_loop` hints after the one of every check.
impl WaitBackend for Host {
    #[inline(always)]
    fn spin_until(budget: Budget, mut done: impl FnMut() -> bool) -> Result<u64, Timeout> {
        let mut checks = 0u64;
        loop {
            checks += 1;
            if done() {
                return Ok(checks);
            }
            let limit = match budget.iterations {
                0 => HOST_DEFAULT_ITERATIONS,
                n => n,
            };
            if checks >= limit {
                return Err(Timeout { checks });
            }
            core::hint::spin_loop();
            for _ in 0..budget.backoff.min(1024) {
                core::hint::spin_loop();
            }
        }
    }
}
