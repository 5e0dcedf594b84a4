//! Execution barriers: named CTA barriers (`bar.sync`, `bar.arrive`, `bar.red`) and the cluster
//! barrier (`barrier.cluster.arrive` / `barrier.cluster.wait`).
//!
//! PTX ISA §9.7.13.1 (`bar`, `barrier`), §9.7.13.3 (`barrier.cluster`). Seed §5.1 (`bar.arrive` /
//! `bar.sync` synchronize without reading a value; a barrier does not wait for `cp.async`),
//! §5.4 (`barrier.cluster.arrive.relaxed` + `barrier.cluster.wait` publish `mbarrier.init`
//! after `fence.mbarrier_init.release.cluster`).
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`NamedBarrier::sync`] | `bar.sync id, n;` (≡ `barrier.sync.aligned`) | 2.0 / sm_20 (register id and count; immediate id alone: all targets) |
//! | [`NamedBarrier::arrive`] | `bar.arrive id, n;` | 2.0 / sm_20 |
//! | [`NamedBarrier::sync_unaligned`] / [`sync_threads_unaligned`] | `barrier.sync id{, n};` (no `.aligned`) | 6.0 / sm_30 |
//! | [`NamedBarrier::arrive_unaligned`] | `barrier.arrive id, n;` (no `.aligned`) | 6.0 / sm_30 |
//! | [`NamedBarrier::red_popc`] | `bar.red.popc.u32 d, id, n, p;` | 2.0 / sm_20 |
//! | [`NamedBarrier::red_and`] / [`red_or`](NamedBarrier::red_or) | `bar.red.{and,or}.pred q, id, n, p;` | 2.0 / sm_20 |
//! | [`NamedBarrier::red_popc_unaligned`], [`red_and_unaligned`](NamedBarrier::red_and_unaligned), [`red_or_unaligned`](NamedBarrier::red_or_unaligned) | `barrier.red.{popc.u32,and.pred,or.pred} d, id, n, p;` (no `.aligned`) | 6.0 / sm_30 |
//! | [`ClusterBarrier::arrive`] | `barrier.cluster.arrive{.release,.relaxed}{.aligned};` | 8.0 / sm_90 (`.relaxed`: 8.0) |
//! | [`ClusterBarrier::wait`] | `barrier.cluster.wait{.acquire}{.aligned};` | 8.0 / sm_90 |
//!
//! `barrier.cluster.arrive` without `.sem` means `.release` and `wait` without `.sem` means
//! `.acquire`; this crate always spells the semantic out. `arrive::<Acquire, _>()` and
//! `wait::<Release, _>()` do not compile.
//!
//! # Host backend
//! A [`NamedBarrier`] is a counting, generation-numbered barrier over `hatomic` (AcqRel arrival,
//! Acquire wait) and a [`ClusterBarrier`] a monotonic arrival counter over all threads of the
//! "cluster" (Release or Relaxed arrival as the semantic says, Acquire wait); on the
//! device both are plain values (ids and counts) and hold no memory. Under `--cfg loom` their
//! words are strong locations of `ptx_sync::model` at `.cta` (`bar`) and `.cluster`
//! (`barrier.cluster`), so threads outside the barrier's scope are reported (PTX ISA §8.7,
//! §8.9.4), and the waits are model spins (a barrier that never completes is a `deadlock: …`).
//!
//! ```
//! use ptx_sync::barrier::{ClusterBarrier, NamedBarrier, Aligned};
//! use ptx_sync::{Relaxed, Acquire};
//! let bar = NamedBarrier::new(1, 1);
//! bar.sync();                                  // bar.sync 1, 1;  (one thread: passes)
//! assert_eq!(bar.red_popc(true), 1);           // bar.red.popc.u32
//! let cb = ClusterBarrier::new(1);
//! let t = cb.arrive::<Relaxed, Aligned>();     // barrier.cluster.arrive.relaxed.aligned
//! cb.wait::<Acquire, Aligned>(t);              // barrier.cluster.wait.acquire.aligned
//! ```

use crate::instr::instr;
use crate::sem::tok;
use crate::sem::{Acquire, Relaxed, Release, Sealed, Sem};
#[cfg(target_arch = "nvptx64")]
use core::arch::asm;
#[cfg(not(target_arch = "nvptx64"))]
use core::sync::atomic::Ordering;

mod red_unaligned;
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) use red_unaligned::catalog_rows as red_unaligned_catalog_rows;
pub use red_unaligned::{BarrierRedAnd, BarrierRedOr, BarrierRedPopc};

/// Whether a barrier instruction carries `.aligned` (all threads of the CTA execute the same
/// barrier instruction, PTX ISA §9.7.13.1).
pub trait Alignment: Sealed + Copy + Default + 'static {
    /// `".aligned"` or `""`.
    const PTX: &'static str;
    /// `"Aligned"` / `"Unaligned"`.
    const NAME: &'static str;
}
crate::sem::token_markers! {
    Alignment;
    /// `.aligned`: every thread of the CTA executes this same barrier instruction (PTX ISA
    /// §9.7.13.1; for `barrier.cluster`, every thread of the cluster, §9.7.13.3).
    Aligned
    /// No `.aligned`: the threads of the CTA may reach the barrier at different barrier
    /// instructions.
    Unaligned
}

instr! {
    /// `bar.sync id{, n};` — waits until `n` threads (all of the CTA without `n`) have arrived at
    /// barrier `id` (PTX 2.0, sm_20: register operands and count). Seed §5.1.
    BarSync = ("bar.sync");
    fn exec(id: u32, n: u32) => m {
        asm!(concat!(m!(), " {id}, {n};"), id = in(reg32) id, n = in(reg32) n, options(nostack, preserves_flags));
    }
    fn exec_all(id: u32) => m {
        asm!(concat!(m!(), " {id};"), id = in(reg32) id, options(nostack, preserves_flags));
    }
}
instr! {
    /// `bar.arrive id, n;` — arrives without waiting (PTX 2.0, sm_20). Seed §5.1.
    BarArrive = ("bar.arrive");
    fn exec(id: u32, n: u32) => m {
        asm!(concat!(m!(), " {id}, {n};"), id = in(reg32) id, n = in(reg32) n, options(nostack, preserves_flags));
    }
}
instr! {
    /// `barrier.sync id{, n};` — `bar.sync` without `.aligned` (PTX 6.0, sm_30): the threads of
    /// the CTA may reach it at different instructions, so a compiler that duplicates the call
    /// into two branches (rustc's inline asm is not `convergent`) leaves it defined.
    /// PTX ISA §9.7.13.1.
    BarrierSync = ("barrier.sync");
    fn exec(id: u32, n: u32) => m {
        asm!(concat!(m!(), " {id}, {n};"), id = in(reg32) id, n = in(reg32) n, options(nostack, preserves_flags));
    }
    fn exec_all(id: u32) => m {
        asm!(concat!(m!(), " {id};"), id = in(reg32) id, options(nostack, preserves_flags));
    }
}
instr! {
    /// `barrier.arrive id, n;` — `bar.arrive` without `.aligned` (PTX 6.0, sm_30).
    /// PTX ISA §9.7.13.1.
    BarrierArrive = ("barrier.arrive");
    fn exec(id: u32, n: u32) => m {
        asm!(concat!(m!(), " {id}, {n};"), id = in(reg32) id, n = in(reg32) n, options(nostack, preserves_flags));
    }
}
instr! {
    /// `bar.red.popc.u32 d, id, n, p;` — barrier + count of threads with `p` true (PTX 2.0, sm_20).
    BarRedPopc = ("bar.red.popc.u32");
    fn exec(id: u32, n: u32, c: u32) -> u32 => m {
        let d: u32;
        asm!(concat!("{{\n\t.reg .pred p;\n\tsetp.ne.u32 p, {c}, 0;\n\t", m!(), " {d}, {id}, {n}, p;\n\t}}"),
             d = out(reg32) d, id = in(reg32) id, n = in(reg32) n, c = in(reg32) c, options(nostack, preserves_flags));
        d
    }
}
instr! {
    /// `bar.red.and.pred q, id, n, p;` — barrier + AND of `p` (PTX 2.0, sm_20).
    BarRedAnd = ("bar.red.and.pred");
    fn exec(id: u32, n: u32, c: u32) -> u32 => m {
        let d: u32;
        asm!(concat!("{{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, {c}, 0;\n\t", m!(), " q, {id}, {n}, p;\n\tselp.u32 {d}, 1, 0, q;\n\t}}"),
             d = out(reg32) d, id = in(reg32) id, n = in(reg32) n, c = in(reg32) c, options(nostack, preserves_flags));
        d
    }
}
instr! {
    /// `bar.red.or.pred q, id, n, p;` — barrier + OR of `p` (PTX 2.0, sm_20).
    BarRedOr = ("bar.red.or.pred");
    fn exec(id: u32, n: u32, c: u32) -> u32 => m {
        let d: u32;
        asm!(concat!("{{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, {c}, 0;\n\t", m!(), " q, {id}, {n}, p;\n\tselp.u32 {d}, 1, 0, q;\n\t}}"),
             d = out(reg32) d, id = in(reg32) id, n = in(reg32) n, c = in(reg32) c, options(nostack, preserves_flags));
        d
    }
}

/// A named CTA barrier: id `0..16` and a thread count (a multiple of 32, PTX ISA §9.7.13.1).
/// Device: a plain value. Host: a counting barrier shared by reference between threads.
pub struct NamedBarrier {
    id: u32,
    count: u32,
    #[cfg(not(target_arch = "nvptx64"))]
    h: HostBar,
}

/// One word of a host barrier: a `hatomic::AtomicU32`; under loom a strong location of the model
/// accessed at the barrier's scope (`.cta` for `bar`, `.cluster` for `barrier.cluster`), so a
/// barrier shared by threads its scope does not include is reported (PTX ISA §8.7).
#[cfg(not(target_arch = "nvptx64"))]
struct Word {
    #[cfg(not(loom))]
    a: crate::backend::hatomic::AtomicU64,
    #[cfg(loom)]
    a: crate::model::Location<u64>,
    #[cfg(loom)]
    lvl: i8,
    #[cfg(loom)]
    what: &'static str,
}

#[cfg(not(target_arch = "nvptx64"))]
#[allow(unused_variables)]
impl Word {
    fn new(lvl: i8, what: &'static str) -> Self {
        Word {
            #[cfg(not(loom))]
            a: crate::backend::hatomic::AtomicU64::new(0),
            #[cfg(loom)]
            a: crate::model::Location::new(0),
            #[cfg(loom)]
            lvl,
            #[cfg(loom)]
            what,
        }
    }
    fn load(&self, o: Ordering) -> u64 {
        #[cfg(not(loom))]
        return self.a.load(o);
        #[cfg(loom)]
        return self.a.load(self.lvl, o, self.what);
    }
    fn fetch_add(&self, v: u64, o: Ordering) -> u64 {
        #[cfg(not(loom))]
        return self.a.fetch_add(v, o);
        #[cfg(loom)]
        return self.a.rmw(self.lvl, o, self.what, |x| x.wrapping_add(v));
    }
    /// One read-modify-write `f` of the word; returns the old value.
    fn rmw(&self, o: Ordering, f: impl Fn(u64) -> u64) -> u64 {
        #[cfg(not(loom))]
        {
            let mut cur = self.a.load(Ordering::Relaxed);
            loop {
                match self
                    .a
                    .compare_exchange(cur, f(cur), o, crate::backend::cas_failure(o))
                {
                    Ok(old) => return old,
                    Err(seen) => cur = seen,
                }
            }
        }
        #[cfg(loom)]
        return self.a.rmw(self.lvl, o, self.what, f);
    }
}

/// Waits while `cond()` holds: a spin with the host hint; under loom a model spin, so a barrier
/// that can never complete is a `deadlock: {what}` panic.
#[cfg(not(target_arch = "nvptx64"))]
fn wait_while(what: &'static str, mut cond: impl FnMut() -> bool) {
    #[cfg(not(loom))]
    {
        let _ = what;
        while cond() {
            crate::instr::host_spin();
        }
    }
    #[cfg(loom)]
    crate::model::spin_until(what, || !cond());
}

/// The host barrier: one word holding the generation and the current generation's arrivals
/// and true predicates (and the completed generation's result), so that each arrival is one
/// RMW that knows its own generation. An arrival of the next generation that lands right
/// after the last arrival of this one (a non-waiting `bar.arrive`, the seed §5.1 producer) is
/// counted in the next generation — never erased by a reset.
///
/// Bits 0..16: arrivals of the current generation; 16..32: its true predicates; 32..48: the
/// true predicates of the last completed generation; 48..64: the generation number (wrapping).
#[cfg(not(target_arch = "nvptx64"))]
struct HostBar {
    state: Word,
}

#[cfg(not(target_arch = "nvptx64"))]
mod hbar {
    pub(super) const M16: u64 = 0xffff;
    pub(super) fn arrived(v: u64) -> u64 {
        v & M16
    }
    pub(super) fn trues(v: u64) -> u64 {
        (v >> 16) & M16
    }
    pub(super) fn result(v: u64) -> u64 {
        (v >> 32) & M16
    }
    pub(super) fn gen(v: u64) -> u64 {
        v >> 48
    }
    pub(super) fn pack(arrived: u64, trues: u64, result: u64, gen: u64) -> u64 {
        (arrived & M16) | ((trues & M16) << 16) | ((result & M16) << 32) | ((gen & M16) << 48)
    }
}

#[cfg(not(target_arch = "nvptx64"))]
impl HostBar {
    fn new() -> Self {
        const W: &str = "bar.sync/bar.arrive/bar.red (a CTA barrier: .cta)";
        HostBar {
            state: Word::new(0, W),
        }
    }
    /// Arrives (with a predicate contribution); waits for the generation if `wait`; returns the
    /// number of true predicates of the completed generation (valid when `wait`).
    fn arrive(&self, count: u32, pred: bool, wait: bool) -> u32 {
        use hbar::*;
        let (count, p) = (count as u64, pred as u64);
        // AcqRel: every arrival releases, the last one acquires all of them (one release
        // sequence on one word), waiters acquire with their load.
        let old = self.state.rmw(Ordering::AcqRel, |v| {
            if arrived(v) + 1 == count {
                pack(0, 0, trues(v) + p, gen(v) + 1)
            } else {
                pack(arrived(v) + 1, trues(v) + p, result(v), gen(v))
            }
        });
        if arrived(old) + 1 == count {
            return (trues(old) + p) as u32;
        }
        if !wait {
            return 0;
        }
        let g = gen(old);
        let mut seen = old;
        wait_while("bar.sync: not every thread arrives at the barrier", || {
            seen = self.state.load(Ordering::Acquire);
            gen(seen) == g
        });
        result(seen) as u32
    }
}

impl NamedBarrier {
    /// Barrier `id` (`< 16`) for `count` threads (`count % 32 == 0` on the device; any positive
    /// count on the host). Panics otherwise.
    pub fn new(id: u32, count: u32) -> Self {
        assert!(
            id < 16,
            "bar: barrier id must be below 16 (PTX ISA §9.7.13.1)"
        );
        assert!(count > 0, "bar: thread count must be positive");
        #[cfg(not(target_arch = "nvptx64"))]
        assert!(
            count < 1 << 16,
            "bar: the host barrier counts at most 65535 threads"
        );
        #[cfg(target_arch = "nvptx64")]
        assert!(
            count % 32 == 0,
            "bar: thread count must be a multiple of 32 (PTX ISA §9.7.13.1)"
        );
        NamedBarrier {
            id,
            count,
            #[cfg(not(target_arch = "nvptx64"))]
            h: HostBar::new(),
        }
    }
    /// The barrier id.
    pub fn id(&self) -> u32 {
        self.id
    }
    /// `bar.sync id, n;` — arrive and wait for `n` threads. Orders memory among participants
    /// (PTX ISA §8.9.4: barrier = release + acquire at CTA scope).
    #[inline(always)]
    pub fn sync(&self) {
        #[cfg(target_arch = "nvptx64")]
        unsafe {
            BarSync::exec(self.id, self.count)
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.h.arrive(self.count, false, true);
        }
    }
    /// `bar.arrive id, n;` — arrive without waiting (a producer's signal, seed §5.1). Does not
    /// wait for this thread's `cp.async` copies (seed §5.1: `cp_async_wait_all` first).
    #[inline(always)]
    pub fn arrive(&self) {
        #[cfg(target_arch = "nvptx64")]
        unsafe {
            BarArrive::exec(self.id, self.count)
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.h.arrive(self.count, false, false);
        }
    }
    /// `barrier.sync id, n;` — [`sync`](Self::sync) without `.aligned`: use it wherever the
    /// compiler may duplicate the call into divergent paths (PTX ISA §9.7.13.1: for the
    /// `.aligned` form, all threads in the CTA must execute the same barrier instruction).
    #[inline(always)]
    pub fn sync_unaligned(&self) {
        #[cfg(target_arch = "nvptx64")]
        unsafe {
            BarrierSync::exec(self.id, self.count)
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.h.arrive(self.count, false, true);
        }
    }
    /// `barrier.arrive id, n;` — [`arrive`](Self::arrive) without `.aligned` (PTX ISA
    /// §9.7.13.1).
    #[inline(always)]
    pub fn arrive_unaligned(&self) {
        #[cfg(target_arch = "nvptx64")]
        unsafe {
            BarrierArrive::exec(self.id, self.count)
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.h.arrive(self.count, false, false);
        }
    }
    /// `bar.red.popc.u32` — barrier, then the number of participants whose `pred` was true.
    #[inline(always)]
    pub fn red_popc(&self, pred: bool) -> u32 {
        #[cfg(target_arch = "nvptx64")]
        unsafe {
            BarRedPopc::exec(self.id, self.count, pred as u32)
        }
        #[cfg(not(target_arch = "nvptx64"))]
        self.h.arrive(self.count, pred, true)
    }
    /// `bar.red.and.pred` — barrier, then whether every participant's `pred` was true.
    #[inline(always)]
    pub fn red_and(&self, pred: bool) -> bool {
        #[cfg(target_arch = "nvptx64")]
        unsafe {
            BarRedAnd::exec(self.id, self.count, pred as u32) != 0
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.h.arrive(self.count, pred, true) == self.count
        }
    }
    /// `bar.red.or.pred` — barrier, then whether any participant's `pred` was true.
    #[inline(always)]
    pub fn red_or(&self, pred: bool) -> bool {
        #[cfg(target_arch = "nvptx64")]
        unsafe {
            BarRedOr::exec(self.id, self.count, pred as u32) != 0
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            self.h.arrive(self.count, pred, true) != 0
        }
    }
}

/// `bar.sync 0;` — the whole CTA (`__syncthreads`). Device only.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn sync_threads() {
    unsafe { BarSync::exec_all(0) }
}

/// `barrier.sync 0;` — the whole CTA, without `.aligned` (PTX ISA §9.7.13.1): the form to use
/// where LLVM may tail-duplicate the barrier into two branches. Device only.
#[cfg(target_arch = "nvptx64")]
#[inline(always)]
pub fn sync_threads_unaligned() {
    unsafe { BarrierSync::exec_all(0) }
}

/// `barrier.cluster.arrive{.sem}{.aligned}` for one alignment.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `barrier.cluster.arrive{{.sem}}` for `{Self}`: the cluster arrive takes Release or Relaxed",
    label = "a cluster arrive releases; it cannot acquire",
    note = "PTX ISA §9.7.13.3: `barrier.cluster.arrive{{.release, .relaxed}}`, `barrier.cluster.wait{{.acquire}}`"
)]
pub unsafe trait ClusterArriveInstr<A: Alignment>: Sem {
    /// e.g. `"barrier.cluster.arrive.relaxed.aligned"`.
    const PTX: &'static str;
    /// The host ordering of the row's semantic.
    #[doc(hidden)]
    #[cfg(not(target_arch = "nvptx64"))]
    const HOST: Ordering;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec();
}
/// `barrier.cluster.wait{.acquire}{.aligned}` for one alignment.
///
/// # Safety
/// Implemented only by this crate's table.
#[diagnostic::on_unimplemented(
    message = "PTX has no `barrier.cluster.wait{{.sem}}` for `{Self}`: the cluster wait takes only Acquire",
    label = "a cluster wait acquires",
    note = "PTX ISA §9.7.13.3: `barrier.cluster.wait{{.acquire}}`"
)]
pub unsafe trait ClusterWaitInstr<A: Alignment>: Sem {
    /// e.g. `"barrier.cluster.wait.acquire.aligned"`.
    const PTX: &'static str;
    /// The host ordering of the row's semantic.
    #[doc(hidden)]
    #[cfg(not(target_arch = "nvptx64"))]
    const HOST: Ordering;
    #[doc(hidden)]
    #[cfg(target_arch = "nvptx64")]
    unsafe fn exec();
}

/// Cluster barrier rows: `$leaf!{ Trait "arrive"|"wait", Sem ".tok", Align ".aligned"|"" }`.
macro_rules! for_cluster_bar {
    ($leaf:ident) => {
        $leaf! { ClusterArriveInstr "arrive", Release, Aligned }
        $leaf! { ClusterArriveInstr "arrive", Release, Unaligned }
        $leaf! { ClusterArriveInstr "arrive", Relaxed, Aligned }
        $leaf! { ClusterArriveInstr "arrive", Relaxed, Unaligned }
        $leaf! { ClusterWaitInstr "wait", Acquire, Aligned }
        $leaf! { ClusterWaitInstr "wait", Acquire, Unaligned }
    };
}
#[allow(unused_imports)]
pub(crate) use for_cluster_bar;

macro_rules! cluster_bar_leaf {
    ($Tr:ident $op:literal, $S:ident, $A:ident) => {
        cluster_bar_leaf! { @ (concat!("barrier.cluster.", $op, tok!($S), tok!($A))) $Tr $S $A }
    };
    (@ ($($mn:tt)*) $Tr:ident $S:ident $A:ident) => {
        unsafe impl $Tr<$A> for $S {
            const PTX: &'static str = $($mn)*;
            #[cfg(not(target_arch = "nvptx64"))]
            const HOST: Ordering = Ordering::$S;
            #[cfg(target_arch = "nvptx64")]
            #[inline(always)]
            unsafe fn exec() {
                asm!(concat!($($mn)*, ";"), options(nostack, preserves_flags));
            }
        }
    };
}
for_cluster_bar! { cluster_bar_leaf }

/// Proof of a cluster-barrier arrival, consumed by [`ClusterBarrier::wait`] (PTX requires each
/// thread to arrive before it waits, PTX ISA §9.7.13.3).
#[must_use = "wait on the arrival with ClusterBarrier::wait"]
#[derive(Debug)]
pub struct ClusterArrival {
    /// The barrier phase this arrival belongs to.
    #[cfg(not(target_arch = "nvptx64"))]
    gen: u32,
}

/// The cluster's hardware barrier (all non-exited threads of all CTAs of the cluster).
/// Device: a zero-sized handle. Host: a counting barrier for `threads` participants.
pub struct ClusterBarrier {
    #[cfg(not(target_arch = "nvptx64"))]
    count: u32,
    /// Arrivals so far, never reset: phase `k` completes at `(k + 1) * count`. Every arrival is
    /// one RMW of it (a `.release` arrive releases, a `.relaxed` one does not), so a wait's
    /// acquire load of the completing value synchronizes exactly with the release arrivals
    /// (their release sequences, PTX ISA §8.9.4 "A barrier.cluster.arrive operation
    /// synchronizes with a barrier.cluster.wait operation", for `.release` arrives).
    #[cfg(not(target_arch = "nvptx64"))]
    arrived: Word,
}

impl ClusterBarrier {
    /// The cluster barrier; `threads` is used only by the host backend (the device counts every
    /// thread of the cluster).
    pub fn new(threads: u32) -> Self {
        #[cfg(target_arch = "nvptx64")]
        {
            let _ = threads;
            ClusterBarrier {}
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            const W: &str = "barrier.cluster.arrive/wait (.cluster)";
            ClusterBarrier {
                count: threads,
                arrived: Word::new(1, W),
            }
        }
    }
    /// `barrier.cluster.arrive{.release,.relaxed}{.aligned};` — `S` ∈ {`Release`, `Relaxed`}.
    /// Seed §5.4: after `fence.mbarrier_init.release.cluster`, `Relaxed` is enough.
    /// PTX 8.0, sm_90.
    #[inline(always)]
    pub fn arrive<S: Sem, A: Alignment>(&self) -> ClusterArrival
    where
        S: ClusterArriveInstr<A>,
    {
        #[cfg(target_arch = "nvptx64")]
        {
            unsafe { <S as ClusterArriveInstr<A>>::exec() };
            ClusterArrival {}
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            let o = <S as ClusterArriveInstr<A>>::HOST;
            let gen = (self.arrived.fetch_add(1, o) / self.count as u64) as u32;
            ClusterArrival { gen }
        }
    }
    /// `barrier.cluster.wait{.acquire}{.aligned};` — waits for every thread's arrival.
    /// PTX 8.0, sm_90.
    #[inline(always)]
    pub fn wait<S: Sem, A: Alignment>(&self, arrival: ClusterArrival)
    where
        S: ClusterWaitInstr<A>,
    {
        #[cfg(target_arch = "nvptx64")]
        {
            let _ = arrival;
            unsafe { <S as ClusterWaitInstr<A>>::exec() }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        {
            let target = (arrival.gen as u64 + 1) * self.count as u64;
            wait_while(
                "barrier.cluster.wait: not every thread of the cluster arrives",
                || self.arrived.load(Ordering::Acquire) < target,
            );
        }
    }
    /// `barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;`
    #[inline(always)]
    pub fn sync(&self) {
        let t = self.arrive::<Release, Aligned>();
        self.wait::<Acquire, Aligned>(t);
    }
}

/// Catalog rows of this module (`ptx-sync show`).
#[cfg(not(target_arch = "nvptx64"))]
pub(crate) fn catalog_rows(f: &mut dyn FnMut(crate::catalog::Variant)) {
    #[allow(unused_imports)]
    use crate::catalog::{Completion, Form, Marker as M, Variant};
    use crate::instr::Instr;
    let v = Variant {
        family: "bar",
        ..Variant::EMPTY
    };
    f(Variant {
        op: "sync",
        ptx: BarSync::PTX,
        rust: "sync_threads()",
        ..v
    });
    f(Variant {
        op: "sync",
        form: Form::COUNT,
        ptx: BarSync::PTX,
        rust: "NamedBarrier::sync",
        ..v
    });
    f(Variant {
        op: "arrive",
        form: Form::COUNT,
        ptx: BarArrive::PTX,
        rust: "NamedBarrier::arrive",
        ..v
    });
    let u = Variant {
        family: "barrier",
        ..Variant::EMPTY
    };
    f(Variant {
        op: "sync",
        ptx: BarrierSync::PTX,
        rust: "sync_threads_unaligned()",
        ..u
    });
    f(Variant {
        op: "sync",
        form: Form::COUNT,
        ptx: BarrierSync::PTX,
        rust: "NamedBarrier::sync_unaligned",
        ..u
    });
    f(Variant {
        op: "arrive",
        form: Form::COUNT,
        ptx: BarrierArrive::PTX,
        rust: "NamedBarrier::arrive_unaligned",
        ..u
    });
    f(Variant {
        op: "red.popc",
        ty: "u32",
        form: Form::COUNT,
        ptx: BarRedPopc::PTX,
        rust: "NamedBarrier::red_popc",
        ..v
    });
    f(Variant {
        op: "red.and",
        ty: "pred",
        form: Form::COUNT,
        ptx: BarRedAnd::PTX,
        rust: "NamedBarrier::red_and",
        ..v
    });
    f(Variant {
        op: "red.or",
        ty: "pred",
        form: Form::COUNT,
        ptx: BarRedOr::PTX,
        rust: "NamedBarrier::red_or",
        ..v
    });
    macro_rules! cb_v {
        ($Tr:ident $op:literal, $S:ident, $A:ident) => {
            f(Variant {
                family: "barrier.cluster",
                op: $op,
                sem: M::$S,
                form: Form {
                    align: M::$A,
                    ..Form::NONE
                },
                ptx: <$S as $Tr<$A>>::PTX,
                rust: concat!(
                    "ClusterBarrier::",
                    $op,
                    "::<",
                    stringify!($S),
                    ", ",
                    stringify!($A),
                    ">"
                ),
                ..v
            });
        };
    }
    for_cluster_bar! { cb_v }
}
