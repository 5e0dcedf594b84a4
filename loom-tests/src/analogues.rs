//! CPU analogues of the seed's §5 hardware that the library does not model on the CPU (the copy
//! engine, proxies) for loom, and the thin wrappers of `ptx_sync::model` the tests use (`check`,
//! `spin_until`, `spawn*`). The hand-off state and runner that used to live here are retired:
//! the hand-off is `ptx_sync_programs::handoff`, run by [`crate::programs::handoff`]. The mbarrier and `bar` stand-ins that used to live here are retired:
//! the library's `Mbarrier`, `RemoteMbarrier`, `NamedBarrier` and `ClusterBarrier` report to the
//! scope model themselves.
//!
//! The analogues are built only from `ptx-sync`'s API (`Strong`, `Data`) and loom's `Mutex`, so
//! everything they do is model-checked, and their strong accesses are scope-checked by
//! `ptx_sync::model`.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering as StdOrdering};

use loom::sync::{Arc, Mutex};
use ptx_sync::model::{self, Place};
use ptx_sync::Data;

pub use ptx_sync::model::{spawn, spawn_at, spawn_in, Explored, Handle, SPIN_LIMIT};

/// Runs `f` as a loom model with the given preemption bound (every test states its bound):
/// [`ptx_sync::model::check`], which resets the model per execution, counts the executions that
/// a model spin abandoned because loom's schedule starved a thread (printed on stderr), and fails
/// if every execution was abandoned. Every other panic fails the test.
pub fn check<F>(preemption_bound: usize, f: F)
where
    F: Fn() + Sync + Send + 'static,
{
    model::check(preemption_bound, f);
}

/// Runs `f` and asserts that it panics with a message containing one of `expected` (for bugs that
/// show up either as a stale value or as a race report, depending on the schedule loom meets
/// first).
pub fn assert_caught(f: impl FnOnce() + std::panic::UnwindSafe, expected: &[&str]) {
    let err = std::panic::catch_unwind(f).expect_err("the model did not catch the bug");
    let msg = err
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(
        expected.iter().any(|e| msg.contains(e)),
        "caught, but with an unexpected message: {msg:?} (expected one of {expected:?})"
    );
}

/// Runs `f` and asserts that it panics with a message containing every one of `parts` (the exact
/// pieces of a report whose thread order depends on the schedule).
pub fn assert_caught_all(f: impl FnOnce() + std::panic::UnwindSafe, parts: &[&str]) {
    let err = std::panic::catch_unwind(f).expect_err("the model did not catch the bug");
    let msg = err
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    for p in parts {
        assert!(
            msg.contains(p),
            "caught, but the message {msg:?} lacks {p:?}"
        );
    }
}

/// Spins (with `loom::thread::yield_now`) until `done()`: [`ptx_sync::model::spin_until`]. A wait
/// that no thread can end panics with `"deadlock: {what} (no thread can make it true)"` (also
/// when it is a library wait inside `done`, e.g. `Pipeline::consumer_wait`: the outermost label
/// names it); a schedule that starves a thread abandons the execution (counted by [`check`]).
///
/// Threads must be started with [`spawn`], [`spawn_in`] or [`spawn_at`] and joined with
/// [`Handle::join`], so that the bookkeeping knows who can make progress.
pub fn spin_until(what: &str, done: impl FnMut() -> bool) {
    model::spin_until(what, done)
}

fn spin(done: impl FnMut() -> bool) -> bool {
    model::spin(done)
}

fn live(d: isize) {
    model::sched_live(d)
}

// ---------------------------------------------------------------------------------------------
// Copy engine (cp.async, TMA)
// ---------------------------------------------------------------------------------------------

type Cmd = Box<dyn FnOnce()>;

struct Queue {
    cmds: VecDeque<Cmd>,
    issued: usize,
    done: usize,
    shutdown: bool,
}

/// A copy engine: a loom thread that performs the asynchronous copies issued to it, one after
/// the other. Issuing is ordered after the issuer's earlier accesses (an async operation is
/// ordered after the preceding instructions of its thread, PTX ISA §8.9.1.1), but nothing orders
/// the copy before the issuer's later accesses except a completion mechanism: [`wait_all`]
/// (`cp.async.wait_all`, seed §5.1) or an mbarrier's `complete_tx` (TMA, seed §5.2; the library's
/// `ptx_sync::Mbarrier`).
///
/// The queue is a loom `Mutex` (issue → copy is ordered, as on the GPU); the engine waits for
/// work with [`spin_until`].
///
/// [`wait_all`]: CopyEngine::wait_all
pub struct CopyEngine {
    q: Arc<Mutex<Queue>>,
    handle: Mutex<Option<Handle<()>>>,
}

impl CopyEngine {
    /// Starts the engine thread, placed at `place` (the SM of the issuing CTA).
    pub fn start(place: Place) -> Self {
        let q = Arc::new(Mutex::new(Queue {
            cmds: VecDeque::new(),
            issued: 0,
            done: 0,
            shutdown: false,
        }));
        let q2 = q.clone();
        let handle = spawn_at(place, move || loop {
            let mut cmd = None;
            let mut stop = false;
            let woke = spin(|| {
                let mut g = q2.lock().unwrap();
                cmd = g.cmds.pop_front();
                stop = g.shutdown;
                cmd.is_some() || stop
            });
            match cmd {
                Some(c) => {
                    c();
                    q2.lock().unwrap().done += 1;
                    live(-1);
                }
                // Shut down, or idle while every other thread waits: nothing will be issued.
                None if stop || !woke => return,
                None => {}
            }
        });
        CopyEngine {
            q,
            handle: Mutex::new(Some(handle)),
        }
    }

    /// Issues an asynchronous copy: `copy` runs later on the engine thread.
    pub fn issue(&self, copy: impl FnOnce() + 'static) {
        let mut g = self.q.lock().unwrap();
        g.cmds.push_back(Box::new(copy));
        g.issued += 1;
        live(1);
    }

    /// `cp.async.wait_all;` — waits until every copy issued so far has completed; the copies'
    /// writes are then visible to the calling thread (only to it: hand them to others with a
    /// barrier, seed §5.1).
    pub fn wait_all(&self) {
        let target = self.q.lock().unwrap().issued;
        spin_until("cp.async.wait_all: a copy never completes", || {
            self.q.lock().unwrap().done >= target
        });
    }

    /// Stops the engine after the queued copies and joins its thread (call from the model's
    /// main thread at the end).
    pub fn shutdown(&self) {
        self.q.lock().unwrap().shutdown = true;
        if let Some(h) = self.handle.lock().unwrap().take() {
            h.join();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Proxies
// ---------------------------------------------------------------------------------------------

loom::thread_local! {
    static UNFENCED: RefCell<Vec<std::sync::Arc<AtomicBool>>> = RefCell::new(Vec::new());
}

/// `fence.proxy.async;` (seed §5.3): the calling thread's earlier generic-proxy accesses become
/// ordered, for the async proxy, with what follows it in causality order.
pub fn fence_proxy_async() {
    UNFENCED.with(|u| {
        for f in u.borrow_mut().drain(..) {
            f.store(true, StdOrdering::SeqCst);
        }
    });
}

/// Ordinary data (a shared-memory tile) written by the async proxy (the copy engine's TMA) and
/// read or written by threads through the generic proxy.
///
/// Causality order carries over from the generic proxy to the async proxy only through a proxy
/// fence (PTX ISA §8.9.1.2, proxy-preserved causality; seed §5.3): [`ProxyTile::write_async`]
/// panics with `"proxy race"` if some thread's generic access to the tile is not followed, in
/// that thread, by [`fence_proxy_async`] before the async write. Whether the fence itself is
/// ordered before the write is left to loom's race check on the underlying [`Data`]. The
/// async → generic direction needs no fence: the completion of the async operation (observed
/// through an mbarrier) includes it (seed §5.2).
pub struct ProxyTile<T> {
    data: Data<T>,
    generic: std::sync::Mutex<Vec<(&'static str, std::sync::Arc<AtomicBool>)>>,
    _t: PhantomData<T>,
}

unsafe impl<T: Send> Sync for ProxyTile<T> {}

impl<T: Copy> ProxyTile<T> {
    /// A tile initialised to `v` (before any thread starts).
    pub fn new(v: T) -> Self {
        ProxyTile {
            data: Data::new(v),
            generic: std::sync::Mutex::new(Vec::new()),
            _t: PhantomData,
        }
    }

    fn note_generic(&self, what: &'static str) {
        let f = std::sync::Arc::new(AtomicBool::new(false));
        UNFENCED.with(|u| u.borrow_mut().push(f.clone()));
        self.generic.lock().unwrap().push((what, f));
    }

    /// A generic-proxy `ld` of the tile.
    ///
    /// # Safety
    /// As [`Data::read`]: loom reports a read that races.
    pub unsafe fn read(&self) -> T {
        self.note_generic("ld");
        self.data.read()
    }

    /// A generic-proxy `st` to the tile.
    ///
    /// # Safety
    /// As [`Data::write`].
    pub unsafe fn write(&self, v: T) {
        self.note_generic("st");
        self.data.write(v)
    }

    /// The async proxy's write (TMA, run by the [`CopyEngine`]).
    ///
    /// # Safety
    /// As [`Data::write`].
    pub unsafe fn write_async(&self, v: T) {
        {
            let mut g = self.generic.lock().unwrap();
            if let Some((what, _)) = g.iter().find(|(_, f)| !f.load(StdOrdering::SeqCst)) {
                let what = *what;
                g.clear();
                drop(g);
                panic!(
                    "proxy race: an async-proxy write (TMA) follows a generic-proxy `{what}` of \
                     the same shared memory with no fence.proxy.async in between (seed §5.3, \
                     PTX ISA §8.9.1.2)"
                );
            }
            g.clear();
        }
        self.data.write(v)
    }
}
