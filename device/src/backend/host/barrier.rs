//! The host and loom arms of the CTA and cluster barriers: a counting, generation-numbered
//! barrier over one state word per [`NamedBarrier`](crate::barrier::NamedBarrier) (AcqRel
//! arrival, Acquire wait) and a monotonic arrival counter per
//! [`ClusterBarrier`](crate::barrier::ClusterBarrier). Under `--cfg loom` the words are strong
//! locations of the scope model at `.cta` (`bar`) and `.cluster` (`barrier.cluster`), so threads
//! outside the barrier's scope are reported (PTX ISA §8.7, §8.9.4), and the waits are model
//! spins (a barrier that never completes is a `deadlock: …`).

use crate::backend::{Active, BarBackend};
use crate::barrier::{Alignment, ClusterArriveInstr, ClusterWaitInstr};
use core::sync::atomic::Ordering;

/// Host and loom: a [`HostBar`] per named barrier, a [`HostCluster`] per cluster barrier.
impl BarBackend for Active {
    type Named = HostBar;
    type Cluster = HostCluster;
    fn named(count: u32) -> HostBar {
        assert!(
            count < 1 << 16,
            "bar: the host barrier counts at most 65535 threads"
        );
        HostBar::new()
    }
    fn sync(id: u32, count: u32, h: &HostBar, _aligned: bool) {
        h.arrive(id, count, false, true);
    }
    fn arrive(id: u32, count: u32, h: &HostBar, _aligned: bool) {
        h.arrive(id, count, false, false);
    }
    fn red_popc(id: u32, count: u32, h: &HostBar, pred: bool, _aligned: bool) -> u32 {
        h.arrive(id, count, pred, true)
    }
    fn red_and(id: u32, count: u32, h: &HostBar, pred: bool, _aligned: bool) -> bool {
        h.arrive(id, count, pred, true) == count
    }
    fn red_or(id: u32, count: u32, h: &HostBar, pred: bool, _aligned: bool) -> bool {
        h.arrive(id, count, pred, true) != 0
    }
    fn sync_threads(_aligned: bool) {
        super::cta::sync_threads()
    }
    fn cluster(threads: u32) -> HostCluster {
        const W: &str = "barrier.cluster.arrive/wait (.cluster)";
        HostCluster {
            count: threads,
            arrived: ScopedWord::new(1, W),
        }
    }
    fn cluster_arrive<S: ClusterArriveInstr<A>, A: Alignment>(c: &HostCluster) -> u32 {
        let o = <S as ClusterArriveInstr<A>>::HOST;
        let old = c.arrived.fetch_add(1, o);
        if (old + 1).is_multiple_of(c.count as u64) {
            super::wake(c as *const HostCluster as usize); // this arrival completes
        }
        (old / c.count as u64) as u32
    }
    fn cluster_wait<S: ClusterWaitInstr<A>, A: Alignment>(c: &HostCluster, generation: u32) {
        let target = (generation as u64 + 1) * c.count as u64;
        let what = super::launch::What {
            text: "barrier.cluster.wait: not every thread of the cluster arrives",
            id: None,
            count: c.count,
        };
        super::block_while(what, c as *const HostCluster as usize, || {
            c.arrived.load(Ordering::Acquire) < target
        });
    }
}

/// The host cluster barrier: `count` participants and the arrivals so far, never reset: phase
/// `k` completes at `(k + 1) * count`. Every arrival is one RMW of it (a `.release` arrive
/// releases, a `.relaxed` one does not), so a wait's acquire load of the completing value
/// synchronizes exactly with the release arrivals (their release sequences, PTX ISA §8.9.4 "A
/// barrier.cluster.arrive operation synchronizes with a barrier.cluster.wait operation", for
/// `.release` arrives).
pub(crate) struct HostCluster {
    count: u32,
    arrived: ScopedWord,
}

/// One word of a host barrier: a [`host::Word`](super::Word) accessed at the
/// barrier's scope level (`.cta` for `bar`, `.cluster` for `barrier.cluster`), so that under
/// loom a barrier shared by threads its scope does not include is reported (PTX ISA §8.7).
struct ScopedWord {
    w: super::Word,
    lvl: i8,
    what: &'static str,
}

impl ScopedWord {
    fn new(lvl: i8, what: &'static str) -> Self {
        ScopedWord {
            w: super::Word::new(0),
            lvl,
            what,
        }
    }
    fn load(&self, o: Ordering) -> u64 {
        self.w.load(self.lvl, o, self.what)
    }
    fn fetch_add(&self, v: u64, o: Ordering) -> u64 {
        self.rmw(o, |x| x.wrapping_add(v))
    }
    /// One read-modify-write `f` of the word; returns the old value.
    fn rmw(&self, o: Ordering, f: impl Fn(u64) -> u64) -> u64 {
        self.w.rmw(self.lvl, o, self.what, f)
    }
}

/// The host barrier: one word holding the generation and the current generation's arrivals
/// and true predicates (and the completed generation's result), so that each arrival is one
/// RMW that knows its own generation. An arrival of the next generation that lands right
/// after the last arrival of this one (a non-waiting `bar.arrive`, the seed §5.1 producer) is
/// counted in the next generation — never erased by a reset.
///
/// Bits 0..16: arrivals of the current generation; 16..32: its true predicates; 32..48: the
/// true predicates of the last completed generation; 48..64: the generation number (wrapping).
pub(crate) struct HostBar {
    state: ScopedWord,
}

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
    pub(super) fn generation(v: u64) -> u64 {
        v >> 48
    }
    pub(super) fn pack(arrived: u64, trues: u64, result: u64, generation: u64) -> u64 {
        (arrived & M16)
            | ((trues & M16) << 16)
            | ((result & M16) << 32)
            | ((generation & M16) << 48)
    }
}

impl HostBar {
    pub(super) fn new() -> Self {
        const W: &str = "bar.sync/bar.arrive/bar.red (a CTA barrier: .cta)";
        HostBar {
            state: ScopedWord::new(0, W),
        }
    }
    /// Arrives at barrier `id` of `count` threads (with a predicate contribution); waits for
    /// the generation if `wait` (sleeping, [`block_while`](super::block_while): under loom a
    /// barrier that can never complete is a `deadlock: bar.sync: …` panic, in an
    /// `index::launch` a reported deadlock); returns the number of true predicates of the
    /// completed generation (valid when `wait`).
    pub(super) fn arrive(&self, id: u32, count: u32, pred: bool, wait: bool) -> u32 {
        let what = super::launch::What {
            text: "bar.sync: not every thread arrives at the barrier",
            id: Some(id),
            count,
        };
        self.arrive_as(what, pred, wait)
    }
    /// [`arrive`](Self::arrive) for `what.count` threads, a blocked wait reported as `what`.
    pub(super) fn arrive_as(&self, what: super::launch::What, pred: bool, wait: bool) -> u32 {
        use hbar::*;
        let (count, p) = (what.count as u64, pred as u64);
        // AcqRel: every arrival releases, the last one acquires all of them (one release
        // sequence on one word), waiters acquire with their load.
        let old = self.state.rmw(Ordering::AcqRel, |v| {
            if arrived(v) + 1 == count {
                pack(0, 0, trues(v) + p, generation(v) + 1)
            } else {
                pack(arrived(v) + 1, trues(v) + p, result(v), generation(v))
            }
        });
        let key = self as *const HostBar as usize;
        if arrived(old) + 1 == count {
            super::wake(key); // this arrival completes the generation
            return (trues(old) + p) as u32;
        }
        if !wait {
            return 0;
        }
        let g = generation(old);
        let mut seen = old;
        super::block_while(what, key, || {
            seen = self.state.load(Ordering::Acquire);
            generation(seen) == g
        });
        result(seen) as u32
    }
}
