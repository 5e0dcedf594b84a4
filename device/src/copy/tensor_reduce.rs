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
//! <!-- generated from device/isa/copy_tensor_reduce.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`cp_reduce_async_bulk_tensor`] | `cp.reduce.async.bulk.tensor.{1d,2d,3d,4d,5d}.global.shared::cta.{add,min,max,inc,dec,and,or,xor}.tile.bulk_group [m, {…}], [ss];` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_tensor_hint`] | `cp.reduce.async.bulk.tensor.{1d,2d,3d,4d,5d}.global.shared::cta.{add,min,max,inc,dec,and,or,xor}.tile.bulk_group.L2::cache_hint [m, {…}], [ss], pol;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_tensor`] | `cp.reduce.async.bulk.tensor.{3d,4d,5d}.global.shared::cta.{add,min,max,inc,dec,and,or,xor}.im2col_no_offs.bulk_group [m, {…}], [ss];` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_tensor_hint`] | `cp.reduce.async.bulk.tensor.{3d,4d,5d}.global.shared::cta.{add,min,max,inc,dec,and,or,xor}.im2col_no_offs.bulk_group.L2::cache_hint [m, {…}], [ss], pol;` | 8.0 / sm_90 |
//!
//! # Host backend
//! Emulated on a **typed** host map: `TensorMap::host_tiled_of` /
//! `host_tiled_typed` for [`Tile`],
//! `TensorMap::host_im2col` for [`Im2colNoOffs`] (the im2col traversal with zero offsets).
//! The rows' host arms (`backend/host/reduce.rs`), through the library's copy engine
//! (`backend/copy_engine.rs`: at issue on the host, on an engine
//! thread completed by `cp.async.bulk.wait_group` under loom), each in-bounds element of the
//! box is one relaxed atomic read-modify-write with the
//! operator — the element operation of [`cp_reduce_async_bulk`] (its table: `Add`
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
use crate::atomic::op;
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

// `TensorReduce` and its impls (every operator of every rank of each mode), with the `asm!`
// leaves, host arms and catalog rows: generated from device/isa/copy_tensor_reduce.rows.
include!(concat!(env!("OUT_DIR"), "/isa/copy_tensor_reduce.rs"));

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
    unsafe { coords.exec(map, src) }
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
    unsafe { coords.exec_hint(map, src, policy) }
}
