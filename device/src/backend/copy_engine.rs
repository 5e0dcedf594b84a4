//! The copy engine of the host backends: what an issued `cp.async`, `cp.async.bulk` or
//! `cp.async.bulk.tensor` does when the crate is not compiled for `nvptx64`. The host arms of
//! `copy.rs` describe each copy as a [`Batch`] of byte moves and issue it with its completion
//! mechanism ([`Done`]); the waits (`cp.async.wait_group/wait_all`, `cp.async.bulk.wait_group`)
//! call [`wait`], the commits [`commit`].
//!
//! A reduction (`cp.reduce.async.bulk`, `cp.reduce.async.bulk.tensor`) is a batch of element
//! read-modify-writes ([`Batch::reduce`]), each one relaxed atomic RMW with the operator.
//!
//! * **Host** (`not(loom)`): the copy happens at issue (`ptr::copy`), then the completion: a copy
//!   that completes on an mbarrier performs the copy engine's `complete_tx` on it
//!   (`Mbarrier::async_copy_complete_tx`, a `Release` RMW); commits and waits do nothing.
//! * **Loom** (`--cfg loom`): an issued copy is performed by a loom thread of its own (placed where
//!   the issuing thread is), at a point of the schedule loom explores. Nothing orders it before
//!   the issuer's later accesses except its completion mechanism (PTX ISA §9.7.9.25: the copies
//!   are performed asynchronously, "no ordering guarantee" between them and later accesses):
//!   `cp.async.wait_group/wait_all` and `cp.async.bulk.wait_group` join the calling thread's
//!   copies of the groups they wait for (their writes happen before what follows the wait, in
//!   that thread only, seed §5.1); a copy with `.mbarrier::complete_tx::bytes` ends with the
//!   barrier's `complete_tx` of its bytes as a `Release` RMW at `.cluster` scope (the completion
//!   of the async operation is ordered after its writes, seed §5.2 — unlike the `.relaxed`
//!   `mbarrier.complete_tx` instruction). Every copy engine thread counts as a live thread of the
//!   model, so a waiter on its completion is not a deadlock. A reduction is performed on the
//!   engine's thread too and completes at the bulk-group wait (or on its mbarrier), so a thread
//!   that reads the destination without waiting may see it unreduced. The destination and the source are
//!   checked when they are a [`Tile`](crate::model::Tile): the copy's accesses are race-checked
//!   like `Data` accesses (`"ptx-sync model: data race on Data (…)"`); those of the bulk and
//!   tensor copies are the async proxy's (`cp.async` is performed in the generic proxy, PTX ISA
//!   §8.6), and an async-proxy access that follows a generic-proxy access of the same element with no
//!   `fence.proxy.async` of that thread in between is a `"proxy race"` (PTX ISA §8.9.1.2
//!   proxy-preserved causality, seed §5.3).
//!
//! Under loom, a model that issues copies must wait for every one of them before the memory
//! they touch goes away — [`drain_copies`](crate::model::drain_copies), what a kernel's exit does
//! on the GPU; [`check`](crate::model::check) panics if an execution ends with copies in flight.
//! A `.multicast::cluster` copy ([`host_multicast`]) lands in every CTA's copy of its
//! destination where the model declares per-CTA copies
//! ([`ClusterShared`](crate::cluster::ClusterShared)), else in the issuing CTA's only (the
//! host has one address space). `cp.async.mbarrier.arrive` joins the
//! thread's copies at the call (stronger than the device, where the arrive-on is deferred).
#![allow(clippy::missing_safety_doc)]

use crate::mbarrier::Mbarrier;

/// How an issued copy completes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Done {
    /// `cp.async`: a `cp.async` group of the issuing thread (`cp.async.commit_group` /
    /// `wait_group` / `wait_all`).
    CpAsync,
    /// `….bulk_group`: a bulk async-group of the issuing thread (`cp.async.bulk.commit_group` /
    /// `wait_group{.read}`).
    BulkGroup,
    /// `.mbarrier::complete_tx::bytes`: `tx` bytes completed on the barrier at `bar`.
    Tx { bar: *const Mbarrier<()>, tx: u32 },
}

impl Done {
    /// Completion on `bar`, `tx` bytes.
    pub(crate) fn tx<Tag>(bar: &Mbarrier<Tag>, tx: u32) -> Done {
        // `Mbarrier<Tag>` is `repr(C)`: the tag is a `PhantomData`, the layout is `Mbarrier<()>`'s.
        Done::Tx {
            bar: bar as *const Mbarrier<Tag> as *const Mbarrier<()>,
            tx,
        }
    }
}

/// The kind of group a wait or commit is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Group {
    /// `cp.async.commit_group` / `cp.async.wait_group` groups.
    CpAsync,
    /// `cp.async.bulk.commit_group` / `cp.async.bulk.wait_group` groups.
    Bulk,
}

/// One element of a bulk or tensor reduction: `rmw(d, s, tag)` performs `*d = *d op *s` as one
/// relaxed atomic read-modify-write (`tag`: the caller's element type code).
pub(crate) type Rmw = unsafe fn(usize, usize, u8);

#[derive(Clone, Copy, Debug)]
struct Op {
    d: usize,
    /// `None`: zero-fill.
    s: Option<usize>,
    n: usize,
    /// `Some`: a reduction of the element at `d` with the one at `s` (`n` its bytes).
    rmw: Option<(Rmw, u8)>,
}

impl Op {
    /// Performs the move: the copy, the zero-fill or the element's reduction.
    unsafe fn perform(&self) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            match (self.rmw, self.s) {
                (Some((f, tag)), Some(s)) => f(self.d, s, tag),
                (_, Some(s)) => core::ptr::copy(s as *const u8, self.d as *mut u8, self.n),
                (_, None) => core::ptr::write_bytes(self.d as *mut u8, 0, self.n),
            }
        }
    }
}

/// What an issued batch does: performed at issue on the host ([`at_issue`]), on a copy-engine
/// thread under loom (`model`) — the one place the choice is made.
#[cfg(not(loom))]
use at_issue as engine;
#[cfg(loom)]
use model as engine;

/// The byte moves of one issued copy instruction.
pub(crate) struct Batch {
    ops: std::vec::Vec<Op>,
}

impl Batch {
    /// No moves yet.
    pub(crate) fn new() -> Self {
        Batch {
            ops: std::vec::Vec::new(),
        }
    }
    /// Moves `n` bytes from `s` to `d`.
    pub(crate) unsafe fn copy(&mut self, d: usize, s: *const u8, n: usize) {
        self.ops.push(Op {
            d,
            s: Some(s as usize),
            n,
            rmw: None,
        });
    }
    /// Reduces the `n`-byte element at `s` into the one at `d` with `rmw(d, s, tag)` (one
    /// relaxed atomic read-modify-write).
    pub(crate) unsafe fn reduce(&mut self, d: usize, s: usize, n: usize, rmw: Rmw, tag: u8) {
        self.ops.push(Op {
            d,
            s: Some(s),
            n,
            rmw: Some((rmw, tag)),
        });
    }
    /// Zero-fills `n` bytes at `d`.
    pub(crate) unsafe fn zero(&mut self, d: usize, n: usize) {
        self.ops.push(Op {
            d,
            s: None,
            n,
            rmw: None,
        });
    }
    /// Issues the moves, completing through `done`.
    pub(crate) unsafe fn issue(self, done: Done) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe { engine::issue(done, self.ops) }
    }
}

/// One copy of `n` bytes from `s` to `d`, completing through `done`.
pub(crate) unsafe fn host_copy(done: Done, d: usize, s: *const u8, n: usize) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        let mut b = Batch::new();
        b.copy(d, s, n);
        b.issue(done)
    }
}

/// A `.multicast::cluster` copy of `n` bytes from `s` to `d`, completing `n` bytes on `bar`, in
/// every CTA of `mask` (bit `r` = cluster rank `r`): where `d` lies in a variable declared with
/// [`ClusterShared`](crate::cluster::ClusterShared), rank `r`'s copy of `d` and of `bar` (the
/// same CTA-relative offsets, PTX ISA §9.7.9.25.4); elsewhere the host's cluster of one CTA
/// (the copy lands at `d`, once). Under loom the whole multicast is one copy-engine thread
/// (each destination's `complete_tx` performed in that CTA, `model::as_place`).
pub(crate) unsafe fn host_multicast<Tag>(
    bar: &Mbarrier<Tag>,
    d: usize,
    s: *const u8,
    n: usize,
    mask: u16,
) {
    // SAFETY: the caller keeps this function's contract (its `# Safety`).
    unsafe {
        use crate::backend::host::cluster::peer as host_peer;
        let b = bar as *const Mbarrier<Tag> as usize;
        let mut parts = std::vec::Vec::new();
        if host_peer(d, 0).is_some() {
            for r in (0..16u32).filter(|r| mask & (1 << r) != 0) {
                let dr =
                    host_peer(d, r).expect("multicast: no copy of the destination in that CTA");
                let br = host_peer(b, r).unwrap_or(b) as *const Mbarrier<Tag>;
                parts.push((Some(r), Done::tx(&*br, n as u32), dr));
            }
        } else {
            parts.push((None, Done::tx(bar, n as u32), d));
        }
        engine::multicast(parts, s, n)
    }
}

/// `commit_group` of `g`: the calling thread's uncommitted copies of that kind form a group.
pub(crate) fn commit(g: Group) {
    engine::commit(g)
}

/// Waits until at most `pending` of the calling thread's committed groups of kind `g` are
/// incomplete; `None`: every copy of that kind of the thread, committed or not (`wait_all`).
pub(crate) fn wait(g: Group, pending: Option<u32>) {
    engine::wait(g, pending)
}

/// The host's engine: every batch is performed at its issue, then completed (a copy that
/// completes on an mbarrier performs the copy engine's `complete_tx` on it, a `Release` RMW);
/// commits and waits have nothing to do.
#[cfg(not(loom))]
mod at_issue {
    use super::{host_copy, Done, Group, Op};

    pub(super) unsafe fn issue(done: Done, ops: std::vec::Vec<Op>) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            for op in &ops {
                op.perform();
            }
            if let Done::Tx { bar, tx } = done {
                (*bar).h_complete_tx(tx);
            }
        }
    }

    /// Each destination `(rank, completion, address)` in turn.
    pub(super) unsafe fn multicast(
        parts: std::vec::Vec<(Option<u32>, Done, usize)>,
        s: *const u8,
        n: usize,
    ) {
        // SAFETY: the caller keeps this function's contract (its `# Safety`).
        unsafe {
            for (_, done, dr) in parts {
                host_copy(done, dr, s, n);
            }
        }
    }

    pub(super) fn commit(_: Group) {}

    pub(super) fn wait(_: Group, _: Option<u32>) {}
}

/// `fence.proxy.async` under loom: the calling thread's earlier generic-proxy accesses of
/// [`Tile`](crate::model::Tile)s are ordered before its later async-proxy accesses.
#[cfg(loom)]
pub(crate) fn fence_proxy_async() {
    model::fence_proxy_async()
}

/// `fence.proxy.async::generic….sync_restrict::shared::cta` under loom: as
/// [`fence_proxy_async`], for the async-proxy accesses issued by the calling thread's CTA only.
#[cfg(loom)]
pub(crate) fn fence_proxy_async_restricted() {
    model::fence_proxy_async_restricted()
}

#[cfg(loom)]
pub(crate) use model::EngineState;
#[cfg(loom)]
pub use model::{drain_copies, Tile};

#[cfg(loom)]
mod model {
    extern crate std;
    use super::{Done, Group, Op};
    use crate::model::{self as m, Handle};
    use crate::shared::SharedAddr;
    use core::marker::PhantomData;
    use std::boxed::Box;
    use std::cell::RefCell;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Arc, Mutex};
    use std::vec::Vec;

    struct Pending {
        owner: loom::thread::ThreadId,
        /// `None`: completes on an mbarrier (joined only by [`drain_copies`]).
        kind: Option<Group>,
        group: Option<u64>,
        handle: Handle<()>,
    }

    /// The engine's part of the model's per-execution state.
    #[derive(Default)]
    pub(crate) struct EngineState {
        copies: Vec<Pending>,
        /// (thread, kind, groups committed so far).
        groups: Vec<(loom::thread::ThreadId, Group, u64)>,
        regions: Vec<Arc<Region>>,
    }

    impl EngineState {
        pub(crate) const fn new() -> Self {
            EngineState {
                copies: Vec::new(),
                groups: Vec::new(),
                regions: Vec::new(),
            }
        }
        /// Copies still in flight.
        pub(crate) fn in_flight(&self) -> usize {
            self.copies.len()
        }
        /// Forgets the execution's tiles (called at its end, inside it).
        pub(crate) fn take_regions(&mut self) -> Vec<Arc<Region>> {
            core::mem::take(&mut self.regions)
        }
        fn committed(&mut self, t: loom::thread::ThreadId, g: Group) -> &mut u64 {
            let i = match self.groups.iter().position(|e| e.0 == t && e.1 == g) {
                Some(i) => i,
                None => {
                    self.groups.push((t, g, 0));
                    self.groups.len() - 1
                }
            };
            &mut self.groups[i].2
        }
    }

    fn me() -> loom::thread::ThreadId {
        loom::thread::current().id()
    }

    fn region_of(addr: usize, n: usize) -> Option<(Arc<Region>, usize, usize)> {
        m::with_engine(|s| {
            s.regions.iter().find_map(|r| {
                let end = r.base + r.elem * r.len;
                if addr >= r.base && addr < end {
                    let lo = (addr - r.base) / r.elem;
                    let hi = ((addr + n - r.base).div_ceil(r.elem)).min(r.len);
                    Some((r.clone(), lo, hi))
                } else {
                    None
                }
            })
        })
    }

    /// Issues the moves on an engine thread (`unsafe` like `at_issue::issue`, the same
    /// `engine::issue` on the other backend: the model checks the accesses it performs, but a
    /// caller may not rely on that).
    ///
    /// # Safety
    /// Every move's source readable and destination writable for its bytes until the copy
    /// completes (the issuing instruction's contract).
    pub(super) unsafe fn issue(done: Done, ops: Vec<Op>) {
        issue_parts(std::vec![(None, done, ops)])
    }

    /// One copy-engine thread for the whole multicast; each destination's `complete_tx` is
    /// performed in its CTA (rank `r` of the issuing thread's cluster).
    pub(super) fn multicast(parts: Vec<(Option<u32>, Done, usize)>, s: *const u8, n: usize) {
        issue_parts(
            parts
                .into_iter()
                .map(|(r, done, dr)| {
                    let at = r.and_then(|r| m::place().map(|p| m::Place { cta: r, ..p }));
                    let ops = std::vec![Op {
                        d: dr,
                        s: Some(s as usize),
                        n,
                        rmw: None,
                    }];
                    (at, done, ops)
                })
                .collect(),
        );
    }

    /// Issues one copy-engine thread that performs each part in turn: its moves, then its
    /// completion (performed at the part's place when it has one: a multicast's `complete_tx`
    /// in each destination CTA). The completion mechanism is the first part's (every part of a
    /// multicast completes on an mbarrier).
    pub(super) fn issue_parts(parts: Vec<(Option<m::Place>, Done, Vec<Op>)>) {
        let done = parts[0].1;
        // `cp.async` (non-bulk) is performed in the generic proxy; the bulk and tensor copies in
        // the async proxy (PTX ISA §8.6, §9.7.9.25).
        let proxy = !matches!(done, Done::CpAsync);
        let body = move || {
            for (at, done, ops) in parts {
                for op in &ops {
                    if let Some(s) = op.s
                        && let Some((r, lo, hi)) = region_of(s, op.n)
                    {
                        r.engine_access(lo, hi, false, proxy);
                    }
                    if let Some((r, lo, hi)) = region_of(op.d, op.n) {
                        // A reduction's element update is atomic: recorded as a read of the
                        // destination, so that two reductions do not race each other while a
                        // generic `st` of the element still does (a generic `ld` racing with it
                        // is caught by its value: the reduction may not have happened yet).
                        r.engine_access(lo, hi, op.rmw.is_none(), proxy);
                    }
                    unsafe { op.perform() }
                }
                if let Done::Tx { bar, tx } = done {
                    // The copy's completion, ordered after its writes (a `Release` RMW).
                    let complete = || unsafe { (*bar).h_complete_tx(tx) };
                    match at {
                        Some(p) => m::as_place(p, complete),
                        None => complete(),
                    }
                }
            }
        };
        let handle = match m::place() {
            Some(p) => m::spawn_at(p, body),
            None => m::spawn(body),
        };
        let kind = match done {
            Done::CpAsync => Some(Group::CpAsync),
            Done::BulkGroup => Some(Group::Bulk),
            Done::Tx { .. } => None,
        };
        let owner = me();
        m::with_engine(|s| {
            s.copies.push(Pending {
                owner,
                kind,
                group: None,
                handle,
            })
        });
    }

    pub(super) fn commit(g: Group) {
        let t = me();
        m::with_engine(|s| {
            let n = {
                let c = s.committed(t, g);
                *c += 1;
                *c
            };
            for p in s.copies.iter_mut() {
                if p.owner == t && p.kind == Some(g) && p.group.is_none() {
                    p.group = Some(n);
                }
            }
        });
    }

    fn join_where(mut pick: impl FnMut(&Pending) -> bool) {
        let taken: Vec<Pending> = m::with_engine(|s| {
            let mut out = Vec::new();
            let mut i = 0;
            while i < s.copies.len() {
                if pick(&s.copies[i]) {
                    out.push(s.copies.remove(i));
                } else {
                    i += 1;
                }
            }
            out
        });
        for p in taken {
            p.handle.join();
        }
    }

    pub(super) fn wait(g: Group, pending: Option<u32>) {
        let t = me();
        match pending {
            None => join_where(|p| p.owner == t && p.kind == Some(g)),
            Some(n) => {
                let committed = m::with_engine(|s| *s.committed(t, g));
                let upto = committed.saturating_sub(n as u64);
                join_where(|p| {
                    p.owner == t && p.kind == Some(g) && p.group.is_some_and(|k| k <= upto)
                })
            }
        }
    }

    /// Waits for every async copy still in flight (any thread's, any completion mechanism): what
    /// a kernel's exit does. Call it before the memory the copies touch goes away (a model that
    /// ends with copies in flight fails in [`check`](crate::model::check)).
    ///
    /// No instruction (the model's bookkeeping; on the GPU a grid does not end before its async
    /// copies do). PTX ISA §9.7.9.25; seed §5.
    ///
    /// # Examples
    ///
    /// ```ignore
    /// ptx_sync::model::check(0, || {
    ///     // ... issue copies, run the roles ...
    ///     ptx_sync::model::drain_copies();
    /// });
    /// ```
    pub fn drain_copies() {
        join_where(|_| true)
    }

    loom::thread_local! {
        static UNFENCED: RefCell<Vec<Arc<AtomicU64>>> = RefCell::new(Vec::new());
    }

    /// A note's fence state: not fenced.
    const UNFENCED_NOTE: u64 = 0;
    /// Fenced for every async-proxy access.
    const FENCED: u64 = 1;

    /// Fenced by a `.sync_restrict::shared::cta` fence of a thread at `p`: for the async-proxy
    /// accesses issued in that CTA only.
    fn restricted_to(p: Option<m::Place>) -> u64 {
        match p {
            Some(p) => 2 + ((p.gpu as u64) << 42 | (p.cluster as u64) << 21 | p.cta as u64),
            None => 2 + (1 << 62),
        }
    }

    /// Whether a note in state `f` is fenced for an async-proxy access issued at the calling
    /// (copy-engine) thread's place.
    fn fenced_here(f: &AtomicU64) -> bool {
        let v = f.load(Ordering::SeqCst);
        v == FENCED || (v != UNFENCED_NOTE && v == restricted_to(m::place()))
    }

    fn fence_notes(state: u64) {
        UNFENCED.with(|u| {
            for f in u.borrow_mut().drain(..) {
                f.store(state, Ordering::SeqCst);
            }
        });
    }

    pub(super) fn fence_proxy_async() {
        fence_notes(FENCED)
    }

    /// `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster` (PTX ISA
    /// §9.7.13.4: "the effect of the fence only applies to operations performed on objects in
    /// `.shared::cta` state space"): the thread's earlier generic accesses are fenced for the
    /// async-proxy accesses issued by its own CTA — whose ordering after the fence can be
    /// carried by this CTA's `.shared::cta` objects (its `mbarrier.arrive…shared::cta`) — and
    /// not for those of a peer CTA, which only an operation on another CTA's memory (a remote
    /// `mbarrier.arrive…shared::cluster`) or on global memory can order after it.
    pub(super) fn fence_proxy_async_restricted() {
        fence_notes(restricted_to(m::place()))
    }

    /// A generic-proxy access not yet known to be fenced: (instruction, write, fence state).
    type Note = (&'static str, bool, Arc<AtomicU64>);

    /// The memory of a [`Tile`], registered with the model so that the copy engine finds it by
    /// address.
    pub(crate) struct Region {
        base: usize,
        elem: usize,
        len: usize,
        layout: std::alloc::Layout,
        /// One loom cell per element: its accesses are the race check.
        cells: Box<[loom::cell::UnsafeCell<()>]>,
        /// Per element, the generic-proxy accesses not yet followed by a proxy fence.
        generic: Mutex<Vec<Vec<Note>>>,
    }

    unsafe impl Send for Region {}
    unsafe impl Sync for Region {}

    impl Drop for Region {
        fn drop(&mut self) {
            unsafe { std::alloc::dealloc(self.base as *mut u8, self.layout) }
        }
    }

    impl Region {
        fn generic_access(&self, i: usize, write: bool) {
            assert!(i < self.len, "ptx-sync model: Tile index {i} out of bounds");
            let what = if write { "st" } else { "ld" };
            let f = Arc::new(AtomicU64::new(UNFENCED_NOTE));
            UNFENCED.with(|u| u.borrow_mut().push(f.clone()));
            self.generic.lock().unwrap()[i].push((what, write, f));
            m::weak_access(what, || {
                if write {
                    self.cells[i].with_mut(|_| ())
                } else {
                    self.cells[i].with(|_| ())
                }
            });
        }

        fn engine_access(&self, lo: usize, hi: usize, write: bool, proxy: bool) {
            if proxy {
                let mut g = self.generic.lock().unwrap();
                for notes in g[lo..hi].iter_mut() {
                    let bad = notes
                        .iter()
                        .find(|(_, w, f)| (write || *w) && !fenced_here(f))
                        .map(|(what, _, f)| (*what, f.load(Ordering::SeqCst)));
                    notes.retain(|(_, w, f)| !fenced_here(f) && !write && !*w);
                    if let Some((what, state)) = bad {
                        drop(g);
                        let why = if state == UNFENCED_NOTE {
                            ""
                        } else {
                            " (its thread's fence.proxy.async::generic…sync_restrict::shared::cta \
                             applies only to operations on .shared::cta objects, and this TMA \
                             is issued by another CTA: PTX ISA §9.7.13.4)"
                        };
                        panic!(
                            "proxy race: an async-proxy {} (TMA) follows a \
                             generic-proxy `{what}` of the same shared memory with no \
                             fence.proxy.async in between (seed §5.3, PTX ISA §8.9.1.2){why}",
                            if write { "write" } else { "read" }
                        );
                    }
                }
            }
            let what = match (proxy, write) {
                (true, true) => "async-proxy write (TMA)",
                (true, false) => "async-proxy read (TMA)",
                (false, _) => "cp.async write",
            };
            m::weak_access(what, || {
                for c in &self.cells[lo..hi] {
                    if write {
                        c.with_mut(|_| ())
                    } else {
                        c.with(|_| ())
                    }
                }
            });
        }
    }

    /// Shared memory that the copy engine and threads both access, for models under
    /// `--cfg loom`: `len` elements of `T`, 128-byte aligned (a TMA destination), at a stable
    /// address registered with the model. The copy functions of [`crate::copy`] whose source or
    /// destination lies in a tile access it through the **async proxy** (from the copy engine's
    /// thread); [`read`](Tile::read) and [`write`](Tile::write) are the **generic proxy**'s `ld`
    /// and `st`. Every access is race-checked per element (as a [`Data`](crate::Data): an
    /// unordered conflicting pair is `"ptx-sync model: data race on Data"`), and an async-proxy
    /// access after a generic one of the same element whose thread has not executed
    /// [`fence_proxy_async`](crate::proxy::fence_proxy_async) since is a `"proxy race"` (PTX ISA
    /// §8.9.1.2, seed §5.3). The async → generic direction needs no fence: the completion
    /// mechanism (a wait, an mbarrier phase) orders it (seed §5.2).
    ///
    /// No instruction (the model's stand-in for a `shared_array!`). Seed §5.1–§5.4.
    ///
    /// # Examples
    ///
    /// ```ignore
    /// use ptx_sync::{model::{self, Tile}, copy::*, Mbarrier, Release, Acquire, Cta, Phase};
    /// model::check(0, || {
    ///     let (src, tile, full) = ([7u32; 4], Tile::new(4, 0u32), Mbarrier::<()>::new());
    ///     full.init(1);
    ///     let _ = full.arrive_expect_tx::<Release, Cta>(16);
    ///     unsafe { cp_async_bulk_g2s(tile.addr(), src.as_ptr().cast(), 16, &full) };
    ///     model::spin_until("full", || full.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
    ///     assert_eq!(unsafe { tile.read(3) }, 7);
    ///     model::drain_copies();
    /// });
    /// ```
    pub struct Tile<T> {
        r: Arc<Region>,
        _t: PhantomData<T>,
    }

    unsafe impl<T: Send> Send for Tile<T> {}
    unsafe impl<T: Send> Sync for Tile<T> {}

    impl<T: Copy> Tile<T> {
        /// A tile of `len` elements, each `v` (written before any thread starts: not an access).
        ///
        /// No instruction. Seed §5.
        ///
        /// # Examples
        ///
        /// ```ignore
        /// let t = ptx_sync::model::Tile::new(8, 1u32); // inside a model
        /// ```
        pub fn new(len: usize, v: T) -> Self {
            m::touch();
            let elem = core::mem::size_of::<T>();
            assert!(elem > 0 && len > 0, "ptx-sync model: an empty Tile");
            let layout = std::alloc::Layout::from_size_align(
                elem * len,
                core::mem::align_of::<T>().max(128),
            )
            .expect("Tile layout");
            let base = unsafe { std::alloc::alloc(layout) } as *mut T;
            assert!(!base.is_null(), "Tile allocation");
            for i in 0..len {
                unsafe { base.add(i).write(v) };
            }
            let r = Arc::new(Region {
                base: base as usize,
                elem,
                len,
                layout,
                cells: (0..len).map(|_| loom::cell::UnsafeCell::new(())).collect(),
                generic: Mutex::new((0..len).map(|_| Vec::new()).collect()),
            });
            m::with_engine(|s| s.regions.push(r.clone()));
            Tile { r, _t: PhantomData }
        }
        /// The tile's shared-memory address (a copy's destination or source).
        ///
        /// No instruction.
        ///
        /// # Examples
        ///
        /// ```ignore
        /// let a = tile.addr().offset(16); // element 4 of a u32 tile
        /// ```
        pub fn addr(&self) -> SharedAddr {
            crate::shared::to_shared(self.as_ptr())
        }
        /// The tile's generic address.
        ///
        /// No instruction.
        ///
        /// # Examples
        ///
        /// ```ignore
        /// let p: *mut u32 = tile.as_ptr();
        /// ```
        pub fn as_ptr(&self) -> *mut T {
            self.r.base as *mut T
        }
        /// Elements.
        ///
        /// No instruction.
        ///
        /// # Examples
        ///
        /// ```ignore
        /// assert_eq!(ptx_sync::model::Tile::new(4, 0u8).len(), 4);
        /// ```
        pub fn len(&self) -> usize {
            self.r.len
        }
        /// Never: a tile has at least one element.
        ///
        /// No instruction.
        ///
        /// # Examples
        ///
        /// ```ignore
        /// assert!(!ptx_sync::model::Tile::new(4, 0u8).is_empty());
        /// ```
        pub fn is_empty(&self) -> bool {
            false
        }
        /// A generic-proxy `ld` of element `i`.
        ///
        /// # Safety
        /// As [`Data::read`](crate::Data::read): the model reports a read that races.
        ///
        /// PTX: a weak `ld.shared`. Seed §5.
        ///
        /// # Examples
        ///
        /// ```ignore
        /// let v = unsafe { tile.read(0) };
        /// ```
        pub unsafe fn read(&self, i: usize) -> T {
            self.r.generic_access(i, false);
            // SAFETY: the caller's contract (`i` in bounds, no racing access).
            unsafe { self.as_ptr().add(i).read() }
        }
        /// A generic-proxy `st` to element `i`.
        ///
        /// # Safety
        /// As [`Data::write`](crate::Data::write).
        ///
        /// PTX: a weak `st.shared`. Seed §5.
        ///
        /// # Examples
        ///
        /// ```ignore
        /// unsafe { tile.write(0, 5) };
        /// ```
        pub unsafe fn write(&self, i: usize, v: T) {
            self.r.generic_access(i, true);
            // SAFETY: the caller's contract (`i` in bounds, no racing access).
            unsafe { self.as_ptr().add(i).write(v) }
        }
        /// An **async-proxy** write of element `i` performed by the calling thread: what a copy
        /// engine's write into the tile is (the proxy and race checks of a bulk copy's
        /// destination), without a copy-engine thread of its own — for models that count loom
        /// threads (loom runs at most 5) and pair it with the engine's completion themselves
        /// (`Mbarrier::async_copy_complete_tx`). A generic access of the element not yet followed
        /// by a [`fence_proxy_async`](crate::proxy::fence_proxy_async) of its thread makes it a
        /// `"proxy race"`.
        ///
        /// # Safety
        /// As [`Data::write`](crate::Data::write).
        ///
        /// No instruction (the model's stand-in for one element of a TMA write, PTX ISA §8.6).
        /// Seed §5.2–§5.3.
        ///
        /// # Examples
        ///
        /// ```ignore
        /// unsafe { tile.write_async(0, 5) }; // then full.async_copy_complete_tx(4)
        /// ```
        pub unsafe fn write_async(&self, i: usize, v: T) {
            assert!(
                i < self.r.len,
                "ptx-sync model: Tile index {i} out of bounds"
            );
            self.r.engine_access(i, i + 1, true, true);
            // SAFETY: the caller's contract (`i` in bounds, no racing access).
            unsafe { self.as_ptr().add(i).write(v) }
        }
    }
}
