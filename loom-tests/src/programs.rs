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
