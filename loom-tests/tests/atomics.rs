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
use ptx_sync::{fence, AcqRel, Acquire, Data, Gpu, Relaxed, Release, Strong};
use ptx_sync_loom_tests::{check, spawn, spin_until};

const BOUND: usize = 1;

struct Counted {
    data: Data<u32>,
    full: Strong<u32>,
    count: Strong<u32>,
    empty: Strong<u32>,
}

impl Counted {
    fn new() -> Arc<Self> {
        Arc::new(Counted {
            data: Data::new(0),
            full: Strong::new(0),
            count: Strong::new(0),
            empty: Strong::new(0),
        })
    }
}

/// How a consumer announces it has read `data`.
#[derive(Clone, Copy)]
enum Consumer {
    /// §4.1 broken: `old = count; count = old + 1` (two relaxed accesses), §3.4 fences.
    ReadIncrementWrite,
    /// §4.1 fixed: `old = atom.add(count, 1)` (relaxed), §3.4 fences.
    AtomRelaxedFences,
    /// §4.3: `old = atom.acq_rel.gpu.add(count, 1)`; the last one `st.release` to `empty`.
    AtomAcqRel,
}

fn last_consumer_protocol(kind: Consumer) {
    check(BOUND, move || {
        let s = Counted::new();
        let consumer = move |s: Arc<Counted>| {
            spin_until("nobody writes full", || {
                s.full.at::<Gpu>().load::<Relaxed>() == 1
            });
            fence::<Acquire, Gpu>();
            let v = unsafe { s.data.read() };
            let count = s.count.at::<Gpu>();
            match kind {
                Consumer::ReadIncrementWrite | Consumer::AtomRelaxedFences => {
                    fence::<Release, Gpu>();
                    let old = if let Consumer::ReadIncrementWrite = kind {
                        let old = count.load::<Relaxed>();
                        count.store::<Relaxed>(old + 1);
                        old
                    } else {
                        count.fetch_add::<Relaxed>(1)
                    };
                    if old == 1 {
                        fence::<AcqRel, Gpu>();
                        s.empty.at::<Gpu>().store::<Relaxed>(1);
                    }
                }
                Consumer::AtomAcqRel => {
                    if count.fetch_add::<AcqRel>(1) == 1 {
                        s.empty.at::<Gpu>().store::<Release>(1);
                    }
                }
            }
            v
        };
        let (s1, s2, sp) = (s.clone(), s.clone(), s.clone());
        let c1 = spawn(move || consumer(s1));
        let c2 = spawn(move || consumer(s2));
        let p = spawn(move || {
            unsafe { sp.data.write(42) };
            fence::<Release, Gpu>();
            sp.full.at::<Gpu>().store::<Relaxed>(1);
            spin_until("nobody writes empty", || {
                sp.empty.at::<Gpu>().load::<Relaxed>() == 1
            });
            fence::<Acquire, Gpu>();
            unsafe { sp.data.write(43) };
        });
        assert_eq!((c1.join(), c2.join()), (42, 42));
        p.join();
        assert_eq!(
            s.count.at::<Gpu>().load::<Relaxed>(),
            2,
            "an increment was lost"
        );
    });
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
