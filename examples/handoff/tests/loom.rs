//! The hand-off under the model checker (`RUSTFLAGS="--cfg loom" cargo test --no-default-features --test loom
//! --release`): the kernel body, launched as 3 model CTAs, never races and always hands off;
//! the same protocol with the consumer's acquire weakened to relaxed is caught.
#![cfg(loom)]
use handoff_example::{handoff, Handoff};
use ptx_sync::index::{launch, Dim3};
use ptx_sync::model::check;
use ptx_sync::prelude::*;
use std::sync::Arc;

#[test]
fn the_kernel_body_hands_off_in_every_execution() {
    check(0, || {
        let h = Arc::new(Handoff::new());
        let out = Arc::new([Strong::new(0u32), Strong::new(0), Strong::new(0)]);
        let (h2, o2) = (h.clone(), out.clone());
        launch(Dim3::x(3), Dim3::x(1), 0, move || {
            // The model's Strong is not a plain word: each CTA stores its result through it.
            let me = block_idx().x as usize;
            let mut word = [0u32; 3];
            unsafe { handoff(&h2, word.as_mut_ptr(), Budget::nanos(1)) };
            let slot = if me == 0 { 2 } else { me - 1 };
            o2[slot].at::<Gpu>().store::<Relaxed>(word[slot]);
        });
        let got: Vec<u32> = out.iter().map(|s| s.at::<Gpu>().load::<Relaxed>()).collect();
        assert_eq!(got, [42, 42, 1]);
    });
}

#[test]
fn a_relaxed_consumer_load_is_a_data_race() {
    let r = std::panic::catch_unwind(|| {
        check(0, || {
            let h = Arc::new(Handoff::new());
            let (p, c) = (h.clone(), h.clone());
            let t = ptx_sync::model::spawn_in(0, 1, move || {
                spin_until(Budget::nanos(1), || c.full.at::<Gpu>().load::<Relaxed>() == 1).unwrap();
                unsafe { c.data.read() }
            });
            unsafe { p.data.write(42) };
            p.full.at::<Gpu>().store::<Release>(1);
            let _ = t.join();
        })
    });
    let err = r.expect_err("the model must catch the missing acquire");
    let msg = err.downcast_ref::<String>().cloned().or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
    assert!(msg.contains("data race"), "{msg}");
}
