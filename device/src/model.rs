//! Model checking under `--cfg loom`: thread placement and scope-aware race detection.
//!
//! PTX ISA §8.7 (morally strong operations, data races), §8.5 (scopes); seed §3.5 (footnote 15:
//! `st.release.cta` / `ld.acquire.cta` in two CTAs), §4.2 (`atom.cta` vs `atom.gpu`), §5.4
//! (`.cta` remote arrive). This module exists only when the crate is built with
//! `RUSTFLAGS="--cfg loom"`; the `loom-tests` crate is its user and its example collection.
//!
//! # What is checked
//!
//! Under `--cfg loom` every [`Strong`](crate::Strong) location is a loom atomic and every
//! [`Data`](crate::Data) is a `loom::cell::UnsafeCell`, so loom explores the interleavings and the
//! weak-memory behaviours of the C++11 model that the PTX accesses map to (`.relaxed` →
//! `Relaxed`, `.acquire`/`.release`/`.acq_rel` → the same `Ordering`, `fence.sc` →
//! `fence(SeqCst)`). On top of that:
//!
//! * **Weak data races** (PTX ISA §8.7.1): two conflicting accesses to a `Data` that causality
//!   order does not order are reported with a panic whose message starts with
//!   `"ptx-sync model: data race on Data"` (loom's own diagnosis follows it).
//! * **Scope** (no other tool checks this): each loom thread has a [`Place`] — GPU, cluster, CTA.
//!   Two conflicting strong accesses are *morally strong* only if each one's scope includes the
//!   other's thread (§8.7); otherwise they behave like weak accesses, and if causality order does
//!   not order them that is a data race, reported with a panic whose message contains
//!   `"not morally strong"` and names both instructions and both places. An under-scoped
//!   release/acquire pair therefore does not silently synchronize: the flag accesses themselves
//!   are reported.
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
//! loom::model(|| {
//!     let a = model::spawn_in(0, 0, || { /* a thread of CTA 0 in cluster 0 */ });
//!     let b = model::spawn_in(0, 1, || { /* a thread of CTA 1 in cluster 0 */ });
//!     a.join().unwrap();
//!     b.join().unwrap();
//! });
//! ```
//!
//! A thread that was never placed (including loom's main thread) is alone in its own CTA and its
//! own cluster on GPU 0: `.gpu` and `.sys` accesses are morally strong with it, `.cta` and
//! `.cluster` ones from other threads are not. Place threads explicitly to model a CTA or a
//! cluster.
//!
//! # How it works
//!
//! Every strong access records, on its location, (thread, place, effective scope, read or
//! write, instruction text) together with a fresh `loom::cell::UnsafeCell<()>` created *before*
//! the access, whose creation stamp is the thread's vector clock at that point. A later access by
//! another thread that conflicts with a recorded one (one of them writes, an RMW counts as a
//! write) and is not morally strong with it reads that cell *before* performing its own access:
//! loom reports "concurrent read and write" exactly when the recorded access does not happen
//! before the new one — that is, when causality order does not order the pair. The report is
//! caught and re-raised with the ptx-sync message. Only the latest access per (thread, read or
//! write, scope) is kept: an earlier one is ordered before it by program order, so it adds
//! nothing.
//!
//! # Limits
//!
//! * **Fence scopes are not checked.** `fence::<S, Cta>()` is loom's `fence(S)` whatever its
//!   scope, so a fence whose scope is too narrow for the threads it should order is modelled as
//!   if it were wide enough. Write scoped *accesses* (or use the GPU runner) to test scope.
//! * **loom's memory model is C++11's, not PTX's.** It does not explore load buffering (a load
//!   returning a store that is later in causality), so R→W reorderings are not shown; it treats
//!   SeqCst *accesses* as AcqRel (this crate never emits them); its store history per location
//!   is bounded (7 stores).
//! * **Proxies are not modelled.** The generic and async proxies (seed §5.3) are the same
//!   memory here; a missing `fence.proxy.async` is only visible through the copy-engine analogues
//!   of the `loom-tests` crate.
//! * **Mixed-size races** (§8.7.1, partially overlapping accesses) cannot arise: every location is
//!   one scalar.
//! * Weak data races are reported only between `Data` accesses (and `Weak` accesses through an
//!   `AtomicRef`); loom's exploration is bounded by its `preemption_bound`.
extern crate std;

use std::boxed::Box;
use std::cell::Cell;
use std::format;
use std::panic::{self, AssertUnwindSafe};
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

loom::thread_local! {
    static PLACE: Cell<Option<Place>> = Cell::new(None);
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
    PLACE.with(|p| p.set(Some(place)))
}

/// The calling loom thread's place, `None` if it was never placed (then it is alone in its own
/// CTA and cluster on GPU 0).
pub fn place() -> Option<Place> {
    PLACE.with(|p| p.get())
}

/// `loom::thread::spawn`, the new thread placed in CTA `cta` of cluster `cluster` on GPU 0.
pub fn spawn_in<F, T>(cluster: u32, cta: u32, f: F) -> loom::thread::JoinHandle<T>
where
    F: FnOnce() -> T + 'static,
    T: 'static,
{
    spawn_at(
        Place {
            gpu: 0,
            cluster,
            cta,
        },
        f,
    )
}

/// `loom::thread::spawn`, the new thread placed at `place`.
pub fn spawn_at<F, T>(place: Place, f: F) -> loom::thread::JoinHandle<T>
where
    F: FnOnce() -> T + 'static,
    T: 'static,
{
    loom::thread::spawn(move || {
        set_place(place);
        f()
    })
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

/// Effective scope rank of an access: `Weak` → none (-1), `Volatile` → `.sys` (3), otherwise the
/// scope's `LEVEL`.
#[doc(hidden)]
pub fn effective_level(sem_name: &str, scope_level: u8) -> i8 {
    match sem_name {
        "Weak" => -1,
        "Volatile" => 3,
        _ => scope_level as i8,
    }
}

fn place_text(p: Option<Place>) -> String {
    match p {
        Some(p) => format!("{p}"),
        None => String::from("(unplaced)"),
    }
}

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
                     that causality order does not order (PTX ISA §8.7.1); loom: {}",
                    m.trim()
                ),
                _ => panic::resume_unwind(e as Box<dyn core::any::Any + Send>),
            }
        }
    }
}
