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
//! <!-- generated from device/isa/clc.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`clc::try_cancel`](crate::clc::try_cancel) | `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [sd], [b];` | 8.6 / sm_100 |
//! | [`clc::try_cancel_multicast`](crate::clc::try_cancel_multicast) | `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [sd], [b];` | 8.6 / sm_100 (**sm_100a**) |
//! | [`clc::ClcResponse::is_canceled`](crate::clc::ClcResponse::is_canceled) | `clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, q;` | 8.6 / sm_100 |
//! | [`clc::ClcResponse::first_ctaid_x_unchecked`](crate::clc::ClcResponse::first_ctaid_x_unchecked) | `clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 d, q;` | 8.6 / sm_100 |
//! | [`clc::ClcResponse::first_ctaid_y_unchecked`](crate::clc::ClcResponse::first_ctaid_y_unchecked) | `clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 d, q;` | 8.6 / sm_100 |
//! | [`clc::ClcResponse::first_ctaid_z_unchecked`](crate::clc::ClcResponse::first_ctaid_z_unchecked) | `clusterlaunchcontrol.query_cancel.get_first_ctaid::z.b32.b128 d, q;` | 8.6 / sm_100 |
//! | [`clc::ClcResponse::first_ctaid_unchecked`](crate::clc::ClcResponse::first_ctaid_unchecked) | `clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {d, l, e, _}, q;` | 8.6 / sm_100 |
//!
//! [`try_cancel`], [`try_cancel_multicast`] and the `_unchecked` queries are `unsafe`;
//! [`ClcResponse::first_ctaid`] is the safe query (`is_canceled`, then the `.v4` query only on a
//! canceled response).
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
//! Host backend (the rows' host arms): no launch queue exists, so every request **fails** (a legal outcome on the
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

// The generated leaves' signatures name it; an nvptx64 build below sm_100 has none of them.
#[allow(unused_imports)]
use crate::mbarrier::Mbarrier;

// The markers `ClcTryCancel` … `ClcFirstCtaidV4` with their `asm!` leaves (on nvptx64 only in a
// build for sm_100, the multicast one sm_100a) and host arms, and the catalog rows: generated
// from device/isa/clc.rows.
include!(concat!(env!("OUT_DIR"), "/isa/clc.rs"));

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
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { ClcTryCancel::exec(response, bar) }
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
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { ClcTryCancelMulticast::exec(response, bar) }
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
        // SAFETY: a pure register operation on the response's bits.
        unsafe { ClcIsCanceled::exec(self) }
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
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            let (x, y, z) = ClcFirstCtaidV4::exec(self);
            [x, y, z]
        }
    }
}

macro_rules! ctaid_fns {
    ($($(#[$m:meta])* $f:ident $I:ident;)*) => {
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
                // SAFETY: the caller keeps this function's contract (its `# Safety`).
                unsafe {
                    $I::exec(self)
                }
            }
        )*}
    };
}
ctaid_fns! {
    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 d, q;` — `%ctaid.x` of the
    /// first CTA of the canceled cluster. PTX 8.6, sm_100; PTX ISA §9.7.13.18, seed §5.2.
    first_ctaid_x_unchecked ClcFirstCtaidX;
    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid::y.b32.b128 d, q;` — `%ctaid.y`.
    /// PTX 8.6, sm_100; PTX ISA §9.7.13.18, seed §5.2.
    first_ctaid_y_unchecked ClcFirstCtaidY;
    /// `clusterlaunchcontrol.query_cancel.get_first_ctaid::z.b32.b128 d, q;` — `%ctaid.z`.
    /// PTX 8.6, sm_100; PTX ISA §9.7.13.18, seed §5.2.
    first_ctaid_z_unchecked ClcFirstCtaidZ;
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
