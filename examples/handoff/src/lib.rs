//! The seed's hand-off in its §4.4 form, as a user of `ptx-sync` writes it: one source for the
//! GPU kernel (built for `nvptx64-nvidia-cuda`) and for CPU threads (the host backend).
//!
//! ```text
//! P (CTA 0):      data = 42; st.release.gpu full = 1; while ld.acquire.gpu count != 2 {}; data = 43
//! C1, C2 (1, 2):  while ld.acquire.gpu full != 1 {}; value = data; red.release.gpu.add count, 1
//! ```
//!
//! Every wait is bounded ([`Budget`]): a missing party is a [`Timeout`], not a hung GPU.
#![cfg_attr(target_arch = "nvptx64", no_std)]
#![cfg_attr(target_arch = "nvptx64", feature(abi_ptx))]

use ptx_sync::prelude::*;

/// The shared variables, three `u32` in device memory.
#[repr(C)]
pub struct Handoff {
    /// The payload (ordinary data).
    pub data: Data<u32>,
    /// P's flag: 1 once `data` is published.
    pub full: Strong<u32>,
    /// How many consumers have read `data`.
    pub count: Strong<u32>,
}

impl Handoff {
    /// All zero.
    pub fn new() -> Self {
        Handoff { data: Data::new(0), full: Strong::new(0), count: Strong::new(0) }
    }

    /// P: publish `v`, wait for both consumers, then overwrite with `v + 1`.
    pub fn produce(&self, v: u32, b: Budget) -> Result<(), Timeout> {
        unsafe { self.data.write(v) }; // SAFETY: nobody reads data before full == 1
        self.full.at::<Gpu>().store::<Release>(1);
        spin_until(b, || self.count.at::<Gpu>().load::<Acquire>() == 2)?;
        unsafe { self.data.write(v + 1) }; // SAFETY: both reads happen before (count)
        Ok(())
    }

    /// C1/C2: wait for `full`, read `data`, hand back on `count`.
    pub fn consume(&self, b: Budget) -> Result<u32, Timeout> {
        spin_until(b, || self.full.at::<Gpu>().load::<Acquire>() == 1)?;
        let v = unsafe { self.data.read() }; // SAFETY: after P's write (acquire of full)
        self.count.at::<Gpu>().red_add::<Release>(1);
        Ok(v)
    }
}

impl Default for Handoff {
    fn default() -> Self {
        Self::new()
    }
}

/// The kernel body: CTA 0 is P, CTAs 1 and 2 are C1 and C2. `out[0..2]` = the consumers'
/// values (`0xdead` on timeout), `out[2]` = 1 if P saw both. Launch 3 CTAs of 1 thread.
///
/// # Safety
/// `out` is valid for 3 words.
pub unsafe fn handoff(h: &Handoff, out: *mut u32, b: Budget) {
    match block_idx().x {
        0 => *out.add(2) = h.produce(42, b).is_ok() as u32,
        c => *out.add(c as usize - 1) = h.consume(b).unwrap_or(0xdead),
    }
}

/// The kernel: [`handoff`] with a 1 s budget per wait.
#[cfg(target_arch = "nvptx64")]
#[no_mangle]
pub unsafe extern "ptx-kernel" fn handoff_kernel(h: *mut Handoff, out: *mut u32) {
    handoff(&*h, out, Budget::nanos(1_000_000_000))
}
