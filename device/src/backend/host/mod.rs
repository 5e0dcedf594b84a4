//! The host backend (and what it shares with `--cfg loom`): the typed API on CPU threads.
//!
//! Scope and state space are erased; the semantic maps to the `core::sync::atomic::Ordering` of
//! the same name (`Weak`/`Volatile` → `Relaxed`, `fence::<Sc, _>` → `fence(SeqCst)`). Under
//! `--cfg loom` the accesses go through `ptx_sync::model` instead (`super::loom`), while the
//! barriers, mbarriers and copies keep these arms over a `Word` (there a location of the
//! model), so one protocol source is model-checked unchanged (see the `loom-tests` crate). The
//! library never uses a SeqCst *access* (PTX has none, and loom would treat it as AcqRel).

#[cfg(not(loom))]
mod access;
#[cfg(not(loom))]
mod native;
#[cfg(not(loom))]
pub(crate) use {access::Host, native::host_fence};
pub(crate) mod barrier;
pub(crate) mod cluster;
pub(crate) mod copy;
pub(crate) mod cta;
#[cfg_attr(loom, allow(dead_code))]
pub(crate) mod launch;
pub mod leaf;
pub(crate) mod reduce;
pub mod scalar;
pub(crate) mod shared;
pub(crate) mod st_async;
pub(crate) mod tensormap;
pub(crate) mod warp;
pub(crate) use scalar::{cas_failure, hatomic};
pub use scalar::{HostScalar, RmwKind};

#[cfg(loom)]
use super::loom as plat;
/// The host's primitives — the fences, the barriers' state [`Word`], the barriers' blocking
/// wait and wake-up — on CPU atomics and sleeps (`native.rs`), or under `--cfg loom` on the
/// scope model (`../loom.rs`): the one place the choice is made. The barrier, mbarrier and
/// copy arms above are written once over these.
#[cfg(not(loom))]
use native as plat;
pub(crate) use plat::{block_while, fence_at, proxy_fence, wake, Word};
