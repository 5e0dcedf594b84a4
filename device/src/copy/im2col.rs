//! The `.im2col` tensor loads and prefetches: the same TMA engine as the `.tile` forms, with
//! the im2col layout of a convolution's input (the map made by `cuTensorMapEncodeIm2col`), and
//! `D − 2` 16-bit im2col offsets (the position in the filter window) after the barrier. PTX ISA
//! §9.7.9.25.5 (`cp.async.bulk.tensor.dim.dst.src{.load_mode}.completion_mechanism{.multicast::cluster}{.level::cache_hint}
//! [dstMem], [tensorMap, tensorCoords], [mbar]{, im2colInfo}{, ctaMask}{, cache-policy};`,
//! `cp.async.bulk.prefetch.tensor.dim.L2.src{.load_mode}{.level::cache_hint} [tensorMap,
//! tensorCoords]{, im2colInfo}{, cache-policy};`), ranks 3–5 only (the im2col modes need a
//! spatial dimension; ptxas rejects `.2d.im2col`). PTX 8.0 / sm_90; seed §5.2.
//!
//! Their rows are `device/isa/copy.rows` (the traits [`TensorIm2colLoadInstr`] and
//! [`TensorIm2colPrefetchInstr`], one form per modifier combination, [`Mods`]), listed in the
//! [`copy`](super) module's generated table.
//!
//! # Host backend
//! The loads run on a host im2col map (`TensorMap::host_im2col`: element type, dims,
//! strides, the bounding box's lower/upper corners, channels per pixel, pixels per column), as
//! the ISA's im2col mode describes (PTX ISA §5.5): `pixels per column` pixels are read, starting
//! at the base pixel the coordinates name (`{c, w, (h, (d,)) n}`) and running through the
//! bounding box (W fastest, then H, D, then the next image); of each pixel the `channels per
//! pixel` channels from `c`, at the pixel moved by the im2col offsets (W first); out-of-tensor
//! elements are zero-filled; the box lands pixel-major (pixel `p`'s channels at `p · channels`).
//! The copy goes through the library's copy engine (at issue on the host, an engine thread under
//! loom) and completes its bytes on the barrier, as the tile loads do. Not modelled: element
//! (traversal) strides other than 1, interleave and swizzle (the map constructor has no such
//! parameters), the sm_100 `.im2col::w` modes (not in this crate). A map that is not a host
//! im2col map is a precondition violation, reported by a panic naming the requirement.
//! The prefetches are hints with no observable effect: nothing on the host, as for the tile
//! prefetch.
//!
//! ```
//! use ptx_sync::copy::{NoHint, TensorIm2colLoadInstr, ThisCta};
//! assert_eq!(
//!     <[i32; 4] as TensorIm2colLoadInstr<ThisCta, NoHint>>::PTX,
//!     "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
//! );
//! ```

use super::*;
use crate::copy::{
    L2Hint, Mods, Multicast, NoHint, TensorIm2colLoadInstr, TensorIm2colPrefetchInstr, ThisCta,
};

/// Coordinates `[i32; D]` of an `.im2col` tensor copy, `D` ∈ 3..=5, with their `D − 2` 16-bit
/// im2col offsets ([`Offsets`](TensorIm2col::Offsets) = `[u16; D - 2]`).
///
/// No instruction of its own: the copies are [`TensorIm2colLoadInstr`] and
/// [`TensorIm2colPrefetchInstr`]. PTX ISA §9.7.9.25.5; seed §5.2.
///
/// # Safety
/// Implemented only by this crate's table.
///
/// # Examples
///
/// ```
/// use ptx_sync::copy::TensorIm2col;
/// let o: <[i32; 5] as TensorIm2col>::Offsets = [1, 2, 3];
/// assert_eq!(o.len(), 5 - 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an im2col tensor coordinate: use `[i32; D]` with D in 3..=5",
    note = "PTX ISA §9.7.9.25.5: the im2col load modes take 3d, 4d and 5d tensors"
)]
pub unsafe trait TensorIm2col: TensorCoords {
    /// The im2col offsets, `[u16; D - 2]` (one per spatial dimension).
    type Offsets: Copy;
}

macro_rules! im2col_offsets {
    ($($n:literal)*) => {$(
        unsafe impl TensorIm2col for [i32; $n] {
            type Offsets = [u16; $n - 2];
        }
    )*};
}
im2col_offsets! { 3 4 5 }

/// `cp.async.bulk.tensor.Dd.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [d],
/// [map, {c…}], [b], {o…};` — loads the im2col box at `coords` with im2col `offsets` (16-bit, one
/// per spatial dimension, `D − 2`); the box's bytes complete on `bar`. Host: on a
/// `TensorMap::host_im2col` map (see the [module](self)).
///
/// # Safety
/// As [`cp_async_bulk_tensor_load`], with `map` an im2col map (`cuTensorMapEncodeIm2col`).
///
/// `C = [i32; D]`, `D` ∈ 3..=5 (`[i32; 2]` does not compile), `offsets: [u16; D - 2]`. SASS:
/// not recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.5; seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::*, Mbarrier, Phase, Release, Acquire, Cta, shared::to_shared};
/// // A 3d input N·W·C = 1 × 4 × 4, element (n, w, c) = 10·w + c; a 1-D convolution window of
/// // 3 with padding 1: the bounding box of the base pixels is w ∈ -1..=4-1-1 (upper corner -1).
/// let x: Vec<u32> = (0..16).map(|i| 10 * (i / 4) + i % 4).collect();
/// let map = TensorMap::host_im2col(x.as_ptr().cast(), TensorElem::U32, &[4, 4, 1], &[16, 64],
///                                  &[-1], &[-1], 4, 2).unwrap();
/// #[repr(align(128))] struct T([u32; 8]);
/// let mut t = T([7; 8]);
/// let bar: Mbarrier = Mbarrier::new();
/// bar.init(1);
/// let _ = bar.arrive_expect_tx::<Release, Cta>(32);
/// // base pixels w = -1 and w = 0, filter offset 1: input pixels w = 0 and w = 1
/// unsafe { cp_async_bulk_tensor_load_im2col(to_shared(t.0.as_mut_ptr()), &map, [0, -1, 0], [1], &bar) };
/// assert!(bar.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
/// assert_eq!(t.0, [0, 1, 2, 3, 10, 11, 12, 13]);
/// ```
///
/// ```compile_fail
/// use ptx_sync::{copy::*, Mbarrier, shared::to_shared};
/// let map = TensorMap { opaque: [0; 16] };
/// let (mut t, bar) = ([0u32; 4], Mbarrier::<()>::new());
/// unsafe { cp_async_bulk_tensor_load_im2col(to_shared(t.as_mut_ptr()), &map, [0, 0], [], &bar) }; // 2d: no im2col
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load_im2col<C: TensorIm2col, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    offsets: C::Offsets,
    bar: &Mbarrier<Tag>,
) where
    C: TensorIm2colLoadInstr<ThisCta, NoHint>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { cp_async_bulk_tensor_load_im2col_with(dst, map, coords, offsets, bar, Mods::NONE) }
}

/// [`cp_async_bulk_tensor_load_im2col`] with its modifiers:
/// `…{.multicast::cluster}{.L2::cache_hint} [d], [map, {c…}], [b], {o…}{, mask}{, policy};`
/// (PTX ISA §9.7.9.25.5: `{.multicast}` before `{.level::cache_hint}`, operands `{, im2colInfo}
/// {, ctaMask} {, cache-policy}`) — [`Mods::multicast`] loads the box into every CTA of the mask
/// (sm_90; sm_90a advised), [`Mods::cache_hint`] adds `.L2::cache_hint`.
///
/// # Safety
/// As [`cp_async_bulk_tensor_load_im2col`], for every CTA in the mask; the policy made by
/// [`createpolicy`](crate::policy::createpolicy).
///
/// PTX 8.0 / sm_90. Host: a cluster of one CTA (the load into this CTA); the hint changes no
/// result. PTX ISA §9.7.9.25.5; seed §5.2, §5.4.
///
/// # Examples
///
/// ```
/// use ptx_sync::copy::{CtaMask, NoHint, TensorIm2colLoadInstr};
/// assert!(<[i32; 3] as TensorIm2colLoadInstr<CtaMask, NoHint>>::PTX
///     .ends_with(".im2col.mbarrier::complete_tx::bytes.multicast::cluster"));
/// ```
///
/// On the host the modifiers change no result: the multicast lands in this CTA (a cluster of
/// one), the hint is a hint.
///
/// ```
/// use ptx_sync::{copy::*, policy::CachePolicy, Mbarrier, Phase, Release, Acquire, Cta, shared::to_shared};
/// let x: Vec<u32> = (0..16).map(|i| 10 * (i / 4) + i % 4).collect(); // N·W·C = 1 × 4 × 4
/// let map = TensorMap::host_im2col(x.as_ptr().cast(), TensorElem::U32, &[4, 4, 1], &[16, 64],
///                                  &[-1], &[-1], 4, 2).unwrap();
/// #[repr(align(128))] struct T([u32; 8]);
/// let mut t = T([7; 8]);
/// let bar: Mbarrier = Mbarrier::new();
/// bar.init(1);
/// let _ = bar.arrive_expect_tx::<Release, Cta>(32);
/// let mods = Mods::NONE.multicast(0b1).cache_hint(CachePolicy(0));
/// unsafe { cp_async_bulk_tensor_load_im2col_with(to_shared(t.0.as_mut_ptr()), &map, [0, -1, 0], [1], &bar, mods) };
/// assert!(bar.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
/// assert_eq!(t.0, [0, 1, 2, 3, 10, 11, 12, 13]); // input pixels w = 0 and w = 1
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load_im2col_with<C: TensorIm2col, Tag, M: Multicast, H: L2Hint>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    offsets: C::Offsets,
    bar: &Mbarrier<Tag>,
    mods: Mods<M, H>,
) where
    C: TensorIm2colLoadInstr<M, H>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { coords.load_im2col(dst, map, bar, offsets, mods) }
}

/// `cp.async.bulk.prefetch.tensor.Dd.L2.global.im2col [map, {c…}], {o…};` — a hint: the im2col
/// box into L2. Host: nothing (no observable effect). PTX 8.0 / sm_90; PTX ISA §9.7.9.25.5,
/// seed §5.2.
///
/// # Safety
/// `map` a valid im2col tensor map.
///
/// ```
/// use ptx_sync::copy::{cp_async_bulk_prefetch_tensor_im2col, TensorMap};
/// let map = TensorMap { opaque: [0; 16] };
/// unsafe { cp_async_bulk_prefetch_tensor_im2col(&map, [0, 0, 0, 0], [1, 2]) }; // host: nothing
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_prefetch_tensor_im2col<C: TensorIm2col>(
    map: &TensorMap,
    coords: C,
    offsets: C::Offsets,
) where
    C: TensorIm2colPrefetchInstr<NoHint>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { cp_async_bulk_prefetch_tensor_im2col_with(map, coords, offsets, Mods::NONE) }
}

/// [`cp_async_bulk_prefetch_tensor_im2col`] with its modifier: `….im2col{.L2::cache_hint}
/// [map, {c…}], {o…}{, policy};` — [`Mods::cache_hint`] (PTX ISA §9.7.9.25.5). Host: nothing.
///
/// # Safety
/// As [`cp_async_bulk_prefetch_tensor_im2col`].
///
/// PTX 8.0 / sm_90. Seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::*, policy::*};
/// let map = TensorMap { opaque: [0; 16] };
/// let pol = createpolicy::<EvictFirst, NoSecondary>(1.0);
/// unsafe { cp_async_bulk_prefetch_tensor_im2col_with(&map, [0, 0, 0, 0, 0], [1, 2, 3], Mods::NONE.cache_hint(pol)) };
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_prefetch_tensor_im2col_with<C: TensorIm2col, H: L2Hint>(
    map: &TensorMap,
    coords: C,
    offsets: C::Offsets,
    mods: Mods<ThisCta, H>,
) where
    C: TensorIm2colPrefetchInstr<H>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { coords.prefetch_im2col(map, offsets, mods) }
}
