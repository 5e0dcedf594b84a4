//! Host backend of [`index::launch`](crate::index::launch): the shared memory a simulated CTA
//! owns, the supervisor of one launch (which threads returned, which wait in a host barrier, the
//! launch's first failure), and the blocking wait of the host barriers.
//!
//! * **Shared memory** ([`SmemBlock`]): a CTA's dynamic window and its copy of each
//!   `shared_array!` are raw, zeroed, 1024-aligned allocations whose address is handed out: no
//!   Rust reference or `Box` claims the bytes, so the threads' accesses through the address (an
//!   `&Mbarrier` of [`SharedArray::get`](crate::shared::SharedArray::get), an
//!   `AtomicRef::from_ptr`) are the only ones (sound under Miri's Stacked and Tree Borrows).
//! * **Blocking** ([`block_while`], [`wake`]): a host barrier's waiter spins briefly, then sleeps
//!   on a condition variable (one of [`STRIPES`], chosen by the barrier's address) until the
//!   barrier's completion wakes it. No CPU is burnt while a CTA of 256 threads waits.
//! * **Supervision** ([`Supervisor`], not under `--cfg loom`, where loom checks the model
//!   threads): a panic in one thread of a launch, or a deadlock (every thread that has not
//!   returned waits in a host barrier that no completion has reached since it looked), ends the
//!   waits of every other thread of the launch, and the launch reports it
//!   ([`LaunchError`](crate::index::LaunchError)). A barrier that only a returned thread could
//!   complete is a deadlock here, as loom reports it (`deadlock: bar.sync: …`): the host and the
//!   model are stricter than the hardware, which releases a barrier waiting only on exited
//!   threads (PTX ISA §9.7.12.7) — a kernel relying on that is reported, not run.
//!
//! The supervisor counts the launch's own threads: a barrier of a launch is completed by the
//! launch's threads (an arrival from a thread outside it can come too late to be seen).

use std::alloc::Layout;
use std::string::String;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::vec::Vec;

use crate::index::Identity;

/// A zeroed, 1024-aligned block of host "shared memory" (at least one byte), freed on drop. Its
/// [`addr`](Self::addr) exposes the allocation's provenance: users rebuild pointers from it.
pub(crate) struct SmemBlock {
    p: core::ptr::NonNull<u8>,
    layout: Layout,
}

// SAFETY: raw memory handed out as an address; its users synchronize (as shared memory's users
// do on the GPU).
unsafe impl Send for SmemBlock {}
unsafe impl Sync for SmemBlock {}

impl SmemBlock {
    /// `bytes` zeroed bytes (one at least), or `None` if the host cannot allocate them.
    pub(crate) fn zeroed(bytes: usize) -> Option<Self> {
        let layout = Layout::from_size_align(bytes.max(1), 1024).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let p = core::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        Some(SmemBlock { p, layout })
    }
    /// The block's address (exposes its provenance, so `usize as *mut T` reaches it).
    pub(crate) fn addr(&self) -> usize {
        self.p.as_ptr() as usize
    }
}

impl Drop for SmemBlock {
    fn drop(&mut self) {
        // SAFETY: allocated by `zeroed` with this layout.
        unsafe { std::alloc::dealloc(self.p.as_ptr(), self.layout) }
    }
}

/// What a blocked thread waits for, for the deadlock message: the wait's text (`bar.sync: …`),
/// the barrier id (a named barrier) and the number of threads it expects.
#[derive(Clone, Copy, Debug)]
pub(crate) struct What {
    pub(crate) text: &'static str,
    pub(crate) id: Option<u32>,
    pub(crate) count: u32,
}

impl core::fmt::Display for What {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.id {
            Some(id) => write!(f, "{} (barrier {id}, {} threads)", self.text, self.count),
            None => write!(f, "{} ({} threads)", self.text, self.count),
        }
    }
}

/// One condition variable per stripe of barrier addresses: a waiter sleeps on its barrier's,
/// a completion wakes it (and the other waiters of that stripe, which look again).
struct Stripe {
    m: Mutex<()>,
    c: Condvar,
}

/// The number of stripes.
const STRIPES: usize = 64;

static PARK: [Stripe; STRIPES] = [const {
    Stripe {
        m: Mutex::new(()),
        c: Condvar::new(),
    }
}; STRIPES];

fn stripe(key: usize) -> &'static Stripe {
    &PARK[(key >> 3) % STRIPES]
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Wakes every waiter of stripe `s` (after taking its lock, so a waiter that has just found its
/// barrier incomplete is already asleep and gets the notification).
fn notify(s: &Stripe) {
    drop(lock(&s.m));
    s.c.notify_all();
}

/// Spins before a waiter sleeps (a barrier that completes at once costs no sleep).
const SPINS: u32 = 64;

/// How long a waiter sleeps before it looks again without being woken (a safety net: every
/// completion, failure and deadlock check wakes the waiters it concerns).
const TICK: std::time::Duration = std::time::Duration::from_millis(500);

/// The payload a waiting thread unwinds with when its launch has failed: not a panic of its
/// own (no panic message is printed; the launch reports the first failure).
pub(crate) struct Aborted;

/// Waits while `cond()` holds: spins [`SPINS`] times, then sleeps on the stripe of `key` (the
/// barrier's address) until [`wake`]`(key)`. Inside a supervised launch the wait is registered,
/// so a deadlock is detected and reported, and it ends (unwinding with [`Aborted`]) when the
/// launch fails.
pub(crate) fn block_while(what: What, key: usize, mut cond: impl FnMut() -> bool) {
    for _ in 0..SPINS {
        if !cond() {
            return;
        }
        core::hint::spin_loop();
    }
    let sup = super::cta::supervisor();
    let token = Waiter::token();
    let s = stripe(key);
    loop {
        // The epoch is read before the condition: a completion after this read bumps it.
        let epoch = sup.as_ref().map_or(0, |v| v.epoch());
        if !cond() {
            break;
        }
        if let Some(v) = sup.as_ref().filter(|v| !v.wait(token, what, key, epoch)) {
            v.unwait(token);
            std::panic::resume_unwind(std::boxed::Box::new(Aborted));
        }
        let g = lock(&s.m);
        if !cond() {
            break;
        }
        if sup.as_ref().is_some_and(|v| v.failed()) {
            drop(g);
            continue; // `wait` above reports the failure
        }
        drop(s.c.wait_timeout(g, TICK).unwrap_or_else(|e| e.into_inner()));
    }
    if let Some(v) = &sup {
        v.unwait(token);
    }
}

/// After a completion of the barrier at `key`: every waiter of a launch looks again, and the
/// ones sleeping on that barrier are woken.
pub(crate) fn wake(key: usize) {
    if let Some(v) = super::cta::supervisor() {
        v.progress();
    }
    notify(stripe(key));
}

/// One registered wait of a supervised launch.
struct Waiter {
    token: u64,
    id: Identity,
    what: What,
    key: usize,
    /// The supervisor's epoch when the waiter last found its barrier incomplete.
    epoch: u64,
}

impl Waiter {
    fn token() -> u64 {
        use core::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        NEXT.fetch_add(1, Ordering::Relaxed)
    }
}

/// The first failure of a launch.
pub(crate) enum Failure {
    /// A thread panicked: its place, message and payload (resumed by `launch`).
    Panicked {
        id: Identity,
        message: String,
        payload: std::boxed::Box<dyn core::any::Any + Send>,
    },
    /// Every thread still running waits in a barrier nothing can complete.
    Deadlock(String),
    /// The host could not start a thread.
    Resources(String),
}

struct State {
    /// Bumped by every barrier completion of the launch.
    epoch: u64,
    /// Threads whose kernel has returned or unwound.
    finished: u32,
    waiting: Vec<Waiter>,
    failure: Option<Failure>,
}

/// The supervisor of one launch of `threads` threads.
pub(crate) struct Supervisor {
    threads: u32,
    failed: core::sync::atomic::AtomicBool,
    st: Mutex<State>,
}

/// What a deadlock check asks for, after the supervisor's lock is released.
enum Check {
    Nothing,
    /// Every unfinished thread waits, but these stripes' waiters looked before the last
    /// completion: they look again (and register again if still blocked).
    Poke(Vec<usize>),
    /// A deadlock (recorded as the failure): every waiter is woken to unwind.
    Failed,
}

impl Supervisor {
    pub(crate) fn new(threads: u32) -> Arc<Self> {
        Arc::new(Supervisor {
            threads,
            failed: core::sync::atomic::AtomicBool::new(false),
            st: Mutex::new(State {
                epoch: 0,
                finished: 0,
                waiting: Vec::new(),
                failure: None,
            }),
        })
    }

    fn epoch(&self) -> u64 {
        lock(&self.st).epoch
    }

    fn progress(&self) {
        lock(&self.st).epoch += 1;
    }

    fn failed(&self) -> bool {
        self.failed.load(core::sync::atomic::Ordering::Acquire)
    }

    /// Records `failure` if it is the first; wakes every waiter.
    pub(crate) fn fail(&self, failure: Failure) {
        {
            let mut st = lock(&self.st);
            if st.failure.is_none() {
                st.failure = Some(failure);
            }
        }
        self.failed
            .store(true, core::sync::atomic::Ordering::Release);
        PARK.iter().for_each(notify);
    }

    /// Registers (or refreshes) the calling thread's wait; `false` if the launch has failed.
    fn wait(&self, token: u64, what: What, key: usize, epoch: u64) -> bool {
        let check = {
            let mut st = lock(&self.st);
            if st.failure.is_some() {
                return false;
            }
            match st.waiting.iter_mut().find(|w| w.token == token) {
                Some(w) => w.epoch = epoch,
                None => st.waiting.push(Waiter {
                    token,
                    id: crate::index::identity(),
                    what,
                    key,
                    epoch,
                }),
            }
            self.check(&mut st)
        };
        self.act(check)
    }

    fn unwait(&self, token: u64) {
        lock(&self.st).waiting.retain(|w| w.token != token);
    }

    /// The calling thread's kernel has returned (`None`) or panicked.
    pub(crate) fn finish(&self, panic: Option<std::boxed::Box<dyn core::any::Any + Send>>) {
        if let Some(payload) = panic {
            if payload.is::<Aborted>() {
                // Unwound because the launch had already failed.
                lock(&self.st).finished += 1;
                return;
            }
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| String::from(*s))
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| String::from("(a panic payload that is not a string)"));
            let id = crate::index::identity();
            lock(&self.st).finished += 1;
            self.fail(Failure::Panicked {
                id,
                message,
                payload,
            });
            return;
        }
        let check = {
            let mut st = lock(&self.st);
            st.finished += 1;
            self.check(&mut st)
        };
        self.act(check);
    }

    /// Under the lock: is every unfinished thread waiting, and has no completion happened since
    /// each of them looked? Then it is a deadlock, recorded here.
    fn check(&self, st: &mut State) -> Check {
        if st.failure.is_some()
            || st.waiting.is_empty()
            || st.finished as usize + st.waiting.len() < self.threads as usize
        {
            return Check::Nothing;
        }
        let stale: Vec<usize> = st
            .waiting
            .iter()
            .filter(|w| w.epoch != st.epoch)
            .map(|w| w.key)
            .collect();
        if !stale.is_empty() {
            return Check::Poke(stale);
        }
        st.failure = Some(Failure::Deadlock(deadlock_message(st)));
        Check::Failed
    }

    /// Carries out a check's outcome; `false` if the launch has failed.
    fn act(&self, check: Check) -> bool {
        match check {
            Check::Nothing => true,
            Check::Poke(keys) => {
                keys.into_iter().for_each(|k| notify(stripe(k)));
                true
            }
            Check::Failed => {
                self.failed
                    .store(true, core::sync::atomic::Ordering::Release);
                PARK.iter().for_each(notify);
                false
            }
        }
    }

    /// The launch's failure, if any (after every thread has been joined).
    pub(crate) fn take_failure(&self) -> Option<Failure> {
        lock(&self.st).failure.take()
    }
}

/// `deadlock: <the first waiter's wait>: N threads wait (CTA … thread …, …), M returned`.
fn deadlock_message(st: &State) -> String {
    use core::fmt::Write;
    let mut m = String::new();
    let first = &st.waiting[0];
    let _ = write!(
        m,
        "deadlock: {}: {} thread(s) wait for ever",
        first.what,
        st.waiting.len()
    );
    for (k, w) in st.waiting.iter().take(4).enumerate() {
        let (c, t) = (w.id.ctaid, w.id.tid);
        let _ = write!(
            m,
            "{} CTA ({}, {}, {}) thread ({}, {}, {})",
            if k == 0 { ":" } else { "," },
            c.x,
            c.y,
            c.z,
            t.x,
            t.y,
            t.z,
        );
    }
    if st.waiting.len() > 4 {
        let _ = write!(m, ", …");
    }
    let _ = write!(m, "; {} thread(s) returned without arriving", st.finished);
    m
}
