//! Loom models of the seed programs (see `tests/`), and the CPU analogues they need.
//!
//! Run the suite with
//!
//! ```text
//! RUSTFLAGS="--cfg loom" cargo test -p ptx-sync-loom-tests --release --target-dir target/loom
//! ```
//!
//! The seed's §2–§4 programs are not written here: [`programs`] runs the roles of
//! `ptx_sync_programs` (the source the GPU kernels and the CPU runs share) on loom threads, and
//! `tests/registry.rs` checks every program of its registry against its stated verdict.
//!
//! Every protocol in `tests/` is written against `ptx-sync`'s ordinary API (`Strong`, `Data`,
//! `AtomicRef`, `fence`, `Mbarrier`, `NamedBarrier`, `ClusterBarrier`, `Pipeline`); under `--cfg loom` that API is loom's atomics and cells plus the scope
//! check of [`ptx_sync::model`] (`ptx_sync::model` exists only under `--cfg loom`). This crate adds
//! what the seed's §5 needs and the device crate does not model on the CPU:
//!
//! * [`check`]: `ptx_sync::model::check` with an explicit preemption bound (each test states its
//!   bound; abandoned executions are counted and reported, all abandoned fails);
//! * [`spin_until`]: `ptx_sync::model::spin_until`, a spin with `yield_now`, so that a wait that
//!   can never end is reported (`"deadlock: ..."`) instead of hanging;
//! * [`CopyEngine`]: a separate loom thread that performs asynchronous copies (cp.async, TMA), so
//!   that reading the destination before completion is a race, not silently fine;
//! * [`ProxyTile`]: ordinary data shared by the generic proxy (threads) and the async proxy (the
//!   copy engine), which reports an async-proxy write that follows a generic access without a
//!   `fence.proxy.async` (seed §5.3).
#![cfg_attr(not(loom), allow(unused))]

#[cfg(loom)]
mod analogues;
#[cfg(loom)]
pub use analogues::*;
#[cfg(loom)]
pub mod programs;
