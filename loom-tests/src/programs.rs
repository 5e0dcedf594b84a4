//! The seed's programs (`ptx_sync_programs`, the same source the GPU kernels and the CPU runs
//! use) under loom: [`LoomEnv`], whose waits are model spins, and [`model`], which runs one
//! role per loom thread at the given places and hands the instance to a check.

use loom::sync::Arc;
use ptx_sync::model::{self, Place};
use ptx_sync_programs::cells::Cells;
use ptx_sync_programs::{Env, Litmus, FORBIDDEN};

/// A role's [`Env`] under loom: a wait is [`crate::spin_until`] (a wait no thread can end is a
/// `"deadlock: {what}"` panic), so it never gives up.
pub struct LoomEnv;

impl Env for LoomEnv {
    fn wait(&self, what: &'static str, done: impl FnMut() -> bool) -> bool {
        crate::spin_until(what, done);
        true
    }
}

/// Where role `r` runs: `None` — an unplaced thread (alone in its own CTA and cluster), else
/// the place.
pub type Places = [Option<Place>; 3];

/// Model-checks one instance with preemption bound `bound`: role `order[k]` is the `k`-th loom
/// thread started (at `places[order[k]]`), every role runs `role(r, env, cells)`, and after all
/// are joined `after(cells)` checks the outcome.
pub fn model<R, A>(bound: usize, order: &'static [u32], places: Places, role: R, after: A)
where
    R: Fn(u32, &LoomEnv, &Cells) + Copy + Send + Sync + 'static,
    A: Fn(&Cells) + Copy + Send + Sync + 'static,
{
    crate::check(bound, move || {
        let c = Arc::new(Cells::new());
        let hs: Vec<_> = order
            .iter()
            .map(|&r| {
                let c = c.clone();
                let f = move || role(r, &LoomEnv, &c);
                match places[r as usize] {
                    Some(p) => model::spawn_at(p, f),
                    None => model::spawn(f),
                }
            })
            .collect();
        for h in hs {
            h.join();
        }
        after(&c);
    });
}

/// Each of `n` roles in its own CTA of its own cluster (as the GPU runner places the roles of an
/// instance), roles started in order 0, 1, ….
pub const OWN_CTAS: Places = [
    Some(Place {
        gpu: 0,
        cluster: 0,
        cta: 0,
    }),
    Some(Place {
        gpu: 0,
        cluster: 1,
        cta: 1,
    }),
    Some(Place {
        gpu: 0,
        cluster: 2,
        cta: 2,
    }),
];

/// Role orders.
pub const ORDER_2: &[u32] = &[0, 1];
/// Role orders.
pub const ORDER_3: &[u32] = &[0, 1, 2];

/// The registry's check of `T`: every role in its own CTA, no forbidden outcome
/// (panics with [`FORBIDDEN`] and the words).
pub fn registry_model<T: Litmus + 'static>(bound: usize) {
    let order = if T::SHAPE.roles() == 3 {
        ORDER_3
    } else {
        ORDER_2
    };
    model(
        bound,
        order,
        OWN_CTAS,
        T::role::<LoomEnv, Cells>,
        |c: &Cells| {
            let w = c.words();
            assert!(!T::SHAPE.forbidden(w), "{FORBIDDEN}: words {w:?}");
        },
    );
}

/// The hand-off (`ptx_sync_programs::handoff`) in version `v`: C1, C2, then P started as loom
/// threads (unplaced: each alone in its CTA); both consumers must read 42 and `data` must end as
/// P's 43.
pub fn handoff(bound: usize, v: ptx_sync_programs::handoff::Handoff) {
    use ptx_sync_programs::Mem;
    model(
        bound,
        &[1, 2, 0],
        [None; 3],
        move |r, e: &LoomEnv, c: &Cells| ptx_sync_programs::handoff::role_of(v, r, e, c),
        |c: &Cells| {
            assert_eq!(
                (c.word(0), c.word(1)),
                (42, 42),
                "a consumer read stale or overwritten data"
            );
            assert_eq!(c.word(2), 1, "P did not see the hand-back");
            assert_eq!(unsafe { c.data(0).read() }, 43);
        },
    );
}

/// A §5 role's [`S5Env`](ptx_sync_programs::section5::S5Env) under loom: a phase wait is a
/// model spin on `mbarrier.try_wait.parity.acquire.cta`.
pub struct LoomS5Env;

impl ptx_sync_programs::section5::S5Env for LoomS5Env {
    fn wait_phase(&self, b: &ptx_sync::Mbarrier, phase: ptx_sync::Phase, _bit: u32) -> bool {
        crate::spin_until("a §5 mbarrier phase never completes", || {
            b.try_wait_parity::<ptx_sync::Acquire, ptx_sync::Cta>(phase)
        });
        true
    }
    fn wait_phase_cluster(
        &self,
        b: &ptx_sync::Mbarrier,
        phase: ptx_sync::Phase,
        _bit: u32,
    ) -> bool {
        crate::spin_until("a §5 mbarrier phase never completes", || {
            b.try_wait_parity::<ptx_sync::Acquire, ptx_sync::Cluster>(phase)
        });
        true
    }
}

/// The §5 registry's check of `T` (`ptx_sync_programs::section5`, the source of the GPU kernels
/// `s5*`): the setup on the model's main thread, P and C as loom threads of CTA 0, one lane
/// each, over a `HostMem` (its tile a `ptx_sync::model::Tile`, the copies the library's copy
/// engine); after both are joined and every copy has completed, the output must equal the
/// source (else a [`FORBIDDEN`] panic).
pub fn section5_model<T: ptx_sync_programs::section5::Section5 + 'static>(bound: usize) {
    use ptx_sync_programs::section5::HostMem;
    crate::check(bound, || {
        let m = Arc::new(HostMem::new());
        T::setup(&*m, 0, 2);
        let hs: Vec<_> = (0..2u32)
            .map(|r| {
                let m = m.clone();
                crate::spawn_in(0, 0, move || T::role(r, 0, 1, &LoomS5Env, &*m))
            })
            .collect();
        for h in hs {
            h.join();
        }
        model::drain_copies();
        let words: Vec<u32> = (0..2 * ptx_sync_programs::section5::WORDS)
            .map(|k| m.word(k))
            .collect();
        assert!(m.correct(T::BLOCKS), "{FORBIDDEN}: output {words:?}");
    });
}

/// The §5.4 registry's check of `T` (`ptx_sync_programs::section5::Section54`, the source of the
/// GPU kernels `s54_*`): a cluster of two CTAs over an `S54Host` (each CTA its own tile, a
/// `ptx_sync::model::Tile`, and its own barriers, declared per CTA so that `mapa` and the
/// multicast reach the peer's copy), one loom thread per CTA running its P and C
/// (`Section54::cta`: setup, rounds, drain, exit); each multicast is one copy-engine thread that
/// writes both tiles and completes on both CTAs' `full` (main + 2 CTAs + 2 copies: loom's five
/// threads). After both are joined and every copy has completed, both CTAs' outputs must equal
/// the source (else a [`FORBIDDEN`] panic).
pub fn section54_model<T: ptx_sync_programs::section5::Section54 + 'static>(bound: usize) {
    use ptx_sync_programs::section5::S54Host;
    crate::check(bound, || {
        let h = Arc::new(S54Host::new());
        let hs: Vec<_> = (0..2u32)
            .map(|r| {
                let h = h.clone();
                crate::spawn_in(0, r, move || T::cta(&LoomS5Env, &h.cta(r)))
            })
            .collect();
        for j in hs {
            j.join();
        }
        model::drain_copies();
        let words: Vec<u32> = (0..2)
            .flat_map(|c| (0..2 * ptx_sync_programs::section5::WORDS).map(move |k| (c, k)))
            .map(|(c, k)| h.word(c, k))
            .collect();
        assert!(h.correct(T::BLOCKS), "{FORBIDDEN}: output {words:?}");
    });
}
