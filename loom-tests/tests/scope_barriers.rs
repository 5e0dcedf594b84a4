//! The library's barriers report to the scope model (issue #10 part 3): `NamedBarrier`
//! (`bar.sync`/`bar.arrive`, a CTA's barrier: `.cta`), `ClusterBarrier` (`barrier.cluster.*`:
//! `.cluster`) and `Pipeline` over `Mbarrier`/`RemoteMbarrier` (seed §5.4: a remote arrive must
//! be `.release.cluster`, the wait `.acquire.cluster`). PTX ISA §8.7 (morally strong), §8.9.4
//! ("A bar{.cta}.sync or bar{.cta}.red or bar{.cta}.arrive operation synchronizes with a
//! bar{.cta}.sync or bar{.cta}.red operation executed on the same barrier"; "A
//! barrier.cluster.arrive operation synchronizes with a barrier.cluster.wait operation"),
//! §9.7.13.1, §9.7.13.3, §9.7.13.15.
//!
//! | program | places | verdict |
//! |---|---|---|
//! | P writes, `bar.arrive`; C `bar.sync`, reads (seed §5.1) | one CTA | passes |
//! | same | two CTAs (a named barrier is one CTA's) | caught: not morally strong, naming `bar` and both places |
//! | P writes, cluster arrive/wait; C arrive/wait, reads | two CTAs of one cluster | passes |
//! | same | two clusters | caught: not morally strong, naming `barrier.cluster` |
//! | A `mbarrier.init`s, `fence.mbarrier_init.release.cluster`, cluster arrive.relaxed/wait; B arrives remotely (seed §5.4) | A, B | passes |
//! | same without `fence.mbarrier_init` | A, B | caught: `mbarrier.init` and B's remote arrive not morally strong |
//! | `Pipeline<1, Cluster>`: leader A's producer multicasts 2 tiles into B; B's consumer releases A's `empty` remotely | A, B of one cluster | passes |
//! | same, B's consumer reads the stage after `consumer_release` | A, B | caught: data race on the stage (`st`) |
//! | `Pipeline<1, Cta>`, same threads (seed §5.4's bug: the `.cta` arrive on A's `empty` from B) | A, B | caught: not morally strong, naming `mbarrier.arrive.release.cta` from B |
//! | two threads `bar.arrive` twice, then `bar.sync` (an arrival of the next generation right after the last one of this) | one CTA | passes (was a deadlock: the reset erased it) |
//!
//! Preemption bound: 2 for the two-thread programs, 1 for the pipeline (three threads).
#![cfg(loom)]

use loom::sync::Arc;
use ptx_sync::barrier::{ClusterBarrier, NamedBarrier};
use ptx_sync::model::{self, Place};
use ptx_sync::pipeline::{Empty, Full, PipelineScope};
use ptx_sync::wait::Budget;
use ptx_sync::{
    Acquire, Cluster, Cta, Data, Mbarrier, Phase, Pipeline, PipelineState, Relaxed, Release,
};
use ptx_sync_loom_tests::{assert_caught_all, check, place, spawn_at};

const A: Place = place(0, 0);
const B: Place = place(0, 1);
const OTHER_CLUSTER: Place = place(1, 0);

/// A budget that would end a real wait; under loom it never times out (see `ptx_sync::wait`).
const BUDGET: Budget = Budget::nanos(1_000_000_000);

/// Seed §5.1's barrier hand-off through the library's `NamedBarrier` (2 threads).
fn bar_handoff(c: Place) {
    check(2, move || {
        let data = Arc::new(Data::new(0u32));
        let bar = Arc::new(NamedBarrier::new(1, 2));
        let (d, b) = (data.clone(), bar.clone());
        let p = spawn_at(A, move || {
            unsafe { d.write(42) };
            b.arrive(); // bar.arrive 1, 2
        });
        let ct = spawn_at(c, move || {
            bar.sync(); // bar.sync 1, 2
            unsafe { data.read() }
        });
        p.join();
        assert_eq!(ct.join(), 42, "C passed the barrier but read stale data");
    });
}

#[test]
fn named_barrier_one_cta_passes() {
    bar_handoff(A);
}

/// A named barrier belongs to one CTA: a thread of another CTA using it is not synchronized with.
#[test]
fn named_barrier_two_ctas_caught() {
    assert_caught_all(
        || bar_handoff(B),
        &[
            "ptx-sync model: data race: ",
            "(a CTA barrier: .cta)` by thread (gpu 0, cluster 0, cta 1)",
            "(gpu 0, cluster 0, cta 0)",
            "are not morally strong",
        ],
    );
}

/// `barrier.cluster.arrive.release` + `barrier.cluster.wait.acquire` in both threads.
fn cluster_handoff(c: Place) {
    check(2, move || {
        let data = Arc::new(Data::new(0u32));
        let cb = Arc::new(ClusterBarrier::new(2));
        let (d, b) = (data.clone(), cb.clone());
        let p = spawn_at(A, move || {
            unsafe { d.write(42) };
            let t = b.arrive::<Release>();
            b.wait::<Acquire>(t);
        });
        let ct = spawn_at(c, move || {
            let t = cb.arrive::<Release>();
            cb.wait::<Acquire>(t);
            unsafe { data.read() }
        });
        p.join();
        assert_eq!(
            ct.join(),
            42,
            "C passed the cluster barrier but read stale data"
        );
    });
}

#[test]
fn cluster_barrier_one_cluster_passes() {
    cluster_handoff(B);
}

#[test]
fn cluster_barrier_two_clusters_caught() {
    assert_caught_all(
        || cluster_handoff(OTHER_CLUSTER),
        &[
            "ptx-sync model: data race: ",
            "`barrier.cluster.arrive/wait (.cluster)` by thread (gpu 0, cluster 1, cta 0)",
            "are not morally strong",
        ],
    );
}

/// Seed §5.4's init publication: A's thread `mbarrier.init`s `empty` (in A), then
/// [`fence.mbarrier_init.release.cluster`], then every thread `barrier.cluster.arrive.relaxed` +
/// `barrier.cluster.wait.acquire`; B's thread then arrives on A's `empty` remotely
/// (`.release.cluster`). Without the fence the relaxed arrive publishes nothing: the init and the
/// remote arrive are not ordered, and not morally strong (the init is A's `.cta` operation).
fn init_publication(with_fence: bool) {
    check(2, move || {
        let empty: Arc<Mbarrier> = Arc::new(Mbarrier::new());
        let cb = Arc::new(ClusterBarrier::new(2));
        let (e, c) = (empty.clone(), cb.clone());
        let a = spawn_at(A, move || {
            e.init(1);
            if with_fence {
                ptx_sync::proxy::fence_mbarrier_init();
            }
            let t = c.arrive::<Relaxed>();
            c.wait::<Acquire>(t);
            e.wait_parity::<Acquire, Cluster>(Phase::ZERO, BUDGET)
                .expect("a budget never times out under loom");
        });
        let b = spawn_at(B, move || {
            let t = cb.arrive::<Relaxed>();
            cb.wait::<Acquire>(t);
            empty.remote(A.cta).arrive::<Release, Cluster>();
        });
        a.join();
        b.join();
    });
}

#[test]
fn init_published_with_fence_mbarrier_init_passes() {
    init_publication(true);
}

#[test]
fn init_without_fence_mbarrier_init_caught() {
    assert_caught_all(
        || init_publication(false),
        &[
            "ptx-sync model: data race: `mbarrier.init.shared::cta.b64` by thread (gpu 0, cluster 0, cta 0) and `mbarrier.arrive.release.cluster.shared::cluster.b64` by thread (gpu 0, cluster 0, cta 1) are not morally strong",
        ],
    );
}

/// One CTA's pipeline shared memory: `full[1]`, `empty[1]`, the stage buffer.
struct Smem {
    full: Vec<Mbarrier<Full>>,
    empty: Vec<Mbarrier<Empty>>,
    stage: Vec<Data<u32>>,
}

fn smem() -> Smem {
    Smem {
        full: vec![Mbarrier::new()],
        empty: vec![Mbarrier::new()],
        stage: vec![Data::new(0)],
    }
}

const TILES: u32 = 2;
const TX: u32 = 4;

fn tile(t: u32) -> u32 {
    100 + t
}

/// A two-CTA cluster pipeline (`Pipeline<1, Sco>`, CUTLASS's shape, seed §5.2–5.4): CTA A is the
/// leader; its producer (the model's main thread) waits on A's `empty`, arms A's `full` and
/// "multicasts" each tile into B's stage (the TMA stand-in: its write, then the copy engine's completion (`async_copy_complete_tx`) on
/// A's and on B's `full` — the latter performed in B, as the multicast does). B's producer arms B's
/// `full`; B's consumer waits on B's `full`, reads the stage and releases the **leader's** `empty`
/// (`Sco = Cluster`: `mbarrier.arrive.release.cluster.shared::cluster`; `Sco = Cta`: the `.cta`
/// arrive of seed §5.4's bug).
fn cluster_pipeline<Sco: PipelineScope>(read_after_release: bool) {
    check(1, move || {
        model::set_place(A);
        let a = Arc::new(smem());
        let b = Arc::new(smem());
        // mbarrier.init by one thread of each CTA, before the others start.
        Pipeline::<1, Sco>::new(&a.full, &a.empty, 0, true).init(1, 1);
        model::as_place(B, || {
            Pipeline::<1, Sco>::new(&b.full, &b.empty, 0, false).init(1, 1)
        });
        let (a1, b1) = (a.clone(), b.clone());
        let pb = spawn_at(B, move || {
            let pipe = Pipeline::<1, Sco>::new(&b1.full, &a1.empty, 0, false);
            let mut st = PipelineState::<1>::producer_start();
            for _ in 0..TILES {
                let _ = pipe
                    .producer_acquire(st, TX, BUDGET)
                    .expect("a budget never times out under loom");
                st.advance();
            }
        });
        let (a2, b2) = (a.clone(), b.clone());
        let cb = spawn_at(B, move || {
            let pipe = Pipeline::<1, Sco>::new(&b2.full, &a2.empty, 0, false);
            let mut st = PipelineState::<1>::consumer_start();
            for t in 0..TILES {
                let mut stage = Some(
                    pipe.consumer_wait(st, BUDGET)
                        .expect("a budget never times out under loom"),
                );
                if read_after_release {
                    pipe.consumer_release(stage.take().unwrap());
                }
                let v = unsafe { b2.stage[0].read() };
                assert_eq!(v, tile(t), "B's consumer read a wrong tile");
                if let Some(stage) = stage {
                    pipe.consumer_release(stage);
                }
                st.advance();
            }
        });
        let pipe = Pipeline::<1, Sco>::new(&a.full, &a.empty, 0, true);
        let mut st = PipelineState::<1>::producer_start();
        for t in 0..TILES {
            let full = pipe
                .producer_acquire(st, TX, BUDGET)
                .expect("a budget never times out under loom");
            unsafe { b.stage[0].write(tile(t)) };
            full.async_copy_complete_tx(TX);
            model::as_place(B, || b.full[0].async_copy_complete_tx(TX));
            st.advance();
        }
        pipe.producer_tail(st, BUDGET)
            .expect("a budget never times out under loom");
        pb.join();
        cb.join();
    });
}

#[test]
fn pipeline_cluster_two_ctas_passes() {
    cluster_pipeline::<Cluster>(false);
}

/// Not vacuous: the model sees what the remote `empty` release orders. B's consumer reads the
/// stage after releasing it, so the leader's next multicast write races with that read.
#[test]
#[should_panic(expected = "ptx-sync model: data race on Data (st)")]
fn pipeline_cluster_read_after_release_caught() {
    cluster_pipeline::<Cluster>(true);
}

/// Seed §5.4's bug through `Pipeline`: B's consumer releases A's `empty` with the `.cta` arrive.
#[test]
fn pipeline_cta_scope_across_ctas_caught() {
    assert_caught_all(
        || cluster_pipeline::<Cta>(false),
        &[
            "ptx-sync model: data race: ",
            "`mbarrier.arrive.release.cta.shared::cta.b64` by thread (gpu 0, cluster 0, cta 1)",
            "are not morally strong",
        ],
    );
}

/// Two threads of one CTA on a 2-thread `bar` each `bar.arrive` twice and then `bar.sync`: six
/// arrivals, three generations, so every interleaving ends (an arrival after a generation's
/// last one belongs to the next generation, PTX ISA §9.7.13.1). The host barrier used to reset
/// its count after the last arrival's RMW, erasing an arrival of the next generation that landed
/// in between (a non-waiting `bar.arrive`, the seed §5.1 producer): the last `bar.sync` then
/// never completed — the model reports that as `deadlock: …`.
#[test]
fn bar_arrival_of_the_next_generation_is_not_lost() {
    check(2, || {
        model::set_place(A);
        let bar = Arc::new(NamedBarrier::new(1, 2));
        let b2 = bar.clone();
        let t = spawn_at(A, move || {
            b2.arrive();
            b2.arrive();
            b2.sync();
        });
        bar.arrive();
        bar.arrive();
        bar.sync();
        t.join();
    });
}
