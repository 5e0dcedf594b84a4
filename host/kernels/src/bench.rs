//! Fence-cost kernels (issue 6): cycles per `fence.{sem}.{scope}`, measured inside the kernel.
//!
//! One kernel per (sem, scope) — `bench_fence_<sem>_<scope>`, e.g. `bench_fence_acq_rel_gpu` —
//! plus `bench_fence_none`, the same loop without the fence. Every kernel has the signature
//!
//! ```text
//! (out: *mut u64, buf: *mut u32, hot: *mut u32, done: *mut u32, iters: u32, stores: u32)
//! ```
//!
//! * CTA 0 measures: each of its threads runs `iters` rounds of {`stores` weak `st.u32` to its
//!   own words of `buf`, then the fence}, reading `%clock64` (the SM's cycle counter, PTX ISA
//!   §10.9) before and after; lane 0 of warp `w` writes the difference to `out[w]`. Cycles per
//!   fence = (fence kernel − `bench_fence_none`) / `iters`, computed on the host
//!   (`ptx_sync_host::fencebench`).
//! * The three situations of the issue are launch parameters: *idle* `stores = 0`, grid 1;
//!   *after N outstanding stores* `stores = N` (seed §2.1: `fence.sc` waits for the writes to
//!   leave the write buffer); *under contention* grid > 1: CTAs 1.. run on other SMs and do
//!   relaxed `atom.add.gpu` on `hot` (one line) and weak stores to their part of `buf` until CTA 0's
//!   thread 0 sets `done` (or 50 ms pass).
//! * `buf` holds `stores` words per thread of every CTA: `buf[(gtid * stores) + s]`.
//!
//! The launch configuration (CTAs, threads per CTA) is the host's; `fencebench` records it with
//! every row.

use crate::rt::{ctaid_x, ntid_x, tid_x, Deadline};
use core::arch::asm;
use ptx_sync::*;

/// `%clock64`: the SM's 64-bit cycle counter.
#[inline(always)]
fn clock64() -> u64 {
    let t: u64;
    // Not `pure`: two reads must not be merged or moved across the loop.
    unsafe { asm!("mov.u64 {}, %clock64;", out(reg64) t, options(nostack, preserves_flags)) };
    t
}

/// Keeps the loop (and its trip count) in the code even when the body is empty.
#[inline(always)]
fn keep() {
    unsafe { asm!("", options(nostack, preserves_flags)) };
}

#[inline(always)]
unsafe fn body<F: Fn()>(
    out: *mut u64,
    buf: *mut u32,
    hot: *mut u32,
    done: *mut u32,
    iters: u32,
    stores: u32,
    f: F,
) {
    let (cta, tid) = (ctaid_x(), tid_x());
    let gtid = cta * ntid_x() + tid;
    let mine = buf.add((gtid * stores) as usize);
    let done = AtomicRef::<u32, Gpu>::from_ptr(done);
    if cta != 0 {
        // A contender: keep the memory system busy until the measurer is done.
        let hot = AtomicRef::<u32, Gpu>::from_ptr(hot);
        let deadline = Deadline::after(50_000_000);
        let mut k = 0u32;
        while done.load::<Relaxed>() == 0 && !deadline.expired() {
            let _ = hot.fetch_add::<Relaxed>(1);
            for s in 0..stores {
                AtomicRef::<u32, Gpu>::from_ptr(mine.add(s as usize)).store::<Weak>(k);
            }
            k = k.wrapping_add(1);
        }
        return;
    }
    let t0 = clock64();
    for k in 0..iters {
        for s in 0..stores {
            AtomicRef::<u32, Gpu>::from_ptr(mine.add(s as usize)).store::<Weak>(k);
        }
        f();
        keep();
    }
    let t1 = clock64();
    if tid % 32 == 0 {
        *out.add((tid / 32) as usize) = t1 - t0;
    }
    if tid == 0 {
        done.store::<Relaxed>(1);
    }
}

macro_rules! bench_kernels {
    ($( $name:ident => $f:block )*) => {$(
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name(
            out: *mut u64, buf: *mut u32, hot: *mut u32, done: *mut u32, iters: u32, stores: u32,
        ) {
            body(out, buf, hot, done, iters, stores, || $f);
        }
        // The signature is `ptx_sync_abi::BenchParams`'s, field for field (the host's struct).
        const _: ptx_sync_abi::BenchKernel = $name;
    )*};
}

bench_kernels! {
    bench_fence_none => {}
    bench_fence_sc_cta => { fence::<Sc, Cta>() }
    bench_fence_sc_cluster => { fence::<Sc, Cluster>() }
    bench_fence_sc_gpu => { fence::<Sc, Gpu>() }
    bench_fence_sc_sys => { fence::<Sc, Sys>() }
    bench_fence_acq_rel_cta => { fence::<AcqRel, Cta>() }
    bench_fence_acq_rel_cluster => { fence::<AcqRel, Cluster>() }
    bench_fence_acq_rel_gpu => { fence::<AcqRel, Gpu>() }
    bench_fence_acq_rel_sys => { fence::<AcqRel, Sys>() }
    bench_fence_acquire_cta => { fence::<Acquire, Cta>() }
    bench_fence_acquire_cluster => { fence::<Acquire, Cluster>() }
    bench_fence_acquire_gpu => { fence::<Acquire, Gpu>() }
    bench_fence_acquire_sys => { fence::<Acquire, Sys>() }
    bench_fence_release_cta => { fence::<Release, Cta>() }
    bench_fence_release_cluster => { fence::<Release, Cluster>() }
    bench_fence_release_gpu => { fence::<Release, Gpu>() }
    bench_fence_release_sys => { fence::<Release, Sys>() }
}
