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
//! | [`cp_async_bulk_tensor_load_hint`] (`unsafe`) | `cp.async.bulk.tensor.Dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint [d], [map, {c…}], [b], policy;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_tensor_store_hint`] (`unsafe`) | `cp.async.bulk.tensor.Dd.global.shared::cta.tile.bulk_group.L2::cache_hint [map, {c…}], [s], policy;` | 8.0 / sm_90 |
//! | [`cp_async_bulk_prefetch_tensor_hint`] (`unsafe`) | `cp.async.bulk.prefetch.tensor.Dd.L2.global.tile.L2::cache_hint [map, {c…}], policy;` | 8.0 / sm_90 |
//!
//! The tensor forms are §9.7.9.25.5 (`cp.async.bulk.tensor`, `cp.async.bulk.prefetch.tensor`),
//! one row per rank `D` ∈ 1..=5 ([`TensorCoordsHint`], implemented for `[i32; D]`).

use super::*;
use crate::policy::CachePolicy;

instr! {
    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [d], [s], n, [b], policy;`
    /// (PTX 8.0, sm_90).
    CpAsyncBulkG2SHint = ("cp.async.bulk", tok!(SharedCluster), tok!(Global), ".mbarrier::complete_tx::bytes", tok!(CacheHint));
    fn exec(d: u32, s: u64, n: u32, b: u32, pol: u64) => m {
        asm!(asm_text!(cvta; (bulk_g2s_hint); m!()),
             sd = in(reg32) d, gp = in(reg64) s, n = in(reg32) n, b = in(reg32) b, pol = in(reg64) pol, options(nostack, preserves_flags));
    }
}
instr! {
    /// `cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [d], [s], n, policy;` (PTX 8.0, sm_90).
    CpAsyncBulkS2GHint = ("cp.async.bulk", tok!(Global), tok!(Shared), ".bulk_group", tok!(CacheHint));
    fn exec(d: u64, s: u32, n: u32, pol: u64) => m {
        asm!(asm_text!(cvta; (bulk_s2g_hint); m!()),
             gp = in(reg64) d, ss = in(reg32) s, n = in(reg32) n, pol = in(reg64) pol, options(nostack, preserves_flags));
    }
}
instr! {
    /// `cp.async.bulk.prefetch.L2.global.L2::cache_hint [s], n, policy;` (PTX 8.0, sm_90).
    CpAsyncBulkPrefetchHint = ("cp.async.bulk.prefetch.L2", tok!(Global), tok!(CacheHint));
    fn exec(s: u64, n: u32, pol: u64) => m {
        asm!(asm_text!(cvta; (bulk_prefetch_hint); m!()),
             gp = in(reg64) s, n = in(reg32) n, pol = in(reg64) pol, options(nostack, preserves_flags));
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

/// The `.L2::cache_hint` tensor copies of one rank (`[i32; D]`, D in 1..=5).
///
/// # Safety
/// Implemented only by this crate's table.
pub unsafe trait TensorCoordsHint: TensorCoords {
    /// `cp.async.bulk.tensor.Dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint`
    const PTX_LOAD_HINT: &'static str;
    /// `cp.async.bulk.tensor.Dd.global.shared::cta.tile.bulk_group.L2::cache_hint`
    const PTX_STORE_HINT: &'static str;
    /// `cp.async.bulk.prefetch.tensor.Dd.L2.global.tile.L2::cache_hint`
    const PTX_PREFETCH_HINT: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn load_hint(self, d: u32, m: u64, b: u32, pol: u64);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn store_hint(self, m: u64, s: u32, pol: u64);
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn prefetch_hint(self, m: u64, pol: u64);
}

macro_rules! tensor_hint_leaf {
    ($n:literal $d:literal $cs:literal [$($c:ident $i:literal),*]) => {
        tensor_hint_leaf! { @ (concat!("cp.async.bulk.tensor.", $d, "d", tok!(SharedCluster), tok!(Global), ".tile.mbarrier::complete_tx::bytes", tok!(CacheHint)))
                              (concat!("cp.async.bulk.tensor.", $d, "d", tok!(Global), tok!(Shared), ".tile.bulk_group", tok!(CacheHint)))
                              (concat!("cp.async.bulk.prefetch.tensor.", $d, "d.L2", tok!(Global), ".tile", tok!(CacheHint)))
                              $n $cs [$($c $i),*] }
    };
    (@ ($($l:tt)*) ($($s:tt)*) ($($p:tt)*) $n:literal $cs:literal [$($c:ident $i:literal),*]) => {
        unsafe impl TensorCoordsHint for [i32; $n] {
            const PTX_LOAD_HINT: &'static str = $($l)*;
            const PTX_STORE_HINT: &'static str = $($s)*;
            const PTX_PREFETCH_HINT: &'static str = $($p)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn load_hint(self, d: u32, m: u64, b: u32, pol: u64) {
                asm!(asm_text!(none; (tensor_load_hint $cs); $($l)*),
                     sd = in(reg32) d, m = in(reg64) m, b = in(reg32) b, pol = in(reg64) pol, $($c = in(reg32) self[$i],)* options(nostack, preserves_flags));
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn store_hint(self, m: u64, s: u32, pol: u64) {
                asm!(asm_text!(none; (tensor_store_hint $cs); $($s)*),
                     m = in(reg64) m, ss = in(reg32) s, pol = in(reg64) pol, $($c = in(reg32) self[$i],)* options(nostack, preserves_flags));
            }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn prefetch_hint(self, m: u64, pol: u64) {
                asm!(asm_text!(none; (tensor_prefetch_hint $cs); $($p)*),
                     m = in(reg64) m, pol = in(reg64) pol, $($c = in(reg32) self[$i],)* options(nostack, preserves_flags));
            }
        }
    };
}
for_tensor_dims! { tensor_hint_leaf }

/// [`cp_async_bulk_tensor_load`] with `.L2::cache_hint`. PTX 8.0, sm_90; PTX ISA §9.7.9.25.5,
/// seed §5.2. Host: the load without the hint.
///
/// # Safety
/// As [`cp_async_bulk_tensor_load`].
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_load_hint<C: TensorCoordsHint, Tag>(
    dst: SharedAddr,
    map: &TensorMap,
    coords: C,
    bar: &Mbarrier<Tag>,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.load_hint(
        dst.0,
        map as *const TensorMap as u64,
        bar.shared_addr().0,
        policy.0,
    );
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_bulk_tensor_load(dst, map, coords, bar)
    }
}

/// [`cp_async_bulk_tensor_store`] with `.L2::cache_hint`. PTX 8.0, sm_90; PTX ISA §9.7.9.25.5,
/// seed §5.2. Host: the store without the hint.
///
/// # Safety
/// As [`cp_async_bulk_tensor_store`].
#[inline(always)]
pub unsafe fn cp_async_bulk_tensor_store_hint<C: TensorCoordsHint>(
    map: &TensorMap,
    coords: C,
    src: SharedAddr,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.store_hint(map as *const TensorMap as u64, src.0, policy.0);
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = policy;
        cp_async_bulk_tensor_store(map, coords, src)
    }
}

/// [`cp_async_bulk_prefetch_tensor`] with `.L2::cache_hint`. PTX 8.0, sm_90; PTX ISA
/// §9.7.9.25.5, seed §5.2. Host: nothing.
///
/// # Safety
/// As [`cp_async_bulk_prefetch_tensor`].
#[inline(always)]
pub unsafe fn cp_async_bulk_prefetch_tensor_hint<C: TensorCoordsHint>(
    map: &TensorMap,
    coords: C,
    policy: CachePolicy,
) {
    #[cfg(target_arch = "nvptx64")]
    coords.prefetch_hint(map as *const TensorMap as u64, policy.0);
    #[cfg(not(target_arch = "nvptx64"))]
    let _ = (map, coords, policy);
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
    f(with_ops!(cvta; (bulk_g2s_hint); Variant {
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
    }));
    f(with_ops!(cvta; (bulk_s2g_hint); Variant {
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
    }));
    f(with_ops!(cvta; (bulk_prefetch_hint); Variant {
        op: "prefetch.L2",
        space: M::Global,
        form: Form {
            cache_hint: true,
            ..Form::NONE
        },
        ptx: CpAsyncBulkPrefetchHint::PTX,
        rust: "cp_async_bulk_prefetch_hint",
        ..b
    }));
    macro_rules! tensor_v {
        ($n:literal $d:literal $cs:literal [$($c:ident $i:literal),*]) => {
            let t = Variant {
                family: "cp.async.bulk.tensor",
                form: Form {
                    dim: $n,
                    cache_hint: true,
                    ..Form::NONE
                },
                isa: "9.7.9.25.5",
                ..b
            };
            f(with_ops!(none; (tensor_load_hint $cs); Variant {
                op: "load",
                space: M::SharedCluster,
                ptx: <[i32; $n] as TensorCoordsHint>::PTX_LOAD_HINT,
                rust: concat!("cp_async_bulk_tensor_load_hint::<[i32; ", $n, "], _>"),
                ..t
            }));
            f(with_ops!(none; (tensor_store_hint $cs); Variant {
                op: "store",
                space: M::Global,
                ptx: <[i32; $n] as TensorCoordsHint>::PTX_STORE_HINT,
                rust: concat!("cp_async_bulk_tensor_store_hint::<[i32; ", $n, "]>"),
                ..t
            }));
            f(with_ops!(none; (tensor_prefetch_hint $cs); Variant {
                op: "prefetch",
                space: M::Global,
                ptx: <[i32; $n] as TensorCoordsHint>::PTX_PREFETCH_HINT,
                rust: concat!("cp_async_bulk_prefetch_tensor_hint::<[i32; ", $n, "]>"),
                ..t
            }));
        };
    }
    for_tensor_dims! { tensor_v }
}
