//! The tiled tensor copies (TMA): `cp.async.bulk.tensor` loads (with `.multicast::cluster`),
//! stores and prefetches of a box at `[i32; D]` coordinates (PTX ISA §9.7.9.25.5). Their rows are
//! [`TensorCoords`]' impls (`copy.rs`); the host arms walk a host-encoded map
//! (`tensor_map.rs`).

#[cfg(not(target_arch = "nvptx64"))]
use super::{engine, Done};
use super::{TensorCoords, TensorMap};
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

#[cfg(not(target_arch = "nvptx64"))]
pub(super) unsafe fn host_tensor_load<Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: &[i32],
    bar: &Mbarrier<Tag>,
) {
    let eb = map.host_elem();
    let mut b = engine::Batch::new();
    let bytes = map.host_box(coords, |off, g| match g {
        Some(a) => b.copy(dst.0 + off, a as *const u8, eb),
        None => b.zero(dst.0 + off, eb),
    });
    b.issue(Done::tx(bar, bytes));
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
) {
    #[cfg(target_arch = "nvptx64")]
    coords.load(dst.0, map as *const TensorMap as u64, bar.shared_addr().0);
    #[cfg(not(target_arch = "nvptx64"))]
    host_tensor_load(dst, map, coords.as_slice(), bar);
}

/// `… .multicast::cluster [d], [map, {c…}], [b], mask;` — into every CTA of `mask`. sm_90
/// (PTX ISA §9.7.9.25.5; sm_90a advised; sm_100a/sm_100f assemble too).
///
/// # Safety
/// As [`cp_async_bulk_tensor_load`], for every CTA in `mask`.
///
/// SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`): `.2d` → `UTMALDG.2D.MULTICAST`.
/// PTX 8.0 / sm_90. Host: a cluster of one CTA. PTX ISA §9.7.9.25.5; seed §5.4.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_tensor_load_multicast, TensorMap}, Mbarrier, Phase, Release, Acquire, Cluster, shared::to_shared};
/// let data = [1u32; 16];
/// let map = TensorMap::host_tiled(data.as_ptr().cast(), 4, &[16], &[], &[4]).unwrap();
/// #[repr(align(128))] struct Tile([u32; 4]);
/// let mut tile = Tile([0; 4]);
/// let full: Mbarrier = Mbarrier::new();
/// full.init(1);
/// let _ = full.arrive_expect_tx::<Release, Cluster>(16);
/// unsafe { cp_async_bulk_tensor_load_multicast(to_shared(tile.0.as_mut_ptr()), &map, [0], &full, 0b1) };
/// assert!(full.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
/// assert_eq!(tile.0, [1; 4]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load_multicast<C: TensorCoords, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    bar: &Mbarrier<Tag>,
    mask: u16,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.load_multicast(
        dst.0,
        map as *const TensorMap as u64,
        bar.shared_addr().0,
        mask,
    );
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = mask;
        host_tensor_load(dst, map, coords.as_slice(), bar);
    }
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
) {
    #[cfg(target_arch = "nvptx64")]
    coords.store(map as *const TensorMap as u64, src.0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let eb = map.host_elem();
        let mut b = engine::Batch::new();
        map.host_box(coords.as_slice(), |off, g| {
            if let Some(a) = g {
                b.copy(a, (src.0 + off) as *const u8, eb);
            }
        });
        b.issue(Done::BulkGroup);
    }
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
pub unsafe fn cp_async_bulk_prefetch_tensor<C: TensorCoords>(map: &TensorMap, coords: C) {
    #[cfg(target_arch = "nvptx64")]
    coords.prefetch(map as *const TensorMap as u64);
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = (map, coords);
}
