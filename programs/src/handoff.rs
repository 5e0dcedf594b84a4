//! The P/C1/C2 hand-off (seed §1, §2.5, §3.4, §4.3, §4.4, §4.5): P writes `data = 42` and sets
//! `full`; C1 and C2 wait for `full`, read `data` and hand back; once both are done P overwrites
//! `data` with 43. Roles 0 = P, 1 = C1, 2 = C2 (three CTAs on the GPU, three loom threads);
//! variables data, full, done1, done2, empty, count. Output: word 0 = value1, word 1 = value2,
//! word 2 = 1 if P saw the hand-back and wrote 43, word 3 = timeout mask. Correct: value1 ==
//! value2 == 42 and P wrote 43.

use crate::env::{Env, Mem, TIMED_OUT};
use crate::ops::{self, Fence, Ld, Red, Rmw, Sco, St};
use crate::registry::{variant, Shape, Verdict};

const DATA: usize = 0;
const FULL: usize = 1;
const DONE1: usize = 2;
const DONE2: usize = 3;
const EMPTY: usize = 4;
const COUNT: usize = 5;

const SC: Fence = Fence::Sc(Sco::Gpu);

/// How the consumers of the §4.4 barrier arrive on `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrive {
    /// `atom{.sem}.gpu.add` (the old value unused).
    Atom(Rmw),
    /// `red{.sem}.gpu.add`.
    Red(Red),
}

/// How a §4.1 consumer counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count41 {
    /// `fence.release`, then `old = ld.relaxed count; st.relaxed count, old + 1` (broken: both
    /// may read 0).
    ReadIncrementWrite,
    /// `fence.release`, then `old = atom.relaxed.gpu.add(count, 1)`.
    AtomRelaxedFences,
    /// `old = atom.acq_rel.gpu.add(count, 1)`; the last one `st.release` to `empty`.
    AtomAcqRel,
}

/// One version of the hand-off.
#[derive(Clone, Copy, Debug)]
pub enum Handoff {
    /// §2: relaxed flags; each `bool` is one of the seed's `fence.sc.gpu` (§2.2 `ww`: P between
    /// `data = 42` and `full = 1`; §2.3 `rr`: C between `full` and `data`; §2.4 `rw`: C between
    /// `data` and its `done`; §2.1 `wr`: C between its `done` and the other's; `hand_back`: P's
    /// after seeing `empty` and C's before `empty = 1`).
    V2 {
        ww: bool,
        rr: bool,
        rw: bool,
        wr: bool,
        hand_back: bool,
    },
    /// §3.4: `fence.release`/`fence.acquire`, `fence.acq_rel` before `empty = 1`, and `wr`
    /// between a consumer's `done` and the other's (`fence.sc` in the correct version); C2's
    /// `fence.release` before its `done` kept iff `c2_release`.
    V34 { wr: Fence, c2_release: bool },
    /// §4.1: the §3.4 producer, and consumers that count on `count` instead of two `done` flags;
    /// the one that saw 1 writes `empty` (`fence.acq_rel` + relaxed store, or `st.release` for
    /// [`Count41::AtomAcqRel`]).
    V41 { count: Count41 },
    /// §4.3: flags release/acquire; `old = atom{.atom}.gpu.add(count, 1)`, the consumer that saw
    /// 1 writes `empty` with `st{.empty}.gpu`.
    V43 { atom: Rmw, empty: St },
    /// §4.4: a barrier: each consumer arrives on `count`, P waits (`ld.acquire.gpu`) for 2.
    V44 { arrive: Arrive },
}

/// Every fence of §2.5.
pub const V2_ALL: Handoff = Handoff::V2 {
    ww: true,
    rr: true,
    rw: true,
    wr: true,
    hand_back: true,
};

#[inline(always)]
fn when(b: bool, f: Fence) -> Fence {
    if b {
        f
    } else {
        Fence::None
    }
}

/// P's role; returns whether it saw the hand-back (and wrote 43).
#[inline(always)]
pub fn producer<E: Env, M: Mem>(c: Handoff, e: &E, m: &M) -> bool {
    let full = m.flag(FULL);
    unsafe { m.data(DATA).write(42) };
    let ok = match c {
        Handoff::V2 { ww, hand_back, .. } => {
            when(ww, SC).run();
            ops::store(full, Sco::Gpu, St::Relaxed, 1);
            let ok = e.wait("nobody writes empty", || {
                ops::load(m.flag(EMPTY), Sco::Gpu, Ld::Relaxed) == 1
            });
            when(hand_back, SC).run();
            ok
        }
        Handoff::V34 { .. } | Handoff::V41 { .. } => {
            Fence::Release(Sco::Gpu).run();
            ops::store(full, Sco::Gpu, St::Relaxed, 1);
            let ok = e.wait("nobody writes empty", || {
                ops::load(m.flag(EMPTY), Sco::Gpu, Ld::Relaxed) == 1
            });
            Fence::Acquire(Sco::Gpu).run();
            ok
        }
        Handoff::V43 { .. } => {
            ops::store(full, Sco::Gpu, St::Release, 1);
            e.wait("nobody writes empty", || {
                ops::load(m.flag(EMPTY), Sco::Gpu, Ld::Acquire) == 1
            })
        }
        Handoff::V44 { .. } => {
            ops::store(full, Sco::Gpu, St::Release, 1);
            e.wait("count never reaches 2", || {
                ops::load(m.flag(COUNT), Sco::Gpu, Ld::Acquire) == 2
            })
        }
    };
    if ok {
        // SAFETY: ordered after both consumers' reads exactly when the version is correct.
        unsafe { m.data(DATA).write(43) };
    }
    ok
}

/// A consumer's role (`c2`: C2, else C1); returns the value it read ([`TIMED_OUT`] if its wait
/// gave up).
#[inline(always)]
pub fn consumer<E: Env, M: Mem>(c: Handoff, c2: bool, e: &E, m: &M) -> u32 {
    let (mine, other) = if c2 { (DONE2, DONE1) } else { (DONE1, DONE2) };
    let (mine, other, empty) = (m.flag(mine), m.flag(other), m.flag(EMPTY));
    let ld = match c {
        Handoff::V43 { .. } | Handoff::V44 { .. } => Ld::Acquire,
        _ => Ld::Relaxed,
    };
    if !e.wait("nobody writes full", || {
        ops::load(m.flag(FULL), Sco::Gpu, ld) == 1
    }) {
        return TIMED_OUT;
    }
    let read = || unsafe { m.data(DATA).read() };
    match c {
        Handoff::V2 {
            rr,
            rw,
            wr,
            hand_back,
            ..
        } => {
            when(rr, SC).run();
            let v = read();
            when(rw, SC).run();
            ops::store(mine, Sco::Gpu, St::Relaxed, 1);
            when(wr, SC).run();
            if ops::load(other, Sco::Gpu, Ld::Relaxed) == 1 {
                when(hand_back, SC).run();
                ops::store(empty, Sco::Gpu, St::Relaxed, 1);
            }
            v
        }
        Handoff::V34 { wr, c2_release } => {
            Fence::Acquire(Sco::Gpu).run();
            let v = read();
            when(!c2 || c2_release, Fence::Release(Sco::Gpu)).run();
            ops::store(mine, Sco::Gpu, St::Relaxed, 1);
            wr.run();
            if ops::load(other, Sco::Gpu, Ld::Relaxed) == 1 {
                Fence::AcqRel(Sco::Gpu).run();
                ops::store(empty, Sco::Gpu, St::Relaxed, 1);
            }
            v
        }
        Handoff::V41 { count } => {
            Fence::Acquire(Sco::Gpu).run();
            let v = read();
            let c = m.flag(COUNT);
            let old = match count {
                Count41::ReadIncrementWrite => {
                    Fence::Release(Sco::Gpu).run();
                    let old = ops::load(c, Sco::Gpu, Ld::Relaxed);
                    ops::store(c, Sco::Gpu, St::Relaxed, old + 1);
                    old
                }
                Count41::AtomRelaxedFences => {
                    Fence::Release(Sco::Gpu).run();
                    ops::fetch_add(c, Sco::Gpu, Rmw::Relaxed, 1)
                }
                Count41::AtomAcqRel => ops::fetch_add(c, Sco::Gpu, Rmw::AcqRel, 1),
            };
            if old == 1 {
                if count == Count41::AtomAcqRel {
                    ops::store(empty, Sco::Gpu, St::Release, 1);
                } else {
                    Fence::AcqRel(Sco::Gpu).run();
                    ops::store(empty, Sco::Gpu, St::Relaxed, 1);
                }
            }
            v
        }
        Handoff::V43 { atom, empty: st } => {
            let v = read();
            if ops::fetch_add(m.flag(COUNT), Sco::Gpu, atom, 1) == 1 {
                ops::store(empty, Sco::Gpu, st, 1);
            }
            v
        }
        Handoff::V44 { arrive } => {
            let v = read();
            match arrive {
                Arrive::Atom(s) => {
                    let _ = ops::fetch_add(m.flag(COUNT), Sco::Gpu, s, 1);
                }
                Arrive::Red(s) => ops::red_add(m.flag(COUNT), Sco::Gpu, s, 1),
            }
            v
        }
    }
}

/// Role `role` of version `c`; puts the output words.
#[inline(always)]
pub fn role_of<E: Env, M: Mem>(c: Handoff, role: u32, e: &E, m: &M) {
    if role == 0 {
        let wrote = producer(c, e, m);
        m.put(2, wrote as u32);
    } else {
        let v = consumer(c, role == 2, e, m);
        m.put(role as usize - 1, v);
    }
}

const RACE: &str = "ptx-sync model: data race on Data";
const DEADLOCK: &str = "deadlock: nobody writes empty";

variant!(Handoff25NoFence = Handoff::V2 { ww: false, rr: false, rw: false, wr: false, hand_back: false },
    "handoff_2_5_nofence", "§2", Shape::Handoff, correct: false,
    loom: Verdict::Caught(&[RACE, DEADLOCK]), version: "2.5",
    "the hand-off with relaxed flags and no fence");
variant!(Handoff25 = V2_ALL, "handoff_2_5", "§2.5", Shape::Handoff, correct: true,
    loom: Verdict::Passes, version: "2.5", "ten fence.sc.gpu, each next to a flag");
variant!(Handoff34NoSc = Handoff::V34 { wr: Fence::AcqRel(Sco::Gpu), c2_release: true },
    "handoff_3_4_no_sc", "§3.6", Shape::Handoff, correct: false,
    loom: Verdict::Caught(&[DEADLOCK]), version: "3.4",
    "§3.4 with its two fence.sc replaced by fence.acq_rel: both may miss the other's done");
variant!(Handoff34NoC2Release = Handoff::V34 { wr: SC, c2_release: false },
    "handoff_3_4_no_c2_release", "§3.4", Shape::Handoff, correct: false,
    loom: Verdict::Caught(&[RACE]), version: "3.4",
    "§3.4 without C2's fence.release: edge 1 of the causality chain is gone");
variant!(Handoff34 = Handoff::V34 { wr: SC, c2_release: true }, "handoff_3_4", "§3.4",
    Shape::Handoff, correct: true, loom: Verdict::Passes, version: "3.4",
    "fence.release/acquire, fence.acq_rel before empty=1, two fence.sc for W→R");
variant!(Handoff43Relaxed = Handoff::V43 { atom: Rmw::Relaxed, empty: St::Relaxed },
    "handoff_4_3_relaxed", "§4.3", Shape::Handoff, correct: false,
    loom: Verdict::Caught(&[RACE]), version: "4.3",
    "count with atom.add without .sem (relaxed) and a relaxed empty=1");
variant!(Handoff43 = Handoff::V43 { atom: Rmw::AcqRel, empty: St::Release }, "handoff_4_3", "§4.3",
    Shape::Handoff, correct: true, loom: Verdict::Passes, version: "4.3",
    "old = atom.acq_rel.gpu.add(count, 1); the last consumer: st.release.gpu empty");
variant!(Handoff44Relaxed = Handoff::V44 { arrive: Arrive::Red(Red::Relaxed) },
    "handoff_4_4_relaxed", "§4.4", Shape::Handoff, correct: false,
    loom: Verdict::Caught(&[RACE]), version: "4.4",
    "barrier with red.relaxed.gpu.add: the count arrives but publishes nothing");
variant!(Handoff44 = Handoff::V44 { arrive: Arrive::Atom(Rmw::Release) }, "handoff_4_4", "§4.4",
    Shape::Handoff, correct: true, loom: Verdict::Passes, version: "4.4",
    "barrier: consumers atom.release.gpu.add, P ld.acquire.gpu until count == 2");
variant!(Handoff45Red = Handoff::V44 { arrive: Arrive::Red(Red::Release) }, "handoff_4_5_red",
    "§4.5", Shape::Handoff, correct: true, loom: Verdict::Passes, version: "4.4",
    "the §4.4 barrier with red.release.gpu.add");
