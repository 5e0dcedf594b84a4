//! DeepEP's `barrier_device` (seed 004), with CTAs standing in for ranks.
//!
//! ```text
//! if (thread_id < kNumRanks) {
//!     atomicAdd_system(task_fifo_ptrs[rank] + head + thread_id, FINISHED_SUM_TAG);
//!     memory_fence();                                   // fence.acq_rel.sys
//!     atomicSub_system(task_fifo_ptrs[thread_id] + head + rank, FINISHED_SUM_TAG);
//! }
//! timeout_check<kNumRanks>(task_fifo_ptrs, head, rank, 0, tag);  // ld.volatile spin, clock64
//! ```
//!
//! Entry `row[r][t]` gets `+TAG` from rank `r` and `-TAG` from rank `t`, so it returns to 0 only
//! when both arrived: a rank that never arrives leaves `+TAG` in column `m` of every other row,
//! and the rank that times out can name it. DeepEP prints and traps; here the wait is bounded by
//! `%globaltimer` and each rank records which entries were still non-zero.
//!
//! Parameters (host: `DeepepParams`, same `#[repr(C)]` layout):
//! `rows: *mut i32` (instance `i`, rank `r`, column `t` at `(i * R + r) * R + t`),
//! `cta_rank: *const u32` (per CTA: `instance << 8 | rank`, or `u32::MAX`: idle CTA),
//! `missing: *const u32` (per instance: the rank that never arrives, or `u32::MAX`),
//! `out: *mut u32` (per instance and rank: bit 31 = the rank ran the barrier, bits 0..R = the
//! columns still non-zero when its wait ran out; 0 bits = passed),
//! `budget_ns: u64`, `n_ranks: u32` (≤ 32), `n_instances: u32`.

use crate::rt::*;
use ptx_sync::*;
use ptx_sync_programs::{deepep, Env};

/// The rows of one instance: `n_ranks` rows of `n_ranks` words.
struct Rows {
    base: *mut i32,
    n: usize,
}

impl deepep::Fifo for Rows {
    #[inline(always)]
    fn entry(&self, r: usize, t: usize) -> &Strong<i32> {
        // SAFETY: `r, t < n_ranks`; the host allocates `n_instances * n_ranks²` words and only
        // atomics touch them while the kernel runs.
        unsafe { Strong::<i32>::from_ptr(self.base.add(r * self.n + t)) }
    }
}

/// `timeout_check`'s bound: `%globaltimer`, `budget_ns` from the start of the wait.
struct Bounded(u64);

impl Env for Bounded {
    #[inline(always)]
    fn wait(&self, _what: &'static str, mut done: impl FnMut() -> bool) -> bool {
        let d = Deadline::after(self.0);
        loop {
            if done() {
                return true;
            }
            if d.expired() {
                return false;
            }
        }
    }
}

/// The barrier across `n_ranks` CTAs per instance, bounded by `budget_ns`: lane `t` of each rank
/// runs `ptx_sync_programs::deepep::rank` (the CPU run and the loom model run the same source).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn deepep_barrier(
    rows: *mut i32,
    cta_rank: *const u32,
    missing: *const u32,
    out: *mut u32,
    budget_ns: u64,
    n_ranks: u32,
    n_instances: u32,
) {
    let m = *cta_rank.add(ctaid_x() as usize);
    if m == u32::MAX {
        return;
    }
    let (inst, rank) = (m >> 8, m & 0xff);
    if inst >= n_instances || n_ranks > 32 {
        return;
    }
    if *missing.add(inst as usize) == rank {
        return; // this rank "died" before the barrier
    }
    let t = tid_x();
    let r = n_ranks as usize;
    let res = AtomicRef::<u32, Cta>::from_ptr(out.add(inst as usize * r + rank as usize));
    if t == 0 {
        let _ = res.fetch_or::<Relaxed>(deepep::RAN);
    }
    if t < n_ranks {
        let f = Rows {
            base: rows.add(inst as usize * r * r),
            n: r,
        };
        let lane = t as usize..t as usize + 1;
        if !deepep::rank(
            deepep::AS_WRITTEN,
            &f,
            &Bounded(budget_ns),
            rank as usize,
            lane,
            true,
        ) {
            let _ = res.fetch_or::<Relaxed>(1 << t);
        }
    }
}
