//! Fence scopes (issue #10 part 3): a fence synchronizes only with fences and accesses that are
//! morally strong with it. PTX ISA §8.9.4: "A release pattern X synchronizes with an acquire
//! pattern Y, if a write operation in X precedes a read operation in Y in observation order, and
//! the first operation in X and the last operation in Y are morally strong"; §8.7: morally strong
//! operations each specify "a scope that includes the thread executing the other operation";
//! §8.9.3: "The Fence-SC order ... relates every pair of morally strong fence.sc operations".
//! Seed §3.4 (message passing with fences), §3.5 (both sides' scopes must include each other;
//! footnote 15: `.cta` across CTAs), §3.6 (store buffering: `fence.sc` forbids both reads 0
//! through the Fence-SC order). IRIW is not in the seed: it is the program for §8.9.3.
//!
//! | program | fences, places | verdict |
//! |---|---|---|
//! | MP | `fence.release.cta` / `fence.acquire.cta`, two CTAs | caught: data race on `data`, naming `fence.release.cta` and both places |
//! | MP | same, one CTA | passes |
//! | MP | same, one CTA, a third thread in another CTA reads the flag | passes (the narrow fences are exact) |
//! | MP | `.cluster` fences, two CTAs of one cluster | passes |
//! | MP | `.cluster` fences, two clusters | caught: data race, naming `fence.release.cluster` |
//! | MP | `fence.release.gpu` / `fence.acquire.cta`, two CTAs | caught: data race, naming the reader's `fence.acquire.cta` |
//! | MP | `fence.release.cta` + `st.relaxed.gpu` / `ld.acquire.gpu`, two CTAs | caught: data race (the pattern's first operation is the `.cta` fence) |
//! | MP | `fence.release.gpu` / `fence.acquire.gpu`, two clusters | passes |
//! | MP | `.cta` fences under plain `loom::model` (not `check`), one CTA / two CTAs | passes / caught |
//! | IRIW | `fence.sc.cta` between the reads, four CTAs | the outcome r1=1,r2=0,r3=1,r4=0 is shown |
//! | IRIW | `fence.sc.gpu`, four CTAs | the outcome never appears (other outcomes do) |
//! | SB | `fence.sc.cta`, two CTAs | both reads 0 is shown |
//! | SB | `fence.sc.cta`, one CTA (a third thread in another CTA fences too) | both reads 0 never appears |
//!
//! Flags are `.relaxed.gpu` (morally strong everywhere on the GPU), so only the fences decide.
//! Preemption bound: 2 for the two-thread programs, 1 for the three-thread ones (MP with the
//! bystander, SB with the third thread) and IRIW (four threads; loom still explores every value
//! each relaxed load may return).
#![cfg(loom)]

use std::collections::HashSet;
use std::sync::{Arc as StdArc, Mutex as StdMutex};

use loom::sync::Arc;
use ptx_sync::model::Place;
use ptx_sync::sem::Scope;
use ptx_sync::{fence, Acquire, Cta, Data, Gpu, Relaxed, Release, Sc, Strong};
use ptx_sync_loom_tests::programs::LoomEnv;
use ptx_sync_loom_tests::{check, place, spawn_at, spin_until};
use ptx_sync_programs::cells::Cells;
use ptx_sync_programs::mp::{self, Mp};
use ptx_sync_programs::ops::{Fence, Ld, Sco, St};
use ptx_sync_programs::Mem;

const P00: Place = place(0, 0);
const P01: Place = place(0, 1);
const P10: Place = place(1, 0);

/// How the consumer acquires.
#[derive(Clone, Copy)]
enum Acq {
    /// `ld.relaxed.gpu` spin, then `fence.acquire.<scope>`.
    Fence,
    /// `ld.acquire.gpu` spin, no fence.
    Load,
}

/// Message passing (seed §3.4): P writes `data`, `fence.release.<R>`, `full = 1` (relaxed .gpu);
/// C spins on `full`, acquires (`fence.acquire.<A>` or `ld.acquire.gpu`), reads `data`.
/// `bystander`: a third thread at that place spins on `full` too (relaxed, no fence). P and C are
/// `ptx_sync_programs::mp`'s roles (the source of the GPU kernels `litmus_mp_*`).
fn mp_at(r: Sco, a: Sco, p: Place, c: Place, acq: Acq, bystander: Option<Place>) {
    let v = Mp {
        sco: Sco::Gpu,
        p_fence: Fence::Release(r),
        st: St::Relaxed,
        ld: match acq {
            Acq::Fence => Ld::Relaxed,
            Acq::Load => Ld::Acquire,
        },
        c_fence: match acq {
            Acq::Fence => Fence::Acquire(a),
            Acq::Load => Fence::None,
        },
        once: false,
    };
    // Three threads with the bystander: bound 1 (bound 2 took 4 s for the same verdict).
    let bound = if bystander.is_some() { 1 } else { 2 };
    check(bound, move || {
        let m = Arc::new(Cells::new());
        let by = bystander.map(|b| {
            let m = m.clone();
            spawn_at(b, move || {
                spin_until("nobody writes full", || {
                    m.flag(1).at::<Gpu>().load::<Relaxed>() == 1
                })
            })
        });
        let (mp_, mc) = (m.clone(), m.clone());
        let pt = spawn_at(p, move || mp::producer(v, &*mp_));
        let ct = spawn_at(c, move || mp::consumer(v, &LoomEnv, &*mc));
        pt.join();
        ct.join();
        assert_eq!(m.word(0), 42, "C read full == 1 but stale data");
        if let Some(b) = by {
            b.join();
        }
    });
}

/// The false pass: `.cta` fences between two CTAs do not synchronize (§8.9.4), so C's
/// read of `data` races with P's write.
#[test]
#[should_panic(
    expected = "ptx-sync model: data race on Data (ld): two conflicting weak accesses that causality order does not order (PTX ISA §8.7.1); `fence.release.cta` by thread (gpu 0, cluster 0, cta 0) does not synchronize with thread (gpu 0, cluster 0, cta 1): its scope (`.cta`) does not include that thread"
)]
fn mp_fence_cta_two_ctas_caught() {
    mp_at(Sco::Cta, Sco::Cta, P00, P01, Acq::Fence, None);
}

#[test]
fn mp_fence_cta_same_cta_passes() {
    mp_at(Sco::Cta, Sco::Cta, P00, P00, Acq::Fence, None);
}

/// A thread of another CTA takes part (it reads the flag), so the `.cta` fences do not include
/// every thread and run through the model's scoped path: P and C of one CTA still synchronize.
#[test]
fn mp_fence_cta_same_cta_with_other_cta_thread_passes() {
    mp_at(Sco::Cta, Sco::Cta, P00, P00, Acq::Fence, Some(P01));
}

#[test]
fn mp_fence_cluster_two_ctas_passes() {
    mp_at(Sco::Cluster, Sco::Cluster, P00, P01, Acq::Fence, None);
}

#[test]
#[should_panic(
    expected = "`fence.release.cluster` by thread (gpu 0, cluster 0, cta 0) does not synchronize with thread (gpu 0, cluster 1, cta 0): its scope (`.cluster`) does not include that thread"
)]
fn mp_fence_cluster_two_clusters_caught() {
    mp_at(Sco::Cluster, Sco::Cluster, P00, P10, Acq::Fence, None);
}

/// The acquire pattern's last operation (C's `fence.acquire.cta`) does not include P's thread.
#[test]
#[should_panic(
    expected = "`fence.acquire.cta` by thread (gpu 0, cluster 0, cta 1) does not synchronize with `fence.release.gpu` by thread (gpu 0, cluster 0, cta 0): its scope (`.cta`) does not include that thread"
)]
fn mp_fence_release_gpu_acquire_cta_two_ctas_caught() {
    mp_at(Sco::Gpu, Sco::Cta, P00, P01, Acq::Fence, None);
}

/// The release pattern's first operation is the `.cta` fence: `ld.acquire.gpu` does not make it
/// synchronize with a thread of another CTA.
#[test]
#[should_panic(
    expected = "`fence.release.cta` by thread (gpu 0, cluster 0, cta 0) does not synchronize with thread (gpu 0, cluster 0, cta 1)"
)]
fn mp_fence_release_cta_ld_acquire_gpu_two_ctas_caught() {
    mp_at(Sco::Cta, Sco::Cta, P00, P01, Acq::Load, None);
}

#[test]
fn mp_fence_gpu_two_clusters_passes() {
    mp_at(Sco::Gpu, Sco::Gpu, P00, P10, Acq::Fence, None);
}

/// IRIW (PTX ISA §8.9.3; the program): W1 `x = 1`, W2 `y = 1`; R1 reads x, `fence.sc.<S>`, reads y; R2 reads y,
/// `fence.sc.<S>`, reads x; each thread in its own CTA. Returns every outcome (r1, r2, r3, r4)
/// seen over all executions.
fn iriw<S: Scope>() -> HashSet<(u32, u32, u32, u32)>
where
    Sc: ptx_sync::fence::FenceInstr<S>,
{
    let seen = StdArc::new(StdMutex::new(HashSet::new()));
    let s2 = seen.clone();
    check(1, move || {
        let x = Arc::new(Strong::new(0u32));
        let y = Arc::new(Strong::new(0u32));
        let cta = |k| Place {
            gpu: 0,
            cluster: 0,
            cta: k,
        };
        let (x1, y1, x2, y2, x3, y3) = (
            x.clone(),
            y.clone(),
            x.clone(),
            y.clone(),
            x.clone(),
            y.clone(),
        );
        let w1 = spawn_at(cta(0), move || x1.at::<Gpu>().store::<Relaxed>(1));
        let w2 = spawn_at(cta(1), move || y1.at::<Gpu>().store::<Relaxed>(1));
        let r1 = spawn_at(cta(2), move || {
            let a = x2.at::<Gpu>().load::<Relaxed>();
            fence::<Sc, S>();
            (a, y2.at::<Gpu>().load::<Relaxed>())
        });
        let r2 = spawn_at(cta(3), move || {
            let a = y3.at::<Gpu>().load::<Relaxed>();
            fence::<Sc, S>();
            (a, x3.at::<Gpu>().load::<Relaxed>())
        });
        w1.join();
        w2.join();
        let ((a, b), (c, d)) = (r1.join(), r2.join());
        s2.lock().unwrap().insert((a, b, c, d));
    });
    let s = seen.lock().unwrap().clone();
    s
}

/// The second false pass: PTX allows r1=1, r2=0, r3=1, r4=0 with `fence.sc.cta` in four
/// CTAs (no two of the fences are morally strong, §8.9.3); the model shows it.
#[test]
fn iriw_fence_sc_cta_four_ctas_shows_the_outcome() {
    let seen = iriw::<Cta>();
    assert!(
        seen.contains(&(1, 0, 1, 0)),
        "no execution produced r1=1,r2=0,r3=1,r4=0: {seen:?}"
    );
}

/// `fence.sc.gpu`: the fences are morally strong, Fence-SC orders them, the outcome is forbidden.
#[test]
fn iriw_fence_sc_gpu_four_ctas_forbids_the_outcome() {
    let seen = iriw::<Gpu>();
    assert!(
        !seen.contains(&(1, 0, 1, 0)),
        "fence.sc.gpu allowed IRIW: {seen:?}"
    );
    // Not vacuous: the reads do see both values.
    assert!(seen.contains(&(1, 1, 1, 1)), "{seen:?}");
    assert!(
        seen.contains(&(1, 0, 0, 0)) || seen.contains(&(0, 0, 1, 0)),
        "{seen:?}"
    );
}

/// Store buffering (seed §3.6, the W→R pair only `fence.sc` orders): T1 `x = 1`, `fence.sc.<S>`,
/// reads y; T2 `y = 1`, `fence.sc.<S>`, reads x. `third`: a thread at that place that also runs
/// `fence.sc.<S>` (so the fences do not include every thread). Returns the outcomes.
fn sb<S: Scope>(t1: Place, t2: Place, third: Option<Place>) -> HashSet<(u32, u32)>
where
    Sc: ptx_sync::fence::FenceInstr<S>,
{
    let seen = StdArc::new(StdMutex::new(HashSet::new()));
    let s2 = seen.clone();
    let bound = if third.is_some() { 1 } else { 2 };
    check(bound, move || {
        let x = Arc::new(Strong::new(0u32));
        let y = Arc::new(Strong::new(0u32));
        let (x1, y1, x2, y2) = (x.clone(), y.clone(), x.clone(), y.clone());
        let th = third.map(|p| {
            let y3 = y.clone();
            spawn_at(p, move || {
                fence::<Sc, S>();
                y3.at::<Gpu>().load::<Relaxed>()
            })
        });
        let a = spawn_at(t1, move || {
            x1.at::<Gpu>().store::<Relaxed>(1);
            fence::<Sc, S>();
            y1.at::<Gpu>().load::<Relaxed>()
        });
        let b = spawn_at(t2, move || {
            y2.at::<Gpu>().store::<Relaxed>(1);
            fence::<Sc, S>();
            x2.at::<Gpu>().load::<Relaxed>()
        });
        let r = (a.join(), b.join());
        if let Some(t) = th {
            t.join();
        }
        s2.lock().unwrap().insert(r);
    });
    let s = seen.lock().unwrap().clone();
    s
}

#[test]
fn sb_fence_sc_cta_two_ctas_shows_both_zero() {
    let seen = sb::<Cta>(P00, P01, None);
    assert!(
        seen.contains(&(0, 0)),
        "no execution read 0 twice: {seen:?}"
    );
}

#[test]
fn sb_fence_sc_cta_one_cta_forbids_both_zero() {
    let seen = sb::<Cta>(P00, P00, Some(P01));
    assert!(
        !seen.contains(&(0, 0)),
        "fence.sc.cta within one CTA allowed SB: {seen:?}"
    );
    assert!(seen.contains(&(1, 1)), "{seen:?}");
}

/// The same program under plain `loom::model` (not `check`): the model resets its state at the
/// first model use of every execution, so the verdicts are the same.
fn mp_plain_loom(c: Place) {
    loom::model(move || {
        let data = Arc::new(Data::new(0u32));
        let full = Arc::new(Strong::new(0u32));
        let (d, f) = (data.clone(), full.clone());
        let p = ptx_sync::model::spawn_at(P00, move || {
            unsafe { d.write(42) };
            fence::<Release, Cta>();
            f.at::<Gpu>().store::<Relaxed>(1);
        });
        let ct = ptx_sync::model::spawn_at(c, move || {
            spin_until("nobody writes full", || {
                full.at::<Gpu>().load::<Relaxed>() == 1
            });
            fence::<Acquire, Cta>();
            unsafe { data.read() }
        });
        p.join();
        assert_eq!(ct.join(), 42, "C read full == 1 but stale data");
    });
}

#[test]
fn mp_fence_cta_same_cta_plain_loom_model_passes() {
    mp_plain_loom(P00);
}

#[test]
#[should_panic(
    expected = "`fence.release.cta` by thread (gpu 0, cluster 0, cta 0) does not synchronize with thread (gpu 0, cluster 0, cta 1)"
)]
fn mp_fence_cta_two_ctas_plain_loom_model_caught() {
    mp_plain_loom(P01);
}
