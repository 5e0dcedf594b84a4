//! Model checking under `--cfg loom`: thread placement, scope-aware race detection and scoped
//! fences.
//!
//! PTX ISA §8.5 (scopes), §8.7 (morally strong operations, data races), §8.8 (release and
//! acquire patterns), §8.9.3 (Fence-SC order), §8.9.4 (memory synchronization); seed §3.5
//! (footnote 15: `st.release.cta` / `ld.acquire.cta` in two CTAs), §3.6 (`fence.sc`), §4.2
//! (`atom.cta` vs `atom.gpu`), §5.4 (`.cta` remote arrive). This module exists only when the
//! crate is built with `RUSTFLAGS="--cfg loom"`; the `loom-tests` crate is its user and its
//! example collection.
//!
//! # What is checked
//!
//! Under `--cfg loom` every [`Strong`](crate::Strong) location is a loom atomic and every
//! [`Data`](crate::Data) is a `loom::cell::UnsafeCell`, so loom explores the interleavings and the
//! weak-memory behaviours of the C++11 model that the PTX accesses map to (`.relaxed` →
//! `Relaxed`, `.acquire`/`.release`/`.acq_rel` → the same `Ordering`). On top of that:
//!
//! * **Weak data races** (PTX ISA §8.7.1): two conflicting accesses to a `Data` that causality
//!   order does not order are reported with a panic whose message starts with
//!   `"ptx-sync model: data race on Data"` (loom's own diagnosis follows it; when a fence of the
//!   reading thread or of the thread it read from had too narrow a scope, the message names that
//!   fence, its scope and both places).
//! * **Scope of accesses**: each loom thread has a [`Place`] — GPU, cluster, CTA. Two conflicting
//!   strong accesses are *morally strong* only if each one's scope includes the other's thread
//!   (§8.7: "each operation is strong and specifies a scope that includes the thread executing
//!   the other operation"); otherwise they behave like weak accesses, and if causality order does
//!   not order them that is a data race, reported with a panic whose message contains
//!   `"not morally strong"` and names both instructions and both places. An under-scoped
//!   release/acquire pair therefore does not silently synchronize: the flag accesses themselves
//!   are reported.
//! * **Scope of fences** (§8.9.4: "A release pattern X synchronizes with an acquire pattern Y, if
//!   a write operation in X precedes a read operation in Y in observation order, and the first
//!   operation in X and the last operation in Y are morally strong"; §8.9.3: "The Fence-SC order
//!   is an acyclic partial order, determined at runtime, that relates every pair of morally
//!   strong fence.sc operations"): a fence synchronizes only with the fences and accesses whose
//!   scope includes its thread and whose thread its scope includes. `fence.release.cta` in one
//!   CTA and `fence.acquire.cta` in another do not synchronize (the data they should order is a
//!   data race); `fence.sc.cta` is ordered only with the `fence.sc` of its own CTA, so IRIW and
//!   store buffering across CTAs show their weak outcomes.
//! * **Barriers**: [`Mbarrier`](crate::Mbarrier) and [`RemoteMbarrier`](crate::RemoteMbarrier)
//!   operations are strong accesses of the barrier word at the scope they name (`.cta` or
//!   `.cluster`; `init`/`inval` at `.cta`), [`NamedBarrier`](crate::barrier::NamedBarrier) at
//!   `.cta`, [`ClusterBarrier`](crate::barrier::ClusterBarrier) at `.cluster`. A `.cta` arrive from
//!   another CTA (seed §5.4) is reported as not morally strong, through the library's own types
//!   and through [`Pipeline`](crate::Pipeline).
//! * **Waits**: every library wait ([`wait::spin_until`](crate::wait::spin_until) and the waits
//!   built on it, the barriers' waits) is a model spin ([`spin_until`]): a wait that no thread can
//!   ever end panics with `"deadlock: …"`; a schedule that starves a thread is *abandoned* and
//!   counted by [`check`]; a budget never produces `Err(Timeout)` under loom (a correct protocol
//!   never times out in the model).
//!
//! Scope inclusion: `.cta` includes the threads of the same CTA (same GPU, cluster and CTA
//! index), `.cluster` those of the same cluster, `.gpu` those of the same GPU, `.sys` all.
//! `.volatile` counts as `.relaxed.sys` (PTX ISA §8.4); a `Weak` access through an
//! [`AtomicRef`](crate::AtomicRef) (`load::<Weak>()`) is morally strong with nothing.
//!
//! # Placing threads
//!
//! ```ignore
//! use ptx_sync::model;
//! model::check(2, || {
//!     let a = model::spawn_in(0, 0, || { /* a thread of CTA 0 in cluster 0 */ });
//!     let b = model::spawn_in(0, 1, || { /* a thread of CTA 1 in cluster 0 */ });
//!     a.join();
//!     b.join();
//! });
//! ```
//!
//! Run models with [`check`] (it resets the model's state per execution, counts abandoned
//! executions and fails when all are; under plain `loom::model` the state is reset at the first
//! model use of each execution, but abandoned executions end as panics) and start threads with [`spawn`], [`spawn_in`] or [`spawn_at`] (they register the
//! thread's place and its liveness). A thread that was never placed (including loom's main
//! thread) is alone in its own CTA and its own cluster on GPU 0: `.gpu` and `.sys` accesses are
//! morally strong with it, `.cta` and `.cluster` ones from other threads are not. Place threads
//! explicitly ([`set_place`], [`spawn_in`]) to model a CTA or a cluster.
//!
//! # How it works
//!
//! **Accesses.** A strong location is a loom `AtomicUsize` holding the *index* of the store it
//! currently holds, plus a log of the stores (value, what the store carries). Loom chooses which
//! store each load returns; the index tells the model which one it was (the reads-from relation
//! the fence rules need). A read-modify-write is one loom `swap`, so it reads the latest store.
//! Every strong access records, on its location, (thread, place, effective scope, read or write,
//! instruction text) together with a fresh `loom::cell::UnsafeCell<()>` created *before* the
//! access, whose creation stamp is the thread's vector clock at that point. A later access by
//! another thread that conflicts with a recorded one (one of them writes, an RMW counts as a
//! write) and is not morally strong with it reads that cell *before* performing its own access:
//! loom reports "concurrent read and write" exactly when the recorded access does not happen
//! before the new one — that is, when causality order does not order the pair.
//!
//! **Fences.** Let *D* be the largest distance (scope rank) between two threads started so far.
//! A fence whose scope level is at least *D* includes every thread: it is loom's own fence
//! (`fence.sc` → `fence(SeqCst)`, …), exactly as before. Every release-capable fence also
//! deposits its thread's vector clock in a loom atomic of its own (a `Release` store into a cell
//! of a pool created at the start of the execution), and the stores that follow it in program
//! order carry a reference to it (inherited along read-modify-write chains: the release sequence).
//! An acquire (an acquire read of such a store, or an acquire fence after a strong read of it)
//! joins the deposited clock — a failing `Acquire` compare-exchange on the cell, which reads the
//! deposit and writes nothing — only when the two are morally strong (the rule of §8.9.4 above).
//! A fence whose scope does not include every thread does *not* run loom's fence (its acquire
//! half runs as loom's acquire fence only when every loom release clock the thread has read comes
//! from threads within its scope), so loom neither synchronizes it with far threads nor restricts
//! their values. `fence.sc` is ordered, in execution order, after every earlier morally strong
//! `fence.sc` (joining their cells): one Fence-SC order per schedule, the others explored as loom
//! reorders the threads.
//!
//! # Limits
//!
//! * **loom's memory model is C++11's, not PTX's.** It does not explore load buffering (a load
//!   returning a store that is later in causality), so R→W reorderings are not shown; it treats
//!   SeqCst *accesses* as AcqRel (this crate never emits them); its store history per location
//!   is bounded (7 stores).
//! * **Fence scopes**: checked as above, with these limits. A fence that ran as loom's own fence
//!   because its scope included every thread started so far is not undone if a thread outside
//!   it is started later: the model panics (`"placed or started after"`) instead; start every
//!   thread before the first fence. A `fence.sc` is not one loom step (deposit, then joins): a
//!   third `fence.sc` scheduled between them may miss a transitive Fence-SC edge, and a narrow
//!   acquire fence that has read loom release clocks from threads out of its scope does not join
//!   those from threads within it; both under-synchronize, so they can only report a race or
//!   show an outcome PTX forbids (a false alarm), never hide one. At most 48 release fences per
//!   execution. Fences that include every thread are loom's own: loom joins every `fence(SeqCst)`
//!   into one global clock in execution order, stronger than Fence-SC, which is why seed §2.4's
//!   race is not found (see `loom-tests/tests/handoff_fences.rs`).
//! * **Proxies** are modelled for [`Tile`]s only: the copy engine's accesses to a tile are the
//!   async proxy's, a thread's [`Tile::read`]/[`Tile::write`] the generic proxy's, and an
//!   async-proxy access after an unfenced generic one is a `"proxy race"` (seed §5.3; see
//!   `copy/engine.rs`: copies run on engine threads, completed only by their completion
//!   mechanism; a `fence.proxy.async::generic…sync_restrict::shared::cta` fences only for the
//!   async-proxy accesses issued by the fencing thread's CTA). Other memory (`Data`, `Strong`)
//!   has one proxy. Per-CTA shared memory: the host has one address space; a model of a
//!   cluster declares each CTA's copy of a variable with
//!   [`ClusterShared`](crate::cluster::ClusterShared) (then `mapa` maps between the copies and a
//!   multicast writes each CTA's copy, as one copy-engine thread). `fence.mbarrier_init.release.cluster` is modelled as a release
//!   fence at `.cluster` (what it does for the generic proxy; its effect on the barrier's own
//!   proxy is not separate here), and the `fence.proxy.tensormap` fences as release / acquire
//!   fences at their scope.
//! * **Mixed-size races** (§8.7.1, partially overlapping accesses) cannot arise: every location is
//!   one scalar.
//! * Weak data races are reported only between `Data` accesses (and `Weak` accesses through an
//!   `AtomicRef`); loom's exploration is bounded by its `preemption_bound`.
extern crate std;

use core::sync::atomic::Ordering;
use std::boxed::Box;
use std::cell::{Cell, RefCell};
use std::format;
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;
use std::string::String;
use std::sync::Mutex;
use std::vec::Vec;

mod exec;
mod location;
mod race;
#[allow(unused_imports)]
pub use exec::*;
#[allow(unused_imports)]
pub use location::*;
#[allow(unused_imports)]
pub use race::*;

/// Where a loom thread runs: GPU, cluster (within the GPU) and CTA (within the cluster).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    /// The GPU (a rank of a multi-GPU program, DeepEP's `rank`).
    pub gpu: u32,
    /// The cluster, within the GPU.
    pub cluster: u32,
    /// The CTA, within the cluster.
    pub cta: u32,
}

impl core::fmt::Display for Place {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "(gpu {}, cluster {}, cta {})",
            self.gpu, self.cluster, self.cta
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Per-thread state (loom thread-locals: fresh in every execution)
// ---------------------------------------------------------------------------------------------

/// A release pattern's head that another thread may synchronize with: a release-capable fence
/// (its clock deposited in a pool cell) — PTX ISA §8.8.
#[derive(Clone, Copy, Debug)]
pub(super) struct Head {
    pub(super) who: Who,
    pub(super) level: u8,
    pub(super) what: &'static str,
    /// Index of the pool cell holding the fence's clock.
    pub(super) cell: usize,
    /// The fence also ran as loom's own fence (its scope included every thread).
    pub(super) universal: bool,
}

/// A thread and its place.
#[derive(Clone, Copy, Debug)]
pub(super) struct Who {
    pub(super) thread: loom::thread::ThreadId,
    pub(super) place: Option<Place>,
}

#[derive(Default)]
pub(super) struct ThreadState {
    /// Registry slot (see [`Exec::registered`]).
    pub(super) slot: Option<usize>,
    /// `slots[m]`: the latest release-capable fence of this thread whose scope level is ≥ m.
    pub(super) fences: [Option<Head>; 4],
    /// Heads carried by the stores this thread's strong non-acquire reads returned (for a later
    /// acquire fence: "a strong read followed by a fence", PTX ISA §8.8).
    pub(super) observed: Vec<Head>,
    /// Cells this thread has already joined.
    pub(super) joined: Vec<usize>,
    /// Largest distance (scope rank) to a thread whose loom-native release clock rides on a store
    /// this thread read without acquiring.
    pub(super) native_far: u8,
    /// This thread ran a loom release fence, so its stores carry loom's release clock.
    pub(super) native_release: bool,
    /// Labels of the enclosing model spins (for the deadlock message).
    pub(super) labels: Vec<String>,
    /// The latest acquire-capable fence of this thread (for the data-race message).
    pub(super) last_acq: Option<(u8, &'static str)>,
}

loom::thread_local! {
    static PLACE: Cell<Option<Place>> = Cell::new(None);
    static TS: RefCell<ThreadState> = RefCell::new(ThreadState::default());
}

pub(super) fn with_ts<R>(f: impl FnOnce(&mut ThreadState) -> R) -> R {
    TS.with(|t| f(&mut t.borrow_mut()))
}

pub(super) fn who() -> Who {
    Who {
        thread: loom::thread::current().id(),
        place: place(),
    }
}

/// Places the calling loom thread in CTA `cta` of cluster `cluster` on GPU 0.
pub fn set_thread(cluster: u32, cta: u32) {
    set_place(Place {
        gpu: 0,
        cluster,
        cta,
    })
}

/// Places the calling loom thread at `place`.
pub fn set_place(place: Place) {
    PLACE.with(|p| p.set(Some(place)));
    let slot = ensure_registered();
    with_exec(|e| e.set_slot(slot, Some(place)));
}

/// Runs `f` with the calling thread placed at `p` for its duration (for hardware that acts in
/// another CTA on the thread's behalf: a TMA multicast's `complete_tx` on a peer CTA's barrier is
/// performed in that CTA, seed §5.2). The place is restored afterwards.
pub fn as_place<R>(p: Place, f: impl FnOnce() -> R) -> R {
    let was = PLACE.with(|c| c.replace(Some(p)));
    let r = f();
    PLACE.with(|c| c.set(was));
    r
}

/// The calling loom thread's place, `None` if it was never placed (then it is alone in its own
/// CTA and cluster on GPU 0).
pub fn place() -> Option<Place> {
    PLACE.with(|p| p.get())
}

/// Scope rank needed for two places to be in each other's scope: 0 same CTA, 1 same cluster,
/// 2 same GPU, 3 otherwise. An unplaced thread is alone in its cluster on GPU 0.
pub(super) fn distance(a: Option<Place>, b: Option<Place>) -> u8 {
    match (a, b) {
        (Some(a), Some(b)) => {
            if a.gpu != b.gpu {
                3
            } else if a.cluster != b.cluster {
                2
            } else if a.cta != b.cta {
                1
            } else {
                0
            }
        }
        (None, Some(p)) | (Some(p), None) => {
            if p.gpu != 0 {
                3
            } else {
                2
            }
        }
        (None, None) => 2,
    }
}

pub(super) fn dist(a: Who, b: Who) -> u8 {
    if a.thread == b.thread {
        0
    } else {
        distance(a.place, b.place)
    }
}

/// Effective scope rank of an access: `Weak` → none (-1), `Volatile` → `.sys` (3), otherwise the
/// scope's `LEVEL`.
#[doc(hidden)]
pub fn effective_level(fixed: Option<i8>, scope_level: u8) -> i8 {
    fixed.unwrap_or(scope_level as i8)
}

pub(super) fn place_text(p: Option<Place>) -> String {
    match p {
        Some(p) => format!("{p}"),
        None => String::from("(unplaced)"),
    }
}

pub(super) fn level_name(l: u8) -> &'static str {
    match l {
        0 => ".cta",
        1 => ".cluster",
        2 => ".gpu",
        _ => ".sys",
    }
}
