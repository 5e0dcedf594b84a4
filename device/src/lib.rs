//! # ptx-sync — NVIDIA GPU synchronization, exact and checkable
//!
//! Typed PTX synchronization primitives whose semantic (`.sem`), scope (`.scope`) and state space
//! are **types**, so that the PTX each call emits is exactly what the PTX ISA (chapter 8, the
//! memory consistency model) prescribes — and illegal combinations do not compile.
//!
//! The crate follows the map of the seed article ("understanding GPU memory consistency from a
//! data hand-off"): [`sem`] (semantics, scopes, spaces) → [`atomic`] (`ld`/`st`/`atom`/`red`) →
//! [`fence`](mod@fence) (`fence.{sc,acq_rel,acquire,release}`) → barriers → mbarrier → async copies →
//! pipeline.
//!
//! ```
//! use ptx_sync::{AtomicRef, Data, Strong, fence, Gpu, Acquire, Release, Relaxed, Sc};
//!
//! // The seed's message passing (§3.4): data is ordinary, full is a strong flag.
//! let data = Data::new(0u32);
//! let full = Strong::new(0u32);
//! // producer
//! unsafe { data.write(42) };
//! full.at::<Gpu>().store::<Release>(1);          // st.release.gpu.u32
//! // consumer
//! // ld.acquire.gpu.u32, spun on with a budget (a wait that can never end reports Timeout)
//! ptx_sync::wait::spin_until(ptx_sync::wait::Budget::nanos(1_000_000), || {
//!     full.at::<Gpu>().load::<Acquire>() == 1
//! })
//! .expect("full was published");
//! assert_eq!(unsafe { data.read() }, 42);
//! fence::<Sc, Gpu>();                              // fence.sc.gpu
//! ```
//!
//! On `nvptx64` every call is inline PTX; on any other target it is the `core::sync::atomic`
//! operation with the same ordering (scope erased), and under `--cfg loom` loom's, so one protocol
//! source runs on the GPU, on CPU threads and under the model checker.
//!
//! | PTX | SM floor | PTX ISA version |
//! |---|---|---|
//! | `ld/st.{relaxed,acquire,release}.scope`, `atom/red.sem.scope`, `fence.{sc,acq_rel}` | sm_70 | 6.0 |
//! | weak and `.volatile` `ld/st` (generic, `.global`; the `.shared::cta` spelling 7.8) | sm_20 | 2.0 |
//! | `.cluster` scope, `.shared::cluster` | sm_90 | 7.8 |
//! | `fence.acquire.scope`, `fence.release.scope` | sm_90 | 8.6 |
//! | [`atomic::half`]: `atom/red.add.noftz.f16x2` (with `.sem`: sm_70, 6.0) | sm_60 | 6.2 |
//! | [`atomic::half`]: `atom/red.add.noftz.f16`, `atom.cas.b16` | sm_70 | 6.3 |
//! | `atom{.sem}{.scope}{.space}.cas.b16` on `u16`/`i16` (their `ld`/`st` `.u16`/`.s16`: as the 32-bit types) | sm_70 | 6.3 |
//! | [`atomic::half`]: `atom/red.add.noftz.bf16`, `.bf16x2` | sm_90 | 7.8 |
//! | [`atomic::b128`]: `ld/st{.sem.scope}{.space}.b128` | sm_70 | 8.3 |
//! | [`atomic::b128`]: `atom{.sem}{.scope}{.space}.{cas,exch}.b128` | sm_90 | 8.3 |
//! | [`atomic::vector`]: `ld/st{.sem.scope}{.space}.v2/.v4.type` (one access per element) | sm_70 | 6.0 |
//! | [`atomic::vector`]: `atom/red{.sem.scope}{.global}.add.v2/.v4.f32` | sm_90 | 8.1 |
//! | [`atomic::vector`]: `atom/red{.sem.scope}{.global}.{add,min,max}.noftz.v2/.v4/.v8.{f16,bf16}`, `.v2/.v4.{f16x2,bf16x2}` | sm_90 | 8.1 |
//! | [`barrier`]: `bar.sync/arrive/red` with register id and count (`barrier.sync/arrive`: sm_30, 6.0) | sm_20 | 2.0 |
//! | [`barrier`]: `barrier.cluster.arrive/wait`, [`cluster`]: `mapa`, `getctarank`, `%cluster_*` | sm_90 | 7.8 / 8.0 |
//! | [`mbarrier`]: `init/inval/arrive/arrive_drop/test_wait`, `arrive{,_drop}.noComplete`, `pending_count` | sm_80 | 7.0 (`::cta` 7.8, `.release`/`.acquire` 8.0) |
//! | [`mbarrier`]: `arrive` with a count, `arrive.expect_tx`, `expect_tx/complete_tx`, `try_wait`, `.cluster` scope | sm_90 | 7.8 / 8.0 |
//! | [`mbarrier`]: the `.relaxed` arrive and wait forms | sm_90 | 8.6 |
//! | [`proxy`]: `fence.proxy.async`, `fence.mbarrier_init`; `fence.proxy.tensormap::generic` | sm_90 | 8.0; 8.3 |
//! | [`proxy`]: `fence.proxy.alias` | sm_70 | 7.5 |
//! | [`sync_restrict`]: `fence{.proxy.async::generic}.{acquire,release}.sync_restrict::shared::{cluster,cta}.cluster` | sm_90 | 8.6 |
//! | [`tensormap`]: `tensormap.cp_fenceproxy…release.scope.sync.aligned`; `prefetch.tensormap` | sm_90 | 8.3; 8.0 |
//! | [`tensormap::replace`]: `tensormap.replace.tile.<field>{.global,.shared::cta,}.b1024.<type>` | **sm_90a**, sm_100a | 8.3 |
//! | [`tensormap::replace`]: `tensormap.replace.tile.swizzle_atomicity…` | **sm_100a** | 8.6 |
//! | [`copy::blackwell`]: `cp.async.bulk.shared::cta.global` (`.shared::cta` destination) | sm_90 | 8.6 |
//! | [`copy::blackwell`]: `.tile::gather4` into `.shared::cta`, `cp.async.bulk….cp_mask` | sm_100 | 8.6 |
//! | [`copy::blackwell`]: `.cta_group::{1,2}` tensor loads, `.tile::scatter4`, gather4 into `.shared::cluster` | **sm_100a** | 8.6 |
//! | [`clc`]: `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128`, `query_cancel.{is_canceled,get_first_ctaid::{x,y,z},get_first_ctaid.v4}` | sm_100 | 8.6 |
//! | [`clc`]: `try_cancel….multicast::cluster::all` | **sm_100a** | 8.6 |
//! | [`policy`]: `createpolicy.fractional.L2::*.b64` | sm_80 | 7.4 |
//! | [`copy`]: `.L2::cache_hint` forms of `cp.async.bulk{,.tensor}` (G→S, S→G, prefetch) and `cp.reduce.async.bulk` | sm_90 | 8.0 |
//! | [`copy`]: `cp.async` (LDGSTS); its `.L2::cache_hint` forms 7.4 | sm_80 | 7.0 |
//! | [`copy`]: `cp.async.bulk{,.tensor}` (TMA); `.multicast::cluster` (sm_90a advised, sm_100a/f assemble) | sm_90 | 8.0 |
//! | [`copy`]: `.im2col` tensor loads (`{.multicast::cluster}`, `{.L2::cache_hint}`) and prefetches, 3d–5d | sm_90 | 8.0 |
//! | [`copy`]: `cp.reduce.async.bulk` — the ISA's `.redOp.type` table into `.global` (`.bulk_group`) and `.shared::cluster` (mbarrier); `cp.reduce.async.bulk.tensor` (`.tile` 1d–5d, `.im2col_no_offs` 3d–5d) | sm_90 | 8.0 |
//! | [`membar`](mod@membar): `membar.{cta,gl,sys}` (= `fence.sc` from sm_70) | sm_20 | 1.4 (`.sys` 2.0) |
//! | [`wait`]: `nanosleep.u32` (the backoff of [`wait::Budget::with_backoff`]) | sm_70 | 6.3 |
//! | [`grid`]: `griddepcontrol.wait`, `griddepcontrol.launch_dependents` (programmatic dependent launch) | sm_90 | 7.8 |
//! | [`st_async`]: `st.async.weak.shared::cluster.mbarrier::complete_tx::bytes{.v2,.v4}.type`, `red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.op.type` | sm_90 | 8.1 |
//! | [`st_async::release`]: `st.async{.mmio}.release.{gpu,sys}.global.type`, `red.async{.mmio}.release.{gpu,sys}.global.add.type` | sm_100 | 8.7 |
//! | [`pipeline`]: `Pipeline<STAGES>` over full/empty mbarrier rings (seed §5) | sm_90 | 8.0 |
//!
//! Build device code with `-C target-cpu=sm_90 -C target-feature=+ptx86` — `ptx-sync build` or
//! `ptx_sync_build::KernelCrate` pass these flags (see `docs/guide.md`); a build for an older SM
//! or PTX version stops with a `compile_error!` that names the fix.
//!
//! **Architecture-specific rows** (an SM in bold above, the ISA's "requires `sm_90a`" /
//! `sm_100a`) exist on nvptx64 only in a build for that target (`-C target-cpu=sm_90a`,
//! `KernelCrate::new(..).arch("sm_90a")`): they are gated with `#[cfg(any(doc, not(target_arch
//! = "nvptx64"), target_feature = "sm_90a", …))]`, so a portable sm_90 build cannot call them,
//! and the host and loom backends always have them. Each catalog row names its target
//! ([`catalog::Variant::arch`], [`catalog::Arch`]); see [`instr`]'s module docs.
//!
//! # Writing a kernel
//!
//! `use ptx_sync::prelude::*;` brings the types, the [`fence`](fn@fence), the barriers and the
//! [`index`] helpers (`thread_idx()`, `block_idx()`, `lane_id()` …) a kernel needs. Cargo
//! features:
//!
//! | feature | what it does |
//! |---|---|
//! | `panic-handler` | defines the kernel crate's `#[panic_handler]` on nvptx64: `trap;` (PTX ISA §9.7.19.8, all SMs). A panic (an index out of bounds, a failed `assert!`) aborts the kernel, and the launch returns `CUDA_ERROR_LAUNCH_FAILED`. Leave it off when the kernel crate defines its own handler. |
//! | `dynamic-smem` | declares the dynamic shared-memory window (`.extern .shared`) in the module and enables [`shared::dynamic_smem`] on the device; without it, [`dynamic_smem!`] declares the window only where it is used |
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(asm_experimental_arch))]
#![warn(missing_docs)]
// The tables spell legality as bounds next to each marker parameter (`S: LdSem`) and the
// family's own bounds in `where` clauses: one place per rule, which this lint counts as two.
#![allow(clippy::multiple_bound_locations)]

// The host backend's simulated launches (`index::launch`) use std threads and thread-locals.
#[cfg(not(target_arch = "nvptx64"))]
extern crate std;

// `access_rows!`, the row list of the access tables (`device/isa/{ld,st,atom,red,fence}.rows`),
// generated by `device/build.rs`, for the catalog kernels of `host/kernels` (a generated
// `#[macro_export]` macro has no `crate::` path in its own crate: a use here would be by name).
include!(concat!(env!("OUT_DIR"), "/isa/access.rs"));

#[doc(hidden)]
pub mod backend;

pub mod atomic;
pub mod barrier;
pub mod catalog;
pub mod clc;
pub mod cluster;
pub mod copy;
pub mod fence;
pub mod grid;
pub mod index;
pub mod instr;
pub mod kernel;
pub mod mbarrier;
pub mod membar;
#[cfg(loom)]
pub use backend::model;
// Plain `cargo doc` (host): the model's summary page; the module needs `--cfg loom`.
#[cfg(all(doc, not(loom), not(target_arch = "nvptx64")))]
#[path = "model_doc.rs"]
pub mod model;
pub mod pipeline;
pub mod policy;
pub mod prelude;
pub mod proxy;
pub mod sem;
pub mod shared;
pub mod st_async;
pub mod sync_restrict;
pub mod tensormap;
pub mod wait;

pub use atomic::{AtomicRef, Bf16, Bf16x2, Data, F16x2, Negate, Scalar, Strong, F16};
pub use fence::fence;
pub use mbarrier::{Mbarrier, NoCompleteToken, Phase, RemoteMbarrier, Token};
pub use pipeline::{Pipeline, PipelineState};
pub use sem::{
    AcqRel, Acquire, Cluster, Cta, Generic, Global, Gpu, Relaxed, Release, Sc, Shared,
    SharedCluster, Sys, Volatile, Weak,
};

// The crate's floor (the table above): sm_90 and PTX ISA 8.6. Without it every call would build
// and ptxas would reject the module later (or LLVM pick an old `.version`).
#[cfg(all(
    target_arch = "nvptx64",
    not(all(target_feature = "sm_90", target_feature = "ptx86"))
))]
compile_error!(
    "ptx-sync needs sm_90 and PTX ISA 8.6 or newer: build with `-C target-cpu=sm_90 -C target-feature=+ptx86` \
     (`ptx-sync build --arch sm_90`, or `ptx_sync_build::KernelCrate::new(..).arch(\"sm_90\")`)"
);

/// The kernel crate's panic handler (cargo feature `panic-handler`): `trap;` — the kernel aborts
/// and its launch fails with `CUDA_ERROR_LAUNCH_FAILED` (PTX ISA §9.7.19.8, all SMs).
#[cfg(all(target_arch = "nvptx64", feature = "panic-handler"))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    unsafe { core::arch::asm!("trap;", options(noreturn)) }
}
