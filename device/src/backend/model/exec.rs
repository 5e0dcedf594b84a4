//! Per-execution state, threads, spins and `check`: how a model is run.

#[allow(unused_imports)]
use super::*;

// ---------------------------------------------------------------------------------------------
// Per-execution state
// ---------------------------------------------------------------------------------------------

/// Pool cells per execution: one per release-capable fence executed.
pub(super) const POOL: usize = 48;

/// Scheduler bookkeeping of one loom execution (invisible to loom: it orders nothing).
pub(super) struct Sched {
    /// Threads that may still make progress on their own: alive, and neither spinning in a
    /// model spin nor joining. The model's main thread counts from the start.
    pub(super) live: usize,
    /// A spinner gave up because the schedule starved a live thread.
    pub(super) abandoned: bool,
    /// Bumped whenever some thread does something other than fail a spin check.
    pub(super) epoch: u64,
    /// Threads spinning in a model spin.
    pub(super) waiting: usize,
    /// How many of them have failed [`SPIN_LIMIT`] checks in a row at epoch `exhausted_epoch`.
    pub(super) exhausted: usize,
    pub(super) exhausted_epoch: u64,
}

pub(super) struct ScRec {
    pub(super) who: Who,
    pub(super) level: u8,
    pub(super) cell: usize,
    pub(super) universal: bool,
}

pub(super) struct Exec {
    pub(super) sched: Sched,
    /// Pool of loom atomics created at the start of the execution (so that every thread's
    /// access to them is ordered after their creation); a fence deposits its clock in one with
    /// a `Release` store, a thread it synchronizes with joins that clock with a failing
    /// `Acquire` compare-exchange.
    pub(super) cells: Option<Rc<Vec<loom::sync::atomic::AtomicUsize>>>,
    pub(super) next_cell: usize,
    /// The fence.sc operations so far, in execution order (a Fence-SC order, PTX ISA §8.9.3).
    pub(super) sc: Vec<ScRec>,
    /// Places of the threads started so far (`None`: unplaced).
    pub(super) registered: Vec<Option<Place>>,
    /// Largest distance between two registered threads: a fence whose level is at least this
    /// includes every thread, and runs as loom's own fence.
    pub(super) d: u8,
    /// Lowest level of a fence that ran as loom's own fence (4: none yet).
    pub(super) min_native: u8,
    pub(super) min_native_what: &'static str,
    /// The thread that started this state (loom's main thread of the execution).
    pub(super) main: Option<loom::thread::ThreadId>,
    /// The copy engine's copies in flight and the execution's tiles (`copy/engine.rs`).
    pub(super) engine: crate::backend::copy_engine::EngineState,
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

    pub(super) fn recompute_d(&mut self) {
        let mut d = 0;
        for (i, a) in self.registered.iter().enumerate() {
            for b in &self.registered[i + 1..] {
                d = d.max(distance(*a, *b));
            }
        }
        self.d = d;
    }

    pub(super) fn set_slot(&mut self, slot: usize, p: Option<Place>) {
        self.registered[slot] = p;
        self.recompute_d();
        self.check_native(p);
    }

    pub(super) fn register(&mut self, p: Option<Place>) -> usize {
        self.registered.push(p);
        self.recompute_d();
        self.check_native(p);
        self.registered.len() - 1
    }

    pub(super) fn check_native(&self, p: Option<Place>) {
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

pub(super) fn with_exec<R>(f: impl FnOnce(&mut Exec) -> R) -> R {
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
pub(super) fn start_execution() {
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
pub(super) fn ensure_registered() -> usize {
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

pub(super) fn cells() -> Rc<Vec<loom::sync::atomic::AtomicUsize>> {
    ensure_registered();
    with_exec(|e| e.cells.clone().expect("model state"))
}

pub(super) fn alloc_cell(what: &'static str) -> usize {
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
pub(super) fn deposit(cells: &[loom::sync::atomic::AtomicUsize], c: usize) {
    cells[c].store(1, Ordering::Release);
}

/// Joins the clock deposited in cell `c` (a failing `Acquire` compare-exchange reads the latest
/// store, the deposit, without writing).
pub(super) fn join(cells: &[loom::sync::atomic::AtomicUsize], c: usize) {
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

pub(super) enum Verdict {
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

pub(super) fn start<T: 'static>(
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
