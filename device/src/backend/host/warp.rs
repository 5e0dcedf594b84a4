//! The host's simulated warps. A warp of a CTA of [`index::launch`](crate::index::launch) is
//! its threads `32·w … 32·w + 31` in linear thread order (PTX ISA §2.2.1, as the GPU groups
//! them), the lane the position in it; a thread outside a launch is a warp of one (lane 0).
//!
//! The warp-level rendezvous of the `.sync` warp instructions (`elect.sync`; `vote.sync`,
//! `shfl.sync`, `bar.warp.sync` are the same rendezvous): every thread of the caller's warp
//! whose lane is in `membermask` — those that exist: a partial last warp has fewer — arrives with
//! the same mask, and each waits for all of them. One [`HostBar`] per (warp, mask) of the CTA, so
//! two halves of a warp that sync with their own masks are two barriers; its arrival is an
//! AcqRel read-modify-write and its wait an Acquire load, so the rendezvous orders the
//! participants' memory (as PTX ISA §9.7.13.2 says of `bar.warp.sync`: it "also guarantee[s]
//! memory ordering among threads participating in barrier"). Under `--cfg loom` the barrier word is a location
//! of the scope model at `.cta` and the wait a model spin (a lane that never arrives is a
//! `deadlock: …`).

use super::barrier::HostBar;
use std::sync::{Arc, Mutex};
use std::vec::Vec;

/// The warp barriers of one simulated CTA: `(warp, membermask)` → its barrier.
#[derive(Default)]
pub(crate) struct Warps {
    bars: Mutex<Vec<(u32, u32, Arc<HostBar>)>>,
}

impl Warps {
    /// No barrier yet (each is made at its first arrival).
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// The barrier of `warp` for `mask`.
    fn bar(&self, warp: u32, mask: u32) -> Arc<HostBar> {
        let mut bars = self.bars.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, b)) = bars.iter().find(|(w, m, _)| (*w, *m) == (warp, mask)) {
            return b.clone();
        }
        let b = Arc::new(HostBar::new());
        bars.push((warp, mask, b.clone()));
        b
    }
}

/// The calling thread's (warp, lane) and the mask of the lanes its warp has.
fn place() -> (u32, u32, u32) {
    let id = crate::index::identity();
    let t = id.tid.linear(id.ntid);
    let (warp, lane) = (t / 32, t % 32);
    let lanes = (id.ntid.count() - warp * 32).min(32);
    let existing = if lanes == 32 {
        u32::MAX
    } else {
        (1u32 << lanes) - 1
    };
    (warp, lane, existing)
}

/// The rendezvous of a `.sync` warp instruction with `membermask`: waits until every existing
/// thread of the caller's warp in `membermask` has arrived with the same mask. The caller's lane
/// must be in the mask (checked: the instructions' precondition, PTX ISA §9.7.13.2).
pub(crate) fn warp_sync(membermask: u32) {
    let (warp, lane, existing) = place();
    assert!(
        membermask >> lane & 1 == 1,
        "a .sync warp instruction: lane {lane} is not in membermask {membermask:#x} (undefined on the GPU)"
    );
    let count = (membermask & existing).count_ones();
    // A thread outside a launch is a warp of one: nothing to wait for.
    if let Some(cta) = super::cta::cta() {
        let what = super::launch::What {
            text: "a .sync warp instruction (elect.sync, bar.warp.sync): not every lane of the mask arrives",
            id: None,
            count,
        };
        cta.warps.bar(warp, membermask).arrive_as(what, false, true);
    }
}

/// `elect.sync` of the calling thread with `membermask` (PTX ISA §9.7.12.16): the rendezvous of
/// [`warp_sync`], then the leader — deterministically the lowest existing lane of the mask, the
/// same for the same mask every time. Returns (this thread is the leader, the leader's lane).
pub(crate) fn elect(membermask: u32) -> (bool, u32) {
    warp_sync(membermask);
    let (_, lane, existing) = place();
    let leader = (membermask & existing).trailing_zeros();
    (lane == leader, leader)
}
