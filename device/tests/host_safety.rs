//! The host backend's unsafe paths, and what safe code must not be able to do with them (issue
//! #21 §1). `cargo xtask test` runs this file under Miri too (Stacked Borrows, then Tree
//! Borrows: `cargo xtask miri`), so an aliasing or lifetime defect in them fails CI:
//!
//! * a [`ClusterShared`] owns every CTA's copy, and `mapa` (a `remote` view) reaches a peer's
//!   copy through the declaration — raw memory that moving the guard does not retag;
//! * `shared_array!` + `SharedArray::get` and `dynamic_smem` inside `index::launch` (each CTA's
//!   copy a raw allocation handed out by address);
//! * a remote `arrive_expect_tx` on a barrier with no pending arrival panics as the local one
//!   does (it wrapped the count in release builds);
//! * a token of another barrier, a stage of another pipeline: panics (PTX ISA §9.7.13.15.17);
//! * `index::launch`: a panicking thread ends the other threads' barrier waits and is reported;
//!   a barrier half a CTA waits in for ever is a `deadlock: bar.sync: …`; a grid no GPU launches
//!   (a CTA count that overflows, an extent of 0, a CTA of more than 1024 threads) runs nothing
//!   and is an error.
//!
//! Compile-time halves (a `RemoteMbarrier` outliving the `ClusterShared` that owns its barrier,
//! pipeline roles, a second `consumer_release`): `compile_fail_safety.rs`.

use ptx_sync::barrier::sync_threads;
use ptx_sync::cluster::{getctarank, mapa_generic, ClusterShared};
use ptx_sync::index::{launch, thread_idx, try_launch, Dim3, LaunchError};
use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
use ptx_sync::shared::{dynamic_smem, SharedArray};
use ptx_sync::wait::Budget;
use ptx_sync::{
    shared_array, Acquire, AtomicRef, Cluster, Cta, Gpu, Mbarrier, Phase, Relaxed, Release, Strong,
};

const LONG: Budget = Budget::iterations(1 << 40);

// ---- ClusterShared: the guard owns the copies ---------------------------------------------

#[test]
fn a_remote_arrive_reaches_the_peer_copy_the_guard_owns() {
    let bars = ClusterShared::new([Mbarrier::<()>::new(), Mbarrier::new()]);
    let (a, b) = (&bars[0], &bars[1]);
    a.init(1);
    b.init(2);
    // mapa: CTA 1's barrier → CTA 0's (the same offset of the declared variable).
    b.remote(0).arrive::<Release, Cluster>();
    assert!(a.try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
    assert_eq!(
        b.host_state(),
        (0, 2, 2, 0),
        "CTA 1's own barrier untouched"
    );
    // CTA 0 arms CTA 1's barrier with one arrival and 8 bytes.
    a.remote(1).arrive_expect_tx::<Release, Cluster>(8);
    assert_eq!(b.host_state(), (0, 1, 2, 8));
    assert_eq!(getctarank(a.remote(1).addr()), 1);
    assert_eq!(getctarank(b.cluster_view().addr()), 1);
}

#[test]
fn a_moved_guard_keeps_its_copies_where_they_were_declared() {
    let bars = ClusterShared::new([Mbarrier::<()>::new(), Mbarrier::new()]);
    let before = bars[1].shared_addr();
    // Moving the guard (into a box, then a vector) moves no copy: the declaration stays valid.
    let moved: Vec<_> = std::iter::once(Box::new(bars)).collect();
    let bars = &moved[0];
    assert_eq!(bars[1].shared_addr(), before);
    bars[0].init(1);
    bars[1].init(1);
    bars[0].remote(1).arrive::<Release, Cluster>();
    assert!(bars[1].try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
    assert!(!bars[0].try_wait_parity::<Acquire, Cluster>(Phase::ZERO));
}

#[test]
fn a_remote_arrive_from_another_thread_publishes_its_write() {
    let bars = ClusterShared::new([Mbarrier::<()>::new(), Mbarrier::new()]);
    let data = Strong::new(0u32);
    bars[0].init(1);
    bars[1].init(1);
    std::thread::scope(|s| {
        s.spawn(|| {
            // "CTA 1": writes, then arrives on CTA 0's barrier through its own copy's address.
            data.at::<Cluster>().store::<Relaxed>(7);
            bars[1].remote(0).arrive::<Release, Cluster>();
        });
        let r = bars[0].wait_parity::<Acquire, Cluster>(Phase::ZERO, LONG);
        assert!(r.is_ok());
        assert_eq!(data.at::<Cluster>().load::<Relaxed>(), 7);
    });
}

#[test]
fn mapa_generic_reaches_the_peer_copy_of_a_strong_array() {
    let words = ClusterShared::new([0, 1].map(|_| [0, 1, 2, 3].map(|_| Strong::new(0u32))));
    let p = mapa_generic(words[0][2].as_ptr(), 1);
    assert_eq!(p as *const u32, words[1][2].as_ptr() as *const u32);
    // SAFETY: `p` is CTA 1's copy of word 2 (a `Strong`: interior mutable), alive while
    // `words` is; accessed atomically only.
    unsafe { Strong::<u32>::from_ptr(p) }
        .at::<Cluster>()
        .store::<Relaxed>(5);
    assert_eq!(words[1][2].at::<Cluster>().load::<Relaxed>(), 5);
    assert_eq!(
        words[0][2].at::<Cluster>().load::<Relaxed>(),
        0,
        "CTA 0's copy untouched"
    );
}

// ---- shared_array! and dynamic shared memory inside a launch ------------------------------

shared_array!(static BARS: [Mbarrier; 2], align 8);
shared_array!(static FLAGS: [Strong<u32>; 4], align 16);

/// The documented use: thread 0 of each CTA inits the CTA's barrier, `sync_threads` publishes,
/// every thread arrives and waits. Two CTAs: two copies.
#[test]
fn shared_array_get_inside_a_launch_is_per_cta() {
    let seen = [Strong::new(0u64), Strong::new(0u64)];
    launch(Dim3::x(2), Dim3::x(2), 0, || {
        // SAFETY: `init` by thread 0 before `sync_threads`, every other use after it; the
        // references stay in the kernel body.
        let (b, f) = unsafe { (BARS.get(1), FLAGS.get(3)) };
        let cta = ptx_sync::index::block_idx().x as usize;
        if thread_idx().x == 0 {
            b.init(2);
            f.at::<Cta>().store::<Relaxed>(10 + cta as u32);
            seen[cta]
                .at::<Gpu>()
                .store::<Relaxed>(b as *const Mbarrier as u64);
        }
        sync_threads();
        let _ = b.arrive::<Release, Cta>();
        assert!(b.wait_parity::<Acquire, Cta>(Phase::ZERO, LONG).is_ok());
        assert_eq!(
            f.at::<Cta>().load::<Relaxed>(),
            10 + cta as u32,
            "the CTA's own copy"
        );
    });
    let (a, b) = (
        seen[0].at::<Gpu>().load::<Relaxed>(),
        seen[1].at::<Gpu>().load::<Relaxed>(),
    );
    assert!(a != 0 && b != 0 && a != b, "each CTA has its own copy");
}

#[test]
fn the_dynamic_window_is_per_cta_through_atomic_refs() {
    let total = Strong::new(0u32);
    launch(Dim3::x(2), Dim3::x(4), 16, || {
        let w = dynamic_smem().to_generic::<u32>();
        let t = thread_idx().x as usize;
        // SAFETY: word `t` of the CTA's 16-byte window, accessed atomically only.
        unsafe { AtomicRef::<u32, Cta>::from_ptr(w.add(t)).store::<Relaxed>(t as u32 + 1) };
        sync_threads();
        if t == 0 {
            let s: u32 = (0..4)
                .map(|i| unsafe { AtomicRef::<u32, Cta>::from_ptr(w.add(i)).load::<Relaxed>() })
                .sum();
            let _ = total.at::<Gpu>().fetch_add::<Relaxed>(s);
        }
    });
    assert_eq!(total.at::<Gpu>().load::<Relaxed>(), 2 * (1 + 2 + 3 + 4));
}

// ---- an arrival too many: remote and local alike ------------------------------------------

/// `init(1)` then one `arrive.expect_tx`: the phase has no pending arrival left (it waits for
/// its bytes). One more arrival has no phase to count in (PTX ISA §9.7.13.15.1: the pending
/// count goes from the expected count down to zero).
fn armed() -> Mbarrier {
    let b: Mbarrier = Mbarrier::new();
    b.init(1);
    let _ = b.arrive_expect_tx::<Release, Cta>(8);
    assert_eq!(b.host_state(), (0, 0, 1, 8));
    b
}

#[test]
#[should_panic(expected = "mbarrier: more arrivals than expected in this phase (pending 0")]
fn a_remote_arrive_expect_tx_with_no_pending_arrival_panics() {
    armed().remote(0).arrive_expect_tx::<Release, Cluster>(8);
}

#[test]
#[should_panic(expected = "mbarrier: more arrivals than expected in this phase (pending 0")]
fn a_local_arrive_expect_tx_with_no_pending_arrival_panics_alike() {
    let _ = armed().arrive_expect_tx::<Release, Cta>(8);
}

#[test]
#[should_panic(expected = "mbarrier: more arrivals than expected in this phase (pending 0")]
fn a_remote_arrive_with_no_pending_arrival_panics() {
    armed().remote(0).arrive::<Release, Cluster>();
}

// ---- tokens and stages name their barrier / pipeline ---------------------------------------

#[test]
#[should_panic(expected = "mbarrier: a token of another barrier")]
fn a_token_of_another_barrier_with_the_same_tag_panics() {
    let (a, b): (Mbarrier, Mbarrier) = (Mbarrier::new(), Mbarrier::new());
    a.init(1);
    b.init(2);
    let t = a.arrive::<Release, Cta>(); // completes a's phase 0
    let _ = b.try_wait::<Acquire, Cta>(t); // b's phase 0 is not complete: a lie, if accepted
}

#[test]
#[should_panic(expected = "pipeline: consumer_release of a stage another pipeline's")]
fn a_stage_released_on_another_pipeline_panics() {
    let fa: [Mbarrier<Full>; 1] = [Mbarrier::new()];
    let ea: [Mbarrier<Empty>; 1] = [Mbarrier::new()];
    let fb: [Mbarrier<Full>; 1] = [Mbarrier::new()];
    let eb: [Mbarrier<Empty>; 1] = [Mbarrier::new()];
    let (a, b) = (
        Pipeline::<1, Cta>::new(&fa, &ea, 0, true),
        Pipeline::<1, Cta>::new(&fb, &eb, 0, true),
    );
    a.init(1, 1);
    b.init(1, 1);
    let _ = a.producer_acquire(PipelineState::producer_start(), 0, Budget::iterations(10));
    let stage = a.consumer_wait(PipelineState::consumer_start(), Budget::iterations(10));
    b.consumer_release(stage.unwrap()); // b's stage 0 was never filled
}

// ---- index::launch: panics, deadlocks, shapes -----------------------------------------------

#[test]
fn a_panicking_thread_is_reported_and_ends_the_others_waits() {
    let r = try_launch(Dim3::x(2), Dim3::x(4), 0, || {
        if ptx_sync::index::block_idx().x == 1 && thread_idx().x == 3 {
            panic!("boom in CTA 1");
        }
        sync_threads(); // CTA 1's three other threads wait here for thread 3
        sync_threads();
    });
    assert_eq!(
        r,
        Err(LaunchError::Panicked {
            ctaid: Dim3::new(1, 0, 0),
            tid: Dim3::new(3, 0, 0),
            message: "boom in CTA 1".into()
        })
    );
}

#[test]
#[should_panic(expected = "boom")]
fn launch_resumes_the_panic() {
    launch(Dim3::x(1), Dim3::x(2), 0, || {
        if thread_idx().x == 0 {
            panic!("boom");
        }
        sync_threads();
    });
}

#[test]
fn half_a_cta_at_sync_threads_is_a_deadlock_that_names_the_barrier() {
    let r = try_launch(Dim3::x(1), Dim3::x(4), 0, || {
        if thread_idx().x.is_multiple_of(2) {
            sync_threads(); // threads 0 and 2; 1 and 3 return
        }
    });
    let Err(LaunchError::Deadlock(m)) = r else {
        panic!("expected a deadlock, got {r:?}")
    };
    assert!(
        m.starts_with(
            "deadlock: bar.sync: not every thread arrives at the barrier (barrier 0, 4 threads): \
             2 thread(s) wait for ever"
        ),
        "{m}"
    );
    assert!(
        m.contains("CTA (0, 0, 0) thread (0, 0, 0)") && m.contains("thread (2, 0, 0)"),
        "{m}"
    );
    assert!(m.ends_with("2 thread(s) returned without arriving"), "{m}");
}

#[test]
fn a_deadlock_across_two_barriers_is_found_too() {
    // Thread 0 waits at named barrier 1 (2 threads), thread 1 at `bar.sync 0` (2 threads).
    let bar1 = ptx_sync::barrier::NamedBarrier::new(1, 2);
    let r = try_launch(Dim3::x(1), Dim3::x(2), 0, || {
        if thread_idx().x == 0 {
            bar1.sync();
        } else {
            sync_threads();
        }
    });
    assert!(
        matches!(&r, Err(LaunchError::Deadlock(m)) if m.contains("2 thread(s) wait for ever")),
        "{r:?}"
    );
}

#[test]
#[should_panic(expected = "deadlock: bar.sync")]
fn launch_panics_on_a_deadlock() {
    launch(Dim3::x(1), Dim3::x(2), 0, || {
        if thread_idx().x == 0 {
            sync_threads();
        }
    });
}

#[test]
fn a_grid_whose_cta_count_overflows_is_an_error_and_runs_nothing() {
    let ran = Strong::new(0u32);
    let count = || {
        let _ = ran.at::<Gpu>().fetch_add::<Relaxed>(1);
    };
    // 2^16 × 2^16 CTAs: 2^32 wraps a u32 to 0 (%nctaid.y is at most 65535, PTX ISA §10.7).
    let r = try_launch(Dim3::new(1 << 16, 1 << 16, 1), Dim3::x(1), 0, count);
    assert!(
        matches!(&r, Err(LaunchError::Shape(m)) if m.contains("%nctaid")),
        "{r:?}"
    );
    // ISA-legal extents whose product passes u32: still more threads than the host runs.
    let r = try_launch(Dim3::new(1 << 20, 4096, 1), Dim3::x(1024), 0, count);
    assert!(
        matches!(&r, Err(LaunchError::Shape(m)) if m.contains("the host runs at most")),
        "{r:?}"
    );
    let r = try_launch(Dim3::new(1, 0, 1), Dim3::x(1), 0, count);
    assert!(
        matches!(&r, Err(LaunchError::Shape(m)) if m.contains("an extent is 0")),
        "{r:?}"
    );
    let r = try_launch(Dim3::x(1), Dim3::new(64, 32, 1), 0, count);
    assert!(
        matches!(&r, Err(LaunchError::Shape(m)) if m.contains("at most 1024")),
        "{r:?}"
    );
    assert_eq!(ran.at::<Gpu>().load::<Relaxed>(), 0, "nothing ran");
    // One CTA of one thread runs.
    assert_eq!(try_launch(Dim3::x(1), Dim3::x(1), 0, count), Ok(()));
    assert_eq!(ran.at::<Gpu>().load::<Relaxed>(), 1);
}

/// The largest CTA (1024 threads, %ntid.z at its maximum 64) runs, and waits at its barrier
/// (sleeping). Not in the Miri run (`cargo xtask miri` skips it: 1024 interpreted threads take
/// most of a minute and reach no unsafe path the smaller launches above do not).
#[test]
fn the_largest_cta_runs() {
    let ran = Strong::new(0u32);
    let r = try_launch(Dim3::x(1), Dim3::new(8, 2, 64), 0, || {
        let _ = ran.at::<Gpu>().fetch_add::<Relaxed>(1);
        sync_threads();
        assert_eq!(ran.at::<Gpu>().load::<Relaxed>(), 1024);
    });
    assert_eq!(r, Ok(()));
}

#[test]
#[should_panic(expected = "%nctaid is at most")]
fn launch_panics_on_a_bad_grid() {
    launch(Dim3::new(1, 1 << 16, 1), Dim3::x(1), 0, || {});
}
