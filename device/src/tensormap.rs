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
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`tensormap_cp_fenceproxy::<Sco>`](tensormap_cp_fenceproxy) (`unsafe`) | `tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.scope.sync.aligned [d], [s], 128;` | 8.3 / sm_90 |
//! | [`prefetch_tensormap`] (`unsafe`) | `prefetch.tensormap [a];` | 8.0 / sm_90 |
//! | [`replace::tensormap_replace`] … (`unsafe`) | `tensormap.replace.tile.<field>.<ss>.b1024.<type> [a], …;` | 8.3 / sm_90a, sm_100a |
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
use crate::instr::instr;
use crate::sem::tok;
use crate::sem::{Cluster, Cta, Gpu, Scope, Sys};
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// `tensormap.cp_fenceproxy…release.scope.sync.aligned` at one scope.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `tensormap.cp_fenceproxy` at scope `{Self}`",
    note = "PTX ISA `tensormap.cp_fenceproxy`: `.scope = {{.cta, .cluster, .gpu, .sys}}`"
)]
pub unsafe trait CpFenceproxyInstr: Scope {
    /// `"tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.<scope>.sync.aligned"`.
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec(dst: u64, src: u32);
}

/// The table: one row per scope. Exported as `ptx_sync::cp_fenceproxy_rows!(leaf)`
/// (`leaf!(Scope)` per row), which the catalog kernels instantiate.
#[doc(hidden)]
#[macro_export]
macro_rules! cp_fenceproxy_rows {
    ($leaf:ident) => {
        $leaf!(Cta);
        $leaf!(Cluster);
        $leaf!(Gpu);
        $leaf!(Sys);
    };
}

macro_rules! cp_leaf {
    ($Sco:ident) => {
        cp_leaf! { @ (concat!("tensormap.cp_fenceproxy", tok!(Global), tok!(Shared), ".tensormap::generic",
                              tok!(Release), tok!($Sco), ".sync", tok!(Aligned))) $Sco }
    };
    (@ ($($mn:tt)*) $Sco:ident) => {
        unsafe impl CpFenceproxyInstr for $Sco {
            const PTX: &'static str = $($mn)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec(dst: u64, src: u32) {
                asm!(crate::instr::asm_text!(none; (tensormap_cp); $($mn)*), a64 = in(reg64) dst, ss = in(reg32) src,
                     options(nostack, preserves_flags));
            }
        }
    };
}
crate::cp_fenceproxy_rows! { cp_leaf }

instr! {
    /// The marker of `prefetch.tensormap [a];` (see [`prefetch_tensormap`]).
    PrefetchTensormap = ("prefetch.tensormap");
    fn exec(a: u64) => m {
        asm!(crate::instr::asm_text!(none; (addr64); m!()), a64 = in(reg64) a, options(nostack, preserves_flags, readonly));
    }
}

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
    #[cfg(target_arch = "nvptx64")]
    {
        Sco::exec(dst as u64, crate::shared::to_shared(src).raw())
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        core::ptr::copy_nonoverlapping(src, dst, 1);
        #[cfg(not(loom))]
        crate::backend::host::host_fence(core::sync::atomic::Ordering::Release);
        #[cfg(loom)]
        crate::model::fence(
            crate::model::FenceKind::Release,
            Sco::LEVEL,
            <Sco as CpFenceproxyInstr>::PTX,
        );
    }
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
    #[cfg(target_arch = "nvptx64")]
    {
        PrefetchTensormap::exec(map as u64)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = (map, <PrefetchTensormap as crate::instr::Instr>::PTX);
    }
}

#[allow(unused)]
fn _markers(_: (Cta, Cluster, Gpu, Sys)) {}

/// Catalog rows of this module (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    use crate::catalog::{Marker as M, Variant};
    use crate::instr::Instr;
    macro_rules! row {
        ($Sco:ident) => {
            f(crate::instr::with_ops!(none; (tensormap_cp); Variant {
                family: "tensormap.cp_fenceproxy",
                sem: M::Release,
                scope: M::$Sco,
                space: M::Global,
                form: crate::catalog::Form {
                    src: M::Shared,
                    align: M::Aligned,
                    ..crate::catalog::Form::NONE
                },
                ptx: <$Sco as CpFenceproxyInstr>::PTX,
                rust: concat!(
                    "tensormap::tensormap_cp_fenceproxy::<",
                    stringify!($Sco),
                    ">"
                ),
                sm: 90,
                ptx_isa: 83,
                isa: "9.7.13.16",
                seed: "5.3",
                ..Variant::EMPTY
            }));
        };
    }
    crate::cp_fenceproxy_rows! { row }
    f(crate::instr::with_ops!(none; (addr64); Variant {
        family: "prefetch.tensormap",
        ptx: PrefetchTensormap::PTX,
        rust: "tensormap::prefetch_tensormap",
        sm: 90,
        ptx_isa: 80,
        isa: "9.7.9.15",
        seed: "5.2",
        ..Variant::EMPTY
    }));
}
