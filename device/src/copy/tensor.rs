//! The tiled tensor copies (TMA): `cp.async.bulk.tensor` loads, stores and prefetches of a box
//! at `[i32; D]` coordinates (PTX ISA §9.7.9.25.5), each with its modifiers ([`Mods`]:
//! `.multicast::cluster` for a load, `.L2::cache_hint` for all). Their rows are
//! `device/isa/copy.rows` (the traits [`TensorLoadInstr`], [`TensorStoreInstr`],
//! [`TensorPrefetchInstr`]); the host arms walk a host-encoded map (`tensor_map.rs`).

use super::{
    L2Hint, Mods, Multicast, TensorCoords, TensorLoadInstr, TensorMap, TensorPrefetchInstr,
    TensorStoreInstr, ThisCta,
};
use crate::mbarrier::Mbarrier;
use crate::shared::SharedAddr;

/// Host view of coordinates (a slice); implemented for every `[i32; N]`.
#[doc(hidden)]
pub trait TensorCoordsHost {
    #[doc(hidden)]
    fn as_slice(&self) -> &[i32];
}
impl<const N: usize> TensorCoordsHost for [i32; N] {
    fn as_slice(&self) -> &[i32] {
        self
    }
}

/// `cp.async.bulk.tensor.Dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes
/// [d], [map, {c0, …}], [b];` — loads the box at `coords` described by `map`; out-of-bounds
/// elements are zero-filled and the full box's bytes complete on `bar`. PTX 8.0, sm_90.
///
/// # Safety
/// `map` a valid tensor map in param/const/global memory; `dst` 128-byte aligned (PTX ISA
/// §9.7.9.25.5: the shared-memory destination of `cp.async.bulk.tensor` must be 128-byte
/// aligned, whatever the map's swizzle) with room for the box.
///
/// `C` = `[i32; D]`, `D` ∈ 1..=5 (the `.Dd` token). SASS (ptxas 13.0.88, sm_90a,
/// `host/tests/sass_async.rs`): `.2d` → `UTMALDG.2D`. PTX ISA §9.7.9.25.5; seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_tensor_load, TensorMap}, Mbarrier, Phase, Release, Acquire, Cta, shared::to_shared};
/// let data: Vec<u32> = (0..64).collect(); // an 8 × 8 tensor, row-major
/// let map = TensorMap::host_tiled(data.as_ptr().cast(), 4, &[8, 8], &[32], &[4, 4]).unwrap();
/// #[repr(align(128))] struct Tile([u32; 16]);
/// let mut tile = Tile([0; 16]);
/// let full: Mbarrier = Mbarrier::new();
/// full.init(1);
/// let _ = full.arrive_expect_tx::<Release, Cta>(64);
/// unsafe { cp_async_bulk_tensor_load(to_shared(tile.0.as_mut_ptr()), &map, [6, 0], &full) };
/// assert!(full.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
/// assert_eq!(tile.0[..4], [6, 7, 0, 0]); // columns 8 and 9 are out of bounds: zero-filled
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load<C: TensorCoords, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    bar: &Mbarrier<Tag>,
) where
    C: TensorLoadInstr<ThisCta, super::NoHint>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { cp_async_bulk_tensor_load_with(dst, map, coords, bar, Mods::NONE) }
}

/// [`cp_async_bulk_tensor_load`] with its modifiers: `…{.multicast::cluster}{.L2::cache_hint}
/// [d], [map, {c…}], [b]{, mask}{, policy};` — [`Mods::multicast`] loads the box into every CTA
/// of the mask (sm_90, PTX ISA §9.7.9.25.5; sm_90a advised, sm_100a/sm_100f assemble too),
/// [`Mods::cache_hint`] adds `.L2::cache_hint` (the policy last).
///
/// # Safety
/// As [`cp_async_bulk_tensor_load`], for every CTA in the mask.
///
/// SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`): `.2d` multicast →
/// `UTMALDG.2D.MULTICAST`. PTX 8.0 / sm_90. Host: a cluster of one CTA; the hint is a hint.
/// PTX ISA §9.7.9.25.5; seed §5.2, §5.4.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_tensor_load_with, Mods, TensorMap}, Mbarrier, Phase, Release, Acquire, Cluster, shared::to_shared};
/// let data = [1u32; 16];
/// let map = TensorMap::host_tiled(data.as_ptr().cast(), 4, &[16], &[], &[4]).unwrap();
/// #[repr(align(128))] struct Tile([u32; 4]);
/// let mut tile = Tile([0; 4]);
/// let full: Mbarrier = Mbarrier::new();
/// full.init(1);
/// let _ = full.arrive_expect_tx::<Release, Cluster>(16);
/// unsafe { cp_async_bulk_tensor_load_with(to_shared(tile.0.as_mut_ptr()), &map, [0], &full, Mods::NONE.multicast(0b1)) };
/// assert!(full.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
/// assert_eq!(tile.0, [1; 4]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load_with<C: TensorCoords, Tag, M: Multicast, H: L2Hint>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    bar: &Mbarrier<Tag>,
    mods: Mods<M, H>,
) where
    C: TensorLoadInstr<M, H>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { coords.load(dst, map, bar, mods) }
}

/// `cp.async.bulk.tensor.Dd.global.shared::cta.tile.bulk_group [map, {c…}], [s];` — stores a
/// box (out-of-bounds elements are not written); bulk-group completion.
///
/// # Safety
/// As [`cp_async_bulk_tensor_load`].
///
/// SASS: not recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.5; seed §5.3 (fence
/// the generic writes of the source with `fence.proxy.async` first).
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_tensor_store, cp_async_bulk_commit_group, cp_async_bulk_wait_group, TensorMap}, proxy::fence_proxy_async, Shared, shared::to_shared};
/// let mut out = [0u32; 8];
/// let map = TensorMap::host_tiled(out.as_mut_ptr().cast_const().cast(), 4, &[8], &[], &[4]).unwrap();
/// #[repr(align(128))] struct Tile([u32; 4]);
/// let tile = Tile([9; 4]);
/// fence_proxy_async::<Shared>();
/// unsafe { cp_async_bulk_tensor_store(&map, [6], to_shared(tile.0.as_ptr())) };
/// cp_async_bulk_commit_group();
/// cp_async_bulk_wait_group::<0>();
/// assert_eq!(out, [0, 0, 0, 0, 0, 0, 9, 9]); // elements 8 and 9 are out of bounds: not written
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_store<C: TensorCoords>(
    map: &TensorMap,
    coords: C,
    src: SharedAddr,
) where
    C: TensorStoreInstr<super::NoHint>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { cp_async_bulk_tensor_store_with(map, coords, src, Mods::NONE) }
}

/// [`cp_async_bulk_tensor_store`] with its modifier: `….bulk_group{.L2::cache_hint} [map, {c…}],
/// [s]{, policy};` — [`Mods::cache_hint`] (PTX ISA §9.7.9.25.5). A store has no multicast.
///
/// # Safety
/// As [`cp_async_bulk_tensor_store`].
///
/// PTX 8.0 / sm_90. Host: as the plain store. Seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_tensor_store_with, cp_async_bulk_commit_group, cp_async_bulk_wait_group, Mods, TensorMap}, policy::CachePolicy, shared::to_shared};
/// let mut out = [0u32; 4];
/// let map = TensorMap::host_tiled(out.as_mut_ptr().cast_const().cast(), 4, &[4], &[], &[4]).unwrap();
/// #[repr(align(128))] struct Tile([u32; 4]);
/// let tile = Tile([2; 4]);
/// unsafe { cp_async_bulk_tensor_store_with(&map, [0], to_shared(tile.0.as_ptr()), Mods::NONE.cache_hint(CachePolicy(0))) };
/// cp_async_bulk_commit_group();
/// cp_async_bulk_wait_group::<0>();
/// assert_eq!(out, [2; 4]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_store_with<C: TensorCoords, H: L2Hint>(
    map: &TensorMap,
    coords: C,
    src: SharedAddr,
    mods: Mods<ThisCta, H>,
) where
    C: TensorStoreInstr<H>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { coords.store(map, src, mods) }
}

/// `cp.async.bulk.prefetch.tensor.Dd.L2.global.tile [map, {c…}];` — a hint.
///
/// # Safety
/// `map` a valid tensor map.
///
/// SASS: not recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.5. Host: nothing.
///
/// # Examples
///
/// ```
/// use ptx_sync::copy::{cp_async_bulk_prefetch_tensor, TensorMap};
/// let data = [0u32; 16];
/// let map = TensorMap::host_tiled(data.as_ptr().cast(), 4, &[16], &[], &[4]).unwrap();
/// unsafe { cp_async_bulk_prefetch_tensor(&map, [4]) };
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_prefetch_tensor<C: TensorCoords>(map: &TensorMap, coords: C)
where
    C: TensorPrefetchInstr<super::NoHint>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { cp_async_bulk_prefetch_tensor_with(map, coords, Mods::NONE) }
}

/// [`cp_async_bulk_prefetch_tensor`] with its modifier: `….tile{.L2::cache_hint} [map, {c…}]{,
/// policy};` — [`Mods::cache_hint`] (PTX ISA §9.7.9.25.5). Host: nothing.
///
/// # Safety
/// As [`cp_async_bulk_prefetch_tensor`].
///
/// PTX 8.0 / sm_90. Seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_prefetch_tensor_with, Mods, TensorMap}, policy::CachePolicy};
/// let data = [0u32; 16];
/// let map = TensorMap::host_tiled(data.as_ptr().cast(), 4, &[16], &[], &[4]).unwrap();
/// unsafe { cp_async_bulk_prefetch_tensor_with(&map, [4], Mods::NONE.cache_hint(CachePolicy(0))) };
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_prefetch_tensor_with<C: TensorCoords, H: L2Hint>(
    map: &TensorMap,
    coords: C,
    mods: Mods<ThisCta, H>,
) where
    C: TensorPrefetchInstr<H>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { coords.prefetch(map, mods) }
}
