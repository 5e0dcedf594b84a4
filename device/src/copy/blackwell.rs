//! The Blackwell-era bulk-copy (TMA) forms (PTX 8.6): a `.shared::cta` destination for
//! `cp.async.bulk`, `.cta_group::{1,2}` on tensor loads, the 2-D `.tile::gather4` load and
//! `.tile::scatter4` store (four rows at once), and the byte-masked `.cp_mask` store. PTX ISA
//! §9.7.9.25.4 (`cp.async.bulk`), §9.7.9.25.5 (`cp.async.bulk.tensor`); seed §5.2–§5.3 (each
//! load completes on an mbarrier's tx-count, each store on a bulk group).
//!
//! | call | PTX | PTX / SM |
//! |---|---|---|
//! | [`cp_async_bulk_g2s_cta`] (`unsafe`) | `cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [d], [s], n, [b];` | 8.6 / sm_90 |
//! | [`cp_async_bulk_tensor_load_cta_group::<G, _>`](cp_async_bulk_tensor_load_cta_group) (`unsafe`), `G` = [`CtaGroup1`], [`CtaGroup2`] | `cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::{1,2} [d], [map, {c…}], [b];` | 8.6 / **sm_100a** |
//! | [`cp_async_bulk_tensor_gather4::<Shared>`](cp_async_bulk_tensor_gather4) (`unsafe`) | `cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes [d], [map, {x, y0, y1, y2, y3}], [b];` | 8.6 / sm_100 |
//! | [`cp_async_bulk_tensor_gather4::<SharedCluster>`](cp_async_bulk_tensor_gather4) (`unsafe`) | `cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes …;` | 8.6 / **sm_100a** |
//! | [`cp_async_bulk_tensor_scatter4`] (`unsafe`) | `cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [map, {x, y0, y1, y2, y3}], [s];` | 8.6 / **sm_100a** |
//! | [`cp_async_bulk_s2g_cp_mask`] (`unsafe`) | `cp.async.bulk.global.shared::cta.bulk_group.cp_mask [d], [s], n, mask;` | 8.6 / sm_100 |
//!
//! SM floors as ptxas 13.0 enforces them (measured; `tests/ptxas_arch.rs`): the `.shared::cta`
//! destination assembles on sm_90 (PTX 8.6); `.cta_group`, `.tile::scatter4` and a
//! `.shared::cluster` gather4 are rejected on sm_90, sm_90a and sm_100; a `.shared::cta` gather4
//! and `.cp_mask` are rejected below sm_100. On nvptx64 each item exists only in a build with
//! its target (`target_feature = "sm_100"` / `"sm_100a"`).
//!
//! Host backend: the `.shared::cta` load and the masked store copy at issue (as the other
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

#![cfg_attr(
    all(target_arch = "nvptx64", not(target_feature = "sm_100")),
    allow(unused_macros, unused_imports)
)]

use super::{check_bulk, TensorCoords, TensorMap};
use crate::instr::instr;
use crate::mbarrier::Mbarrier;
#[allow(unused_imports)]
use crate::sem::{tok, Shared, SharedCluster};
use crate::shared::SharedAddr;
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

instr! {
    /// `cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [d], [s], n, [b];`
    /// (PTX 8.6, sm_90; see [`cp_async_bulk_g2s_cta`]).
    CpAsyncBulkG2SCta = ("cp.async.bulk", tok!(Shared), tok!(Global), ".mbarrier::complete_tx::bytes");
    fn exec(d: u32, s: u64, n: u32, b: u32) => m {
        asm!(crate::instr::asm_text!(cvta; (bulk_g2s); m!()),
             sd = in(reg32) d, gp = in(reg64) s, n = in(reg32) n, b = in(reg32) b, options(nostack, preserves_flags));
    }
}

macro_rules! m_mask {
    () => {
        concat!(
            "cp.async.bulk",
            tok!(Global),
            tok!(Shared),
            ".bulk_group.cp_mask"
        )
    };
}
instr! {
    /// `cp.async.bulk.global.shared::cta.bulk_group.cp_mask [d], [s], n, mask;` (PTX 8.6, sm_100;
    /// see [`cp_async_bulk_s2g_cp_mask`]).
    CpAsyncBulkS2GCpMask = (m_mask!());
}

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
    #[cfg(target_arch = "nvptx64")]
    CpAsyncBulkG2SCta::exec(dst.0, src as u64, bytes, bar.shared_addr().0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        // The copy engine (`copy/engine.rs`): at issue on the host, on an engine thread under
        // loom, completing on `bar` (as `cp_async_bulk_g2s`).
        crate::backend::copy_engine::host_copy(
            crate::backend::copy_engine::Done::tx(bar, bytes),
            dst.0,
            src,
            bytes as usize,
        );
    }
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
    #[cfg(target_arch = "nvptx64")]
    asm!(crate::instr::asm_text!(cvta; (bulk_s2g_mask); m_mask!()),
         gp = in(reg64) dst as u64, ss = in(reg32) src.0, n = in(reg32) bytes, k = in(reg16) mask,
         options(nostack, preserves_flags));
    #[cfg(not(target_arch = "nvptx64"))]
    {
        // The copy engine, one byte move per set mask bit, completing through the bulk group
        // (at issue on the host, on an engine thread under loom).
        let s = src.0 as *const u8;
        let mut b = crate::backend::copy_engine::Batch::new();
        for i in 0..bytes as usize {
            if mask >> (i % 16) & 1 != 0 {
                b.copy(dst.add(i) as usize, s.add(i), 1);
            }
        }
        b.issue(crate::backend::copy_engine::Done::BulkGroup);
    }
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

/// One `cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes
/// .cta_group::K` row: the rank of `Self` (`[i32; N]`) and the group `G`.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not the coordinate of a `.cta_group` tensor load: use `[i32; D]` with D in 1..=5",
    note = "PTX ISA §9.7.9.25.5: `.dim = {{.1d, .2d, .3d, .4d, .5d}}`"
)]
pub unsafe trait CtaGroupLoad<G: CtaGroup>: TensorCoords {
    /// The mnemonic.
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec(self, d: u32, m: u64, b: u32);
}

/// The table: `leaf!(N "N" "{c0}, …" [c0 0, …] Group "K")` per row (rank × group). Exported for
/// the arch catalog kernels as `ptx_sync::cta_group_load_rows!(leaf)`.
#[doc(hidden)]
#[macro_export]
macro_rules! cta_group_load_rows {
    ($leaf:ident) => {
        $leaf! { 1 "1" "{c0}" [c0 0] CtaGroup1 "1" }
        $leaf! { 2 "2" "{c0}, {c1}" [c0 0, c1 1] CtaGroup1 "1" }
        $leaf! { 3 "3" "{c0}, {c1}, {c2}" [c0 0, c1 1, c2 2] CtaGroup1 "1" }
        $leaf! { 4 "4" "{c0}, {c1}, {c2}, {c3}" [c0 0, c1 1, c2 2, c3 3] CtaGroup1 "1" }
        $leaf! { 5 "5" "{c0}, {c1}, {c2}, {c3}, {c4}" [c0 0, c1 1, c2 2, c3 3, c4 4] CtaGroup1 "1" }
        $leaf! { 1 "1" "{c0}" [c0 0] CtaGroup2 "2" }
        $leaf! { 2 "2" "{c0}, {c1}" [c0 0, c1 1] CtaGroup2 "2" }
        $leaf! { 3 "3" "{c0}, {c1}, {c2}" [c0 0, c1 1, c2 2] CtaGroup2 "2" }
        $leaf! { 4 "4" "{c0}, {c1}, {c2}, {c3}" [c0 0, c1 1, c2 2, c3 3] CtaGroup2 "2" }
        $leaf! { 5 "5" "{c0}, {c1}, {c2}, {c3}, {c4}" [c0 0, c1 1, c2 2, c3 3, c4 4] CtaGroup2 "2" }
    };
}

macro_rules! m_cta_group {
    ($d:literal $k:literal) => {
        concat!(
            "cp.async.bulk.tensor.",
            $d,
            "d",
            tok!(SharedCluster),
            tok!(Global),
            ".tile.mbarrier::complete_tx::bytes.cta_group::",
            $k
        )
    };
}

#[allow(unused_macros)]
macro_rules! cta_group_leaf {
    ($n:literal $d:literal $cs:literal [$($c:ident $i:literal),*] $G:ident $k:literal) => {
        unsafe impl CtaGroupLoad<$G> for [i32; $n] {
            const PTX: &'static str = m_cta_group!($d $k);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec(self, d: u32, m: u64, b: u32) {
                asm!(crate::instr::asm_text!(none; (tensor_load $cs); m_cta_group!($d $k)),
                     sd = in(reg32) d, m = in(reg64) m, b = in(reg32) b, $($c = in(reg32) self[$i],)*
                     options(nostack, preserves_flags));
            }
        }
    };
}
#[cfg(any(doc, not(target_arch = "nvptx64"), target_feature = "sm_100a"))]
crate::cta_group_load_rows! { cta_group_leaf }

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
    #[cfg(target_arch = "nvptx64")]
    coords.exec(dst.0, map as *const TensorMap as u64, bar.shared_addr().0);
    #[cfg(not(target_arch = "nvptx64"))]
    crate::backend::host::copy::tensor_load(
        dst,
        map,
        crate::copy::TensorCoordsHost::as_slice(&coords),
        bar,
    );
}

/// The destination space of a `.tile::gather4` load: [`Shared`] (`.shared::cta`, sm_100) or
/// [`SharedCluster`] (sm_100a).
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "`.tile::gather4` has no destination state space `{Self}`",
    note = "PTX ISA §9.7.9.25.5: the destination is `.shared::cta` or `.shared::cluster`"
)]
pub unsafe trait Gather4Dst: Copy + 'static {
    /// The mnemonic.
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec(d: u32, m: u64, b: u32, c: [i32; 5]);
}
macro_rules! m_gather4 {
    ($Sp:ident) => {
        concat!(
            "cp.async.bulk.tensor.2d",
            tok!($Sp),
            tok!(Global),
            ".tile::gather4.mbarrier::complete_tx::bytes"
        )
    };
}
#[allow(unused_macros)]
macro_rules! gather4_leaf {
    ($Sp:ident) => {
        unsafe impl Gather4Dst for $Sp {
            const PTX: &'static str = m_gather4!($Sp);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec(d: u32, m: u64, b: u32, c: [i32; 5]) {
                asm!(crate::instr::asm_text!(none; (tensor_load "{c0}, {c1}, {c2}, {c3}, {c4}"); m_gather4!($Sp)),
                     sd = in(reg32) d, m = in(reg64) m, b = in(reg32) b, c0 = in(reg32) c[0],
                     c1 = in(reg32) c[1], c2 = in(reg32) c[2], c3 = in(reg32) c[3], c4 = in(reg32) c[4],
                     options(nostack, preserves_flags));
            }
        }
    };
}
#[cfg(any(doc, not(target_arch = "nvptx64"), target_feature = "sm_100"))]
gather4_leaf!(Shared);
#[cfg(any(doc, not(target_arch = "nvptx64"), target_feature = "sm_100a"))]
gather4_leaf!(SharedCluster);

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
    #[cfg(target_arch = "nvptx64")]
    Sp::exec(
        dst.0,
        map as *const TensorMap as u64,
        bar.shared_addr().0,
        [x, rows[0], rows[1], rows[2], rows[3]],
    );
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let w = map.host_tile_sides(Sp::PTX, 2)[0];
        let eb = map.host_elem();
        let mut b = crate::backend::copy_engine::Batch::new();
        let mut bytes = 0;
        for (i, &y) in rows.iter().enumerate() {
            let base = dst.0 + i * w * eb;
            bytes += map.host_rows(&[x, y], &[w, 1], |off, g| match g {
                Some(a) => b.copy(base + off, a as *const u8, eb),
                None => b.zero(base + off, eb),
            });
        }
        b.issue(crate::backend::copy_engine::Done::tx(bar, bytes));
    }
}

macro_rules! m_scatter4 {
    () => {
        concat!(
            "cp.async.bulk.tensor.2d",
            tok!(Global),
            tok!(Shared),
            ".tile::scatter4.bulk_group"
        )
    };
}
instr! {
    /// `cp.async.bulk.tensor.2d.global.shared::cta.tile::scatter4.bulk_group [map, {x, y0, y1, y2,
    /// y3}], [s];` (PTX 8.6, sm_100a; see [`cp_async_bulk_tensor_scatter4`]).
    CpAsyncBulkTensorScatter4 = (m_scatter4!());
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
    #[cfg(target_arch = "nvptx64")]
    asm!(crate::instr::asm_text!(none; (tensor_store "{c0}, {c1}, {c2}, {c3}, {c4}"); m_scatter4!()),
         m = in(reg64) map as *const TensorMap as u64, ss = in(reg32) src.0, c0 = in(reg32) x,
         c1 = in(reg32) rows[0], c2 = in(reg32) rows[1], c3 = in(reg32) rows[2], c4 = in(reg32) rows[3],
         options(nostack, preserves_flags));
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let what = <CpAsyncBulkTensorScatter4 as crate::instr::Instr>::PTX;
        let w = map.host_tile_sides(what, 2)[0];
        let eb = map.host_elem();
        let mut b = crate::backend::copy_engine::Batch::new();
        for (i, &y) in rows.iter().enumerate() {
            let base = src.0 + i * w * eb;
            map.host_rows(&[x, y], &[w, 1], |off, g| {
                if let Some(a) = g {
                    b.copy(a, (base + off) as *const u8, eb)
                }
            });
        }
        b.issue(crate::backend::copy_engine::Done::BulkGroup);
    }
}

/// Catalog rows of this module (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Arch, Completion, Family, Form, Marker as M, Variant};
    use crate::instr::{with_ops, Instr};
    let load = Form {
        src: M::Global,
        completion: Completion::Mbarrier,
        ..Form::NONE
    };
    f(with_ops!(cvta; (bulk_g2s); Variant {
        op: "shared::cta",
        space: M::Shared,
        form: load,
        ptx: CpAsyncBulkG2SCta::PTX,
        rust: "copy::blackwell::cp_async_bulk_g2s_cta",
        sm: 90,
        ptx_isa: 86,
        isa: "9.7.9.25.4",
        seed: "5.2",
        ..Variant::of(Family::CpAsyncBulk)
    }));
    f(with_ops!(cvta; (bulk_s2g_mask); Variant {
        op: "cp_mask",
        space: M::Global,
        form: Form {
            src: M::Shared,
            completion: Completion::BulkGroup,
            ..Form::NONE
        },
        ptx: CpAsyncBulkS2GCpMask::PTX,
        rust: "copy::blackwell::cp_async_bulk_s2g_cp_mask",
        sm: 100,
        ptx_isa: 86,
        isa: "9.7.9.25.4",
        seed: "5.3",
        ..Variant::of(Family::CpAsyncBulk)
    }));
    macro_rules! cg {
        ($n:literal $d:literal $cs:literal [$($c:ident $i:literal),*] $G:ident $k:literal) => {
            f(with_ops!(none; (tensor_load $cs); Variant {
                op: concat!("load.cta_group::", $k),
                space: M::SharedCluster,
                form: Form { dim: $n, ..load },
                ptx: <[i32; $n] as CtaGroupLoad<$G>>::PTX,
                rust: concat!("copy::blackwell::cp_async_bulk_tensor_load_cta_group::<", stringify!($G), ", [i32; ", $d, "]>"),
                sm: 100,
                ptx_isa: 86,
                arch: Arch::Sm100a,
                isa: "9.7.9.25.5",
                seed: "5.2",
                ..Variant::of(Family::CpAsyncBulkTensor)
            }));
        };
    }
    crate::cta_group_load_rows! { cg }
    for (ptx, space, arch, rust) in [
        (
            <Shared as Gather4Dst>::PTX,
            M::Shared,
            Arch::Base,
            "copy::blackwell::cp_async_bulk_tensor_gather4::<Shared>",
        ),
        (
            <SharedCluster as Gather4Dst>::PTX,
            M::SharedCluster,
            Arch::Sm100a,
            "copy::blackwell::cp_async_bulk_tensor_gather4::<SharedCluster>",
        ),
    ] {
        f(
            with_ops!(none; (tensor_load "{c0}, {c1}, {c2}, {c3}, {c4}"); Variant {
                op: "load.gather4",
                space,
                form: Form { dim: 2, ..load },
                ptx,
                rust,
                sm: 100,
                ptx_isa: 86,
                arch,
                isa: "9.7.9.25.5",
                seed: "5.2",
                ..Variant::of(Family::CpAsyncBulkTensor)
            }),
        );
    }
    f(
        with_ops!(none; (tensor_store "{c0}, {c1}, {c2}, {c3}, {c4}"); Variant {
            op: "store.scatter4",
            space: M::Global,
            form: Form {
                src: M::Shared,
                completion: Completion::BulkGroup,
                dim: 2,
                ..Form::NONE
            },
            ptx: CpAsyncBulkTensorScatter4::PTX,
            rust: "copy::blackwell::cp_async_bulk_tensor_scatter4",
            sm: 100,
            ptx_isa: 86,
            arch: Arch::Sm100a,
            isa: "9.7.9.25.5",
            seed: "5.3",
            ..Variant::of(Family::CpAsyncBulkTensor)
        }),
    );
}
