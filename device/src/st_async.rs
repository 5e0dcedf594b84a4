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
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`st_async`] | `st.async.weak.shared::cluster.mbarrier::complete_tx::bytes{.v2,.v4}.type [a], b, [mbar];` | 8.1 / sm_90 |
//! | [`red_async`] | `red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.op.type [a], b, [mbar];` | 8.1 / sm_90 |
//! | [`release`]: `st_async_release`, `st_async_mmio_release` (sm_100 + PTX 8.7 builds only on nvptx64) | `st.async{.mmio}.release.{gpu,sys}.global.type [a], b;` | 8.7 / sm_100 |
//! | [`release`]: `red_async_release_add`, `red_async_mmio_release_add` | `red.async{.mmio}.release.{gpu,sys}.global.add.type [a], b;` | 8.7 / sm_100 |
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
//! The store (an aligned plain write; the reduction a relaxed CPU atomic RMW with the PTX
//! operation's arithmetic) happens at issue, then the complete-tx of `bytes` on the barrier as
//! a `Release` RMW (under `--cfg loom` at `.cluster` scope) — the completion the copy engine
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

#[allow(unused_imports)]
use crate::atomic::op::{self, Op};
#[allow(unused_imports)]
use crate::instr::{asm_text, with_ops};
use crate::mbarrier::RemoteMbarrier;
#[allow(unused_imports)]
use crate::sem::tok;
use crate::shared::ClusterAddr;
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

pub mod release;

mod sealed {
    pub trait Sealed {}
}

/// A value `st.async` can store: `u32`, `i32`, `f32`, `u64`, `i64`, `f64`, a `[T; 2]` of any
/// of them, a `[T; 4]` of the 32-bit ones (PTX ISA §9.7.9.12).
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `st.async` of `{Self}`",
    label = "not a st.async value",
    note = "PTX ISA §9.7.9.12: `.type = {{ .b32, .b64, .u32, .u64, .s32, .s64, .f32, .f64 }}`, `.vec = {{ .v2, .v4 }}`, at most 128 bits"
)]
pub unsafe trait StAsyncValue: sealed::Sealed + Copy {
    /// The full mnemonic, e.g. `"st.async.weak.shared::cluster.mbarrier::complete_tx::bytes.v2.u32"`.
    const PTX: &'static str;
    /// The bytes stored (the complete-tx count): 4, 8 or 16.
    const BYTES: u32;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec(self, a: u32, b: u32);
}

/// `red.async…complete_tx::bytes.op.type` for one (`op`, value type) of the ISA's table.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `red.async` `{O}` on `{Self}`",
    label = "not in red.async's op/type table",
    note = "PTX ISA §9.7.13.7: .inc/.dec .u32; .min/.max .u32, .s32; .and/.or/.xor .b32 (u32); .add .u32, .s32, .u64"
)]
pub unsafe trait RedAsyncInstr<O: Op>: sealed::Sealed + Copy {
    /// The full mnemonic, e.g. `"red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32"`.
    const PTX: &'static str;
    /// The bytes reduced (the complete-tx count): 4 or 8.
    const BYTES: u32;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec(self, a: u32, b: u32);
    /// The host reduction at `p` (a relaxed CPU atomic RMW with the PTX arithmetic).
    #[doc(hidden)]
    #[cfg(not(target_arch = "nvptx64"))]
    unsafe fn host(self, p: usize);
}

/// The `st.async` rows: `$leaf! { shape Type "ptx-type" }`, `shape` ∈ {`s32`, `s64` (scalars),
/// `v2_32`, `v4_32`, `v2_64` (vectors)}. Exported as `ptx_sync::st_async_rows!(leaf)`, which the
/// catalog kernel instantiates.
#[doc(hidden)]
#[macro_export]
macro_rules! st_async_rows {
    ($leaf:ident) => {
        $leaf! { s32 u32 "u32" }
        $leaf! { s32 i32 "s32" }
        $leaf! { s32 f32 "f32" }
        $leaf! { s64 u64 "u64" }
        $leaf! { s64 i64 "s64" }
        $leaf! { s64 f64 "f64" }
        $leaf! { v2_32 u32 "u32" }
        $leaf! { v2_32 i32 "s32" }
        $leaf! { v2_32 f32 "f32" }
        $leaf! { v4_32 u32 "u32" }
        $leaf! { v4_32 i32 "s32" }
        $leaf! { v4_32 f32 "f32" }
        $leaf! { v2_64 u64 "u64" }
        $leaf! { v2_64 i64 "s64" }
        $leaf! { v2_64 f64 "f64" }
    };
}

/// The `red.async` rows (PTX ISA §9.7.13.7's op/type table): `$leaf! { Op "op" Type "ptx-type" }`.
/// Exported as `ptx_sync::red_async_rows!(leaf)`.
#[doc(hidden)]
#[macro_export]
macro_rules! red_async_rows {
    ($leaf:ident) => {
        $leaf! { Inc "inc" u32 "u32" }
        $leaf! { Dec "dec" u32 "u32" }
        $leaf! { Min "min" u32 "u32" }
        $leaf! { Min "min" i32 "s32" }
        $leaf! { Max "max" u32 "u32" }
        $leaf! { Max "max" i32 "s32" }
        $leaf! { And "and" u32 "b32" }
        $leaf! { Or "or" u32 "b32" }
        $leaf! { Xor "xor" u32 "b32" }
        $leaf! { Add "add" u32 "u32" }
        $leaf! { Add "add" i32 "s32" }
        $leaf! { Add "add" u64 "u64" }
    };
}

/// The `st.async` mnemonic: `st.async.weak` (the explicit `.weak` of the grammar; the crate's
/// `Weak` token is empty, as `ld`/`st` omit it), the space, the completion, `vec`, `.type`.
macro_rules! st_mn {
    ($vec:literal $pt:literal) => {
        concat!(
            "st.async.weak",
            tok!(SharedCluster),
            ".mbarrier::complete_tx::bytes",
            $vec,
            ".",
            $pt
        )
    };
}
macro_rules! red_mn {
    ($o:literal $pt:literal) => {
        concat!(
            "red.async",
            tok!(Relaxed),
            tok!(Cluster),
            tok!(SharedCluster),
            ".mbarrier::complete_tx::bytes.",
            $o,
            ".",
            $pt
        )
    };
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

macro_rules! st_leaf {
    (s32 $T:ident $pt:literal) => {
        unsafe impl StAsyncValue for $T {
            const PTX: &'static str = st_mn!("" $pt);
            const BYTES: u32 = 4;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec(self, a: u32, b: u32) {
                asm!(asm_text!(none; (st_async); st_mn!("" $pt)),
                     sd = in(reg32) a, v = in(reg32) self, b = in(reg32) b, options(nostack, preserves_flags));
            }
        }
    };
    (s64 $T:ident $pt:literal) => {
        unsafe impl StAsyncValue for $T {
            const PTX: &'static str = st_mn!("" $pt);
            const BYTES: u32 = 8;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec(self, a: u32, b: u32) {
                asm!(asm_text!(none; (st_async64); st_mn!("" $pt)),
                     sd = in(reg32) a, w = in(reg64) self, b = in(reg32) b, options(nostack, preserves_flags));
            }
        }
    };
    (v2_32 $T:ident $pt:literal) => {
        unsafe impl StAsyncValue for [$T; 2] {
            const PTX: &'static str = st_mn!(".v2" $pt);
            const BYTES: u32 = 8;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec(self, a: u32, b: u32) {
                asm!(asm_text!(none; (st_async_v2); st_mn!(".v2" $pt)),
                     sd = in(reg32) a, v0 = in(reg32) self[0], v1 = in(reg32) self[1], b = in(reg32) b,
                     options(nostack, preserves_flags));
            }
        }
    };
    (v4_32 $T:ident $pt:literal) => {
        unsafe impl StAsyncValue for [$T; 4] {
            const PTX: &'static str = st_mn!(".v4" $pt);
            const BYTES: u32 = 16;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec(self, a: u32, b: u32) {
                asm!(asm_text!(none; (st_async_v4); st_mn!(".v4" $pt)),
                     sd = in(reg32) a, v0 = in(reg32) self[0], v1 = in(reg32) self[1],
                     v2 = in(reg32) self[2], v3 = in(reg32) self[3], b = in(reg32) b,
                     options(nostack, preserves_flags));
            }
        }
    };
    (v2_64 $T:ident $pt:literal) => {
        unsafe impl StAsyncValue for [$T; 2] {
            const PTX: &'static str = st_mn!(".v2" $pt);
            const BYTES: u32 = 16;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec(self, a: u32, b: u32) {
                asm!(asm_text!(none; (st_async64_v2); st_mn!(".v2" $pt)),
                     sd = in(reg32) a, w0 = in(reg64) self[0], w1 = in(reg64) self[1], b = in(reg32) b,
                     options(nostack, preserves_flags));
            }
        }
    };
}
crate::st_async_rows! { st_leaf }

/// The register class and operand key of a `red.async` value type.
macro_rules! red_leaf {
    ($O:ident $o:literal u64 $pt:literal) => {
        red_leaf! { @ $O $o u64 $pt 8 st_async64 w reg64 }
    };
    ($O:ident $o:literal $T:ident $pt:literal) => {
        red_leaf! { @ $O $o $T $pt 4 st_async v reg32 }
    };
    (@ $O:ident $o:literal $T:ident $pt:literal $n:literal $key:ident $v:ident $reg:ident) => {
        unsafe impl RedAsyncInstr<op::$O> for $T {
            const PTX: &'static str = red_mn!($o $pt);
            const BYTES: u32 = $n;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec(self, a: u32, b: u32) {
                asm!(asm_text!(none; ($key); red_mn!($o $pt)),
                     sd = in(reg32) a, $v = in($reg) self, b = in(reg32) b, options(nostack, preserves_flags));
            }
            #[cfg(not(target_arch = "nvptx64"))]
            unsafe fn host(self, p: usize) {
                use crate::backend::host::HostScalar;
                use core::sync::atomic::Ordering::Relaxed;
                let k = <op::$O as Op>::KIND;
                let _ = red_leaf!(@atomic $T p)
                    .fetch_update(Relaxed, Relaxed, |x| Some(<$T as HostScalar>::h_apply(k, x, self)));
            }
        }
    };
    (@atomic u32 $p:ident) => { core::sync::atomic::AtomicU32::from_ptr($p as *mut u32) };
    (@atomic i32 $p:ident) => { core::sync::atomic::AtomicI32::from_ptr($p as *mut i32) };
    (@atomic u64 $p:ident) => { core::sync::atomic::AtomicU64::from_ptr($p as *mut u64) };
}
crate::red_async_rows! { red_leaf }

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
    #[cfg(target_arch = "nvptx64")]
    value.exec(dst.0, bar.addr().0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        assert!(
            dst.0.is_multiple_of(T::BYTES as usize),
            "st.async: the address must be aligned to the stored size (PTX ISA §9.7.9.12)"
        );
        core::ptr::write(dst.0 as *mut T, value);
        bar.local().h_complete_tx(T::BYTES);
    }
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
    #[cfg(target_arch = "nvptx64")]
    value.exec(dst.0, bar.addr().0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        assert!(
            dst.0.is_multiple_of(T::BYTES as usize),
            "red.async: the address must be aligned to the operand (PTX ISA §9.7.13.7)"
        );
        value.host(dst.0);
        bar.local().h_complete_tx(T::BYTES);
    }
}

/// Catalog rows of this module (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Completion, Family, Form, Marker as M, Variant};
    // PTX ISA §9.7.9.12 / §9.7.13.7: PTX 8.1, sm_90. Seed §5.4.
    let base = Variant {
        space: M::SharedCluster,
        form: Form {
            completion: Completion::Mbarrier,
            ..Form::NONE
        },
        sm: 90,
        ptx_isa: 81,
        seed: "5.4",
        ..Variant::of(Family::StAsync)
    };
    macro_rules! st_row {
        (s32 $T:ident $pt:literal) => { st_row!(@ $T, "", $pt, (st_async)) };
        (s64 $T:ident $pt:literal) => { st_row!(@ $T, "", $pt, (st_async64)) };
        (v2_32 $T:ident $pt:literal) => { st_row!(@ [$T; 2], "v2", $pt, (st_async_v2)) };
        (v4_32 $T:ident $pt:literal) => { st_row!(@ [$T; 4], "v4", $pt, (st_async_v4)) };
        (v2_64 $T:ident $pt:literal) => { st_row!(@ [$T; 2], "v2", $pt, (st_async64_v2)) };
        (@ $V:ty, $vec:literal, $pt:literal, ($key:ident)) => {
            f(with_ops!(none; ($key); Variant {
                family: Family::StAsync,
                op: $vec,
                ty: $pt,
                sem: M::Weak,
                ptx: <$V as StAsyncValue>::PTX,
                rust: concat!("st_async::st_async::<", stringify!($V), ", _>"),
                isa: "9.7.9.12",
                ..base
            }))
        };
    }
    crate::st_async_rows! { st_row }
    macro_rules! red_row {
        ($O:ident $o:literal u64 $pt:literal) => { red_row!(@ $O $o u64 $pt (st_async64)) };
        ($O:ident $o:literal $T:ident $pt:literal) => { red_row!(@ $O $o $T $pt (st_async)) };
        (@ $O:ident $o:literal $T:ident $pt:literal ($key:ident)) => {
            f(with_ops!(none; ($key); Variant {
                family: Family::RedAsync,
                op: $o,
                ty: $pt,
                sem: M::Relaxed,
                scope: M::Cluster,
                ptx: <$T as RedAsyncInstr<op::$O>>::PTX,
                rust: concat!(
                    "st_async::red_async::<op::",
                    stringify!($O),
                    ", ",
                    stringify!($T),
                    ", _>"
                ),
                isa: "9.7.13.7",
                ..base
            }))
        };
    }
    crate::red_async_rows! { red_row }
}
