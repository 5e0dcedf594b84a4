//! Seed §4.1, §4.3, §4.4, §4.5: counting consumers with `count` instead of two `done` flags.
//!
//! | program | variant | verdict |
//! |---|---|---|
//! | §4.1 | `count` read, increment, write back (fences as in §3.4) | caught: an increment is lost, nobody writes `empty` |
//! | §4.1 | `atom.add` (relaxed) + the §3.4 fences | passes |
//! | §4.3 | `atom.acq_rel.gpu.add`, last consumer `st.release` to `empty` | passes |
//! | §4.4 | barrier: `atom.release.gpu.add`, P `ld.acquire` until `count == 2` | passes |
//! | §4.5 | barrier with `red.release.gpu.add` | passes |
//! | §4.5 | barrier with `red.relaxed.gpu.add` | caught: data race on `data` |
//!
//! Preemption bound: 1 for every test.
#![cfg(loom)]

use loom::sync::Arc;
use ptx_sync::{Acquire, Data, Gpu, Relaxed, Release, Strong};
use ptx_sync_loom_tests::programs::{self, LoomEnv};
use ptx_sync_loom_tests::{check, spawn, spin_until};
use ptx_sync_programs::cells::Cells;
use ptx_sync_programs::handoff::{self, Handoff};
use ptx_sync_programs::Mem;

const BOUND: usize = 1;

/// The §4.4 barrier's state (no `full`: data is written before the threads start).
struct Counted {
    data: Data<u32>,
    count: Strong<u32>,
}

impl Counted {
    fn new() -> Arc<Self> {
        Arc::new(Counted {
            data: Data::new(0),
            count: Strong::new(0),
        })
    }
}

/// How a consumer announces it has read `data` (`ptx_sync_programs::handoff`, version `V41`).
use ptx_sync_programs::handoff::Count41 as Consumer;

/// The §4.1/§4.3 hand-off with counting consumers: `ptx_sync_programs::handoff`'s roles (C1, C2,
/// then P as loom threads); both read 42, `data` ends as 43 and `count` as 2.
fn last_consumer_protocol(kind: Consumer) {
    programs::model(
        BOUND,
        &[1, 2, 0],
        [None; 3],
        move |r, e: &LoomEnv, c: &Cells| handoff::role_of(Handoff::V41 { count: kind }, r, e, c),
        |c: &Cells| {
            assert_eq!((c.word(0), c.word(1)), (42, 42));
            assert_eq!(unsafe { c.data(0).read() }, 43);
            assert_eq!(
                c.flag(5).at::<Gpu>().load::<Relaxed>(),
                2,
                "an increment was lost"
            );
        },
    );
}

/// §4.1: C2's read of `count` falls between C1's read and write: both read 0, `count` ends at 1
/// and nobody writes `empty`.
#[test]
#[should_panic(expected = "deadlock: nobody writes empty")]
fn s4_1_read_increment_write_caught() {
    last_consumer_protocol(Consumer::ReadIncrementWrite);
}

/// §4.1: `atom.add` makes the increment indivisible; being relaxed, it keeps the fences.
#[test]
fn s4_1_atom_add_relaxed_with_fences_passes() {
    last_consumer_protocol(Consumer::AtomRelaxedFences);
}

/// §4.3: the fences folded into `atom.acq_rel` and `st.release`.
#[test]
fn s4_3_atom_acq_rel_st_release_passes() {
    last_consumer_protocol(Consumer::AtomAcqRel);
}

#[derive(Clone, Copy)]
enum Arrive {
    AtomRelease,
    RedRelease,
    RedRelaxed,
}

/// §4.4: P waits for `count == 2` with `ld.acquire`; consumers only hand off.
fn barrier(arrive: Arrive) {
    check(BOUND, move || {
        let s = Counted::new();
        unsafe { s.data.write(42) }; // before the threads start: no `full` needed here
        let consumer = move |s: Arc<Counted>| {
            let v = unsafe { s.data.read() };
            let count = s.count.at::<Gpu>();
            match arrive {
                Arrive::AtomRelease => {
                    let _ = count.fetch_add::<Release>(1);
                }
                Arrive::RedRelease => count.red_add::<Release>(1),
                Arrive::RedRelaxed => count.red_add::<Relaxed>(1),
            }
            v
        };
        let (s1, s2, sp) = (s.clone(), s.clone(), s.clone());
        let c1 = spawn(move || consumer(s1));
        let c2 = spawn(move || consumer(s2));
        let p = spawn(move || {
            spin_until("count never reaches 2", || {
                sp.count.at::<Gpu>().load::<Acquire>() == 2
            });
            unsafe { sp.data.write(43) };
        });
        assert_eq!((c1.join(), c2.join()), (42, 42));
        p.join();
    });
}

/// §4.4: `atom.release.gpu.add` in both consumers; P's acquire read of 2 also synchronizes with
/// the consumer that added first, through the RMW chain (release sequence).
#[test]
fn s4_4_barrier_atom_release_passes() {
    barrier(Arrive::AtomRelease);
}

/// §4.5: `red.release.gpu.add` may replace the `atom` (the result is unused).
#[test]
fn s4_5_barrier_red_release_passes() {
    barrier(Arrive::RedRelease);
}

/// §4.5: a relaxed `red` hands nothing off: P's `data = 43` races with a consumer's read.
#[test]
#[should_panic(expected = "ptx-sync model: data race on Data")]
fn s4_5_barrier_red_relaxed_caught() {
    barrier(Arrive::RedRelaxed);
}
