//! `cp.async` with an L2 prefetch size: the same LDGSTS copies as [`cp_async`],
//! [`cp_async_zfill`], [`cp_async_hint`] and [`cp_async_zfill_hint`], with
//! `.level::prefetch_size` — a hint to fetch 64, 128 or 256 bytes around the source into L2.
//! PTX ISA §9.7.9.25.3:
//!
//! ```text
//! cp.async.ca.shared{::cta}.global{.level::cache_hint}{.level::prefetch_size} [dst], [src], cp-size{, src-size}{, cache-policy};
//! cp.async.cg.shared{::cta}.global{.level::cache_hint}{.level::prefetch_size} [dst], [src], 16{, src-size}{, cache-policy};
//! .level::prefetch_size = { .L2::64B, .L2::128B, .L2::256B };
//! ```
//!
//! The size is a type ([`Prefetch64B`], [`Prefetch128B`], [`Prefetch256B`]: the
//! [`PrefetchSize`] markers); it follows `.L2::cache_hint` when both are given; `.cg` still
//! copies only 16 bytes (`cp_async_prefetch::<Cg, 4, _>` does not compile). The qualifier is
//! defined only for a `.global` source, which every `cp.async` here has (the source is
//! converted with `cvta.to.global`). PTX 7.4 (the `.shared::cta` spelling 7.8) / sm_80 for
//! every size (the ISA's `.L2::256B` needs sm_80 where `.L2::64B`/`.L2::128B` need sm_75 on
//! `ld`; `cp.async` itself needs sm_80). A performance hint: same ordering and result (host:
//! the copy without it). Seed §5.1.
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`cp_async_prefetch`], [`cp_async_zfill_prefetch`] (`unsafe`) | `cp.async.{ca,cg}.shared::cta.global.L2::{64B,128B,256B} [d], [s], N{, src_size};` | 7.4 (`::cta` 7.8) / sm_80 |
//! | [`cp_async_hint_prefetch`], [`cp_async_zfill_hint_prefetch`] (`unsafe`) | `cp.async.{ca,cg}.shared::cta.global.L2::cache_hint.L2::{64B,128B,256B} [d], [s], N{, src_size}, policy;` | 7.4 (`::cta` 7.8) / sm_80 |
//!
//! Each form is a row of the `cp.async` table (`for_cp_async!` in `copy.rs`): one impl of
//! [`CpAsyncPrefetchInstr`] per cache operator, size and prefetch size.
//!
//! ```
//! use ptx_sync::copy::{CpAsyncPrefetchInstr, Ca, Cg, Prefetch128B, Prefetch256B};
//! assert_eq!(<Cg as CpAsyncPrefetchInstr<16, Prefetch256B>>::PTX, "cp.async.cg.shared::cta.global.L2::256B");
//! assert_eq!(
//!     <Ca as CpAsyncPrefetchInstr<8, Prefetch128B>>::PTX_HINT,
//!     "cp.async.ca.shared::cta.global.L2::cache_hint.L2::128B"
//! );
//! ```

use super::*;
use crate::policy::CachePolicy;

crate::sem::token_markers! {
    /// The `.level::prefetch_size` of `cp.async`: [`Prefetch64B`], [`Prefetch128B`] or
    /// [`Prefetch256B`] (PTX ISA §9.7.9.25.3).
    trait PrefetchSize;
    /// `.L2::64B`: prefetch 64 bytes into L2.
    Prefetch64B
    /// `.L2::128B`: prefetch 128 bytes into L2.
    Prefetch128B
    /// `.L2::256B`: prefetch 256 bytes into L2.
    Prefetch256B
}

/// `cp.async{.ca,.cg}.shared::cta.global{.L2::cache_hint}.L2::{64B,128B,256B} [d], [s], BYTES…;`
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `cp.async{{.cache}}{{.level::prefetch_size}}` of {BYTES} bytes with `{Self}` and `{P}`: `.ca` copies 4, 8 or 16 bytes, `.cg` only 16",
    note = "PTX ISA §9.7.9.25.3: `cp-size = {{4, 8, 16}}`, `.cg` requires 16, whatever the prefetch size; `.level::prefetch_size = {{ .L2::64B, .L2::128B, .L2::256B }}` (Prefetch64B, Prefetch128B, Prefetch256B)"
)]
pub unsafe trait CpAsyncPrefetchInstr<const BYTES: usize, P: PrefetchSize>:
    CpAsyncInstr<BYTES>
{
    /// e.g. `"cp.async.cg.shared::cta.global.L2::128B"`.
    const PTX: &'static str;
    /// … `.L2::cache_hint.L2::128B` (the cache hint before the prefetch size).
    const PTX_HINT: &'static str;
    /// The form's `asm!` leaves.
    #[doc(hidden)]
    type Leaf: CpAsyncLeaf;
}

macro_rules! cp_async_prefetch_leaf {
    ($C:ident, $n:literal) => {
        cp_async_prefetch_leaf! { @ $C $n Prefetch64B }
        cp_async_prefetch_leaf! { @ $C $n Prefetch128B }
        cp_async_prefetch_leaf! { @ $C $n Prefetch256B }
    };
    (@ $C:ident $n:literal $P:ident) => {
        cp_async_prefetch_leaf! { @@ ("cp.async", tok!($C), tok!(Shared), tok!(Global)) $C $n $P }
    };
    (@@ ($($mn:tt)*) $C:ident $n:literal $P:ident) => {
        unsafe impl CpAsyncPrefetchInstr<$n, $P> for $C {
            const PTX: &'static str = concat!($($mn)*, tok!($P));
            const PTX_HINT: &'static str = concat!($($mn)*, tok!(CacheHint), tok!($P));
            type Leaf = CpAsyncForm<$C, $n, $P>;
        }
        cp_async_leaves! { ($($mn)*) (, tok!($P)) $C $n $P }
    };
}
for_cp_async! { cp_async_prefetch_leaf }

/// [`cp_async`] with `.level::prefetch_size`:
/// `cp.async{.ca,.cg}.shared::cta.global.L2::{64B,128B,256B} [d], [s], BYTES;` — the copy, and
/// a hint to bring `P`'s bytes around `src` into L2. PTX 7.4 (`::cta` 7.8) / sm_80; PTX ISA
/// §9.7.9.25.3; seed §5.1. Host: the copy without the hint.
///
/// # Safety
/// As [`cp_async`].
///
/// ```
/// use ptx_sync::{copy::{cp_async_prefetch, cp_async_wait_all, Cg, Prefetch256B}, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 16]);
/// let (src, mut dst) = (A([3; 16]), A([0; 16]));
/// unsafe { cp_async_prefetch::<Cg, 16, Prefetch256B>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr()) };
/// cp_async_wait_all();
/// assert_eq!(dst.0, [3; 16]);
/// ```
///
/// ```compile_fail
/// use ptx_sync::{copy::{cp_async_prefetch, Cg, Prefetch64B}, shared::to_shared};
/// let (src, mut dst) = ([0u8; 4], [0u8; 4]);
/// unsafe { cp_async_prefetch::<Cg, 4, Prefetch64B>(to_shared(dst.as_mut_ptr()), src.as_ptr()) }; // .cg is 16 bytes only
/// ```
#[inline(always)]
pub unsafe fn cp_async_prefetch<C: CacheOp, const BYTES: usize, P: PrefetchSize>(
    dst: SharedAddr,
    src: *const u8,
) where
    C: CpAsyncPrefetchInstr<BYTES, P>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { Active::cp_async::<<C as CpAsyncPrefetchInstr<BYTES, P>>::Leaf>(dst, src) }
}

/// [`cp_async_zfill`] with `.level::prefetch_size`:
/// `cp.async{.ca,.cg}.shared::cta.global.L2::{64B,128B,256B} [d], [s], BYTES, src_size;`. PTX
/// 7.4 (`::cta` 7.8) / sm_80; PTX ISA §9.7.9.25.3; seed §5.1. Host: the copy without the hint.
///
/// # Safety
/// As [`cp_async_zfill`]; `src_size <= BYTES`.
///
/// ```
/// use ptx_sync::{copy::{cp_async_zfill_prefetch, cp_async_wait_all, Ca, Prefetch64B}, shared::to_shared};
/// #[repr(align(8))] struct A([u8; 8]);
/// let (src, mut dst) = (A([1; 8]), A([9; 8]));
/// unsafe { cp_async_zfill_prefetch::<Ca, 8, Prefetch64B>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 5) };
/// cp_async_wait_all();
/// assert_eq!(dst.0, [1, 1, 1, 1, 1, 0, 0, 0]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_zfill_prefetch<C: CacheOp, const BYTES: usize, P: PrefetchSize>(
    dst: SharedAddr,
    src: *const u8,
    src_size: u32,
) where
    C: CpAsyncPrefetchInstr<BYTES, P>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        check_src_size::<BYTES>(src_size);
        Active::cp_async_zfill::<<C as CpAsyncPrefetchInstr<BYTES, P>>::Leaf>(dst, src, src_size)
    }
}

/// [`cp_async_hint`] with `.level::prefetch_size`:
/// `cp.async{.ca,.cg}.shared::cta.global.L2::cache_hint.L2::{64B,128B,256B} [d], [s], BYTES,
/// policy;` (the grammar's `{.level::cache_hint}{.level::prefetch_size}` order). PTX 7.4
/// (`::cta` 7.8) / sm_80; PTX ISA §9.7.9.25.3; seed §5.1. Host: the copy without the hints.
///
/// # Safety
/// As [`cp_async`]; `policy` made by [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{copy::{cp_async_hint_prefetch, cp_async_wait_all, Ca, Prefetch128B}, policy::*, shared::to_shared};
/// #[repr(align(4))] struct A([u8; 4]);
/// let (src, mut dst) = (A([7; 4]), A([0; 4]));
/// let pol = createpolicy::<EvictLast, NoSecondary>(1.0);
/// unsafe { cp_async_hint_prefetch::<Ca, 4, Prefetch128B>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), pol) };
/// cp_async_wait_all();
/// assert_eq!(dst.0, [7; 4]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_hint_prefetch<C: CacheOp, const BYTES: usize, P: PrefetchSize>(
    dst: SharedAddr,
    src: *const u8,
    policy: CachePolicy,
) where
    C: CpAsyncPrefetchInstr<BYTES, P>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        Active::cp_async_hint::<<C as CpAsyncPrefetchInstr<BYTES, P>>::Leaf>(dst, src, policy)
    }
}

/// [`cp_async_zfill_hint`] with `.level::prefetch_size`:
/// `cp.async{.ca,.cg}.shared::cta.global.L2::cache_hint.L2::{64B,128B,256B} [d], [s], BYTES,
/// src_size, policy;`. PTX 7.4 (`::cta` 7.8) / sm_80; PTX ISA §9.7.9.25.3; seed §5.1. Host: the
/// copy without the hints.
///
/// # Safety
/// As [`cp_async_zfill`]; `policy` made by [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{copy::{cp_async_zfill_hint_prefetch, cp_async_wait_all, Cg, Prefetch64B}, policy::*, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 16]);
/// let (src, mut dst) = (A([2; 16]), A([9; 16]));
/// let pol = createpolicy::<EvictFirst, NoSecondary>(1.0);
/// unsafe { cp_async_zfill_hint_prefetch::<Cg, 16, Prefetch64B>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 4, pol) };
/// cp_async_wait_all();
/// assert_eq!(dst.0[..6], [2, 2, 2, 2, 0, 0]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_zfill_hint_prefetch<C: CacheOp, const BYTES: usize, P: PrefetchSize>(
    dst: SharedAddr,
    src: *const u8,
    src_size: u32,
    policy: CachePolicy,
) where
    C: CpAsyncPrefetchInstr<BYTES, P>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        check_src_size::<BYTES>(src_size);
        Active::cp_async_zfill_hint::<<C as CpAsyncPrefetchInstr<BYTES, P>>::Leaf>(
            dst, src, src_size, policy,
        )
    }
}
