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
struct Head {
    who: Who,
    level: u8,
    what: &'static str,
    /// Index of the pool cell holding the fence's clock.
    cell: usize,
    /// The fence also ran as loom's own fence (its scope included every thread).
    universal: bool,
}

/// A thread and its place.
#[derive(Clone, Copy, Debug)]
struct Who {
    thread: loom::thread::ThreadId,
    place: Option<Place>,
}

#[derive(Default)]
struct ThreadState {
    /// Registry slot (see [`Exec::registered`]).
    slot: Option<usize>,
    /// `slots[m]`: the latest release-capable fence of this thread whose scope level is ≥ m.
    fences: [Option<Head>; 4],
    /// Heads carried by the stores this thread's strong non-acquire reads returned (for a later
    /// acquire fence: "a strong read followed by a fence", PTX ISA §8.8).
    observed: Vec<Head>,
    /// Cells this thread has already joined.
    joined: Vec<usize>,
    /// Largest distance (scope rank) to a thread whose loom-native release clock rides on a store
    /// this thread read without acquiring.
    native_far: u8,
    /// This thread ran a loom release fence, so its stores carry loom's release clock.
    native_release: bool,
    /// Labels of the enclosing model spins (for the deadlock message).
    labels: Vec<String>,
    /// The latest acquire-capable fence of this thread (for the data-race message).
    last_acq: Option<(u8, &'static str)>,
}

loom::thread_local! {
    static PLACE: Cell<Option<Place>> = Cell::new(None);
    static TS: RefCell<ThreadState> = RefCell::new(ThreadState::default());
}

fn with_ts<R>(f: impl FnOnce(&mut ThreadState) -> R) -> R {
    TS.with(|t| f(&mut t.borrow_mut()))
}

fn who() -> Who {
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
fn distance(a: Option<Place>, b: Option<Place>) -> u8 {
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

fn dist(a: Who, b: Who) -> u8 {
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

fn place_text(p: Option<Place>) -> String {
    match p {
        Some(p) => format!("{p}"),
        None => String::from("(unplaced)"),
    }
}

fn level_name(l: u8) -> &'static str {
    match l {
        0 => ".cta",
        1 => ".cluster",
        2 => ".gpu",
        _ => ".sys",
    }
}

// ---------------------------------------------------------------------------------------------
// Per-execution state
// ---------------------------------------------------------------------------------------------

/// Pool cells per execution: one per release-capable fence executed.
const POOL: usize = 48;

/// Scheduler bookkeeping of one loom execution (invisible to loom: it orders nothing).
struct Sched {
    /// Threads that may still make progress on their own: alive, and neither spinning in a
    /// model spin nor joining. The model's main thread counts from the start.
    live: usize,
    /// A spinner gave up because the schedule starved a live thread.
    abandoned: bool,
    /// Bumped whenever some thread does something other than fail a spin check.
    epoch: u64,
    /// Threads spinning in a model spin.
    waiting: usize,
    /// How many of them have failed [`SPIN_LIMIT`] checks in a row at epoch `exhausted_epoch`.
    exhausted: usize,
    exhausted_epoch: u64,
}

struct ScRec {
    who: Who,
    level: u8,
    cell: usize,
    universal: bool,
}

struct Exec {
    sched: Sched,
    /// Pool of loom atomics created at the start of the execution (so that every thread's
    /// access to them is ordered after their creation); a fence deposits its clock in one with
    /// a `Release` store, a thread it synchronizes with joins that clock with a failing
    /// `Acquire` compare-exchange.
    cells: Option<Rc<Vec<loom::sync::atomic::AtomicUsize>>>,
    next_cell: usize,
    /// The fence.sc operations so far, in execution order (a Fence-SC order, PTX ISA §8.9.3).
    sc: Vec<ScRec>,
    /// Places of the threads started so far (`None`: unplaced).
    registered: Vec<Option<Place>>,
    /// Largest distance between two registered threads: a fence whose level is at least this
    /// includes every thread, and runs as loom's own fence.
    d: u8,
    /// Lowest level of a fence that ran as loom's own fence (4: none yet).
    min_native: u8,
    min_native_what: &'static str,
    /// The thread that started this state (loom's main thread of the execution).
    main: Option<loom::thread::ThreadId>,
    /// The copy engine's copies in flight and the execution's tiles (`copy/engine.rs`).
    engine: crate::backend::copy_engine::EngineState,
}

impl Exec {
    const fn empty() -> Self {
        Exec {
            sched: Sched {
                live: 1,
                abandoned: false,
                epoch: 0,
                waiting: 0,
                exhausted: 0,
                exhausted_epoch: 0,
            },
            cells: None,
            next_cell: 0,
            sc: Vec::new(),
            registered: Vec::new(),
            d: 0,
            min_native: 4,
            min_native_what: "",
            main: None,
            engine: crate::backend::copy_engine::EngineState::new(),
        }
    }

    fn recompute_d(&mut self) {
        let mut d = 0;
        for (i, a) in self.registered.iter().enumerate() {
            for b in &self.registered[i + 1..] {
                d = d.max(distance(*a, *b));
            }
        }
        self.d = d;
    }

    fn set_slot(&mut self, slot: usize, p: Option<Place>) {
        self.registered[slot] = p;
        self.recompute_d();
        self.check_native(p);
    }

    fn register(&mut self, p: Option<Place>) -> usize {
        self.registered.push(p);
        self.recompute_d();
        self.check_native(p);
        self.registered.len() - 1
    }

    fn check_native(&self, p: Option<Place>) {
        if self.d > self.min_native {
            panic!(
                "ptx-sync model: a thread at {} was placed or started after `{}` was modelled as \
                 including every thread (PTX ISA §8.7); place and start every thread before the \
                 first fence",
                place_text(p),
                self.min_native_what
            );
        }
    }
}

// loom runs all threads of a model as coroutines on the test's OS thread, so a std thread-local
// is shared by the threads of one execution; `check` resets it per execution.
std::thread_local! {
    static EXEC: RefCell<Exec> = const { RefCell::new(Exec::empty()) };
}

fn with_exec<R>(f: impl FnOnce(&mut Exec) -> R) -> R {
    EXEC.with(|e| f(&mut e.borrow_mut()))
}

/// The copy engine's per-execution state (`copy/engine.rs`).
pub(crate) fn with_engine<R>(
    f: impl FnOnce(&mut crate::backend::copy_engine::EngineState) -> R,
) -> R {
    ensure_registered();
    with_exec(|e| f(&mut e.engine))
}

pub use crate::backend::copy_engine::{drain_copies, Tile};

/// Starts the model's per-execution state (called by [`check`] at the start of every execution,
/// on the model's main thread). Creates the pool of fence cells and registers the calling thread.
fn start_execution() {
    with_exec(|e| *e = Exec::empty());
    let cells: Vec<_> = (0..POOL)
        .map(|_| loom::sync::atomic::AtomicUsize::new(0))
        .collect();
    let main = loom::thread::current().id();
    with_exec(|e| {
        e.cells = Some(Rc::new(cells));
        e.main = Some(main);
        let slot = e.register(place());
        with_ts(|t| t.slot = Some(slot));
    });
}

/// Makes sure the per-execution state exists and the calling thread is registered; returns its
/// registry slot.
fn ensure_registered() -> usize {
    if let Some(s) = with_ts(|t| t.slot) {
        return s;
    }
    // No slot yet: the first model use of an execution (its main thread, loom's thread 0, when
    // the model runs under plain `loom::model` rather than `check`), or a thread started with
    // plain `loom::thread::spawn`.
    let id = loom::thread::current().id();
    let fresh = with_exec(|e| e.cells.is_none() || e.main != Some(id))
        && format!("{id:?}") == "ThreadId(0)";
    if fresh || with_exec(|e| e.cells.is_none()) {
        start_execution();
        return with_ts(|t| t.slot).expect("registered");
    }
    // A thread started with plain `loom::thread::spawn`: registered on its first model use.
    let p = place();
    let s = with_exec(|e| e.register(p));
    with_ts(|t| t.slot = Some(s));
    s
}

/// Called by `Strong::new`, `Data::new`, `Mbarrier::new`: the first model object of an
/// execution starts the model's state (normally [`check`] has done it already).
#[doc(hidden)]
pub fn touch() {
    ensure_registered();
}

fn cells() -> Rc<Vec<loom::sync::atomic::AtomicUsize>> {
    ensure_registered();
    with_exec(|e| e.cells.clone().expect("model state"))
}

fn alloc_cell(what: &'static str) -> usize {
    with_exec(|e| {
        let c = e.next_cell;
        assert!(
            c < POOL,
            "ptx-sync model: more than {POOL} release fences in one execution (at `{what}`)"
        );
        e.next_cell += 1;
        c
    })
}

/// Deposits the calling thread's clock in cell `c` (a loom `Release` store).
fn deposit(cells: &[loom::sync::atomic::AtomicUsize], c: usize) {
    cells[c].store(1, Ordering::Release);
}

/// Joins the clock deposited in cell `c` (a failing `Acquire` compare-exchange reads the latest
/// store, the deposit, without writing).
fn join(cells: &[loom::sync::atomic::AtomicUsize], c: usize) {
    if with_ts(|t| t.joined.contains(&c)) {
        return;
    }
    let _ = cells[c].compare_exchange(usize::MAX, usize::MAX, Ordering::Acquire, Ordering::Acquire);
    with_ts(|t| t.joined.push(c));
}

// ---------------------------------------------------------------------------------------------
// Threads, spins, check
// ---------------------------------------------------------------------------------------------

/// Changes the number of live threads by `d` and records progress.
#[doc(hidden)]
pub fn sched_live(d: isize) {
    with_exec(|e| {
        e.sched.live = (e.sched.live as isize + d) as usize;
        e.sched.epoch += 1;
    })
}

/// Panic payload of an abandoned execution (counted by [`check`], never reported as a failure).
#[doc(hidden)]
pub struct Starved;

/// Abandons the execution: loom's schedule starved a thread that could still move.
#[doc(hidden)]
pub fn abandon() -> ! {
    with_exec(|e| e.sched.abandoned = true);
    panic::resume_unwind(Box::new(Starved))
}

/// How many consecutive yields without progress elsewhere make a spinner *exhausted*. After a
/// `yield_now`, loom lets the other threads run and stops returning stale values already seen,
/// so on a fair schedule a wait that some thread can end ends well within it.
pub const SPIN_LIMIT: usize = 4;

/// A spinner that has yielded this many times without progress anywhere, while some other thread
/// could still move, is being starved by an unfair schedule: the execution is abandoned.
pub const STARVED_LIMIT: usize = 3 * SPIN_LIMIT;

enum Verdict {
    Continue,
    Deadlock,
    Abandon,
}

/// Spins (with `loom::thread::yield_now`) until `done()`; false when no thread can make it true.
///
/// A spinner is *exhausted* when `done()` has stayed false for [`SPIN_LIMIT`] consecutive yields
/// during which no thread made progress (started, ended, started or stopped waiting, issued or
/// completed a copy). Then:
/// * if no thread can move on its own (every thread spins or joins or has ended) and every
///   spinner is exhausted, no wait can ever end: returns false;
/// * if it stays so for [`STARVED_LIMIT`] yields while some thread could still move, loom's
///   depth-first search is exploring an unfair schedule (spinners yielding to each other while a
///   runnable thread never runs). The execution is **abandoned** ([`abandon`]): [`check`] counts
///   it, and fails if every execution was abandoned.
#[doc(hidden)]
pub fn spin(mut done: impl FnMut() -> bool) -> bool {
    if done() {
        return true;
    }
    let mut last = with_exec(|e| {
        e.sched.live -= 1;
        e.sched.waiting += 1;
        e.sched.epoch += 1;
        e.sched.epoch
    });
    let mut idle = 0;
    let mut marked = false;
    loop {
        loom::thread::yield_now();
        if done() {
            with_exec(|e| {
                e.sched.live += 1;
                e.sched.waiting -= 1;
                e.sched.epoch += 1;
            });
            return true;
        }
        let ep = with_exec(|e| e.sched.epoch);
        if ep != last {
            last = ep;
            idle = 0;
            marked = false;
            continue;
        }
        idle += 1;
        if idle < SPIN_LIMIT {
            continue;
        }
        let verdict = with_exec(|e| {
            let s = &mut e.sched;
            if s.abandoned {
                return Verdict::Abandon;
            }
            if !marked {
                if s.exhausted_epoch != ep {
                    s.exhausted_epoch = ep;
                    s.exhausted = 0;
                }
                s.exhausted += 1;
                marked = true;
            }
            if s.live == 0 && s.exhausted >= s.waiting {
                Verdict::Deadlock
            } else if idle >= STARVED_LIMIT {
                Verdict::Abandon
            } else {
                Verdict::Continue
            }
        });
        match verdict {
            Verdict::Continue => {}
            Verdict::Abandon => abandon(),
            Verdict::Deadlock => {
                with_exec(|e| {
                    e.sched.live += 1;
                    e.sched.waiting -= 1;
                });
                return false;
            }
        }
    }
}

/// Spins until `done()`; a wait that no thread can end panics with `"deadlock: {what} (no
/// thread can make it true)"` — `what` of the outermost enclosing `spin_until` of this thread if
/// there is one (so a test's label names a library wait it wraps).
pub fn spin_until(what: &str, done: impl FnMut() -> bool) {
    with_ts(|t| t.labels.push(String::from(what)));
    let ok = spin(done);
    let label = with_ts(|t| {
        let first = t.labels.first().cloned();
        t.labels.pop();
        first
    });
    if !ok {
        panic!(
            "deadlock: {} (no thread can make it true)",
            label.unwrap_or_else(|| String::from(what))
        );
    }
}

/// A thread started with [`spawn`], [`spawn_in`] or [`spawn_at`].
pub struct Handle<T>(loom::thread::JoinHandle<Option<T>>);

impl<T> Handle<T> {
    /// Joins the thread and returns its result (the calling thread counts as waiting meanwhile).
    /// A panic of the thread is resumed here; an abandoned thread abandons the joiner too.
    pub fn join(self) -> T {
        sched_live(-1);
        let r = self.0.join();
        sched_live(1);
        match r {
            Ok(Some(v)) => v,
            Ok(None) => abandon(),
            Err(p) => panic::resume_unwind(p),
        }
    }
}

fn start<T: 'static>(
    p: Option<Place>,
    f: impl FnOnce() -> T + 'static,
) -> impl FnOnce() -> Option<T> + 'static {
    ensure_registered();
    let slot = with_exec(|e| e.register(p));
    sched_live(1);
    move || {
        if let Some(p) = p {
            PLACE.with(|c| c.set(Some(p)));
        }
        with_ts(|t| t.slot = Some(slot));
        let r = panic::catch_unwind(AssertUnwindSafe(f));
        match r {
            Ok(v) => {
                sched_live(-1);
                Some(v)
            }
            Err(p) if p.is::<Starved>() => None,
            Err(p) => panic::resume_unwind(p),
        }
    }
}

/// `loom::thread::spawn`, unplaced (alone in its own CTA and cluster on GPU 0), with the model's
/// bookkeeping (deadlock detection, scope registry).
pub fn spawn<T: 'static>(f: impl FnOnce() -> T + 'static) -> Handle<T> {
    Handle(loom::thread::spawn(start(None, f)))
}

/// [`spawn`], the new thread placed in CTA `cta` of cluster `cluster` on GPU 0.
pub fn spawn_in<T: 'static>(cluster: u32, cta: u32, f: impl FnOnce() -> T + 'static) -> Handle<T> {
    spawn_at(
        Place {
            gpu: 0,
            cluster,
            cta,
        },
        f,
    )
}

/// [`spawn`], the new thread placed at `place`.
pub fn spawn_at<T: 'static>(place: Place, f: impl FnOnce() -> T + 'static) -> Handle<T> {
    Handle(loom::thread::spawn(start(Some(place), f)))
}

/// What [`check`] explored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explored {
    /// Executions loom ran.
    pub executions: usize,
    /// Executions abandoned because loom's schedule starved a thread (see [`spin_until`]).
    pub abandoned: usize,
}

/// Runs `f` as a loom model with the given preemption bound, resetting the model's state at the
/// start of every execution. Executions abandoned by a model spin (an unfair schedule) end
/// quietly and are counted; every other panic fails. Prints the counts on stderr and panics with
/// `"ptx-sync model: every execution … was abandoned"` if no execution completed.
pub fn check<F>(preemption_bound: usize, f: F) -> Explored
where
    F: Fn() + Sync + Send + 'static,
{
    use std::sync::atomic::AtomicUsize as StdUsize;
    use std::sync::Arc;
    let runs = Arc::new(StdUsize::new(0));
    let abandoned = Arc::new(StdUsize::new(0));
    let (r2, a2) = (runs.clone(), abandoned.clone());
    let mut b = loom::model::Builder::new();
    b.preemption_bound = Some(preemption_bound);
    b.check(move || {
        r2.fetch_add(1, Ordering::Relaxed);
        start_execution();
        if let Err(p) = panic::catch_unwind(AssertUnwindSafe(&f)) {
            if p.is::<Starved>() {
                a2.fetch_add(1, Ordering::Relaxed);
            } else {
                panic::resume_unwind(p);
            }
        } else {
            let left = with_exec(|e| e.engine.in_flight());
            assert!(
                left == 0,
                "ptx-sync model: {left} async copies still in flight at the end of the model \
                 (call `ptx_sync::model::drain_copies()` before the memory they touch goes away)"
            );
        }
        drop(with_exec(|e| e.engine.take_regions()));
    });
    let e = Explored {
        executions: runs.load(Ordering::Relaxed),
        abandoned: abandoned.load(Ordering::Relaxed),
    };
    std::eprintln!(
        "ptx-sync model: {} executions, {} abandoned (starved schedules)",
        e.executions,
        e.abandoned
    );
    assert!(
        e.abandoned < e.executions,
        "ptx-sync model: every execution ({}) was abandoned: no schedule let the waits finish, so \
         nothing was checked",
        e.executions
    );
    e
}

// ---------------------------------------------------------------------------------------------
// Strong locations: loom atomic of store indices + the store log
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Entry<T> {
    value: T,
    /// Release heads this store carries (the writer's fences before it; inherited along
    /// read-modify-write chains).
    heads: Vec<Head>,
    /// Threads whose loom-native release clock this store carries.
    native: Vec<Who>,
}

/// One strong location under loom: a loom `AtomicUsize` holding the index of the store it
/// currently holds (loom explores which store each load returns), the stores' values and what
/// they carry, and the access history of the scope check.
#[doc(hidden)]
pub struct Location<T> {
    ix: loom::sync::atomic::AtomicUsize,
    log: Mutex<Vec<Entry<T>>>,
    hist: History,
}

impl<T> core::fmt::Debug for Location<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Location")
    }
}

fn is_acquire(o: Ordering) -> bool {
    matches!(o, Ordering::Acquire | Ordering::AcqRel | Ordering::SeqCst)
}
fn is_release(o: Ordering) -> bool {
    matches!(o, Ordering::Release | Ordering::AcqRel | Ordering::SeqCst)
}

/// What a store by the calling thread carries.
fn own_carry(o: Ordering) -> (Vec<Head>, Vec<Who>) {
    let me = who();
    with_ts(|t| {
        let mut heads: Vec<Head> = Vec::new();
        for h in t.fences.iter().flatten() {
            if !heads.iter().any(|x| x.cell == h.cell) {
                heads.push(*h);
            }
        }
        let native = if is_release(o) || t.native_release {
            std::vec![me]
        } else {
            Vec::new()
        };
        (heads, native)
    })
}

/// After a strong read of a store carrying `heads`/`native`: an acquire read joins the heads it
/// synchronizes with (PTX ISA §8.9.4: the fence heading the release pattern and this read are
/// morally strong); a non-acquire strong read remembers them for a later acquire fence.
fn after_read(level: i8, acquire: bool, heads: &[Head], native: &[Who]) {
    if level < 0 {
        return; // a weak read takes part in no pattern
    }
    let me = who();
    let level = level as u8;
    if acquire {
        let todo: Vec<usize> = heads
            .iter()
            .filter(|h| {
                !h.universal && h.who.thread != me.thread && h.level.min(level) >= dist(h.who, me)
            })
            .map(|h| h.cell)
            .collect();
        if !todo.is_empty() {
            let c = cells();
            for x in todo {
                join(&c, x);
            }
        }
    }
    // Every strong read may also start an acquire pattern with a later fence ("a strong read on
    // M followed by a fence", §8.8).
    with_ts(|t| {
        for h in heads {
            if h.who.thread != me.thread && !t.observed.iter().any(|x| x.cell == h.cell) {
                t.observed.push(*h);
            }
        }
        if !acquire {
            for w in native {
                t.native_far = t.native_far.max(dist(*w, me));
            }
        }
    });
}

impl<T: Copy + Default> Location<T> {
    /// A location holding `v`.
    pub fn new(v: T) -> Self {
        touch();
        Location {
            ix: loom::sync::atomic::AtomicUsize::new(0),
            log: Mutex::new(std::vec![Entry {
                value: v,
                heads: Vec::new(),
                native: Vec::new(),
            }]),
            hist: History::new(),
        }
    }

    fn entry(&self, i: usize) -> Entry<T> {
        self.log.lock().unwrap_or_else(|e| e.into_inner())[i].clone()
    }

    fn push(&self, e: Entry<T>) -> usize {
        let mut l = self.log.lock().unwrap_or_else(|e| e.into_inner());
        l.push(e);
        l.len() - 1
    }

    fn set(&self, i: usize, e: Entry<T>) {
        self.log.lock().unwrap_or_else(|e| e.into_inner())[i] = e;
    }

    /// A strong load (`ld`, or a barrier's read) at effective level `level`.
    pub fn load(&self, level: i8, o: Ordering, what: &'static str) -> T {
        strong_access(&self.hist, level, false, what);
        let i = self.ix.load(o);
        let e = self.entry(i);
        after_read(level, is_acquire(o), &e.heads, &e.native);
        e.value
    }

    /// A strong store.
    pub fn store(&self, v: T, level: i8, o: Ordering, what: &'static str) {
        strong_access(&self.hist, level, true, what);
        let (heads, native) = own_carry(o);
        let j = self.push(Entry {
            value: v,
            heads,
            native,
        });
        self.ix.store(j, o);
    }

    /// A read-modify-write: one loom swap (which reads the latest store, PTX ISA §8.7.1
    /// atomicity), the new value `f(old)`. Returns the old value.
    pub fn rmw(&self, level: i8, o: Ordering, what: &'static str, f: impl FnOnce(T) -> T) -> T {
        strong_access(&self.hist, level, true, what);
        let (mut heads, mut native) = own_carry(o);
        let j = self.push(Entry {
            value: T::default(),
            heads: Vec::new(),
            native: Vec::new(),
        });
        let old = self.ix.swap(j, o);
        let prev = self.entry(old);
        for h in &prev.heads {
            if !heads.iter().any(|x| x.cell == h.cell) {
                heads.push(*h);
            }
        }
        native.extend(prev.native.iter().copied());
        self.set(
            j,
            Entry {
                value: f(prev.value),
                heads,
                native,
            },
        );
        after_read(level, is_acquire(o), &prev.heads, &prev.native);
        prev.value
    }

    /// A compare-and-swap: writes `new` if the value equals `current` (by `eq`). A failed one is
    /// a read with ordering `fail`.
    #[allow(clippy::too_many_arguments)]
    pub fn cas(
        &self,
        level: i8,
        o: Ordering,
        fail: Ordering,
        what: &'static str,
        current: T,
        new: T,
        eq: fn(T, T) -> bool,
    ) -> Result<T, T> {
        strong_access(&self.hist, level, true, what);
        loop {
            let probe = match self.ix.compare_exchange(
                usize::MAX,
                usize::MAX,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(x) | Err(x) => x,
            };
            let prev = self.entry(probe);
            if !eq(prev.value, current) {
                if !is_acquire(fail) {
                    after_read(level, false, &prev.heads, &prev.native);
                    return Err(prev.value);
                }
                match self.ix.compare_exchange(usize::MAX, usize::MAX, fail, fail) {
                    Ok(x) | Err(x) if x == probe => {
                        after_read(level, true, &prev.heads, &prev.native);
                        return Err(prev.value);
                    }
                    _ => continue,
                }
            }
            let (mut heads, mut native) = own_carry(o);
            for h in &prev.heads {
                if !heads.iter().any(|x| x.cell == h.cell) {
                    heads.push(*h);
                }
            }
            native.extend(prev.native.iter().copied());
            let j = self.push(Entry {
                value: new,
                heads,
                native,
            });
            if self.ix.compare_exchange(probe, j, o, fail).is_ok() {
                after_read(level, is_acquire(o), &prev.heads, &prev.native);
                return Ok(prev.value);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Fences
// ---------------------------------------------------------------------------------------------

/// The semantic of a fence, for [`fence`].
#[doc(hidden)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FenceKind {
    Sc,
    AcqRel,
    Acquire,
    Release,
}

/// `fence{.sem}.scope` under loom, with its scope (see the module docs, "Fences").
#[doc(hidden)]
pub fn fence(kind: FenceKind, level: u8, what: &'static str) {
    ensure_registered();
    let me = who();
    let c = cells();
    let universal = with_exec(|e| level >= e.d);
    if universal && level < 3 {
        with_exec(|e| {
            if level < e.min_native {
                e.min_native = level;
                e.min_native_what = what;
            }
        });
    }
    let acquires = kind != FenceKind::Release;
    let releases = kind != FenceKind::Acquire;
    // The acquire half runs as loom's acquire fence when it cannot synchronize with anything
    // out of scope: the fence includes every thread, or every loom release clock this thread has
    // read comes from a thread within its scope.
    let native_acq = acquires && (universal || with_ts(|t| t.native_far <= level));
    if acquires {
        with_ts(|t| t.last_acq = Some((level, what)));
        // "A strong read on M followed by a fence" (PTX ISA §8.8): join the release heads the
        // earlier strong reads saw, when the head and this fence are morally strong (§8.9.4).
        let todo: Vec<usize> = with_ts(|t| {
            t.observed
                .iter()
                .filter(|h| !(native_acq && h.universal) && h.level.min(level) >= dist(h.who, me))
                .map(|h| h.cell)
                .collect()
        });
        for x in todo {
            join(&c, x);
        }
    }
    if universal {
        loom::sync::atomic::fence(match kind {
            FenceKind::Sc => Ordering::SeqCst,
            FenceKind::AcqRel => Ordering::AcqRel,
            FenceKind::Acquire => Ordering::Acquire,
            FenceKind::Release => Ordering::Release,
        });
        if releases {
            with_ts(|t| t.native_release = true);
        }
    } else if native_acq {
        loom::sync::atomic::fence(Ordering::Acquire);
    }
    if !releases {
        return;
    }
    let cell = alloc_cell(what);
    deposit(&c, cell);
    if kind == FenceKind::Sc {
        // Fence-SC order (PTX ISA §8.9.3) relates morally strong fence.sc pairs: this one is
        // ordered after every earlier fence.sc whose scope includes this thread and whose thread
        // this one's scope includes (execution order is one Fence-SC order; loom explores others
        // by reordering the threads). The record is pushed right after the deposit, in the same
        // loom step, so a later fence.sc always finds this one's clock deposited.
        let todo: Vec<usize> = with_exec(|e| {
            let v =
                e.sc.iter()
                    .filter(|r| {
                        r.who.thread != me.thread
                            && !(universal && r.universal)
                            && r.level.min(level) >= dist(r.who, me)
                    })
                    .map(|r| r.cell)
                    .collect();
            e.sc.push(ScRec {
                who: me,
                level,
                cell,
                universal,
            });
            v
        });
        if !todo.is_empty() {
            for x in todo {
                join(&c, x);
            }
            // What this fence acquired is released by it too (causality is transitive).
            deposit(&c, cell);
            if universal {
                loom::sync::atomic::fence(Ordering::Release);
            }
        }
    }
    let h = Head {
        who: me,
        level,
        what,
        cell,
        universal,
    };
    with_ts(|t| {
        for m in 0..=level as usize {
            t.fences[m] = Some(h);
        }
    });
}

// ---------------------------------------------------------------------------------------------
// The scope check of conflicting strong accesses (unchanged design)
// ---------------------------------------------------------------------------------------------

struct Access {
    thread: loom::thread::ThreadId,
    place: Option<Place>,
    level: i8,
    write: bool,
    what: &'static str,
    /// Created before the access: its creation stamp is the thread's clock at the access.
    stamp: loom::cell::UnsafeCell<()>,
}

/// The strong accesses of one location, for the scope check (one per [`Strong`](crate::Strong)).
#[doc(hidden)]
pub struct History(Mutex<Vec<Access>>);

impl History {
    pub(crate) fn new() -> Self {
        History(Mutex::new(Vec::new()))
    }
}

impl core::fmt::Debug for History {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("History")
    }
}

/// Does the access that created `stamp` happen before the current point of this thread?
fn happens_before(stamp: &loom::cell::UnsafeCell<()>) -> bool {
    panic::catch_unwind(AssertUnwindSafe(|| stamp.with(|_| ()))).is_ok()
}

/// Called by every strong access under loom, before the access itself.
#[doc(hidden)]
pub fn strong_access(hist: &History, level: i8, write: bool, what: &'static str) {
    let thread = loom::thread::current().id();
    let here = place();
    let mut h = hist.0.lock().unwrap_or_else(|e| e.into_inner());
    for x in h.iter() {
        if x.thread == thread || !(x.write || write) {
            continue;
        }
        let d = distance(x.place, here) as i8;
        if x.level.min(level) >= d {
            continue; // morally strong: an ordinary atomic race, which loom explores
        }
        if !happens_before(&x.stamp) {
            let msg = format!(
                "ptx-sync model: data race: `{}` by thread {} and `{}` by thread {} are not \
                 morally strong (PTX ISA §8.7: each one's scope must include the other's thread) \
                 and causality order does not order them",
                x.what,
                place_text(x.place),
                what,
                place_text(here),
            );
            drop(h);
            panic!("{}", msg);
        }
    }
    h.retain(|x| !(x.thread == thread && x.write == write && x.level == level));
    h.push(Access {
        thread,
        place: here,
        level,
        write,
        what,
        stamp: loom::cell::UnsafeCell::new(()),
    });
}

/// Fence scopes that did not include the other thread, for the data-race message: the calling
/// thread's fences and the fences it observed whose scope does not include the thread across.
fn fence_note() -> String {
    let me = who();
    with_ts(|t| {
        let mut out = String::new();
        for h in t.observed.iter() {
            let d = dist(h.who, me);
            if h.level < d {
                out.push_str(&format!(
                    "; `{}` by thread {} does not synchronize with thread {}: its scope \
                     (`{}`) does not include that thread (PTX ISA §8.9.4: the first operation of \
                     the release pattern and the last of the acquire pattern must be morally \
                     strong, §8.7)",
                    h.what,
                    place_text(h.who.place),
                    place_text(me.place),
                    level_name(h.level)
                ));
            } else if let Some((g, gw)) = t.last_acq {
                if g < d {
                    out.push_str(&format!(
                        "; `{}` by thread {} does not synchronize with `{}` by thread {}: its \
                         scope (`{}`) does not include that thread (PTX ISA §8.9.4, §8.7)",
                        gw,
                        place_text(me.place),
                        h.what,
                        place_text(h.who.place),
                        level_name(g)
                    ));
                }
            }
        }
        out
    })
}

/// Runs a loom `UnsafeCell` access of a [`Data`](crate::Data), re-raising loom's race report with
/// the ptx-sync message.
#[doc(hidden)]
pub fn weak_access<R>(what: &'static str, f: impl FnOnce() -> R) -> R {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(e) => {
            let loom_msg: Option<String> = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| String::from(*s)));
            match loom_msg {
                Some(m) if m.contains("Causality violation") => panic!(
                    "ptx-sync model: data race on Data ({what}): two conflicting weak accesses \
                     that causality order does not order (PTX ISA §8.7.1){}; loom: {}",
                    fence_note(),
                    m.trim()
                ),
                _ => panic::resume_unwind(e as Box<dyn core::any::Any + Send>),
            }
        }
    }
}
