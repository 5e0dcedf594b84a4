//! A 256-bin histogram of bytes (the port of `cuda/histogram.cu`).
use ptx_sync::prelude::*;
use ptx_sync::shared::shared_slice;

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
