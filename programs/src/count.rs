//! Counters (seed §4.1, §4.2): C1 and C2 each add 1 to `count`. Roles 0 = C1, 1 = C2; variable
//! 0 = count. Output: word `role` = the old value it saw; both equal means an increment was lost.

use crate::env::{Env, Mem};
use crate::ops::{self, Ld, Rmw, Sco, St};
use crate::registry::{variant, Shape, Verdict, FORBIDDEN};

/// One variant: read-then-write, or one `atom.add` per role at the given scopes.
#[derive(Clone, Copy, Debug)]
pub enum Count {
    /// `r = ld.relaxed.gpu count; st.relaxed.gpu count, r + 1` (two accesses, not one RMW).
    ReadWrite,
    /// `atom.relaxed.add` at scope `c1` in C1 and `c2` in C2.
    Atom { c1: Sco, c2: Sco },
}

/// One increment; puts the old value.
#[inline(always)]
pub fn role_of<E: Env, M: Mem>(c: Count, role: u32, _e: &E, m: &M) {
    let f = m.flag(0);
    let r = match c {
        Count::ReadWrite => {
            let r = ops::load(f, Sco::Gpu, Ld::Relaxed);
            ops::store(f, Sco::Gpu, St::Relaxed, r + 1);
            r
        }
        Count::Atom { c1, c2 } => {
            ops::fetch_add(f, if role == 0 { c1 } else { c2 }, Rmw::Relaxed, 1)
        }
    };
    m.put(role as usize, r);
}

variant!(CountRmw = Count::ReadWrite, "count_rmw", "§4.1", Shape::Count, correct: false,
    loom: Verdict::Caught(&[FORBIDDEN]),
    "count = count + 1 as ld.relaxed + st.relaxed: both may read 0");
variant!(CountAtomGpu = Count::Atom { c1: Sco::Gpu, c2: Sco::Gpu }, "count_atom_gpu", "§4.1, §4.2",
    Shape::Count, correct: true, loom: Verdict::Passes, "atom.relaxed.gpu.add in both consumers");
variant!(CountAtomCta = Count::Atom { c1: Sco::Cta, c2: Sco::Gpu }, "count_atom_cta", "§4.2",
    Shape::Count, correct: false, loom: Verdict::Caught(&["not morally strong"]),
    "C1 atom.relaxed.cta.add, C2 atom.relaxed.gpu.add, different CTAs: atomicity not guaranteed");
