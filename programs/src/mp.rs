//! Message passing (seed §2.2, §2.3, §3.3; §3.5 footnote 15): P writes `data` then sets `full`;
//! C waits for `full == 1`, then reads `data`. Roles 0 = P, 1 = C; variables 0 = data
//! (ordinary), 1 = full (flag). Output: word 0 = C's read of data (word 1 = the flag as read in
//! the once-forms; word 3 = timeout mask).

use crate::env::{Env, Mem};
use crate::ops::{self, Fence, Ld, Sco, St};
use crate::registry::{variant, Shape, Verdict};

const DATA: usize = 0;
const FULL: usize = 1;

/// One variant of message passing.
#[derive(Clone, Copy, Debug)]
pub struct Mp {
    /// The scope of both flag accesses (and of the fences).
    pub sco: Sco,
    /// P: the fence between `data = 42` and `full = 1`.
    pub p_fence: Fence,
    /// P: the semantic of `full = 1`.
    pub st: St,
    /// C: the semantic of its reads of `full`.
    pub ld: Ld,
    /// C: the fence between seeing `full == 1` and reading `data`.
    pub c_fence: Fence,
    /// C reads `full` once, after a random delay, instead of waiting for it (Alglave et al.
    /// 2015's non-spinning form).
    pub once: bool,
}

/// Relaxed flags at `.gpu`, no fence, C waits.
pub const PLAIN: Mp = Mp {
    sco: Sco::Gpu,
    p_fence: Fence::None,
    st: St::Relaxed,
    ld: Ld::Relaxed,
    c_fence: Fence::None,
    once: false,
};

/// `st.release.gpu` / `ld.acquire.gpu`.
pub const REL_ACQ: Mp = Mp {
    st: St::Release,
    ld: Ld::Acquire,
    ..PLAIN
};

/// P's role: `data = 42; [p_fence]; full = 1`.
#[inline(always)]
pub fn producer<M: Mem>(c: Mp, m: &M) {
    unsafe { m.data(DATA).write(42) };
    c.p_fence.run();
    ops::store(m.flag(FULL), c.sco, c.st, 1);
}

/// C's role: wait for `full == 1` (or read it once), `[c_fence]`, read `data`; puts the words.
#[inline(always)]
pub fn consumer<E: Env, M: Mem>(c: Mp, e: &E, m: &M) {
    e.warm(m.data(DATA)); // data's line into C's L1 before the flag test
    if c.once {
        e.delay();
        let f = ops::load(m.flag(FULL), c.sco, c.ld);
        c.c_fence.run();
        // SAFETY: on the GPU the outcome is classified by value (a read before P's write is
        // allowed there); under loom this read races by construction (see `Verdict::NotModelled`).
        let v = unsafe { m.data(DATA).read() };
        m.put(0, v);
        m.put(1, f);
    } else {
        e.wait("nobody writes full", || {
            ops::load(m.flag(FULL), c.sco, c.ld) == 1
        });
        c.c_fence.run();
        // SAFETY: ordered after P's write exactly when the variant is correct; loom reports the
        // race of the broken ones.
        let v = unsafe { m.data(DATA).read() };
        m.put(0, v);
    }
}

/// Role `role` of variant `c`.
#[inline(always)]
pub fn role_of<E: Env, M: Mem>(c: Mp, role: u32, e: &E, m: &M) {
    if role == 0 {
        producer(c, m)
    } else {
        consumer(c, e, m)
    }
}

const RACE: Verdict = Verdict::Caught(&["ptx-sync model: data race on Data"]);
const ONCE: Verdict = Verdict::NotModelled(
    "C reads data whether or not it saw the flag: a race by construction under loom; on the GPU the outcome is classified by value",
);

variant!(MpPlain = PLAIN, "mp_plain", "§2.2, §2.3", Shape::Mp, correct: false, loom: RACE,
    "P: data=42; full=1 | C: while full!=1; read data — flags relaxed, no fence");
variant!(MpFenceP = Mp { p_fence: Fence::Sc(Sco::Gpu), ..PLAIN }, "mp_fence_p", "§2.2", Shape::Mp,
    correct: false, loom: RACE, "fence.sc.gpu in P only (W→W fixed, C's R→R still free)");
variant!(MpFenceC = Mp { c_fence: Fence::Sc(Sco::Gpu), ..PLAIN }, "mp_fence_c", "§2.3", Shape::Mp,
    correct: false, loom: RACE, "fence.sc.gpu in C only (R→R fixed, P's W→W still free)");
variant!(MpFenceSc = Mp { p_fence: Fence::Sc(Sco::Gpu), c_fence: Fence::Sc(Sco::Gpu), ..PLAIN },
    "mp_fence_sc", "§2.2, §2.3", Shape::Mp, correct: true, loom: Verdict::Passes,
    "fence.sc.gpu in both: the fence pair");
variant!(MpRelAcq = REL_ACQ, "mp_rel_acq", "§3.3", Shape::Mp, correct: true, loom: Verdict::Passes,
    "st.release.gpu / ld.acquire.gpu");
variant!(MpRelAcqCta = Mp { sco: Sco::Cta, ..REL_ACQ }, "mp_rel_acq_cta", "§3.5 fn. 15", Shape::Mp,
    correct: false, loom: Verdict::Caught(&["not morally strong"]), rounds: 6_400_000,
    "st.release.cta / ld.acquire.cta with P and C in different CTAs (seed: 188 k stale in 6.4 M)");
variant!(MpPlainOnce = Mp { once: true, ..PLAIN }, "mp_plain_once", "§2.2, §2.3", Shape::MpOnce,
    correct: false, loom: ONCE, "mp_plain with C reading full once after a random delay, then data");
variant!(MpRelAcqOnce = Mp { once: true, ..REL_ACQ }, "mp_rel_acq_once", "§3.3", Shape::MpOnce,
    correct: true, loom: ONCE,
    "mp_rel_acq with C reading full once (ld.acquire.gpu) after a random delay, then data");
variant!(MpRelAcqCtaOnce = Mp { once: true, sco: Sco::Cta, ..REL_ACQ }, "mp_rel_acq_cta_once",
    "§3.5 fn. 15", Shape::MpOnce, correct: false, loom: Verdict::Caught(&["not morally strong"]),
    "mp_rel_acq_cta with C reading full once (ld.acquire.cta) after a random delay, then data");
variant!(MpFenceAcqRel = Mp { p_fence: Fence::AcqRel(Sco::Gpu), c_fence: Fence::AcqRel(Sco::Gpu), ..PLAIN },
    "mp_fence_acq_rel", "§3.4", Shape::Mp, correct: true, loom: Verdict::Passes,
    "fence.acq_rel.gpu in both, flags relaxed: a release pattern and an acquire pattern (PTX ISA §8.8), the fence pair of §3.4 without fence.sc");
