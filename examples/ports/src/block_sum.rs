//! A grid-stride sum with a tree in shared memory per CTA (the port of `cuda/block_sum.cu`).
use ptx_sync::prelude::*;

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
