//! Waits under loom (issue #10 part 3, "budgets"): the library's bounded waits
//! (`ptx_sync::wait::spin_until` and what is built on it) are model spins under `--cfg loom`. A
//! wait that no thread can end is a `deadlock: …` panic, never a `Timeout`; a correct protocol
//! never reports `Timeout` whatever its budget; a schedule that starves a thread is *abandoned*,
//! counted and reported by `check`, and a model whose every execution is abandoned fails (it
//! checked nothing). Seed 004 (DeepEP's `timeout_check`: a broken protocol must report, not
//! hang); PTX ISA §9.7.13.15.17 (`mbarrier.try_wait` may return false any number of times).
//!
//! | program | verdict |
//! |---|---|
//! | `Mbarrier::wait_parity` on a barrier nobody arrives at, `Budget::iterations(3)` | caught: `deadlock: ptx_sync::wait::spin_until …` (not `Err(Timeout)`) |
//! | a model spin starved by a thread that yields outside the model's bookkeeping, in every execution | caught: `every execution … was abandoned` |
//!
//! The DeepEP barrier with the library's budgeted wait (no false timeout) is in `deepep.rs`.
//! Preemption bound: 1 and 0.
#![cfg(loom)]

use loom::sync::Arc;
use ptx_sync::wait::Budget;
use ptx_sync::{Acquire, Cta, Gpu, Mbarrier, Phase, Release, Strong};
use ptx_sync_loom_tests::{check, spawn_in, spin_until};

/// C waits for phase 0 of `full`, which expects 2 arrivals; P arrives once.
#[test]
#[should_panic(
    expected = "deadlock: ptx_sync::wait::spin_until: the condition never holds (no thread can make it true)"
)]
fn mbarrier_wait_that_cannot_end_is_a_deadlock() {
    check(1, || {
        let full: Arc<Mbarrier> = Arc::new(Mbarrier::new());
        full.init(2);
        let f = full.clone();
        let p = spawn_in(0, 0, move || {
            let _ = f.arrive::<Release, Cta>();
        });
        let c = spawn_in(0, 0, move || {
            full.wait_parity::<Acquire, Cta>(Phase::ZERO, Budget::iterations(3))
        });
        p.join();
        let r = c.join();
        panic!("the wait returned {r:?} instead of being reported as a deadlock");
    });
}

/// The spinner (the main thread) waits for a flag that a thread sets only after 64 raw
/// `yield_now`s: that thread is live but makes no progress the model can see, so every schedule
/// starves the spinner and every execution is abandoned.
#[test]
#[should_panic(
    expected = "was abandoned: no schedule let the waits finish, so nothing was checked"
)]
fn every_execution_abandoned_fails() {
    check(0, || {
        let flag = Arc::new(Strong::new(0u32));
        let f = flag.clone();
        let busy = spawn_in(0, 0, move || {
            for _ in 0..64 {
                loom::thread::yield_now();
            }
            f.at::<Gpu>().store::<Release>(1);
        });
        spin_until("nobody sets flag", || {
            flag.at::<Gpu>().load::<Acquire>() == 1
        });
        busy.join();
    });
}
