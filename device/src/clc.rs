//! Cluster launch control (Blackwell, PTX 8.6): `clusterlaunchcontrol.try_cancel` asks the
//! hardware to cancel the launch of a cluster that has not started yet and writes a 16-byte
//! response to shared memory, completing on an [`Mbarrier`] like a TMA load (16 bytes of
//! tx-count); `clusterlaunchcontrol.query_cancel` decodes the response — whether a cluster was
//! canceled, and the `%ctaid` of its first CTA, whose work the requesting CTA then does (dynamic
//! persistent scheduling, "work stealing").
//!
//! PTX ISA §9.7.13.17 (`clusterlaunchcontrol.try_cancel`) and §9.7.13.18 (`query_cancel`):
//!
//! ```text
//! clusterlaunchcontrol.try_cancel.async{.space}.completion_mechanism{.multicast::cluster::all}.b128 [addr], [mbar];
//! .completion_mechanism = { .mbarrier::complete_tx::bytes }, .space = { .shared::cta }
//! clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 pred, try_cancel_response;
//! clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {xdim, ydim, zdim, _}, try_cancel_response;
//! clusterlaunchcontrol.query_cancel{.get_first_ctaid::dimension}.b32.b128 reg, try_cancel_response;
//! .get_first_ctaid::dimension = { .get_first_ctaid::x, .get_first_ctaid::y, .get_first_ctaid::z }
//! ```
//!
//! | call | PTX | PTX / SM |
//! |---|---|---|
//! | [`try_cancel`] (`unsafe`) | `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [r], [b];` | 8.6 / sm_100 |
//! | [`try_cancel_multicast`] (`unsafe`) | `….mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [r], [b];` | 8.6 / **sm_100a** |
//! | [`ClcResponse::is_canceled`] | `clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, q;` | 8.6 / sm_100 |
//! | [`ClcResponse::first_ctaid`] (safe: only on a canceled response), [`ClcResponse::first_ctaid_unchecked`] (`unsafe`) | `clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {x, y, z, _}, q;` (the 4th element is unspecified: the sink `_`) | 8.6 / sm_100 |
//! | [`ClcResponse::first_ctaid_x_unchecked`] … `_z_` (`unsafe`) | `clusterlaunchcontrol.query_cancel.get_first_ctaid::{x,y,z}.b32.b128 d, q;` | 8.6 / sm_100 |
//!
//! ptxas 13.0 rejects every form on sm_90 (`requires .target sm_100 or higher`) and the
//! multicast form on sm_100 (`not supported on .target 'sm_100'`). On nvptx64 the sm_100 items
//! exist only in a build for sm_100 or newer (`target_feature = "sm_100"`), the multicast one only
//! for sm_100a; the catalog builds them in `catalog_sm100a.ptx`.
//!
//! Seed §5.2 (an asynchronous write into shared memory that completes on an mbarrier's
//! tx-count): the issuing thread also does `arrive.expect_tx(16)` on the barrier (the ISA's
//! completion is a `complete_tx` of the 16 response bytes, not an arrival); waiters read the
//! response after the phase completes.
//!
//! Host backend: no launch queue exists, so every request **fails** (a legal outcome on the
//! device too: every cluster may have started): the response reads "not canceled" and the
//! barrier gets the 16-byte `complete_tx` of the write, as the copy engine's completion of an
//! async copy ([`Mbarrier::async_copy_complete_tx`](crate::Mbarrier)).
//!
//! ```
//! use ptx_sync::clc::*;
//! use ptx_sync::{Mbarrier, Phase, Release, Acquire, Cta};
//! let mut resp = ClcResponse::default();
//! let bar: Mbarrier = Mbarrier::new();
//! bar.init(1);
//! let _ = bar.arrive_expect_tx::<Release, Cta>(16);
//! unsafe { try_cancel(&mut resp, &bar) }; // clusterlaunchcontrol.try_cancel.async.shared::cta…
//! assert!(bar.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
//! assert!(!resp.is_canceled()); // the host has no pending cluster to cancel
//! assert_eq!(resp.first_ctaid(), None);
//! ```

#![cfg_attr(
    all(target_arch = "nvptx64", not(target_feature = "sm_100")),
    allow(unused_macros, unused_imports)
)]

use crate::instr::instr;
use crate::mbarrier::Mbarrier;
#[allow(unused_imports)]
use crate::sem::tok;
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

// The mnemonics, spelled once (the `Instr::PTX` constants and the `asm!` templates expand them).
macro_rules! m_try {
    () => {
        concat!(
            "clusterlaunchcontrol.try_cancel.async",
            tok!(Shared),
            ".mbarrier::complete_tx::bytes.b128"
        )
    };
}
macro_rules! m_try_mc {
    () => {
        concat!(
            "clusterlaunchcontrol.try_cancel.async",
            tok!(Shared),
            ".mbarrier::complete_tx::bytes.multicast::cluster::all.b128"
        )
    };
}
macro_rules! m_is_canceled {
    () => {
        "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128"
    };
}
macro_rules! m_ctaid {
    (x) => {
        "clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128"
    };
    (y) => {
        "clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128"
    };
    (z) => {
        "clusterlaunchcontrol.query_cancel.get_first_ctaid::z.b32.b128"
    };
    (v4) => {
        "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128"
    };
}

instr! {
    /// `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [r], [b];`
    /// (PTX 8.6, sm_100; see [`try_cancel`]).
    ClcTryCancel = (m_try!());
}
instr! {
    /// `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [r], [b];`
    /// (PTX 8.6, sm_100a; see [`try_cancel_multicast`]).
    ClcTryCancelMulticast = (m_try_mc!());
}
instr! {
    /// `clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, q;` (PTX 8.6, sm_100; see
    /// [`ClcResponse::is_canceled`]).
    ClcIsCanceled = (m_is_canceled!());
}
instr! {
    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 d, q;` (PTX 8.6, sm_100).
    ClcFirstCtaidX = (m_ctaid!(x));
}
instr! {
    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 d, q;` (PTX 8.6, sm_100).
    ClcFirstCtaidY = (m_ctaid!(y));
}
instr! {
    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid::z.b32.b128 d, q;` (PTX 8.6, sm_100).
    ClcFirstCtaidZ = (m_ctaid!(z));
}
instr! {
    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {x, y, z, _}, q;` (PTX 8.6,
    /// sm_100; see [`ClcResponse::first_ctaid`]).
    ClcFirstCtaidV4 = (m_ctaid!(v4));
}

/// The opaque 16-byte response of `clusterlaunchcontrol.try_cancel`: the buffer in this CTA's
/// shared memory (16-byte aligned by its type) and, read after the request completed, the
/// value `query_cancel` decodes (its `.b128` operand).
///
/// On the host the encoding is this crate's own (word 0 bit 0: canceled; the first CTA's
/// `x` in word 0's high half, `y`/`z` in word 1) — the device's is NVIDIA's and undocumented.
///
/// ```
/// use ptx_sync::clc::ClcResponse;
/// assert_eq!((core::mem::size_of::<ClcResponse>(), core::mem::align_of::<ClcResponse>()), (16, 16));
/// assert!(!ClcResponse::default().is_canceled());
/// ```
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClcResponse {
    raw: [u64; 2],
}

/// `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [r],
/// [b];` — asks to cancel the launch of a cluster of this grid that has not started running;
/// the 16-byte answer is written to `response` asynchronously and its completion is a
/// `complete_tx` of 16 bytes on `bar` (at `.cluster` scope). PTX 8.6, sm_100; PTX ISA
/// §9.7.13.17, seed §5.2.
///
/// # Safety
/// `response` and `bar` are in this CTA's shared memory (the `.shared::cta` window);
/// `response` is not read or written until `bar`'s phase that expects the 16 bytes completes
/// (so `bar` must expect them: `arrive_expect_tx(16)` by this or another thread of the phase);
/// and this CTA has **not already observed a failed request** — issuing `try_cancel` after
/// seeing a response that is not canceled is undefined (PTX ISA §9.7.13.17).
///
/// ```
/// use ptx_sync::{clc::{try_cancel, ClcResponse, ClcTryCancel}, instr::Instr, Mbarrier, Release, Cta};
/// let mut r = ClcResponse::default();
/// let bar: Mbarrier = Mbarrier::new();
/// bar.init(1);
/// let _ = bar.arrive_expect_tx::<Release, Cta>(16);
/// unsafe { try_cancel(&mut r, &bar) };
/// assert!(ClcTryCancel::PTX.starts_with("clusterlaunchcontrol.try_cancel.async.shared::cta"));
/// ```
#[cfg(any(doc, not(target_arch = "nvptx64"), target_feature = "sm_100"))]
#[inline(always)]
pub unsafe fn try_cancel<Tag>(response: *mut ClcResponse, bar: &Mbarrier<Tag>) {
    #[cfg(target_arch = "nvptx64")]
    {
        asm!(crate::instr::asm_text!(none; (clc_try); m_try!()),
             sd = in(reg32) crate::shared::to_shared(response.cast_const()).raw(),
             b = in(reg32) bar.shared_addr().0, options(nostack, preserves_flags));
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        host_fail(response, bar);
    }
}

/// `….mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [r], [b];` — [`try_cancel`]
/// whose response is written to the same offset `r` in **every** CTA of the cluster, each
/// write completing on the mbarrier at offset `b` of its CTA. PTX 8.6, **sm_100a**; PTX ISA
/// §9.7.13.17, seed §5.4.
///
/// # Safety
/// As [`try_cancel`], for every CTA of the cluster: each has its response buffer and an
/// mbarrier expecting 16 bytes at these offsets, and none has observed a failed request.
/// Host: a cluster of one CTA.
///
/// ```
/// use ptx_sync::{clc::{try_cancel_multicast, ClcResponse}, Mbarrier, Phase, Release, Acquire, Cluster};
/// let mut r = ClcResponse::default();
/// let bar: Mbarrier = Mbarrier::new();
/// bar.init(1);
/// let _ = bar.arrive_expect_tx::<Release, Cluster>(16);
/// unsafe { try_cancel_multicast(&mut r, &bar) };
/// assert!(bar.try_wait_parity::<Acquire, Cluster>(Phase::ZERO) && !r.is_canceled());
/// ```
#[cfg(any(doc, not(target_arch = "nvptx64"), target_feature = "sm_100a"))]
#[inline(always)]
pub unsafe fn try_cancel_multicast<Tag>(response: *mut ClcResponse, bar: &Mbarrier<Tag>) {
    #[cfg(target_arch = "nvptx64")]
    {
        asm!(crate::instr::asm_text!(none; (clc_try); m_try_mc!()),
             sd = in(reg32) crate::shared::to_shared(response.cast_const()).raw(),
             b = in(reg32) bar.shared_addr().0, options(nostack, preserves_flags));
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        host_fail(response, bar);
    }
}

/// Host: the request fails (no pending cluster): "not canceled", then the write's completion.
#[cfg(not(target_arch = "nvptx64"))]
unsafe fn host_fail<Tag>(response: *mut ClcResponse, bar: &Mbarrier<Tag>) {
    response.write(ClcResponse { raw: [0, 0] });
    bar.async_copy_complete_tx(16);
}

#[cfg(any(doc, not(target_arch = "nvptx64"), target_feature = "sm_100"))]
impl ClcResponse {
    /// `clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, q;` — whether the request
    /// canceled a cluster. PTX 8.6, sm_100; PTX ISA §9.7.13.18, seed §5.2. Read the response
    /// (`*response`) only after the mbarrier phase of its request completed.
    ///
    /// ```
    /// use ptx_sync::{clc::{ClcResponse, ClcIsCanceled}, instr::Instr};
    /// assert!(!ClcResponse::default().is_canceled());
    /// assert_eq!(ClcIsCanceled::PTX, "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128");
    /// ```
    #[inline(always)]
    pub fn is_canceled(&self) -> bool {
        #[cfg(target_arch = "nvptx64")]
        {
            let d: u32;
            unsafe {
                asm!(crate::instr::asm_text!(clc_q_pred; (clc_pred); m_is_canceled!()),
                     lo = in(reg64) self.raw[0], hi = in(reg64) self.raw[1], d = out(reg32) d,
                     options(pure, nomem, nostack, preserves_flags));
            }
            d != 0
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.raw[0] & 1 != 0
        }
    }

    /// The `%ctaid` `(x, y, z)` of the first CTA of the canceled cluster, or `None` if the
    /// request failed: [`is_canceled`](Self::is_canceled), then (only on a canceled response:
    /// the ISA leaves `get_first_ctaid` of a failed request undefined) one
    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {x, y, z, _}, q;`. PTX 8.6,
    /// sm_100; PTX ISA §9.7.13.18, seed §5.2.
    ///
    /// ```
    /// use ptx_sync::clc::ClcResponse;
    /// assert_eq!(ClcResponse::default().first_ctaid(), None);
    /// assert_eq!(ClcResponse::host(Some((5, 2, 1))).first_ctaid(), Some([5, 2, 1]));
    /// ```
    #[inline(always)]
    pub fn first_ctaid(&self) -> Option<[u32; 3]> {
        if !self.is_canceled() {
            return None;
        }
        // SAFETY: the response says canceled.
        Some(unsafe { self.first_ctaid_unchecked() })
    }

    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {x, y, z, _}, q;` — the
    /// `%ctaid` `(x, y, z)` of the first CTA of the canceled cluster in one instruction (the
    /// `.v4` result's 4th element is unspecified: the sink `_`). PTX 8.6, sm_100; PTX ISA
    /// §9.7.13.18, seed §5.2.
    ///
    /// # Safety
    /// The response says canceled ([`is_canceled`](Self::is_canceled)): the ISA leaves
    /// `get_first_ctaid` of a failed request undefined. [`first_ctaid`](Self::first_ctaid) is
    /// the safe form.
    ///
    /// ```
    /// use ptx_sync::{clc::{ClcResponse, ClcFirstCtaidV4}, instr::Instr};
    /// let r = ClcResponse::host(Some((7, 0, 3)));
    /// assert!(r.is_canceled());
    /// assert_eq!(unsafe { r.first_ctaid_unchecked() }, [7, 0, 3]);
    /// assert_eq!(ClcFirstCtaidV4::PTX, "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128");
    /// ```
    #[inline(always)]
    pub unsafe fn first_ctaid_unchecked(&self) -> [u32; 3] {
        #[cfg(target_arch = "nvptx64")]
        {
            let (x, y, z): (u32, u32, u32);
            asm!(crate::instr::asm_text!(clc_q; (clc_ctaid_v4); m_ctaid!(v4)),
                 lo = in(reg64) self.raw[0], hi = in(reg64) self.raw[1],
                 d = out(reg32) x, l = out(reg32) y, e = out(reg32) z,
                 options(pure, nomem, nostack, preserves_flags));
            [x, y, z]
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            [
                self.first_ctaid_x_unchecked(),
                self.first_ctaid_y_unchecked(),
                self.first_ctaid_z_unchecked(),
            ]
        }
    }
}

macro_rules! ctaid_fns {
    ($($(#[$m:meta])* $f:ident $d:ident $shift:literal $w:literal;)*) => {
        #[cfg(any(doc, not(target_arch = "nvptx64"), target_feature = "sm_100"))]
        impl ClcResponse {$(
            $(#[$m])*
            ///
            /// # Safety
            /// The response says canceled ([`is_canceled`](Self::is_canceled)): the ISA leaves
            /// `get_first_ctaid` of a failed request undefined. [`first_ctaid`](Self::first_ctaid)
            /// is the safe form.
            ///
            /// ```
            /// use ptx_sync::clc::ClcResponse;
            /// let r = ClcResponse::default();
            /// if r.is_canceled() {
            #[doc = concat!("    let _ = unsafe { r.", stringify!($f), "() };")]
            /// }
            /// ```
            #[inline(always)]
            pub unsafe fn $f(&self) -> u32 {
                #[cfg(target_arch = "nvptx64")]
                {
                    let d: u32;
                    asm!(crate::instr::asm_text!(clc_q; (clc_ctaid); m_ctaid!($d)),
                         lo = in(reg64) self.raw[0], hi = in(reg64) self.raw[1], d = out(reg32) d,
                         options(pure, nomem, nostack, preserves_flags));
                    d
                }
                #[cfg(not(target_arch = "nvptx64"))]
                {
                    (self.raw[$w] >> $shift) as u32
                }
            }
        )*}
    };
}
ctaid_fns! {
    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 d, q;` — `%ctaid.x` of the
    /// first CTA of the canceled cluster. PTX 8.6, sm_100; PTX ISA §9.7.13.18, seed §5.2.
    first_ctaid_x_unchecked x 32 0;
    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 d, q;` — `%ctaid.y`.
    /// PTX 8.6, sm_100; PTX ISA §9.7.13.18, seed §5.2.
    first_ctaid_y_unchecked y 0 1;
    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid::z.b32.b128 d, q;` — `%ctaid.z`.
    /// PTX 8.6, sm_100; PTX ISA §9.7.13.18, seed §5.2.
    first_ctaid_z_unchecked z 32 1;
}

#[cfg(not(target_arch = "nvptx64"))]
impl ClcResponse {
    /// Host backend only: a response in this crate's host encoding — `Some((x, y, z))` a
    /// canceled cluster whose first CTA is `(x, y, z)`, `None` a failed request. No instruction.
    ///
    /// ```
    /// use ptx_sync::clc::ClcResponse;
    /// assert_eq!(ClcResponse::host(Some((3, 1, 0))).first_ctaid(), Some([3, 1, 0]));
    /// assert!(!ClcResponse::host(None).is_canceled());
    /// ```
    pub fn host(first: Option<(u32, u32, u32)>) -> ClcResponse {
        match first {
            None => ClcResponse { raw: [0, 0] },
            Some((x, y, z)) => ClcResponse {
                raw: [1 | (x as u64) << 32, y as u64 | (z as u64) << 32],
            },
        }
    }
}

/// Catalog rows of this module (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Arch, Family, Form, Marker as M, Variant};
    use crate::instr::{with_ops, Instr};
    let base = Variant {
        sm: 100,
        ptx_isa: 86,
        seed: "5.2",
        ..Variant::of(Family::Clusterlaunchcontrol)
    };
    f(with_ops!(none; (clc_try); Variant {
        op: "try_cancel",
        ty: "b128",
        space: M::Shared,
        ptx: ClcTryCancel::PTX,
        rust: "clc::try_cancel",
        isa: "9.7.13.17",
        ..base
    }));
    f(with_ops!(none; (clc_try); Variant {
        op: "try_cancel",
        ty: "b128",
        space: M::Shared,
        form: Form {
            multicast: true,
            ..Form::NONE
        },
        ptx: ClcTryCancelMulticast::PTX,
        rust: "clc::try_cancel_multicast",
        arch: Arch::Sm100a,
        isa: "9.7.13.17",
        seed: "5.4",
        ..base
    }));
    f(with_ops!(clc_q_pred; (clc_pred); Variant {
        op: "query_cancel.is_canceled",
        ty: "b128",
        ptx: ClcIsCanceled::PTX,
        rust: "clc::ClcResponse::is_canceled",
        isa: "9.7.13.18",
        ..base
    }));
    macro_rules! ctaid {
        ($($I:ident $f:literal $d:literal),*) => {$(
            f(with_ops!(clc_q; (clc_ctaid); Variant {
                op: concat!("query_cancel.get_first_ctaid::", $d),
                ty: "b128",
                ptx: $I::PTX,
                rust: concat!("clc::ClcResponse::", $f),
                isa: "9.7.13.18",
                ..base
            }));
        )*};
    }
    ctaid!(ClcFirstCtaidX "first_ctaid_x_unchecked" "x",
           ClcFirstCtaidY "first_ctaid_y_unchecked" "y",
           ClcFirstCtaidZ "first_ctaid_z_unchecked" "z");
    f(with_ops!(clc_q; (clc_ctaid_v4); Variant {
        op: "query_cancel.get_first_ctaid.v4",
        ty: "b128",
        ptx: ClcFirstCtaidV4::PTX,
        rust: "clc::ClcResponse::first_ctaid_unchecked",
        isa: "9.7.13.18",
        ..base
    }));
}
