//! The modifiers of the asynchronous copies, as a typed option: `.multicast::cluster` with its
//! CTA mask and `.L2::cache_hint` with its cache policy (PTX ISA §9.7.9.25.4, §9.7.9.25.5). A copy
//! that has modifiers is one function, `…_with(…, mods)`; its plain name is the same call with
//! [`Mods::NONE`]. Which modifiers an instruction takes is a trait bound, implemented by its rows
//! (`device/isa/copy.rows`), so an illegal combination does not compile:
//!
//! ```
//! use ptx_sync::copy::{cp_async_bulk_g2s_with, Mods};
//! use ptx_sync::{policy::{createpolicy, EvictFirst, NoSecondary}, shared::to_shared, Mbarrier, Cluster, Release};
//! #[repr(align(16))] struct A([u8; 32]);
//! let (src, mut dst) = (A([5; 32]), A([0; 32]));
//! let full: Mbarrier = Mbarrier::new();
//! full.init(1);
//! let _ = full.arrive_expect_tx::<Release, Cluster>(32);
//! let pol = createpolicy::<EvictFirst, NoSecondary>(1.0);
//! // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint
//! unsafe { cp_async_bulk_g2s_with(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 32, &full, Mods::NONE.multicast(0b1).cache_hint(pol)) };
//! assert_eq!(dst.0, [5; 32]);
//! ```
//!
//! A store has no multicast:
//!
//! ```compile_fail
//! use ptx_sync::{copy::{cp_async_bulk_s2g_with, Mods}, shared::to_shared};
//! let (mut out, smem) = ([0u8; 16], [0u8; 16]);
//! unsafe { cp_async_bulk_s2g_with(out.as_mut_ptr(), to_shared(smem.as_ptr()), 16, Mods::NONE.multicast(0b11)) };
//! ```

use crate::policy::CachePolicy;
use crate::sem::Sealed;

/// The `.multicast::cluster` modifier: [`ThisCta`] (none: the executing CTA's shared memory) or
/// a [`CtaMask`] (the copy lands in every CTA of the mask, at the same offsets, PTX ISA
/// §9.7.9.25.4: "requires sm_90 or higher"; sm_90a advised).
pub trait Multicast: Sealed + Copy + 'static {}
/// The `.L2::cache_hint` modifier: [`NoHint`] or a [`CachePolicy`] (the 64-bit policy operand,
/// from [`createpolicy`](crate::policy::createpolicy)).
pub trait L2Hint: Sealed + Copy + 'static {}

/// No `.multicast::cluster`: the executing CTA only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThisCta;
/// `.multicast::cluster` to the CTAs of the mask (bit `i` = cluster rank `i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CtaMask(pub u16);
/// No `.L2::cache_hint`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoHint;

impl Sealed for ThisCta {}
impl Sealed for CtaMask {}
impl Sealed for NoHint {}
impl Sealed for CachePolicy {}
impl Multicast for ThisCta {}
impl Multicast for CtaMask {}
impl L2Hint for NoHint {}
impl L2Hint for CachePolicy {}

/// The modifiers of one copy: its multicast `M` and its cache hint `H` (both none by default).
///
/// No instruction of its own: the modifiers are tokens and operands of the copy's instruction
/// (`.multicast::cluster` with `ctaMask`, `.L2::cache_hint` with `cache-policy`, in that order,
/// PTX ISA §9.7.9.25.4/5).
///
/// # Examples
///
/// ```
/// use ptx_sync::copy::{CtaMask, Mods};
/// use ptx_sync::policy::CachePolicy;
/// let m = Mods::NONE.multicast(0b11).cache_hint(CachePolicy(7));
/// assert_eq!((m.multicast, m.hint), (CtaMask(0b11), CachePolicy(7)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mods<M: Multicast = ThisCta, H: L2Hint = NoHint> {
    /// The multicast: [`ThisCta`] or the [`CtaMask`].
    pub multicast: M,
    /// The cache hint: [`NoHint`] or the [`CachePolicy`].
    pub hint: H,
}

impl Mods {
    /// No modifier.
    pub const NONE: Mods = Mods {
        multicast: ThisCta,
        hint: NoHint,
    };
}

impl<M: Multicast, H: L2Hint> Mods<M, H> {
    /// With `.multicast::cluster` to the CTAs of `mask` (bit `i` = cluster rank `i`).
    ///
    /// No instruction. PTX ISA §9.7.9.25.4; seed §5.4.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(ptx_sync::copy::Mods::NONE.multicast(0b101).multicast.0, 0b101);
    /// ```
    pub const fn multicast(self, mask: u16) -> Mods<CtaMask, H> {
        Mods {
            multicast: CtaMask(mask),
            hint: self.hint,
        }
    }
    /// With `.L2::cache_hint` and the cache policy `policy`.
    ///
    /// No instruction. PTX ISA §9.7.9.25.4 (`.level::cache_hint`); seed §5.2.
    ///
    /// # Examples
    ///
    /// ```
    /// use ptx_sync::{copy::Mods, policy::CachePolicy};
    /// assert_eq!(Mods::NONE.cache_hint(CachePolicy(1)).hint, CachePolicy(1));
    /// ```
    pub const fn cache_hint(self, policy: CachePolicy) -> Mods<M, CachePolicy> {
        Mods {
            multicast: self.multicast,
            hint: policy,
        }
    }
}
