//! The reduction's grid-wide hand-off under the model checker (`RUSTFLAGS="--cfg loom" cargo
//! test --release --no-default-features --test loom`): three CTAs (thread 0 of each, placed in
//! their own CTA) publish partials and take tickets; with `atom.acq_rel.gpu` the last one always
//! sums all three (preemption bound 2), with a relaxed ticket reading the partials is caught as a data race.
#![cfg(loom)]
use ptx_sync::model::{check, spawn_in};
use ptx_sync::atomic::{op::Add, AtomInstr};
use ptx_sync::sem::RmwSem;
use ptx_sync::Generic;
use ptx_sync::{AcqRel, Data, Gpu, Relaxed, Strong};
use reduction_example::Tickets;
use std::sync::Arc;

struct Grid {
    partials: Vec<Data<u32>>,
    ticket: Strong<u32>,
    totals: Strong<u32>,
}

fn model<S: RmwSem>()
where
    u32: AtomInstr<Add, S, Gpu, Generic>,
{
    check(2, || {
        let g = Arc::new(Grid { partials: (0..3).map(|_| Data::new(0)).collect(), ticket: Strong::new(0), totals: Strong::new(0) });
        let hs: Vec<_> = (0..3u32)
            .map(|cta| {
                let g = g.clone();
                spawn_in(0, cta, move || {
                    let t = Tickets { partials: &g.partials, ticket: &g.ticket };
                    if let Some(total) = t.finish::<S>(cta, 1 << cta) {
                        assert_eq!(total, 7, "the last CTA sees every partial");
                        g.totals.at::<Gpu>().red_add::<Relaxed>(1);
                    }
                })
            })
            .collect();
        for h in hs {
            h.join();
        }
        assert_eq!(g.totals.at::<Gpu>().load::<Relaxed>(), 1, "exactly one CTA sums");
    });
}

#[test]
fn acq_rel_ticket_sums_every_partial() {
    model::<AcqRel>();
}

#[test]
fn a_relaxed_ticket_is_a_data_race_on_the_partials() {
    let err = std::panic::catch_unwind(model::<Relaxed>).expect_err("the model must catch the relaxed ticket");
    let msg = err.downcast_ref::<String>().cloned().or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
    assert!(msg.contains("data race"), "{msg}");
}
