//! Issue #13 item 7: the 16-bit integers (`u16`/`i16`: `ld`/`st` `.u16`/`.s16` and their one
//! `atom`, `atom.cas.b16`) in the loom model: a `cas.b16` loop loses no increment, and a load /
//! store read-modify-write of the same `u16` does.
//!
//! | program | variant | verdict |
//! |---|---|---|
//! | two incrementers of one `u16` (from `0xffff`: the sum wraps) | `compare_exchange` loop (`atom.acq_rel.gpu.cas.b16`) | passes: ends at 1 |
//! | two incrementers of one `u16` | `ld.relaxed` then `st.relaxed` | caught: an increment is lost |
//!
//! Preemption bound: 2 for every test.
#![cfg(loom)]

use loom::sync::Arc;
use ptx_sync::{AcqRel, Acquire, Gpu, Relaxed, Strong};
use ptx_sync_loom_tests::{check, spawn};

const BOUND: usize = 2;

fn two_incrementers(cas: bool) {
    check(BOUND, move || {
        let c = Arc::new(Strong::new(0xffffu16));
        let inc = move |c: Arc<Strong<u16>>| {
            let r = c.at::<Gpu>();
            if cas {
                let mut cur = r.load::<Relaxed>();
                while let Err(seen) = r.compare_exchange::<AcqRel>(cur, cur.wrapping_add(1)) {
                    cur = seen;
                }
            } else {
                let v = r.load::<Relaxed>();
                r.store::<Relaxed>(v.wrapping_add(1));
            }
        };
        let (a, b) = (c.clone(), c.clone());
        let t1 = spawn(move || inc(a));
        let t2 = spawn(move || inc(b));
        t1.join();
        t2.join();
        assert_eq!(c.at::<Gpu>().load::<Acquire>(), 1, "an increment was lost");
    });
}

/// `atom.cas.b16` is one atomic read-modify-write of the 16 bits: no increment is lost.
#[test]
fn u16_cas_increments_pass() {
    two_incrementers(true);
}

/// A load and a store are two accesses: both threads may read `0xffff`.
#[test]
#[should_panic(expected = "an increment was lost")]
fn u16_load_store_increments_caught() {
    two_incrementers(false);
}
