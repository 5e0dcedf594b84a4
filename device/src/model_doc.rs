//! Model checking under `--cfg loom`: thread placement, scope-aware race detection, scoped
//! fences, proxies. **This page is the summary that plain `cargo doc` shows; the module itself
//! exists only in a build with `RUSTFLAGS="--cfg loom"`** (it is built on loom's atomics and
//! threads), where its full reference is:
//!
//! ```text
//! RUSTFLAGS="--cfg loom" RUSTDOCFLAGS="--cfg loom" cargo doc -p ptx-sync --no-deps --target-dir target/loom --open
//! ```
//!
//! PTX ISA §8.5 (scopes), §8.7 (morally strong operations, data races), §8.8 (release and
//! acquire patterns), §8.9.3 (Fence-SC order), §8.9.4 (memory synchronization); seed §3.5, §3.6,
//! §4.2, §5.3 (proxies), §5.4 (a `.cta` remote arrive).
//!
//! # What it does
//!
//! Under `--cfg loom` the crate's host backend runs on loom: every
//! [`Strong`](crate::Strong) is a loom atomic, every [`Data`](crate::Data) a tracked cell, every
//! library wait a model spin, and [`index::launch`](crate::index::launch) starts one model
//! thread per GPU thread, placed in its CTA. Loom explores the interleavings (and the C++11 weak
//! behaviours the PTX orderings map to); the model adds the PTX rules loom does not know:
//!
//! * **scopes**: two strong accesses synchronize only if each one's scope includes the other's
//!   thread (PTX ISA §8.7: *morally strong*); an under-scoped pair (`st.release.cta` in CTA 0,
//!   `ld.acquire.cta` in CTA 1) is reported as `not morally strong`, with both instructions and
//!   both places;
//! * **data races** on `Data` that causality order does not order (§8.7.1):
//!   `ptx-sync model: data race on Data …`;
//! * **fences** synchronize only within their scope (`fence.sc.cta` orders nothing across CTAs);
//! * **barriers** (`mbarrier`, `bar`, `barrier.cluster`) are strong accesses at the scope they
//!   name; a barrier or wait that no thread can complete is `deadlock: …` (a `Budget` never
//!   times out in the model);
//! * **proxies**: a copy engine's (TMA's) accesses to a `model::Tile` are the async proxy's; an
//!   async-proxy write after an unfenced generic read is a `proxy race` (seed §5.3).
//!
//! # Its API (`ptx_sync::model::…`, under `--cfg loom`)
//!
//! | item | what |
//! |---|---|
//! | `check(preemption_bound, f) -> Explored` | runs `f` in every interleaving loom explores (resets the model per execution, counts the abandoned ones) |
//! | `spawn(f)`, `spawn_in(cluster, cta, f)`, `spawn_at(place, f)` → `Handle<T>` | a model thread, unplaced or placed in a CTA; `Handle::join` |
//! | `Place { gpu, cluster, cta }`, `set_thread(cluster, cta)`, `set_place`, `as_place`, `place()` | where a thread runs (scope inclusion is computed from it) |
//! | `spin_until(what, done)` | a model spin: `deadlock: {what}` if no thread can make `done` true |
//! | `Tile<T>`, `drain_copies()` | memory the copy engine writes (async proxy), and the end of its copies |
//! | `Location<T>`, `fence(kind, level, what)`, `strong_access`, `weak_access` | the building blocks the backend uses (a strong location, a scoped fence, access records) |
//!
//! # Model-checking a kernel body
//!
//! Write the body once as a function (as `docs/guide.md` does); the CPU test runs it with
//! `index::launch`, and a `#![cfg(loom)]` test file runs it inside `model::check` — the same
//! call, now on model threads:
//!
//! ```ignore
//! // tests/loom.rs — RUSTFLAGS="--cfg loom" cargo test --release --test loom
//! #![cfg(loom)]
//! use ptx_sync::index::{launch, Dim3};
//! use ptx_sync::prelude::*;
//! use std::sync::Arc;
//!
//! #[test]
//! fn cta_1_reads_what_cta_0_published_in_every_execution() {
//!     ptx_sync::model::check(0, || {
//!         let m = Arc::new((Data::new(0u32), Strong::new(0u32), Strong::new(0u32)));
//!         let k = m.clone();
//!         launch(Dim3::x(2), Dim3::x(1), 0, move || {
//!             if let Some(v) = mykernels::message_passing(&k.0, &k.1, 42, Budget::nanos(1)) {
//!                 k.2.at::<Gpu>().store::<Relaxed>(v);
//!             }
//!         });
//!         assert_eq!(m.2.at::<Gpu>().load::<Relaxed>(), 42);
//!     });
//! }
//! ```
//!
//! The kernel's own crate builds under `--cfg loom` only with what loom can run: keep host-only
//! dependencies (the CUDA launcher, `ptx-sync-host`) out of that build, as `examples/handoff`
//! does with its `host` feature (`cargo test --release --no-default-features --test loom`).
//! Working models: the examples' `tests/loom.rs` and the `loom-tests` crate (one file per
//! program of the seed; `cargo xtask test` runs both).
