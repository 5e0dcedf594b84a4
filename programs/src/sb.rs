//! Store buffering (seed §2.1, §3.6): each of C1, C2 sets its own flag, then reads the other's.
//! Roles 0 = C1, 1 = C2; variables 0 = done1, 1 = done2. Output: word `role` = the read of the
//! other's flag; both 0 means W→R was reordered.

use crate::env::{Env, Mem};
use crate::ops::{self, Fence, Ld, Sco, St};
use crate::registry::{variant, Shape, Verdict, FORBIDDEN};

/// One variant: the fence between the write and the read.
#[derive(Clone, Copy, Debug)]
pub struct Sb {
    pub fence: Fence,
}

/// `done_me = 1; [fence]; r = done_other`.
#[inline(always)]
pub fn role_of<E: Env, M: Mem>(c: Sb, role: u32, _e: &E, m: &M) {
    let (mine, other) = if role == 0 { (0, 1) } else { (1, 0) };
    ops::store(m.flag(mine), Sco::Gpu, St::Relaxed, 1);
    c.fence.run();
    let r = ops::load(m.flag(other), Sco::Gpu, Ld::Relaxed);
    m.put(role as usize, r);
}

variant!(SbPlain = Sb { fence: Fence::None }, "sb_plain", "§2.1", Shape::Sb, correct: false,
    loom: Verdict::Caught(&[FORBIDDEN]),
    "C1: done1=1; r1=done2 | C2: done2=1; r2=done1 — no fence (write buffer: both may read 0)");
variant!(SbAcqRel = Sb { fence: Fence::AcqRel(Sco::Gpu) }, "sb_acq_rel", "§3.6", Shape::Sb,
    correct: false, loom: Verdict::Caught(&[FORBIDDEN]),
    "the same with fence.acq_rel.gpu between write and read — W→R still unordered");
variant!(SbSc = Sb { fence: Fence::Sc(Sco::Gpu) }, "sb_sc", "§2.1, §3.6", Shape::Sb, correct: true,
    loom: Verdict::Passes, "the same with fence.sc.gpu — Fence-SC order: one read must see 1");
