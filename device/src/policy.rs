//! L2 cache policies: `createpolicy.fractional` — the standard TMA cache policies — for the
//! `.L2::cache_hint` forms of the bulk and tensor copies (the modifier
//! [`Mods::cache_hint`](crate::copy::Mods::cache_hint) of [`crate::copy::cp_async_bulk_g2s_with`]
//! and the other `…_with` copies).
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
//! <!-- generated from device/isa/policy.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`policy::createpolicy`](crate::policy::createpolicy) | `createpolicy.fractional.{L2::evict_last,L2::evict_normal,L2::evict_first,L2::evict_unchanged}{.L2::evict_first,.L2::evict_unchanged}.b64 d64, f;` | 7.4 / sm_80 |
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

crate::sem::token_markers! {
    /// An L2 eviction priority of `createpolicy` (`.L2::evict_*`), or [`NoSecondary`].
    trait Priority;
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

// The rows of `device/isa/policy.rows`: the trait `CreatepolicyInstr` with one impl per legal
// (primary, secondary), its leaves and catalog rows.
include!(concat!(env!("OUT_DIR"), "/isa/policy.rs"));

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
    // SAFETY: the fraction is in range (checked above).
    CachePolicy(unsafe { <(P, S) as CreatepolicyInstr>::exec(fraction) })
}
