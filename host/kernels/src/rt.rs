//! Small device-side runtime for the litmus kernels: thread ids and time budgets.

use core::arch::asm;

/// `%globaltimer` (nanoseconds), from the library.
pub use ptx_sync::wait::globaltimer;

macro_rules! sreg {
    ($name:ident, $reg:literal) => {
        #[doc = concat!("`", $reg, "`")]
        #[inline(always)]
        pub fn $name() -> u32 {
            let v: u32;
            unsafe { asm!(concat!("mov.u32 {}, ", $reg, ";"), out(reg32) v, options(pure, nomem, nostack)) };
            v
        }
    };
}
sreg!(tid_x, "%tid.x");
sreg!(ntid_x, "%ntid.x");
sreg!(ctaid_x, "%ctaid.x");

/// A wait ran out: `red.relaxed.gpu.or [status], bit`, then `exit` (the thread ends here, so
/// that nothing after a wait it did not see end is checked) — the model-check kernels' timeout.
#[inline(always)]
pub fn give_up(status: *mut u32, bit: u32) -> ! {
    use ptx_sync::{AtomicRef, Gpu, Relaxed};
    unsafe {
        AtomicRef::<u32, Gpu>::from_ptr(status).red_or::<Relaxed>(bit);
        core::arch::asm!("exit;", options(noreturn, nostack));
    }
}

/// `ctaid.x * ntid.x + tid.x`.
#[inline(always)]
pub fn global_thread_id() -> u32 {
    ctaid_x() * ntid_x() + tid_x()
}

/// A point in `%globaltimer` time after which a wait gives up.
#[derive(Clone, Copy)]
pub struct Deadline {
    end: u64,
}

impl Deadline {
    /// `budget_ns` from now.
    #[inline(always)]
    pub fn after(budget_ns: u64) -> Self {
        Deadline {
            end: globaltimer().saturating_add(budget_ns),
        }
    }
    /// Whether the budget is spent.
    #[inline(always)]
    pub fn expired(&self) -> bool {
        globaltimer() > self.end
    }
}
