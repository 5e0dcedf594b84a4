//! Three kernels written first in CUDA C++ (`cuda/ports.cu`) and then ported to
//! `ptx_sync::prelude` — a shared-memory histogram with atomics, a two-CTA flag hand-off, a
//! shared-memory tree reduction — to find where a port spends lines (README.md counts them).
#![cfg_attr(target_arch = "nvptx64", no_std, feature(abi_ptx, asm_experimental_arch))] // asm: shared_array!

use ptx_sync::prelude::*;

// ---- histogram
shared_array!(static LOCAL: [Strong<u32>; 256], align 4);

kernel! {
/// 256 bins of bytes: each CTA counts into bins in shared memory (`red.relaxed.cta.add`), then
/// adds them to the global `bins` (`red.relaxed.gpu.add`).
///
/// # Safety
/// `input` holds `n` bytes and `bins` 256 words. (Each CTA's bins are stored to before they are
/// read: `SharedArray::get`'s contract.)
pub unsafe fn histogram(input: *const u8, n: u32, bins: *mut u32) {
    block_stride(256).for_each(|i| LOCAL.get(i).at::<Cta>().store::<Relaxed>(0));
    sync_threads();
    grid_stride(n).for_each(|i| LOCAL.get(*input.add(i) as usize).at::<Cta>().red_add::<Relaxed>(1));
    sync_threads();
    let bin = |i: usize| AtomicRef::<u32, Gpu>::from_ptr(bins.add(i));
    block_stride(256).for_each(|i| bin(i).red_add::<Relaxed>(LOCAL.get(i).at::<Cta>().load::<Relaxed>()));
}}

// ---- flag_handoff
kernel! {
/// CTA 0 writes 42 into `data` and raises `flag` (`st.release.gpu`); CTA 1 waits for the flag
/// (`ld.acquire.gpu`, at most 1 s: a lost flag is a timeout, not a hung GPU) and copies `data`
/// to `out`.
///
/// # Safety
/// Each pointer is one word of global memory; `data` is read only after the flag (release /
/// acquire orders the write before the read).
pub unsafe fn flag_handoff(data: *mut u32, flag: *mut u32, out: *mut u32) {
    let f = Strong::from_ptr(flag).at::<Gpu>();
    if block_idx().x == 0 {
        *data = 42;
        f.store::<Release>(1);
    } else if spin_until(Budget::nanos(1_000_000_000), || f.load::<Acquire>() == 1).is_ok() {
        *out = *data;
    }
}}

// ---- block_sum
shared_array!(static S: [f32; 256], align 4);

kernel! {
/// Sums `input[0..n)` into `*out`: a partial sum per thread, a tree in shared memory per CTA,
/// one `red.relaxed.gpu.add.f32` per CTA.
///
/// # Safety
/// `input` holds `n` floats, `out` is one float of global memory; 256 threads per CTA (the
/// tree's writes and reads are ordered by `sync_threads`).
pub unsafe fn block_sum(input: *const f32, n: u32, out: *mut f32) {
    let (s, t) = (S.as_ptr(), thread_idx().x as usize);
    *s.add(t) = grid_stride(n).map(|i| *input.add(i)).sum();
    sync_threads();
    for k in halving(block_dim().x) {
        if t < k {
            *s.add(t) += *s.add(t + k);
        }
        sync_threads();
    }
    if t == 0 {
        AtomicRef::<f32, Gpu>::from_ptr(out).red_add::<Relaxed>(*s);
    }
}}
