//! `cp.reduce.async.bulk.tensor`: a box of this CTA's shared memory reduced into the tensor a
//! map describes, by TMA, completing through bulk groups. PTX ISA §9.7.9.25.5
//! (`cp.reduce.async.bulk.tensor.dim.dst.src.redOp{.load_mode}.completion_mechanism{.level::cache_hint}
//! [tensorMap, tensorCoords], [srcMem]{, cache-policy};` with `.dst = .global`, `.src =
//! .shared::cta`, `.completion_mechanism = .bulk_group`, `.load_mode = {.tile, .im2col_no_offs}`,
//! `.redOp = {.add, .min, .max, .inc, .dec, .and, .or, .xor}`), PTX 8.0 / sm_90; seed §5.2.
//!
//! The operator is a marker of [`atomic::op`](crate::atomic::op) (not `Exch`), the load mode
//! [`Tile`] (ranks 1–5) or [`Im2colNoOffs`] (ranks 3–5: ptxas rejects `.2d.im2col_no_offs`, the
//! im2col modes need a spatial dimension); the element type is the map's. Each element is an
//! atomic reduction (relaxed, `.gpu`), as for [`cp_reduce_async_bulk`].
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`cp_reduce_async_bulk_tensor`] (`unsafe`) | `cp.reduce.async.bulk.tensor.Dd.global.shared::cta.redOp.{tile,im2col_no_offs}.bulk_group [map, {c…}], [s];` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_tensor_hint`] (`unsafe`) | `… .bulk_group.L2::cache_hint [map, {c…}], [s], policy;` | 8.0 / sm_90 |
//!
//! # Host backend
//! Emulated on a **typed** host map: `TensorMap::host_tiled_of` /
//! `host_tiled_typed` for [`Tile`],
//! `TensorMap::host_im2col` for [`Im2colNoOffs`] (the im2col traversal with zero offsets).
//! Through the library's copy engine (`copy/engine.rs`: at issue on the host, on an engine
//! thread completed by `cp.async.bulk.wait_group` under loom), each in-bounds element of the
//! box is one relaxed atomic read-modify-write with the
//! operator — the element operation of [`cp_reduce_async_bulk`] (its `BulkReduce` table: `Add`
//! on u32/s32/u64/s64/f32/f64/f16/bf16, `Min`/`Max` on u32/s32/u64/s64/f16/bf16, `Inc`/`Dec` on
//! u32, `And`/`Or`/`Xor` on 32/64-bit integers) — so concurrent reducers lose nothing;
//! out-of-bounds elements are skipped, as by the tile store. Preconditions the host checks with
//! a panic naming the instruction (each undefined on the device): an untyped map
//! (`TensorMap::host_tiled`: no element type to pick the operation), a driver-encoded map
//! (no host meaning), a map of the other mode, or an (operator, element type) pair outside
//! that table.
//!
//! ```
//! use ptx_sync::{atomic::op::Max, copy::*};
//! assert_eq!(
//!     <[i32; 3] as TensorReduce<Max, Im2colNoOffs>>::PTX,
//!     "cp.reduce.async.bulk.tensor.3d.global.shared::cta.max.im2col_no_offs.bulk_group"
//! );
//! ```

use super::*;
use crate::atomic::op::{self, Add, And, Dec, Inc, Max, Min, Or, Xor};
use crate::policy::CachePolicy;

/// The `.load_mode` of a tensor reduction: [`Tile`] or [`Im2colNoOffs`].
pub trait TensorReduceMode: Sealed + Copy + Default + 'static {
    /// `".tile"` / `".im2col_no_offs"`.
    const PTX: &'static str;
    /// `"Tile"` / `"Im2colNoOffs"`.
    const NAME: &'static str;
}
macro_rules! modes {
    ($($(#[$m:meta])* $n:ident $tok:literal),*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $n;
        impl Sealed for $n {}
        impl TensorReduceMode for $n {
            const PTX: &'static str = $tok;
            const NAME: &'static str = stringify!($n);
        }
    )*};
}
modes! {
    /// `.tile`: the box at the coordinates, as [`cp_async_bulk_tensor_store`] writes it.
    Tile ".tile",
    /// `.im2col_no_offs`: the im2col layout without offsets (ranks 3–5).
    Im2colNoOffs ".im2col_no_offs"
}

/// `cp.reduce.async.bulk.tensor.Dd.global.shared::cta.redOp.mode.bulk_group` for coordinates
/// `Self = [i32; D]`, operator `Op`, load mode `M`.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `cp.reduce.async.bulk.tensor` with `{Op}` in mode `{M}` for coordinates `{Self}`",
    note = "PTX ISA §9.7.9.25.5: .redOp = {{.add, .min, .max, .inc, .dec, .and, .or, .xor}}; .tile on 1d–5d, .im2col_no_offs on 3d–5d"
)]
pub unsafe trait TensorReduce<Op: op::Op, M: TensorReduceMode>: TensorCoords {
    /// e.g. `"cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group"`.
    const PTX: &'static str;
    /// … `.L2::cache_hint`.
    const PTX_HINT: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec(self, m: u64, ss: u32);
    /// Host: with `Some((d, s))`, `*d = *d op *s` for elements of type `e` as one relaxed atomic
    /// RMW; `false` when the ISA has no `op` on `e` (nothing done).
    #[doc(hidden)]
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe fn host_apply(e: TensorElem, ds: Option<(*mut u8, *const u8)>) -> bool;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec_hint(self, m: u64, ss: u32, pol: u64);
}

/// The table: `tred_rows!(leaf)` calls `leaf! { Mode ".mode" Op ".op" n "n" "{c…}" [coords] … }`
/// for every operator (PTX ISA §9.7.9.25.5 `.redOp`) of every rank of each mode (`.tile` 1d–5d,
/// `.im2col_no_offs` 3d–5d); the impls and the catalog rows both walk it.
macro_rules! tred_rows {
    ($leaf:ident) => {
        for_tensor_dims! { tred_ops $leaf Tile ".tile" }
        for_im2col_dims! { tred_ops $leaf Im2colNoOffs ".im2col_no_offs" }
    };
}
macro_rules! tred_ops {
    ($leaf:ident $M:ident $mt:literal $($dim:tt)*) => {
        $leaf! { $M $mt Add ".add" $($dim)* }
        $leaf! { $M $mt Min ".min" $($dim)* }
        $leaf! { $M $mt Max ".max" $($dim)* }
        $leaf! { $M $mt Inc ".inc" $($dim)* }
        $leaf! { $M $mt Dec ".dec" $($dim)* }
        $leaf! { $M $mt And ".and" $($dim)* }
        $leaf! { $M $mt Or ".or" $($dim)* }
        $leaf! { $M $mt Xor ".xor" $($dim)* }
    };
}
macro_rules! tred_impl {
    ($M:ident $mt:literal $Op:ident $ot:literal $n:literal $d:literal $cs:literal $co:tt $($offsets:tt)*) => {
        unsafe impl TensorReduce<$Op, $M> for [i32; $n] {
            tensor_op! { PTX / PTX_HINT exec / exec_hint (tensor_store $cs) $co
                ("cp.reduce.async.bulk.tensor.", $d, "d", tok!(Global), tok!(Shared), $ot, $mt, ".bulk_group")
                (m: u64 => reg64, ss: u32 => reg32) }
            #[cfg(not(target_arch = "nvptx64"))]
            unsafe fn host_apply(e: TensorElem, ds: Option<(*mut u8, *const u8)>) -> bool {
                tred_host!($Op e ds)
            }
        }
    };
}

/// Host: the element types each operator takes (the `cp.reduce.async.bulk` table of
/// `copy/reduce.rs`, whose `BulkReduce::apply` is the operation; the bitwise operators read a
/// signed element as its unsigned bits).
#[cfg(not(target_arch = "nvptx64"))]
macro_rules! tred_host {
    (@go $Op:ident $e:ident $ds:ident; $($K:ident $t:ty),*) => {
        match $e {
            $(TensorElem::$K => {
                if let Some((d, s)) = $ds {
                    let b = (s as *const $t).read_unaligned();
                    super::reduce::host_rmw(d as *mut $t, |old| <$t as BulkReduce<$Op>>::apply(old, b));
                }
                true
            })*
            #[allow(unreachable_patterns)]
            _ => false,
        }
    };
    (Add $($a:tt)*) => { tred_host!(@go Add $($a)*; U32 u32, S32 i32, U64 u64, S64 i64, F32 f32, F64 f64, F16 F16, Bf16 Bf16) };
    (Min $($a:tt)*) => { tred_host!(@go Min $($a)*; U32 u32, S32 i32, U64 u64, S64 i64, F16 F16, Bf16 Bf16) };
    (Max $($a:tt)*) => { tred_host!(@go Max $($a)*; U32 u32, S32 i32, U64 u64, S64 i64, F16 F16, Bf16 Bf16) };
    (Inc $($a:tt)*) => { tred_host!(@go Inc $($a)*; U32 u32) };
    (Dec $($a:tt)*) => { tred_host!(@go Dec $($a)*; U32 u32) };
    (And $($a:tt)*) => { tred_host!(@go And $($a)*; U32 u32, S32 u32, U64 u64, S64 u64) };
    (Or $($a:tt)*) => { tred_host!(@go Or $($a)*; U32 u32, S32 u32, U64 u64, S64 u64) };
    (Xor $($a:tt)*) => { tred_host!(@go Xor $($a)*; U32 u32, S32 u32, U64 u64, S64 u64) };
}
tred_rows! { tred_impl }

/// Host: the reduction of the box at `coords` (see the [module](self)'s host backend).
#[cfg(not(target_arch = "nvptx64"))]
unsafe fn host_tensor_reduce<Op: op::Op, M: TensorReduceMode, C: TensorReduce<Op, M>>(
    map: &TensorMap,
    coords: C,
    src: SharedAddr,
) {
    let what = <C as TensorReduce<Op, M>>::PTX;
    assert!(
        map.is_host_map(),
        "`{what}` on the host backend needs a map made by TensorMap::host_tiled_of / \
         host_tiled_typed / host_im2col (a driver-encoded CUtensorMap has no host meaning)"
    );
    let Some(e) = map.host_elem_type() else {
        panic!(
            "`{what}` on the host backend needs a typed map (TensorMap::host_tiled_of / \
             host_tiled_typed / host_im2col): TensorMap::host_tiled carries no element type"
        )
    };
    assert!(
        C::host_apply(e, None),
        "`{what}`: PTX has no `{}` reduction of {e:?} elements",
        Op::PTX
    );
    let eb = e.bytes() as usize;
    let mut b = crate::backend::copy_engine::Batch::new();
    let visit = |off: usize, g: Option<usize>| {
        if let Some(a) = g {
            assert!(
                a.is_multiple_of(eb),
                "`{what}`: a global element is not aligned to its size"
            );
            b.reduce(a, src.0 + off, eb, host_tensor_elem::<Op, M, C>, e as u8);
        }
    };
    let c = coords.as_slice();
    if M::NAME == "Tile" {
        map.host_box(c, visit);
    } else {
        map.host_im2col_box(c, &[0; 3][..c.len() - 2], visit);
    }
    b.issue(crate::backend::copy_engine::Done::BulkGroup);
}

/// Host: one element of the tensor reduction (`tag` the element type's code), for the copy
/// engine.
#[cfg(not(target_arch = "nvptx64"))]
unsafe fn host_tensor_elem<Op: op::Op, M: TensorReduceMode, C: TensorReduce<Op, M>>(
    d: usize,
    s: usize,
    tag: u8,
) {
    if let Some(e) = TensorElem::from_code(tag as u32) {
        C::host_apply(e, Some((d as *mut u8, s as *const u8)));
    }
}

/// `cp.reduce.async.bulk.tensor.Dd.global.shared::cta.redOp.mode.bulk_group [map, {c…}], [s];`
/// — reduces the box at `coords` of this CTA's `src` into the tensor `map` describes, each
/// element atomically (relaxed, `.gpu`); complete it with [`cp_async_bulk_commit_group`] +
/// [`cp_async_bulk_wait_group`]. Host: at issue (under loom on a copy-engine thread, completed
/// by the wait), one relaxed atomic RMW per in-bounds element on a typed host map (see the
/// [module](self)).
///
/// # Safety
/// As [`cp_async_bulk_tensor_store`] (a valid map, `src` 128-byte aligned holding the box; seed
/// §5.3: fence the generic writes of `src` with `fence.proxy.async` first); every concurrent
/// access to the destination elements atomic.
///
/// `Op` ∈ {`Add`, `Min`, `Max`, `Inc`, `Dec`, `And`, `Or`, `Xor`}, `M` ∈ {[`Tile`],
/// [`Im2colNoOffs`]}, `C = [i32; D]` (`D` 1–5, 3–5 for `Im2colNoOffs`); others do not compile.
/// SASS: not recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.5; seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::{atomic::op::Add, copy::*, shared::to_shared};
/// let mut out = [10u32; 6];
/// let map = TensorMap::host_tiled_of(out.as_mut_ptr().cast_const(), &[6], &[], &[4]).unwrap();
/// #[repr(align(128))] struct Tile4([u32; 4]);
/// let part = Tile4([1, 2, 3, 4]);
/// unsafe { cp_reduce_async_bulk_tensor::<Add, Tile, _>(&map, [4], to_shared(part.0.as_ptr())) };
/// cp_async_bulk_commit_group();
/// cp_async_bulk_wait_group::<0>();
/// assert_eq!(out, [10, 10, 10, 10, 11, 12]); // elements 6 and 7 are out of bounds: skipped
/// ```
///
/// ```compile_fail
/// use ptx_sync::{atomic::op::Add, copy::*, shared::to_shared};
/// let map = TensorMap { opaque: [0; 16] };
/// let s = [0u32; 4];
/// unsafe { cp_reduce_async_bulk_tensor::<Add, Im2colNoOffs, _>(&map, [0, 0], to_shared(s.as_ptr())) }; // im2col needs 3d+
/// ```
#[inline(always)]
pub unsafe fn cp_reduce_async_bulk_tensor<
    Op: op::Op,
    M: TensorReduceMode,
    C: TensorReduce<Op, M>,
>(
    map: &TensorMap,
    coords: C,
    src: SharedAddr,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.exec(map as *const TensorMap as u64, src.0);
    #[cfg(not(target_arch = "nvptx64"))]
    host_tensor_reduce::<Op, M, C>(map, coords, src);
}

/// [`cp_reduce_async_bulk_tensor`] with `.L2::cache_hint`:
/// `cp.reduce.async.bulk.tensor.Dd.global.shared::cta.redOp.mode.bulk_group.L2::cache_hint [map,
/// {c…}], [s], policy;` — PTX 8.0 / sm_90; PTX ISA §9.7.9.25.5, seed §5.2. Host: the
/// reduction without the hint.
///
/// # Safety
/// As [`cp_reduce_async_bulk_tensor`]; `policy` made by [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{atomic::op::Inc, copy::*};
/// assert_eq!(
///     <[i32; 1] as TensorReduce<Inc, Tile>>::PTX_HINT,
///     "cp.reduce.async.bulk.tensor.1d.global.shared::cta.inc.tile.bulk_group.L2::cache_hint"
/// );
/// ```
#[inline(always)]
pub unsafe fn cp_reduce_async_bulk_tensor_hint<
    Op: op::Op,
    M: TensorReduceMode,
    C: TensorReduce<Op, M>,
>(
    map: &TensorMap,
    coords: C,
    src: SharedAddr,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.exec_hint(map as *const TensorMap as u64, src.0, policy.0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        host_tensor_reduce::<Op, M, C>(map, coords, src);
    }
}

/// Catalog rows of the tensor reductions (`ptx-sync show`): `op` the `.redOp` token, `ty` the
/// load mode's marker (`"Tile"`), `dim` the rank.
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Completion, Family, Form, Marker as M, Variant};
    let base = Variant {
        sm: 90,
        ptx_isa: 80,
        isa: "9.7.9.25.5",
        seed: "5.2",
        space: M::Global,
        ..Variant::of(Family::CpReduceAsyncBulkTensor)
    };
    macro_rules! row {
        ($M:ident $mt:literal $Op:ident $ot:literal $n:literal $d:literal $cs:literal $co:tt $($offsets:tt)*) => {
            let v = Variant {
                op: <$Op as op::Op>::PTX,
                ty: stringify!($M),
                form: Form { src: M::Shared, completion: Completion::BulkGroup, dim: $n, ..Form::NONE },
                ..base
            };
            f(with_ops!(none; (tensor_store $cs); Variant {
                ptx: <[i32; $n] as TensorReduce<$Op, $M>>::PTX,
                rust: concat!("cp_reduce_async_bulk_tensor::<", stringify!($Op), ", ", stringify!($M), ", [i32; ", $n, "]>"),
                ..v
            }));
            f(with_ops!(none; (tensor_store $cs hint); Variant {
                form: Form { cache_hint: true, ..v.form },
                ptx: <[i32; $n] as TensorReduce<$Op, $M>>::PTX_HINT,
                rust: concat!("cp_reduce_async_bulk_tensor_hint::<", stringify!($Op), ", ", stringify!($M), ", [i32; ", $n, "]>"),
                ..v
            }));
        };
    }
    tred_rows! { row }
}
