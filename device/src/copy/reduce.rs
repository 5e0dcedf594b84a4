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
//! the legal pairs are the rows of the ISA's table, and nothing else compiles:
//!
//! | destination (call) | `.redOp` | Rust element type → `.type` |
//! |---|---|---|
//! | `.global`, `.bulk_group` ([`cp_reduce_async_bulk`], [`cp_reduce_async_bulk_hint`]) | `.add` | `u32` `.u32`, `i32` `.s32`, `u64` `.u64`, `i64` `.u64` (two's complement: PTX has no `.add.s64`), `f32` `.f32`, `f64` `.f64`, [`F16`] `.noftz.f16`, [`Bf16`] `.noftz.bf16` |
//! | | `.min`, `.max` | `u32` `.u32`, `i32` `.s32`, `u64` `.u64`, `i64` `.s64`, [`F16`] `.f16`, [`Bf16`] `.bf16` |
//! | | `.inc`, `.dec` | `u32` `.u32` |
//! | | `.and`, `.or`, `.xor` | `u32` `.b32`, `u64` `.b64` |
//! | `.shared::cluster`, `.mbarrier::complete_tx::bytes` ([`cp_reduce_async_bulk_s2c`]) | `.add` | `u32` `.u32`, `i32` `.s32`, `u64` `.u64`, `i64` `.u64` |
//! | | `.min`, `.max` | `u32` `.u32`, `i32` `.s32` |
//! | | `.inc`, `.dec` | `u32` `.u32` |
//! | | `.and`, `.or`, `.xor` | `u32` `.b32` |
//!
//! PTX: `cp.reduce.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}.redOp.type [d], [s],
//! n{, policy};` and `cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type
//! [d], [s], n, [b];` (the cache hint sits before `.redOp`, PTX ISA §9.7.9.25.4).
//!
//! # Host backend
//! At issue, one relaxed atomic read-modify-write per element (a compare-exchange loop on the
//! element's bits; `.inc`/`.dec` as `atom.inc`/`atom.dec`: `old >= b ? 0 : old + 1`,
//! `old == 0 || old > b ? b : old - 1`; `.f16`/`.bf16` added exactly and rounded to nearest even,
//! subnormals kept (`.noftz`); `min`/`max` of a NaN and a number give the number); the
//! `.shared::cluster` form then completes the bytes on the barrier, as the copy engine does.
//! The reduction goes through the library's copy engine (`copy/engine.rs`): under `--cfg loom`
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
use crate::atomic::op::{self, Add, And, Dec, Inc, Max, Min, Or, Xor};
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

/// `cp.reduce.async.bulk.global.shared::cta.bulk_group{.L2::cache_hint}.redOp.type`: element type
/// `Self` with operator `Op` into global memory (the table of the [module docs](self)).
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `cp.reduce.async.bulk.global …` with `{Op}` on `{Self}`",
    note = "PTX ISA §9.7.9.25.4: .add on u32/s32/u64/f32/f64 (.noftz f16/bf16), .min/.max on u32/s32/u64/s64/f16/bf16, .inc/.dec on u32, .and/.or/.xor on b32/b64"
)]
pub unsafe trait BulkReduce<Op: op::Op>: Copy + 'static {
    /// e.g. `"cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32"`.
    const PTX: &'static str;
    /// e.g. `"cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.min.s32"`.
    const PTX_HINT: &'static str;
    /// The value the reduction writes over `old` with source element `b`.
    #[doc(hidden)]
    #[cfg(not(target_arch = "nvptx64"))]
    fn apply(old: Self, b: Self) -> Self;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec(gp: u64, ss: u32, n: u32);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec_hint(gp: u64, ss: u32, n: u32, pol: u64);
}

/// `cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.redOp.type`:
/// the smaller set the `.shared::cluster` destination takes (the table of the [module docs](self)).
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `cp.reduce.async.bulk.shared::cluster …` with `{Op}` on `{Self}`",
    note = "PTX ISA §9.7.9.25.4: into .shared::cluster only .add on u32/s32/u64, .min/.max on u32/s32, .inc/.dec on u32, .and/.or/.xor on b32"
)]
pub unsafe trait BulkReduceCluster<Op: op::Op>: BulkReduce<Op> {
    /// e.g. `"cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32"`.
    const PTX_CLUSTER: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec_cluster(sd: u32, ss: u32, n: u32, b: u32);
}

/// The table, `$leaf! { Type Op ".op.type" [cluster] }` (PTX ISA §9.7.9.25.4); `cluster` marks
/// the pairs the `.shared::cluster` destination takes too.
macro_rules! for_bulk_reduce {
    ($leaf:ident) => {
        $leaf! { u32 Add ".add.u32" cluster }
        $leaf! { u32 Min ".min.u32" cluster }
        $leaf! { u32 Max ".max.u32" cluster }
        $leaf! { u32 Inc ".inc.u32" cluster }
        $leaf! { u32 Dec ".dec.u32" cluster }
        $leaf! { u32 And ".and.b32" cluster }
        $leaf! { u32 Or ".or.b32" cluster }
        $leaf! { u32 Xor ".xor.b32" cluster }
        $leaf! { i32 Add ".add.s32" cluster }
        $leaf! { i32 Min ".min.s32" cluster }
        $leaf! { i32 Max ".max.s32" cluster }
        $leaf! { u64 Add ".add.u64" cluster }
        $leaf! { u64 Min ".min.u64" }
        $leaf! { u64 Max ".max.u64" }
        $leaf! { u64 And ".and.b64" }
        $leaf! { u64 Or ".or.b64" }
        $leaf! { u64 Xor ".xor.b64" }
        $leaf! { i64 Add ".add.u64" cluster }
        $leaf! { i64 Min ".min.s64" }
        $leaf! { i64 Max ".max.s64" }
        $leaf! { f32 Add ".add.f32" }
        $leaf! { f64 Add ".add.f64" }
        $leaf! { F16 Add ".add.noftz.f16" }
        $leaf! { F16 Min ".min.f16" }
        $leaf! { F16 Max ".max.f16" }
        $leaf! { Bf16 Add ".add.noftz.bf16" }
        $leaf! { Bf16 Min ".min.bf16" }
        $leaf! { Bf16 Max ".max.bf16" }
    };
}

macro_rules! reduce_leaf {
    ($t:ident $Op:ident $ot:literal $($cl:ident)?) => {
        reduce_leaf! { @g $t $Op
            ("cp.reduce.async.bulk", tok!(Global), tok!(Shared), ".bulk_group", $ot)
            ("cp.reduce.async.bulk", tok!(Global), tok!(Shared), ".bulk_group", tok!(CacheHint), $ot) }
        $( reduce_leaf! { @$cl $t $Op ("cp.reduce.async.bulk", tok!(SharedCluster), tok!(Shared), ".mbarrier::complete_tx::bytes", $ot) } )?
    };
    (@g $t:ident $Op:ident ($($mn:tt)*) ($($mh:tt)*)) => {
        unsafe impl BulkReduce<$Op> for $t {
            const PTX: &'static str = concat!($($mn)*);
            const PTX_HINT: &'static str = concat!($($mh)*);
            #[cfg(not(target_arch = "nvptx64"))]
            #[inline]
            fn apply(old: Self, b: Self) -> Self {
                host_op!($Op $t old b)
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec(gp: u64, ss: u32, n: u32) {
                asm!(asm_text!(cvta; (bulk_s2g); $($mn)*),
                     gp = in(reg64) gp, ss = in(reg32) ss, n = in(reg32) n, options(nostack, preserves_flags));
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec_hint(gp: u64, ss: u32, n: u32, pol: u64) {
                asm!(asm_text!(cvta; (bulk_s2g hint); $($mh)*),
                     gp = in(reg64) gp, ss = in(reg32) ss, n = in(reg32) n, pol = in(reg64) pol, options(nostack, preserves_flags));
            }
        }
    };
    (@cluster $t:ident $Op:ident ($($mn:tt)*)) => {
        unsafe impl BulkReduceCluster<$Op> for $t {
            const PTX_CLUSTER: &'static str = concat!($($mn)*);
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec_cluster(sd: u32, ss: u32, n: u32, b: u32) {
                asm!(asm_text!(none; (bulk_s2c); $($mn)*),
                     sd = in(reg32) sd, ss = in(reg32) ss, n = in(reg32) n, b = in(reg32) b, options(nostack, preserves_flags));
            }
        }
    };
}

/// The host value of one reduction (`host_op!(Op Type old b)`).
#[cfg(not(target_arch = "nvptx64"))]
macro_rules! host_op {
    (Add f32 $a:ident $b:ident) => {
        $a + $b
    };
    (Add f64 $a:ident $b:ident) => {
        $a + $b
    };
    (Add F16 $a:ident $b:ident) => {
        F16::from_bits(half::F16_FMT.add($a.to_bits(), $b.to_bits()))
    };
    (Add Bf16 $a:ident $b:ident) => {
        Bf16::from_bits(half::BF16_FMT.add($a.to_bits(), $b.to_bits()))
    };
    (Min F16 $a:ident $b:ident) => {
        F16::from_bits(half::F16_FMT.min_max($a.to_bits(), $b.to_bits(), false))
    };
    (Max F16 $a:ident $b:ident) => {
        F16::from_bits(half::F16_FMT.min_max($a.to_bits(), $b.to_bits(), true))
    };
    (Min Bf16 $a:ident $b:ident) => {
        Bf16::from_bits(half::BF16_FMT.min_max($a.to_bits(), $b.to_bits(), false))
    };
    (Max Bf16 $a:ident $b:ident) => {
        Bf16::from_bits(half::BF16_FMT.min_max($a.to_bits(), $b.to_bits(), true))
    };
    (Add $t:ident $a:ident $b:ident) => {
        $a.wrapping_add($b)
    };
    (Min $t:ident $a:ident $b:ident) => {
        core::cmp::min($a, $b)
    };
    (Max $t:ident $a:ident $b:ident) => {
        core::cmp::max($a, $b)
    };
    (Inc $t:ident $a:ident $b:ident) => {
        if $a >= $b {
            0
        } else {
            $a + 1
        }
    };
    (Dec $t:ident $a:ident $b:ident) => {
        if $a == 0 || $a > $b {
            $b
        } else {
            $a - 1
        }
    };
    (And $t:ident $a:ident $b:ident) => {
        $a & $b
    };
    (Or $t:ident $a:ident $b:ident) => {
        $a | $b
    };
    (Xor $t:ident $a:ident $b:ident) => {
        $a ^ $b
    };
}
for_bulk_reduce! { reduce_leaf }

/// Host: `*p = f(*p)` as one relaxed atomic read-modify-write (a compare-exchange loop on the
/// element's bits).
///
/// # Safety
/// `p` aligned and valid for reads and writes; every concurrent access to `*p` atomic.
#[cfg(not(target_arch = "nvptx64"))]
pub(super) unsafe fn host_rmw<T: Copy>(p: *mut T, f: impl Fn(T) -> T) {
    use core::mem::{size_of, transmute_copy};
    use core::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};
    macro_rules! cas {
        ($A:ident, $u:ty) => {{
            let _ = $A::from_ptr(p as *mut $u).fetch_update(Relaxed, Relaxed, |x: $u| {
                Some(transmute_copy::<T, $u>(&f(transmute_copy::<$u, T>(&x))))
            });
        }};
    }
    match size_of::<T>() {
        2 => cas!(AtomicU16, u16),
        4 => cas!(AtomicU32, u32),
        8 => cas!(AtomicU64, u64),
        n => unreachable!("no {n}-byte bulk-reduction element"),
    }
}

/// Host: one element of the reduction, for the copy engine (`copy/engine.rs`).
#[cfg(not(target_arch = "nvptx64"))]
unsafe fn host_reduce_elem<Op: op::Op, T: BulkReduce<Op>>(d: usize, s: usize, _: u8) {
    let b = (s as *const T).read();
    host_rmw(d as *mut T, |old| T::apply(old, b));
}

/// Host: the element-wise reduction of `bytes` from `src` into `dst`, through the copy engine
/// (at issue on the host; on an engine thread under loom, completed by `done`).
#[cfg(not(target_arch = "nvptx64"))]
unsafe fn host_reduce<Op: op::Op, T: BulkReduce<Op>>(
    dst: *mut T,
    src: *const T,
    bytes: u32,
    done: crate::backend::copy_engine::Done,
) {
    let mut b = crate::backend::copy_engine::Batch::new();
    let n = core::mem::size_of::<T>();
    for i in 0..bytes as usize / n {
        b.reduce(
            dst.add(i) as usize,
            src.add(i) as usize,
            n,
            host_reduce_elem::<Op, T>,
            0,
        );
    }
    b.issue(done);
}

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
    #[cfg(target_arch = "nvptx64")]
    T::exec(dst as u64, src.0, bytes);
    #[cfg(not(target_arch = "nvptx64"))]
    host_reduce::<Op, T>(
        dst,
        src.0 as *const T,
        bytes,
        crate::backend::copy_engine::Done::BulkGroup,
    );
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
    #[cfg(target_arch = "nvptx64")]
    {
        check_bulk(bytes);
        T::exec_hint(dst as u64, src.0, bytes, policy.0);
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_reduce_async_bulk::<Op, T>(dst, src, bytes)
    }
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
    #[cfg(target_arch = "nvptx64")]
    T::exec_cluster(dst.0, src.0, bytes, bar.addr().0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        host_reduce::<Op, T>(
            dst.0 as *mut T,
            src.0 as *const T,
            bytes,
            crate::backend::copy_engine::Done::tx(bar.local(), bytes),
        );
    }
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
    cp_reduce_async_bulk::<Add, T>(dst, src, bytes)
}

/// Host arithmetic of the 16-bit floats: exact in `f64` (a sum of two binary16 or bfloat16 values
/// is exact there, or its rounding cannot reach a half-way point of the 16-bit format), then
/// one rounding to nearest even.
#[cfg(not(target_arch = "nvptx64"))]
mod half {
    /// A 16-bit float format: mantissa bits and exponent bias.
    pub(super) struct Fmt {
        m: u32,
        bias: i32,
    }
    pub(super) const F16_FMT: Fmt = Fmt { m: 10, bias: 15 };
    pub(super) const BF16_FMT: Fmt = Fmt { m: 7, bias: 127 };

    fn pow2(e: i32) -> f64 {
        f64::from_bits(((e + 1023) as u64) << 52)
    }
    /// `y` ≥ 0, < 2^53, rounded to the nearest integer, ties to even.
    fn round_ne(y: f64) -> u64 {
        let t = y as u64;
        let fr = y - t as f64;
        if fr > 0.5 || (fr == 0.5 && t & 1 == 1) {
            t + 1
        } else {
            t
        }
    }
    impl Fmt {
        fn emax(&self) -> u32 {
            (2 * self.bias + 1) as u32
        }
        fn is_nan(&self, x: u16) -> bool {
            let e = (x as u32 >> self.m) & self.emax();
            e == self.emax() && x as u32 & ((1 << self.m) - 1) != 0
        }
        fn to_f64(&self, x: u16) -> f64 {
            let s = if x & 0x8000 != 0 { -1.0 } else { 1.0 };
            let e = ((x as u32 >> self.m) & self.emax()) as i32;
            let f = (x as u32 & ((1 << self.m) - 1)) as f64;
            s * match e {
                0 => f * pow2(1 - self.bias - self.m as i32),
                _ if e as u32 == self.emax() => {
                    if f == 0.0 {
                        f64::INFINITY
                    } else {
                        f64::NAN
                    }
                }
                _ => (f + pow2(self.m as i32)) * pow2(e - self.bias - self.m as i32),
            }
        }
        fn round_f64(&self, x: f64) -> u16 {
            if x.is_nan() {
                return 0x7fff; // PTX's canonical NaN
            }
            let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
            let a = x.abs();
            let m = self.m as i32;
            let emin = 1 - self.bias;
            let bits = if a >= pow2(self.bias + 1) {
                self.emax() << m // infinity (a sum of two finite values is below 2^(bias + 2))
            } else if a < pow2(emin) {
                round_ne(a * pow2(m - emin)) as u32 // subnormal (or the smallest normal)
            } else {
                let mut e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
                let mut q = round_ne(a * pow2(m - e)) as u32;
                if q == 1 << (m + 1) {
                    q >>= 1;
                    e += 1;
                }
                if e > self.bias {
                    self.emax() << m // infinity
                } else {
                    (((e + self.bias) as u32) << m) | (q - (1 << m))
                }
            };
            sign | bits as u16
        }
        /// `a + b`, rounded once.
        pub(super) fn add(&self, a: u16, b: u16) -> u16 {
            self.round_f64(self.to_f64(a) + self.to_f64(b))
        }
        /// `min`/`max` (`max` true): a NaN operand yields the other; `-0 < +0`.
        pub(super) fn min_max(&self, a: u16, b: u16, max: bool) -> u16 {
            match (self.is_nan(a), self.is_nan(b)) {
                (true, true) => 0x7fff,
                (true, false) => b,
                (false, true) => a,
                _ => {
                    let (x, y) = (self.to_f64(a), self.to_f64(b));
                    let a_less = x < y || (x == y && a & 0x8000 != 0);
                    if a_less != max {
                        a
                    } else {
                        b
                    }
                }
            }
        }
    }
}

/// Catalog rows of the bulk reductions (`ptx-sync show`): per table row the `.global` form, its
/// `.L2::cache_hint` twin and, for the `cluster` pairs, the `.shared::cluster` form.
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Completion, Family, Form, Marker as M, Variant};
    let g = Variant {
        sm: 90,
        ptx_isa: 80,
        isa: "9.7.9.25.4",
        seed: "5.2",
        space: M::Global,
        form: Form {
            src: M::Shared,
            completion: Completion::BulkGroup,
            ..Form::NONE
        },
        ..Variant::of(Family::CpReduceAsyncBulk)
    };
    macro_rules! red_v {
        ($t:ident $Op:ident $ot:literal $($cl:ident)?) => {
            let v = Variant { op: <$Op as op::Op>::PTX, ty: stringify!($t), ..g };
            f(with_ops!(cvta; (bulk_s2g); Variant {
                ptx: <$t as BulkReduce<$Op>>::PTX,
                rust: concat!("cp_reduce_async_bulk::<", stringify!($Op), ", ", stringify!($t), ">"),
                ..v
            }));
            f(with_ops!(cvta; (bulk_s2g hint); Variant {
                form: Form { cache_hint: true, ..g.form },
                ptx: <$t as BulkReduce<$Op>>::PTX_HINT,
                rust: concat!("cp_reduce_async_bulk_hint::<", stringify!($Op), ", ", stringify!($t), ">"),
                ..v
            }));
            $( red_v!(@$cl $t $Op v); )?
        };
        (@cluster $t:ident $Op:ident $v:ident) => {
            f(with_ops!(none; (bulk_s2c); Variant {
                space: M::SharedCluster,
                form: Form { completion: Completion::Mbarrier, ..g.form },
                seed: "5.4",
                ptx: <$t as BulkReduceCluster<$Op>>::PTX_CLUSTER,
                rust: concat!("cp_reduce_async_bulk_s2c::<", stringify!($Op), ", ", stringify!($t), ", _>"),
                ..$v
            }));
        };
    }
    for_bulk_reduce! { red_v }
}
