//! CTA 0 publishes a value to CTA 1 through a flag (the port of `cuda/flag_handoff.cu`).
use ptx_sync::prelude::*;

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
