//! The `.L2::cache_hint` forms of the bulk copies: the same copies as
//! [`cp_async_bulk_g2s`], [`cp_async_bulk_s2g`] and [`cp_async_bulk_prefetch`], with a
//! `cache-policy` operand made by [`createpolicy`](crate::policy::createpolicy). PTX ISA
//! §9.7.9.25.4 (`cp.async.bulk`, `cp.async.bulk.prefetch`): `.level::cache_hint =
//! { .L2::cache_hint }`, the policy the last operand. PTX 8.0, sm_90. Seed §5.2. The hint is
//! a performance hint: it changes no ordering and no result (host: the copy without it).
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`cp_async_bulk_g2s_hint`] (`unsafe`) | `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [d], [s], n, [b], policy;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_s2g_hint`] (`unsafe`) | `cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [d], [s], n, policy;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch_hint`] (`unsafe`) | `cp.async.bulk.prefetch.L2.global.L2::cache_hint [s], n, policy;` | 8.0 / sm_90 |

use super::*;
use crate::policy::CachePolicy;

instr! {
    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [d], [s], n, [b], policy;`
    /// (PTX 8.0, sm_90).
    CpAsyncBulkG2SHint = ("cp.async.bulk", tok!(SharedCluster), tok!(Global), ".mbarrier::complete_tx::bytes", tok!(CacheHint));
    fn exec(d: u32, s: u64, n: u32, b: u32, pol: u64) => m {
        asm!(concat!("{{\n\t.reg .b64 g;\n\tcvta.to", tok!(Global), ".u64 g, {s};\n\t", m!(), " [{d}], [g], {n}, [{b}], {pol};\n\t}}"),
             d = in(reg32) d, s = in(reg64) s, n = in(reg32) n, b = in(reg32) b, pol = in(reg64) pol, options(nostack, preserves_flags));
    }
}
instr! {
    /// `cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [d], [s], n, policy;` (PTX 8.0, sm_90).
    CpAsyncBulkS2GHint = ("cp.async.bulk", tok!(Global), tok!(Shared), ".bulk_group", tok!(CacheHint));
    fn exec(d: u64, s: u32, n: u32, pol: u64) => m {
        asm!(concat!("{{\n\t.reg .b64 g;\n\tcvta.to", tok!(Global), ".u64 g, {d};\n\t", m!(), " [g], [{s}], {n}, {pol};\n\t}}"),
             d = in(reg64) d, s = in(reg32) s, n = in(reg32) n, pol = in(reg64) pol, options(nostack, preserves_flags));
    }
}
instr! {
    /// `cp.async.bulk.prefetch.L2.global.L2::cache_hint [s], n, policy;` (PTX 8.0, sm_90).
    CpAsyncBulkPrefetchHint = ("cp.async.bulk.prefetch.L2", tok!(Global), tok!(CacheHint));
    fn exec(s: u64, n: u32, pol: u64) => m {
        asm!(concat!("{{\n\t.reg .b64 g;\n\tcvta.to", tok!(Global), ".u64 g, {s};\n\t", m!(), " [g], {n}, {pol};\n\t}}"),
             s = in(reg64) s, n = in(reg32) n, pol = in(reg64) pol, options(nostack, preserves_flags));
    }
}

/// [`cp_async_bulk_g2s`] with `.L2::cache_hint`: the global reads use `policy`.
/// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [d], [s], n, [b], policy;`
/// — PTX 8.0, sm_90; PTX ISA §9.7.9.25.4, seed §5.2.
///
/// # Safety
/// As [`cp_async_bulk_g2s`]; `policy` made by [`createpolicy`](crate::policy::createpolicy).
///
/// ```
/// use ptx_sync::{copy::cp_async_bulk_g2s_hint, policy::*, shared::to_shared, Mbarrier};
/// let src = [1u8; 16];
/// let mut dst = [0u8; 16];
/// let bar: Mbarrier = Mbarrier::new();
/// bar.init(1);
/// let _t = bar.arrive_expect_tx::<ptx_sync::Release, ptx_sync::Cta>(16);
/// let pol = createpolicy::<EvictFirst, NoSecondary>(1.0);
/// unsafe { cp_async_bulk_g2s_hint(to_shared(dst.as_mut_ptr()), src.as_ptr(), 16, &bar, pol) };
/// assert_eq!(dst, src);
/// ```
#[inline(always)]
pub unsafe fn cp_async_bulk_g2s_hint<Tag>(
    dst: SharedAddr,
    src: *const u8,
    bytes: u32,
    bar: &Mbarrier<Tag>,
    policy: CachePolicy,
) {
    check_bulk(bytes);
    #[cfg(target_arch = "nvptx64")]
    CpAsyncBulkG2SHint::exec(dst.0, src as u64, bytes, bar.shared_addr().0, policy.0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        host_copy(dst.0, src, bytes as usize);
        bar.h_complete_tx(bytes);
    }
}

/// [`cp_async_bulk_s2g`] with `.L2::cache_hint`: the global writes use `policy`.
/// `cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [d], [s], n, policy;` — PTX 8.0,
/// sm_90; PTX ISA §9.7.9.25.4, seed §5.2.
///
/// # Safety
/// As [`cp_async_bulk_s2g`].
#[inline(always)]
pub unsafe fn cp_async_bulk_s2g_hint(
    dst: *mut u8,
    src: SharedAddr,
    bytes: u32,
    policy: CachePolicy,
) {
    check_bulk(bytes);
    #[cfg(target_arch = "nvptx64")]
    CpAsyncBulkS2GHint::exec(dst as u64, src.0, bytes, policy.0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        host_copy(dst as usize, src.0 as *const u8, bytes as usize);
    }
}

/// [`cp_async_bulk_prefetch`] with `.L2::cache_hint`: the prefetched lines get `policy`.
/// `cp.async.bulk.prefetch.L2.global.L2::cache_hint [s], n, policy;` — PTX 8.0, sm_90; PTX ISA
/// §9.7.9.25.4, seed §5.2. Host: nothing.
///
/// # Safety
/// As [`cp_async_bulk_prefetch`].
#[inline(always)]
pub unsafe fn cp_async_bulk_prefetch_hint(src: *const u8, bytes: u32, policy: CachePolicy) {
    check_bulk(bytes);
    #[cfg(target_arch = "nvptx64")]
    CpAsyncBulkPrefetchHint::exec(src as u64, bytes, policy.0);
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = (src, policy);
}

/// Catalog rows of the `.L2::cache_hint` copies (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Completion, Form, Marker as M, Variant};
    use crate::instr::Instr;
    let b = Variant {
        family: "cp.async.bulk",
        sm: 90,
        ptx_isa: 80,
        isa: "9.7.9.25.4",
        seed: "5.2",
        ..Variant::EMPTY
    };
    f(Variant {
        space: M::SharedCluster,
        form: Form {
            src: M::Global,
            completion: Completion::Mbarrier,
            cache_hint: true,
            ..Form::NONE
        },
        ptx: CpAsyncBulkG2SHint::PTX,
        rust: "cp_async_bulk_g2s_hint",
        ..b
    });
    f(Variant {
        space: M::Global,
        form: Form {
            src: M::Shared,
            completion: Completion::BulkGroup,
            cache_hint: true,
            ..Form::NONE
        },
        ptx: CpAsyncBulkS2GHint::PTX,
        rust: "cp_async_bulk_s2g_hint",
        ..b
    });
    f(Variant {
        op: "prefetch.L2",
        space: M::Global,
        form: Form {
            cache_hint: true,
            ..Form::NONE
        },
        ptx: CpAsyncBulkPrefetchHint::PTX,
        rust: "cp_async_bulk_prefetch_hint",
        ..b
    });
}
