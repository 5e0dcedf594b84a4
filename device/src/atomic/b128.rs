//! 128-bit strong accesses on `u128`: `ld`/`st` `.b128` and `atom.exch.b128`/`atom.cas.b128`.
//!
//! | call | PTX | floor |
//! |---|---|---|
//! | [`load`](crate::AtomicRef::load) | `ld{.sem}{.scope}{.space}.b128` | PTX 8.3, sm_70 |
//! | [`store`](crate::AtomicRef::store) | `st{.sem}{.scope}{.space}.b128` | PTX 8.3, sm_70 |
//! | [`swap`](crate::AtomicRef::swap) | `atom{.sem}{.scope}{.space}.exch.b128` | PTX 8.3, sm_90 |
//! | [`compare_exchange`](crate::AtomicRef::compare_exchange) | `atom{.sem}{.scope}{.space}.cas.b128` | PTX 8.3, sm_90 |
//!
//! At `.sys` scope each form needs PTX 8.4 (the ISA's notes: `.sys` with `.b128` from PTX ISA
//! 8.4; ptxas 13.0 rejects it at 8.3: "Feature '.b128 with .sys' requires PTX ISA .version 8.4";
//! `host/tests/floors.rs`).
//!
//! PTX ISA §9.7.9.8 (`ld`), §9.7.9.10 (`st`): `.b128` is one of the `.type`s of every form
//! (weak, `.volatile`, `.relaxed.scope`, `.acquire`/`.release.scope`); §9.7.13.5 (`atom`):
//! `atom{.sem}{.scope}{.space}.cas.b128 d, [a], b, c` and `….exch.b128 d, [a], b` — no other
//! 128-bit op (no `red` either). A `.b128` operand is a `.b128` register (§5.2.2); Rust has no
//! 128-bit `asm!` register class, so each instruction sits in a `{ .reg .b128 q; … }` block that
//! packs and unpacks the value with `mov.b128 q, {lo, hi}` (`lo` the low 64 bits). The location
//! must be 16-aligned: [`Strong<u128>`](crate::Strong) is `align(16)` on every target.
//!
//! What the crate promises: the `atom` forms are atomic read-modify-writes of all 128 bits
//! (§9.7.13.5). For the loads and stores it claims no more than the memory-consistency chapter
//! (§8) states — which models a vector access as one access per element in an unspecified
//! order — so it does not claim that a `.b128` load or store is single-copy atomic on the device. Use `atom.exch.b128` to
//! publish and `atom.cas.b128` to read (a CAS that fails returns the current value) where a
//! torn value is not acceptable. Seed §4.1 (atomicity), §3.5 (strong accesses).
//!
//! Host backend: Rust has no stable 128-bit atomic. Each 128-bit operation takes one of 64
//! spin locks chosen by the address (bits 4–9), acquiring it with `Acquire` and releasing it
//! with `Release`, so every host 128-bit operation on one address is atomic with respect to every
//! other on it (loads and stores included — stronger than the device's promise), and a lock
//! hand-off orders as a release/acquire pair (at least the ordering each semantic asks for).
//! The lock is held for the copy only; it never waits on anything else. Under `--cfg loom` the
//! accesses go through the scope model like every other scalar (its history is the value).
//!
//! ```
//! use ptx_sync::{Strong, Gpu, AcqRel, Relaxed, Release, Acquire};
//! let slot = Strong::new(0u128);
//! slot.at::<Gpu>().store::<Release>(1 << 100);                    // st.release.gpu.b128
//! assert_eq!(slot.at::<Gpu>().load::<Acquire>(), 1 << 100);        // ld.acquire.gpu.b128
//! assert_eq!(slot.at::<Gpu>().swap::<AcqRel>(7), 1 << 100);        // atom.acq_rel.gpu.exch.b128
//! assert_eq!(slot.at::<Gpu>().compare_exchange::<Relaxed>(7, u128::MAX), Ok(7)); // atom.relaxed.gpu.cas.b128
//! ```

use super::Scalar;
use crate::sem::Sealed;

/// A 16-aligned zero-sized marker (the [`Scalar::Align`] of `u128`).
#[doc(hidden)]
#[repr(align(16))]
#[derive(Clone, Copy, Debug, Default)]
pub struct Align16;

impl Sealed for u128 {}
impl Scalar for u128 {
    const NAME: &'static str = "u128";
    type Align = Align16;
    type Raw = u128;
    fn bits_eq(self, other: Self) -> bool {
        self == other
    }
    #[inline(always)]
    fn to_raw(self) -> u128 {
        self
    }
    #[inline(always)]
    fn from_raw(r: u128) -> Self {
        r
    }
}

/// The host cell of a `u128`: its value, read and written only under the address's lock.
#[cfg(not(target_arch = "nvptx64"))]
#[doc(hidden)]
#[repr(transparent)]
pub struct Atomic128 {
    v: core::cell::UnsafeCell<u128>,
}

// SAFETY: every access to `v` holds the address's lock.
#[cfg(not(target_arch = "nvptx64"))]
unsafe impl Sync for Atomic128 {}
#[cfg(not(target_arch = "nvptx64"))]
unsafe impl Send for Atomic128 {}

#[cfg(not(target_arch = "nvptx64"))]
mod host {
    use super::Atomic128;
    use crate::backend::host::{HostScalar, RmwKind};
    use core::sync::atomic::{AtomicBool, Ordering};

    /// 64 spin locks, one per 16-byte line modulo 64.
    static LOCKS: [AtomicBool; 64] = [const { AtomicBool::new(false) }; 64];

    impl Atomic128 {
        /// Runs `f` on the value with the address's lock held.
        fn locked<R>(&self, f: impl FnOnce(&mut u128) -> R) -> R {
            let l = &LOCKS[(self.v.get() as usize >> 4) % 64];
            while l
                .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                // Held for a copy of 16 bytes by another thread: it is released promptly.
                core::hint::spin_loop();
            }
            // SAFETY: the lock gives this thread the only access to the value.
            let r = f(unsafe { &mut *self.v.get() });
            l.store(false, Ordering::Release);
            r
        }
    }

    impl HostScalar for u128 {
        type Atomic = Atomic128;
        type Repr = u128;
        fn to_repr(self) -> u128 {
            self
        }
        fn from_repr(r: u128) -> Self {
            r
        }
        fn atomic_new(v: Self) -> Atomic128 {
            Atomic128 {
                v: core::cell::UnsafeCell::new(v),
            }
        }
        fn h_load(a: &Atomic128, _: Ordering) -> Self {
            a.locked(|v| *v)
        }
        fn h_store(a: &Atomic128, n: Self, _: Ordering) {
            a.locked(|v| *v = n)
        }
        fn h_cas(a: &Atomic128, cur: Self, new: Self, _: Ordering) -> Result<Self, Self> {
            a.locked(|v| {
                let old = *v;
                if old == cur {
                    *v = new;
                    Ok(old)
                } else {
                    Err(old)
                }
            })
        }
        fn h_rmw(a: &Atomic128, k: RmwKind, b: Self, _: Ordering) -> Self {
            a.locked(|v| {
                let old = *v;
                *v = Self::h_apply(k, old, b);
                old
            })
        }
        fn h_apply(k: RmwKind, _old: Self, b: Self) -> Self {
            match k {
                RmwKind::Exch => b,
                // The table has only exch and cas on .b128.
                _ => unreachable!("PTX has no {:?} on .b128", k),
            }
        }
        #[cfg(not(loom))]
        unsafe fn atomic_from_ptr<'a>(p: *mut Self) -> &'a Atomic128 {
            // SAFETY: the caller keeps this function's contract (its `# Safety`).
            unsafe { &*(p as *const Atomic128) }
        }
    }
}
