//! The tiled copy's ring under the model checker (`RUSTFLAGS="--cfg loom" cargo test --release
//! --no-default-features --test loom`): the example's shape — `Pipeline<1, Cta>`, the producer
//! from `producer_start()`, `producer_acquire(st, TILE_BYTES)`, the consumer's `consumer_wait` /
//! `consumer_release`, `producer_tail` — for two tiles through one stage (the stage is reused),
//! producer and consumer placed in CTA 0. The stage is a `Data<u32>` that the producer writes
//! before the copy engine's completion (`async_copy_complete_tx(TILE_BYTES)`: what the host TMA
//! does after its copy; the host TMA itself copies with a plain memcpy loom cannot see). A
//! consumer that reads the stage after releasing it is caught as a data race.
#![cfg(loom)]
use ptx_sync::model::{check, set_thread, spawn_in};
use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
use ptx_sync::wait::Budget;
use ptx_sync::{Cta, Data, Mbarrier};
use std::sync::Arc;
use tiled_copy_example::TILE_BYTES;

struct Smem {
    full: [Mbarrier<Full>; 1],
    empty: [Mbarrier<Empty>; 1],
    stage: Data<u32>,
}

const TILES: u32 = 2;
const B: Budget = Budget::nanos(1);

fn run(read_after_release: bool) {
    check(2, move || {
        set_thread(0, 0);
        let m = Arc::new(Smem { full: [Mbarrier::new()], empty: [Mbarrier::new()], stage: Data::new(0) });
        Pipeline::<1, Cta>::new(&m.full, &m.empty, 0, true).init(1, 1);
        let mc = m.clone();
        let c = spawn_in(0, 0, move || {
            let pipe = Pipeline::<1, Cta>::new(&mc.full, &mc.empty, 0, true);
            let mut st = PipelineState::<1>::consumer_start();
            let mut got = Vec::new();
            for _ in 0..TILES {
                let stage = pipe.consumer_wait(st, B).unwrap();
                if !read_after_release {
                    got.push(unsafe { mc.stage.read() });
                }
                pipe.consumer_release(stage);
                if read_after_release {
                    got.push(unsafe { mc.stage.read() });
                }
                st.advance();
            }
            got
        });
        let pipe = Pipeline::<1, Cta>::new(&m.full, &m.empty, 0, true);
        let mut st = PipelineState::<1>::producer_start();
        for t in 0..TILES {
            let full = pipe.producer_acquire(st, TILE_BYTES, B).unwrap();
            unsafe { m.stage.write(100 + t) }; // the TMA's writes into the stage
            full.async_copy_complete_tx(TILE_BYTES); // … and its completion on `full`
            st.advance();
        }
        pipe.producer_tail(st, B).unwrap();
        assert_eq!(c.join(), [100, 101], "each tile read once, in order");
    });
}

#[test]
fn two_tiles_through_one_stage_copy_both() {
    run(false);
}

#[test]
fn reading_the_stage_after_releasing_it_is_a_data_race() {
    let err = std::panic::catch_unwind(|| run(true)).expect_err("the model must catch the late read");
    let msg = err.downcast_ref::<String>().cloned().or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
    assert!(msg.contains("data race"), "{msg}");
}
