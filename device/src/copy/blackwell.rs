//! The Blackwell-era bulk-copy (TMA) forms (PTX 8.6): a `.shared::cta` destination for
//! `cp.async.bulk`, `.cta_group::{1,2}` on tensor loads, the 2-D `.tile::gather4` load and
//! `.tile::scatter4` store (four rows at once), and the byte-masked `.cp_mask` store. PTX ISA
//! §9.7.9.25.4 (`cp.async.bulk`), §9.7.9.25.5 (`cp.async.bulk.tensor`); seed §5.2–§5.3 (each
//! load completes on an mbarrier's tx-count, each store on a bulk group).
//!
//! <!-- generated from device/isa/copy_blackwell.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`copy::blackwell::cp_async_bulk_g2s_cta`](crate::copy::blackwell::cp_async_bulk_g2s_cta) | `cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [sd], [g], n, [b];` | 8.6 / sm_90 |
//! | [`copy::blackwell::cp_async_bulk_tensor_load_cta_group`](crate::copy::blackwell::cp_async_bulk_tensor_load_cta_group) | `cp.async.bulk.tensor.{1d,2d,3d,4d,5d}.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::{1,2} [sd], [m, {…}], [b];` | 8.6 / sm_100 (**sm_100a**) |
//! | [`copy::blackwell::cp_async_bulk_tensor_gather4::<Shared>`](crate::copy::blackwell::cp_async_bulk_tensor_gather4) | `cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes [sd], [m, {c0, c1, c2, c3, c4}], [b];` | 8.6 / sm_100 |
//! | [`copy::blackwell::cp_async_bulk_tensor_gather4::<SharedCluster>`](crate::copy::blackwell::cp_async_bulk_tensor_gather4) | `cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes [sd], [m, {c0, c1, c2, c3, c4}], [b];` | 8.6 / sm_100 (**sm_100a**) |
//! | [`copy::blackwell::cp_async_bulk_tensor_scatter4`](crate::copy::blackwell::cp_async_bulk_tensor_scatter4) | `cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [m, {c0, c1, c2, c3, c4}], [ss];` | 8.6 / sm_100 (**sm_100a**) |
//! | [`copy::blackwell::cp_async_bulk_s2g_cp_mask`](crate::copy::blackwell::cp_async_bulk_s2g_cp_mask) | `cp.async.bulk.global.shared::cta.bulk_group.cp_mask [g], [ss], n, k;` | 8.6 / sm_100 |
//!
//! SM floors as ptxas 13.0 enforces them (measured; `tests/ptxas_arch.rs`): the `.shared::cta`
//! destination assembles on sm_90 (PTX 8.6); `.cta_group`, `.tile::scatter4` and a
//! `.shared::cluster` gather4 are rejected on sm_90, sm_90a and sm_100; a `.shared::cta` gather4
//! and `.cp_mask` are rejected below sm_100. On nvptx64 each item exists only in a build with
//! its target (`target_feature = "sm_100"` / `"sm_100a"`).
//!
//! Host backend (`backend/host/copy.rs`): the `.shared::cta` load and the masked store copy at issue (as the other
//! host copies, [`crate::copy`]); a `.cta_group` load is the plain tensor load (a cluster of
//! one CTA); gather4/scatter4 run on a 2-D tiled host map (`TensorMap::host_tiled*`): each of
//! the four rows is a one-row box of the map's box width at `(x, yᵢ)`, row `i` at `i · width`
//! elements of the shared buffer; out-of-bounds elements are zero-filled by gather4 and skipped
//! by scatter4, as by the tile load and store (the map's box height is not used: the driver
//! requires 1 for these modes).
//!
//! ```
//! use ptx_sync::copy::blackwell::*;
//! use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cta, shared::to_shared};
//! #[repr(align(16))] struct A([u8; 32]);
//! let (src, mut dst) = (A([5; 32]), A([0; 32]));
//! let full: Mbarrier = Mbarrier::new();
//! full.init(1);
//! let _ = full.arrive_expect_tx::<Release, Cta>(32);
//! // cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [d], [s], 32, [b];
//! unsafe { cp_async_bulk_g2s_cta(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 32, &full) };
//! assert!(full.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
//! assert_eq!(dst.0, [5; 32]);
//! ```

use super::{check_bulk, TensorCoords, TensorMap};
use crate::mbarrier::Mbarrier;
#[allow(unused_imports)]
use crate::sem::{Shared, SharedCluster};
use crate::shared::SharedAddr;

// The markers `CpAsyncBulkG2SCta`, `CpAsyncBulkS2GCpMask`, `CpAsyncBulkTensorScatter4`, the
// traits `CtaGroupLoad`, `Gather4Dst` and their impls, with the `asm!` leaves, host arms and
// catalog rows: generated from device/isa/copy_blackwell.rows.
include!(concat!(env!("OUT_DIR"), "/isa/copy_blackwell.rs"));

/// `cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [d], [s], n, [b];` — copies
/// `bytes` from global memory into **this CTA's** shared memory at `dst`; completion is a
/// `complete_tx` of `bytes` on `bar` (in this CTA). PTX 8.6, sm_90 (the `.shared::cta`
/// spelling of the destination; `.shared::cluster` is [`super::cp_async_bulk_g2s`]); PTX ISA
/// §9.7.9.25.4, seed §5.2.
///
/// # Safety
/// `dst` and `src` 16-byte aligned and valid for `bytes` (a multiple of 16, checked), `dst` in
/// this CTA; `bar` expects the bytes (`arrive_expect_tx`); nothing reads `dst` before the phase
/// completes.
///
/// ```
/// use ptx_sync::{copy::blackwell::{cp_async_bulk_g2s_cta, CpAsyncBulkG2SCta}, instr::Instr};
/// assert_eq!(CpAsyncBulkG2SCta::PTX, "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes");
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_g2s_cta<Tag>(
    dst: SharedAddr,
    src: *const u8,
    bytes: u32,
    bar: &Mbarrier<Tag>,
) {
    check_bulk(bytes);
    unsafe { CpAsyncBulkG2SCta::exec(dst, src, bytes, bar) }
}

/// `cp.async.bulk.global.shared::cta.bulk_group.cp_mask [d], [s], n, mask;` — the TMA store
/// of `bytes` from shared `src` to global `dst`, writing byte `i` of each 16-byte chunk only if
/// bit `i` of `mask` is set; completes through bulk groups (`cp_async_bulk_commit_group` /
/// `cp_async_bulk_wait_group`). PTX 8.6, sm_100; PTX ISA §9.7.9.25.4, seed §5.3.
///
/// # Safety
/// As `cp_async_bulk_s2g`: `dst` global and `src` shared, 16-byte aligned, valid for `bytes`
/// (a multiple of 16, checked); `src` not written until the group completes reading.
///
/// ```
/// use ptx_sync::{copy::blackwell::cp_async_bulk_s2g_cp_mask, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 32]);
/// let (src, mut dst) = (A([9; 32]), A([0; 32]));
/// unsafe { cp_async_bulk_s2g_cp_mask(dst.0.as_mut_ptr(), to_shared(src.0.as_ptr()), 32, 0b101) };
/// assert_eq!(&dst.0[..4], &[9, 0, 9, 0]);
/// assert_eq!(&dst.0[16..19], &[9, 0, 9]);
/// ```
#[cfg(any(doc, not(target_arch = "nvptx64"), target_feature = "sm_100"))]
#[inline(always)]
pub unsafe fn cp_async_bulk_s2g_cp_mask(dst: *mut u8, src: SharedAddr, bytes: u32, mask: u16) {
    check_bulk(bytes);
    unsafe { CpAsyncBulkS2GCpMask::exec(dst, src, bytes, mask) }
}

/// `.cta_group::1` / `.cta_group::2` of a tensor load (the CTA pair of a Blackwell 2-SM MMA).
pub trait CtaGroup: Copy + Default + 'static {
    /// `".cta_group::1"` / `".cta_group::2"`.
    const PTX: &'static str;
}
/// `.cta_group::1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CtaGroup1;
/// `.cta_group::2`: the load may signal an mbarrier in either CTA of the pair.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CtaGroup2;
impl CtaGroup for CtaGroup1 {
    const PTX: &'static str = ".cta_group::1";
}
impl CtaGroup for CtaGroup2 {
    const PTX: &'static str = ".cta_group::2";
}

/// `cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::K
/// [d], [map, {c…}], [b];` — [`super::cp_async_bulk_tensor_load`] for the CTA group `G`
/// ([`CtaGroup1`], [`CtaGroup2`]). PTX 8.6, **sm_100a**; PTX ISA §9.7.9.25.5, seed §5.2.
///
/// # Safety
/// As `cp_async_bulk_tensor_load` (a valid map, `dst` 128-byte aligned with room for the box,
/// `bar` expecting the box's bytes). Host: the plain tensor load (a cluster of one CTA).
///
/// ```
/// use ptx_sync::copy::blackwell::{CtaGroup2, CtaGroupLoad};
/// assert_eq!(<[i32; 2] as CtaGroupLoad<CtaGroup2>>::PTX,
///     "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2");
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load_cta_group<G: CtaGroup, C: CtaGroupLoad<G>, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    bar: &Mbarrier<Tag>,
) {
    unsafe { coords.exec(dst, map, bar) }
}

/// `cp.async.bulk.tensor.2d.<dst>.global.tile::gather4.mbarrier::complete_tx::bytes [d], [map,
/// {x, y0, y1, y2, y3}], [b];` — loads four rows `y0..y3` of the 2-D tensor of `map`, each from
/// column `x` on (the map's box width), into `dst`; completion on `bar`. `Sp` = [`Shared`]
/// (sm_100) or [`SharedCluster`] (sm_100a). PTX 8.6; PTX ISA §9.7.9.25.5, seed §5.2.
///
/// # Safety
/// As `cp_async_bulk_tensor_load`, with a 2-D map made for gather4. Host: on a 2-D tiled host
/// map, the four one-row boxes at `(x, yᵢ)` at issue, then `4 · width` bytes complete on `bar`
/// (see the [module](self)).
///
/// ```
/// use ptx_sync::{copy::{blackwell::*, TensorMap}, Mbarrier, Phase, Release, Acquire, Cta, Shared, shared::to_shared};
/// assert_eq!(<Shared as Gather4Dst>::PTX,
///     "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes");
/// let data: Vec<u32> = (0..64).collect(); // 8 × 8, element (y, x) = 8y + x
/// let map = TensorMap::host_tiled_of(data.as_ptr(), &[8, 8], &[32], &[4, 1]).unwrap();
/// #[repr(align(128))] struct T([u32; 16]);
/// let mut t = T([9; 16]);
/// let bar: Mbarrier = Mbarrier::new();
/// bar.init(1);
/// let _ = bar.arrive_expect_tx::<Release, Cta>(64);
/// unsafe { cp_async_bulk_tensor_gather4::<Shared, _>(to_shared(t.0.as_mut_ptr()), &map, 6, [0, 7, 2, 9], &bar) };
/// assert!(bar.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
/// assert_eq!(t.0, [6, 7, 0, 0, 62, 63, 0, 0, 22, 23, 0, 0, 0, 0, 0, 0]); // x ≥ 8, y = 9: zero
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_gather4<Sp: Gather4Dst, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    x: i32,
    rows: [i32; 4],
    bar: &Mbarrier<Tag>,
) {
    unsafe { Sp::exec(dst, map, x, rows, bar) }
}

/// `cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [map, {x, y0, y1, y2,
/// y3}], [s];` — stores `src` to four rows `y0..y3` of the 2-D tensor of `map`, from column
/// `x`; completes through bulk groups. PTX 8.6, **sm_100a**; PTX ISA §9.7.9.25.5, seed §5.3.
///
/// # Safety
/// As `cp_async_bulk_tensor_store`, with a 2-D map made for scatter4. Host: on a 2-D tiled
/// host map, row `i` of `src` (`width` elements at `i · width`) to the one-row box at `(x, yᵢ)`,
/// out-of-bounds elements skipped (see the [module](self)).
///
/// ```
/// use ptx_sync::{copy::{blackwell::*, cp_async_bulk_commit_group, cp_async_bulk_wait_group, TensorMap}, instr::Instr, shared::to_shared};
/// assert!(CpAsyncBulkTensorScatter4::PTX.ends_with(".tile::scatter4.bulk_group"));
/// let mut out = [0u32; 32]; // 4 rows × 8
/// let map = TensorMap::host_tiled_of(out.as_mut_ptr().cast_const(), &[8, 4], &[32], &[4, 1]).unwrap();
/// #[repr(align(128))] struct T([u32; 16]);
/// let t = T(core::array::from_fn(|i| i as u32 + 1));
/// unsafe { cp_async_bulk_tensor_scatter4(&map, 6, [3, 0, 5, 1], to_shared(t.0.as_ptr())) };
/// cp_async_bulk_commit_group();
/// cp_async_bulk_wait_group::<0>();
/// assert_eq!(out[30..], [1, 2]); // row 3, x = 6, 7 (x 8, 9 and row 5 out of bounds: skipped)
/// assert_eq!(out[6..8], [5, 6]);
/// assert_eq!(out[14..16], [13, 14]);
/// assert_eq!(out.iter().filter(|&&v| v != 0).count(), 6);
/// ```
#[cfg(any(doc, not(target_arch = "nvptx64"), target_feature = "sm_100a"))]
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_scatter4(
    map: &TensorMap,
    x: i32,
    rows: [i32; 4],
    src: SharedAddr,
) {
    unsafe { CpAsyncBulkTensorScatter4::exec(map, x, rows, src) }
}
