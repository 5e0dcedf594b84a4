//! The seed's programs (§2–§4: message passing, store buffering, counters, the P/C1/C2
//! hand-off in its §2.5, §3.4, §4.3 and §4.4 versions), each written **once** as generic Rust over
//! the `ptx-sync` API and instantiated three ways:
//!
//! * **GPU**: `host/kernels/src/litmus.rs` expands [`for_each_litmus!`] into one
//!   `#[no_mangle] extern "ptx-kernel"` wrapper per program (`litmus_<name>`), whose [`Env`] is
//!   the stress harness (bounded `%globaltimer` waits that record a timeout bit, L1 warm-up,
//!   `nanosleep` delays) and whose [`Mem`] is the instance's words of global memory;
//! * **CPU**: `host/src/bin/ptx-sync/exec/cpu.rs` runs every program's roles on `std` threads (host backend:
//!   scope erased, the C++ ordering of the same name), batched with a spin rendezvous;
//! * **loom**: `loom-tests/tests/registry.rs` model-checks every program under `--cfg loom`, each
//!   role a loom thread in its own CTA (as the GPU runner places them), and compares the outcome
//!   with [`Litmus::LOOM`]; the hand-written loom tests call the same role functions with their
//!   own placements and variants.
//!
//! DeepEP's barrier (seed 004) is written once too ([`deepep::rank`] over a [`deepep::Fifo`] and
//! an [`Env`]): the kernel `deepep_barrier` runs it per lane, the CPU run and the loom model per
//! rank; its registry entries are [`deepep::PROGRAMS`] (not [`for_each_litmus!`]: its instances
//! and output words have their own layout).
//!
//! A program is a zero-sized type implementing [`Litmus`] (its roles, its metadata, its expected
//! verdicts); [`for_each_litmus!`] is the registry. Adding a program is one variant in its
//! family's file and one line in the registry (CONTRIBUTING.md, "Adding a program").
//!
//! ```
//! use ptx_sync_programs::{cells::Cells, Litmus, mp};
//! // Run both roles of §3.3's message passing one after the other on this thread.
//! let m = Cells::new();
//! let e = ptx_sync_programs::cells::Sequential::default();
//! mp::MpRelAcq::role(0, &e, &m); // P: data = 42; st.release.gpu full = 1
//! mp::MpRelAcq::role(1, &e, &m); // C: ld.acquire.gpu full until 1; read data
//! assert_eq!(m.word(0), 42);
//! ```
#![no_std]

pub mod cells;
pub mod count;
pub mod deepep;
pub mod env;
pub mod handoff;
pub mod mp;
pub mod ops;
pub mod registry;
pub mod sb;
pub mod section5;

pub use env::{Env, Mem};
pub use registry::{Litmus, Shape, Verdict, FORBIDDEN};
