//! DeepEP's `barrier_device` (seed 004): every rank adds `TAG` to each entry of its own row and
//! subtracts it from its entry in every other rank's row, with `memory_fence()`
//! (`fence.acq_rel.sys`) in between; a rank's row is all zero exactly when every rank has
//! entered, and its `timeout_check` spins (`ld.volatile`) until it is.
//!
//! The steps of one rank's lane `t` are written here once; the GPU kernel
//! (`host/kernels/src/deepep.rs`: one CTA per rank, lane `t` = thread `t`) runs
//! [`enter`], [`middle_fence`], [`leave`] and spins on [`row_zero`] per lane; the loom model
//! (`loom-tests/tests/deepep.rs`: one loom thread per rank) runs all lanes' `enter`, the fence,
//! all `leave`s, then spins on every lane's `row_zero` (the seed's reading of a warp).

use ptx_sync::{fence, AcqRel, Gpu, Relaxed, Strong, Sys, Volatile};

/// DeepEP's `FINISHED_SUM_TAG`.
pub const TAG: i32 = 1024;

/// One variant of the barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deepep {
    /// `.sys` (as DeepEP: ranks on different GPUs) or `.gpu` for the atomics and the spin.
    pub sys: bool,
    /// The `memory_fence()` between the adds and the subs.
    pub middle_fence: bool,
}

/// The barrier as DeepEP writes it.
pub const AS_WRITTEN: Deepep = Deepep {
    sys: true,
    middle_fence: true,
};

/// Lane `t` of rank `r` enters: `atom.relaxed.sys.add.s32 [row(r)[t]], TAG`
/// (`atomicAdd_system`).
#[inline(always)]
pub fn enter(c: Deepep, mine: &Strong<i32>) {
    if c.sys {
        let _ = mine.at::<Sys>().fetch_add::<Relaxed>(TAG);
    } else {
        let _ = mine.at::<Gpu>().fetch_add::<Relaxed>(TAG);
    }
}

/// `memory_fence()`: `fence.acq_rel.sys`, if the variant has it.
#[inline(always)]
pub fn middle_fence(c: Deepep) {
    if c.middle_fence {
        fence::<AcqRel, Sys>();
    }
}

/// Lane `t` of rank `r` takes the tag off rank `t`'s entry for `r`:
/// `atom.relaxed.sys.add.s32 [row(t)[r]], -TAG` (`atomicSub_system`).
#[inline(always)]
pub fn leave(c: Deepep, theirs: &Strong<i32>) {
    if c.sys {
        let _ = theirs.at::<Sys>().fetch_sub::<Relaxed>(TAG);
    } else {
        let _ = theirs.at::<Gpu>().fetch_sub::<Relaxed>(TAG);
    }
}

/// `timeout_check`'s test of one entry of the rank's own row: `ld.volatile` (`.sys` variant) or
/// `ld.relaxed.gpu` is 0.
#[inline(always)]
pub fn row_zero(c: Deepep, mine: &Strong<i32>) -> bool {
    if c.sys {
        mine.at::<Sys>().load::<Volatile>() == 0
    } else {
        mine.at::<Gpu>().load::<Relaxed>() == 0
    }
}
