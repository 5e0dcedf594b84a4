//! Asynchronous stores and reductions into a peer CTA's shared memory that complete on its
//! mbarrier: `st.async` and `red.async` (PTX 8.1, sm_90).
//!
//! PTX ISA §9.7.9.12 (`st.async`), §9.7.13.7 (`red.async`); seed §5.4 (a cluster protocol: a
//! producer CTA writes into a consumer CTA's shared memory and completes the transaction bytes
//! on the consumer's `full` mbarrier — the register-sized counterpart of
//! [`cp_async_bulk_s2c`](crate::copy::cp_async_bulk_s2c)).
//!
//! Grammar (PTX ISA 9.1):
//!
//! ```text
//! st.async{.sem}{.scope}{.ss}{.completion_mechanism}{.vec}.type [a], b, [mbar];
//!   .sem = { .weak }  .scope = { .cluster }  .ss = { .shared::cluster }
//!   .type = { .b32, .b64, .u32, .u64, .s32, .s64, .f32, .f64 }  .vec = { .v2, .v4 }
//!   .completion_mechanism = { .mbarrier::complete_tx::bytes }
//! red.async.sem.scope{.ss}.completion_mechanism.op.type [a], b, [mbar];
//!   .sem = { .relaxed }  .scope = { .cluster }  .ss = { .shared::cluster }
//!   .op = { .inc, .dec } with .type = { .u32 };  .op = { .min, .max } with { .u32, .s32 };
//!   .op = { .and, .or, .xor } with { .b32 };     .add with { .u32, .s32, .u64 }
//! ```
//!
//! This crate emits the fully spelled forms (`st.async.weak.shared::cluster.mbarrier::complete_tx::bytes…`,
//! `red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes…`). The Rust value type
//! picks `.type`: `u32`/`i32`/`f32` → `.u32`/`.s32`/`.f32`, `u64`/`i64`/`f64` →
//! `.u64`/`.s64`/`.f64` (the `.b32`/`.b64` spellings store the same bits and are not emitted), a
//! `[T; 2]` adds `.v2` and a `[T; 4]` of a 32-bit `T` adds `.v4`. A `[u64; 4]` does not compile:
//! the grammar lists `.v4` for every type, but a vector is at most 128 bits (PTX ISA §5.4.2;
//! ptxas 13.0: "Vector type too large, exceeds 128 bit limit"). `red.async`'s op/type table is
//! typed the same way: `.and`/`.or`/`.xor` take `u32` and emit `.b32`; `op::Inc` on `i32`,
//! `op::Min` on `u64`, `op::Add` on `f32` or `i64` do not
//! compile — ptxas 13.0 accepts `add.s64`, the ISA does not list it).
//!
//! <!-- generated from device/isa/st_async.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`st_async::st_async`](crate::st_async::st_async) | `st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.{u32,s32,f32} [sd], v, [b];` | 8.1 / sm_90 |
//! | [`st_async::st_async`](crate::st_async::st_async) | `st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.{u64,s64,f64} [sd], w, [b];` | 8.1 / sm_90 |
//! | [`st_async::st_async`](crate::st_async::st_async) | `st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v2.{u32,s32,f32} [sd], {v0, v1}, [b];` | 8.1 / sm_90 |
//! | [`st_async::st_async`](crate::st_async::st_async) | `st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.{u32,s32,f32} [sd], {v0, v1, v2, v3}, [b];` | 8.1 / sm_90 |
//! | [`st_async::st_async`](crate::st_async::st_async) | `st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v2.{u64,s64,f64} [sd], {w0, w1}, [b];` | 8.1 / sm_90 |
//! | [`st_async::red_async`](crate::st_async::red_async) | `red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.{inc,dec}.u32 [sd], v, [b];` | 8.1 / sm_90 |
//! | [`st_async::red_async`](crate::st_async::red_async) | `red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.{min,max}.{u32,s32} [sd], v, [b];` | 8.1 / sm_90 |
//! | [`st_async::red_async`](crate::st_async::red_async) | `red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.{and,or,xor}.b32 [sd], v, [b];` | 8.1 / sm_90 |
//! | [`st_async::red_async`](crate::st_async::red_async) | `red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.{u32,s32} [sd], v, [b];` | 8.1 / sm_90 |
//! | [`st_async::red_async::<op::Add, u64, _>`](crate::st_async::red_async) | `red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [sd], w, [b];` | 8.1 / sm_90 |
//!
//! The sm_100 `.release` forms to `.global` (PTX 8.7, no mbarrier) are in [`release`]:
//! `st.async{.mmio}.release.{gpu,sys}.global.type [a], b;` and
//! `red.async{.mmio}.release.{gpu,sys}.global.add.type [a], b;`.
//!
//! # Ordering (PTX ISA §9.7.9.12, §9.7.13.7 "Conditions")
//!
//! The store is a **weak** memory operation (the reduction a **relaxed** one at `.cluster`);
//! the complete-tx that each performs on `mbar` when it completes has **`.release` semantics at
//! `.cluster` scope**. So the peer thread whose `mbarrier.try_wait{.parity}.acquire.cluster`
//! observes the phase complete sees the data (the phase cannot complete before this operation's
//! bytes have been counted). Nothing else is promised: the data is not visible before the phase
//! completes, two `st.async` to the same location are unordered, and the executing thread's
//! own earlier ordinary writes are not claimed to be published by it (publish them with an
//! mbarrier arrive `.release.cluster` on the same barrier).
//!
//! # Host backend
//! The rows' host arms (`backend/host/st_async.rs`): the store (an aligned plain write; the
//! reduction a relaxed CPU atomic RMW with the PTX operation's arithmetic) happens at issue,
//! then the complete-tx of `bytes` on the barrier as a `Release` RMW (under `--cfg loom` at `.cluster` scope) — the completion the copy engine
//! performs for an async copy, not the `.relaxed` `mbarrier.complete_tx` instruction. The data
//! write itself is not a model location under loom (a plain write to the address).
//!
//! ```
//! use ptx_sync::st_async::st_async;
//! use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cluster, shared::to_shared};
//! #[repr(align(16))] struct Slot([u32; 4]);
//! let mut slot = Slot([0; 4]);                       // in the consumer CTA on the device
//! let full: Mbarrier = Mbarrier::new();
//! full.init(1);
//! let _ = full.arrive_expect_tx::<Release, Cluster>(16);
//! let dst = to_shared(slot.0.as_mut_ptr()).to_cluster();
//! // st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v4.u32 [a], {…}, [mbar];
//! unsafe { st_async(dst, [1u32, 2, 3, 4], full.remote(1)) };
//! assert!(full.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
//! assert_eq!(slot.0, [1, 2, 3, 4]);
//! ```

use crate::atomic::op::{self, Op};
use crate::mbarrier::RemoteMbarrier;
use crate::shared::ClusterAddr;

pub mod release;

mod sealed {
    pub trait Sealed {}
}

impl sealed::Sealed for u16 {}
impl sealed::Sealed for i16 {}
impl sealed::Sealed for u32 {}
impl sealed::Sealed for i32 {}
impl sealed::Sealed for f32 {}
impl sealed::Sealed for u64 {}
impl sealed::Sealed for i64 {}
impl sealed::Sealed for f64 {}
impl<T: sealed::Sealed, const N: usize> sealed::Sealed for [T; N] {}

// `StAsyncValue`, `RedAsyncInstr` and their impls (one per value type, one per row of
// `red.async`'s op/type table), with the `asm!` leaves and the catalog rows: generated from
// device/isa/st_async.rows.
include!(concat!(env!("OUT_DIR"), "/isa/st_async.rs"));

/// `st.async.weak.shared::cluster.mbarrier::complete_tx::bytes{.v2,.v4}.type [dst], value, [bar];`
/// — stores `value` into a peer CTA's shared memory at `dst`, then (asynchronously) performs a
/// complete-tx of [`T::BYTES`](StAsyncValue::BYTES) on `bar`, the mbarrier in that CTA. The
/// consumer arms `bar` with `arrive_expect_tx` for the bytes it expects and waits on it with
/// `Acquire` at `Cluster` scope. PTX 8.1, sm_90; PTX ISA §9.7.9.12; seed §5.4.
///
/// `T` ∈ {`u32`, `i32`, `f32`, `u64`, `i64`, `f64`, `[T; 2]` of those, `[T; 4]` of the 32-bit
/// ones} ([`StAsyncValue`]); anything else does not compile. Ordering: the module docs (the
/// store is weak, the complete-tx `.release.cluster`). SASS: not recorded in the repo.
///
/// # Safety
/// The ISA's preconditions (§9.7.9.12, undefined behaviour otherwise): `dst` and `bar` are
/// `.shared::cluster` addresses in the **same CTA** of this cluster (this crate requires a peer
/// CTA, as `red.async` does), the cluster has more than one CTA (`%cluster_nctarank > 1`);
/// `dst` is valid for and aligned to `T::BYTES` (a vector's whole size); `bar` is an
/// initialized mbarrier whose tx-count stays within `±(2^20 - 1)`; no other access to
/// `dst` races with the store before the consumer observes the phase complete. On the host:
/// `dst` points to live memory of `T` and `bar` to a live `Mbarrier` (a misaligned `dst`
/// panics).
///
/// # Examples
///
/// ```
/// use ptx_sync::st_async::{st_async, StAsyncValue};
/// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cluster, shared::to_shared};
/// let mut x = 0u64;
/// let full: Mbarrier = Mbarrier::new();
/// full.init(1);
/// let _ = full.arrive_expect_tx::<Release, Cluster>(8);
/// unsafe { st_async(to_shared(&mut x as *mut u64).to_cluster(), 7u64, full.remote(1)) };
/// assert!(full.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
/// assert_eq!(x, 7);
/// assert_eq!(<[f32; 2] as StAsyncValue>::PTX,
///            "st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v2.f32");
/// ```
///
/// Across threads (the host's stand-in for two CTAs): the waiter that observes the phase
/// complete with `Acquire` at `Cluster` scope sees the stored value (the complete-tx releases it):
///
/// ```
/// use ptx_sync::st_async::st_async;
/// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cluster, shared::to_shared, wait::Budget};
/// #[repr(align(8))] struct Slot([u32; 2]);
/// let mut slot = Slot([0; 2]);
/// let dst = to_shared(slot.0.as_mut_ptr()).to_cluster();
/// let full: Mbarrier = Mbarrier::new();
/// full.init(1);
/// let _ = full.arrive_expect_tx::<Release, Cluster>(8);      // the consumer arms its `full`
/// std::thread::scope(|s| {
///     s.spawn(|| unsafe { st_async(dst, [5u32, 6], full.remote(1)) }); // the producer CTA
///     assert!(full.wait_parity::<Acquire, Cluster>(Phase::ZERO, Budget::iterations(1 << 30)).is_ok());
/// });
/// assert_eq!(slot.0, [5, 6]);
/// ```
///
/// ```compile_fail
/// // 256 bits: a vector is at most 128 (PTX ISA §5.4.2)
/// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
/// unsafe { ptx_sync::st_async::st_async(ptx_sync::shared::ClusterAddr(0), [0u64; 4], b.remote(1)) };
/// ```
#[inline(always)]
pub unsafe fn st_async<T: StAsyncValue, Tag>(
    dst: ClusterAddr,
    value: T,
    bar: RemoteMbarrier<'_, Tag>,
) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { value.exec(dst, bar) }
}

/// `red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.op.type [dst], value, [bar];`
/// — a relaxed `.cluster` reduction `op` of `value` into a peer CTA's shared memory at `dst`,
/// then (asynchronously) a complete-tx of [`BYTES`](RedAsyncInstr::BYTES) on `bar`, the mbarrier
/// in that CTA. PTX 8.1, sm_90; PTX ISA §9.7.13.7; seed §5.4.
///
/// (`O`, `T`) ∈ {`Inc`/`Dec` × `u32`; `Min`/`Max` × `u32`, `i32`; `And`/`Or`/`Xor` × `u32`
/// (`.b32`); `Add` × `u32`, `i32`, `u64`} ([`RedAsyncInstr`]); anything else does not compile.
/// `.inc`/`.dec` are `atom.inc`/`atom.dec`'s wrap-around arithmetic. SASS: not recorded in the
/// repo.
///
/// # Safety
/// The ISA's preconditions (§9.7.13.7, undefined behaviour otherwise): `dst` and `bar` are
/// `.shared::cluster` addresses in the same CTA, **not the executing thread's CTA**, of this
/// cluster; `dst` is valid for and aligned to `T`; `bar` is an initialized mbarrier whose
/// tx-count stays within `±(2^20 - 1)`. On the host: `dst` points to live memory of `T` and
/// `bar` to a live `Mbarrier`.
///
/// # Examples
///
/// ```
/// use ptx_sync::st_async::{red_async, RedAsyncInstr};
/// use ptx_sync::atomic::op;
/// use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cluster, shared::to_shared};
/// let mut count = 5u32;
/// let full: Mbarrier = Mbarrier::new();
/// full.init(1);
/// let _ = full.arrive_expect_tx::<Release, Cluster>(8);
/// let dst = to_shared(&mut count as *mut u32).to_cluster();
/// unsafe { red_async::<op::Add, _, _>(dst, 3u32, full.remote(1)) };
/// unsafe { red_async::<op::Inc, _, _>(dst, 8u32, full.remote(1)) }; // 8 >= 8: wraps to 0
/// assert!(full.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
/// assert_eq!(count, 0);
/// assert_eq!(<u32 as RedAsyncInstr<op::And>>::PTX,
///            "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.and.b32");
/// ```
///
/// ```compile_fail
/// // .inc takes only .u32 (PTX ISA §9.7.13.7)
/// let b: ptx_sync::Mbarrier = ptx_sync::Mbarrier::new();
/// unsafe { ptx_sync::st_async::red_async::<ptx_sync::atomic::op::Inc, _, _>(ptx_sync::shared::ClusterAddr(0), 1i32, b.remote(1)) };
/// ```
#[inline(always)]
pub unsafe fn red_async<O: Op, T, Tag>(dst: ClusterAddr, value: T, bar: RemoteMbarrier<'_, Tag>)
where
    T: RedAsyncInstr<O>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { value.exec(dst, bar) }
}
