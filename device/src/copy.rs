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
//! | [`cp_async_commit_group`], [`cp_async_wait_group`], [`cp_async_wait_all`] | `cp.async.commit_group;` `cp.async.wait_group N;` `cp.async.wait_all;` | 7.0 / sm_80 |
//! | [`cp_async_mbarrier_arrive`] (`_noinc`) | `cp.async.mbarrier.arrive{.noinc}.shared::cta.b64 [b];` | 7.0 / sm_80 |
//! | [`cp_async_bulk_g2s`] | `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [d], [s], n, [b];` | 8.0 / sm_90 |
//! | [`cp_async_bulk_g2s_multicast`] (`_hint`) | `… .multicast::cluster{.L2::cache_hint} [d], [s], n, [b], mask{, policy};` | 8.0 / sm_90 (sm_90a advised) |
//! | [`cp_async_bulk_s2g`] | `cp.async.bulk.global.shared::cta.bulk_group [d], [s], n;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_s2c`] | `cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [d], [s], n, [b];` | 8.0 / sm_90 |
//! | [`cp_async_bulk_commit_group`], [`cp_async_bulk_wait_group`], [`cp_async_bulk_wait_group_read`] | `cp.async.bulk.commit_group;` `cp.async.bulk.wait_group{.read} N;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk`] (`_hint`), [`cp_reduce_async_bulk_add`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}.redOp.type [d], [s], n{, policy};` (the ISA's `.redOp.type` table: `copy/reduce.rs`) | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_s2c`] | `cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type [d], [s], n, [b];` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch`] | `cp.async.bulk.prefetch.L2.global [s], n;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_tensor`] (`_hint`) | `cp.reduce.async.bulk.tensor.Nd.global.shared::cta.redOp.{tile,im2col_no_offs}.bulk_group{.L2::cache_hint} [map, {c…}], [s]{, policy};` (`copy/tensor_reduce.rs`; host: on a typed host map) | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load`] | `cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes [d], [map, {c…}], [b];` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_multicast`] (`_hint`) | `… .multicast::cluster{.L2::cache_hint} [d], [map, {c…}], [b], mask{, policy};` | 8.0 / sm_90 (sm_90a advised) |
//! | [`cp_async_bulk_tensor_store`] | `cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [map, {c…}], [s];` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch_tensor`] | `cp.async.bulk.prefetch.tensor.Nd.L2.global.tile [map, {c…}];` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_load_im2col`] (`_hint`, `_multicast`, `_multicast_hint`), [`cp_async_bulk_prefetch_tensor_im2col`] (`_hint`) | `cp.async.bulk.tensor.{3,4,5}d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes … [b], {o…};`, `cp.async.bulk.prefetch.tensor.{3,4,5}d.L2.global.im2col [map, {c…}], {o…};` (`copy/im2col.rs`; host: on a `TensorMap::host_im2col` map) | 8.0 / sm_90 |
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

use crate::instr::instr;
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
#[cfg(not(target_arch = "nvptx64"))]
use crate::backend::copy_engine as engine;
#[cfg(not(target_arch = "nvptx64"))]
use engine::{Done, Group};
mod hint;
pub mod reduce;
pub use hint::{
    cp_async_bulk_g2s_hint, cp_async_bulk_g2s_multicast_hint, cp_async_bulk_prefetch_hint,
    cp_async_bulk_prefetch_tensor_hint, cp_async_bulk_s2g_hint, cp_async_bulk_tensor_load_hint,
    cp_async_bulk_tensor_load_multicast_hint, cp_async_bulk_tensor_store_hint, cp_async_hint,
    cp_async_zfill_hint, TensorCoordsHint,
};
pub use im2col::{
    cp_async_bulk_prefetch_tensor_im2col, cp_async_bulk_prefetch_tensor_im2col_hint,
    cp_async_bulk_tensor_load_im2col, cp_async_bulk_tensor_load_im2col_hint,
    cp_async_bulk_tensor_load_im2col_multicast, cp_async_bulk_tensor_load_im2col_multicast_hint,
    TensorIm2col,
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

/// The cache operator of `cp.async`: [`Ca`] (cache at all levels) or [`Cg`] (L2 only).
pub trait CacheOp: Sealed + Copy + Default + 'static {
    /// `".ca"` / `".cg"`.
    const PTX: &'static str;
    /// `"Ca"` / `"Cg"`.
    const NAME: &'static str;
}
crate::sem::token_markers! {
    CacheOp;
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
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec(d: u32, s: u64);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec_zfill(d: u32, s: u64, src_size: u32);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec_hint(d: u32, s: u64, pol: u64);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec_zfill_hint(d: u32, s: u64, src_size: u32, pol: u64);
}

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
        unsafe fn $f($($a: $t),*) {
            asm!(asm_text!(cvta; ($($key)*); $($mn)*),
                 $($a = in($r) $a,)* options(nostack, preserves_flags));
        }
    };
}

macro_rules! cp_async_leaf {
    ($C:ident, $n:literal) => {
        cp_async_leaf! { @ ("cp.async", tok!($C), tok!(Shared), tok!(Global)) $C $n }
    };
    (@ ($($mn:tt)*) $C:ident $n:literal) => {
        unsafe impl CpAsyncInstr<$n> for $C {
            const PTX: &'static str = concat!($($mn)*);
            const PTX_HINT: &'static str = concat!($($mn)*, tok!(CacheHint));
            cp_async_fn! { exec (cp_async $n) ($($mn)*) (sd: u32 => reg32, gp: u64 => reg64) }
            cp_async_fn! { exec_zfill (cp_async_zfill $n) ($($mn)*) (sd: u32 => reg32, gp: u64 => reg64, z: u32 => reg32) }
            cp_async_fn! { exec_hint (cp_async $n hint) ($($mn)*, tok!(CacheHint))
                           (sd: u32 => reg32, gp: u64 => reg64, pol: u64 => reg64) }
            cp_async_fn! { exec_zfill_hint (cp_async_zfill $n hint) ($($mn)*, tok!(CacheHint))
                           (sd: u32 => reg32, gp: u64 => reg64, z: u32 => reg32, pol: u64 => reg64) }
        }
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

instr! {
    /// `cp.async.commit_group;` (PTX 7.0, sm_80).
    CpAsyncCommitGroup = ("cp.async.commit_group");
    fn exec() => m { asm!(asm_text!(none; (none); m!()), options(nostack, preserves_flags)); }
}
instr! {
    /// `cp.async.wait_group N;` (PTX 7.0, sm_80).
    CpAsyncWaitGroup = ("cp.async.wait_group");
    fn exec<const N: u32>() => m { asm!(asm_text!(none; (imm); m!()), imm = const N, options(nostack, preserves_flags)); }
}
instr! {
    /// `cp.async.wait_all;` (PTX 7.0, sm_80).
    CpAsyncWaitAll = ("cp.async.wait_all");
    fn exec() => m { asm!(asm_text!(none; (none); m!()), options(nostack, preserves_flags)); }
}
instr! {
    /// `cp.async.mbarrier.arrive.shared::cta.b64 [b];` (PTX 7.0, sm_80; `::cta` 7.8).
    CpAsyncMbarrierArrive = ("cp.async.mbarrier.arrive", tok!(Shared), ".b64");
    fn exec(b: u32) => m { asm!(asm_text!(none; (cp_mbar); m!()), b = in(reg32) b, options(nostack, preserves_flags)); }
}
instr! {
    /// `cp.async.mbarrier.arrive.noinc.shared::cta.b64 [b];` (PTX 7.0, sm_80; `::cta` 7.8).
    CpAsyncMbarrierArriveNoinc = ("cp.async.mbarrier.arrive.noinc", tok!(Shared), ".b64");
    fn exec(b: u32) => m { asm!(asm_text!(none; (cp_mbar); m!()), b = in(reg32) b, options(nostack, preserves_flags)); }
}
/// One bulk-copy row: `Name = (mnemonic); BLOCK (KEY); (operand: type => class, …)` defines
/// `Name: Instr` with its `asm!`; `Name / HintName = …` also defines the `.L2::cache_hint` twin
/// (the mnemonic + `.L2::cache_hint`, the operands + the 64-bit policy `{pol}`, PTX ISA
/// §9.7.9.25.4 `.level::cache_hint`), so each instruction is written once.
macro_rules! bulk_instr {
    ($Name:ident / $Hint:ident = ($($mn:tt)*); $blk:ident ($key:ident); ($($args:tt)*)) => {
        bulk_instr! { $Name = ($($mn)*); $blk ($key); ($($args)*) }
        bulk_instr! { $Hint = ($($mn)*, tok!(CacheHint)); $blk ($key hint); ($($args)*, pol: u64 => reg64) }
    };
    ($Name:ident = ($($mn:tt)*); $blk:ident ($($key:tt)*); ($($a:ident: $t:ty => $r:ident),*)) => {
        instr! {
            #[doc = concat!("`", $($mn)*, $crate::instr::aops!($($key)*), ";` (PTX 8.0, sm_90; PTX ISA §9.7.9.25.4).")]
            $Name = ($($mn)*);
            fn exec($($a: $t),*) => m {
                asm!(asm_text!($blk; ($($key)*); m!()), $($a = in($r) $a,)* options(nostack, preserves_flags));
            }
        }
    };
}
bulk_instr! {
    CpAsyncBulkG2S / CpAsyncBulkG2SHint = ("cp.async.bulk", tok!(SharedCluster), tok!(Global), ".mbarrier::complete_tx::bytes");
    cvta (bulk_g2s); (sd: u32 => reg32, gp: u64 => reg64, n: u32 => reg32, b: u32 => reg32)
}
bulk_instr! {
    CpAsyncBulkG2SMulticast / CpAsyncBulkG2SMulticastHint = ("cp.async.bulk", tok!(SharedCluster), tok!(Global), ".mbarrier::complete_tx::bytes.multicast::cluster");
    cvta (bulk_g2s_mc); (sd: u32 => reg32, gp: u64 => reg64, n: u32 => reg32, b: u32 => reg32, k: u16 => reg16)
}
bulk_instr! {
    CpAsyncBulkS2G / CpAsyncBulkS2GHint = ("cp.async.bulk", tok!(Global), tok!(Shared), ".bulk_group");
    cvta (bulk_s2g); (gp: u64 => reg64, ss: u32 => reg32, n: u32 => reg32)
}
bulk_instr! {
    CpAsyncBulkS2C = ("cp.async.bulk", tok!(SharedCluster), tok!(Shared), ".mbarrier::complete_tx::bytes");
    none (bulk_s2c); (sd: u32 => reg32, ss: u32 => reg32, n: u32 => reg32, b: u32 => reg32)
}
bulk_instr! {
    CpAsyncBulkPrefetch / CpAsyncBulkPrefetchHint = ("cp.async.bulk.prefetch.L2", tok!(Global));
    cvta (bulk_prefetch); (gp: u64 => reg64, n: u32 => reg32)
}
instr! {
    /// `cp.async.bulk.commit_group;` (PTX 8.0, sm_90).
    CpAsyncBulkCommitGroup = ("cp.async.bulk.commit_group");
    fn exec() => m { asm!(asm_text!(none; (none); m!()), options(nostack, preserves_flags)); }
}
instr! {
    /// `cp.async.bulk.wait_group N;` (PTX 8.0, sm_90).
    CpAsyncBulkWaitGroup = ("cp.async.bulk.wait_group");
    fn exec<const N: u32>() => m { asm!(asm_text!(none; (imm); m!()), imm = const N, options(nostack, preserves_flags)); }
}
instr! {
    /// `cp.async.bulk.wait_group.read N;` (PTX 8.0, sm_90).
    CpAsyncBulkWaitGroupRead = ("cp.async.bulk.wait_group.read");
    fn exec<const N: u32>() => m { asm!(asm_text!(none; (imm); m!()), imm = const N, options(nostack, preserves_flags)); }
}
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
    /// `cp.async.bulk.tensor.Dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes`
    const PTX_LOAD: &'static str;
    /// … `.L2::cache_hint`
    const PTX_LOAD_HINT: &'static str;
    /// … `.multicast::cluster`
    const PTX_LOAD_MULTICAST: &'static str;
    /// … `.multicast::cluster.L2::cache_hint` (PTX ISA §9.7.9.25.5: `{.multicast}` before
    /// `{.level::cache_hint}`; operands `…, ctaMask, cache-policy`)
    const PTX_LOAD_MULTICAST_HINT: &'static str;
    /// `cp.async.bulk.tensor.Dd.global.shared::cta.tile.bulk_group`
    const PTX_STORE: &'static str;
    /// … `.L2::cache_hint`
    const PTX_STORE_HINT: &'static str;
    /// `cp.async.bulk.prefetch.tensor.Dd.L2.global.tile`
    const PTX_PREFETCH: &'static str;
    /// … `.L2::cache_hint`
    const PTX_PREFETCH_HINT: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn load(self, d: u32, m: u64, b: u32);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn load_hint(self, d: u32, m: u64, b: u32, pol: u64);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn load_multicast(self, d: u32, m: u64, b: u32, mask: u16);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn load_multicast_hint(self, d: u32, m: u64, b: u32, mask: u16, pol: u64);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn store(self, m: u64, s: u32);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn store_hint(self, m: u64, s: u32, pol: u64);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn prefetch(self, m: u64);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn prefetch_hint(self, m: u64, pol: u64);
}

macro_rules! for_tensor_dims {
    ($leaf:ident $($pre:tt)*) => {
        $leaf! { $($pre)* 1 "1" "{c0}" [c0 0] }
        $leaf! { $($pre)* 2 "2" "{c0}, {c1}" [c0 0, c1 1] }
        $leaf! { $($pre)* 3 "3" "{c0}, {c1}, {c2}" [c0 0, c1 1, c2 2] }
        $leaf! { $($pre)* 4 "4" "{c0}, {c1}, {c2}, {c3}" [c0 0, c1 1, c2 2, c3 3] }
        $leaf! { $($pre)* 5 "5" "{c0}, {c1}, {c2}, {c3}, {c4}" [c0 0, c1 1, c2 2, c3 3, c4 4] }
    };
}
#[allow(unused_imports)]
pub(crate) use for_tensor_dims;

/// One tensor-copy form of one rank, inside its `impl`: `PTX fn (KEY "{c…}") [coords]
/// (mnemonic) (operand: type => class, …)` defines the `PTX` constant and the method with its
/// `asm!`; `PTX / PTX_HINT fn / fn_hint …` also the `.L2::cache_hint` twin (PTX ISA §9.7.9.25.5:
/// the qualifier last, the policy the last operand).
macro_rules! tensor_op {
    ($P:ident / $PH:ident $f:ident / $fh:ident ($key:ident $cs:literal) $co:tt ($($mn:tt)*) ($($args:tt)*)) => {
        tensor_op! { $P $f ($key $cs) $co ($($mn)*) ($($args)*) }
        tensor_op! { $PH $fh ($key $cs hint) $co ($($mn)*, tok!(CacheHint)) ($($args)*, pol: u64 => reg64) }
    };
    ($P:ident $f:ident ($($key:tt)*) [$($c:ident $i:literal),*] ($($mn:tt)*) ($($a:ident: $t:ty => $r:ident),*)) => {
        const $P: &'static str = concat!($($mn)*);
        #[cfg(target_arch = "nvptx64")]
        #[inline(always)]
        unsafe fn $f(self, $($a: $t),*) {
            asm!(asm_text!(none; ($($key)*); $($mn)*),
                 $($a = in($r) $a,)* $($c = in(reg32) self[$i],)* options(nostack, preserves_flags));
        }
    };
}

macro_rules! tensor_leaf {
    ($n:literal $d:literal $cs:literal [$($c:ident $i:literal),*]) => {
        unsafe impl TensorCoords for [i32; $n] {
            const DIM: u32 = $n;
            tensor_op! { PTX_LOAD / PTX_LOAD_HINT load / load_hint (tensor_load $cs) [$($c $i),*]
                ("cp.async.bulk.tensor.", $d, "d", tok!(SharedCluster), tok!(Global), ".tile.mbarrier::complete_tx::bytes")
                (sd: u32 => reg32, m: u64 => reg64, b: u32 => reg32) }
            tensor_op! { PTX_LOAD_MULTICAST / PTX_LOAD_MULTICAST_HINT load_multicast / load_multicast_hint (tensor_load_mc $cs) [$($c $i),*]
                ("cp.async.bulk.tensor.", $d, "d", tok!(SharedCluster), tok!(Global), ".tile.mbarrier::complete_tx::bytes.multicast::cluster")
                (sd: u32 => reg32, m: u64 => reg64, b: u32 => reg32, k: u16 => reg16) }
            tensor_op! { PTX_STORE / PTX_STORE_HINT store / store_hint (tensor_store $cs) [$($c $i),*]
                ("cp.async.bulk.tensor.", $d, "d", tok!(Global), tok!(Shared), ".tile.bulk_group")
                (m: u64 => reg64, ss: u32 => reg32) }
            tensor_op! { PTX_PREFETCH / PTX_PREFETCH_HINT prefetch / prefetch_hint (tensor_prefetch $cs) [$($c $i),*]
                ("cp.async.bulk.prefetch.tensor.", $d, "d.L2", tok!(Global), ".tile")
                (m: u64 => reg64) }
        }
    };
}
for_tensor_dims! { tensor_leaf }

/// The ranks of the im2col modes (3–5: PTX ISA §9.7.9.25.5, `.im2col` needs a spatial
/// dimension), with their `D − 2` 16-bit im2col offsets: `$leaf! { n "n" "{c…}" [coords]
/// "{o…}" [offsets] }` (tokens after `$leaf` are passed first, as for `for_tensor_dims!`).
macro_rules! for_im2col_dims {
    ($leaf:ident $($pre:tt)*) => {
        $leaf! { $($pre)* 3 "3" "{c0}, {c1}, {c2}" [c0 0, c1 1, c2 2] "{o0}" [o0 0] }
        $leaf! { $($pre)* 4 "4" "{c0}, {c1}, {c2}, {c3}" [c0 0, c1 1, c2 2, c3 3] "{o0}, {o1}" [o0 0, o1 1] }
        $leaf! { $($pre)* 5 "5" "{c0}, {c1}, {c2}, {c3}, {c4}" [c0 0, c1 1, c2 2, c3 3, c4 4] "{o0}, {o1}, {o2}" [o0 0, o1 1, o2 2] }
    };
}
#[allow(unused_imports)]
pub(crate) use for_im2col_dims;

pub mod im2col;
pub mod tensor_reduce;

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
    #[cfg(target_arch = "nvptx64")]
    <C as CpAsyncInstr<BYTES>>::exec(dst.0, src as u64);
    #[cfg(not(target_arch = "nvptx64"))]
    engine::host_copy(Done::CpAsync, dst.0, src, BYTES);
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
    check_src_size::<BYTES>(src_size);
    #[cfg(target_arch = "nvptx64")]
    <C as CpAsyncInstr<BYTES>>::exec_zfill(dst.0, src as u64, src_size);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let mut b = engine::Batch::new();
        b.copy(dst.0, src, src_size as usize);
        b.zero(dst.0 + src_size as usize, BYTES - src_size as usize);
        b.issue(Done::CpAsync);
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
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        CpAsyncCommitGroup::exec()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    engine::commit(Group::CpAsync);
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
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        CpAsyncWaitGroup::exec::<N>()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    engine::wait(Group::CpAsync, Some(N));
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
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        CpAsyncWaitAll::exec()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    engine::wait(Group::CpAsync, None);
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
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        CpAsyncMbarrierArrive::exec(bar.shared_addr().0)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = bar;
        engine::wait(Group::CpAsync, None);
    }
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
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        CpAsyncMbarrierArriveNoinc::exec(bar.shared_addr().0)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        engine::wait(Group::CpAsync, None);
        let _ = bar.arrive::<crate::Release, crate::Cta>();
    }
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
    check_bulk(bytes);
    #[cfg(target_arch = "nvptx64")]
    CpAsyncBulkG2S::exec(dst.0, src as u64, bytes, bar.shared_addr().0);
    #[cfg(not(target_arch = "nvptx64"))]
    engine::host_copy(Done::tx(bar, bytes), dst.0, src, bytes as usize);
}

/// `….multicast::cluster [d], [s], n, [b], mask;` — the same copy into every CTA of `mask`
/// (bit `i` = cluster rank `i`), at the same offsets `d` and `b` in each (seed §5.4). sm_90
/// (PTX ISA §9.7.9.25.4; sm_90a advised for performance; sm_100a/sm_100f assemble too).
///
/// # Safety
/// As [`cp_async_bulk_g2s`], for every CTA in `mask`.
///
/// SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`): `UBLKCP.S.G.MULTICAST`. PTX 8.0 /
/// sm_90. Host: the copy lands in this CTA (a cluster of one), or in every CTA of `mask` for
/// memory declared with `cluster::ClusterShared` (host only). Seed §5.4.
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::cp_async_bulk_g2s_multicast, Mbarrier, Phase, Release, Acquire, Cluster, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 16]);
/// let (src, mut dst) = (A([6; 16]), A([0; 16]));
/// let full: Mbarrier = Mbarrier::new();
/// full.init(1);
/// let _ = full.arrive_expect_tx::<Release, Cluster>(16);
/// unsafe { cp_async_bulk_g2s_multicast(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 16, &full, 0b1) };
/// assert!(full.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
/// assert_eq!(dst.0, [6; 16]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_g2s_multicast<Tag>(
    dst: SharedAddr,
    src: *const u8,
    bytes: u32,
    bar: &Mbarrier<Tag>,
    mask: u16,
) {
    check_bulk(bytes);
    #[cfg(target_arch = "nvptx64")]
    CpAsyncBulkG2SMulticast::exec(dst.0, src as u64, bytes, bar.shared_addr().0, mask);
    #[cfg(not(target_arch = "nvptx64"))]
    engine::host_multicast(bar, dst.0, src, bytes as usize, mask);
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
    check_bulk(bytes);
    #[cfg(target_arch = "nvptx64")]
    CpAsyncBulkS2G::exec(dst as u64, src.0, bytes);
    #[cfg(not(target_arch = "nvptx64"))]
    engine::host_copy(
        Done::BulkGroup,
        dst as usize,
        src.0 as *const u8,
        bytes as usize,
    );
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
    check_bulk(bytes);
    #[cfg(target_arch = "nvptx64")]
    CpAsyncBulkS2C::exec(dst.0, src.0, bytes, bar.addr().0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let done = Done::tx(bar.local(), bytes);
        engine::host_copy(done, dst.0, src.0 as *const u8, bytes as usize);
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
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        CpAsyncBulkCommitGroup::exec()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    engine::commit(Group::Bulk);
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
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        CpAsyncBulkWaitGroup::exec::<N>()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    engine::wait(Group::Bulk, Some(N));
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
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        CpAsyncBulkWaitGroupRead::exec::<N>()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    engine::wait(Group::Bulk, Some(N));
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
    check_bulk(bytes);
    #[cfg(target_arch = "nvptx64")]
    CpAsyncBulkPrefetch::exec(src as u64, bytes);
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = src;
}

/// Magic word of a host-encoded tensor map (word 0).
#[cfg(not(target_arch = "nvptx64"))]
const HOST_MAP_MAGIC: u64 = 0x7074_782d_7379_6e63; // "ptx-sync"

/// The element type of a host tensor map ([`TensorMap::host_tiled_of`],
/// [`TensorMap::host_tiled_typed`], [`TensorMap::host_im2col`]): the data types of
/// `cuTensorMapEncodeTiled`, numbered as the `.elemtype` values of `tensormap.replace` (PTX ISA
/// §9.7.9.27; `CUtensorMapDataType` 0–12). The host tensor reduction
/// ([`cp_reduce_async_bulk_tensor`]) reads it to pick the element's operation; the copies need
/// only its size.
///
/// No instruction (host backend only). PTX ISA §5.5, §9.7.9.27; seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::copy::TensorElem;
/// assert_eq!(TensorElem::from_code(7), Some(TensorElem::F32));
/// assert_eq!(TensorElem::Bf16.bytes(), 2);
/// assert_eq!(TensorElem::from_code(13), None); // the sm_100a packed types are not modelled
/// ```
#[cfg(not(target_arch = "nvptx64"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TensorElem {
    /// `.u8` (0).
    U8 = 0,
    /// `.u16` (1).
    U16 = 1,
    /// `.u32` (2).
    U32 = 2,
    /// `.s32` (3).
    S32 = 3,
    /// `.u64` (4).
    U64 = 4,
    /// `.s64` (5).
    S64 = 5,
    /// `.f16` (6).
    F16 = 6,
    /// `.f32` (7).
    F32 = 7,
    /// `.f32` with flush-to-zero (8).
    F32Ftz = 8,
    /// `.f64` (9).
    F64 = 9,
    /// `.bf16` (10).
    Bf16 = 10,
    /// `.tf32` (11).
    Tf32 = 11,
    /// `.tf32` with flush-to-zero (12).
    Tf32Ftz = 12,
}

#[cfg(not(target_arch = "nvptx64"))]
impl TensorElem {
    /// The type with `.elemtype` value `code` (0–12), `None` for any other.
    ///
    /// No instruction. PTX ISA §9.7.9.27.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(ptx_sync::copy::TensorElem::from_code(3), Some(ptx_sync::copy::TensorElem::S32));
    /// ```
    pub const fn from_code(code: u32) -> Option<TensorElem> {
        use TensorElem::*;
        Some(match code {
            0 => U8,
            1 => U16,
            2 => U32,
            3 => S32,
            4 => U64,
            5 => S64,
            6 => F16,
            7 => F32,
            8 => F32Ftz,
            9 => F64,
            10 => Bf16,
            11 => Tf32,
            12 => Tf32Ftz,
            _ => return None,
        })
    }
    /// The element's size in bytes.
    ///
    /// No instruction. PTX ISA §5.5.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(ptx_sync::copy::TensorElem::S64.bytes(), 8);
    /// ```
    pub const fn bytes(self) -> u32 {
        use TensorElem::*;
        match self {
            U8 => 1,
            U16 | F16 | Bf16 => 2,
            U32 | S32 | F32 | F32Ftz | Tf32 | Tf32Ftz => 4,
            U64 | S64 | F64 => 8,
        }
    }
}

/// A Rust element type of a typed host tensor map ([`TensorMap::host_tiled_of`]): `u8`, `u16`,
/// `u32`, `i32`, `u64`, `i64`, [`F16`], `f32`, `f64`, [`Bf16`].
///
/// No instruction (host backend only). PTX ISA §5.5.
///
/// # Examples
///
/// ```
/// use ptx_sync::copy::{HostTensorElem, TensorElem};
/// assert_eq!(<i32 as HostTensorElem>::ELEM, TensorElem::S32);
/// ```
#[cfg(not(target_arch = "nvptx64"))]
pub trait HostTensorElem: Copy + host_seal::Sealed + 'static {
    /// The map's element type.
    const ELEM: TensorElem;
}
#[cfg(not(target_arch = "nvptx64"))]
mod host_seal {
    pub trait Sealed {}
}
#[cfg(not(target_arch = "nvptx64"))]
macro_rules! host_tensor_elems {
    ($($t:ty => $e:ident),*) => {$(
        impl host_seal::Sealed for $t {}
        impl HostTensorElem for $t {
            const ELEM: TensorElem = TensorElem::$e;
        }
    )*};
}
#[cfg(not(target_arch = "nvptx64"))]
host_tensor_elems! { u8 => U8, u16 => U16, u32 => U32, i32 => S32, u64 => U64, i64 => S64,
crate::F16 => F16, f32 => F32, f64 => F64, crate::Bf16 => Bf16 }

/// The host map's layout (`opaque` words): 0 magic; 1 base; 2 element bytes (bits 0–7), element
/// type + 1 (bits 8–15, 0: untyped), rank (bits 32–39), mode (bits 40–47: 0 tile, 1 im2col);
/// 3–7 dims; 8–11 strides; 12–13 (bits 0–15 of 13) the box sides (16 bits each); im2col: word 13
/// bits 16–31 channels per pixel, 32–47 pixels per column, words 14/15 the lower/upper corners
/// (16 bits each, signed).
#[cfg(not(target_arch = "nvptx64"))]
const HOST_MODE_IM2COL: u64 = 1;

#[cfg(not(target_arch = "nvptx64"))]
impl TensorMap {
    /// Host backend only: a tiled tensor map in this crate's own encoding (not the driver's), so
    /// that tensor copies run on the CPU. `dims[0]` is the innermost dimension (elements),
    /// `strides[i]` the byte stride of dimension `i + 1`, `boxes` the box size per dimension.
    /// Checks what `cuTensorMapEncodeTiled` checks: element size 1..=16 bytes, rank 1..=5,
    /// strides multiples of 16, box sides 1..=256, inner box bytes a multiple of 16.
    ///
    /// The map is **untyped** (only the element size): the copies take it, the tensor reduction
    /// needs a typed map ([`host_tiled_of`](Self::host_tiled_of)).
    ///
    /// No instruction; not on nvptx64 (the driver encodes maps there: `ptx_sync_host::cuda`).
    /// PTX ISA §5.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::copy::TensorMap;
    /// let data = [0u32; 64]; // 8 × 8
    /// assert!(TensorMap::host_tiled(data.as_ptr().cast(), 4, &[8, 8], &[32], &[4, 4]).is_ok());
    /// assert!(TensorMap::host_tiled(data.as_ptr().cast(), 4, &[8, 8], &[36], &[4, 4]).is_err()); // stride % 16
    /// ```
    pub fn host_tiled(
        base: *const u8,
        elem_bytes: u32,
        dims: &[u64],
        strides: &[u64],
        boxes: &[u32],
    ) -> Result<TensorMap, &'static str> {
        if !(1..=16).contains(&elem_bytes) {
            return Err("the element size must be 1..=16 bytes");
        }
        let r = dims.len();
        if !(1..=5).contains(&r) || strides.len() + 1 != r || boxes.len() != r {
            return Err("rank must be 1..=5 with rank-1 strides and rank box sizes");
        }
        if strides.iter().any(|s| s % 16 != 0) {
            return Err("global strides must be multiples of 16 bytes");
        }
        if boxes.iter().any(|&b| b == 0 || b > 256) {
            return Err("box sizes must be in 1..=256");
        }
        if !(boxes[0] as u64 * elem_bytes as u64).is_multiple_of(16) {
            return Err("the inner box dimension must span a multiple of 16 bytes");
        }
        let mut w = [0u64; 16];
        w[0] = HOST_MAP_MAGIC;
        w[1] = base as u64;
        w[2] = elem_bytes as u64 | (r as u64) << 32;
        w[3..3 + r].copy_from_slice(dims);
        w[8..8 + r - 1].copy_from_slice(strides);
        for (i, &b) in boxes.iter().enumerate() {
            w[12 + i / 4] |= (b as u64) << (16 * (i % 4));
        }
        Ok(TensorMap { opaque: w })
    }

    /// Host backend only: [`host_tiled`](Self::host_tiled) with the element type `elem` (its
    /// size is the element size): what `cuTensorMapEncodeTiled`'s `tensorDataType` is. The
    /// tensor reduction ([`cp_reduce_async_bulk_tensor`]) needs it.
    ///
    /// No instruction; not on nvptx64. PTX ISA §5.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::copy::{TensorElem, TensorMap};
    /// let data = [0f32; 16];
    /// let map = TensorMap::host_tiled_typed(data.as_ptr().cast(), TensorElem::F32, &[16], &[], &[4]).unwrap();
    /// assert_eq!(map.host_elem_type(), Some(TensorElem::F32));
    /// ```
    pub fn host_tiled_typed(
        base: *const u8,
        elem: TensorElem,
        dims: &[u64],
        strides: &[u64],
        boxes: &[u32],
    ) -> Result<TensorMap, &'static str> {
        let mut m = Self::host_tiled(base, elem.bytes(), dims, strides, boxes)?;
        m.set_host_elem_type(elem);
        Ok(m)
    }

    /// Host backend only: [`host_tiled_typed`](Self::host_tiled_typed) with the element type
    /// of `T` (`u8` … `f64`, [`F16`], [`Bf16`]).
    ///
    /// No instruction; not on nvptx64. PTX ISA §5.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::copy::{TensorElem, TensorMap};
    /// let data = [0i32; 64];
    /// let map = TensorMap::host_tiled_of(data.as_ptr(), &[8, 8], &[32], &[4, 4]).unwrap();
    /// assert_eq!(map.host_elem_type(), Some(TensorElem::S32));
    /// ```
    pub fn host_tiled_of<T: HostTensorElem>(
        base: *const T,
        dims: &[u64],
        strides: &[u64],
        boxes: &[u32],
    ) -> Result<TensorMap, &'static str> {
        Self::host_tiled_typed(base.cast(), T::ELEM, dims, strides, boxes)
    }

    /// Host backend only: an **im2col** tensor map in this crate's encoding (what
    /// `cuTensorMapEncodeIm2col` describes), for the `.im2col` loads and the
    /// `.im2col_no_offs` reduction. The tensor is `N·(D)·(H)·W·C` with `dims[0]` = C (channels,
    /// innermost), `dims[1..rank-1]` the spatial dimensions W, H, D, `dims[rank-1]` = N;
    /// `strides` as for [`host_tiled`](Self::host_tiled); `lower` / `upper` (rank − 2 each, W
    /// first) the bounding box's corners: in spatial dimension `s` the base pixels run from
    /// `lower[s]` to `dims[1 + s] − 1 + upper[s]`; each load reads `pixels_per_column` pixels of
    /// `channels_per_pixel` channels.
    ///
    /// Checks what the driver checks for these fields: rank 3..=5, `lower`/`upper` of rank − 2
    /// values in the driver's range (rank 3: 16-bit, 4: 8-bit, 5: 5-bit signed), channels per
    /// pixel 1..=256 spanning a multiple of 16 bytes, pixels per column 1..=1024, a non-empty
    /// bounding box. Not modelled (always 1 / none): element strides, interleave, swizzle,
    /// `.im2col::w` modes.
    ///
    /// No instruction; not on nvptx64. PTX ISA §5.5 (im2col mode), §9.7.9.25.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::copy::{TensorElem, TensorMap};
    /// let x = [0u32; 4 * 8 * 2]; // N = 2, W = 8, C = 4
    /// let m = TensorMap::host_im2col(x.as_ptr().cast(), TensorElem::U32, &[4, 8, 2], &[16, 128], &[-1], &[-1], 4, 8);
    /// assert!(m.is_ok());
    /// let bad = TensorMap::host_im2col(x.as_ptr().cast(), TensorElem::U32, &[4, 8, 2], &[16, 128], &[-1], &[-1], 3, 8);
    /// assert!(bad.is_err()); // 3 channels × 4 bytes is not a multiple of 16
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn host_im2col(
        base: *const u8,
        elem: TensorElem,
        dims: &[u64],
        strides: &[u64],
        lower: &[i32],
        upper: &[i32],
        channels_per_pixel: u32,
        pixels_per_column: u32,
    ) -> Result<TensorMap, &'static str> {
        let r = dims.len();
        if !(3..=5).contains(&r) || strides.len() + 1 != r {
            return Err("an im2col map has rank 3..=5 with rank-1 strides");
        }
        if lower.len() != r - 2 || upper.len() != r - 2 {
            return Err("the bounding box corners have rank-2 values each");
        }
        let bits = [16, 8, 5][r - 3];
        let (lo, hi) = (-(1i32 << (bits - 1)), (1i32 << (bits - 1)) - 1);
        if lower.iter().chain(upper).any(|c| !(lo..=hi).contains(c)) {
            return Err("a bounding box corner is out of the range for this rank");
        }
        if !(1..=256).contains(&channels_per_pixel)
            || !(channels_per_pixel as u64 * elem.bytes() as u64).is_multiple_of(16)
        {
            return Err("channels per pixel must be 1..=256 spanning a multiple of 16 bytes");
        }
        if !(1..=1024).contains(&pixels_per_column) {
            return Err("pixels per column must be 1..=1024");
        }
        if (0..r - 2).any(|s| dims[1 + s] as i64 - 1 + upper[s] as i64 - (lower[s] as i64) < 0) {
            return Err("the bounding box is empty");
        }
        if strides.iter().any(|s| s % 16 != 0) {
            return Err("global strides must be multiples of 16 bytes");
        }
        let mut w = [0u64; 16];
        w[0] = HOST_MAP_MAGIC;
        w[1] = base as u64;
        w[2] = elem.bytes() as u64
            | (elem as u64 + 1) << 8
            | (r as u64) << 32
            | HOST_MODE_IM2COL << 40;
        w[3..3 + r].copy_from_slice(dims);
        w[8..8 + r - 1].copy_from_slice(strides);
        w[13] = (channels_per_pixel as u64) << 16 | (pixels_per_column as u64) << 32;
        for s in 0..r - 2 {
            w[14] |= (lower[s] as u16 as u64) << (16 * s);
            w[15] |= (upper[s] as u16 as u64) << (16 * s);
        }
        Ok(TensorMap { opaque: w })
    }

    /// Host backend only: the element type of a typed host map (`None`: untyped, made by
    /// [`host_tiled`](Self::host_tiled), or not a host map).
    ///
    /// No instruction. PTX ISA §5.5.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::copy::TensorMap;
    /// let d = [0u32; 4];
    /// assert_eq!(TensorMap::host_tiled(d.as_ptr().cast(), 4, &[4], &[], &[4]).unwrap().host_elem_type(), None);
    /// ```
    pub fn host_elem_type(&self) -> Option<TensorElem> {
        if self.opaque[0] != HOST_MAP_MAGIC {
            return None;
        }
        match (self.opaque[2] >> 8) & 0xff {
            0 => None,
            k => TensorElem::from_code(k as u32 - 1),
        }
    }

    /// Host: whether this is a map of this crate's host encoding.
    pub(crate) fn is_host_map(&self) -> bool {
        self.opaque[0] == HOST_MAP_MAGIC
    }

    /// Host: the map, checked to be a host map (the copies' documented precondition).
    fn host_words(&self, what: &str) -> &[u64; 16] {
        assert!(
            self.is_host_map(),
            "{what} on the host backend needs a map made by TensorMap::host_tiled / \
             host_tiled_of / host_im2col (a driver-encoded CUtensorMap has no host meaning)"
        );
        &self.opaque
    }

    /// Host: sets the element type (and its size).
    pub(crate) fn set_host_elem_type(&mut self, e: TensorElem) {
        let w = &mut self.opaque[2];
        *w = (*w & !0xffff) | e.bytes() as u64 | (e as u64 + 1) << 8;
    }

    /// Host: the rank.
    pub(crate) fn host_rank(&self) -> usize {
        ((self.opaque[2] >> 32) & 0xff) as usize
    }

    /// Host: whether the map is an im2col map.
    pub(crate) fn host_is_im2col(&self) -> bool {
        (self.opaque[2] >> 40) & 0xff == HOST_MODE_IM2COL
    }

    /// Host: visits every element of the box at `coords`: `(box offset, Some(global address))`
    /// in bounds, `(box offset, None)` out of bounds. Returns the box's bytes.
    pub(crate) fn host_box(&self, coords: &[i32], f: impl FnMut(usize, Option<usize>)) -> u32 {
        let sides = self.host_tile_sides("a .tile tensor copy", coords.len());
        self.host_rows(coords, &sides[..coords.len()], f)
    }

    /// Host: the box sides of a tiled host map of rank `rank` (checked: a host map, tiled, of
    /// that rank; `what` names the instruction in the panic).
    pub(crate) fn host_tile_sides(&self, what: &str, rank: usize) -> [usize; 5] {
        let w = self.host_words(what);
        assert!(
            !self.host_is_im2col(),
            "{what} needs a tiled map (TensorMap::host_tiled*), not an im2col map"
        );
        let r = self.host_rank();
        assert_eq!(
            r, rank,
            "{what}: the tensor map's rank and the coordinate count differ"
        );
        let bx = |i: usize| ((w[12 + i / 4] >> (16 * (i % 4))) & 0xffff) as usize;
        core::array::from_fn(|i| if i < r { bx(i) } else { 1 })
    }

    /// Host: the elements of the box of sides `sides` at `coords` (innermost first), as
    /// [`host_box`](Self::host_box).
    pub(crate) fn host_rows(
        &self,
        coords: &[i32],
        sides: &[usize],
        mut f: impl FnMut(usize, Option<usize>),
    ) -> u32 {
        let w = &self.opaque;
        let (eb, r) = (self.host_elem(), sides.len());
        let total: usize = sides.iter().product();
        for e in 0..total {
            let (mut rem, mut addr, mut inb) = (e, w[1] as usize, true);
            for d in 0..r {
                let g = coords[d] as i64 + (rem % sides[d]) as i64;
                rem /= sides[d];
                inb &= g >= 0 && (g as u64) < w[3 + d];
                addr = addr.wrapping_add((g as usize).wrapping_mul(if d == 0 {
                    eb
                } else {
                    w[8 + d - 1] as usize
                }));
            }
            f(e * eb, if inb { Some(addr) } else { None });
        }
        (total * eb) as u32
    }

    /// Host: the address of the element at `g` (in bounds) or `None`.
    fn host_addr(&self, g: &[i64]) -> Option<usize> {
        let w = &self.opaque;
        let mut addr = w[1] as usize;
        for (d, &x) in g.iter().enumerate() {
            if x < 0 || x as u64 >= w[3 + d] {
                return None;
            }
            let stride = if d == 0 {
                self.host_elem()
            } else {
                w[8 + d - 1] as usize
            };
            addr = addr.wrapping_add((x as usize).wrapping_mul(stride));
        }
        Some(addr)
    }

    /// Host: visits the elements of the im2col box at `coords` with im2col `offsets` (PTX ISA
    /// §5.5 im2col mode): `pixels per column` pixels, starting at the base pixel `coords[1..r-1]`
    /// of image `coords[r-1]` and running through the bounding box (W fastest, then H, D, then
    /// the next image), each `channels per pixel` channels from `coords[0]`, read at the pixel
    /// plus `offsets`; out-of-tensor elements `None`. Returns the box's bytes.
    pub(crate) fn host_im2col_box(
        &self,
        coords: &[i32],
        offsets: &[u16],
        mut f: impl FnMut(usize, Option<usize>),
    ) -> u32 {
        let w = self.host_words("an .im2col tensor copy");
        assert!(
            self.host_is_im2col(),
            "an .im2col tensor copy needs an im2col map (TensorMap::host_im2col)"
        );
        let r = self.host_rank();
        assert!(
            coords.len() == r && offsets.len() == r - 2,
            "tensor map rank and coordinate count differ"
        );
        let eb = self.host_elem();
        let cpp = ((w[13] >> 16) & 0xffff) as usize;
        let ppc = ((w[13] >> 32) & 0xffff) as usize;
        let corner = |word: u64, s: usize| ((word >> (16 * s)) & 0xffff) as u16 as i16 as i64;
        let ns = r - 2;
        let lo: [i64; 3] = core::array::from_fn(|s| if s < ns { corner(w[14], s) } else { 0 });
        let side: [i64; 3] = core::array::from_fn(|s| {
            if s < ns {
                w[4 + s] as i64 - 1 + corner(w[15], s) - lo[s] + 1
            } else {
                1
            }
        });
        let per_image: i64 = side.iter().product();
        // The start pixel's linear index (images outermost).
        let mut start = coords[r - 1] as i64 * per_image;
        let mut scale = 1;
        for s in 0..ns {
            start += (coords[1 + s] as i64 - lo[s]) * scale;
            scale *= side[s];
        }
        let mut g = [0i64; 5];
        for p in 0..ppc {
            let lin = start + p as i64;
            let (n, mut rem) = (lin.div_euclid(per_image), lin.rem_euclid(per_image));
            for s in 0..ns {
                g[1 + s] = lo[s] + rem % side[s] + offsets[s] as i64;
                rem /= side[s];
            }
            g[r - 1] = n;
            for c in 0..cpp {
                g[0] = coords[0] as i64 + c as i64;
                f((p * cpp + c) * eb, self.host_addr(&g[..r]));
            }
        }
        (ppc * cpp * eb) as u32
    }

    pub(crate) fn host_elem(&self) -> usize {
        (self.opaque[2] & 0xff) as usize
    }
}

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
unsafe fn host_tensor_load<Tag>(
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

/// Catalog rows of this module (`ptx-sync show`). `extra` holds `src=<space>`,
/// `completion=<Mbarrier|BulkGroup>`, `multicast`, `dim=<n>`, or `<CacheOp>:<bytes>[:zfill]`.
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    #[allow(unused_imports)]
    use crate::catalog::{Completion, Form, Marker as M, Variant};
    use crate::instr::Instr;
    // PTX ISA §9.7.9.25: `cp.async` PTX 7.0 / sm_80, PTX 7.8 for the `.shared::cta` spelling
    // (the rows with a state space); seed §5.1.
    let v = Variant {
        family: "cp.async",
        sm: 80,
        ptx_isa: 70,
        isa: "9.7.9.25",
        seed: "5.1",
        ..Variant::EMPTY
    };
    let mut f = |r: Variant| {
        f(Variant {
            ptx_isa: if r.space == M::Shared {
                r.ptx_isa.max(78)
            } else {
                r.ptx_isa
            },
            ..r
        })
    };
    // A row and, with a second `[ptx, rust]`, its `.L2::cache_hint` twin (operands `KEY hint`).
    macro_rules! row {
        ($blk:ident ($($k:tt)*) [$ptx:expr, $rust:expr] [$hptx:expr, $hrust:expr]; $v:expr) => {
            row!($blk ($($k)*) [$ptx, $rust]; $v);
            row!($blk ($($k)* hint) [$hptx, $hrust]; Variant { form: Form { cache_hint: true, ..$v.form }, ..$v });
        };
        ($blk:ident ($($k:tt)*) [$ptx:expr, $rust:expr]; $v:expr) => {
            f(with_ops!($blk; ($($k)*); Variant { ptx: $ptx, rust: $rust, ..$v }))
        };
    }
    macro_rules! cpa_v {
        ($C:ident, $n:literal) => {
            let c = Variant {
                space: M::Shared,
                form: Form {
                    cache: M::$C,
                    bytes: $n,
                    ..Form::NONE
                },
                ..v
            };
            row!(cvta (cp_async $n)
                [<$C as CpAsyncInstr<$n>>::PTX, concat!("cp_async::<", stringify!($C), ", ", $n, ">")]
                [<$C as CpAsyncInstr<$n>>::PTX_HINT, concat!("cp_async_hint::<", stringify!($C), ", ", $n, ">")];
                c);
            row!(cvta (cp_async_zfill $n)
                [<$C as CpAsyncInstr<$n>>::PTX, concat!("cp_async_zfill::<", stringify!($C), ", ", $n, ">")]
                [<$C as CpAsyncInstr<$n>>::PTX_HINT, concat!("cp_async_zfill_hint::<", stringify!($C), ", ", $n, ">")];
                Variant { form: Form { zfill: true, ..c.form }, ..c });
            cpa_v!(@pf $C $n c; Prefetch64B Prefetch128B Prefetch256B);
        };
        // `.level::prefetch_size` (PTX ISA §9.7.9.25.3): each row again per prefetch size.
        (@pf $C:ident $n:literal $c:ident; $($P:ident)*) => {$(
            let p = Variant { form: Form { prefetch: M::$P, ..$c.form }, ..$c };
            row!(cvta (cp_async $n)
                [<$C as CpAsyncPrefetchInstr<$n, $P>>::PTX, concat!("cp_async_prefetch::<", stringify!($C), ", ", $n, ", ", stringify!($P), ">")]
                [<$C as CpAsyncPrefetchInstr<$n, $P>>::PTX_HINT, concat!("cp_async_hint_prefetch::<", stringify!($C), ", ", $n, ", ", stringify!($P), ">")];
                p);
            row!(cvta (cp_async_zfill $n)
                [<$C as CpAsyncPrefetchInstr<$n, $P>>::PTX, concat!("cp_async_zfill_prefetch::<", stringify!($C), ", ", $n, ", ", stringify!($P), ">")]
                [<$C as CpAsyncPrefetchInstr<$n, $P>>::PTX_HINT, concat!("cp_async_zfill_hint_prefetch::<", stringify!($C), ", ", $n, ", ", stringify!($P), ">")];
                Variant { form: Form { zfill: true, ..p.form }, ..p });
        )*};
    }
    for_cp_async! { cpa_v }
    f(with_ops!(none; (none); Variant {
        op: "commit_group",
        ptx: CpAsyncCommitGroup::PTX,
        rust: "cp_async_commit_group",
        ..v
    }));
    f(with_ops!(none; (imm); Variant {
        op: "wait_group",
        ptx: CpAsyncWaitGroup::PTX,
        rust: "cp_async_wait_group::<N>",
        ..v
    }));
    f(with_ops!(none; (none); Variant {
        op: "wait_all",
        ptx: CpAsyncWaitAll::PTX,
        rust: "cp_async_wait_all",
        ..v
    }));
    f(with_ops!(none; (cp_mbar); Variant {
        op: "mbarrier.arrive",
        ty: "b64",
        space: M::Shared,
        ptx: CpAsyncMbarrierArrive::PTX,
        rust: "cp_async_mbarrier_arrive",
        ..v
    }));
    f(with_ops!(none; (cp_mbar); Variant {
        op: "mbarrier.arrive.noinc",
        ty: "b64",
        space: M::Shared,
        ptx: CpAsyncMbarrierArriveNoinc::PTX,
        rust: "cp_async_mbarrier_arrive_noinc",
        ..v
    }));
    // §9.7.9.25.4 (bulk copies, bulk reductions): PTX 8.0 / sm_90; seed §5.2.
    let b = Variant {
        family: "cp.async.bulk",
        sm: 90,
        ptx_isa: 80,
        isa: "9.7.9.25.4",
        seed: "5.2",
        ..v
    };
    let g2s = Form {
        src: M::Global,
        completion: Completion::Mbarrier,
        ..Form::NONE
    };
    row!(cvta (bulk_g2s) [CpAsyncBulkG2S::PTX, "cp_async_bulk_g2s"]
        [CpAsyncBulkG2SHint::PTX, "cp_async_bulk_g2s_hint"];
        Variant { space: M::SharedCluster, form: g2s, ..b });
    row!(cvta (bulk_g2s_mc) [CpAsyncBulkG2SMulticast::PTX, "cp_async_bulk_g2s_multicast"]
        [CpAsyncBulkG2SMulticastHint::PTX, "cp_async_bulk_g2s_multicast_hint"];
        Variant { space: M::SharedCluster, form: Form { multicast: true, ..g2s }, ..b });
    let s2g = Form {
        src: M::Shared,
        completion: Completion::BulkGroup,
        ..Form::NONE
    };
    row!(cvta (bulk_s2g) [CpAsyncBulkS2G::PTX, "cp_async_bulk_s2g"]
        [CpAsyncBulkS2GHint::PTX, "cp_async_bulk_s2g_hint"];
        Variant { space: M::Global, form: s2g, ..b });
    row!(none (bulk_s2c) [CpAsyncBulkS2C::PTX, "cp_async_bulk_s2c"];
        Variant { space: M::SharedCluster, form: Form { src: M::Shared, ..g2s }, ..b });
    row!(none (none) [CpAsyncBulkCommitGroup::PTX, "cp_async_bulk_commit_group"];
        Variant { op: "commit_group", ..b });
    row!(none (imm) [CpAsyncBulkWaitGroup::PTX, "cp_async_bulk_wait_group::<N>"];
        Variant { op: "wait_group", ..b });
    row!(none (imm) [CpAsyncBulkWaitGroupRead::PTX, "cp_async_bulk_wait_group_read::<N>"];
        Variant { op: "wait_group.read", ..b });
    row!(cvta (bulk_prefetch) [CpAsyncBulkPrefetch::PTX, "cp_async_bulk_prefetch"]
        [CpAsyncBulkPrefetchHint::PTX, "cp_async_bulk_prefetch_hint"];
        Variant { op: "prefetch.L2", space: M::Global, ..b });
    reduce::catalog_rows(&mut f);
    tensor_reduce::catalog_rows(&mut f);
    im2col::catalog_rows(&mut f);
    macro_rules! tensor_v {
        ($n:literal $d:literal $cs:literal [$($c:ident $i:literal),*]) => {
            let t = Variant {
                family: "cp.async.bulk.tensor",
                // §9.7.9.25.5: PTX 8.0 / sm_90; seed §5.2.
                sm: 90,
                ptx_isa: 80,
                isa: "9.7.9.25.5",
                seed: "5.2",
                form: Form {
                    dim: $n,
                    ..Form::NONE
                },
                ..v
            };
            row!(none (tensor_load $cs)
                [<[i32; $n] as TensorCoords>::PTX_LOAD, concat!("cp_async_bulk_tensor_load::<[i32; ", $n, "], _>")]
                [<[i32; $n] as TensorCoords>::PTX_LOAD_HINT, concat!("cp_async_bulk_tensor_load_hint::<[i32; ", $n, "], _>")];
                Variant { op: "load", space: M::SharedCluster, ..t });
            row!(none (tensor_load_mc $cs)
                [<[i32; $n] as TensorCoords>::PTX_LOAD_MULTICAST, concat!("cp_async_bulk_tensor_load_multicast::<[i32; ", $n, "], _>")]
                [<[i32; $n] as TensorCoords>::PTX_LOAD_MULTICAST_HINT, concat!("cp_async_bulk_tensor_load_multicast_hint::<[i32; ", $n, "], _>")];
                Variant { op: "load.multicast", space: M::SharedCluster, ..t });
            row!(none (tensor_store $cs)
                [<[i32; $n] as TensorCoords>::PTX_STORE, concat!("cp_async_bulk_tensor_store::<[i32; ", $n, "]>")]
                [<[i32; $n] as TensorCoords>::PTX_STORE_HINT, concat!("cp_async_bulk_tensor_store_hint::<[i32; ", $n, "]>")];
                Variant { op: "store", space: M::Global, ..t });
            row!(none (tensor_prefetch $cs)
                [<[i32; $n] as TensorCoords>::PTX_PREFETCH, concat!("cp_async_bulk_prefetch_tensor::<[i32; ", $n, "]>")]
                [<[i32; $n] as TensorCoords>::PTX_PREFETCH_HINT, concat!("cp_async_bulk_prefetch_tensor_hint::<[i32; ", $n, "]>")];
                Variant { op: "prefetch", space: M::Global, ..t });
        };
    }
    for_tensor_dims! { tensor_v }
}
