//! DeepEP's `barrier_device` (seed 004), for 3 ranks, each rank on its own GPU:
//!
//! ```text
//! if (thread_id < kNumRanks) {
//!     atomicAdd_system(task_fifo_ptrs[rank] + head + thread_id, FINISHED_SUM_TAG);
//!     memory_fence();                                   // fence.acq_rel.sys
//!     atomicSub_system(task_fifo_ptrs[thread_id] + head + rank, FINISHED_SUM_TAG);
//! }
//! timeout_check: spin (ld.volatile) until task_fifo_ptrs[rank][head + i] == 0 for every i
//! ```
//!
//! Entry `fifo[r][t]` gets `+TAG` from rank `r` and `-TAG` from rank `t`, so rank `r`'s row is
//! all zero exactly when every rank has entered. In the model one loom thread is one rank: the
//! lanes `thread_id < kNumRanks` of its first warp run one after the other (all adds, the fence,
//! all subs — the seed's reading), because loom allows at most 4 spawned threads. `atomicAdd_system`
//! is `atom.add.sys` (relaxed), `ld_volatile_global` is `ld.volatile` (relaxed, `.sys`).
//!
//! | variant | verdict |
//! |---|---|
//! | as written, barrier property only (no rank leaves before all entered) | passes |
//! | without `memory_fence()`, barrier property only | passes: the count does not need the fence (coherence and RMW atomicity), so loom has nothing to catch |
//! | as written + `memory_fence()` after the spin, data written before / read after | passes |
//! | without the middle `memory_fence()`, same data use | caught: data race on the published data |
//! | as written, data read right after the spin (no fence after it) | caught: data race (the spin is relaxed; the barrier alone is not an acquire) |
//! | `.gpu` instead of `.sys` across GPUs | caught: not morally strong |
//! | as written, spin = the library's `wait::spin_until(Budget::iterations(8), …)` | passes: no rank ever gets `Timeout` (it did in 108 of 465 executions before the model's waits) |
//! | same, rank 0 skips its subs | caught: `deadlock: ptx_sync::wait::spin_until …` (not a timeout) |
//!
//! So the fence in the middle is what publishes a rank's earlier writes (the release half before
//! the subs); a reader needs an acquire after the spin as well (in DeepEP, the next
//! `memory_fence()` or a kernel boundary). What the seed leaves open — a rank dying mid-barrier —
//! shows up as the bounded spin's deadlock report if a rank skips its subs.
//!
//! Preemption bound: 1 for every test.
#![cfg(loom)]

use loom::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering as StdOrdering};

use ptx_sync::model::Place;
use ptx_sync::wait::Budget;
use ptx_sync::{fence, AcqRel, Data, Strong, Sys};
use ptx_sync_loom_tests::programs::LoomEnv;
use ptx_sync_loom_tests::{check, spawn_at};
use ptx_sync_programs::deepep::{self, Deepep, Fifo};
use ptx_sync_programs::Env;

const BOUND: usize = 1;
const RANKS: usize = 3;

struct Ep {
    fifo: [[Strong<i32>; RANKS]; RANKS],
    data: [Data<u32>; RANKS],
    /// Ranks that have entered the barrier, in the order the model ran them (loom-invisible).
    entered: std::sync::Arc<AtomicUsize>,
}

#[derive(Clone, Copy)]
struct Variant {
    middle_fence: bool,
    /// Publish `data[rank]` before the barrier and read every `data[t]` after it.
    use_data: bool,
    /// `memory_fence()` after the spin, before reading the peers' data.
    fence_after: bool,
    /// Scope of the atomics and the spin (`true`: `.sys`, as DeepEP; `false`: `.gpu`).
    sys: bool,
    /// Spin with the library's `wait::spin_until` and this iteration budget instead of the test
    /// crate's `spin_until` (0: the test crate's).
    budget: u64,
    /// Rank 0 skips its subs (a rank that dies mid-barrier).
    rank0_skips_subs: bool,
}

impl Fifo for Ep {
    fn entry(&self, r: usize, t: usize) -> &Strong<i32> {
        &self.fifo[r][t]
    }
}

/// DeepEP's `timeout_check` as the library's bounded wait (`wait::spin_until` with an iteration
/// budget): under loom the budget never ends a wait that a peer can still end.
struct LibraryWait {
    budget: u64,
    rank: usize,
}

impl Env for LibraryWait {
    fn wait(&self, _what: &'static str, done: impl FnMut() -> bool) -> bool {
        let r = ptx_sync::wait::spin_until(Budget::iterations(self.budget), done);
        assert!(
            r.is_ok(),
            "rank {}: false timeout {r:?} in a correct barrier",
            self.rank
        );
        true
    }
}

fn barrier_device(ep: &Ep, rank: usize, v: Variant) {
    // The barrier is ptx_sync_programs::deepep::rank, the source of the GPU kernel
    // `deepep_barrier` and of the CPU run: every lane on this rank's thread.
    let c = Deepep {
        sys: v.sys,
        middle_fence: v.middle_fence,
    };
    ep.entered.fetch_add(1, StdOrdering::SeqCst);
    let leaves = !(v.rank0_skips_subs && rank == 0);
    let passed = if v.budget == 0 {
        deepep::rank(c, ep, &LoomEnv, rank, 0..RANKS, leaves)
    } else {
        let e = LibraryWait {
            budget: v.budget,
            rank,
        };
        deepep::rank(c, ep, &e, rank, 0..RANKS, leaves)
    };
    assert!(passed, "a loom wait never gives up");
    assert_eq!(
        ep.entered.load(StdOrdering::SeqCst),
        RANKS,
        "rank {rank} left the barrier before every rank entered it"
    );
}

fn run(v: Variant) {
    check(BOUND, move || {
        let ep = Arc::new(Ep {
            fifo: std::array::from_fn(|_| std::array::from_fn(|_| Strong::new(0))),
            data: [Data::new(0), Data::new(0), Data::new(0)],
            entered: std::sync::Arc::new(AtomicUsize::new(0)),
        });
        let hs: Vec<_> = (0..RANKS)
            .map(|r| {
                let ep = ep.clone();
                spawn_at(
                    Place {
                        gpu: r as u32,
                        cluster: 0,
                        cta: 0,
                    },
                    move || {
                        if v.use_data {
                            unsafe { ep.data[r].write(100 + r as u32) };
                        }
                        barrier_device(&ep, r, v);
                        if v.use_data {
                            if v.fence_after {
                                fence::<AcqRel, Sys>();
                            }
                            for t in 0..RANKS {
                                assert_eq!(unsafe { ep.data[t].read() }, 100 + t as u32);
                            }
                        }
                    },
                )
            })
            .collect();
        for h in hs {
            h.join();
        }
    });
}

const AS_WRITTEN: Variant = Variant {
    middle_fence: true,
    use_data: false,
    fence_after: false,
    sys: true,
    budget: 0,
    rank0_skips_subs: false,
};

#[test]
fn deepep_barrier_as_written_passes() {
    run(AS_WRITTEN);
}

/// The count alone does not need the fence: loom finds nothing (documented, not a catch).
#[test]
fn deepep_barrier_without_fence_count_still_passes() {
    run(Variant {
        middle_fence: false,
        ..AS_WRITTEN
    });
}

#[test]
fn deepep_barrier_publishes_data_with_fence_after_passes() {
    run(Variant {
        use_data: true,
        fence_after: true,
        ..AS_WRITTEN
    });
}

#[test]
#[should_panic(expected = "ptx-sync model: data race on Data")]
fn deepep_barrier_without_fence_data_caught() {
    run(Variant {
        middle_fence: false,
        use_data: true,
        fence_after: true,
        ..AS_WRITTEN
    });
}

#[test]
#[should_panic(expected = "ptx-sync model: data race on Data")]
fn deepep_barrier_no_acquire_after_spin_caught() {
    run(Variant {
        use_data: true,
        fence_after: false,
        ..AS_WRITTEN
    });
}

#[test]
#[should_panic(expected = "not morally strong")]
fn deepep_barrier_gpu_scope_across_gpus_caught() {
    run(Variant {
        sys: false,
        ..AS_WRITTEN
    });
}

/// The issue's false timeouts: with the library's `wait::spin_until` and an 8-iteration budget,
/// 108 of 465 executions of this correct barrier reported `Timeout`. Under loom the budget is not
/// a timeout: every rank's wait returns `Ok` in every execution (asserted in `barrier_device`).
#[test]
fn deepep_barrier_library_budget_never_times_out() {
    run(Variant {
        budget: 8,
        ..AS_WRITTEN
    });
}

/// A rank that never does its subs: the other ranks' budgeted library waits can never end, which
/// the model reports as a deadlock (not as a timeout).
#[test]
#[should_panic(
    expected = "deadlock: ptx_sync::wait::spin_until: the condition never holds (no thread can make it true)"
)]
fn deepep_barrier_rank_skips_subs_library_wait_deadlock() {
    run(Variant {
        budget: 8,
        rank0_skips_subs: true,
        ..AS_WRITTEN
    });
}
