//! CPU analogues of the seed's §5 hardware (copy engine, mbarrier, `bar`, proxies) for loom.
//!
//! They are built only from `ptx-sync`'s API (`Strong`, `Data`, `AtomicRef`) and loom's
//! `Mutex`/`Condvar`, so everything they do is model-checked, and their strong accesses are
//! scope-checked by `ptx_sync::model`.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering as StdOrdering};

use loom::sync::{Arc, Condvar, Mutex};
use ptx_sync::model::{self, Place};
use ptx_sync::{AcqRel, Acquire, Cluster, Cta, Data, Relaxed, Release, Strong};

/// Runs `f` under loom with the given preemption bound (every test states its bound).
pub fn check<F>(preemption_bound: usize, f: F)
where
    F: Fn() + Sync + Send + 'static,
{
    let mut b = loom::model::Builder::new();
    b.preemption_bound = Some(preemption_bound);
    b.check(f);
}

/// How many times [`spin_until`] yields before it declares a deadlock. After a `yield_now`,
/// loom lets the other threads run and stops returning stale values already seen, so a wait
/// that some thread can end ends well within this bound.
pub const SPIN_LIMIT: usize = 12;

/// Spins (with `loom::thread::yield_now`) until `done()`; panics with `"deadlock: {what}"` when
/// it is still false after [`SPIN_LIMIT`] yields, i.e. when no thread can make it true.
pub fn spin_until(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..SPIN_LIMIT {
        if done() {
            return;
        }
        loom::thread::yield_now();
    }
    if done() {
        return;
    }
    panic!("deadlock: {what} (still false after {SPIN_LIMIT} yields; no thread can change it)");
}

// ---------------------------------------------------------------------------------------------
// Scopes of mbarrier/bar operations
// ---------------------------------------------------------------------------------------------

/// The scope of an mbarrier operation: `.cta` (the default) or `.cluster` (PTX ISA §9.7.13.15).
pub trait MbScope: ptx_sync::sem::Scope {
    #[doc(hidden)]
    fn sub<const REL: bool>(w: &Strong<u64>, v: u64) -> u64;
    #[doc(hidden)]
    fn add<const REL: bool>(w: &Strong<u64>, v: u64) -> u64;
    #[doc(hidden)]
    fn load_acquire(w: &Strong<u64>) -> u64;
}

macro_rules! mb_scope {
    ($($S:ident),*) => {$(
        impl MbScope for $S {
            fn sub<const REL: bool>(w: &Strong<u64>, v: u64) -> u64 {
                if REL { w.at::<$S>().fetch_sub::<Release>(v) } else { w.at::<$S>().fetch_sub::<Relaxed>(v) }
            }
            fn add<const REL: bool>(w: &Strong<u64>, v: u64) -> u64 {
                if REL { w.at::<$S>().fetch_add::<Release>(v) } else { w.at::<$S>().fetch_add::<Relaxed>(v) }
            }
            fn load_acquire(w: &Strong<u64>) -> u64 {
                w.at::<$S>().load::<Acquire>()
            }
        }
    )*};
}
mb_scope!(Cta, Cluster);

// ---------------------------------------------------------------------------------------------
// mbarrier
// ---------------------------------------------------------------------------------------------

const LOW: u64 = 0xffff_ffff;

/// An mbarrier analogue (PTX ISA §9.7.13.15): expected arrival count, transaction bytes, phase.
///
/// One `Strong<u64>` word: the completed-phase count in the high 32 bits, the *outstanding* work
/// (pending arrivals + pending transaction bytes) in the low 32 bits. A phase completes when the
/// outstanding work reaches zero: the operation that brings it to zero flips the phase and
/// re-arms the count with a second RMW, so every arrival's release reaches a `try_wait` that reads
/// the new phase through the RMW chain (seed §4.4, §5.2). `arrive` is `.release` and `try_wait`
/// `.acquire`, each at the scope the call names ([`Cta`] by default in PTX; seed §5.4).
///
/// Initialisation is the constructor; publish the barrier to the threads by creating it before
/// spawning them (the model does not check `fence.mbarrier_init`).
pub struct MBarrier {
    word: Strong<u64>,
    count: u32,
    /// The CTA whose shared memory holds the barrier: the copy engine's `complete_tx` is
    /// performed there.
    home: Place,
}

impl MBarrier {
    /// `mbarrier.init [bar], count` in the shared memory of CTA `home`.
    pub fn new(count: u32, home: Place) -> Self {
        assert!(count >= 1);
        MBarrier { word: Strong::new(count as u64), count, home }
    }

    fn after<S: MbScope, const REL: bool>(&self, old: u64, delta_down: u64) -> u64 {
        let phase = old >> 32;
        let outstanding = (old & LOW).wrapping_sub(delta_down) & LOW;
        if outstanding == 0 {
            // Complete the phase: phase + 1, outstanding = count.
            S::add::<REL>(&self.word, (1u64 << 32) + self.count as u64);
        }
        phase
    }

    /// `mbarrier.arrive.release.{cta,cluster}.shared{::cluster}.b64 state, [bar];` — returns the
    /// phase it arrived on.
    pub fn arrive<S: MbScope>(&self) -> u64 {
        let old = S::sub::<true>(&self.word, 1);
        self.after::<S, true>(old, 1)
    }

    /// `mbarrier.arrive.expect_tx.release.{scope}.shared::cta.b64 state, [bar], bytes;`
    pub fn arrive_expect_tx<S: MbScope>(&self, bytes: u32) -> u64 {
        assert!(bytes >= 1);
        let old = S::add::<true>(&self.word, bytes as u64 - 1);
        self.after::<S, true>(old, 0u64.wrapping_sub(bytes as u64 - 1))
    }

    /// The `complete_tx` of an async copy (`.mbarrier::complete_tx::bytes`), done by the copy
    /// engine, as if in the barrier's CTA, with release semantics at cluster scope.
    pub fn complete_tx(&self, bytes: u32) {
        let was = model::place();
        model::set_place(self.home);
        let old = Cluster::sub::<true>(&self.word, bytes as u64);
        self.after::<Cluster, true>(old, bytes as u64);
        if let Some(p) = was {
            model::set_place(p);
        }
    }

    /// `mbarrier.try_wait.parity.acquire.{scope}.shared::cta.b64 done, [bar], parity;` — true
    /// once the phase with parity `parity` has completed (the current phase has the other
    /// parity).
    pub fn try_wait_parity<S: MbScope>(&self, parity: u32) -> bool {
        let w = S::load_acquire(&self.word);
        ((w >> 32) & 1) as u32 != parity
    }

    /// `try_wait_parity` in a bounded spin ([`spin_until`]).
    pub fn wait_parity<S: MbScope>(&self, parity: u32, what: &str) {
        spin_until(what, || self.try_wait_parity::<S>(parity));
    }
}

// ---------------------------------------------------------------------------------------------
// bar.sync / bar.arrive
// ---------------------------------------------------------------------------------------------

/// A single-use named barrier of one CTA (`bar.arrive` / `bar.sync`, PTX ISA §9.7.13.1): the
/// arrive is a release, the sync an acquire, both at `.cta` scope (the barrier's scope is fixed to
/// the CTA; seed §5.1 footnote 34).
pub struct CtaBarrier {
    count: Strong<u32>,
    expected: u32,
}

impl CtaBarrier {
    /// `expected` threads take part.
    pub fn new(expected: u32) -> Self {
        CtaBarrier { count: Strong::new(0), expected }
    }
    /// `bar.arrive id, n;` — arrive without waiting (release).
    pub fn arrive(&self) {
        self.count.at::<Cta>().red_add::<Release>(1);
    }
    /// `bar.sync id, n;` — arrive and wait for all (acquire).
    pub fn sync(&self) {
        self.count.at::<Cta>().fetch_add::<AcqRel>(1);
        let n = self.expected;
        spin_until("bar.sync: not all threads arrive", || {
            self.count.at::<Cta>().load::<Acquire>() >= n
        });
    }
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

struct Shared {
    q: Mutex<Queue>,
    cv: Condvar,
}

/// A copy engine: a loom thread that performs the asynchronous copies issued to it, one after
/// the other. Issuing is ordered after the issuer's earlier accesses (an async operation is
/// ordered after the preceding instructions of its thread, PTX ISA §8.9.1.1), but nothing orders
/// the copy before the issuer's later accesses except a completion mechanism: [`wait_all`]
/// (`cp.async.wait_all`, seed §5.1) or an [`MBarrier`] `complete_tx` (TMA, seed §5.2).
///
/// [`wait_all`]: CopyEngine::wait_all
pub struct CopyEngine {
    s: Arc<Shared>,
    handle: Mutex<Option<loom::thread::JoinHandle<()>>>,
}

impl CopyEngine {
    /// Starts the engine thread, placed at `place` (the SM of the issuing CTA).
    pub fn start(place: Place) -> Self {
        let s = Arc::new(Shared {
            q: Mutex::new(Queue { cmds: VecDeque::new(), issued: 0, done: 0, shutdown: false }),
            cv: Condvar::new(),
        });
        let s2 = s.clone();
        let handle = model::spawn_at(place, move || loop {
            let cmd = {
                let mut q = s2.q.lock().unwrap();
                loop {
                    if let Some(c) = q.cmds.pop_front() {
                        break Some(c);
                    }
                    if q.shutdown {
                        break None;
                    }
                    q = s2.cv.wait(q).unwrap();
                }
            };
            match cmd {
                None => return,
                Some(c) => {
                    c();
                    let mut q = s2.q.lock().unwrap();
                    q.done += 1;
                    s2.cv.notify_all();
                }
            }
        });
        CopyEngine { s, handle: Mutex::new(Some(handle)) }
    }

    /// Issues an asynchronous copy: `copy` runs later on the engine thread.
    pub fn issue(&self, copy: impl FnOnce() + 'static) {
        let mut q = self.s.q.lock().unwrap();
        q.cmds.push_back(Box::new(copy));
        q.issued += 1;
        self.s.cv.notify_all();
    }

    /// `cp.async.wait_all;` — waits until every copy issued so far has completed; the copies'
    /// writes are then visible to the calling thread (only to it: hand them to others with a
    /// barrier, seed §5.1).
    pub fn wait_all(&self) {
        let mut q = self.s.q.lock().unwrap();
        let target = q.issued;
        while q.done < target {
            q = self.s.cv.wait(q).unwrap();
        }
    }

    /// Stops the engine after the queued copies and joins its thread (call from the model's
    /// main thread at the end).
    pub fn shutdown(&self) {
        {
            let mut q = self.s.q.lock().unwrap();
            q.shutdown = true;
            self.s.cv.notify_all();
        }
        if let Some(h) = self.handle.lock().unwrap().take() {
            h.join().unwrap();
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
        ProxyTile { data: Data::new(v), generic: std::sync::Mutex::new(Vec::new()), _t: PhantomData }
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
