//! The `.im2col` tensor loads and prefetches: the same TMA engine as the `.tile` forms, with
//! the im2col layout of a convolution's input (the map made by `cuTensorMapEncodeIm2col`), and
//! `D − 2` 16-bit im2col offsets (the position in the filter window) after the barrier. PTX ISA
//! §9.7.9.25.5 (`cp.async.bulk.tensor.dim.dst.src{.load_mode}.completion_mechanism{.multicast::cluster}{.level::cache_hint}
//! [dstMem], [tensorMap, tensorCoords], [mbar]{, im2colInfo}{, ctaMask}{, cache-policy};`,
//! `cp.async.bulk.prefetch.tensor.dim.L2.src{.load_mode}{.level::cache_hint} [tensorMap,
//! tensorCoords]{, im2colInfo}{, cache-policy};`), ranks 3–5 only (the im2col modes need a
//! spatial dimension; ptxas rejects `.2d.im2col`). PTX 8.0 / sm_90; seed §5.2.
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`cp_async_bulk_tensor_load_im2col`] (`unsafe`) | `cp.async.bulk.tensor.Dd.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [d], [map, {c…}], [b], {o…};` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_im2col_hint`] (`unsafe`) | `… .L2::cache_hint [d], [map, {c…}], [b], {o…}, policy;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_im2col_multicast`] (`unsafe`) | `… .multicast::cluster [d], [map, {c…}], [b], {o…}, mask;` | 8.0 / sm_90 (sm_90a advised) |
//! | [`cp_async_bulk_tensor_load_im2col_multicast_hint`] (`unsafe`) | `… .multicast::cluster.L2::cache_hint [d], [map, {c…}], [b], {o…}, mask, policy;` | 8.0 / sm_90 (sm_90a advised) |
//! | [`cp_async_bulk_prefetch_tensor_im2col`] (`unsafe`) | `cp.async.bulk.prefetch.tensor.Dd.L2.global.im2col [map, {c…}], {o…};` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch_tensor_im2col_hint`] (`unsafe`) | `… .L2::cache_hint [map, {c…}], {o…}, policy;` | 8.0 / sm_90 |
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
//! use ptx_sync::copy::TensorIm2col;
//! assert_eq!(
//!     <[i32; 4] as TensorIm2col>::PTX_LOAD_IM2COL,
//!     "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
//! );
//! ```

use super::*;
use crate::policy::CachePolicy;

/// Coordinates `[i32; D]` of an `.im2col` tensor copy, `D` ∈ 3..=5, with their `D − 2` 16-bit
/// im2col offsets ([`Offsets`](TensorIm2col::Offsets) = `[u16; D - 2]`).
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an im2col tensor coordinate: use `[i32; D]` with D in 3..=5",
    note = "PTX ISA §9.7.9.25.5: the im2col load modes take 3d, 4d and 5d tensors"
)]
pub unsafe trait TensorIm2col: TensorCoords {
    /// The im2col offsets, `[u16; D - 2]`.
    type Offsets: Copy;
    /// `cp.async.bulk.tensor.Dd.shared::cluster.global.im2col.mbarrier::complete_tx::bytes`
    const PTX_LOAD_IM2COL: &'static str;
    /// … `.L2::cache_hint`
    const PTX_LOAD_IM2COL_HINT: &'static str;
    /// … `.multicast::cluster`
    const PTX_LOAD_IM2COL_MULTICAST: &'static str;
    /// … `.multicast::cluster.L2::cache_hint` (`{.multicast}` before `{.level::cache_hint}`)
    const PTX_LOAD_IM2COL_MULTICAST_HINT: &'static str;
    /// `cp.async.bulk.prefetch.tensor.Dd.L2.global.im2col`
    const PTX_PREFETCH_IM2COL: &'static str;
    /// … `.L2::cache_hint`
    const PTX_PREFETCH_IM2COL_HINT: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn load_im2col(self, o: Self::Offsets, d: u32, m: u64, b: u32);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn load_im2col_hint(self, o: Self::Offsets, d: u32, m: u64, b: u32, pol: u64);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn load_im2col_multicast(self, o: Self::Offsets, d: u32, m: u64, b: u32, k: u16);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn load_im2col_multicast_hint(
        self,
        o: Self::Offsets,
        d: u32,
        m: u64,
        b: u32,
        k: u16,
        pol: u64,
    );
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn prefetch_im2col(self, o: Self::Offsets, m: u64);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn prefetch_im2col_hint(self, o: Self::Offsets, m: u64, pol: u64);
}

/// One im2col form, inside its `impl`: `PTX fn (KEY) [coords] [offsets] (mnemonic) (operand: type
/// => class, …)`; the offsets are `in(reg16)`.
macro_rules! im2col_op {
    ($P:ident $f:ident ($($key:tt)*) [$($c:ident $i:literal),*] [$($o:ident $j:literal),*] ($($mn:tt)*) ($($a:ident: $t:ty => $r:ident),*)) => {
        const $P: &'static str = concat!($($mn)*);
        #[cfg(target_arch = "nvptx64")]
        #[inline(always)]
        unsafe fn $f(self, offs: Self::Offsets, $($a: $t),*) {
            asm!(asm_text!(none; ($($key)*); $($mn)*),
                 $($a = in($r) $a,)* $($c = in(reg32) self[$i],)* $($o = in(reg16) offs[$j],)*
                 options(nostack, preserves_flags));
        }
    };
}

macro_rules! im2col_leaf {
    ($n:literal $d:literal $cs:literal $co:tt $os:literal [$($o:ident $j:literal),*]) => {
        unsafe impl TensorIm2col for [i32; $n] {
            type Offsets = [u16; $n - 2];
            im2col_op! { PTX_LOAD_IM2COL load_im2col (im2col_load $cs $os) $co [$($o $j),*]
                ("cp.async.bulk.tensor.", $d, "d", tok!(SharedCluster), tok!(Global), ".im2col.mbarrier::complete_tx::bytes")
                (sd: u32 => reg32, m: u64 => reg64, b: u32 => reg32) }
            im2col_op! { PTX_LOAD_IM2COL_HINT load_im2col_hint (im2col_load $cs $os hint) $co [$($o $j),*]
                ("cp.async.bulk.tensor.", $d, "d", tok!(SharedCluster), tok!(Global), ".im2col.mbarrier::complete_tx::bytes", tok!(CacheHint))
                (sd: u32 => reg32, m: u64 => reg64, b: u32 => reg32, pol: u64 => reg64) }
            im2col_op! { PTX_LOAD_IM2COL_MULTICAST load_im2col_multicast (im2col_load_mc $cs $os) $co [$($o $j),*]
                ("cp.async.bulk.tensor.", $d, "d", tok!(SharedCluster), tok!(Global), ".im2col.mbarrier::complete_tx::bytes.multicast::cluster")
                (sd: u32 => reg32, m: u64 => reg64, b: u32 => reg32, k: u16 => reg16) }
            im2col_op! { PTX_LOAD_IM2COL_MULTICAST_HINT load_im2col_multicast_hint (im2col_load_mc $cs $os hint) $co [$($o $j),*]
                ("cp.async.bulk.tensor.", $d, "d", tok!(SharedCluster), tok!(Global), ".im2col.mbarrier::complete_tx::bytes.multicast::cluster", tok!(CacheHint))
                (sd: u32 => reg32, m: u64 => reg64, b: u32 => reg32, k: u16 => reg16, pol: u64 => reg64) }
            im2col_op! { PTX_PREFETCH_IM2COL prefetch_im2col (im2col_prefetch $cs $os) $co [$($o $j),*]
                ("cp.async.bulk.prefetch.tensor.", $d, "d.L2", tok!(Global), ".im2col")
                (m: u64 => reg64) }
            im2col_op! { PTX_PREFETCH_IM2COL_HINT prefetch_im2col_hint (im2col_prefetch $cs $os hint) $co [$($o $j),*]
                ("cp.async.bulk.prefetch.tensor.", $d, "d.L2", tok!(Global), ".im2col", tok!(CacheHint))
                (m: u64 => reg64, pol: u64 => reg64) }
        }
    };
}
for_im2col_dims! { im2col_leaf }

/// Host: the im2col load (see the [module](self)'s host backend).
#[cfg(not(target_arch = "nvptx64"))]
unsafe fn host_im2col_load<C: TensorIm2col, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    offsets: C::Offsets,
    bar: &Mbarrier<Tag>,
) {
    let c = coords.as_slice();
    // `C::Offsets` is `[u16; D - 2]` (this crate's table only).
    let o = core::slice::from_raw_parts((&offsets as *const C::Offsets).cast::<u16>(), c.len() - 2);
    let eb = map.host_elem();
    let mut b = crate::backend::copy_engine::Batch::new();
    let bytes = map.host_im2col_box(c, o, |off, g| match g {
        Some(a) => b.copy(dst.0 + off, a as *const u8, eb),
        None => b.zero(dst.0 + off, eb),
    });
    b.issue(crate::backend::copy_engine::Done::tx(bar, bytes));
}

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
) {
    #[cfg(target_arch = "nvptx64")]
    coords.load_im2col(
        offsets,
        dst.0,
        map as *const TensorMap as u64,
        bar.shared_addr().0,
    );
    #[cfg(not(target_arch = "nvptx64"))]
    host_im2col_load(dst, map, coords, offsets, bar);
}

/// [`cp_async_bulk_tensor_load_im2col`] with `.L2::cache_hint` (`…, {o…}, policy;`). PTX 8.0 /
/// sm_90; PTX ISA §9.7.9.25.5, seed §5.2. Host: the load without the hint.
///
/// # Safety
/// As [`cp_async_bulk_tensor_load_im2col`]; `policy` made by
/// [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::copy::TensorIm2col;
/// assert_eq!(
///     <[i32; 5] as TensorIm2col>::PTX_LOAD_IM2COL_HINT,
///     "cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.L2::cache_hint"
/// );
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load_im2col_hint<C: TensorIm2col, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    offsets: C::Offsets,
    bar: &Mbarrier<Tag>,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.load_im2col_hint(
        offsets,
        dst.0,
        map as *const TensorMap as u64,
        bar.shared_addr().0,
        policy.0,
    );
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        host_im2col_load(dst, map, coords, offsets, bar);
    }
}

/// [`cp_async_bulk_tensor_load_im2col`] into every CTA of `mask` (`….multicast::cluster …, {o…},
/// mask;`). sm_90 (sm_90a advised); PTX 8.0; PTX ISA §9.7.9.25.5, seed §5.4. Host: a cluster
/// of one CTA (the load into this CTA).
///
/// # Safety
/// As [`cp_async_bulk_tensor_load_im2col`], for every CTA in `mask`.
///
/// ```
/// use ptx_sync::copy::TensorIm2col;
/// assert!(<[i32; 3] as TensorIm2col>::PTX_LOAD_IM2COL_MULTICAST.ends_with(".im2col.mbarrier::complete_tx::bytes.multicast::cluster"));
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load_im2col_multicast<C: TensorIm2col, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    offsets: C::Offsets,
    bar: &Mbarrier<Tag>,
    mask: u16,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.load_im2col_multicast(
        offsets,
        dst.0,
        map as *const TensorMap as u64,
        bar.shared_addr().0,
        mask,
    );
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = mask;
        host_im2col_load(dst, map, coords, offsets, bar);
    }
}

/// [`cp_async_bulk_tensor_load_im2col_multicast`] with `.L2::cache_hint`
/// (`….multicast::cluster.L2::cache_hint [d], [map, {c…}], [b], {o…}, mask, policy;`: PTX ISA
/// §9.7.9.25.5 `{.multicast}{.level::cache_hint}`, operands `{, im2colInfo} {, ctaMask} {,
/// cache-policy}`). sm_90 (sm_90a advised); PTX 8.0; seed §5.4. **Host:** as
/// [`cp_async_bulk_tensor_load_im2col_multicast`] (the hint changes no result).
///
/// # Safety
/// As [`cp_async_bulk_tensor_load_im2col_multicast`]; `policy` made by
/// [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::copy::TensorIm2col;
/// assert_eq!(
///     <[i32; 4] as TensorIm2col>::PTX_LOAD_IM2COL_MULTICAST_HINT,
///     "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint"
/// );
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load_im2col_multicast_hint<C: TensorIm2col, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    offsets: C::Offsets,
    bar: &Mbarrier<Tag>,
    mask: u16,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.load_im2col_multicast_hint(
        offsets,
        dst.0,
        map as *const TensorMap as u64,
        bar.shared_addr().0,
        mask,
        policy.0,
    );
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_bulk_tensor_load_im2col_multicast(dst, map, coords, offsets, bar, mask)
    }
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
) {
    #[cfg(target_arch = "nvptx64")]
    coords.prefetch_im2col(offsets, map as *const TensorMap as u64);
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = (map, coords, offsets);
}

/// [`cp_async_bulk_prefetch_tensor_im2col`] with `.L2::cache_hint` (`…, {o…}, policy;`). Host:
/// nothing. PTX 8.0 / sm_90; PTX ISA §9.7.9.25.5, seed §5.2.
///
/// # Safety
/// As [`cp_async_bulk_prefetch_tensor_im2col`].
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_prefetch_tensor_im2col_hint, TensorMap}, policy::*};
/// let map = TensorMap { opaque: [0; 16] };
/// let pol = createpolicy::<EvictFirst, NoSecondary>(1.0);
/// unsafe { cp_async_bulk_prefetch_tensor_im2col_hint(&map, [0, 0, 0, 0, 0], [1, 2, 3], pol) };
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_prefetch_tensor_im2col_hint<C: TensorIm2col>(
    map: &TensorMap,
    coords: C,
    offsets: C::Offsets,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.prefetch_im2col_hint(offsets, map as *const TensorMap as u64, policy.0);
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = (map, coords, offsets, policy);
}

/// Catalog rows of the im2col forms (`ptx-sync show`): family `cp.async.bulk.tensor`, ops
/// `load.im2col`, `load.im2col.multicast`, `prefetch.im2col`.
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Family, Form, Marker as M, Variant};
    macro_rules! rows {
        ($n:literal $d:literal $cs:literal $co:tt $os:literal $oo:tt) => {
            let t = Variant {
                sm: 90,
                ptx_isa: 80,
                isa: "9.7.9.25.5",
                seed: "5.2",
                form: Form { dim: $n, ..Form::NONE },
                ..Variant::of(Family::CpAsyncBulkTensor)
            };
            let h = Form { cache_hint: true, ..t.form };
            let ld = Variant { op: "load.im2col", space: M::SharedCluster, ..t };
            let pf = Variant { op: "prefetch.im2col", space: M::Global, ..t };
            f(with_ops!(none; (im2col_load $cs $os); Variant {
                ptx: <[i32; $n] as TensorIm2col>::PTX_LOAD_IM2COL,
                rust: concat!("cp_async_bulk_tensor_load_im2col::<[i32; ", $n, "], _>"),
                ..ld
            }));
            f(with_ops!(none; (im2col_load $cs $os hint); Variant {
                form: h,
                ptx: <[i32; $n] as TensorIm2col>::PTX_LOAD_IM2COL_HINT,
                rust: concat!("cp_async_bulk_tensor_load_im2col_hint::<[i32; ", $n, "], _>"),
                ..ld
            }));
            f(with_ops!(none; (im2col_load_mc $cs $os); Variant {
                op: "load.im2col.multicast",
                ptx: <[i32; $n] as TensorIm2col>::PTX_LOAD_IM2COL_MULTICAST,
                rust: concat!("cp_async_bulk_tensor_load_im2col_multicast::<[i32; ", $n, "], _>"),
                ..ld
            }));
            f(with_ops!(none; (im2col_load_mc $cs $os hint); Variant {
                op: "load.im2col.multicast",
                form: h,
                ptx: <[i32; $n] as TensorIm2col>::PTX_LOAD_IM2COL_MULTICAST_HINT,
                rust: concat!("cp_async_bulk_tensor_load_im2col_multicast_hint::<[i32; ", $n, "], _>"),
                ..ld
            }));
            f(with_ops!(none; (im2col_prefetch $cs $os); Variant {
                ptx: <[i32; $n] as TensorIm2col>::PTX_PREFETCH_IM2COL,
                rust: concat!("cp_async_bulk_prefetch_tensor_im2col::<[i32; ", $n, "]>"),
                ..pf
            }));
            f(with_ops!(none; (im2col_prefetch $cs $os hint); Variant {
                form: h,
                ptx: <[i32; $n] as TensorIm2col>::PTX_PREFETCH_IM2COL_HINT,
                rust: concat!("cp_async_bulk_prefetch_tensor_im2col_hint::<[i32; ", $n, "]>"),
                ..pf
            }));
        };
    }
    for_im2col_dims! { rows }
}
