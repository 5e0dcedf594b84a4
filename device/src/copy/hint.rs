//! The `.L2::cache_hint` forms of `cp.async` and the bulk copies: the same copies as [`cp_async`],
//! [`cp_async_zfill`],
//! [`cp_async_bulk_g2s`], [`cp_async_bulk_g2s_multicast`], [`cp_async_bulk_s2g`],
//! [`cp_async_bulk_prefetch`] and the tensor copies, with a
//! `cache-policy` operand made by [`createpolicy`](crate::policy::createpolicy). PTX ISA
//! §9.7.9.25.4 (`cp.async.bulk`, `cp.async.bulk.prefetch`): `.level::cache_hint =
//! { .L2::cache_hint }`, the policy the last operand. PTX 8.0, sm_90. Seed §5.2. The hint is
//! a performance hint: it changes no ordering and no result (host: the copy without it).
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`cp_async_hint`], [`cp_async_zfill_hint`] (`unsafe`) | `cp.async.{ca,cg}.shared::cta.global.L2::cache_hint [d], [s], N{, src_size}, policy;` (LDGSTS, PTX ISA §9.7.9.25.3) | 7.4 (`::cta` 7.8) / sm_80 |
//! | [`cp_async_bulk_g2s_hint`] (`unsafe`) | `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [d], [s], n, [b], policy;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_g2s_multicast_hint`] (`unsafe`) | `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [d], [s], n, [b], mask, policy;` | 8.0 / sm_90 (sm_90a advised) |
//! | [`cp_async_bulk_s2g_hint`] (`unsafe`) | `cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [d], [s], n, policy;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch_hint`] (`unsafe`) | `cp.async.bulk.prefetch.L2.global.L2::cache_hint [s], n, policy;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_hint`] (`unsafe`) | `cp.async.bulk.tensor.Dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [d], [map, {c…}], [b], policy;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_multicast_hint`] (`unsafe`) | `cp.async.bulk.tensor.Dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [d], [map, {c…}], [b], mask, policy;` | 8.0 / sm_90 (sm_90a advised) |
//! | [`cp_async_bulk_tensor_store_hint`] (`unsafe`) | `cp.async.bulk.tensor.Dd.global.shared::cta.tile.bulk_group.L2::cache_hint [map, {c…}], [s], policy;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch_tensor_hint`] (`unsafe`) | `cp.async.bulk.prefetch.tensor.Dd.L2.global.tile.L2::cache_hint [map, {c…}], policy;` | 8.0 / sm_90 |
//!
//! The tensor forms are §9.7.9.25.5 (`cp.async.bulk.tensor`, `cp.async.bulk.prefetch.tensor`),
//! one row per rank `D` ∈ 1..=5 ([`TensorCoords`], implemented for `[i32; D]`). Each hinted form
//! is a row of the same table as its plain form (`bulk_instr!`, `tensor_op!` in `copy.rs`).

use super::*;
use crate::policy::CachePolicy;

/// [`cp_async_bulk_g2s`] with `.L2::cache_hint`: the global reads use `policy`.
/// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [d], [s], n, [b], policy;`
/// — PTX 8.0, sm_90; PTX ISA §9.7.9.25.4, seed §5.2.
///
/// # Safety
/// As [`cp_async_bulk_g2s`]; `policy` made by [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{copy::cp_async_bulk_g2s_hint, policy::*, shared::to_shared, Mbarrier};
/// let src = [1u8; 16];
/// let mut dst = [0u8; 16];
/// let bar: Mbarrier = Mbarrier::new();
/// bar.init(1);
/// let _t = bar.arrive_expect_tx::<ptx_sync::Release, ptx_sync::Cta>(16);
/// let pol = createpolicy::<EvictFirst, NoSecondary>(1.0);
/// unsafe { cp_async_bulk_g2s_hint(to_shared(dst.as_mut_ptr()), src.as_ptr(), 16, &bar, pol) };
/// assert_eq!(dst, src);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_g2s_hint<Tag>(
    dst: SharedAddr,
    src: *const u8,
    bytes: u32,
    bar: &Mbarrier<Tag>,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    {
        check_bulk(bytes);
        CpAsyncBulkG2SHint::exec(dst.0, src as u64, bytes, bar.shared_addr().0, policy.0);
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_bulk_g2s(dst, src, bytes, bar)
    }
}

/// [`cp_async_bulk_g2s_multicast`] with `.L2::cache_hint`: the multicast copy whose global reads
/// use `policy`. `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint
/// [d], [s], n, [b], mask, policy;` — PTX ISA §9.7.9.25.4 (`{.multicast}{.level::cache_hint}`,
/// operands `[mbar] {, ctaMask} {, cache-policy}`); PTX 8.0, sm_90 (sm_90a advised; sm_100a and
/// sm_100f assemble too); seed §5.4. Host: as [`cp_async_bulk_g2s_multicast`] (a cluster of one
/// CTA; the hint changes no result).
///
/// # Safety
/// As [`cp_async_bulk_g2s_multicast`]; `policy` made by [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{copy::cp_async_bulk_g2s_multicast_hint, policy::*, shared::to_shared, Mbarrier, Phase};
/// #[repr(align(16))] struct A([u8; 16]);
/// let (src, mut dst) = (A([4; 16]), A([0; 16]));
/// let bar: Mbarrier = Mbarrier::new();
/// bar.init(1);
/// let _t = bar.arrive_expect_tx::<ptx_sync::Release, ptx_sync::Cluster>(16);
/// let pol = createpolicy::<EvictLast, NoSecondary>(1.0);
/// unsafe { cp_async_bulk_g2s_multicast_hint(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 16, &bar, 0b1, pol) };
/// assert!(bar.try_wait_parity::<ptx_sync::Acquire, ptx_sync::Cluster>(Phase::ZERO));
/// assert_eq!(dst.0, [4; 16]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_g2s_multicast_hint<Tag>(
    dst: SharedAddr,
    src: *const u8,
    bytes: u32,
    bar: &Mbarrier<Tag>,
    mask: u16,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    {
        check_bulk(bytes);
        CpAsyncBulkG2SMulticastHint::exec(
            dst.0,
            src as u64,
            bytes,
            bar.shared_addr().0,
            mask,
            policy.0,
        );
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_bulk_g2s_multicast(dst, src, bytes, bar, mask)
    }
}

/// [`cp_async_bulk_s2g`] with `.L2::cache_hint`: the global writes use `policy`.
/// `cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [d], [s], n, policy;` — PTX 8.0,
/// sm_90; PTX ISA §9.7.9.25.4, seed §5.2.
///
/// # Safety
/// As [`cp_async_bulk_s2g`].
#[inline(always)]
pub unsafe fn cp_async_bulk_s2g_hint(
    dst: *mut u8,
    src: SharedAddr,
    bytes: u32,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    {
        check_bulk(bytes);
        CpAsyncBulkS2GHint::exec(dst as u64, src.0, bytes, policy.0);
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_bulk_s2g(dst, src, bytes)
    }
}

/// [`cp_async_bulk_prefetch`] with `.L2::cache_hint`: the prefetched lines get `policy`.
/// `cp.async.bulk.prefetch.L2.global.L2::cache_hint [s], n, policy;` — PTX 8.0, sm_90; PTX ISA
/// §9.7.9.25.4, seed §5.2. Host: nothing.
///
/// # Safety
/// As [`cp_async_bulk_prefetch`].
#[inline(always)]
pub unsafe fn cp_async_bulk_prefetch_hint(src: *const u8, bytes: u32, policy: CachePolicy) {
    #[cfg(target_arch = "nvptx64")]
    {
        check_bulk(bytes);
        CpAsyncBulkPrefetchHint::exec(src as u64, bytes, policy.0);
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_bulk_prefetch(src, bytes)
    }
}

/// The `.L2::cache_hint` tensor copies are methods of [`TensorCoords`] (`PTX_LOAD_HINT`, …):
/// each hinted form is the same table row as its plain form.
pub use super::TensorCoords as TensorCoordsHint;

/// [`cp_async_bulk_tensor_load`] with `.L2::cache_hint`. PTX 8.0, sm_90; PTX ISA §9.7.9.25.5,
/// seed §5.2. Host: the load without the hint.
///
/// # Safety
/// As [`cp_async_bulk_tensor_load`].
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load_hint<C: TensorCoords, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    bar: &Mbarrier<Tag>,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.load_hint(
        dst.0,
        map as *const TensorMap as u64,
        bar.shared_addr().0,
        policy.0,
    );
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_bulk_tensor_load(dst, map, coords, bar)
    }
}

/// [`cp_async_bulk_tensor_load_multicast`] with `.L2::cache_hint`:
/// `cp.async.bulk.tensor.Dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint
/// [d], [map, {c…}], [b], mask, policy;` — PTX ISA §9.7.9.25.5 (`{.multicast}{.cta_group}{.level::cache_hint}`,
/// operands `[mbar] {, im2colInfo} {, ctaMask} {, cache-policy}`); PTX 8.0, sm_90 (sm_90a
/// advised); seed §5.4. Host: as [`cp_async_bulk_tensor_load_multicast`] (the hint changes no
/// result).
///
/// # Safety
/// As [`cp_async_bulk_tensor_load_multicast`]; `policy` made by
/// [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_tensor_load_multicast_hint, TensorMap}, policy::*, Mbarrier, Phase, Release, Acquire, Cluster, shared::to_shared};
/// let data = [2u32; 16];
/// let map = TensorMap::host_tiled(data.as_ptr().cast(), 4, &[16], &[], &[4]).unwrap();
/// #[repr(align(128))] struct Tile([u32; 4]);
/// let mut tile = Tile([0; 4]);
/// let full: Mbarrier = Mbarrier::new();
/// full.init(1);
/// let _ = full.arrive_expect_tx::<Release, Cluster>(16);
/// let pol = createpolicy::<EvictFirst, NoSecondary>(1.0);
/// unsafe { cp_async_bulk_tensor_load_multicast_hint(to_shared(tile.0.as_mut_ptr()), &map, [4], &full, 0b1, pol) };
/// assert!(full.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
/// assert_eq!(tile.0, [2; 4]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load_multicast_hint<C: TensorCoords, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    bar: &Mbarrier<Tag>,
    mask: u16,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.load_multicast_hint(
        dst.0,
        map as *const TensorMap as u64,
        bar.shared_addr().0,
        mask,
        policy.0,
    );
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_bulk_tensor_load_multicast(dst, map, coords, bar, mask)
    }
}

/// [`cp_async_bulk_tensor_store`] with `.L2::cache_hint`. PTX 8.0, sm_90; PTX ISA §9.7.9.25.5,
/// seed §5.2. Host: the store without the hint.
///
/// # Safety
/// As [`cp_async_bulk_tensor_store`].
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_store_hint<C: TensorCoords>(
    map: &TensorMap,
    coords: C,
    src: SharedAddr,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.store_hint(map as *const TensorMap as u64, src.0, policy.0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_bulk_tensor_store(map, coords, src)
    }
}

/// [`cp_async_bulk_prefetch_tensor`] with `.L2::cache_hint`. PTX 8.0, sm_90; PTX ISA
/// §9.7.9.25.5, seed §5.2. Host: nothing.
///
/// # Safety
/// As [`cp_async_bulk_prefetch_tensor`].
#[inline(always)]
pub unsafe fn cp_async_bulk_prefetch_tensor_hint<C: TensorCoords>(
    map: &TensorMap,
    coords: C,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.prefetch_hint(map as *const TensorMap as u64, policy.0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_bulk_prefetch_tensor(map, coords)
    }
}

/// [`cp_async`] with `.L2::cache_hint`: the global read uses `policy`.
/// `cp.async{.ca,.cg}.shared::cta.global.L2::cache_hint [d], [s], BYTES, policy;` — PTX 7.4
/// (`.shared::cta` 7.8), sm_80; PTX ISA §9.7.9.25.3 (`.level::cache_hint`), seed §5.1. A
/// performance hint: same ordering and result (host: the copy without it).
///
/// # Safety
/// As [`cp_async`]; `policy` made by [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{copy::{cp_async_hint, cp_async_wait_all, Cg, CpAsyncInstr}, policy::*, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 16]);
/// let (src, mut dst) = (A([3; 16]), A([0; 16]));
/// let pol = createpolicy::<EvictFirst, NoSecondary>(1.0);
/// unsafe { cp_async_hint::<Cg, 16>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), pol) };
/// cp_async_wait_all();
/// assert_eq!(dst.0, [3; 16]);
/// assert_eq!(<Cg as CpAsyncInstr<16>>::PTX_HINT, "cp.async.cg.shared::cta.global.L2::cache_hint");
/// ```
#[inline(always)]
pub unsafe fn cp_async_hint<C: CacheOp, const BYTES: usize>(
    dst: SharedAddr,
    src: *const u8,
    policy: CachePolicy,
) where
    C: CpAsyncInstr<BYTES>,
{
    #[cfg(target_arch = "nvptx64")]
    <C as CpAsyncInstr<BYTES>>::exec_hint(dst.0, src as u64, policy.0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async::<C, BYTES>(dst, src)
    }
}

/// [`cp_async_zfill`] with `.L2::cache_hint`.
/// `cp.async{.ca,.cg}.shared::cta.global.L2::cache_hint [d], [s], BYTES, src_size, policy;` —
/// PTX 7.4 (`.shared::cta` 7.8), sm_80; PTX ISA §9.7.9.25.3, seed §5.1. Host: the copy without
/// the hint.
///
/// # Safety
/// As [`cp_async_zfill`]; `policy` made by [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{copy::{cp_async_zfill_hint, cp_async_wait_all, Ca}, policy::*, shared::to_shared};
/// #[repr(align(8))] struct A([u8; 8]);
/// let (src, mut dst) = (A([1; 8]), A([9; 8]));
/// let pol = createpolicy::<EvictLast, NoSecondary>(0.5);
/// unsafe { cp_async_zfill_hint::<Ca, 8>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 3, pol) };
/// cp_async_wait_all();
/// assert_eq!(dst.0, [1, 1, 1, 0, 0, 0, 0, 0]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_zfill_hint<C: CacheOp, const BYTES: usize>(
    dst: SharedAddr,
    src: *const u8,
    src_size: u32,
    policy: CachePolicy,
) where
    C: CpAsyncInstr<BYTES>,
{
    #[cfg(target_arch = "nvptx64")]
    {
        crate::copy::check_src_size::<BYTES>(src_size);
        <C as CpAsyncInstr<BYTES>>::exec_zfill_hint(dst.0, src as u64, src_size, policy.0);
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_zfill::<C, BYTES>(dst, src, src_size)
    }
}
