//! Tensor-map maintenance on the device: `tensormap.cp_fenceproxy` (copy a map modified in
//! shared memory to global memory and fence it for the tensormap proxy) and
//! `prefetch.tensormap` (prefetch a map into the cache TMA reads it from).
//!
//! PTX ISA §9.7.13.16 (`tensormap.cp_fenceproxy`) (PTX 8.3, sm_90):
//!
//! ```text
//! tensormap.cp_fenceproxy.cp_qualifiers.fence_qualifiers.sync.aligned [dst], [src], size;
//! .cp_qualifiers    = { .global.shared::cta }
//! .fence_qualifiers = { .to_proxy::from_proxy.release.scope }
//! .to_proxy::from_proxy = { .tensormap::generic }, .scope = { .cta, .cluster, .gpu, .sys }, size = 128
//! ```
//!
//! and `prefetch{.tensormap_space}.tensormap [a];` (section `prefetch, prefetchu`, PTX 8.0, sm_90; this
//! crate emits the generic-address form). Seed §5.3 (a map written through the generic proxy
//! must be fenced before the tensormap proxy — TMA — reads it): `cp_fenceproxy` is the copy and
//! the release half in one instruction; the reader still needs
//! [`fence_proxy_tensormap_acquire`](crate::proxy::fence_proxy_tensormap_acquire) (or a map
//! it never saw before). [`replace`] has `tensormap.replace` (sm_90a / sm_100a), which rewrites
//! one field of a map in place before this copy publishes it.
//!
//! <!-- generated from device/isa/tensormap.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`tensormap::tensormap_cp_fenceproxy`](crate::tensormap::tensormap_cp_fenceproxy) | `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.{cta,cluster,gpu,sys}.sync.aligned [a64], [ss], 128;` | 8.3 / sm_90 |
//! | [`tensormap::prefetch_tensormap`](crate::tensormap::prefetch_tensormap) | `prefetch.tensormap [a64];` | 8.0 / sm_90 |
//!
//! Host: the copy is a 128-byte copy then `fence(Release)` (under `--cfg loom` the model's
//! release fence at the scope); the prefetch does nothing (no cache to warm).
//!
//! ```
//! use ptx_sync::tensormap::*;
//! use ptx_sync::{copy::TensorMap, Gpu};
//! let staged = TensorMap { opaque: [7; 16] };
//! let mut global = TensorMap { opaque: [0; 16] };
//! // tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [d], [s], 128;
//! unsafe { tensormap_cp_fenceproxy::<Gpu>(&mut global, &staged) };
//! assert_eq!(global, staged);
//! unsafe { prefetch_tensormap(&global) }; // prefetch.tensormap [a];
//! assert_eq!(<Gpu as CpFenceproxyInstr>::PTX,
//!     "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned");
//! ```

pub mod replace;

use crate::copy::TensorMap;
use crate::sem::Scope;

// The rows of `device/isa/tensormap.rows`: the trait `CpFenceproxyInstr` with one impl per scope,
// the marker `PrefetchTensormap`, their leaves and catalog rows.
include!(concat!(env!("OUT_DIR"), "/isa/tensormap.rs"));

/// `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned
/// [dst], [src], 128;` — copies the 128-byte tensor map `src` (modified in shared memory, e.g.
/// by `st.shared`) to `dst` in global memory and orders the copy, for threads in scope `Sco`,
/// before their later tensormap-proxy (TMA) uses of `dst` — a release through the tensormap
/// proxy. PTX 8.3, sm_90; PTX ISA §9.7.13.16, seed §5.3.
///
/// # Safety
/// `dst` must be the generic address of a 128-byte map in **global** memory and `src` that of
/// one in this CTA's **shared** memory (the ISA defines the copy only for
/// `.global` ← `.shared::cta`); `.sync.aligned`: every thread of the warp executes this same
/// instruction (a divergent call is undefined). Nothing else may access `dst` concurrently.
///
/// ```
/// use ptx_sync::tensormap::{tensormap_cp_fenceproxy, CpFenceproxyInstr};
/// use ptx_sync::{copy::TensorMap, Cta};
/// let staged = TensorMap { opaque: [3; 16] };
/// let mut global = TensorMap { opaque: [0; 16] };
/// unsafe { tensormap_cp_fenceproxy::<Cta>(&mut global, &staged) };
/// assert_eq!(global, staged);
/// assert!(<Cta as CpFenceproxyInstr>::PTX.ends_with(".release.cta.sync.aligned"));
/// ```
#[inline(always)]
pub unsafe fn tensormap_cp_fenceproxy<Sco: CpFenceproxyInstr>(
    dst: *mut TensorMap,
    src: *const TensorMap,
) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { Sco::exec(dst, src) }
}

/// `prefetch.tensormap [a];` — brings the tensor map at generic address `map` into the cache
/// the tensormap proxy reads, ahead of the first TMA that uses it (a kernel-parameter map
/// before the main loop). A hint: it orders nothing. PTX 8.0, sm_90; PTX ISA §9.7.9.15
/// (`prefetch, prefetchu`), seed §5.2. Host: nothing.
///
/// # Safety
/// `map` must be the generic address of a tensor map in the `.param`, `.const` or `.global`
/// state space (the spaces `prefetch.tensormap` is defined on).
///
/// ```
/// use ptx_sync::{copy::TensorMap, instr::Instr, tensormap::{prefetch_tensormap, PrefetchTensormap}};
/// let map = TensorMap { opaque: [0; 16] };
/// unsafe { prefetch_tensormap(&map) }; // prefetch.tensormap [a];
/// assert_eq!(PrefetchTensormap::PTX, "prefetch.tensormap");
/// ```
#[inline(always)]
pub unsafe fn prefetch_tensormap(map: *const TensorMap) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { PrefetchTensormap::exec(map) }
}
