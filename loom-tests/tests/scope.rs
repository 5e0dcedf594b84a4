//! Scope-aware checking (PTX ISA §8.7 morally strong; seed §3.5 footnote 15, §4.2, §5.4): each
//! loom thread is placed in a (cluster, CTA); two conflicting strong accesses whose scopes do not
//! include each other's threads, and which causality order does not order, are a data race —
//! reported by `ptx_sync::model` with "not morally strong". The same programs with wide enough
//! scopes pass.
//!
//! | program | variant | verdict |
//! |---|---|---|
//! | §3.5 fn. 15 | `st.release.cta` / `ld.acquire.cta`, P and C in two CTAs | caught: not morally strong |
//! | §3.5 fn. 15 | `.cta`, P and C in the same CTA | passes |
//! | §3.5 fn. 15 | `.cluster`, two CTAs of one cluster | passes |
//! | §3.5 fn. 15 | `.cluster`, two clusters | caught: not morally strong |
//! | §3.5 fn. 15 | `.gpu`, two clusters | passes |
//! | §4.2 | C1 `atom.cta.add`, C2 `atom.gpu.add`, two CTAs | caught: not morally strong |
//! | §4.2 | both `atom.gpu.add` | passes |
//! | §5.4 | C2 in CTA B arrives on CTA A's `empty` (the library's `Mbarrier::remote(..).arrive::<Release, Cta>()`), P waits `.acquire.cta` | caught: not morally strong, naming the remote arrive |
//! | §5.4 | `.release.cluster` / `.acquire.cluster` | passes |
//!
//! Preemption bound: 2 for every test. The §5.4 model starts from a filled tile in both CTAs
//! (the multicast of the previous round) and checks the `empty` hand-off and the reuse (P's
//! multicast with the library's `cp_async_bulk_g2s_multicast`, performed by the library's copy
//! engine under loom); the
//! `mbarrier.init` publication (`fence.mbarrier_init` + `barrier.cluster`) is the threads'
//! creation here.
#![cfg(loom)]

use loom::sync::Arc;
use ptx_sync::copy::cp_async_bulk_g2s_multicast;
use ptx_sync::mbarrier::{ArriveInstr, RemoteArriveInstr, WaitInstr};
use ptx_sync::model::{self, Place};
use ptx_sync::model::{drain_copies, Tile};
use ptx_sync::proxy::fence_proxy_async;
use ptx_sync::sem::Scope;
use ptx_sync::wait::Budget;
use ptx_sync::Shared;
use ptx_sync::{Acquire, Cluster, Cta, Mbarrier, Phase, Release};
use ptx_sync_loom_tests::programs::{self, LoomEnv};
use ptx_sync_loom_tests::{assert_caught_all, check, spawn_in};
use ptx_sync_programs::cells::Cells;
use ptx_sync_programs::count::{self, Count};
use ptx_sync_programs::mp::{self, Mp};
use ptx_sync_programs::ops::Sco;

const BOUND: usize = 2;

fn at((cluster, cta): (u32, u32)) -> Option<Place> {
    Some(Place {
        gpu: 0,
        cluster,
        cta,
    })
}

/// §3.3's message passing at scope `sco` (`ptx_sync_programs::mp`, the source of the GPU
/// kernels `litmus_mp_*`), P at `p` and C at `c` (cluster, CTA).
fn message_passing(sco: Sco, p: (u32, u32), c: (u32, u32)) {
    let v = Mp { sco, ..mp::REL_ACQ };
    programs::model(
        BOUND,
        programs::ORDER_2,
        [at(p), at(c), None],
        move |r, e: &LoomEnv, m: &Cells| mp::role_of(v, r, e, m),
        |m: &Cells| assert_eq!(m.word(0), 42, "read full == 1 but stale data"),
    );
}

/// Footnote 15: measured on an H200, 188 k of 6.4 M rounds read `full == 1` and stale data.
#[test]
#[should_panic(expected = "not morally strong")]
fn s3_5_fn15_release_acquire_cta_two_ctas_caught() {
    message_passing(Sco::Cta, (0, 0), (0, 1));
}

#[test]
fn s3_5_fn15_release_acquire_cta_same_cta_passes() {
    message_passing(Sco::Cta, (0, 0), (0, 0));
}

#[test]
fn s3_5_fn15_release_acquire_cluster_two_ctas_passes() {
    message_passing(Sco::Cluster, (0, 0), (0, 1));
}

#[test]
#[should_panic(expected = "not morally strong")]
fn s3_5_fn15_release_acquire_cluster_two_clusters_caught() {
    message_passing(Sco::Cluster, (0, 0), (1, 0));
}

#[test]
fn s3_5_fn15_release_acquire_gpu_two_clusters_passes() {
    message_passing(Sco::Gpu, (0, 0), (1, 0));
}

/// §4.2's counter (`ptx_sync_programs::count`, the source of `litmus_count_atom_*`): C1's
/// `atom.relaxed.add` at `c1` in CTA 0, C2's at `c2` in CTA 1 of cluster 0.
fn two_atoms(c1: Sco, c2: Sco) {
    let v = Count::Atom { c1, c2 };
    programs::model(
        BOUND,
        programs::ORDER_2,
        [at((0, 0)), at((0, 1)), None],
        move |r, e: &LoomEnv, m: &Cells| count::role_of(v, r, e, m),
        |m: &Cells| {
            let mut olds = [m.word(0), m.word(1)];
            olds.sort();
            assert_eq!(olds, [0, 1], "both consumers read the same old value");
        },
    );
}

/// §4.2: `atom.cta` in C1 (CTA 0) and `atom.gpu` in C2 (CTA 1): atomicity does not hold between
/// them (on the GPU both may read 0).
#[test]
#[should_panic(expected = "not morally strong")]
fn s4_2_atom_cta_vs_atom_gpu_caught() {
    two_atoms(Sco::Cta, Sco::Gpu);
}

#[test]
fn s4_2_atom_gpu_both_passes() {
    two_atoms(Sco::Gpu, Sco::Gpu);
}

/// Global memory, 16-aligned (a TMA source).
#[repr(align(16))]
struct Src([u32; 4]);

const A: Place = Place {
    gpu: 0,
    cluster: 0,
    cta: 0,
};
const B: Place = Place {
    gpu: 0,
    cluster: 0,
    cta: 1,
};

/// §5.4: P (CTA A) reuses the tiles of A and B once `empty` (in A, count 2) completes; C1 (A)
/// and C2 (B) read their CTA's tile, `fence.proxy.async`, and arrive on `empty` (C2 remotely,
/// through `Mbarrier::remote`, a `RemoteMbarrier`). The library's own `Mbarrier`: its arrive and
/// wait are strong accesses of the model at the scope `S` they name.
fn cluster_reuse<S: Scope>()
where
    Release: ArriveInstr<S> + RemoteArriveInstr<S>,
    Acquire: WaitInstr<S>,
{
    check(BOUND, || {
        // `mbarrier.init` by a thread of A, before the others start (their creation publishes it).
        model::set_place(A);
        let src = Arc::new(Src([2; 4]));
        let tile_a = Arc::new(Tile::new(4, 1u32));
        let tile_b = Arc::new(Tile::new(4, 1u32));
        let empty: Arc<Mbarrier> = Arc::new(Mbarrier::new());
        empty.init(2);
        let full: Arc<Mbarrier> = Arc::new(Mbarrier::new());
        full.init(1);
        let (ta1, e1) = (tile_a.clone(), empty.clone());
        let c1 = spawn_in(A.cluster, A.cta, move || {
            let v = unsafe { ta1.read(0) };
            fence_proxy_async::<Shared>();
            let _ = e1.arrive::<Release, S>(); // mbarrier.arrive.release.<S>.shared::cta.b64
            v
        });
        let (tb2, e2) = (tile_b.clone(), empty.clone());
        let c2 = spawn_in(B.cluster, B.cta, move || {
            let v = unsafe { tb2.read(0) };
            fence_proxy_async::<Shared>();
            // mapa + mbarrier.arrive.release.<S>.shared::cluster.b64 on A's barrier
            e2.remote(A.cta).arrive::<Release, S>();
            v
        });
        let (s, ta, e, f) = (src.clone(), tile_a.clone(), empty.clone(), full.clone());
        let p = spawn_in(A.cluster, A.cta, move || {
            e.wait_parity::<Acquire, S>(Phase::ZERO, Budget::nanos(1_000_000_000))
                .expect("a budget never times out under loom");
            // The TMA multicast of the next tile (the library's copy: its async-proxy writes on
            // a copy-engine thread, checked against C1's generic read of tile A; the model lands
            // a multicast in the issuing CTA's tile only).
            let _ = f.arrive_expect_tx::<Release, Cta>(16);
            unsafe { cp_async_bulk_g2s_multicast(ta.addr(), s.0.as_ptr().cast(), 16, &*f, 0b11) };
        });
        assert_eq!((c1.join(), c2.join()), (1, 1));
        p.join();
        drain_copies();
        assert_eq!(unsafe { tile_a.read(3) }, 2, "the multicast wrote tile A");
    });
}

/// §5.4: `mbarrier.arrive` / `try_wait` without a scope are `.cta`: C2's remote arrive and P's
/// wait (and C1's arrive) do not include each other's threads. Caught through the library's
/// `RemoteMbarrier::arrive::<Release, Cta>()`.
#[test]
fn s5_4_remote_arrive_cta_caught() {
    assert_caught_all(
        cluster_reuse::<Cta>,
        &[
            "ptx-sync model: data race: ",
            "`mbarrier.arrive.release.cta.shared::cluster.b64` by thread (gpu 0, cluster 0, cta 1)",
            "are not morally strong (PTX ISA §8.7",
        ],
    );
}

/// §5.4 fixed: `.release.cluster` on the arrive, `.acquire.cluster` on the wait.
#[test]
fn s5_4_remote_arrive_cluster_passes() {
    cluster_reuse::<Cluster>();
}
