//! The host representation of a [`Scalar`](crate::Scalar): which CPU atomic holds its bits and
//! how each read-modify-write of PTX (`atom.add`, `.inc`, `.dec`, `.exch`, …) is computed on it.
//! The half, vector and `.b128` types implement [`HostScalar`] beside their definitions
//! (`atomic/half.rs`, `atomic/vector.rs`, `atomic/b128.rs`).
#![allow(clippy::missing_safety_doc)]

use core::sync::atomic::Ordering;

#[cfg(not(loom))]
pub(crate) use core::sync::atomic as hatomic;
#[cfg(loom)]
pub(crate) use loom::sync::atomic as hatomic;

/// The kind of read-modify-write, for the host backend.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RmwKind {
    Add,
    Min,
    Max,
    And,
    Or,
    Xor,
    Exch,
    Inc,
    Dec,
}

/// Failure ordering of a compare-exchange whose success ordering is `o` (the failed `atom.cas`
/// is a read with the acquire half of the semantic, if any).
pub(crate) fn cas_failure(o: Ordering) -> Ordering {
    match o {
        Ordering::AcqRel | Ordering::Acquire | Ordering::SeqCst => Ordering::Acquire,
        _ => Ordering::Relaxed,
    }
}

/// Host representation of a [`Scalar`](crate::Scalar): which atomic stands in for it.
#[doc(hidden)]
pub trait HostScalar: Copy + 'static {
    /// The CPU atomic that holds this scalar's bits.
    type Atomic: Send + Sync;
    fn to_repr(self) -> <Self as HostScalar>::Repr;
    fn from_repr(r: <Self as HostScalar>::Repr) -> Self;
    type Repr: Copy + PartialEq;
    fn atomic_new(v: Self) -> Self::Atomic;
    fn h_load(a: &Self::Atomic, o: Ordering) -> Self;
    fn h_store(a: &Self::Atomic, v: Self, o: Ordering);
    /// `atom.cas`; the types the table has no `cas` row for (the vectors) keep this default.
    fn h_cas(_: &Self::Atomic, _: Self, _: Self, _: Ordering) -> Result<Self, Self> {
        unreachable!(
            "PTX has no atom.cas on {} (the table has no such row)",
            core::any::type_name::<Self>()
        )
    }
    fn h_rmw(a: &Self::Atomic, k: RmwKind, b: Self, o: Ordering) -> Self;
    /// The value an RMW of kind `k` with operand `b` writes over `old` (computed on a local
    /// `core` atomic, so the arithmetic is exactly `h_rmw`'s; the model's RMWs use it).
    fn h_apply(k: RmwKind, old: Self, b: Self) -> Self;
    /// `&Atomic` over plain memory (not available under loom).
    #[cfg(not(loom))]
    unsafe fn atomic_from_ptr<'a>(p: *mut Self) -> &'a Self::Atomic;
}

/// PTX `atom.inc`: `(old >= b) ? 0 : old + 1`; `atom.dec`: `(old == 0 || old > b) ? b : old - 1`
/// (PTX ISA §9.7.13.5).
fn inc_dec_u32(k: RmwKind, old: u32, b: u32) -> u32 {
    match k {
        RmwKind::Inc => {
            if old >= b {
                0
            } else {
                old + 1
            }
        }
        _ => {
            if old == 0 || old > b {
                b
            } else {
                old - 1
            }
        }
    }
}

macro_rules! host_int {
    ($($t:ty => $A:ident),*) => {$(
        impl HostScalar for $t {
            type Atomic = hatomic::$A;
            type Repr = $t;
            #[inline(always)]
            fn to_repr(self) -> $t { self }
            #[inline(always)]
            fn from_repr(r: $t) -> Self { r }
            #[inline(always)]
            fn atomic_new(v: Self) -> Self::Atomic { hatomic::$A::new(v) }
            #[inline(always)]
            fn h_load(a: &Self::Atomic, o: Ordering) -> Self { a.load(o) }
            #[inline(always)]
            fn h_store(a: &Self::Atomic, v: Self, o: Ordering) { a.store(v, o) }
            #[inline(always)]
            fn h_cas(a: &Self::Atomic, cur: Self, new: Self, o: Ordering) -> Result<Self, Self> {
                a.compare_exchange(cur, new, o, cas_failure(o))
            }
            #[allow(unreachable_code, clippy::unnecessary_cast)]
            #[inline(always)]
            fn h_rmw(a: &Self::Atomic, k: RmwKind, b: Self, o: Ordering) -> Self {
                match k {
                    RmwKind::Add => a.fetch_add(b, o),
                    RmwKind::Min => a.fetch_min(b, o),
                    RmwKind::Max => a.fetch_max(b, o),
                    RmwKind::And => a.fetch_and(b, o),
                    RmwKind::Or => a.fetch_or(b, o),
                    RmwKind::Xor => a.fetch_xor(b, o),
                    RmwKind::Exch => a.swap(b, o),
                    RmwKind::Inc | RmwKind::Dec => {
                        // Only u32 has atom.inc/dec (the type system enforces it).
                        let mut cur = a.load(Ordering::Relaxed);
                        loop {
                            let new = inc_dec_u32(k, cur as u32, b as u32) as $t;
                            match a.compare_exchange(cur, new, o, cas_failure(o)) {
                                Ok(old) => return old,
                                Err(seen) => cur = seen,
                            }
                        }
                    }
                }
            }
            #[allow(unreachable_code, clippy::unnecessary_cast)]
            fn h_apply(k: RmwKind, old: Self, b: Self) -> Self {
                let a = core::sync::atomic::$A::new(old);
                let o = Ordering::Relaxed;
                match k {
                    RmwKind::Add => { a.fetch_add(b, o); }
                    RmwKind::Min => { a.fetch_min(b, o); }
                    RmwKind::Max => { a.fetch_max(b, o); }
                    RmwKind::And => { a.fetch_and(b, o); }
                    RmwKind::Or => { a.fetch_or(b, o); }
                    RmwKind::Xor => { a.fetch_xor(b, o); }
                    RmwKind::Exch => return b,
                    RmwKind::Inc | RmwKind::Dec => return inc_dec_u32(k, old as u32, b as u32) as $t,
                }
                a.into_inner()
            }
            #[cfg(not(loom))]
            #[inline(always)]
            unsafe fn atomic_from_ptr<'a>(p: *mut Self) -> &'a Self::Atomic {
                // SAFETY: the caller keeps this function's contract (its `# Safety`).
                unsafe {
                    hatomic::$A::from_ptr(p)
                }
            }
        }
    )*};
}
host_int!(u16 => AtomicU16, i16 => AtomicI16, u32 => AtomicU32, i32 => AtomicI32,
          u64 => AtomicU64, i64 => AtomicI64);

/// `atom.add.f32` / `red.add.f32` flush subnormal inputs and results to sign-preserving zero
/// (PTX ISA §9.7.13.5: "atom.add.f32 rounds to nearest even and flushes subnormal inputs and
/// results to sign-preserving zero"); `.f64` keeps subnormals.
pub(crate) fn ftz_f32(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}
/// `.add.f64` does not flush (the identity).
pub(crate) fn ftz_none(x: f64) -> f64 {
    x
}

macro_rules! host_float {
    ($($t:ty => $A:ident, $bits:ty, $ftz:ident),*) => {$(
        impl HostScalar for $t {
            type Atomic = hatomic::$A;
            type Repr = $bits;
            #[inline(always)]
            fn to_repr(self) -> $bits { self.to_bits() }
            #[inline(always)]
            fn from_repr(r: $bits) -> Self { <$t>::from_bits(r) }
            #[inline(always)]
            fn atomic_new(v: Self) -> Self::Atomic { hatomic::$A::new(v.to_bits()) }
            #[inline(always)]
            fn h_load(a: &Self::Atomic, o: Ordering) -> Self { <$t>::from_bits(a.load(o)) }
            #[inline(always)]
            fn h_store(a: &Self::Atomic, v: Self, o: Ordering) { a.store(v.to_bits(), o) }
            #[inline(always)]
            fn h_cas(a: &Self::Atomic, cur: Self, new: Self, o: Ordering) -> Result<Self, Self> {
                a.compare_exchange(cur.to_bits(), new.to_bits(), o, cas_failure(o))
                    .map(<$t>::from_bits)
                    .map_err(<$t>::from_bits)
            }
            #[inline(always)]
            fn h_rmw(a: &Self::Atomic, k: RmwKind, b: Self, o: Ordering) -> Self {
                match k {
                    RmwKind::Exch => <$t>::from_bits(a.swap(b.to_bits(), o)),
                    RmwKind::Add => {
                        let mut cur = a.load(Ordering::Relaxed);
                        loop {
                            let new = $ftz($ftz(<$t>::from_bits(cur)) + $ftz(b)).to_bits();
                            match a.compare_exchange(cur, new, o, cas_failure(o)) {
                                Ok(old) => return <$t>::from_bits(old),
                                Err(seen) => cur = seen,
                            }
                        }
                    }
                    // The type system offers only add and exch on floats (PTX has no others).
                    _ => unreachable!("PTX has no {:?} on a float", k),
                }
            }
            fn h_apply(k: RmwKind, old: Self, b: Self) -> Self {
                match k {
                    RmwKind::Exch => b,
                    RmwKind::Add => $ftz($ftz(old) + $ftz(b)),
                    _ => unreachable!("PTX has no {:?} on a float", k),
                }
            }
            #[cfg(not(loom))]
            #[inline(always)]
            unsafe fn atomic_from_ptr<'a>(p: *mut Self) -> &'a Self::Atomic {
                // SAFETY: the caller keeps this function's contract (its `# Safety`).
                unsafe {
                    hatomic::$A::from_ptr(p as *mut $bits)
                }
            }
        }
    )*};
}
host_float!(f32 => AtomicU32, u32, ftz_f32, f64 => AtomicU64, u64, ftz_none);
