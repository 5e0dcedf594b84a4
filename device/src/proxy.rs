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
//! <!-- generated from device/isa/proxy.rows by device/isa/gen: do not edit (cargo xtask isa) -->
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`fence_proxy_async`] | `fence.proxy.async{.global,.shared::cta,.shared::cluster};` | 8.0 / sm_90 |
//! | [`fence_proxy_tensormap_release`] | `fence.proxy.tensormap::generic.release.{cta,cluster,gpu,sys};` | 8.3 / sm_90 |
//! | [`fence_proxy_tensormap_acquire`] | `fence.proxy.tensormap::generic.acquire.{cta,cluster,gpu,sys} [a64], 128;` | 8.3 / sm_90 |
//! | [`proxy::fence_mbarrier_init()`](crate::proxy::fence_mbarrier_init) | `fence.mbarrier_init.release.cluster;` | 8.0 / sm_90 |
//! | [`proxy::fence_proxy_alias()`](crate::proxy::fence_proxy_alias) | `fence.proxy.alias;` | 7.5 / sm_70 |
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

use crate::copy::TensorMap;
use crate::sem::{Cluster, Scope, Space};

// The rows of `device/isa/proxy.rows`: the traits `ProxyAsyncInstr` and `TensormapFenceInstr`
// with one impl per space / scope, the markers `FenceMbarrierInit` and `FenceProxyAlias`, their
// leaves and catalog rows.
include!(concat!(env!("OUT_DIR"), "/isa/proxy.rs"));

/// Releases this thread's prior `mbarrier.init`s to the cluster: seed §5.4's init publication —
/// `init` by one thread, this fence, then every thread `barrier.cluster.arrive.relaxed` +
/// `barrier.cluster.wait`.
///
/// Emits `fence.mbarrier_init.release.cluster;` — sm_90, PTX 8.0; PTX ISA §9.7.13.4, seed §5.4.
/// Host: `fence(Release)`; under `--cfg loom` a release fence of `ptx_sync::model` at `.cluster`
/// scope (it orders the thread's earlier `mbarrier.init`s for the cluster's threads that acquire
/// after it).
///
/// ```
/// ptx_sync::proxy::fence_mbarrier_init();
/// assert_eq!(<ptx_sync::proxy::FenceMbarrierInit as ptx_sync::instr::Instr>::PTX,
///            "fence.mbarrier_init.release.cluster");
/// ```
#[inline(always)]
pub fn fence_mbarrier_init() {
    // SAFETY: no operand; the fence has no precondition.
    unsafe { FenceMbarrierInit::exec() }
}

/// Orders this thread's memory accesses made through different virtual addresses that map the
/// same physical memory (virtual aliases, PTX ISA §8.6: accesses through aliases are not ordered
/// by the memory model's generic-proxy rules without this fence).
///
/// Emits `fence.proxy.alias;` — sm_70, PTX 7.5; PTX ISA §9.7.13.4, seed §5.3. Host: a compiler
/// fence (one proxy, no virtual aliases on the CPU).
///
/// ```
/// ptx_sync::proxy::fence_proxy_alias();
/// assert_eq!(<ptx_sync::proxy::FenceProxyAlias as ptx_sync::instr::Instr>::PTX, "fence.proxy.alias");
/// ```
#[inline(always)]
pub fn fence_proxy_alias() {
    // SAFETY: no operand; the fence has no precondition.
    unsafe { FenceProxyAlias::exec() }
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
    // SAFETY: no operand; the fence has no precondition.
    unsafe { Sp::exec() }
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
    // SAFETY: no operand; the fence has no precondition.
    unsafe { Sco::release() }
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
pub unsafe fn fence_proxy_tensormap_acquire<Sco: TensormapFenceInstr>(map: *const TensorMap) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe { Sco::acquire(map as u64) }
}
