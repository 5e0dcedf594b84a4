//! DeepEP's `barrier_device` (seed 004): every rank adds `TAG` to each entry of its own row and
//! subtracts it from its entry in every other rank's row, with `memory_fence()`
//! (`fence.acq_rel.sys`) in between; a rank's row is all zero exactly when every rank has
//! entered, and its `timeout_check` spins (`ld.volatile`) until it is.
//!
//! Written here once: the steps ([`enter`], [`middle_fence`], [`leave`], [`row_zero`]), a rank's
//! whole barrier over a [`Fifo`] and an [`Env`] ([`rank`]), the lanes still pending after a
//! wait gave up ([`pending`]) and the registry entries ([`PROGRAMS`]). The GPU kernel
//! (`host/kernels/src/deepep.rs`: one CTA per rank, lane `t` = thread `t`), the CPU run
//! (`host/src/bin/ptx-sync/exec/cpu.rs`: one `std` thread per rank) and the loom model
//! (`loom-tests/tests/deepep.rs`: one loom thread per rank) each only say where the entries are
//! and how a wait is bounded.

use crate::env::Env;
use core::ops::Range;
use ptx_sync::{fence, AcqRel, Gpu, Relaxed, Strong, Sys, Volatile};

/// DeepEP's `FINISHED_SUM_TAG`.
pub const TAG: i32 = 1024;

/// One variant of the barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deepep {
    /// `.sys` (as DeepEP: ranks on different GPUs) or `.gpu` for the atomics and the spin.
    pub sys: bool,
    /// The `memory_fence()` between the adds and the subs.
    pub middle_fence: bool,
}

/// The barrier as DeepEP writes it.
pub const AS_WRITTEN: Deepep = Deepep {
    sys: true,
    middle_fence: true,
};

/// Lane `t` of rank `r` enters: `atom.relaxed.sys.add.s32 [row(r)[t]], TAG`
/// (`atomicAdd_system`).
#[inline(always)]
pub fn enter(c: Deepep, mine: &Strong<i32>) {
    if c.sys {
        let _ = mine.at::<Sys>().fetch_add::<Relaxed>(TAG);
    } else {
        let _ = mine.at::<Gpu>().fetch_add::<Relaxed>(TAG);
    }
}

/// `memory_fence()`: `fence.acq_rel.sys`, if the variant has it.
#[inline(always)]
pub fn middle_fence(c: Deepep) {
    if c.middle_fence {
        fence::<AcqRel, Sys>();
    }
}

/// Lane `t` of rank `r` takes the tag off rank `t`'s entry for `r`:
/// `atom.relaxed.sys.add.s32 [row(t)[r]], -TAG` (`atomicSub_system`).
#[inline(always)]
pub fn leave(c: Deepep, theirs: &Strong<i32>) {
    if c.sys {
        let _ = theirs.at::<Sys>().fetch_sub::<Relaxed>(TAG);
    } else {
        let _ = theirs.at::<Gpu>().fetch_sub::<Relaxed>(TAG);
    }
}

/// `timeout_check`'s test of one entry of the rank's own row: `ld.volatile` (`.sys` variant) or
/// `ld.relaxed.gpu` is 0.
#[inline(always)]
pub fn row_zero(c: Deepep, mine: &Strong<i32>) -> bool {
    if c.sys {
        mine.at::<Sys>().load::<Volatile>() == 0
    } else {
        mine.at::<Gpu>().load::<Relaxed>() == 0
    }
}

/// The entries of one instance of the barrier: `entry(r, t)` is entry `t` of rank `r`'s row
/// (`task_fifo_ptrs[r] + head + t`). The GPU kernel's are words of global memory, the CPU
/// run's and the loom model's an array of [`Strong`]s.
pub trait Fifo {
    /// Entry `t` of rank `r`'s row.
    fn entry(&self, r: usize, t: usize) -> &Strong<i32>;
}

/// Bit 31 of a rank's output word: the rank ran the barrier (bits `0..R`: the lanes whose
/// wait ran out, [`pending`]).
pub const RAN: u32 = 1 << 31;

/// The `what` of the barrier's wait ([`Env::wait`]; under loom a wait nobody can end panics
/// with `"deadlock: "` and it).
pub const WAIT: &str = "DeepEP timeout check failed: a peer never arrives";

/// Rank `rank` runs `barrier_device` for the lanes `lanes`: [`enter`] on its own row's entry of
/// each lane, [`middle_fence`], [`leave`] on each lane's peer entry (skipped when `leaves` is
/// `false`: a rank that dies mid-barrier), then `timeout_check`: `e.wait` until every lane's
/// entry of its own row is zero ([`row_zero`]). `false`: the wait gave up.
///
/// The one source of the barrier: the GPU kernel (`host/kernels/src/deepep.rs`) runs one lane
/// per thread (`t..t + 1`, as DeepEP's `thread_id < kNumRanks`), the CPU run
/// (`host/src/bin/ptx-sync/exec/cpu.rs`) and the loom model (`loom-tests/tests/deepep.rs`) every lane
/// `0..n` on one thread per rank (the seed's reading of a warp: all adds, the fence, all subs).
///
/// ```
/// use ptx_sync::Strong;
/// use ptx_sync_programs::{cells::Sequential, deepep::{self, Fifo}};
/// struct Two([[Strong<i32>; 2]; 2]);
/// impl Fifo for Two {
///     fn entry(&self, r: usize, t: usize) -> &Strong<i32> { &self.0[r][t] }
/// }
/// let f = Two(core::array::from_fn(|_| core::array::from_fn(|_| Strong::new(0))));
/// let e = Sequential::default();
/// // Rank 1 alone: its row holds +TAG from itself, rank 0 never took it off.
/// assert!(!deepep::rank(deepep::AS_WRITTEN, &f, &e, 1, 0..2, true));
/// assert_eq!(deepep::pending(deepep::AS_WRITTEN, &f, 1, 0..2), 0b01);
/// // Rank 0 arrives: both rows are zero.
/// assert!(deepep::rank(deepep::AS_WRITTEN, &f, &e, 0, 0..2, true));
/// assert_eq!(deepep::pending(deepep::AS_WRITTEN, &f, 1, 0..2), 0);
/// ```
#[inline(always)]
pub fn rank<F: Fifo + ?Sized, E: Env>(
    c: Deepep,
    f: &F,
    e: &E,
    rank: usize,
    lanes: Range<usize>,
    leaves: bool,
) -> bool {
    for t in lanes.clone() {
        enter(c, f.entry(rank, t));
    }
    middle_fence(c);
    if leaves {
        for t in lanes.clone() {
            leave(c, f.entry(t, rank));
        }
    }
    e.wait(WAIT, || {
        lanes.clone().all(|t| row_zero(c, f.entry(rank, t)))
    })
}

/// The lanes of `lanes` whose entry of rank `rank`'s row is not zero, as bits (`1 << t`): after
/// a wait that gave up, the ranks that never took their tag off.
#[inline(always)]
pub fn pending<F: Fifo + ?Sized>(c: Deepep, f: &F, rank: usize, lanes: Range<usize>) -> u32 {
    lanes
        .filter(|&t| !row_zero(c, f.entry(rank, t)))
        .fold(0, |m, t| m | 1 << t)
}

/// One of the host's DeepEP programs: its name (the kernel is `deepep_barrier` for both), what
/// it does, the seed text, rounds and whether one rank per instance never arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Program {
    /// CLI name.
    pub name: &'static str,
    /// One line.
    pub what: &'static str,
    /// Default rounds on the GPU.
    pub rounds: u64,
    /// One rank per instance never arrives: the others must time out and name it.
    pub missing: bool,
}

/// The kernel of both programs.
pub const KERNEL: &str = "deepep_barrier";

/// The seed text.
pub const SEED: &str = "seed 004";

/// The DeepEP programs of the registry (`ptx-sync litmus deepep_barrier`, `_missing`).
pub const PROGRAMS: [Program; 2] = [
    Program {
        name: "deepep_barrier",
        what: "DeepEP barrier_device, 8 CTAs as ranks: atom.sys add, fence.acq_rel.sys, atom.sys sub, ld.volatile spin",
        rounds: 20_000,
        missing: false,
    },
    Program {
        name: "deepep_barrier_missing",
        what: "the same with one rank per instance that never arrives: the others must time out and name it",
        rounds: 5_000,
        missing: true,
    },
];
