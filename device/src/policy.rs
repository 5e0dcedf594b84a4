//! L2 cache policies: `createpolicy.fractional` — the standard TMA cache policies — for the
//! `.L2::cache_hint` forms of the bulk copies ([`crate::copy::cp_async_bulk_g2s_hint`],
//! [`cp_async_bulk_s2g_hint`](crate::copy::cp_async_bulk_s2g_hint),
//! [`cp_async_bulk_prefetch_hint`](crate::copy::cp_async_bulk_prefetch_hint)).
//!
//! PTX ISA §9.7.9.18 (`createpolicy`) (PTX 7.4, sm_80):
//!
//! ```text
//! createpolicy.fractional.L2::primary_priority{.L2::secondary_priority}.b64 cache-policy{, fraction};
//! .primary_priority   = { .evict_last, .evict_normal, .evict_first, .evict_unchanged }
//! .secondary_priority = { .evict_first, .evict_unchanged }
//! ```
//!
//! A fraction `f` in `(0, 1]` of the accesses that use the policy get the primary priority, the
//! rest the secondary one (`.evict_unchanged` when absent). The policy is an opaque 64-bit value
//! ([`CachePolicy`]); it is a performance hint and orders nothing. `EvictLast` as the secondary
//! priority does not exist (ptxas rejects it; `createpolicy::<_, EvictLast>` does not compile).
//! Seed §5.2 (the TMA producer's loads: `EvictFirst` for streamed data, `EvictLast` for data
//! reused by other CTAs).
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`createpolicy::<P, S>(f)`](createpolicy) | `createpolicy.fractional.L2::p{.L2::s}.b64 d, f;` | 7.4 / sm_80 |
//!
//! Host: no cache; [`createpolicy`] checks `f` and returns `CachePolicy(0)`.
//!
//! ```
//! use ptx_sync::policy::*;
//! let p = createpolicy::<EvictFirst, NoSecondary>(1.0); // createpolicy.fractional.L2::evict_first.b64 d, f;
//! let _q = createpolicy::<EvictLast, EvictUnchanged>(0.5);
//! assert_eq!(<(EvictLast, EvictUnchanged) as CreatepolicyInstr>::PTX,
//!            "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64");
//! # let _ = p;
//! ```
//!
//! ```compile_fail
//! use ptx_sync::policy::*;
//! let _ = createpolicy::<EvictFirst, EvictLast>(1.0); // no `.L2::evict_last` secondary
//! ```

use crate::sem::tok;
use crate::sem::Sealed;
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// An L2 eviction priority of `createpolicy` (`.L2::evict_*`), or [`NoSecondary`].
pub trait Priority: Sealed + Copy + Default + 'static {
    /// The PTX token (`".L2::evict_first"`; `""` for [`NoSecondary`]).
    const PTX: &'static str;
    /// The marker's name (`"EvictFirst"`).
    const NAME: &'static str;
}
crate::sem::token_markers! {
    Priority;
    /// `.L2::evict_first`: evicted first (streamed data).
    EvictFirst
    /// `.L2::evict_last`: evicted last (data reused soon, by this or other CTAs).
    EvictLast
    /// `.L2::evict_normal`: the default priority.
    EvictNormal
    /// `.L2::evict_unchanged`: keeps the line's current priority.
    EvictUnchanged
    /// No `.L2::secondary_priority` token (the ISA's default, `.L2::evict_unchanged`).
    NoSecondary
}

/// An L2 cache policy made by [`createpolicy`]: the `cache-policy` operand of the
/// `.L2::cache_hint` forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CachePolicy(pub u64);

/// `createpolicy.fractional.L2::P{.L2::S}.b64` for one (primary, secondary) pair.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `createpolicy.fractional` with priorities `{Self}`",
    note = "PTX ISA `createpolicy`: primary {{evict_last, evict_normal, evict_first, evict_unchanged}}, secondary {{evict_first, evict_unchanged}} or none"
)]
pub unsafe trait CreatepolicyInstr {
    /// `"createpolicy.fractional.L2::<p>{.L2::<s>}.b64"`.
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec(fraction: f32) -> u64;
}

/// The table: one row per (primary, secondary), `$leaf! { Primary Secondary }`. Exported as
/// `ptx_sync::createpolicy_rows!(leaf)`, which the catalog kernels instantiate.
#[doc(hidden)]
#[macro_export]
macro_rules! createpolicy_rows {
    ($leaf:ident) => {
        $crate::createpolicy_rows! { @p $leaf EvictLast }
        $crate::createpolicy_rows! { @p $leaf EvictNormal }
        $crate::createpolicy_rows! { @p $leaf EvictFirst }
        $crate::createpolicy_rows! { @p $leaf EvictUnchanged }
    };
    (@p $leaf:ident $P:ident) => {
        $leaf! { $P NoSecondary }
        $leaf! { $P EvictFirst }
        $leaf! { $P EvictUnchanged }
    };
}

macro_rules! policy_leaf {
    ($P:ident $S:ident) => {
        policy_leaf! { @ (concat!("createpolicy.fractional", tok!($P), tok!($S), ".b64")) $P $S }
    };
    (@ ($($mn:tt)*) $P:ident $S:ident) => {
        unsafe impl CreatepolicyInstr for ($P, $S) {
            const PTX: &'static str = $($mn)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec(fraction: f32) -> u64 {
                let d: u64;
                asm!(crate::instr::asm_text!(none; (createpolicy); $($mn)*), d64 = out(reg64) d, f = in(reg32) fraction,
                     options(pure, nomem, nostack, preserves_flags));
                d
            }
        }
    };
}
crate::createpolicy_rows! { policy_leaf }

/// `createpolicy.fractional.L2::P{.L2::S}.b64 d, fraction;` — a policy giving the fraction
/// `fraction` of the accesses that use it priority `P`, the rest `S` ([`NoSecondary`]: no
/// token, the ISA's `.L2::evict_unchanged`). `P` ∈ {[`EvictLast`], [`EvictNormal`],
/// [`EvictFirst`], [`EvictUnchanged`]}, `S` ∈ {[`NoSecondary`], [`EvictFirst`],
/// [`EvictUnchanged`]}. PTX 7.4, sm_80; PTX ISA §9.7.9.18, seed §5.2.
///
/// Panics unless `0 < fraction <= 1` (the ISA's range).
///
/// ```
/// let p = ptx_sync::policy::createpolicy::<ptx_sync::policy::EvictNormal, ptx_sync::policy::EvictFirst>(0.25);
/// # let _ = p;
/// ```
#[inline(always)]
pub fn createpolicy<P: Priority, S: Priority>(fraction: f32) -> CachePolicy
where
    (P, S): CreatepolicyInstr,
{
    assert!(
        fraction > 0.0 && fraction <= 1.0,
        "createpolicy: fraction must be in (0, 1] (PTX ISA createpolicy)"
    );
    #[cfg(target_arch = "nvptx64")]
    {
        CachePolicy(unsafe { <(P, S) as CreatepolicyInstr>::exec(fraction) })
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = <(P, S) as CreatepolicyInstr>::PTX;
        CachePolicy(0)
    }
}

/// Catalog rows of this module (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::Variant;
    macro_rules! row {
        ($P:ident $S:ident) => {
            f(crate::instr::with_ops!(none; (createpolicy); Variant {
                family: "createpolicy",
                // The priorities by marker name (`"EvictLast NoSecondary"`), spelled by the test.
                op: concat!(stringify!($P), " ", stringify!($S)),
                ty: "b64",
                ptx: <($P, $S) as CreatepolicyInstr>::PTX,
                rust: concat!(
                    "policy::createpolicy::<",
                    stringify!($P),
                    ", ",
                    stringify!($S),
                    ">"
                ),
                sm: 80,
                ptx_isa: 74,
                isa: "9.7.9.18",
                seed: "5.2",
                ..Variant::EMPTY
            }));
        };
    }
    crate::createpolicy_rows! { row }
}
