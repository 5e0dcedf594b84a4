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
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`fence_sync_restrict::<Acquire, SharedCluster>`](fence_sync_restrict) | `fence.acquire.sync_restrict::shared::cluster.cluster;` | 8.6 / sm_90 |
//! | [`fence_sync_restrict::<Release, Shared>`](fence_sync_restrict) | `fence.release.sync_restrict::shared::cta.cluster;` | 8.6 / sm_90 |
//! | [`fence_proxy_async_sync_restrict::<Acquire, SharedCluster>`](fence_proxy_async_sync_restrict) | `fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;` | 8.6 / sm_90 |
//! | [`fence_proxy_async_sync_restrict::<Release, Shared>`](fence_proxy_async_sync_restrict) | `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;` | 8.6 / sm_90 |
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

use crate::sem::tok;
#[allow(unused_imports)]
use crate::sem::{Acquire, Cluster, FenceSem, Release, Shared, SharedCluster, Space};
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// The restricted fences of one (semantic, space): `fence.sem.sync_restrict::space.cluster` and
/// `fence.proxy.async::generic.sem.sync_restrict::space.cluster`.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `fence.{Self}.sync_restrict` on `{Sp}`: acquire takes SharedCluster, release takes Shared",
    label = "not a restricted-fence pairing",
    note = "PTX ISA §9.7.13.4: `fence.acquire.sync_restrict::shared::cluster.cluster`, `fence.release.sync_restrict::shared::cta.cluster` (PTX 8.6)"
)]
pub unsafe trait SyncRestrictInstr<Sp: Space>: FenceSem {
    /// `"fence.<sem>.sync_restrict::<space>.cluster"`.
    const PTX: &'static str;
    /// `"fence.proxy.async::generic.<sem>.sync_restrict::<space>.cluster"`.
    const PTX_PROXY: &'static str;
    #[doc(hidden)]
    #[cfg(not(target_arch = "nvptx64"))]
    const HOST: core::sync::atomic::Ordering;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn fence();
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn proxy();
}

/// The table: one row per (semantic, space), `$leaf! { Sem Space }`. Exported as the row list
/// `ptx_sync::sync_restrict_rows!(leaf)`, which the catalog kernels instantiate.
#[doc(hidden)]
#[macro_export]
macro_rules! sync_restrict_rows {
    ($leaf:ident) => {
        $leaf! { Acquire SharedCluster }
        $leaf! { Release Shared }
    };
}

macro_rules! restrict_leaf {
    ($S:ident $Sp:ident) => {
        restrict_leaf! { @ (concat!("fence", tok!($S), tok!(SyncRestrict $Sp), tok!(Cluster)))
                           (concat!("fence.proxy", tok!(AsyncGeneric), tok!($S), tok!(SyncRestrict $Sp), tok!(Cluster)))
                           $S $Sp }
    };
    (@ ($($f:tt)*) ($($p:tt)*) $S:ident $Sp:ident) => {
        unsafe impl SyncRestrictInstr<$Sp> for $S {
            const PTX: &'static str = $($f)*;
            const PTX_PROXY: &'static str = $($p)*;
            #[cfg(not(target_arch = "nvptx64"))]
            const HOST: core::sync::atomic::Ordering = core::sync::atomic::Ordering::$S;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn fence() { asm!(crate::instr::asm_text!(none; (none); $($f)*), options(nostack, preserves_flags)); }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn proxy() { asm!(crate::instr::asm_text!(none; (none); $($p)*), options(nostack, preserves_flags)); }
        }
    };
}
crate::sync_restrict_rows! { restrict_leaf }

#[cfg(not(target_arch = "nvptx64"))]
#[inline(always)]
fn host<S: SyncRestrictInstr<Sp>, Sp: Space>(ptx: &'static str) {
    #[cfg(not(loom))]
    {
        let _ = ptx;
        crate::backend::host::host_fence(<S as SyncRestrictInstr<Sp>>::HOST);
    }
    #[cfg(loom)]
    {
        let kind = match <S as SyncRestrictInstr<Sp>>::HOST {
            core::sync::atomic::Ordering::Acquire => crate::model::FenceKind::Acquire,
            _ => crate::model::FenceKind::Release,
        };
        crate::model::fence(kind, <Cluster as crate::sem::Scope>::LEVEL, ptx);
    }
}

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
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        <S as SyncRestrictInstr<Sp>>::fence()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    host::<S, Sp>(<S as SyncRestrictInstr<Sp>>::PTX);
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
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        <S as SyncRestrictInstr<Sp>>::proxy()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    host::<S, Sp>(<S as SyncRestrictInstr<Sp>>::PTX_PROXY);
    // `.async::generic`: a generic → async proxy fence (PTX ISA §9.7.13.4), so under loom it
    // fences the thread's earlier generic accesses of `model::Tile`s, as `fence_proxy_async` does;
    // `.sync_restrict::shared::cta` only for the async accesses its own CTA issues.
    #[cfg(loom)]
    if <S as SyncRestrictInstr<Sp>>::PTX_PROXY.contains("sync_restrict::shared::cta") {
        crate::backend::copy_engine::fence_proxy_async_restricted();
    } else {
        crate::backend::copy_engine::fence_proxy_async();
    }
}

#[allow(unused)]
fn _markers(_: (Acquire, Release, Shared, SharedCluster)) {}

/// Catalog rows of this module (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Marker as M, Variant};
    macro_rules! row {
        ($S:ident $Sp:ident) => {
            let v = Variant {
                sem: M::$S,
                scope: M::Cluster,
                space: M::$Sp,
                sm: 90,
                ptx_isa: 86,
                isa: "9.7.13.4",
                ..Variant::EMPTY
            };
            f(crate::instr::with_ops!(none; (none); Variant {
                family: "fence.sync_restrict",
                ptx: <$S as SyncRestrictInstr<$Sp>>::PTX,
                rust: concat!(
                    "sync_restrict::fence_sync_restrict::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sp),
                    ">()"
                ),
                seed: "5.4",
                ..v
            }));
            f(crate::instr::with_ops!(none; (none); Variant {
                family: "fence.proxy.async::generic",
                ptx: <$S as SyncRestrictInstr<$Sp>>::PTX_PROXY,
                rust: concat!(
                    "sync_restrict::fence_proxy_async_sync_restrict::<",
                    stringify!($S),
                    ", ",
                    stringify!($Sp),
                    ">()"
                ),
                seed: "5.3",
                ..v
            }));
        };
    }
    crate::sync_restrict_rows! { row }
}
