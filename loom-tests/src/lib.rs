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
//! `AtomicRef`, `fence`, `Mbarrier`, `NamedBarrier`, `ClusterBarrier`, `Pipeline`, the copy
//! functions of `ptx_sync::copy`); under `--cfg loom` that API is loom's atomics and cells plus
//! the scope check of [`ptx_sync::model`] (`ptx_sync::model` exists only under `--cfg loom`), and
//! the copies run on the library's copy engine (`ptx_sync::model::Tile` is the shared memory
//! whose generic and async-proxy accesses it checks, seed §5.3). This crate adds:
//!
//! * [`check`]: `ptx_sync::model::check` with an explicit preemption bound (each test states its
//!   bound; abandoned executions are counted and reported, all abandoned fails);
//! * [`spin_until`]: `ptx_sync::model::spin_until`, a spin with `yield_now`, so that a wait that
//!   can never end is reported (`"deadlock: ..."`) instead of hanging;
//! * [`assert_caught`], [`assert_caught_all`]: a bug variant must panic with the expected report.
#![cfg_attr(not(loom), allow(unused))]

#[cfg(loom)]
mod analogues;
#[cfg(loom)]
pub use analogues::*;
#[cfg(loom)]
pub mod programs;
