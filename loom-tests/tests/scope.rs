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
//!
//! Preemption bound: 2 for every test. §5.4 (C2's `.cta` remote arrive on CTA A's `empty`, and
//! the init publication) is written once with the other §5 programs
//! (`ptx_sync_programs::section5::Section54`) and model-checked in `tests/section5.rs`.
#![cfg(loom)]

use ptx_sync::model::Place;
use ptx_sync_loom_tests::programs::{self, LoomEnv};
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
