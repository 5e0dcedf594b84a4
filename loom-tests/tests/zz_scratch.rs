#![cfg(loom)]
use loom::sync::Arc;
use loom::thread;
use ptx_sync::{Gpu, Relaxed, Strong};
use ptx_sync_loom_tests::{check, spin_until};

#[test]
fn scratch() {
    check(2, || {
        let full = Arc::new(Strong::new(0u32));
        let (f1, f2, f3) = (full.clone(), full.clone(), full.clone());
        let c1 = thread::spawn(move || spin_until("c1 full", || f1.at::<Gpu>().load::<Relaxed>() == 1));
        let c2 = thread::spawn(move || spin_until("c2 full", || f2.at::<Gpu>().load::<Relaxed>() == 1));
        let p = thread::spawn(move || f3.at::<Gpu>().store::<Relaxed>(1));
        c1.join().unwrap(); c2.join().unwrap(); p.join().unwrap();
    });
}
