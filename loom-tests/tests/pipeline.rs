//! The pipeline template (`ptx_sync::pipeline`, CUTLASS's `PipelineTmaAsync` shape; seed §5.2–5.3)
//! model-checked from the library's own code: `Pipeline`, `PipelineState` and the host backend
//! of `Mbarrier` (one strong location of `ptx_sync::model` under `--cfg loom`: `Release` RMW
//! arrivals, `Acquire` `try_wait.parity` loads, a `Release` RMW for the copy engine's completion, each at the
//! scope the call names, so the scope check sees them). One producer (the elected TMA
//! thread) and one or two consumer threads, all of one CTA, move 3 tiles through `STAGES` = 1 or
//! 2 stages; each stage's buffer is a `ptx_sync::model::Tile<u32>` (shared memory whose generic-
//! and async-proxy accesses the model tracks per element), so a consumer read that the protocol
//! does not order after the producer's TMA write (or a TMA write not ordered after the
//! consumers' reads of the previous tile) is a data race that the model reports, and a TMA write
//! into a stage after a consumer's generic read with no generic → async proxy fence in that
//! consumer between the read and its release is a `proxy race` (issue #13 item 3:
//! `consumer_release`'s `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster`,
//! see `ptx_sync::pipeline`'s docs; under `--cfg loom` that fence is the model's generic → async
//! proxy fence, as `proxy::fence_proxy_async` is).
//!
//! | threads, stages | variant | verdict | bound |
//! |---|---|---|---|
//! | 1 producer + 1 consumer, STAGES 1 / 2, 3 tiles | as written | passes | 2 |
//! | 1 producer + 2 consumers, STAGES 1 / 2, 3 tiles | as written | passes | 0 |
//! | 1 + 1, STAGES 1 / 2 | producer starts at `consumer_start()` (phase 0) | caught: `deadlock: pipeline: producer_acquire: …` | 2 |
//! | 1 + 2, STAGES 2 | producer starts at `consumer_start()` | caught: `deadlock: pipeline: consumer_wait: …` | 0 |
//! | 1 + 1, STAGES 2 | consumer starts at `producer_start()` (phase 1) | caught: data race on the stage (`ld`) | 2 |
//! | 1 + 1, STAGES 1 / 2 | the consumer never calls `consumer_release` | caught: `deadlock: pipeline: producer_acquire: …` | 2 |
//! | 1 + 2, STAGES 2 | consumer 0 never calls `consumer_release` | caught: `deadlock: pipeline: consumer_wait: …` | 0 |
//! | 1 + 1, STAGES 2 | the copy writes the stage after its `complete_tx` | caught: data race on the stage (`ld`) | 2 |
//! | 1 + 1, STAGES 2 | the consumer reads the stage after `consumer_release` | caught: proxy race / data race on the stage | 2 |
//! | 1 + 1, STAGES 1 / 2 | the consumer arrives on `empty` without `consumer_release`'s proxy fence | caught: `proxy race` | 2 |
//! | 1 + 2, STAGES 2 | consumer 0 arrives without the proxy fence | caught: `proxy race` | 0 |
//! | 1 + 1, STAGES 1 / 2, copies through `cp_async_bulk_g2s` | as written | passes | 0 |
//! | 1 + 1, STAGES 1, copies through `cp_async_bulk_g2s` | no proxy fence / read after release | caught: `proxy race` / race | 0 |
//! | `Cluster`: leader P multicasts, CTA 1's P + C on one thread, STAGES 1 / 2 | as written (`fence.proxy.async`) | passes | 0 |
//! | `Cluster`, STAGES 1 | CTA 1's remote arrive without the proxy fence | caught: `proxy race` | 0 |
//! | `Cluster`, STAGES 1 / 2 | the `Cta` pipeline's `…sync_restrict::shared::cta` fence | caught: `proxy race` (the fence applies only to `.shared::cta` objects) | 0 |
//!
//! The wrong producer phase cannot show up as a race: phase 0 on a fresh `empty` makes the very
//! first `producer_acquire` wait for a consumer release, and no consumer can release before the
//! first fill, so it is a wait that can never end (on a GPU the library's bounded wait reports it
//! as `wait::Timeout`; under loom the model reports it as `deadlock: …`, see **Waits**). The last two
//! rows show that the model sees what each barrier orders (`full`: the copy before the reads;
//! `empty`: the reads before the next copy into the stage), so the passing rows are not vacuous.
//!
//! **The TMA write.** In the last four tests the producer issues each tile with the library's
//! `copy::cp_async_bulk_g2s` (the call users make): the copy engine performs it on a loom thread
//! of its own and completes `full`; one consumer (main + consumer + 3 copy-engine threads are
//! loom's 5), bound 0. Elsewhere the producer performs the copy's write into the stage itself with
//! `Tile::write_async` (the async-proxy write of a bulk copy's destination, with its race and
//! proxy checks, on the producer's thread) right after `producer_acquire`, then the copy engine's
//! completion `full.async_copy_complete_tx(16)` — a `Release` RMW ordered after the write, what
//! the library's bulk copy does on completion (not the `mbarrier.complete_tx` *instruction*,
//! which is `.relaxed` and publishes nothing: `async_copy.rs` shows a thread's write published by
//! it is caught). The library's own `copy::cp_async_bulk_g2s` runs each copy on a copy-engine
//! loom thread of its own (`device/src/copy/engine.rs`): 3 tiles make 3 more threads, which with
//! two consumers exceeds loom's 5 (`loom::MAX_THREADS`), and with one consumer at bound 2 did not
//! finish within a 600 s `timeout`; `async_copy.rs`, `section5.rs` and `scope.rs` check that engine.
//!
//! **Waits.** The library's waits take a `wait::Budget`; under `--cfg loom` a budget is not a
//! timeout: `wait::spin_until` is the model's spin (`ptx_sync::model::spin_until`), which returns
//! once the condition holds, reports a wait that no thread can end as `deadlock: …` and abandons
//! (and counts) a starved schedule. Every wait here is still called with `Budget::iterations(1)`
//! inside this crate's [`spin_until`], whose label then names the deadlock (`deadlock: pipeline:
//! …`: the outermost spin's label is the one reported). Every thread is placed in CTA 0
//! (`model::set_thread(0, 0)`, `spawn_in(0, 0, …)`): the pipeline's barriers are `.cta` and the
//! library's `Mbarrier` is scope-checked, so unplaced threads (each alone in its own CTA) would be
//! reported as not morally strong.
//!
//! Threads: the producer is the model's main thread, the consumers are spawned (2 or 3 loom
//! threads; a spawned producer made a fourth and doubled the time). Preemption bound: 2 for the
//! 1-consumer tests, 0 for the 2-consumer tests (bound 1 there did not finish in 90 s for
//! STAGES = 1). Bound 0 still explores every switch at a yield (every failed `try_wait`), a join
//! or a thread's end, and every value each load may return.
#![cfg(loom)]

use loom::sync::Arc;
use ptx_sync::copy::cp_async_bulk_g2s;
use ptx_sync::mbarrier::Mbarrier;
use ptx_sync::model::{self, Tile};
use ptx_sync::pipeline::{Consumer, Empty, Full, Pipeline, PipelineScope, PipelineState, Producer};
use ptx_sync::wait::Budget;
use ptx_sync::Cta;
use ptx_sync_loom_tests::{assert_caught, check, spawn_in, spin_until};

const TILES: u32 = 3;
/// `u32`s of one tile.
const WORDS: usize = 4;
/// Bytes of one tile (a bulk copy's size, a multiple of 16): the `expect_tx` / `complete_tx`
/// amount.
const TX: u32 = 16;

/// What is deliberately wrong.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bug {
    None,
    /// The producer starts at `PipelineState::consumer_start()` (phase 0 instead of 1).
    ProducerPhase,
    /// The consumers start at `PipelineState::producer_start()` (phase 1 instead of 0).
    ConsumerPhase,
    /// Consumer 0 never calls `consumer_release`.
    NoRelease,
    /// The TMA writes the tile after `full`'s `complete_tx`.
    WriteAfterComplete,
    /// The consumers read the stage after `consumer_release`.
    ReadAfterRelease,
    /// Consumer 0 arrives on `empty` without `consumer_release`'s proxy fence (the arrive alone).
    NoProxyFence,
    /// (`Cluster` pipeline) CTA 1's consumer fences with the `Cta` pipeline's
    /// `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster` before its remote
    /// arrive, instead of `consumer_release`'s `fence.proxy.async`.
    RestrictedFence,
}

/// The shared memory of the CTA: `full[STAGES]`, `empty[STAGES]`, the stage buffers; and the
/// global source of the tiles (for the copies through `cp_async_bulk_g2s`).
struct Smem {
    full: Vec<Mbarrier<Full>>,
    empty: Vec<Mbarrier<Empty>>,
    stage: Vec<Tile<u32>>,
    src: Vec<Src>,
}

/// One tile in global memory, 16-byte aligned (a bulk copy's source).
#[repr(C, align(16))]
struct Src([u32; WORDS]);

fn tile(t: u32) -> u32 {
    100 + t
}

/// One `try_wait` per call; [`spin_until`] does the spinning (see the module docs).
const ONE_TRY: Budget = Budget::iterations(1);

/// Preemption bound with one consumer (two threads).
const BOUND_1C: usize = 2;
/// Preemption bound with two consumers (three threads); bound 1 did not finish in 90 s.
const BOUND_2C: usize = 0;

/// The TMA write of tile `t` into `stage`, then its completion of `TX` bytes on `full` (with
/// [`Bug::WriteAfterComplete`], the completion first).
fn tma_write(bug: Bug, stage: &Tile<u32>, full: &Mbarrier<Full>, t: u32) {
    let late = bug == Bug::WriteAfterComplete;
    if late {
        full.async_copy_complete_tx(TX);
    }
    for i in 0..WORDS {
        unsafe { stage.write_async(i, tile(t)) };
    }
    if !late {
        full.async_copy_complete_tx(TX);
    }
}

fn producer<const S: usize>(m: &Smem, bug: Bug, engine: bool) {
    let pipe = Pipeline::<S, Cta>::new(&m.full, &m.empty, 0, true);
    let mut st = if bug == Bug::ProducerPhase {
        // SAFETY: the bug under test (a producer at the consumers' phase 0).
        unsafe { PipelineState::<S>::consumer_start().with_role::<Producer>() }
    } else {
        PipelineState::<S>::producer_start()
    };
    for t in 0..TILES {
        let mut full = None;
        spin_until(
            "pipeline: producer_acquire: the stage never empties",
            || match pipe.producer_acquire(st, TX, ONE_TRY) {
                Ok(b) => {
                    full = Some(b);
                    true
                }
                Err(_) => false,
            },
        );
        let (stage, full) = (&m.stage[st.index()], full.unwrap());
        if engine {
            // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [stage], [src], 16, [full]
            unsafe {
                cp_async_bulk_g2s(stage.addr(), m.src[t as usize].0.as_ptr().cast(), TX, full)
            };
        } else {
            tma_write(bug, stage, full, t);
        }
        st.advance();
    }
    spin_until("pipeline: producer_tail: a stage never empties", || {
        pipe.producer_tail(st, ONE_TRY).is_ok()
    });
}

fn consumer<const S: usize>(m: &Smem, bug: Bug, me: usize) {
    let pipe = Pipeline::<S, Cta>::new(&m.full, &m.empty, 0, true);
    let mut st = if bug == Bug::ConsumerPhase {
        // SAFETY: the bug under test (a consumer at the producer's phase 1).
        unsafe { PipelineState::<S>::producer_start().with_role::<Consumer>() }
    } else {
        PipelineState::<S>::consumer_start()
    };
    for t in 0..TILES {
        let mut stage = None;
        spin_until("pipeline: consumer_wait: the stage never fills", || {
            stage = pipe.consumer_wait(st, ONE_TRY).ok();
            stage.is_some()
        });
        let release = !(bug == Bug::NoRelease && me == 0);
        if release && bug == Bug::ReadAfterRelease {
            pipe.consumer_release(stage.take().unwrap());
        }
        let v = unsafe { m.stage[st.index()].read(0) };
        assert_eq!(v, tile(t), "pipeline: consumer {me} read a wrong tile");
        if release && bug == Bug::NoProxyFence && me == 0 {
            // the arrive of `consumer_release`, without its proxy fence
            <Cta as PipelineScope>::release_empty(pipe.empty(st.index()), 0);
        } else if release && bug != Bug::ReadAfterRelease {
            // fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster; mbarrier.arrive.release.cta
            pipe.consumer_release(stage.take().unwrap());
        }
        st.advance();
    }
}

/// 1 producer (the model's main thread) and `consumers` spawned consumer threads, `S` stages,
/// [`TILES`] tiles; the producer's copies are [`tma_write`]s.
fn run<const S: usize>(consumers: usize, bug: Bug, bound: usize) {
    run_with::<S>(consumers, bug, bound, false)
}

/// As [`run`]; `engine`: the producer issues each copy with the library's `cp_async_bulk_g2s`
/// (one copy-engine thread per tile).
fn run_with<const S: usize>(consumers: usize, bug: Bug, bound: usize, engine: bool) {
    check(bound, move || {
        // Every thread is in CTA 0 (the pipeline's `.cta` barriers are the CTA's own).
        model::set_thread(0, 0);
        let m = Arc::new(Smem {
            full: (0..S).map(|_| Mbarrier::new()).collect(),
            empty: (0..S).map(|_| Mbarrier::new()).collect(),
            stage: (0..S).map(|_| Tile::new(WORDS, 0u32)).collect(),
            src: (0..TILES).map(|t| Src([tile(t); WORDS])).collect(),
        });
        // One thread inits before the others start (the spawn publishes it, as bar.sync would).
        Pipeline::<S, Cta>::new(&m.full, &m.empty, 0, true).init(1, consumers as u32);
        let cs: Vec<_> = (0..consumers)
            .map(|me| {
                let m = m.clone();
                spawn_in(0, 0, move || consumer::<S>(&m, bug, me))
            })
            .collect();
        producer::<S>(&m, bug, engine);
        for c in cs {
            c.join();
        }
        model::drain_copies();
    });
}

// Messages: loom's search is deterministic, so each broken variant is reported by the same
// thread every run; the expectation names that report exactly. (On a deadlock the producer's
// `producer_acquire` and the consumers' `consumer_wait` all spin; whichever finds first that no
// thread can move reports it.)

// --- correct: passes --------------------------------------------------------------------------

/// Bound 2.
#[test]
fn pipeline_1p1c_stages1_passes() {
    run::<1>(1, Bug::None, BOUND_1C);
}

/// Bound 2.
#[test]
fn pipeline_1p1c_stages2_passes() {
    run::<2>(1, Bug::None, BOUND_1C);
}

/// Bound 0 (bound 1: over 90 s, not finished).
#[test]
fn pipeline_1p2c_stages1_passes() {
    run::<1>(2, Bug::None, BOUND_2C);
}

/// Bound 0.
#[test]
fn pipeline_1p2c_stages2_passes() {
    run::<2>(2, Bug::None, BOUND_2C);
}

// --- wrong initial producer phase: caught ------------------------------------------------------

/// Phase 0 on a fresh `empty` waits for a consumer release, which cannot come before the first
/// fill. Bound 2.
#[test]
#[should_panic(expected = "deadlock: pipeline: producer_acquire: the stage never empties")]
fn pipeline_producer_phase_wrong_stages1_caught() {
    run::<1>(1, Bug::ProducerPhase, BOUND_1C);
}

/// Bound 2.
#[test]
#[should_panic(expected = "deadlock: pipeline: producer_acquire: the stage never empties")]
fn pipeline_producer_phase_wrong_stages2_caught() {
    run::<2>(1, Bug::ProducerPhase, BOUND_1C);
}

/// Bound 0.
#[test]
#[should_panic(expected = "deadlock: pipeline: consumer_wait: the stage never fills")]
fn pipeline_producer_phase_wrong_1p2c_stages2_caught() {
    run::<2>(2, Bug::ProducerPhase, BOUND_2C);
}

// --- wrong initial consumer phase: caught -------------------------------------------------------

/// Phase 1 on a fresh `full` succeeds at once: the consumer reads stage 0 unordered with the
/// producer's write of tile 0. Bound 2.
#[test]
#[should_panic(expected = "ptx-sync model: data race on Data (ld)")]
fn pipeline_consumer_phase_wrong_stages2_caught() {
    run::<2>(1, Bug::ConsumerPhase, BOUND_1C);
}

// --- a consumer that never releases: caught -----------------------------------------------------

/// With 3 tiles and 1 stage the producer's second `producer_acquire` never succeeds. Bound 2.
#[test]
#[should_panic(expected = "deadlock: pipeline: producer_acquire: the stage never empties")]
fn pipeline_no_release_stages1_caught() {
    run::<1>(1, Bug::NoRelease, BOUND_1C);
}

/// Tile 2 needs stage 0 back. Bound 2.
#[test]
#[should_panic(expected = "deadlock: pipeline: producer_acquire: the stage never empties")]
fn pipeline_no_release_stages2_caught() {
    run::<2>(1, Bug::NoRelease, BOUND_1C);
}

/// Consumer 1 releases, consumer 0 does not: `empty` (count 2) never completes. Bound 0.
#[test]
#[should_panic(expected = "deadlock: pipeline: consumer_wait: the stage never fills")]
fn pipeline_no_release_1p2c_stages2_caught() {
    run::<2>(2, Bug::NoRelease, BOUND_2C);
}

// --- the model sees both barriers' ordering (not vacuous) ---------------------------------------

/// The copy's write lands after its `complete_tx` (nothing orders it before the consumer's read
/// any more): race on the stage. Bound 2.
#[test]
#[should_panic(expected = "ptx-sync model: data race on Data (ld)")]
fn pipeline_write_after_complete_tx_caught() {
    run::<2>(1, Bug::WriteAfterComplete, BOUND_1C);
}

/// The consumer reads the stage after its `consumer_release`: the producer's next write into the
/// stage is unordered with that read (and the read is not fenced for the async proxy: whichever
/// the first failing schedule meets). Bound 2.
#[test]
fn pipeline_read_after_release_caught() {
    assert_caught(
        || run::<2>(1, Bug::ReadAfterRelease, BOUND_1C),
        &[
            "proxy race",
            "ptx-sync model: data race on Data (async-proxy write (TMA))",
        ],
    );
}

// --- consumer_release's proxy fence is needed (issue #13 item 3) ------------------------------

/// The arrive without the generic → async proxy fence: the next TMA write into the stage follows
/// the consumer's generic read with no proxy fence in between (seed §5.3). With one stage the
/// very next tile reuses it. Bound 2.
#[test]
#[should_panic(expected = "proxy race")]
fn pipeline_no_proxy_fence_stages1_caught() {
    run::<1>(1, Bug::NoProxyFence, BOUND_1C);
}

/// Bound 2.
#[test]
#[should_panic(expected = "proxy race")]
fn pipeline_no_proxy_fence_stages2_caught() {
    run::<2>(1, Bug::NoProxyFence, BOUND_1C);
}

/// Consumer 1 fences, consumer 0 does not: still caught. Bound 0.
#[test]
#[should_panic(expected = "proxy race")]
fn pipeline_no_proxy_fence_1p2c_stages2_caught() {
    run::<2>(2, Bug::NoProxyFence, BOUND_2C);
}

// --- the copies through the library's `cp_async_bulk_g2s` (its copy engine) ---------------------

/// The producer issues each tile with `cp_async_bulk_g2s` (what users call): the library's copy
/// engine performs the async-proxy write on a thread of its own and completes `full`. One
/// consumer: main + consumer + 3 copy-engine threads are loom's 5. Bound 0.
#[test]
fn pipeline_1p1c_stages2_through_cp_async_bulk_g2s_passes() {
    run_with::<2>(1, Bug::None, 0, true);
}

/// Bound 0.
#[test]
fn pipeline_1p1c_stages1_through_cp_async_bulk_g2s_passes() {
    run_with::<1>(1, Bug::None, 0, true);
}

/// The consumer's arrive without `consumer_release`'s proxy fence: the engine's next write into
/// the stage is a `proxy race`. Bound 0.
#[test]
#[should_panic(expected = "proxy race")]
fn pipeline_no_proxy_fence_through_cp_async_bulk_g2s_caught() {
    run_with::<1>(1, Bug::NoProxyFence, 0, true);
}

/// The consumer reads the stage after its release: the engine's next write into it is
/// unordered with the read or follows it unfenced. Bound 0.
#[test]
fn pipeline_read_after_release_through_cp_async_bulk_g2s_caught() {
    assert_caught(
        || run_with::<1>(1, Bug::ReadAfterRelease, 0, true),
        &[
            "proxy race",
            "ptx-sync model: data race on Data (async-proxy write (TMA))",
        ],
    );
}

// --- the `Cluster` pipeline: consumers in a peer CTA, multicast copies ---------------------------

/// CTA `r`'s shared memory of the [`Pipeline<S, Cluster>`] model.
struct ClusterCta {
    full: Vec<Mbarrier<Full>>,
    empty: Vec<Mbarrier<Empty>>,
    stage: Vec<Tile<u32>>,
}

/// Two CTAs' [`ClusterCta`]s, declared per CTA (`ClusterShared`: `mapa` reaches the leader's
/// `empty`, the multicast writes both CTAs' stages and completes on both CTAs' `full`).
struct ClusterSmem {
    // Dropped first: the declarations name the CTAs' memory.
    _decl: Vec<ptx_sync::cluster::ClusterShared>,
    cta: [ClusterCta; 2],
    src: Vec<Src>,
}

fn cluster_smem<const S: usize>() -> ClusterSmem {
    use ptx_sync::cluster::ClusterShared;
    let cta = [0, 1].map(|_| ClusterCta {
        full: (0..S).map(|_| Mbarrier::new()).collect(),
        empty: (0..S).map(|_| Mbarrier::new()).collect(),
        stage: (0..S).map(|_| Tile::new(WORDS, 0u32)).collect(),
    });
    let bytes = S * core::mem::size_of::<Mbarrier<Full>>();
    let mut decl = Vec::new();
    // SAFETY: the vectors' and tiles' memory lives as long as `cta`, dropped after `_decl`.
    unsafe {
        let full = [cta[0].full.as_ptr() as usize, cta[1].full.as_ptr() as usize];
        let empty = [
            cta[0].empty.as_ptr() as usize,
            cta[1].empty.as_ptr() as usize,
        ];
        decl.push(ClusterShared::from_raw(bytes, &full));
        decl.push(ClusterShared::from_raw(bytes, &empty));
        for s in 0..S {
            let t = [
                cta[0].stage[s].as_ptr() as usize,
                cta[1].stage[s].as_ptr() as usize,
            ];
            decl.push(ClusterShared::from_raw(WORDS * 4, &t));
        }
    }
    ClusterSmem {
        _decl: decl,
        cta,
        src: (0..TILES).map(|t| Src([tile(t); WORDS])).collect(),
    }
}

/// The `Cluster` pipeline: the leader CTA 0's producer (the model's main thread) multicasts each
/// tile into both CTAs' stages (`cp_async_bulk_g2s_with` with `Mods::NONE.multicast(0b11)`, mask 0b11: one copy-engine thread
/// per tile); CTA 1 is one thread that runs its producer step (`producer_acquire` of a
/// non-leader: its own `full`'s `expect_tx`) and then its consumer step per tile, releasing the
/// leader's `empty` through `consumer_release` (remote `mbarrier.arrive.release.cluster`).
/// Threads: main + CTA 1 + 3 copy-engine threads = loom's 5. `bug`: [`Bug::None`],
/// [`Bug::NoProxyFence`] (the consumer's remote arrive without the fence) or
/// [`Bug::RestrictedFence`] (with the `Cta` pipeline's restricted fence).
fn run_cluster<const S: usize>(bug: Bug, bound: usize) {
    use ptx_sync::copy::{cp_async_bulk_g2s_with, Mods};
    use ptx_sync::Cluster;
    check(bound, move || {
        model::set_thread(0, 0);
        let m = Arc::new(cluster_smem::<S>());
        for c in &m.cta {
            // One producer arrival (with expect_tx) per CTA; one consumer (CTA 1's) on `empty`.
            Pipeline::<S, Cluster>::new(&c.full, &c.empty, 0, true).init(1, 1);
        }
        let m1 = m.clone();
        let peer = spawn_in(0, 1, move || {
            let c = &m1.cta[1];
            let pipe = Pipeline::<S, Cluster>::new(&c.full, &c.empty, 0, false);
            let (mut p, mut st) = (
                PipelineState::<S>::producer_start(),
                PipelineState::<S>::consumer_start(),
            );
            for t in 0..TILES {
                spin_until("pipeline: producer_acquire (CTA 1)", || {
                    pipe.producer_acquire(p, TX, ONE_TRY).is_ok()
                });
                p.advance();
                let mut stage = None;
                spin_until("pipeline: consumer_wait (CTA 1)", || {
                    stage = pipe.consumer_wait(st, ONE_TRY).ok();
                    stage.is_some()
                });
                let v = unsafe { c.stage[st.index()].read(0) };
                assert_eq!(v, tile(t), "pipeline: CTA 1 read a wrong tile");
                if bug == Bug::NoProxyFence {
                    <Cluster as PipelineScope>::release_empty(pipe.empty(st.index()), 0);
                } else if bug == Bug::RestrictedFence {
                    <Cta as PipelineScope>::release_fence(); // …sync_restrict::shared::cta.cluster
                    <Cluster as PipelineScope>::release_empty(pipe.empty(st.index()), 0);
                } else {
                    // fence.proxy.async; mapa; mbarrier.arrive.release.cluster.shared::cluster
                    pipe.consumer_release(stage.unwrap());
                }
                st.advance();
            }
        });
        let c = &m.cta[0];
        let pipe = Pipeline::<S, Cluster>::new(&c.full, &c.empty, 0, true);
        let mut p = PipelineState::<S>::producer_start();
        for t in 0..TILES {
            let mut full = None;
            spin_until(
                "pipeline: producer_acquire: the stage never empties",
                || match pipe.producer_acquire(p, TX, ONE_TRY) {
                    Ok(b) => {
                        full = Some(b);
                        true
                    }
                    Err(_) => false,
                },
            );
            let d = c.stage[p.index()].addr();
            let s = m.src[t as usize].0.as_ptr().cast();
            unsafe { cp_async_bulk_g2s_with(d, s, TX, full.unwrap(), Mods::NONE.multicast(0b11)) };
            p.advance();
        }
        spin_until("pipeline: producer_tail", || {
            pipe.producer_tail(p, ONE_TRY).is_ok()
        });
        peer.join();
        model::drain_copies();
    });
}

/// The `Cluster` pipeline with `consumer_release`'s kept bidirectional `fence.proxy.async`:
/// passes. STAGES 1 (every tile reuses the stage), bound 0.
#[test]
fn pipeline_cluster_stages1_passes() {
    run_cluster::<1>(Bug::None, 0);
}

/// Bound 0.
#[test]
fn pipeline_cluster_stages2_passes() {
    run_cluster::<2>(Bug::None, 0);
}

/// CTA 1's remote arrive on the leader's `empty` without the proxy fence: the next multicast
/// writes CTA 1's stage after its generic read with no fence (seed §5.3). Bound 0.
#[test]
#[should_panic(expected = "proxy race")]
fn pipeline_cluster_no_proxy_fence_caught() {
    run_cluster::<1>(Bug::NoProxyFence, 0);
}

/// CTA 1's consumer fences with `.sync_restrict::shared::cta` (what the `Cta` pipeline's
/// `consumer_release` uses) and then arrives remotely on the leader's `empty`
/// (`.shared::cluster`): the restricted fence's effect covers only operations on `.shared::cta`
/// objects (PTX ISA §9.7.13.4), so nothing carries it to the leader's next multicast into CTA 1's
/// stage — the reason the `Cluster` pipeline keeps the bidirectional `fence.proxy.async`.
/// Bound 0.
#[test]
#[should_panic(expected = "applies only to operations on .shared::cta objects")]
fn pipeline_cluster_restricted_fence_caught() {
    run_cluster::<1>(Bug::RestrictedFence, 0);
}

/// The same, STAGES 2. Bound 0.
#[test]
#[should_panic(expected = "applies only to operations on .shared::cta objects")]
fn pipeline_cluster_stages2_restricted_fence_caught() {
    run_cluster::<2>(Bug::RestrictedFence, 0);
}
