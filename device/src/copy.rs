//! Asynchronous copies: `cp.async` (sm_80 LDGSTS), `cp.async.bulk` (TMA, linear) and
//! `cp.async.bulk.tensor` (TMA, tiled), with their completion mechanisms.
//!
//! PTX ISA §9.7.9.25 (`cp.async`, `cp.async.commit_group`, `cp.async.wait_group/wait_all`,
//! `cp.async.mbarrier.arrive`), §9.7.9.25.4 (`cp.async.bulk`, `cp.reduce.async.bulk`,
//! `cp.async.bulk.prefetch`, `cp.async.bulk.commit_group`, `cp.async.bulk.wait_group`),
//! §9.7.9.25.5 (`cp.async.bulk.tensor`, `cp.async.bulk.prefetch.tensor`), §5.5 (tensor maps).
//! Seed §5.1 (a `cp.async` is not in program order: wait for it with `cp.async.wait_all` before
//! the barrier that hands the data over), §5.2 (a TMA copy has no wait: it completes on an
//! mbarrier with `mbarrier::complete_tx::bytes`), §5.4 (`.multicast::cluster`).
//!
//! **Addresses.** Shared-memory operands are typed 32-bit addresses ([`SharedAddr`] for
//! `.shared::cta`, [`ClusterAddr`] for `.shared::cluster`; get them with
//! [`to_shared`](crate::shared::to_shared) or a [`shared_array!`](crate::shared_array)); global
//! operands are generic pointers converted inside the asm with `cvta.to.global.u64`; a tensor
//! map is passed by reference and its generic address is the operand (it must live in
//! `.param`, `.const` or `.global` memory: a kernel parameter or a device allocation; the
//! tensormap proxy's acquire fence, [`fence_proxy_tensormap_acquire`](crate::proxy::fence_proxy_tensormap_acquire),
//! is defined only on a `.global` one).
//!
//! **`.multicast::cluster`** needs sm_90 (PTX ISA §9.7.9.25.4: "requires sm_90 or higher"; the
//! ISA *advises* sm_90a for performance, and libcu++ gates it on sm_90a); ptxas also assembles
//! it for sm_100a and sm_100f.
//!
//! | function | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`cp_async`] / [`cp_async_zfill`] | `cp.async.{ca,cg}.shared::cta.global [d], [s], N{, src_size};` | 7.0 / sm_80 (`::cta` 7.8) |
//! | [`cp_async_hint`] / [`cp_async_zfill_hint`] | `cp.async.{ca,cg}.shared::cta.global.L2::cache_hint [d], [s], N{, src_size}, policy;` | 7.4 / sm_80 (`::cta` 7.8) |
//! | [`cp_async_prefetch`] / [`cp_async_zfill_prefetch`] / [`cp_async_hint_prefetch`] / [`cp_async_zfill_hint_prefetch`] | `cp.async.{ca,cg}.shared::cta.global{.L2::cache_hint}.L2::{64B,128B,256B} [d], [s], N{, src_size}{, policy};` (`copy/prefetch.rs`) | 7.4 / sm_80 (`::cta` 7.8) |
//! | [`cp_reduce_async_bulk`] (`_hint`), [`cp_reduce_async_bulk_add`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}.redOp.type [d], [s], n{, policy};` (the ISA's `.redOp.type` table: `copy/reduce.rs`) | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_s2c`] | `cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type [d], [s], n, [b];` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_tensor`] (`_hint`) | `cp.reduce.async.bulk.tensor.Nd.global.shared::cta.redOp.{tile,im2col_no_offs}.bulk_group{.L2::cache_hint} [map, {c…}], [s]{, policy};` (`copy/tensor_reduce.rs`; host: on a typed host map) | 8.0 / sm_90 |
//!
//! The copies generated from `device/isa/copy.rows` (their modifiers: [`Mods`]):
//!
//! <!-- generated from device/isa/copy.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`cp_async_commit_group`] | `cp.async.commit_group;` | 7.0 / sm_80 |
//! | [`cp_async_wait_group::<N>`](cp_async_wait_group) | `cp.async.wait_group imm;` | 7.0 / sm_80 |
//! | [`cp_async_wait_all`] | `cp.async.wait_all;` | 7.0 / sm_80 |
//! | [`cp_async_mbarrier_arrive`] | `cp.async.mbarrier.arrive.shared::cta.b64 [b];` | 7.8 / sm_80 |
//! | [`cp_async_mbarrier_arrive_noinc`] | `cp.async.mbarrier.arrive.noinc.shared::cta.b64 [b];` | 7.8 / sm_80 |
//! | [`cp_async_bulk_g2s`] | `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [sd], [g], n, [b];` | 8.0 / sm_90 |
//! | [`cp_async_bulk_g2s_with::<_, CtaMask, NoHint>`](cp_async_bulk_g2s_with) | `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [sd], [g], n, [b], k;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_s2g`] | `cp.async.bulk.global.shared::cta.bulk_group [g], [ss], n;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_s2c`] | `cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [sd], [ss], n, [b];` | 8.0 / sm_90 |
//! | [`cp_async_bulk_commit_group`] | `cp.async.bulk.commit_group;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_wait_group::<N>`](cp_async_bulk_wait_group) | `cp.async.bulk.wait_group imm;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_wait_group_read::<N>`](cp_async_bulk_wait_group_read) | `cp.async.bulk.wait_group.read imm;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch`] | `cp.async.bulk.prefetch.L2.global [g], n;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_g2s_with::<_, ThisCta, CachePolicy>`](cp_async_bulk_g2s_with) | `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [sd], [g], n, [b], pol;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_s2g_with::<CachePolicy>`](cp_async_bulk_s2g_with) | `cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [g], [ss], n, pol;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch_with::<CachePolicy>`](cp_async_bulk_prefetch_with) | `cp.async.bulk.prefetch.L2.global.L2::cache_hint [g], n, pol;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_g2s_with::<_, CtaMask, CachePolicy>`](cp_async_bulk_g2s_with) | `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [sd], [g], n, [b], k, pol;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load`] | `cp.async.bulk.tensor.{1d,2d,3d,4d,5d}.shared::cluster.global.tile.mbarrier::complete_tx::bytes [sd], [m, {…}], [b];` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_with`] | `cp.async.bulk.tensor.{1d,2d,3d,4d,5d}.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [sd], [m, {…}], [b], k;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_store`] | `cp.async.bulk.tensor.{1d,2d,3d,4d,5d}.global.shared::cta.tile.bulk_group [m, {…}], [ss];` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch_tensor`] | `cp.async.bulk.prefetch.tensor.{1d,2d,3d,4d,5d}.L2.global.tile [m, {…}];` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_with`] | `cp.async.bulk.tensor.{1d,2d,3d,4d,5d}.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [sd], [m, {…}], [b], pol;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_store_with`] | `cp.async.bulk.tensor.{1d,2d,3d,4d,5d}.global.shared::cta.tile.bulk_group.L2::cache_hint [m, {…}], [ss], pol;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch_tensor_with`] | `cp.async.bulk.prefetch.tensor.{1d,2d,3d,4d,5d}.L2.global.tile.L2::cache_hint [m, {…}], pol;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_with`] | `cp.async.bulk.tensor.{1d,2d,3d,4d,5d}.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [sd], [m, {…}], [b], k, pol;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_im2col`] | `cp.async.bulk.tensor.{3d,4d,5d}.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [sd], [m, {…}], [b], {…};` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_im2col_with`] | `cp.async.bulk.tensor.{3d,4d,5d}.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.L2::cache_hint [sd], [m, {…}], [b], {…}, pol;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_im2col_with`] | `cp.async.bulk.tensor.{3d,4d,5d}.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster [sd], [m, {…}], [b], {…}, k;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_im2col_with`] | `cp.async.bulk.tensor.{3d,4d,5d}.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [sd], [m, {…}], [b], {…}, k, pol;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch_tensor_im2col`] | `cp.async.bulk.prefetch.tensor.{3d,4d,5d}.L2.global.im2col [m, {…}], {…};` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch_tensor_im2col_with`] | `cp.async.bulk.prefetch.tensor.{3d,4d,5d}.L2.global.im2col.L2::cache_hint [m, {…}], {…}, pol;` | 8.0 / sm_90 |
//!
//! `cp_async::<Cg, 4>` does not compile (`.cg` copies only 16 bytes).
//!
//! # Host backend
//! Every copy happens **immediately, at issue** (`ptr::copy`), and a copy that completes on an
//! mbarrier then performs the copy engine's completion on the barrier
//! (`Mbarrier::async_copy_complete_tx` (host): a `Release` RMW, ordered after the copy's writes —
//! unlike the `.relaxed` `mbarrier.complete_tx` instruction), so a protocol
//! that waits correctly on the device also waits correctly on the host; `commit_group` /
//! `wait_group` are no-ops and `cp.reduce.async.bulk` is an element-wise relaxed atomic
//! read-modify-write with its operator (as on the device: each element a relaxed `.gpu`
//! reduction). Tensor
//! copies on the host read a map in this crate's own encoding: `TensorMap::host_tiled` (base,
//! element size, dims, strides, box), `host_tiled_of::<T>` / `host_tiled_typed` (the same with
//! the element type, which `cp.reduce.async.bulk.tensor` needs), `host_im2col` (the im2col
//! fields: bounding-box corners, channels per pixel, pixels per column); they zero-fill
//! out-of-bounds elements of a load and skip them in a store or reduction, like TMA. A
//! driver-encoded `CUtensorMap` has no host meaning: passing one is a precondition violation
//! that the host arms report with a panic naming the instruction and the constructors.
//!
//! Under `--cfg loom` the same host arms go to the library's copy engine (`copy/engine.rs`): an
//! issued copy is performed by a loom thread of its own, completed only by its mechanism
//! (`cp.async.wait_group/wait_all`, `cp.async.bulk.wait_group`, the mbarrier's `complete_tx`),
//! and copies into or out of a `ptx_sync::model::Tile` are race- and proxy-checked (seed §5.1–§5.3).
//!
//! ```
//! use ptx_sync::copy::*;
//! use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cta, shared::to_shared};
//! let src = [7u8; 64];
//! #[repr(align(16))] struct Buf([u8; 64]);
//! let mut dst = Buf([0; 64]);
//! let full: Mbarrier = Mbarrier::new();
//! full.init(1);
//! let _ = full.arrive_expect_tx::<Release, Cta>(64);
//! unsafe { cp_async_bulk_g2s(to_shared(dst.0.as_mut_ptr()), src.as_ptr(), 64, &full) };
//! assert!(full.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
//! assert_eq!(dst.0, [7u8; 64]);
//! ```

#[allow(unused_imports)]
use crate::instr::{asm_text, with_ops};
use crate::mbarrier::{Mbarrier, RemoteMbarrier};
use crate::sem::tok;
use crate::sem::Sealed;
use crate::shared::{ClusterAddr, SharedAddr};
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

// The Blackwell forms (`.shared::cta` destination, `.cta_group`, gather4/scatter4, `.cp_mask`).
pub mod blackwell;
use crate::backend::{Active, CpAsyncBackend};
mod hint;
mod mods;
pub use crate::policy::CachePolicy;
pub use mods::{CtaMask, L2Hint, Mods, Multicast, NoHint, ThisCta};
pub mod reduce;
pub use hint::{cp_async_hint, cp_async_zfill_hint};
pub use im2col::{
    cp_async_bulk_prefetch_tensor_im2col, cp_async_bulk_prefetch_tensor_im2col_with,
    cp_async_bulk_tensor_load_im2col, cp_async_bulk_tensor_load_im2col_with, TensorIm2col,
};
pub use reduce::{
    cp_reduce_async_bulk, cp_reduce_async_bulk_add, cp_reduce_async_bulk_hint,
    cp_reduce_async_bulk_s2c, Bf16, BulkReduce, BulkReduceCluster, F16,
};
pub use tensor_reduce::{
    cp_reduce_async_bulk_tensor, cp_reduce_async_bulk_tensor_hint, Im2colNoOffs, TensorReduce,
    TensorReduceMode, Tile,
};

/// A CUDA tensor map (`CUtensorMap`): 128 opaque bytes, 64-byte aligned, created on the host with
/// `cuTensorMapEncodeTiled` and passed **by value as a kernel parameter** (or placed in global /
/// constant memory). PTX ISA §5.5.
#[repr(C, align(64))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorMap {
    /// The driver's encoding.
    pub opaque: [u64; 16],
}
const _: () =
    assert!(core::mem::size_of::<TensorMap>() == 128 && core::mem::align_of::<TensorMap>() == 64);

crate::sem::token_markers! {
    /// The cache operator of `cp.async`: [`Ca`] (cache at all levels) or [`Cg`] (L2 only).
    trait CacheOp;
    /// `.ca`: cache at all levels (4, 8 or 16 bytes).
    Ca
    /// `.cg`: cache in L2 only (16 bytes).
    Cg
}

/// `cp.async{.ca,.cg}.shared::cta.global [d], [s], BYTES{, src_size};`
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `cp.async{{.cache}}` of {BYTES} bytes with `{Self}`: `.ca` copies 4, 8 or 16 bytes, `.cg` only 16",
    note = "PTX ISA §9.7.9.25.3: `cp-size = {{4, 8, 16}}`, `.cg` requires 16"
)]
pub unsafe trait CpAsyncInstr<const BYTES: usize>: CacheOp {
    /// e.g. `"cp.async.ca.shared::cta.global"`.
    const PTX: &'static str;
    /// … `.L2::cache_hint` (with a cache-policy operand last, PTX ISA §9.7.9.25.3).
    const PTX_HINT: &'static str;
    /// The form's `asm!` leaves.
    #[doc(hidden)]
    type Leaf: CpAsyncLeaf;
}

/// The four `asm!` leaves of one `cp.async` form — a cache operator, a size and a prefetch size
/// ([`CpAsyncForm`]): the copy, the zero-filling copy, each with `.L2::cache_hint`. What the
/// backend's `cp.async` calls on the device (`backend::CpAsyncBackend`).
///
/// # Safety
/// Implemented only by this crate's table.
#[doc(hidden)]
pub unsafe trait CpAsyncLeaf {
    /// `cp-size`.
    const BYTES: usize;
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec(d: u32, s: u64);
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec_zfill(d: u32, s: u64, src_size: u32);
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec_hint(d: u32, s: u64, pol: u64);
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec_zfill_hint(d: u32, s: u64, src_size: u32, pol: u64);
}

/// One `cp.async` form: cache operator `C`, `BYTES`, prefetch size `P` (`()`: none).
#[doc(hidden)]
pub struct CpAsyncForm<C, const BYTES: usize, P>(core::marker::PhantomData<(C, P)>);

macro_rules! for_cp_async {
    ($leaf:ident) => {
        $leaf! { Ca, 4 }
        $leaf! { Ca, 8 }
        $leaf! { Ca, 16 }
        $leaf! { Cg, 16 }
    };
}
#[allow(unused_imports)]
pub(crate) use for_cp_async;

/// One `cp.async` method: `fn (KEY) (mnemonic) (operand: type => class, …)`.
macro_rules! cp_async_fn {
    ($f:ident ($($key:tt)*) ($($mn:tt)*) ($($a:ident: $t:ty => $r:ident),*)) => {
        #[cfg(target_arch = "nvptx64")]
        #[inline(always)]
        unsafe fn $f($($a: $t),*) { unsafe {
            asm!(asm_text!(cvta; ($($key)*); $($mn)*),
                 $($a = in($r) $a,)* options(nostack, preserves_flags));
        }}
    };
}

/// One form's [`CpAsyncLeaf`] impl: `(mnemonic) (, suffix) C BYTES P` — the suffix (the
/// prefetch size) follows `.L2::cache_hint` in the hinted forms (PTX ISA §9.7.9.25.3:
/// `{.level::cache_hint}{.level::prefetch_size}`).
macro_rules! cp_async_leaves {
    (($($mn:tt)*) ($($suf:tt)*) $C:ident $n:literal $P:ty) => {
        unsafe impl CpAsyncLeaf for CpAsyncForm<$C, $n, $P> {
            const BYTES: usize = $n;
            cp_async_fn! { exec (cp_async $n) ($($mn)* $($suf)*) (sd: u32 => reg32, gp: u64 => reg64) }
            cp_async_fn! { exec_zfill (cp_async_zfill $n) ($($mn)* $($suf)*) (sd: u32 => reg32, gp: u64 => reg64, z: u32 => reg32) }
            cp_async_fn! { exec_hint (cp_async $n hint) ($($mn)*, tok!(CacheHint) $($suf)*)
                           (sd: u32 => reg32, gp: u64 => reg64, pol: u64 => reg64) }
            cp_async_fn! { exec_zfill_hint (cp_async_zfill $n hint) ($($mn)*, tok!(CacheHint) $($suf)*)
                           (sd: u32 => reg32, gp: u64 => reg64, z: u32 => reg32, pol: u64 => reg64) }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use cp_async_leaves;

macro_rules! cp_async_leaf {
    ($C:ident, $n:literal) => {
        cp_async_leaf! { @ ("cp.async", tok!($C), tok!(Shared), tok!(Global)) $C $n }
    };
    (@ ($($mn:tt)*) $C:ident $n:literal) => {
        unsafe impl CpAsyncInstr<$n> for $C {
            const PTX: &'static str = concat!($($mn)*);
            const PTX_HINT: &'static str = concat!($($mn)*, tok!(CacheHint));
            type Leaf = CpAsyncForm<$C, $n, ()>;
        }
        cp_async_leaves! { ($($mn)*) () $C $n () }
    };
}
for_cp_async! { cp_async_leaf }
// The `.level::prefetch_size` forms: three more impls per row of the same table.
mod prefetch;
pub use prefetch::{
    cp_async_hint_prefetch, cp_async_prefetch, cp_async_zfill_hint_prefetch,
    cp_async_zfill_prefetch, CpAsyncPrefetchInstr, Prefetch128B, Prefetch256B, Prefetch64B,
    PrefetchSize,
};

/// The `src-size` precondition of every zero-filling `cp.async` (PTX ISA §9.7.9.25.3:
/// `src-size` ≤ `cp-size`), checked once here for all of them.
#[inline(always)]
pub(crate) fn check_src_size<const BYTES: usize>(src_size: u32) {
    assert!(
        src_size as usize <= BYTES,
        "cp.async: src-size must not exceed cp-size"
    );
}

// The rows of `device/isa/copy.rows`: the markers of the `cp.async` groups and the bulk groups,
// the traits of the bulk and tensor copies with one impl per legal combination of modifiers
// (`Mods`), their `asm!` leaves with their host arms (`backend/host/copy.rs`), and their catalog
// rows.
include!(concat!(env!("OUT_DIR"), "/isa/copy.rs"));

/// Tensor coordinates `[i32; D]`, `D` ∈ 1..=5: the `.dim` of `cp.async.bulk.tensor`.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tensor coordinate: use `[i32; D]` with D in 1..=5",
    note = "PTX ISA §9.7.9.25.5: `.dim = {{.1d, .2d, .3d, .4d, .5d}}`"
)]
pub unsafe trait TensorCoords: Copy + 'static + TensorCoordsHost {
    /// The rank `D`.
    const DIM: u32;
}

macro_rules! tensor_coords {
    ($($n:literal)*) => {$(
        unsafe impl TensorCoords for [i32; $n] {
            const DIM: u32 = $n;
        }
    )*};
}
tensor_coords!(1 2 3 4 5);

#[cfg(not(target_arch = "nvptx64"))]
mod catalog;
pub mod im2col;
mod tensor;
#[cfg(not(target_arch = "nvptx64"))]
mod tensor_map;
pub mod tensor_reduce;
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) use catalog::catalog_rows;
#[doc(hidden)]
pub use tensor::TensorCoordsHost;
pub use tensor::{
    cp_async_bulk_prefetch_tensor, cp_async_bulk_prefetch_tensor_with, cp_async_bulk_tensor_load,
    cp_async_bulk_tensor_load_with, cp_async_bulk_tensor_store, cp_async_bulk_tensor_store_with,
};
#[cfg(not(target_arch = "nvptx64"))]
pub use tensor_map::{HostTensorElem, TensorElem};

// ---------------------------------------------------------------------------------------------
// Public functions
// ---------------------------------------------------------------------------------------------

/// `cp.async{.ca,.cg}.shared::cta.global [d], [s], BYTES;` — an asynchronous copy of `BYTES`
/// (4, 8, 16; `.cg` only 16) from global to this CTA's shared memory. Not in program order
/// (seed §5.1): wait with [`cp_async_wait_all`] / [`cp_async_wait_group`] before using the data
/// or handing it over. Host: copies at once.
///
/// # Safety
/// `src` must be `BYTES`-aligned global memory, `dst` `BYTES`-aligned shared memory.
///
/// `C` ∈ {[`Ca`], [`Cg`]}, `BYTES` ∈ {4, 8, 16}; `cp_async::<Cg, 4>` (and any other size) does not
/// compile. SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`): `cp.async.cg` of 16 bytes →
/// `LDGSTS.E.BYPASS.128`. PTX 7.0 / sm_80 (`::cta` 7.8). PTX ISA §9.7.9.25; seed §5.1.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async, cp_async_wait_all, Cg, CpAsyncInstr}, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 16]);
/// let (src, mut dst) = (A([3; 16]), A([0; 16]));
/// unsafe { cp_async::<Cg, 16>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr()) };
/// cp_async_wait_all(); // before this thread reads it
/// assert_eq!(dst.0, [3; 16]);
/// assert_eq!(<Cg as CpAsyncInstr<16>>::PTX, "cp.async.cg.shared::cta.global");
/// ```
///
/// ```compile_fail
/// use ptx_sync::{copy::{cp_async, Cg}, shared::to_shared};
/// let (src, mut dst) = ([0u8; 4], [0u8; 4]);
/// unsafe { cp_async::<Cg, 4>(to_shared(dst.as_mut_ptr()), src.as_ptr()) }; // .cg is 16 bytes only
/// ```
#[inline(always)]
pub unsafe fn cp_async<C: CacheOp, const BYTES: usize>(dst: SharedAddr, src: *const u8)
where
    C: CpAsyncInstr<BYTES>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { Active::cp_async::<<C as CpAsyncInstr<BYTES>>::Leaf>(dst, src) }
}

/// `cp.async{.ca,.cg}.shared::cta.global [d], [s], BYTES, src_size;` — copies `src_size` bytes
/// (≤ `BYTES`) and zero-fills the rest.
///
/// # Safety
/// As [`cp_async`]; `src_size <= BYTES`.
///
/// `C`/`BYTES` as [`cp_async`]. SASS: not recorded in the repo. PTX 7.0 / sm_80. PTX ISA
/// §9.7.9.25; seed §5.1.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async_zfill, cp_async_wait_all, Ca}, shared::to_shared};
/// #[repr(align(8))] struct A([u8; 8]);
/// let (src, mut dst) = (A([1; 8]), A([9; 8]));
/// unsafe { cp_async_zfill::<Ca, 8>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 3) };
/// cp_async_wait_all();
/// assert_eq!(dst.0, [1, 1, 1, 0, 0, 0, 0, 0]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_zfill<C: CacheOp, const BYTES: usize>(
    dst: SharedAddr,
    src: *const u8,
    src_size: u32,
) where
    C: CpAsyncInstr<BYTES>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        check_src_size::<BYTES>(src_size);
        Active::cp_async_zfill::<<C as CpAsyncInstr<BYTES>>::Leaf>(dst, src, src_size)
    }
}

/// `cp.async.commit_group;` — closes the group of this thread's preceding `cp.async`s.
///
/// SASS: not recorded on its own (`cp.async.wait_all` → `LDGDEPBAR` + `DEPBAR.LE` is, ptxas
/// 13.0.88, `host/tests/sass_async.rs`). PTX 7.0 / sm_80. PTX ISA §9.7.9.25; seed §5.1.
/// Host: nothing (copies are done at issue).
///
/// # Examples
///
/// ```
/// use ptx_sync::copy::{cp_async_commit_group, cp_async_wait_group};
/// cp_async_commit_group(); // group 0 (e.g. stage 0's copies)
/// cp_async_commit_group(); // group 1
/// cp_async_wait_group::<1>(); // group 0 complete, group 1 may still be in flight
/// ```
#[inline(always)]
pub fn cp_async_commit_group() {
    // SAFETY: no operand; the instruction has no precondition.
    unsafe { CpAsyncCommitGroup::exec() }
}

/// `cp.async.wait_group N;` — waits until at most `N` of this thread's groups are pending.
///
/// SASS: `DEPBAR.LE` for `wait_all` is recorded (`host/tests/sass_async.rs`); `wait_group N`'s
/// is not. PTX 7.0 / sm_80. PTX ISA §9.7.9.25; seed §5.1 (the data is visible to this thread
/// only: hand it over with a barrier).
///
/// # Examples
///
/// ```
/// ptx_sync::copy::cp_async_commit_group();
/// ptx_sync::copy::cp_async_wait_group::<0>(); // = wait_all for committed groups
/// ```
#[inline(always)]
pub fn cp_async_wait_group<const N: u32>() {
    // SAFETY: no operand beyond the immediate.
    unsafe { CpAsyncWaitGroup::exec::<N>() }
}

/// `cp.async.wait_all;` — waits for all of this thread's `cp.async`s. The data becomes visible
/// to **this thread only**; hand it over with a barrier afterwards (seed §5.1).
///
/// SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`): `LDGDEPBAR` + `DEPBAR.LE`, which
/// must come before the handing-over `BAR` (the test checks the order). PTX 7.0 / sm_80. PTX ISA
/// §9.7.9.25; seed §5.1.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async, cp_async_wait_all, Ca}, barrier::sync_threads, shared::to_shared};
/// #[repr(align(4))] struct A([u8; 4]);
/// let (src, mut dst) = (A([2; 4]), A([0; 4]));
/// unsafe { cp_async::<Ca, 4>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr()) };
/// cp_async_wait_all(); // first the wait (seed §5.1)...
/// sync_threads();      // ...then the barrier that hands the data to the CTA
/// assert_eq!(dst.0, [2; 4]);
/// ```
#[inline(always)]
pub fn cp_async_wait_all() {
    // SAFETY: no operand; the instruction has no precondition.
    unsafe { CpAsyncWaitAll::exec() }
}

/// `cp.async.mbarrier.arrive.shared::cta.b64 [b];` — an arrive on `bar` once this thread's prior
/// `cp.async`s complete; the pending count is incremented at issue, so the expected count needs
/// no extra arrival. Host: nothing (the copies are already done).
///
/// SASS: not recorded in the repo. PTX 7.0 / sm_80. PTX ISA §9.7.9.25; seed §5.1.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::cp_async_mbarrier_arrive, Mbarrier, Phase, Release, Acquire, Cta};
/// let b: Mbarrier = Mbarrier::new();
/// b.init(1);
/// cp_async_mbarrier_arrive(&b); // host: nothing to wait for; the expected count is unchanged
/// let _ = b.arrive::<Release, Cta>();
/// assert!(b.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
/// ```
#[inline(always)]
pub fn cp_async_mbarrier_arrive<Tag>(bar: &Mbarrier<Tag>) {
    // SAFETY: `bar` is an mbarrier in this CTA's shared memory (its type says so).
    unsafe { CpAsyncMbarrierArrive::exec(bar) }
}

/// `cp.async.mbarrier.arrive.noinc.shared::cta.b64 [b];` — as above without the increment: the
/// arrival counts toward the expected count. Host: a `Release` arrive.
///
/// SASS: not recorded in the repo. PTX 7.0 / sm_80. PTX ISA §9.7.9.25; seed §5.1.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::cp_async_mbarrier_arrive_noinc, Mbarrier, Phase, Acquire, Cta};
/// let b: Mbarrier = Mbarrier::new();
/// b.init(1);
/// cp_async_mbarrier_arrive_noinc(&b); // counts as the one expected arrival
/// assert!(b.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
/// ```
#[inline(always)]
pub fn cp_async_mbarrier_arrive_noinc<Tag>(bar: &Mbarrier<Tag>) {
    // SAFETY: as `cp_async_mbarrier_arrive`.
    unsafe { CpAsyncMbarrierArriveNoinc::exec(bar) }
}

#[inline(always)]
fn check_bulk(n: u32) {
    assert!(
        n.is_multiple_of(16),
        "cp.async.bulk: size must be a multiple of 16 (PTX ISA §9.7.9.25.4.1)"
    );
}

/// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [d], [s], n, [b];` — TMA
/// linear copy of `bytes` (multiple of 16) into this CTA's shared memory; completes `bytes` of
/// tx on `bar` (seed §5.2: arm `bar` with `arrive_expect_tx` first).
///
/// # Safety
/// `src` 16-aligned global memory, `dst` 16-aligned shared memory, both valid for `bytes`.
///
/// SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`): `UBLKCP.S.G`. PTX 8.0 / sm_90.
/// PTX ISA §9.7.9.25.4; seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::cp_async_bulk_g2s, Mbarrier, Phase, Release, Acquire, Cta, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 32]);
/// let (src, mut dst) = (A([5; 32]), A([0; 32]));
/// let full: Mbarrier = Mbarrier::new();
/// full.init(1);
/// let _ = full.arrive_expect_tx::<Release, Cta>(32);
/// unsafe { cp_async_bulk_g2s(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 32, &full) };
/// assert!(full.try_wait_parity::<Acquire, Cta>(Phase::ZERO)); // the copy completed the phase
/// assert_eq!(dst.0, [5; 32]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_g2s<Tag>(
    dst: SharedAddr,
    src: *const u8,
    bytes: u32,
    bar: &Mbarrier<Tag>,
) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { cp_async_bulk_g2s_with(dst, src, bytes, bar, Mods::NONE) }
}

/// [`cp_async_bulk_g2s`] with its modifiers: `….mbarrier::complete_tx::bytes{.multicast::cluster}{.L2::cache_hint}
/// [d], [s], n, [b]{, mask}{, policy};` — [`Mods::multicast`]: the same copy into every CTA of
/// the mask (bit `i` = cluster rank `i`), at the same offsets `d` and `b` in each (seed §5.4;
/// sm_90, PTX ISA §9.7.9.25.4: sm_90a advised for performance, sm_100a/sm_100f assemble too);
/// [`Mods::cache_hint`]: `.L2::cache_hint` with the policy (the 64-bit operand last, §9.7.9.25.4).
///
/// # Safety
/// As [`cp_async_bulk_g2s`], for every CTA in the mask.
///
/// SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`): multicast → `UBLKCP.S.G.MULTICAST`.
/// PTX 8.0 / sm_90. Host: the copy lands in this CTA (a cluster of one), or in every CTA of the
/// mask for memory declared with `cluster::ClusterShared` (host only); the hint is a hint (the
/// host has no L2). Seed §5.2, §5.4.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_g2s_with, BulkG2sInstr, CtaMask, Mods, NoHint}, Mbarrier, Phase, Release, Acquire, Cluster, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 16]);
/// let (src, mut dst) = (A([6; 16]), A([0; 16]));
/// let full: Mbarrier = Mbarrier::new();
/// full.init(1);
/// let _ = full.arrive_expect_tx::<Release, Cluster>(16);
/// unsafe { cp_async_bulk_g2s_with(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 16, &full, Mods::NONE.multicast(0b1)) };
/// assert!(full.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
/// assert_eq!(dst.0, [6; 16]);
/// assert!(<NoHint as BulkG2sInstr<CtaMask>>::PTX.ends_with(".multicast::cluster"));
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_g2s_with<Tag, M: Multicast, H: L2Hint>(
    dst: SharedAddr,
    src: *const u8,
    bytes: u32,
    bar: &Mbarrier<Tag>,
    mods: Mods<M, H>,
) where
    H: BulkG2sInstr<M>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        check_bulk(bytes);
        H::g2s(dst, src, bytes, bar, mods)
    }
}

/// `cp.async.bulk.global.shared::cta.bulk_group [d], [s], n;` — TMA store; completes through
/// bulk groups ([`cp_async_bulk_commit_group`] + [`cp_async_bulk_wait_group`]).
///
/// # Safety
/// `dst` 16-aligned global, `src` 16-aligned shared, both valid for `bytes`.
///
/// SASS: not recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.4; seed §5.3 (write the
/// source with generic stores, then `fence.proxy.async.shared::cta`, then this).
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_s2g, cp_async_bulk_commit_group, cp_async_bulk_wait_group}, proxy::fence_proxy_async, Shared, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 16]);
/// let (mut out, mut smem) = (A([0; 16]), A([0; 16]));
/// smem.0 = [4; 16];                 // generic writes to the source
/// fence_proxy_async::<Shared>();    // ...made visible to the async proxy
/// unsafe { cp_async_bulk_s2g(out.0.as_mut_ptr(), to_shared(smem.0.as_ptr()), 16) };
/// cp_async_bulk_commit_group();
/// cp_async_bulk_wait_group::<0>();
/// assert_eq!(out.0, [4; 16]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_s2g(dst: *mut u8, src: SharedAddr, bytes: u32) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { cp_async_bulk_s2g_with(dst, src, bytes, Mods::NONE) }
}

/// [`cp_async_bulk_s2g`] with its modifier: `….bulk_group{.L2::cache_hint} [d], [s], n{, policy};`
/// — [`Mods::cache_hint`] (PTX ISA §9.7.9.25.4). A store has no multicast (it does not compile).
///
/// # Safety
/// As [`cp_async_bulk_s2g`].
///
/// PTX 8.0 / sm_90. Host: as the plain store (the hint is a hint). Seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_s2g_with, cp_async_bulk_commit_group, cp_async_bulk_wait_group, Mods}, policy::CachePolicy, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 16]);
/// let (mut out, smem) = (A([0; 16]), A([3; 16]));
/// unsafe { cp_async_bulk_s2g_with(out.0.as_mut_ptr(), to_shared(smem.0.as_ptr()), 16, Mods::NONE.cache_hint(CachePolicy(0))) };
/// cp_async_bulk_commit_group();
/// cp_async_bulk_wait_group::<0>();
/// assert_eq!(out.0, [3; 16]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_s2g_with<H: L2Hint>(
    dst: *mut u8,
    src: SharedAddr,
    bytes: u32,
    mods: Mods<ThisCta, H>,
) where
    H: BulkS2gInstr,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        check_bulk(bytes);
        H::s2g(dst, src, bytes, mods)
    }
}

/// `cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [d], [s], n, [b];` —
/// this CTA's shared memory → a peer's, completing on the peer's barrier `bar`.
///
/// # Safety
/// `dst`/`src` 16-aligned and valid for `bytes`; `bar` an initialized barrier in `dst`'s CTA;
/// **`dst` and `bar` in a CTA of the cluster other than the executing one** (PTX ISA
/// §9.7.9.25.4.1: for `.shared::cluster` destination of a copy from `.shared::cta`, the
/// destination must be in the shared memory of a different CTA of the cluster — a copy into the
/// executing CTA's own shared memory is undefined; use plain stores or `cp_async_bulk_g2s` there).
///
/// SASS: not recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.4; seed §5.4.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::cp_async_bulk_s2c, Mbarrier, Phase, Release, Acquire, Cluster, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 16]);
/// let (src, mut peer) = (A([8; 16]), A([0; 16])); // on the device `peer` is in another CTA
/// let bar: Mbarrier = Mbarrier::new();
/// bar.init(1);
/// let _ = bar.arrive_expect_tx::<Release, Cluster>(16);
/// let dst = to_shared(peer.0.as_mut_ptr()).to_cluster();
/// unsafe { cp_async_bulk_s2c(dst, to_shared(src.0.as_ptr()), 16, bar.remote(1)) };
/// assert!(bar.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
/// assert_eq!(peer.0, [8; 16]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_s2c<Tag>(
    dst: ClusterAddr,
    src: SharedAddr,
    bytes: u32,
    bar: RemoteMbarrier<'_, Tag>,
) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        check_bulk(bytes);
        CpAsyncBulkS2C::exec(dst, src, bytes, bar)
    }
}

/// `cp.async.bulk.commit_group;`
///
/// SASS: not recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.4. Host: nothing.
///
/// # Examples
///
/// ```
/// ptx_sync::copy::cp_async_bulk_commit_group();
/// ptx_sync::copy::cp_async_bulk_wait_group::<0>();
/// ```
#[inline(always)]
pub fn cp_async_bulk_commit_group() {
    // SAFETY: no operand; the instruction has no precondition.
    unsafe { CpAsyncBulkCommitGroup::exec() }
}

/// `cp.async.bulk.wait_group N;` — at most `N` bulk groups pending (writes complete).
///
/// SASS: not recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.4. Host: nothing.
///
/// # Examples
///
/// ```
/// use ptx_sync::copy::{cp_async_bulk_commit_group, cp_async_bulk_wait_group};
/// cp_async_bulk_commit_group();
/// cp_async_bulk_commit_group();
/// cp_async_bulk_wait_group::<1>(); // the older group's writes are complete
/// ```
#[inline(always)]
pub fn cp_async_bulk_wait_group<const N: u32>() {
    // SAFETY: no operand beyond the immediate.
    unsafe { CpAsyncBulkWaitGroup::exec::<N>() }
}

/// `cp.async.bulk.wait_group.read N;` — at most `N` bulk groups still *reading* their source
/// (the shared buffer may be reused).
///
/// SASS: not recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.4; seed §5.3 (the
/// source stage may be overwritten afterwards). Host: nothing.
///
/// # Examples
///
/// ```
/// ptx_sync::copy::cp_async_bulk_commit_group();
/// ptx_sync::copy::cp_async_bulk_wait_group_read::<0>(); // sources read: the buffer is free
/// ```
#[inline(always)]
pub fn cp_async_bulk_wait_group_read<const N: u32>() {
    // SAFETY: no operand beyond the immediate.
    unsafe { CpAsyncBulkWaitGroupRead::exec::<N>() }
}

/// `cp.async.bulk.prefetch.L2.global [s], n;` — a hint. Host: nothing.
///
/// # Safety
/// `src` 16-aligned global memory valid for `bytes`.
///
/// SASS: not recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.4.
///
/// # Examples
///
/// ```
/// #[repr(align(16))] struct A([u8; 64]);
/// let next = A([0; 64]);
/// unsafe { ptx_sync::copy::cp_async_bulk_prefetch(next.0.as_ptr(), 64) }; // host: nothing
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_prefetch(src: *const u8, bytes: u32) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { cp_async_bulk_prefetch_with(src, bytes, Mods::NONE) }
}

/// [`cp_async_bulk_prefetch`] with its modifier: `cp.async.bulk.prefetch.L2.global{.L2::cache_hint}
/// [s], n{, policy};` — [`Mods::cache_hint`] (PTX ISA §9.7.9.25.4). Host: nothing.
///
/// # Safety
/// As [`cp_async_bulk_prefetch`].
///
/// PTX 8.0 / sm_90. Seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_async_bulk_prefetch_with, Mods}, policy::CachePolicy};
/// #[repr(align(16))] struct A([u8; 64]);
/// let next = A([0; 64]);
/// unsafe { cp_async_bulk_prefetch_with(next.0.as_ptr(), 64, Mods::NONE.cache_hint(CachePolicy(0))) };
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_prefetch_with<H: L2Hint>(
    src: *const u8,
    bytes: u32,
    mods: Mods<ThisCta, H>,
) where
    H: BulkPrefetchInstr,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        check_bulk(bytes);
        H::prefetch(src, bytes, mods)
    }
}
