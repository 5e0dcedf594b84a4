//! Proxy fences: `fence.proxy.async`, `fence.proxy.tensormap::generic`, `fence.mbarrier_init`.
//!
//! PTX ISA §9.7.13.4 (`membar`/`fence`: `.proxy` forms), §8.6 (proxies), §8.9.5.2
//! (proxy-preserved causality). Seed §5.3: generic accesses (`ld`/`st`) and async-proxy
//! accesses (`cp.async.bulk`, TMA) to the same shared memory are ordered only within one proxy;
//! a generic access followed (through synchronization) by an async-proxy access needs
//! `fence.proxy.async` in the generic thread before it releases. The opposite direction needs
//! nothing: TMA completion on an mbarrier includes the async→generic fence. Seed §5.4:
//! `fence.mbarrier_init.release.cluster` publishes `mbarrier.init` to the cluster.
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`fence_proxy_async::<Generic>`](fence_proxy_async) | `fence.proxy.async;` | 8.0 / sm_90 |
//! | [`fence_proxy_async::<Global>`](fence_proxy_async) | `fence.proxy.async.global;` | 8.0 / sm_90 |
//! | [`fence_proxy_async::<Shared>`](fence_proxy_async) | `fence.proxy.async.shared::cta;` | 8.0 / sm_90 |
//! | [`fence_proxy_async::<SharedCluster>`](fence_proxy_async) | `fence.proxy.async.shared::cluster;` | 8.0 / sm_90 |
//! | [`fence_proxy_tensormap_release`] | `fence.proxy.tensormap::generic.release.scope;` | 8.3 / sm_90 |
//! | [`fence_proxy_tensormap_acquire`] (`unsafe`: `a` must be in `.global`) | `fence.proxy.tensormap::generic.acquire.scope [a], 128;` | 8.3 / sm_90 |
//! | [`fence_mbarrier_init`] | `fence.mbarrier_init.release.cluster;` | 8.0 / sm_90 |
//! | [`fence_proxy_alias`] | `fence.proxy.alias;` | 7.5 / sm_70 |
//!
//! Host: there is one proxy, so `fence.proxy.async` is a compiler fence; the tensormap fences
//! are `fence(Release)` / `fence(Acquire)` and `fence.mbarrier_init` is `fence(Release)`.
//!
//! ```
//! use ptx_sync::proxy::*;
//! use ptx_sync::{Shared, Generic};
//! fence_proxy_async::<Shared>();   // fence.proxy.async.shared::cta;
//! assert_eq!(<Generic as ProxyAsyncInstr>::PTX, "fence.proxy.async");
//! ```

use crate::instr::instr;
#[allow(unused_imports)]
use crate::instr::{asm_text, with_ops};
use crate::sem::tok;
// Markers named only inside macro expansions on some cfgs.
#[allow(unused_imports)]
use crate::sem::{Cluster, Cta, Generic, Global, Gpu, Scope, Shared, SharedCluster, Space, Sys};
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;

/// `fence.proxy.async{.space}` for one state space.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `fence.proxy.async` for space `{Self}`",
    note = "PTX ISA §9.7.13.4: `.space = {{.global, .shared::cta, .shared::cluster}}` or none"
)]
pub unsafe trait ProxyAsyncInstr: Space {
    /// e.g. `"fence.proxy.async.shared::cta"`.
    const PTX: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec();
}

/// `fence.proxy.tensormap::generic.{release,acquire}.scope` for one scope.
///
/// # Safety
/// Implemented only by this crate's table.
pub unsafe trait TensormapFenceInstr: Scope {
    /// `"fence.proxy.tensormap::generic.release.<scope>"`.
    const PTX_RELEASE: &'static str;
    /// `"fence.proxy.tensormap::generic.acquire.<scope>"`.
    const PTX_ACQUIRE: &'static str;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn release();
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn acquire(a: u64);
}

macro_rules! for_proxy_async {
    ($leaf:ident) => {
        $leaf! { Generic }
        $leaf! { Global }
        $leaf! { Shared }
        $leaf! { SharedCluster }
    };
}
#[allow(unused_imports)]
pub(crate) use for_proxy_async;

macro_rules! for_tensormap_fence {
    ($leaf:ident) => {
        $leaf! { Cta }
        $leaf! { Cluster }
        $leaf! { Gpu }
        $leaf! { Sys }
    };
}
#[allow(unused_imports)]
pub(crate) use for_tensormap_fence;

macro_rules! proxy_async_leaf {
    ($Sp:ident) => { proxy_async_leaf! { @ (concat!("fence.proxy.async", tok!($Sp))) $Sp } };
    (@ ($($mn:tt)*) $Sp:ident) => {
        unsafe impl ProxyAsyncInstr for $Sp {
            const PTX: &'static str = $($mn)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec() { asm!(asm_text!(none; (none); $($mn)*), options(nostack, preserves_flags)); }
        }
    };
}
for_proxy_async! { proxy_async_leaf }

macro_rules! tensormap_leaf {
    ($Sco:ident) => {
        tensormap_leaf! { @ (concat!("fence.proxy.tensormap::generic", tok!(Release), tok!($Sco)))
                            (concat!("fence.proxy.tensormap::generic", tok!(Acquire), tok!($Sco))) $Sco }
    };
    (@ ($($r:tt)*) ($($a:tt)*) $Sco:ident) => {
        unsafe impl TensormapFenceInstr for $Sco {
            const PTX_RELEASE: &'static str = $($r)*;
            const PTX_ACQUIRE: &'static str = $($a)*;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn release() { asm!(asm_text!(none; (none); $($r)*), options(nostack, preserves_flags)); }
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn acquire(a: u64) {
                asm!(asm_text!(none; (addr128); $($a)*), a64 = in(reg64) a, options(nostack, preserves_flags));
            }
        }
    };
}
for_tensormap_fence! { tensormap_leaf }

/// The table of fences without type parameters. One row per instruction:
///
/// ```text
/// /// doc
/// rust_fn: Marker = "mnemonic head" Sem Scope, host H, sm N, ptx X.Y, isa "§", seed "§";
/// ```
///
/// The mnemonic is the head followed by the tokens of `Sem` and `Scope` (each may be `None`).
/// `host` is what the host and loom backends do: `Release`/`Acquire`/`AcqRel` — a fence of that
/// ordering (under loom, of `ptx_sync::model` at the row's scope); `None` — a compiler fence (the
/// host has one proxy and no virtual aliases). From each row: the marker `Marker: Instr`, the
/// `pub fn rust_fn()` whose `asm!` pastes the mnemonic, the catalog row (operands, call path,
/// floors, sections) and an entry of the exported list `ptx_sync::plain_fence_rows!(leaf)`
/// (`leaf!(rust_fn)` per row), which the catalog kernels instantiate.
macro_rules! plain_fences {
    (($d:tt) $( $(#[$m:meta])* $f:ident: $Name:ident = $head:literal $S:ident $Sco:ident,
       host $H:ident, sm $sm:literal, ptx $ptx:literal, isa $isa:literal, seed $seed:literal; )*) => {
        $(
            instr! {
                #[doc = concat!("The marker of `", $head, opt_tok!($S), opt_tok!($Sco), ";` (see [`", stringify!($f), "`]).")]
                $Name = ($head, opt_tok!($S), opt_tok!($Sco));
                fn exec() => m {
                    asm!(asm_text!(none; (none); m!()), options(nostack, preserves_flags));
                }
            }
            $(#[$m])*
            ///
            #[doc = concat!("Emits `", $head, opt_tok!($S), opt_tok!($Sco), ";` — sm_", $sm, ", PTX ",
                            stringify!($ptx), "; PTX ISA §", $isa, ", seed §", $seed, ".")]
            #[doc = concat!("Host: ", host_doc!($H), ".")]
            ///
            /// ```
            #[doc = concat!("ptx_sync::proxy::", stringify!($f), "();")]
            #[doc = concat!("assert_eq!(<ptx_sync::proxy::", stringify!($Name),
                            " as ptx_sync::instr::Instr>::PTX, \"", $head, opt_tok!($S), opt_tok!($Sco), "\");")]
            /// ```
            #[inline(always)]
            pub fn $f() {
                crate::instr::exec_or!($Name, host_fence!($H $Sco <$Name as crate::instr::Instr>::PTX))
            }
        )*

        /// The catalog rows of the plain fences.
        #[cfg(not(target_arch = "nvptx64"))]
        const PLAIN_FENCE_ROWS: &[crate::catalog::Variant] = &[$(
            crate::instr::plain_row!($head, <$Name as crate::instr::Instr>::PTX,
                concat!("proxy::", stringify!($f), "()");
                sm $sm, ptx $ptx, isa $isa, seed $seed,
                sem: crate::catalog::Marker::$S, scope: crate::catalog::Marker::$Sco)
        ),*];

        /// The row list of the plain fences: `plain_fence_rows!(leaf)` calls `leaf!(rust_fn)` per
        /// row (`leaf!(fence_mbarrier_init)`), so that code outside the table instantiates each.
        #[doc(hidden)]
        #[macro_export]
        macro_rules! plain_fence_rows {
            ($d leaf:ident) => { $( $d leaf!($f); )* };
        }
    };
}

/// A marker's token, `""` for `None`.
macro_rules! opt_tok {
    (None) => {
        ""
    };
    ($m:ident) => {
        tok!($m)
    };
}

macro_rules! host_doc {
    (None) => {
        "a compiler fence (one proxy, no virtual aliases on the CPU)"
    };
    ($H:ident) => {
        concat!(
            "`fence(",
            stringify!($H),
            ")`; under `--cfg loom` a ",
            stringify!($H),
            " fence of `ptx_sync::model` at the row's scope"
        )
    };
}

#[cfg(not(target_arch = "nvptx64"))]
macro_rules! host_fence {
    (None $Sco:ident $ptx:expr) => {{
        let _ = $ptx;
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }};
    ($H:ident $Sco:ident $ptx:expr) => {{
        #[cfg(not(loom))]
        crate::backend::host::host_fence(core::sync::atomic::Ordering::$H);
        #[cfg(loom)]
        crate::model::fence(crate::model::FenceKind::$H, <$Sco as Scope>::LEVEL, $ptx);
    }};
}

plain_fences! { ($)
    /// Releases this thread's prior `mbarrier.init`s to the cluster: seed §5.4's init
    /// publication — `init` by one thread, this fence, then every thread
    /// `barrier.cluster.arrive.relaxed` + `barrier.cluster.wait`. Under `--cfg loom`: a release
    /// fence at `.cluster` scope of `ptx_sync::model` (it orders the thread's earlier
    /// `mbarrier.init`s for the cluster's threads that acquire after it).
    fence_mbarrier_init: FenceMbarrierInit = "fence.mbarrier_init" Release Cluster,
        host Release, sm 90, ptx 8.0, isa "9.7.13.4", seed "5.4";
    /// Orders this thread's memory accesses made through different virtual addresses that map
    /// the same physical memory (virtual aliases, PTX ISA §8.6: accesses through aliases are not
    /// ordered by the memory model's generic-proxy rules without this fence).
    fence_proxy_alias: FenceProxyAlias = "fence.proxy.alias" None None,
        host None, sm 70, ptx 7.5, isa "9.7.13.4", seed "5.3";
}

/// `fence.proxy.async{.space};` — orders this thread's generic-proxy accesses to `Sp` before its
/// later async-proxy accesses (and the async accesses its later releases enable, seed §5.3).
/// `Sp` ∈ {[`Generic`] (no space token: all spaces), [`Global`], [`Shared`], [`SharedCluster`]}.
///
/// No semantic or scope parameter (the fence is a proxy fence of this thread); a space outside
/// the four does not compile (e.g. `Sys`, a scope). Host: a compiler fence (the host has one
/// proxy); under `--cfg loom` it also marks the thread's earlier generic accesses of
/// `ptx_sync::model::Tile`s as ordered before its later async-proxy accesses (the model's proxy
/// check, `copy/engine.rs`). SASS (ptxas 13.0.88, sm_90a, `host/tests/sass_async.rs`): `FENCE.VIEW.ASYNC.S`.
/// PTX 8.0 / sm_90. PTX ISA §9.7.13.4 (`fence.proxy.async`), §8.6 (proxies); seed §5.3.
///
/// # Examples
///
/// A consumer's release of a stage that TMA writes next (seed §5.3):
///
/// ```
/// use ptx_sync::{proxy::{fence_proxy_async, ProxyAsyncInstr}, Mbarrier, Data, Release, Cta, Shared, Generic};
/// let (empty, stage) = (Mbarrier::<()>::new(), Data::new([1u32; 4]));
/// empty.init(1);
/// let _sum: u32 = unsafe { stage.read() }.iter().sum(); // generic-proxy reads
/// fence_proxy_async::<Shared>();                       // fence.proxy.async.shared::cta
/// let _ = empty.arrive::<Release, Cta>();              // then the producer may issue TMA into it
/// assert_eq!(<Shared as ProxyAsyncInstr>::PTX, "fence.proxy.async.shared::cta");
/// assert_eq!(<Generic as ProxyAsyncInstr>::PTX, "fence.proxy.async");
/// ```
///
/// ```compile_fail
/// ptx_sync::proxy::fence_proxy_async::<ptx_sync::Gpu>(); // a scope is not a state space
/// ```
#[inline(always)]
pub fn fence_proxy_async<Sp: ProxyAsyncInstr>() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        Sp::exec()
    }
    #[cfg(not(target_arch = "nvptx64"))]
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    #[cfg(loom)]
    crate::backend::copy_engine::fence_proxy_async();
}

/// `fence.proxy.tensormap::generic.release.scope;` — after writing a tensor map with generic
/// stores, before publishing it to TMA users at scope `Sco` (PTX 8.3, sm_90).
///
/// `Sco` ∈ {`Cta`, `Cluster`, `Gpu`, `Sys`}; a semantic is not a parameter (this half is always
/// `.release`; the acquire half is [`fence_proxy_tensormap_acquire`]). SASS: not recorded in
/// the repo. PTX ISA §9.7.13.4; seed §5.3 (generic writes seen by the async proxy).
///
/// # Examples
///
/// ```
/// use ptx_sync::{proxy::{fence_proxy_tensormap_release, TensormapFenceInstr}, Strong, Gpu, Relaxed};
/// let published = Strong::new(0u32);
/// // ... the tensor map was rewritten with generic stores ...
/// fence_proxy_tensormap_release::<Gpu>();       // fence.proxy.tensormap::generic.release.gpu
/// published.at::<Gpu>().store::<Relaxed>(1);
/// assert_eq!(<Gpu as TensormapFenceInstr>::PTX_RELEASE, "fence.proxy.tensormap::generic.release.gpu");
/// ```
///
/// ```compile_fail
/// ptx_sync::proxy::fence_proxy_tensormap_release::<ptx_sync::Global>(); // a space is not a scope
/// ```
#[inline(always)]
pub fn fence_proxy_tensormap_release<Sco: TensormapFenceInstr>() {
    #[cfg(target_arch = "nvptx64")]
    unsafe {
        Sco::release()
    }
    #[cfg(all(not(target_arch = "nvptx64"), not(loom)))]
    crate::backend::host::host_fence(core::sync::atomic::Ordering::Release);
    #[cfg(loom)]
    crate::model::fence(
        crate::model::FenceKind::Release,
        Sco::LEVEL,
        Sco::PTX_RELEASE,
    );
}

/// `fence.proxy.tensormap::generic.acquire.scope [map], 128;` — before the first TMA use of a
/// tensor map another thread modified with generic stores (PTX 8.3, sm_90; PTX ISA §9.7.13.4).
///
/// # Safety
/// `map` must be the generic address of a 128-byte tensor map in the **`.global`** state space
/// (a device allocation): the ISA defines the acquire form only on a `.global` address — a map
/// in `.param` (a kernel parameter) or `.const`, or any other address, is undefined behaviour.
/// A map passed as a kernel parameter needs no such fence (it is not modified by the kernel).
///
/// `Sco` ∈ {`Cta`, `Cluster`, `Gpu`, `Sys`}. PTX: `fence.proxy.tensormap::generic.acquire.scope
/// [map], 128;`. SASS: not recorded in the repo. Seed §5.3.
///
/// # Examples
///
/// ```
/// use ptx_sync::{proxy::{fence_proxy_tensormap_acquire, TensormapFenceInstr}, copy::TensorMap, Gpu};
/// let map = TensorMap { opaque: [0; 16] }; // on the device: a map in global memory
/// unsafe { fence_proxy_tensormap_acquire::<Gpu>(&map) };
/// assert_eq!(<Gpu as TensormapFenceInstr>::PTX_ACQUIRE, "fence.proxy.tensormap::generic.acquire.gpu");
/// ```
#[inline(always)]
pub unsafe fn fence_proxy_tensormap_acquire<Sco: TensormapFenceInstr>(
    map: *const crate::copy::TensorMap,
) {
    #[cfg(target_arch = "nvptx64")]
    {
        Sco::acquire(map as u64)
    }
    #[cfg(not(target_arch = "nvptx64"))]
    {
        let _ = map;
        #[cfg(not(loom))]
        crate::backend::host::host_fence(core::sync::atomic::Ordering::Acquire);
        #[cfg(loom)]
        crate::model::fence(
            crate::model::FenceKind::Acquire,
            Sco::LEVEL,
            Sco::PTX_ACQUIRE,
        );
    }
}

/// Catalog rows of this module (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    #[allow(unused_imports)]
    use crate::catalog::{Completion, Form, Marker as M, Variant};
    let v = Variant::EMPTY;
    macro_rules! pa_v {
        ($Sp:ident) => {
            f(with_ops!(none; (none); Variant {
                family: "fence.proxy.async",
                sm: 90,
                ptx_isa: 80,
                isa: "9.7.13.4",
                seed: "5.3",
                space: M::$Sp,
                ptx: <$Sp as ProxyAsyncInstr>::PTX,
                rust: concat!("fence_proxy_async::<", stringify!($Sp), ">()"),
                ..v
            }));
        };
    }
    for_proxy_async! { pa_v }
    macro_rules! tm_v {
        ($Sco:ident) => {
            f(with_ops!(none; (none); Variant {
                family: "fence.proxy.tensormap::generic",
                sm: 90,
                ptx_isa: 83,
                isa: "9.7.13.4",
                seed: "5.2",
                sem: M::Release,
                scope: M::$Sco,
                ptx: <$Sco as TensormapFenceInstr>::PTX_RELEASE,
                rust: concat!("fence_proxy_tensormap_release::<", stringify!($Sco), ">()"),
                ..v
            }));
            f(with_ops!(none; (addr128); Variant {
                family: "fence.proxy.tensormap::generic",
                sm: 90,
                ptx_isa: 83,
                isa: "9.7.13.4",
                seed: "5.2",
                sem: M::Acquire,
                scope: M::$Sco,
                form: Form {
                    addr128: true,
                    ..Form::NONE
                },
                ptx: <$Sco as TensormapFenceInstr>::PTX_ACQUIRE,
                rust: concat!("fence_proxy_tensormap_acquire::<", stringify!($Sco), ">"),
                ..v
            }));
        };
    }
    for_tensormap_fence! { tm_v }
    for r in PLAIN_FENCE_ROWS {
        f(*r);
    }
}
