//! PTX 8.6 restricted fences: `fence.{acquire,release}.sync_restrict::space.cluster` and
//! `fence.proxy.async::generic.{acquire,release}.sync_restrict::space.cluster`.
//!
//! PTX ISA §9.7.13.4 (`membar`/`fence`), grammar:
//!
//! ```text
//! fence.acquire.sync_restrict::shared::cluster.cluster;
//! fence.release.sync_restrict::shared::cta.cluster;
//! fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;
//! fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
//! ```
//!
//! The acquire forms go with `.shared::cluster` and the release forms with `.shared::cta` —
//! no other pairing exists (ptxas 13.0 rejects `fence.acquire.sync_restrict::shared::cta`,
//! `fence.release.sync_restrict::shared::cluster`, and every scope but `.cluster`). A restricted
//! fence orders only the thread's accesses to that state space, and synchronizes only through
//! operations on it (an mbarrier in `.shared::cta` for the release, in `.shared::cluster` for the
//! acquire): the cheaper form of `fence.acq_rel.cluster` / the bidirectional
//! `fence.proxy.async` when a cluster protocol's data and barrier live in shared memory (seed
//! §5.3, §5.4). The proxy forms are uni-directional: generic-proxy accesses before the release
//! form are ordered before later async-proxy accesses (and the acquire form the other way).
//!
//! <!-- generated from device/isa/sync_restrict.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`sync_restrict::fence_sync_restrict::<Acquire, SharedCluster>()`](crate::sync_restrict::fence_sync_restrict) | `fence.acquire.sync_restrict::shared::cluster.cluster;` | 8.6 / sm_90 |
//! | [`sync_restrict::fence_sync_restrict::<Release, Shared>()`](crate::sync_restrict::fence_sync_restrict) | `fence.release.sync_restrict::shared::cta.cluster;` | 8.6 / sm_90 |
//! | [`sync_restrict::fence_proxy_async_sync_restrict::<Acquire, SharedCluster>()`](crate::sync_restrict::fence_proxy_async_sync_restrict) | `fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;` | 8.6 / sm_90 |
//! | [`sync_restrict::fence_proxy_async_sync_restrict::<Release, Shared>()`](crate::sync_restrict::fence_proxy_async_sync_restrict) | `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;` | 8.6 / sm_90 |
//!
//! Host: `fence(Acquire)` / `fence(Release)` (one proxy and one memory on the CPU, so the host
//! fence orders *more* than the device's: every access, not only those to the space); under
//! `--cfg loom` an acquire / release fence of `ptx_sync::model` at `.cluster` scope, again not
//! restricted to the space — a protocol that relies on the restriction being absent passes in
//! the model and must be checked against this table. The `fence.proxy.async::generic` forms
//! are also the model's generic → async proxy fence: like `proxy::fence_proxy_async`, they
//! fence the thread's earlier generic accesses of `ptx_sync::model::Tile`s for later
//! async-proxy accesses; the `.sync_restrict::shared::cta` one only for the async-proxy
//! accesses its own CTA issues (a peer CTA's TMA can be ordered after it only through an
//! operation outside this CTA's `.shared::cta`, which the fence does not cover: the model's
//! `"proxy race"` then says so; `loom-tests/tests/pipeline.rs`, the `Cluster` pipeline).
//!
//! ```
//! use ptx_sync::sync_restrict::*;
//! use ptx_sync::{Acquire, Release, Shared, SharedCluster};
//! fence_sync_restrict::<Release, Shared>();            // fence.release.sync_restrict::shared::cta.cluster;
//! fence_proxy_async_sync_restrict::<Acquire, SharedCluster>();
//! assert_eq!(<Release as SyncRestrictInstr<Shared>>::PTX,
//!            "fence.release.sync_restrict::shared::cta.cluster");
//! ```
//!
//! `Acquire` does not go with `.shared::cta`:
//!
//! ```compile_fail
//! ptx_sync::sync_restrict::fence_sync_restrict::<ptx_sync::Acquire, ptx_sync::Shared>();
//! ```

use crate::sem::{FenceSem, Space};

// The rows of `device/isa/sync_restrict.rows`: the trait `SyncRestrictInstr` with one impl per
// legal (semantic, space), its leaves and catalog rows.
include!(concat!(env!("OUT_DIR"), "/isa/sync_restrict.rs"));

/// `fence.sem.sync_restrict::space.cluster;` — a one-directional fence at `.cluster` scope
/// restricted to `Sp`: `(Acquire, SharedCluster)` or `(Release, Shared)`; nothing else
/// compiles. PTX 8.6, sm_90; PTX ISA §9.7.13.4, seed §5.4. Host: see the module docs.
///
/// ```
/// use ptx_sync::sync_restrict::{fence_sync_restrict, SyncRestrictInstr};
/// use ptx_sync::{Acquire, Release, Shared, SharedCluster};
/// fence_sync_restrict::<Release, Shared>(); // fence.release.sync_restrict::shared::cta.cluster;
/// fence_sync_restrict::<Acquire, SharedCluster>();
/// assert_eq!(<Release as SyncRestrictInstr<Shared>>::PTX,
///     "fence.release.sync_restrict::shared::cta.cluster");
/// ```
///
/// The other pairings do not exist in PTX and do not compile:
///
/// ```compile_fail
/// ptx_sync::sync_restrict::fence_sync_restrict::<ptx_sync::Acquire, ptx_sync::Shared>();
/// ```
#[inline(always)]
pub fn fence_sync_restrict<S: FenceSem, Sp: Space>()
where
    S: SyncRestrictInstr<Sp>,
{
    // SAFETY: no operand; the fence has no precondition.
    unsafe { <S as SyncRestrictInstr<Sp>>::fence() }
}

/// `fence.proxy.async::generic.sem.sync_restrict::space.cluster;` — the uni-directional proxy
/// fence between the generic and the async proxy, restricted to `Sp`: `(Release, Shared)`
/// orders this thread's generic accesses to `.shared::cta` before the async-proxy accesses that
/// a later release of a `.shared::cta` mbarrier enables; `(Acquire, SharedCluster)` the other
/// way. PTX 8.6, sm_90; PTX ISA §9.7.13.4, seed §5.3. Host: see the module docs.
///
/// ```
/// use ptx_sync::sync_restrict::{fence_proxy_async_sync_restrict, SyncRestrictInstr};
/// use ptx_sync::{Acquire, Release, Shared, SharedCluster};
/// fence_proxy_async_sync_restrict::<Release, Shared>();
/// assert_eq!(<Acquire as SyncRestrictInstr<SharedCluster>>::PTX_PROXY,
///     "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster");
/// ```
#[inline(always)]
pub fn fence_proxy_async_sync_restrict<S: FenceSem, Sp: Space>()
where
    S: SyncRestrictInstr<Sp>,
{
    // SAFETY: no operand; the fence has no precondition.
    unsafe { <S as SyncRestrictInstr<Sp>>::proxy() }
}
