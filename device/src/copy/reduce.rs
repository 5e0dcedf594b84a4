//! `cp.reduce.async.bulk`: the bulk reductions, shared memory → global memory (bulk-group
//! completion, optionally `.L2::cache_hint`) and shared memory → a peer CTA's shared memory
//! (completing on the peer's mbarrier). PTX ISA §9.7.9.25.4 (`cp.reduce.async.bulk`), PTX 8.0 /
//! sm_90; seed §5.2 (a bulk copy completes on an mbarrier or a bulk group, never in program order).
//!
//! Each element's update is an atomic reduction, relaxed at `.gpu` scope (PTX ISA §9.7.9.25.4:
//! "each data element … the reduction operation is performed atomically"), so concurrent
//! reductions into the same elements lose nothing.
//!
//! The operator is a marker of [`atomic::op`](crate::atomic::op), the element type a Rust type;
//! the legal pairs are the rows of the ISA's table, and nothing else compiles: `.add` on
//! `u32` `.u32`, `i32` `.s32`, `u64` `.u64`, `i64` `.u64` (two's complement: PTX has no
//! `.add.s64`), `f32` `.f32`, `f64` `.f64`, [`F16`] `.noftz.f16`, [`Bf16`] `.noftz.bf16`;
//! `.min`/`.max` on `u32`, `i32`, `u64`, `i64` (`.s64`), [`F16`], [`Bf16`]; `.inc`/`.dec` on
//! `u32`; `.and`/`.or`/`.xor` on `u32` `.b32`, `u64` `.b64`. Into `.shared::cluster` only the
//! 32-bit integer rows and `.add` on the 64-bit integers:
//!
//! <!-- generated from device/isa/copy_reduce.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`cp_reduce_async_bulk`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.{add.u32,min.u32,max.u32,inc.u32,dec.u32,and.b32,or.b32,xor.b32} [g], [ss], n;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_hint`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.{add.u32,min.u32,max.u32,inc.u32,dec.u32,and.b32,or.b32,xor.b32} [g], [ss], n, pol;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_s2c`] | `cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.{add.u32,min.u32,max.u32,inc.u32,dec.u32,and.b32,or.b32,xor.b32} [sd], [ss], n, [b];` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.{add.s32,min.s32,max.s32} [g], [ss], n;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_hint`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.{add.s32,min.s32,max.s32} [g], [ss], n, pol;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_s2c`] | `cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.{add.s32,min.s32,max.s32} [sd], [ss], n, [b];` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.{add.u64,min.u64,max.u64,and.b64,or.b64,xor.b64} [g], [ss], n;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_hint`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.{add.u64,min.u64,max.u64,and.b64,or.b64,xor.b64} [g], [ss], n, pol;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_s2c::<Add, u64, _>`](cp_reduce_async_bulk_s2c) | `cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u64 [sd], [ss], n, [b];` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.{add.u64,min.s64,max.s64} [g], [ss], n;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_hint`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.{add.u64,min.s64,max.s64} [g], [ss], n, pol;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_s2c::<Add, i64, _>`](cp_reduce_async_bulk_s2c) | `cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u64 [sd], [ss], n, [b];` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk::<Add, f32>`](cp_reduce_async_bulk) | `cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [g], [ss], n;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_hint::<Add, f32>`](cp_reduce_async_bulk_hint) | `cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.f32 [g], [ss], n, pol;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk::<Add, f64>`](cp_reduce_async_bulk) | `cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f64 [g], [ss], n;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_hint::<Add, f64>`](cp_reduce_async_bulk_hint) | `cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.f64 [g], [ss], n, pol;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.{add.noftz.f16,min.f16,max.f16} [g], [ss], n;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_hint`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.{add.noftz.f16,min.f16,max.f16} [g], [ss], n, pol;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.{add.noftz.bf16,min.bf16,max.bf16} [g], [ss], n;` | 8.0 / sm_90 |
//! | [`cp_reduce_async_bulk_hint`] | `cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.{add.noftz.bf16,min.bf16,max.bf16} [g], [ss], n, pol;` | 8.0 / sm_90 |
//!
//! PTX: `cp.reduce.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}.redOp.type [d], [s],
//! n{, policy};` and `cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type
//! [d], [s], n, [b];` (the cache hint sits before `.redOp`, PTX ISA §9.7.9.25.4).
//!
//! # Host backend
//! The rows' host arms (`backend/host/reduce.rs`): at issue, one relaxed atomic read-modify-write per element (a compare-exchange loop on the
//! element's bits; `.inc`/`.dec` as `atom.inc`/`atom.dec`: `old >= b ? 0 : old + 1`,
//! `old == 0 || old > b ? b : old - 1`; `.f16`/`.bf16` added exactly and rounded to nearest even,
//! subnormals kept (`.noftz`); `min`/`max` of a NaN and a number give the number); the
//! `.shared::cluster` form then completes the bytes on the barrier, as the copy engine does.
//! The reduction goes through the library's copy engine (`backend/copy_engine.rs`): under `--cfg loom`
//! it is performed on an engine thread and completes only at `cp.async.bulk.wait_group` (or,
//! `.shared::cluster`, on the barrier), so a reader that skips the wait may see the old value.
//!
//! ```
//! use ptx_sync::{atomic::op::{Max, Or}, copy::*, shared::to_shared};
//! #[repr(align(16))] struct A([u32; 4]);
//! let (mut acc, part) = (A([5, 0, 9, 1]), A([7, 7, 7, 7]));
//! unsafe { cp_reduce_async_bulk::<Max, _>(acc.0.as_mut_ptr(), to_shared(part.0.as_ptr()), 16) };
//! unsafe { cp_reduce_async_bulk::<Or, _>(acc.0.as_mut_ptr(), to_shared(part.0.as_ptr()), 16) };
//! cp_async_bulk_commit_group();
//! cp_async_bulk_wait_group::<0>();
//! assert_eq!(acc.0, [7, 7, 15, 7]);
//! ```

use super::*;
use crate::atomic::op::{self, Add};
use crate::policy::CachePolicy;

/// The `.f16` / `.bf16` elements of [`cp_reduce_async_bulk`]: the atomic module's IEEE 754
/// binary16 and bfloat16 bits wrappers ([`crate::atomic::F16`], [`crate::atomic::Bf16`], with
/// their round-to-nearest-even `f32` conversions), re-exported here as `copy::F16` /
/// `copy::Bf16`. No instruction of their own; PTX ISA §5.2.1.
///
/// ```
/// use ptx_sync::copy::{Bf16, F16};
/// assert_eq!(core::mem::size_of::<F16>(), 2);
/// assert_eq!(F16::from_bits(0x3c00).to_bits() >> 10, 15); // biased exponent of 1.0
/// assert_eq!(f32::from_bits((Bf16::from_bits(0x3f80).to_bits() as u32) << 16), 1.0);
/// assert_eq!(F16::from_bits(0x3c00), ptx_sync::F16::from_f32(1.0)); // one type
/// ```
pub use crate::atomic::{Bf16, F16};

// `BulkReduce`, `BulkReduceCluster` and their impls (one per row of the ISA's op/type table),
// with the `asm!` leaves, host arms and catalog rows: generated from device/isa/copy_reduce.rows.
include!(concat!(env!("OUT_DIR"), "/isa/copy_reduce.rs"));

/// `cp.reduce.async.bulk.global.shared::cta.bulk_group.redOp.type [d], [s], n;` — element-wise
/// `dst[i] = dst[i] op src[i]` by TMA, each element an atomic reduction (relaxed, `.gpu`), so
/// concurrent reductions into the same elements lose nothing; completes through bulk groups
/// ([`cp_async_bulk_commit_group`] + [`cp_async_bulk_wait_group`]). Host: the same, at issue
/// (under loom on a copy-engine thread, completed by the wait).
///
/// # Safety
/// As [`cp_async_bulk_s2g`]; `dst` aligned for `T`, and every concurrent access to its elements
/// atomic (another reduction, or an atomic of this crate).
///
/// `Op` a marker of [`atomic::op`](crate::atomic::op), `T` the element (the pairs of the
/// [module table](self); `cp_reduce_async_bulk::<Inc, i32>` does not compile). SASS: not
/// recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.4; seed §5.2.
///
/// # Examples
///
/// ```
/// use ptx_sync::{atomic::op::Inc, copy::*, shared::to_shared};
/// #[repr(align(16))] struct A([u32; 4]);
/// let (mut acc, bound) = (A([0, 1, 2, 3]), A([3; 4]));
/// unsafe { cp_reduce_async_bulk::<Inc, _>(acc.0.as_mut_ptr(), to_shared(bound.0.as_ptr()), 16) };
/// cp_async_bulk_commit_group();
/// cp_async_bulk_wait_group::<0>();
/// assert_eq!(acc.0, [1, 2, 3, 0]); // atom.inc: old >= b ? 0 : old + 1
/// assert_eq!(<u32 as BulkReduce<Inc>>::PTX, "cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.u32");
/// ```
///
/// ```compile_fail
/// use ptx_sync::{atomic::op::Inc, copy::cp_reduce_async_bulk, shared::to_shared};
/// let (mut d, s) = ([0i32; 4], [0i32; 4]);
/// unsafe { cp_reduce_async_bulk::<Inc, _>(d.as_mut_ptr(), to_shared(s.as_ptr()), 16) }; // .inc is .u32 only
/// ```
#[inline(always)]
pub unsafe fn cp_reduce_async_bulk<Op: op::Op, T: BulkReduce<Op>>(
    dst: *mut T,
    src: SharedAddr,
    bytes: u32,
) {
    check_bulk(bytes);
    unsafe { T::exec(dst, src, bytes) }
}

/// [`cp_reduce_async_bulk`] with `.L2::cache_hint`: the global accesses use `policy`.
/// `cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.redOp.type [d], [s], n,
/// policy;` — PTX 8.0, sm_90; PTX ISA §9.7.9.25.4, seed §5.2. Host: the reduction without the
/// hint.
///
/// # Safety
/// As [`cp_reduce_async_bulk`]; `policy` made by [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{atomic::op::Add, copy::*, policy::*, shared::to_shared};
/// #[repr(align(16))] struct A([f32; 4]);
/// let (mut acc, part) = (A([1.0; 4]), A([0.5; 4]));
/// let pol = createpolicy::<EvictLast, NoSecondary>(1.0);
/// unsafe { cp_reduce_async_bulk_hint::<Add, _>(acc.0.as_mut_ptr(), to_shared(part.0.as_ptr()), 16, pol) };
/// assert_eq!(acc.0, [1.5; 4]);
/// ```
#[inline(always)]
pub unsafe fn cp_reduce_async_bulk_hint<Op: op::Op, T: BulkReduce<Op>>(
    dst: *mut T,
    src: SharedAddr,
    bytes: u32,
    policy: CachePolicy,
) {
    check_bulk(bytes);
    unsafe { T::exec_hint(dst, src, bytes, policy) }
}

/// `cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type
/// [d], [s], n, [b];` — reduces this CTA's `src` into a peer CTA's shared memory `dst`, each
/// element atomically, completing `bytes` of tx on the peer's barrier `bar`.
///
/// # Safety
/// As [`cp_async_bulk_s2c`] (`dst` and `bar` in the shared memory of a CTA of the cluster),
/// `dst` aligned for `T`, and every concurrent access to its elements atomic.
///
/// `T`/`Op` from the `.shared::cluster` rows of the [module table](self) (no float, no 64-bit
/// min/max/bitwise: `cp_reduce_async_bulk_s2c::<Add, f32, _>` does not compile). SASS: not
/// recorded in the repo. PTX 8.0 / sm_90. PTX ISA §9.7.9.25.4; seed §5.4.
///
/// # Examples
///
/// ```
/// use ptx_sync::{atomic::op::Add, copy::cp_reduce_async_bulk_s2c, Mbarrier, Phase, Release, Acquire, Cluster, shared::to_shared};
/// #[repr(align(16))] struct A([u32; 4]);
/// let (part, mut peer) = (A([1, 2, 3, 4]), A([10; 4])); // on the device `peer` is in another CTA
/// let bar: Mbarrier = Mbarrier::new();
/// bar.init(1);
/// let _ = bar.arrive_expect_tx::<Release, Cluster>(16);
/// let dst = to_shared(peer.0.as_mut_ptr()).to_cluster();
/// unsafe { cp_reduce_async_bulk_s2c::<Add, u32, _>(dst, to_shared(part.0.as_ptr()), 16, bar.remote(1)) };
/// assert!(bar.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
/// assert_eq!(peer.0, [11, 12, 13, 14]);
/// ```
///
/// ```compile_fail
/// use ptx_sync::{atomic::op::Add, copy::cp_reduce_async_bulk_s2c, Mbarrier, shared::to_shared};
/// let (s, mut d) = ([0f32; 4], [0f32; 4]);
/// let bar: Mbarrier = Mbarrier::new();
/// let dst = to_shared(d.as_mut_ptr()).to_cluster();
/// unsafe { cp_reduce_async_bulk_s2c::<Add, f32, _>(dst, to_shared(s.as_ptr()), 16, bar.remote(1)) }; // no .add.f32 into .shared::cluster
/// ```
#[inline(always)]
pub unsafe fn cp_reduce_async_bulk_s2c<Op: op::Op, T: BulkReduceCluster<Op>, Tag>(
    dst: ClusterAddr,
    src: SharedAddr,
    bytes: u32,
    bar: RemoteMbarrier<'_, Tag>,
) {
    check_bulk(bytes);
    unsafe { T::exec_cluster(dst, src, bytes, bar) }
}

/// `cp.reduce.async.bulk.global.shared::cta.bulk_group.add.type [d], [s], n;` — as
/// [`cp_reduce_async_bulk::<Add, T>`](cp_reduce_async_bulk) (kept for the callers of the first
/// version). PTX 8.0 / sm_90; PTX ISA §9.7.9.25.4; seed §5.2.
///
/// # Safety
/// As [`cp_reduce_async_bulk`].
///
/// # Examples
///
/// ```
/// use ptx_sync::{copy::{cp_reduce_async_bulk_add, cp_async_bulk_commit_group, cp_async_bulk_wait_group}, shared::to_shared};
/// #[repr(align(16))] struct A([u32; 4]);
/// let (mut acc, part) = (A([10; 4]), A([1, 2, 3, 4]));
/// unsafe { cp_reduce_async_bulk_add(acc.0.as_mut_ptr(), to_shared(part.0.as_ptr()), 16) };
/// cp_async_bulk_commit_group();
/// cp_async_bulk_wait_group::<0>();
/// assert_eq!(acc.0, [11, 12, 13, 14]);
/// ```
///
/// ```compile_fail
/// use ptx_sync::{copy::cp_reduce_async_bulk_add, shared::to_shared};
/// let (mut d, s) = ([0u8; 16], [0u8; 16]);
/// unsafe { cp_reduce_async_bulk_add(d.as_mut_ptr(), to_shared(s.as_ptr()), 16) }; // no .add.u8
/// ```
#[inline(always)]
pub unsafe fn cp_reduce_async_bulk_add<T: BulkReduce<Add>>(
    dst: *mut T,
    src: SharedAddr,
    bytes: u32,
) {
    unsafe { cp_reduce_async_bulk::<Add, T>(dst, src, bytes) }
}
