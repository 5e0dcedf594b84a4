//! The host's primitives (not under loom; `../loom.rs` has the model's): `core::sync::atomic`
//! fences, a CPU atomic for the barriers' state word, and the supervised sleep of a blocked
//! barrier wait (`launch.rs`).

use super::{cas_failure, hatomic, launch};
use core::sync::atomic::Ordering;

/// The host's `fence`: `core::sync::atomic::fence` (under loom fences go through the model's
/// `fence_at`, which knows their scope).
#[inline]
pub(crate) fn host_fence(o: Ordering) {
    hatomic::fence(o)
}

/// A fence with ordering `o` (`SeqCst` = `fence.sc`) at scope level `lvl` whose PTX is `what`:
/// `core::sync::atomic::fence(o)` (the scope erased). What every fence row's host arm is.
#[inline]
pub(crate) fn fence_at(o: Ordering, _lvl: u8, _what: &'static str) {
    hatomic::fence(o);
}

/// A proxy fence on the CPU: there is one proxy, so a compiler fence.
#[inline]
pub(crate) fn proxy_fence(_restricted: bool) {
    core::sync::atomic::compiler_fence(Ordering::SeqCst);
}

/// One strong 64-bit word of a library type's host state (a barrier's generation and counts, an
/// mbarrier's state): a `hatomic::AtomicU64` (under loom a location of the model, whose accesses
/// are reported with their scope level `lvl` and PTX `what`; here both are erased). The one
/// place the host and loom representations differ; the types that hold a `Word` have one layout.
pub(crate) struct Word {
    a: hatomic::AtomicU64,
}

impl Word {
    /// A word holding `v`.
    pub(crate) const fn new(v: u64) -> Self {
        Word {
            a: hatomic::AtomicU64::new(v),
        }
    }
    /// A load with ordering `o` at scope level `lvl`.
    pub(crate) fn load(&self, _lvl: i8, o: Ordering, _what: &'static str) -> u64 {
        self.a.load(o)
    }
    /// A store with ordering `o` at scope level `lvl`.
    pub(crate) fn store(&self, v: u64, _lvl: i8, o: Ordering, _what: &'static str) {
        self.a.store(v, o)
    }
    /// One read-modify-write `f` with ordering `o` at scope level `lvl`; returns the old value.
    pub(crate) fn rmw(
        &self,
        _lvl: i8,
        o: Ordering,
        _what: &'static str,
        f: impl Fn(u64) -> u64,
    ) -> u64 {
        let mut cur = self.a.load(Ordering::Relaxed);
        loop {
            match self.a.compare_exchange(cur, f(cur), o, cas_failure(o)) {
                Ok(old) => return old,
                Err(seen) => cur = seen,
            }
        }
    }
}

/// Waits while `cond()` holds, for the host barriers: a short spin, then a sleep until
/// [`wake`]`(key)` (`key`: the barrier's address), supervised inside an
/// [`index::launch`](crate::index::launch) (a deadlock or a panic elsewhere ends the wait).
pub(crate) fn block_while(what: launch::What, key: usize, cond: impl FnMut() -> bool) {
    launch::block_while(what, key, cond);
}

/// After a host barrier at `key` completes: wakes its waiters ([`block_while`]).
pub(crate) fn wake(key: usize) {
    launch::wake(key);
}
