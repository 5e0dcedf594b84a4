//! The host backend (and what it shares with `--cfg loom`): the typed API on CPU threads.
//!
//! Scope and state space are erased; the semantic maps to the `core::sync::atomic::Ordering` of
//! the same name (`Weak`/`Volatile` → `Relaxed`, `fence::<Sc, _>` → `fence(SeqCst)`). Under
//! `--cfg loom` the accesses go through `ptx_sync::model` instead (`super::loom`), while the
//! barriers, mbarriers and copies keep these arms over a `Word` (there a location of the
//! model), so one protocol source is model-checked unchanged (see the `loom-tests` crate). The
//! library never uses a SeqCst *access* (PTX has none, and loom would treat it as AcqRel).

use core::sync::atomic::Ordering;

#[cfg(not(loom))]
mod access;
#[cfg(not(loom))]
pub(crate) use access::Host;
pub(crate) mod barrier;
pub(crate) mod cluster;
pub(crate) mod copy;
pub(crate) mod cta;
#[cfg_attr(loom, allow(dead_code))]
pub(crate) mod launch;
pub mod leaf;
pub mod scalar;
pub(crate) mod shared;
pub(crate) mod warp;
pub(crate) use scalar::{cas_failure, hatomic};
pub use scalar::{HostScalar, RmwKind};

/// The host's `fence`: `core::sync::atomic::fence` (under loom fences go through
/// [`fence_at`], which knows their scope).
#[cfg(not(loom))]
#[inline]
pub(crate) fn host_fence(o: Ordering) {
    hatomic::fence(o)
}

/// A fence with ordering `o` (`SeqCst` = `fence.sc`) at scope level `lvl` whose PTX is `what`:
/// `core::sync::atomic::fence(o)` on the host; under `--cfg loom` the scope model's fence, which
/// synchronizes only within its scope. What every fence row's host arm is.
#[inline]
#[allow(unused_variables)]
pub(crate) fn fence_at(o: Ordering, lvl: u8, what: &'static str) {
    #[cfg(not(loom))]
    hatomic::fence(o);
    #[cfg(loom)]
    {
        use crate::model::FenceKind as K;
        let kind = match o {
            Ordering::SeqCst => K::Sc,
            Ordering::AcqRel => K::AcqRel,
            Ordering::Acquire => K::Acquire,
            _ => K::Release,
        };
        crate::model::fence(kind, lvl, what)
    }
}

/// A proxy fence on the CPU: there is one proxy, so a compiler fence; under `--cfg loom` also
/// the copy engine's proxy check — the thread's earlier generic accesses of `model::Tile`s are
/// ordered before its later async-proxy accesses (`restricted`: only those its own CTA issues,
/// `.sync_restrict::shared::cta`).
#[inline]
#[allow(unused_variables)]
pub(crate) fn proxy_fence(restricted: bool) {
    core::sync::atomic::compiler_fence(Ordering::SeqCst);
    #[cfg(loom)]
    if restricted {
        super::copy_engine::fence_proxy_async_restricted();
    } else {
        super::copy_engine::fence_proxy_async();
    }
}

/// One strong 64-bit word of a library type's host state (a barrier's generation and counts, an
/// mbarrier's state): `hatomic::AtomicU64` on the host; under `--cfg loom` a strong location of
/// [`crate::model`], so that every access is reported with the scope level the instruction names
/// (`lvl`, as [`Scope::LEVEL`](crate::sem::Scope::LEVEL)) and its PTX (`what`). The one place the
/// host and loom representations differ; the types that hold a `Word` have one layout.
pub(crate) struct Word {
    #[cfg(not(loom))]
    a: hatomic::AtomicU64,
    #[cfg(loom)]
    a: crate::model::Location<u64>,
}

impl Word {
    /// A word holding `v`.
    #[cfg(not(loom))]
    pub(crate) const fn new(v: u64) -> Self {
        Word {
            a: hatomic::AtomicU64::new(v),
        }
    }
    /// A word holding `v` (a location of the model).
    #[cfg(loom)]
    pub(crate) fn new(v: u64) -> Self {
        Word {
            a: crate::model::Location::new(v),
        }
    }
    /// A load with ordering `o` at scope level `lvl`.
    #[allow(unused_variables)]
    pub(crate) fn load(&self, lvl: i8, o: Ordering, what: &'static str) -> u64 {
        #[cfg(not(loom))]
        return self.a.load(o);
        #[cfg(loom)]
        return self.a.load(lvl, o, what);
    }
    /// A store with ordering `o` at scope level `lvl`.
    #[allow(unused_variables)]
    pub(crate) fn store(&self, v: u64, lvl: i8, o: Ordering, what: &'static str) {
        #[cfg(not(loom))]
        self.a.store(v, o);
        #[cfg(loom)]
        self.a.store(v, lvl, o, what);
    }
    /// One read-modify-write `f` with ordering `o` at scope level `lvl`; returns the old value.
    #[allow(unused_variables)]
    pub(crate) fn rmw(
        &self,
        lvl: i8,
        o: Ordering,
        what: &'static str,
        f: impl Fn(u64) -> u64,
    ) -> u64 {
        #[cfg(not(loom))]
        {
            let mut cur = self.a.load(Ordering::Relaxed);
            loop {
                match self.a.compare_exchange(cur, f(cur), o, cas_failure(o)) {
                    Ok(old) => return old,
                    Err(seen) => cur = seen,
                }
            }
        }
        #[cfg(loom)]
        return self.a.rmw(lvl, o, what, f);
    }
}

/// Waits while `cond()` holds, for the host barriers: on the host a short spin, then a sleep
/// until [`wake`]`(key)` (`key`: the barrier's address), supervised inside an
/// [`index::launch`](crate::index::launch) (a deadlock or a panic elsewhere ends the wait); under
/// loom a model spin ([`crate::model::spin_until`]), so a wait that can never end is a
/// `deadlock: {what}` panic.
pub(crate) fn block_while(
    what: launch::What,
    key: usize,
    #[allow(unused_mut)] mut cond: impl FnMut() -> bool,
) {
    #[cfg(not(loom))]
    launch::block_while(what, key, cond);
    #[cfg(loom)]
    {
        let _ = key;
        crate::model::spin_until(what.text, || !cond());
    }
}

/// After a host barrier at `key` completes: wakes its waiters ([`block_while`]); nothing under
/// loom (its waiters are model spins).
pub(crate) fn wake(key: usize) {
    #[cfg(not(loom))]
    launch::wake(key);
    #[cfg(loom)]
    let _ = key;
}
