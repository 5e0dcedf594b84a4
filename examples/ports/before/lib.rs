//! The first port (commit 46f75c8: the three kernels as the guide taught before issue #21 —
//! a body function plus a hand-written `#[no_mangle] extern "ptx-kernel"` wrapper each, the
//! loops spelled with `step_by`/`while`), kept as text for README.md's "before" column (counted
//! by tests/cuda.rs; not compiled: `src/lib.rs` is the current port).
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, asm_experimental_arch))] // asm: shared_array!

use ptx_sync::prelude::*;
use ptx_sync::shared::shared_slice;

// ---- histogram
shared_array!(static LOCAL: [Strong<u32>; 256], align 4);

/// Each CTA counts into bins in shared memory, then adds them to the global `bins`.
///
/// # Safety
/// `input` holds `n` bytes and `bins` 256 words.
pub unsafe fn histogram(input: *const u8, n: u32, bins: *mut u32) {
    let local = shared_slice(LOCAL);
    for i in (thread_idx().x..256).step_by(block_dim().x as usize) {
        local[i as usize].at::<Cta>().store::<Relaxed>(0);
    }
    sync_threads();
    for i in (global_thread_x()..n).step_by(grid_threads_x() as usize) {
        let b = *input.add(i as usize) as usize;
        local[b].at::<Cta>().red_add::<Relaxed>(1);
    }
    sync_threads();
    for i in (thread_idx().x..256).step_by(block_dim().x as usize) {
        let v = local[i as usize].at::<Cta>().load::<Relaxed>();
        AtomicRef::<u32, Gpu>::from_ptr(bins.add(i as usize)).red_add::<Relaxed>(v);
    }
}

/// The kernel.
#[cfg(target_arch = "nvptx64")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn histogram_kernel(input: *const u8, n: u32, bins: *mut u32) {
    histogram(input, n, bins)
}

// ---- flag_handoff
/// CTA 0 writes 42 into `data` and raises `flag` (`st.release.gpu`); CTA 1 waits for the flag
/// (`ld.acquire.gpu`, at most 1 s) and copies `data` to `out`.
///
/// # Safety
/// Each pointer is one word of global memory.
pub unsafe fn flag_handoff(data: *mut u32, flag: *mut u32, out: *mut u32) {
    let f = Strong::from_ptr(flag);
    if block_idx().x == 0 {
        *data = 42;
        f.at::<Gpu>().store::<Release>(1);
    } else {
        let r = spin_until(Budget::nanos(1_000_000_000), || f.at::<Gpu>().load::<Acquire>() == 1);
        if r.is_ok() {
            *out = *data;
        }
    }
}

/// The kernel.
#[cfg(target_arch = "nvptx64")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn flag_handoff_kernel(data: *mut u32, flag: *mut u32, out: *mut u32) {
    flag_handoff(data, flag, out)
}

// ---- block_sum
shared_array!(static S: [f32; 256], align 4);

/// Sums `input[0..n)` into `*out`: a partial sum per thread, a tree in shared memory per CTA,
/// one `red.add.f32` per CTA. 256 threads per CTA.
///
/// # Safety
/// `input` holds `n` floats, `out` is one float of global memory.
pub unsafe fn block_sum(input: *const f32, n: u32, out: *mut f32) {
    let s = S.as_ptr();
    let t = thread_idx().x as usize;
    let mut v = 0.0;
    for i in (global_thread_x()..n).step_by(grid_threads_x() as usize) {
        v += *input.add(i as usize);
    }
    *s.add(t) = v;
    sync_threads();
    let mut k = block_dim().x as usize / 2;
    while k > 0 {
        if t < k {
            *s.add(t) += *s.add(t + k);
        }
        sync_threads();
        k /= 2;
    }
    if t == 0 {
        AtomicRef::<f32, Gpu>::from_ptr(out).red_add::<Relaxed>(*s);
    }
}

/// The kernel.
#[cfg(target_arch = "nvptx64")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn block_sum_kernel(input: *const f32, n: u32, out: *mut f32) {
    block_sum(input, n, out)
}
