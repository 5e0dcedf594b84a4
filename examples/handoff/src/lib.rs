//! The seed's hand-off in its §4.4 form, as a user of `ptx-sync` writes it: one source for the
//! GPU kernel (built for `nvptx64-nvidia-cuda`) and for CPU threads (the host backend).
//!
//! ```text
//! P:      data = 42; st.release.gpu full = 1; while ld.acquire.gpu count != 2 {}; data = 43
//! C1, C2: while ld.acquire.gpu full != 1 {}; value = data; atom.release.gpu.add count, 1
//! ```
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx, asm_experimental_arch))]

use ptx_sync::{Acquire, Data, Gpu, Release, Strong};

/// The shared variables, laid out as three `u32` (so a kernel can view device memory as one).
#[repr(C)]
pub struct Handoff {
    pub data: Data<u32>,
    pub full: Strong<u32>,
    pub count: Strong<u32>,
}

impl Default for Handoff {
    fn default() -> Self {
        Self::new()
    }
}

impl Handoff {
    /// All zero.
    pub const fn new() -> Self {
        Handoff { data: Data::new(0), full: Strong::new(0), count: Strong::new(0) }
    }

    /// P: publish `v`, wait until both consumers are done (while `more()` allows), then
    /// overwrite with `v + 1`. Returns whether both consumers were seen.
    pub fn produce(&self, v: u32, mut more: impl FnMut() -> bool) -> bool {
        // SAFETY: nobody reads data before full == 1.
        unsafe { self.data.write(v) };
        self.full.at::<Gpu>().store::<Release>(1);
        while self.count.at::<Gpu>().load::<Acquire>() != 2 {
            if !more() {
                return false;
            }
        }
        // SAFETY: both consumers' reads happen before (release on count, acquire here).
        unsafe { self.data.write(v + 1) };
        true
    }

    /// C1/C2: wait for full (while `more()` allows), read data, hand back. `None` on timeout.
    pub fn consume(&self, mut more: impl FnMut() -> bool) -> Option<u32> {
        while self.full.at::<Gpu>().load::<Acquire>() != 1 {
            if !more() {
                return None;
            }
        }
        // SAFETY: ordered after P's write by the acquire of full.
        let v = unsafe { self.data.read() };
        let _ = self.count.at::<Gpu>().fetch_add::<Release>(1);
        Some(v)
    }
}

/// The kernel: CTA 0 is P, CTAs 1 and 2 are C1 and C2 (thread 0 of each). `out[0..2]` = the
/// consumers' values, `out[2]` = 1 if P saw both. Launch with 3 CTAs of 1 thread.
#[cfg(target_arch = "nvptx64")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn handoff(h: *mut Handoff, out: *mut u32) {
    let cta: u32;
    core::arch::asm!("mov.u32 {}, %ctaid.x;", out(reg32) cta);
    let h = &*h;
    let mut spins = 0u32;
    let mut more = || {
        spins += 1;
        spins < 50_000_000
    };
    match cta {
        0 => *out.add(2) = h.produce(42, &mut more) as u32,
        c => *out.add(c as usize - 1) = h.consume(&mut more).unwrap_or(0xdead),
    }
}

#[cfg(target_arch = "nvptx64")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    unsafe { core::arch::asm!("trap;", options(noreturn)) }
}
