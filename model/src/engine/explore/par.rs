//! Exploring with several threads, with results that do not depend on how many
//! (`model/SEMANTICS.md` S9).
//!
//! The search tree is cut into *tasks*: the first state on each path whose *width* (the product
//! of the branch counts on the path from the root) reaches [`TASK_WIDTH`]. Every thread walks the
//! part above the tasks in the same depth-first order (it is the same search: nothing a thread
//! learns there depends on which tasks it explored), numbers the tasks as it meets them, and
//! explores a task only when it claims it first ([`Team::claim`]); the primary thread alone
//! checks the leaves above the tasks. What a task finds depends on the task alone: the races a
//! leaf check no longer looks for ([`super::Explorer`]'s `known_races`) are forgotten when a task
//! starts and restored when it ends. Each leaf gets its place in depth-first order ([`Pos`]), so
//! an observer that keeps "the first" of something keeps the smallest, and the results are the
//! same with one thread or many.
//!
//! The other threads are created only after the primary's first [`super::Limits::spawn_after`]
//! steps: a small check never leaves its thread.

use super::{Explorer, Limits, LocTerm, Observe, Program, State, Summary, World};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A leaf's place in depth-first order: (segment, index in the segment). Segment `2t + 1` is task
/// `t`; segment `2t` is the part above the tasks between tasks `t − 1` and `t`.
pub type Pos = (u64, u64);

/// The width at which a state becomes a task (a binary search tree: 64 tasks at depth 6).
pub(super) const TASK_WIDTH: u64 = 64;

/// What the threads of one exploration share.
pub(super) struct Team {
    /// The first task nobody has claimed.
    next: AtomicU64,
    /// Set when a thread stopped the exploration (a limit, something unsupported, a panic).
    stop: AtomicBool,
    /// Set when the primary has walked the whole tree: every task is claimed, a helper above
    /// the tasks has nothing left to find.
    walked: AtomicBool,
}

impl Team {
    pub(super) fn new() -> Self {
        Team {
            next: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            walked: AtomicBool::new(false),
        }
    }

    /// Claims task `t` (met by the caller after every task before it): true when nobody had.
    /// Every thread meets the tasks in the same order and moves `next` past each task it
    /// claims, so `next ≥ t` here and a task is claimed once.
    fn claim(&self, t: u64) -> bool {
        match self
            .next
            .compare_exchange(t, t + 1, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(cur) if cur > t => false,
            Err(cur) => panic!("internal: task {t} met while task {cur} is unclaimed"),
        }
    }
}

/// Stops the other threads when its thread panics (the scope would otherwise wait for their whole
/// search before raising the panic).
struct Ending<'a>(&'a Team);

impl Drop for Ending<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// One thread's part of the exploration.
pub(super) struct Part<'w> {
    shared: &'w Team,
    primary: bool,
    /// Starts the helpers (the primary's, until called).
    start: Option<&'w dyn Fn()>,
    /// The product of the branch counts on the current path (saturating).
    width: u64,
    /// The task being explored.
    task: Option<u64>,
    /// Tasks met so far.
    tasks: u64,
    /// Leaves observed so far in the current segment.
    seq: u64,
}

impl<'w> Part<'w> {
    pub(super) fn new(shared: &'w Team, primary: bool, start: Option<&'w dyn Fn()>) -> Self {
        Part {
            shared,
            primary,
            start,
            width: 1,
            task: None,
            tasks: 0,
            seq: 0,
        }
    }
    /// Whether this thread counts the current step (helpers count only their tasks' steps).
    pub(super) fn counts(&self) -> bool {
        self.primary || self.task.is_some()
    }
    /// Whether this thread checks the leaf it reached.
    pub(super) fn observes(&self) -> bool {
        self.primary || self.task.is_some()
    }
    /// The next observed leaf's place.
    pub(super) fn pos(&mut self) -> Pos {
        let seg = match self.task {
            Some(t) => 2 * t + 1,
            None => 2 * self.tasks,
        };
        self.seq += 1;
        (seg, self.seq - 1)
    }
    /// Starts the helpers (the primary, once its first steps are done).
    pub(super) fn start_helpers(&mut self) {
        if let Some(start) = self.start.take() {
            start();
        }
    }
    /// Whether this is a helper above the tasks after the primary met them all (it stops
    /// walking).
    pub(super) fn idle(&self) -> bool {
        !self.primary && self.task.is_none() && self.shared.walked.load(Ordering::Relaxed)
    }
    /// Whether some thread stopped the exploration.
    pub(super) fn stopped(&self) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
    }
    /// Stops every thread (a limit or something unsupported: the result is not complete).
    pub(super) fn stop(&self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }
    /// The primary is done: it has met every task.
    pub(super) fn finish(&self) {
        if self.primary {
            self.shared.walked.store(true, Ordering::Relaxed);
        }
    }
}

impl<'w, P: Program, O: Observe<P>> Explorer<'w, P, O> {
    /// Explores the states a branch point left, in order; each that makes its path
    /// [`TASK_WIDTH`] wide is a task, explored by the thread that claims it.
    pub(super) fn children(&mut self, v: Vec<State<P>>) {
        let width = self.part.width;
        let wide = width.saturating_mul(v.len().max(1) as u64);
        let above = self.part.task.is_none();
        for s in v {
            if self.abort {
                break;
            }
            self.part.width = wide;
            if above && wide >= TASK_WIDTH {
                let t = self.part.tasks;
                self.part.tasks += 1;
                self.part.seq = 0;
                if !self.part.shared.claim(t) {
                    continue;
                }
                self.part.task = Some(t);
                let known = std::mem::take(&mut self.known_races);
                self.explore(s);
                self.known_races = known;
                self.part.task = None;
                self.part.seq = 0;
            } else {
                self.explore(s);
            }
        }
        self.part.width = width;
    }

    /// [`Explorer::run`] on up to `limits.jobs` threads: `make` gives each thread its observer;
    /// returns each thread's summary and observer, the primary's first. Merge them with
    /// [`Summary::merge`] and, for what an observer keeps first, by [`super::Leaf::pos`]. The helpers
    /// start after the primary's first `limits.spawn_after` steps; each counts its own steps
    /// against `limits.max_steps`.
    pub fn run_jobs<F>(
        world: &'w World,
        threads: Vec<P>,
        terms: Vec<LocTerm>,
        limits: Limits,
        make: F,
    ) -> Vec<(Summary, O)>
    where
        P: Clone + Send,
        O: Send,
        F: Fn() -> O + Sync,
    {
        let team = Team::new();
        let jobs = limits.jobs.max(1);
        // The helpers' copies of the threads, taken before the primary's start.
        let spare = if jobs > 1 {
            threads.clone()
        } else {
            Vec::new()
        };
        std::thread::scope(|sc| {
            let handles = std::cell::RefCell::new(Vec::new());
            // Called once by the primary after its first `spawn_after` steps.
            let start = || {
                for _ in 1..jobs {
                    let (threads, terms, limits) = (spare.clone(), terms.clone(), limits.clone());
                    let (team, make) = (&team, &make);
                    let spawned = std::thread::Builder::new()
                        .name("ptx-sync-explore".into())
                        .stack_size(16 << 20)
                        .spawn_scoped(sc, move || {
                            // A helper's panic stops the others too (it is raised at the join).
                            let _ending = Ending(team);
                            let part = Part::new(team, false, None);
                            Explorer::run_part(world, threads, terms, limits, make(), part)
                        });
                    if let Ok(h) = spawned {
                        handles.borrow_mut().push(h);
                    }
                }
            };
            let first = {
                let _ending = Ending(&team);
                let part = Part::new(&team, true, Some(&start));
                Explorer::run_part(world, threads, terms.clone(), limits.clone(), make(), part)
            };
            let mut out = vec![first];
            for h in handles.into_inner() {
                match h.join() {
                    Ok(r) => out.push(r),
                    Err(e) => std::panic::resume_unwind(e),
                }
            }
            out
        })
    }
}

impl Summary {
    /// Adds what another thread of the same exploration found.
    pub fn merge(&mut self, o: Summary) {
        self.hangs.extend(o.hangs);
        self.flags.extend(o.flags);
        self.cut += o.cut;
        self.steps += o.steps;
        self.executions += o.executions;
        self.limit |= o.limit;
        // Two threads stopped by different things: the smaller message, whichever came first.
        self.unsupported = match (self.unsupported.take(), o.unsupported) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

/// Things kept in the order of the first leaf that found each ([`super::Leaf::pos`]), then of finding
/// within that leaf.
#[derive(Clone, Debug)]
pub struct First<T> {
    items: Vec<((Pos, u32), T)>,
}

impl<T> Default for First<T> {
    fn default() -> Self {
        First { items: Vec::new() }
    }
}

impl<T: PartialEq> First<T> {
    /// Notes `x`, found by the leaf at `pos` (the `k`-th thing that leaf found).
    pub fn note(&mut self, pos: Pos, k: u32, x: T) {
        match self.items.iter_mut().find(|(_, y)| *y == x) {
            Some((at, _)) => *at = (*at).min((pos, k)),
            None => self.items.push(((pos, k), x)),
        }
    }
    /// Whether `x` was noted.
    pub fn contains(&self, x: &T) -> bool {
        self.items.iter().any(|(_, y)| y == x)
    }
    /// The things, first found first.
    pub fn into_vec(mut self) -> Vec<T> {
        self.items.sort_by_key(|(at, _)| *at);
        self.items.into_iter().map(|(_, x)| x).collect()
    }
}

/// Merges what several threads noted ([`First::note`]).
pub fn merge_first<T: PartialEq>(parts: impl IntoIterator<Item = First<T>>) -> First<T> {
    let mut out = First::default();
    for p in parts {
        for ((pos, k), x) in p.items {
            out.note(pos, k, x);
        }
    }
    out
}

/// The thing found by the earliest leaf in depth-first order ([`super::Leaf::pos`]) that offered
/// one: with one thread, the first offered.
#[derive(Clone, Debug)]
pub struct Earliest<T>(Option<(Pos, T)>);

impl<T> Default for Earliest<T> {
    fn default() -> Self {
        Earliest(None)
    }
}

impl<T> Earliest<T> {
    /// Keeps `make()` when the leaf at `pos` comes before the one kept (made only then).
    pub fn offer(&mut self, pos: Pos, make: impl FnOnce() -> T) {
        if self.0.as_ref().is_none_or(|(p, _)| pos < *p) {
            self.0 = Some((pos, make()));
        }
    }
    /// Keeps the earlier of the two.
    pub fn merge(&mut self, o: Earliest<T>) {
        if let Some((pos, x)) = o.0 {
            self.offer(pos, || x);
        }
    }
    /// The thing kept.
    pub fn into_inner(self) -> Option<T> {
        self.0.map(|(_, x)| x)
    }
}
