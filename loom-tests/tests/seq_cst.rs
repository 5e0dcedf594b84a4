//! Issue #13 item 10: the sequentially consistent accesses (`load_sc` = `fence.sc; ld.acquire`,
//! `store_sc` = `fence.sc; st.relaxed`, libcu++'s `memory_order_seq_cst`) forbid store
//! buffering (seed §3.6, PTX ISA §8.9.3 Fence-SC order), which release/acquire accesses allow.
//!
//! | program | variant | verdict |
//! |---|---|---|
//! | store buffering | `store_sc` / `load_sc` on both threads | passes: never both 0 |
//! | store buffering | `store::<Release>` / `load::<Acquire>` | caught: both read 0 |
//! | store buffering | `swap_sc` / `fetch_add_sc(0)` (RMW forms) | passes |
//!
//! Preemption bound: 1 for every test.
#![cfg(loom)]

use loom::sync::Arc;
use ptx_sync::{Acquire, Gpu, Release, Strong};
use ptx_sync_loom_tests::{check, spawn};

const BOUND: usize = 1;

#[derive(Clone, Copy)]
enum Kind {
    Sc,
    ReleaseAcquire,
    ScRmw,
}

fn store_buffering(kind: Kind) {
    check(BOUND, move || {
        let xy = Arc::new((Strong::new(0u32), Strong::new(0u32)));
        let side = move |xy: Arc<(Strong<u32>, Strong<u32>)>, first: bool| {
            let (mine, other) = if first {
                (&xy.0, &xy.1)
            } else {
                (&xy.1, &xy.0)
            };
            match kind {
                Kind::Sc => {
                    mine.at::<Gpu>().store_sc(1);
                    other.at::<Gpu>().load_sc()
                }
                Kind::ReleaseAcquire => {
                    mine.at::<Gpu>().store::<Release>(1);
                    other.at::<Gpu>().load::<Acquire>()
                }
                Kind::ScRmw => {
                    let _ = mine.at::<Gpu>().swap_sc(1);
                    other.at::<Gpu>().fetch_add_sc(0)
                }
            }
        };
        let (a, b) = (xy.clone(), xy.clone());
        let t1 = spawn(move || side(a, true));
        let t2 = spawn(move || side(b, false));
        let (r1, r2) = (t1.join(), t2.join());
        assert!(r1 == 1 || r2 == 1, "store buffering: both threads read 0");
    });
}

/// `fence.sc` before each access: the two fences are ordered in Fence-SC order, so the later
/// one's thread sees the other's store.
#[test]
fn sb_with_sc_accesses_passes() {
    store_buffering(Kind::Sc);
}

/// Release/acquire accesses do not order W→R: both loads may read 0 (seed §3.6).
#[test]
#[should_panic(expected = "store buffering: both threads read 0")]
fn sb_with_release_acquire_caught() {
    store_buffering(Kind::ReleaseAcquire);
}

/// The RMW forms (`fence.sc; atom.acquire`) likewise.
#[test]
fn sb_with_sc_rmws_passes() {
    store_buffering(Kind::ScRmw);
}
