//! The `.L2::cache_hint` forms of `cp.async` (LDGSTS, PTX ISA §9.7.9.25.3): [`cp_async_hint`],
//! [`cp_async_zfill_hint`] — [`cp_async`] and [`cp_async_zfill`] with a `cache-policy` operand
//! made by [`createpolicy`](crate::policy::createpolicy), the policy last. PTX 7.4 (`::cta`
//! 7.8), sm_80. Seed §5.1. The hint is a performance hint: it changes no ordering and no result
//! (host: the copy without it). The bulk and tensor copies take the hint as a modifier
//! ([`Mods::cache_hint`](super::Mods::cache_hint)).

use super::*;
use crate::policy::CachePolicy;

/// [`cp_async`] with `.L2::cache_hint`: the global read uses `policy`.
/// `cp.async{.ca,.cg}.shared::cta.global.L2::cache_hint [d], [s], BYTES, policy;` — PTX 7.4
/// (`.shared::cta` 7.8), sm_80; PTX ISA §9.7.9.25.3 (`.level::cache_hint`), seed §5.1. A
/// performance hint: same ordering and result (host: the copy without it).
///
/// # Safety
/// As [`cp_async`]; `policy` made by [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{copy::{cp_async_hint, cp_async_wait_all, Cg, CpAsyncInstr}, policy::*, shared::to_shared};
/// #[repr(align(16))] struct A([u8; 16]);
/// let (src, mut dst) = (A([3; 16]), A([0; 16]));
/// let pol = createpolicy::<EvictFirst, NoSecondary>(1.0);
/// unsafe { cp_async_hint::<Cg, 16>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), pol) };
/// cp_async_wait_all();
/// assert_eq!(dst.0, [3; 16]);
/// assert_eq!(<Cg as CpAsyncInstr<16>>::PTX_HINT, "cp.async.cg.shared::cta.global.L2::cache_hint");
/// ```
#[inline(always)]
pub unsafe fn cp_async_hint<C: CacheOp, const BYTES: usize>(
    dst: SharedAddr,
    src: *const u8,
    policy: CachePolicy,
) where
    C: CpAsyncInstr<BYTES>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { Active::cp_async_hint::<<C as CpAsyncInstr<BYTES>>::Leaf>(dst, src, policy) }
}

/// [`cp_async_zfill`] with `.L2::cache_hint`.
/// `cp.async{.ca,.cg}.shared::cta.global.L2::cache_hint [d], [s], BYTES, src_size, policy;` —
/// PTX 7.4 (`.shared::cta` 7.8), sm_80; PTX ISA §9.7.9.25.3, seed §5.1. Host: the copy without
/// the hint.
///
/// # Safety
/// As [`cp_async_zfill`]; `policy` made by [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{copy::{cp_async_zfill_hint, cp_async_wait_all, Ca}, policy::*, shared::to_shared};
/// #[repr(align(8))] struct A([u8; 8]);
/// let (src, mut dst) = (A([1; 8]), A([9; 8]));
/// let pol = createpolicy::<EvictLast, NoSecondary>(0.5);
/// unsafe { cp_async_zfill_hint::<Ca, 8>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 3, pol) };
/// cp_async_wait_all();
/// assert_eq!(dst.0, [1, 1, 1, 0, 0, 0, 0, 0]);
/// ```
#[inline(always)]
pub unsafe fn cp_async_zfill_hint<C: CacheOp, const BYTES: usize>(
    dst: SharedAddr,
    src: *const u8,
    src_size: u32,
    policy: CachePolicy,
) where
    C: CpAsyncInstr<BYTES>,
{
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        check_src_size::<BYTES>(src_size);
        Active::cp_async_zfill_hint::<<C as CpAsyncInstr<BYTES>>::Leaf>(dst, src, src_size, policy)
    }
}
