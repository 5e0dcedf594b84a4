//! `barrier.red` — `bar.red` without `.aligned` (PTX ISA §9.7.13.1: `barrier{.cta}.red.popc{.aligned}.u32`,
//! `barrier{.cta}.red.op{.aligned}.pred`, `.op = { .and, .or }`; PTX 6.0, sm_30), beside the
//! `barrier.sync` / `barrier.arrive` rows of [`NamedBarrier::sync_unaligned`] /
//! [`NamedBarrier::arrive_unaligned`]. Without `.aligned` the threads of the CTA may execute
//! different `barrier` instructions for the same barrier (a call the compiler duplicated into
//! two branches stays defined). These are what the default `NamedBarrier<Unaligned>`'s
//! `red_popc`/`red_and`/`red_or` emit; the `*_unaligned` methods emit them for either
//! alignment. Seed §5.1. Host and `--cfg loom`: the same counting barrier as
//! [`NamedBarrier::red_popc`] (alignment is not observable on the CPU): the methods call the
//! barriers' `BarBackend` with `aligned = false`.
//!
//! | call | PTX | PTX ISA / SM |
//! |---|---|---|
//! | [`NamedBarrier::red_popc_unaligned`] | `barrier.red.popc.u32 d, id, n, p;` | 6.0 / sm_30 |
//! | [`NamedBarrier::red_and_unaligned`] / [`red_or_unaligned`](NamedBarrier::red_or_unaligned) | `barrier.red.{and,or}.pred q, id, n, p;` | 6.0 / sm_30 |

use super::{Active, Alignment, BarBackend, NamedBarrier};

impl<A: Alignment> NamedBarrier<A> {
    /// `barrier.red.popc.u32 d, id, n, p;` — [`red_popc`](Self::red_popc) without `.aligned`:
    /// barrier, then the number of participants whose `pred` was true. PTX 6.0, sm_30; PTX ISA
    /// §9.7.13.1, seed §5.1.
    ///
    /// ```
    /// let b = ptx_sync::barrier::NamedBarrier::new(2, 1);
    /// assert_eq!(b.red_popc_unaligned(true), 1); // one participant, pred true
    /// ```
    #[inline(always)]
    pub fn red_popc_unaligned(&self, pred: bool) -> u32 {
        <Active as BarBackend>::red_popc(self.id, self.count, &self.h, pred, false)
    }
    /// `barrier.red.and.pred q, id, n, p;` — [`red_and`](Self::red_and) without `.aligned`.
    /// PTX 6.0, sm_30; PTX ISA §9.7.13.1, seed §5.1.
    ///
    /// ```
    /// let b = ptx_sync::barrier::NamedBarrier::new(2, 1);
    /// assert!(!b.red_and_unaligned(false));
    /// ```
    #[inline(always)]
    pub fn red_and_unaligned(&self, pred: bool) -> bool {
        <Active as BarBackend>::red_and(self.id, self.count, &self.h, pred, false)
    }
    /// `barrier.red.or.pred q, id, n, p;` — [`red_or`](Self::red_or) without `.aligned`.
    /// PTX 6.0, sm_30; PTX ISA §9.7.13.1, seed §5.1.
    ///
    /// ```
    /// let b = ptx_sync::barrier::NamedBarrier::new(2, 1);
    /// assert!(b.red_or_unaligned(true));
    /// ```
    #[inline(always)]
    pub fn red_or_unaligned(&self, pred: bool) -> bool {
        <Active as BarBackend>::red_or(self.id, self.count, &self.h, pred, false)
    }
}
