//! Half-precision scalars for `atom`/`red` `.add.noftz` and `atom.cas.b16`: [`F16`], [`Bf16`],
//! [`F16x2`], [`Bf16x2`].
//!
//! Rust has no stable `f16`, so each is a `#[repr(transparent)]` wrapper of its bits (`u16` for
//! one half, `u32` for a packed pair) with `from_bits`/`to_bits` and `f32` conversions. The
//! conversion to half rounds to nearest, ties to even (IEEE 754 `roundTiesToEven`), keeps
//! subnormals, overflows to infinity, and turns every NaN into the canonical NaN `0x7fff`.
//! A packed pair holds the element at the lower address in the low 16 bits (PTX ISA §5.2.1:
//! `.f16x2` is two `.f16` in one `.b32`, little-endian).
//!
//! | Rust | PTX type | `ld`/`st` | `atom`/`red` | `atom.cas` | floor of `add.noftz` |
//! |---|---|---|---|---|---|
//! | [`F16`] | `.f16` | `.b16` | `add.noftz.f16` | `cas.b16` (PTX 6.3, sm_70) | PTX 6.3, sm_70 |
//! | [`Bf16`] | `.bf16` | `.b16` | `add.noftz.bf16` | `cas.b16` | PTX 7.8, sm_90 |
//! | [`F16x2`] | `.f16x2` | `.b32` | `add.noftz.f16x2` | `cas.b32`, `exch.b32` | PTX 6.2, sm_60 (sm_70 with `.sem`) |
//! | [`Bf16x2`] | `.bf16x2` | `.b32` | `add.noftz.bf16x2` | `cas.b32`, `exch.b32` | PTX 7.8, sm_90 |
//!
//! PTX ISA §9.7.13.5 (`atom`): "`atom.add.f16`, `atom.add.f16x2`, `atom.add.bf16` and
//! `atom.add.bf16x2` operation requires the `.noftz` qualifier; it preserves subnormal inputs and
//! results, and does not flush them to zero", rounding to nearest even; §9.7.13.6 (`red`) the
//! same. A packed `atom` is atomic for each 16-bit element separately, not as one 32-bit access
//! (§9.7.13.5: "the atomicity is guaranteed separately for each of the individual scalar
//! elements"). Seed §4.1 (atomic read-modify-write), §4.5 (`red`).
//!
//! Host backend: a compare-and-swap loop on the bits (`AtomicU16`/`AtomicU32`) that adds in
//! `f32` and rounds once to the half format. `f32` has 24 significand bits, at least `2p + 2` for
//! both halves (`p` = 11 for `f16`, 8 for `bf16`), so the double rounding (exact sum → `f32` →
//! half) gives the correctly rounded half sum (Figueroa, "When is double rounding innocuous?",
//! 1995) — the device's result bit for bit, except that the device's NaN payload is not
//! specified by the ISA (the host returns `0x7fff`; compare NaNs with `is_nan`).
//!
//! ```
//! use ptx_sync::{Strong, Gpu, Relaxed, F16, Bf16x2};
//! let acc = Strong::new(F16::from_f32(1.5));
//! let old = acc.at::<Gpu>().fetch_add::<Relaxed>(F16::from_f32(0.25)); // atom.relaxed.gpu.add.noftz.f16
//! assert_eq!((old.to_f32(), acc.at::<Gpu>().load::<Relaxed>().to_f32()), (1.5, 1.75));
//! let pair = Strong::new(Bf16x2::from_f32s([1.0, -2.0]));
//! pair.at::<Gpu>().red_add::<Relaxed>(Bf16x2::from_f32s([0.5, 0.5])); // red.relaxed.gpu.add.noftz.bf16x2
//! assert_eq!(pair.at::<Gpu>().load::<Relaxed>().to_f32s(), [1.5, -1.5]);
//! ```

use super::{Negate, Scalar};
use crate::sem::Sealed;

/// A 2-aligned zero-sized marker (the [`Scalar::Align`] of the 16-bit types).
#[doc(hidden)]
#[repr(align(2))]
#[derive(Clone, Copy, Debug, Default)]
pub struct Align2;

/// Rounds the `f32` `x` to a half format with `man` stored significand bits and exponent bias
/// `bias` (`f16`: 10, 15; `bf16`: 7, 127), to nearest, ties to even; NaN → `0x7fff`.
const fn f32_to_half(x: f32, man: u32, bias: i32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32;
    let frac = b & 0x7f_ffff;
    let exp_bits = 15 - man; // 5 for f16, 8 for bf16
    let max_e = (1i32 << exp_bits) - 1;
    if exp == 0xff {
        return if frac != 0 {
            0x7fff
        } else {
            sign | ((max_e as u16) << man)
        };
    }
    if exp == 0 && frac == 0 {
        return sign;
    }
    // The value is m · 2^(e - 23) with the 24-bit significand m (f32 subnormals: e = -126).
    let (mut m, mut e) = if exp == 0 {
        (frac, -126)
    } else {
        (frac | 0x80_0000, exp - 127)
    };
    // An f32 subnormal: normalise so that the leading bit is bit 23.
    while m < 0x80_0000 {
        m <<= 1;
        e -= 1;
    }
    // The half's unbiased exponent, clamped below to its subnormal range.
    let he = e + bias;
    // The number of low bits of m to drop: 23 - man for a normal half, more for a subnormal.
    let shift = if he >= 1 {
        23 - man as i32
    } else {
        23 - man as i32 + (1 - he)
    };
    let (q, exp_field) = if shift >= 32 {
        (0u32, 0i32)
    } else {
        let s = shift as u32;
        let q = m >> s;
        let rem = m & ((1u32 << s) - 1);
        let half = 1u32 << (s - 1);
        let q = if rem > half || (rem == half && (q & 1) == 1) {
            q + 1
        } else {
            q
        };
        (q, if he >= 1 { he } else { 0 })
    };
    // q holds the significand with the implicit bit (normal) or the subnormal significand; a
    // carry out of the significand bumps the exponent (subnormal → smallest normal included).
    let bits = if exp_field == 0 {
        q // q may reach 1 << man: that is exactly the smallest normal's encoding
    } else {
        ((exp_field as u32) << man) + (q - (1u32 << man))
    };
    if bits >= ((max_e as u32) << man) {
        return sign | ((max_e as u16) << man);
    }
    sign | bits as u16
}

/// The exact `f32` of a half with `man` significand bits (`bf16`: the top half of the `f32`).
const fn half_to_f32(h: u16, man: u32) -> f32 {
    if man == 7 {
        return f32::from_bits((h as u32) << 16);
    }
    let sign = ((h & 0x8000) as u32) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let frac = (h & 0x3ff) as u32;
    let bits = if exp == 0x1f {
        sign | 0x7f80_0000 | (frac << 13)
    } else if exp == 0 {
        if frac == 0 {
            sign
        } else {
            // frac · 2^-24, normalised: the top set bit p (0..=9) is the implicit bit.
            let p = 31 - frac.leading_zeros();
            sign | ((p + 127 - 24) << 23) | ((frac << (23 - p)) & 0x7f_ffff)
        }
    } else {
        sign | ((exp + 127 - 15) << 23) | (frac << 13)
    };
    f32::from_bits(bits)
}

/// `min`/`max` of two halves with `man` significand bits as `min.f16`/`max.f16` compute them
/// (PTX ISA §9.7.4.7/8, without `.NaN`): a NaN operand yields the other operand, two NaNs the
/// canonical NaN `0x7fff`, and `-0.0 < +0.0`.
fn half_min_max(a: u16, b: u16, man: u32, min: bool) -> u16 {
    let (x, y) = (half_to_f32(a, man), half_to_f32(b, man));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => 0x7fff,
        (true, false) => b,
        (false, true) => a,
        // Equal values differ in their bits only as +0.0 and -0.0: min takes a set sign bit.
        _ if x == y => {
            if min {
                a | b
            } else {
                a & b
            }
        }
        _ if (x < y) == min => a,
        _ => b,
    }
}

macro_rules! half {
    ($(#[$m:meta])* $T:ident, $name:literal, $man:literal, $bias:literal, $ex:literal) => {
        $(#[$m])*
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $T(u16);

        impl $T {
            /// The value with these bits (no instruction).
            ///
            /// ```
            #[doc = concat!("let h = ptx_sync::", stringify!($T), "::from_bits(", $ex, ");")]
            #[doc = concat!("assert_eq!(h.to_bits(), ", $ex, ");")]
            /// ```
            pub const fn from_bits(b: u16) -> Self {
                $T(b)
            }
            /// The bits (no instruction).
            ///
            /// ```
            #[doc = concat!("assert_eq!(ptx_sync::", stringify!($T), "::from_f32(1.0).to_bits(), ", $ex, ");")]
            /// ```
            pub const fn to_bits(self) -> u16 {
                self.0
            }
            /// `x` rounded to nearest, ties to even; subnormals kept, overflow to infinity,
            /// NaN → `0x7fff` (host arithmetic; on the device this is `cvt.rn`'s result).
            ///
            /// ```
            #[doc = concat!("use ptx_sync::", stringify!($T), ";")]
            #[doc = concat!("assert_eq!(", stringify!($T), "::from_f32(-2.0).to_f32(), -2.0);")]
            #[doc = concat!("assert!(", stringify!($T), "::from_f32(f32::NAN).to_f32().is_nan());")]
            /// ```
            pub const fn from_f32(x: f32) -> Self {
                $T(f32_to_half(x, $man, $bias))
            }
            /// The exact `f32` value (every half is an `f32`).
            ///
            /// ```
            #[doc = concat!("assert_eq!(ptx_sync::", stringify!($T), "::from_bits(", $ex, ").to_f32(), 1.0);")]
            /// ```
            pub const fn to_f32(self) -> f32 {
                half_to_f32(self.0, $man)
            }
            /// `self + b` rounded once to this format (ties to even, no flush) — what
            /// `atom.add.noftz` writes.
            ///
            /// ```
            #[doc = concat!("use ptx_sync::", stringify!($T), ";")]
            #[doc = concat!("let s = ", stringify!($T), "::from_f32(1.0).add(", stringify!($T), "::from_f32(2.0));")]
            /// assert_eq!(s.to_f32(), 3.0);
            /// ```
            #[allow(clippy::should_implement_trait)]
            pub const fn add(self, b: Self) -> Self {
                Self::from_f32(self.to_f32() + b.to_f32())
            }
            /// The smaller of `self` and `b` as `min` on a half computes it (PTX ISA §9.7.4.7,
            /// without `.NaN`): a NaN yields the other operand, two NaNs the canonical NaN, and
            /// `-0.0 < +0.0` — what a vector `atom.min.noftz` writes in each element (the
            /// ISA's `atom` text does not restate it; this is the host backend's reading).
            ///
            /// ```
            #[doc = concat!("use ptx_sync::", stringify!($T), ";")]
            #[doc = concat!("let (a, z) = (", stringify!($T), "::from_f32(-1.0), ", stringify!($T), "::from_f32(0.0));")]
            #[doc = concat!("assert_eq!(a.min(", stringify!($T), "::from_f32(f32::NAN)), a);")]
            #[doc = concat!("assert_eq!(z.min(", stringify!($T), "::from_bits(0x8000)).to_bits(), 0x8000); // -0.0 < +0.0")]
            /// ```
            pub fn min(self, b: Self) -> Self {
                $T(half_min_max(self.0, b.0, $man, true))
            }
            /// The larger of `self` and `b` as `max` on a half computes it (PTX ISA §9.7.4.8,
            /// without `.NaN`; NaN and zeros as [`min`](Self::min)) — what a vector
            /// `atom.max.noftz` writes in each element.
            ///
            /// ```
            #[doc = concat!("use ptx_sync::", stringify!($T), ";")]
            #[doc = concat!("let z = ", stringify!($T), "::from_f32(0.0);")]
            #[doc = concat!("assert_eq!(", stringify!($T), "::from_f32(2.0).max(", stringify!($T), "::from_f32(3.0)).to_f32(), 3.0);")]
            #[doc = concat!("assert_eq!(", stringify!($T), "::from_bits(0x8000).max(z).to_bits(), 0); // +0.0 > -0.0")]
            /// ```
            pub fn max(self, b: Self) -> Self {
                $T(half_min_max(self.0, b.0, $man, false))
            }
        }
        impl Sealed for $T {}
        impl Scalar for $T {
            const NAME: &'static str = stringify!($T);
            type Align = Align2;
            type Raw = u16;
            fn bits_eq(self, other: Self) -> bool {
                self.0 == other.0
            }
            #[inline(always)]
            fn to_raw(self) -> u16 {
                self.0
            }
            #[inline(always)]
            fn from_raw(r: u16) -> Self {
                $T(r)
            }
        }
        impl Negate for $T {
            fn negate(self) -> Self {
                $T(self.0 ^ 0x8000)
            }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        host_bits!($T, u16, AtomicU16, |a: $T, b: $T| a.add(b));
    };
}

macro_rules! pair {
    ($(#[$m:meta])* $T:ident, $E:ident, $ex:literal) => {
        $(#[$m])*
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $T(u32);

        impl $T {
            /// The pair with these bits: element 0 (the lower address) in bits 0–15 (no
            /// instruction).
            ///
            /// ```
            #[doc = concat!("let p = ptx_sync::", stringify!($T), "::from_bits(", $ex, ");")]
            #[doc = concat!("assert_eq!(p.to_bits(), ", $ex, ");")]
            /// ```
            pub const fn from_bits(b: u32) -> Self {
                $T(b)
            }
            /// The bits (no instruction).
            ///
            /// ```
            #[doc = concat!("assert_eq!(ptx_sync::", stringify!($T), "::from_f32s([1.0, 1.0]).to_bits(), ", $ex, ");")]
            /// ```
            pub const fn to_bits(self) -> u32 {
                self.0
            }
            /// The pair `[e0, e1]` (element 0 at the lower address).
            ///
            /// ```
            #[doc = concat!("use ptx_sync::{", stringify!($T), ", ", stringify!($E), "};")]
            #[doc = concat!("let p = ", stringify!($T), "::new([", stringify!($E), "::from_f32(1.0), ", stringify!($E), "::from_f32(2.0)]);")]
            /// assert_eq!(p.to_f32s(), [1.0, 2.0]);
            /// ```
            pub const fn new(e: [$E; 2]) -> Self {
                $T(e[0].to_bits() as u32 | ((e[1].to_bits() as u32) << 16))
            }
            /// The two elements.
            ///
            /// ```
            #[doc = concat!("let p = ptx_sync::", stringify!($T), "::from_f32s([0.5, -1.0]);")]
            /// assert_eq!((p.get()[0].to_f32(), p.get()[1].to_f32()), (0.5, -1.0));
            /// ```
            pub const fn get(self) -> [$E; 2] {
                [$E::from_bits(self.0 as u16), $E::from_bits((self.0 >> 16) as u16)]
            }
            /// Both elements rounded from `f32` ([`from_f32`](
            #[doc = concat!(stringify!($E), "::from_f32")]
            /// )).
            ///
            /// ```
            #[doc = concat!("assert_eq!(ptx_sync::", stringify!($T), "::from_f32s([3.0, 4.0]).to_f32s(), [3.0, 4.0]);")]
            /// ```
            pub const fn from_f32s(x: [f32; 2]) -> Self {
                Self::new([$E::from_f32(x[0]), $E::from_f32(x[1])])
            }
            /// Both elements as `f32` (exact).
            ///
            /// ```
            #[doc = concat!("assert_eq!(ptx_sync::", stringify!($T), "::default().to_f32s(), [0.0, 0.0]);")]
            /// ```
            pub const fn to_f32s(self) -> [f32; 2] {
                let e = self.get();
                [e[0].to_f32(), e[1].to_f32()]
            }
            /// Element-wise sum, each rounded once — what `atom.add.noftz` of the pair writes.
            ///
            /// ```
            #[doc = concat!("let p = ptx_sync::", stringify!($T), "::from_f32s([1.0, 2.0]);")]
            /// assert_eq!(p.add(p).to_f32s(), [2.0, 4.0]);
            /// ```
            #[allow(clippy::should_implement_trait)]
            pub const fn add(self, b: Self) -> Self {
                let (x, y) = (self.get(), b.get());
                Self::new([x[0].add(y[0]), x[1].add(y[1])])
            }
            /// Element-wise [`min`](
            #[doc = concat!(stringify!($E), "::min")]
            /// ) — what a vector `atom.min.noftz` of pairs writes in each pair.
            ///
            /// ```
            #[doc = concat!("let p = ptx_sync::", stringify!($T), "::from_f32s([1.0, -2.0]);")]
            #[doc = concat!("let q = ptx_sync::", stringify!($T), "::from_f32s([0.5, 3.0]);")]
            /// assert_eq!(p.min(q).to_f32s(), [0.5, -2.0]);
            /// ```
            pub fn min(self, b: Self) -> Self {
                let (x, y) = (self.get(), b.get());
                Self::new([x[0].min(y[0]), x[1].min(y[1])])
            }
            /// Element-wise [`max`](
            #[doc = concat!(stringify!($E), "::max")]
            /// ) — what a vector `atom.max.noftz` of pairs writes in each pair.
            ///
            /// ```
            #[doc = concat!("let p = ptx_sync::", stringify!($T), "::from_f32s([1.0, -2.0]);")]
            #[doc = concat!("let q = ptx_sync::", stringify!($T), "::from_f32s([0.5, 3.0]);")]
            /// assert_eq!(p.max(q).to_f32s(), [1.0, 3.0]);
            /// ```
            pub fn max(self, b: Self) -> Self {
                let (x, y) = (self.get(), b.get());
                Self::new([x[0].max(y[0]), x[1].max(y[1])])
            }
        }
        impl Sealed for $T {}
        impl Scalar for $T {
            const NAME: &'static str = stringify!($T);
            type Align = super::Align4;
            type Raw = u32;
            fn bits_eq(self, other: Self) -> bool {
                self.0 == other.0
            }
            #[inline(always)]
            fn to_raw(self) -> u32 {
                self.0
            }
            #[inline(always)]
            fn from_raw(r: u32) -> Self {
                $T(r)
            }
        }
        impl Negate for $T {
            fn negate(self) -> Self {
                $T(self.0 ^ 0x8000_8000)
            }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        host_bits!($T, u32, AtomicU32, |a: $T, b: $T| a.add(b));
    };
}

/// The host representation of a bits wrapper: its bits in a `$A`; `add` by a CAS loop, `exch` a
/// swap (only the rows the table has are reachable).
#[cfg(not(target_arch = "nvptx64"))]
macro_rules! host_bits {
    ($T:ident, $bits:ty, $A:ident, $add:expr) => {
        impl crate::backend::host::HostScalar for $T {
            type Atomic = crate::backend::host::hatomic::$A;
            type Repr = $bits;
            fn to_repr(self) -> $bits {
                self.to_raw()
            }
            fn from_repr(r: $bits) -> Self {
                Self::from_raw(r)
            }
            fn atomic_new(v: Self) -> Self::Atomic {
                crate::backend::host::hatomic::$A::new(v.to_raw())
            }
            fn h_load(a: &Self::Atomic, o: core::sync::atomic::Ordering) -> Self {
                Self::from_raw(a.load(o))
            }
            fn h_store(a: &Self::Atomic, v: Self, o: core::sync::atomic::Ordering) {
                a.store(v.to_raw(), o)
            }
            fn h_cas(
                a: &Self::Atomic,
                cur: Self,
                new: Self,
                o: core::sync::atomic::Ordering,
            ) -> Result<Self, Self> {
                a.compare_exchange(
                    cur.to_raw(),
                    new.to_raw(),
                    o,
                    crate::backend::host::cas_failure(o),
                )
                .map(Self::from_raw)
                .map_err(Self::from_raw)
            }
            fn h_rmw(
                a: &Self::Atomic,
                k: crate::backend::host::RmwKind,
                b: Self,
                o: core::sync::atomic::Ordering,
            ) -> Self {
                if let crate::backend::host::RmwKind::Exch = k {
                    return Self::from_raw(a.swap(b.to_raw(), o));
                }
                let mut cur = a.load(core::sync::atomic::Ordering::Relaxed);
                loop {
                    let new = Self::h_apply(k, Self::from_raw(cur), b).to_raw();
                    match a.compare_exchange(cur, new, o, crate::backend::host::cas_failure(o)) {
                        Ok(old) => return Self::from_raw(old),
                        Err(seen) => cur = seen,
                    }
                }
            }
            fn h_apply(k: crate::backend::host::RmwKind, old: Self, b: Self) -> Self {
                let add: fn($T, $T) -> $T = $add;
                match k {
                    crate::backend::host::RmwKind::Add => add(old, b),
                    crate::backend::host::RmwKind::Exch => b,
                    // min/max: the elements of the vector `atom/red.{min,max}.noftz` rows.
                    crate::backend::host::RmwKind::Min => $T::min(old, b),
                    crate::backend::host::RmwKind::Max => $T::max(old, b),
                    // The table offers only add.noftz, exch (pairs), cas, and min/max in a
                    // vector on these types.
                    _ => unreachable!("PTX has no {:?} on {}", k, stringify!($T)),
                }
            }
            #[cfg(not(loom))]
            unsafe fn atomic_from_ptr<'a>(p: *mut Self) -> &'a Self::Atomic {
                // SAFETY: the caller keeps this function's contract (its `# Safety`).
                unsafe { crate::backend::host::hatomic::$A::from_ptr(p as *mut $bits) }
            }
        }
    };
}

half! {
    /// An IEEE 754 binary16 value (`.f16`): 1 sign, 5 exponent, 10 significand bits, by its bits.
    /// The operand of `atom`/`red` `.add.noftz.f16` (PTX 6.3, sm_70) and `atom.cas.b16`; loaded
    /// and stored as `.b16`. PTX ISA §5.2.1, §9.7.13.5; seed §4.1. See the
    /// [module docs](crate::atomic::half) for rounding and the host backend.
    ///
    /// ```
    /// let h = ptx_sync::F16::from_f32(65520.0); // rounds up past the largest finite f16
    /// assert_eq!(h.to_f32(), f32::INFINITY);
    /// assert_eq!(ptx_sync::F16::from_f32(5.96e-8).to_bits(), 1); // the smallest subnormal kept
    /// ```
    F16, "f16", 10, 15, "0x3c00"
}
half! {
    /// A bfloat16 value (`.bf16`): 1 sign, 8 exponent, 7 significand bits (the top half of an
    /// `f32`), by its bits. The operand of `atom`/`red` `.add.noftz.bf16` (PTX 7.8, sm_90) and
    /// `atom.cas.b16`; loaded and stored as `.b16`. PTX ISA §5.2.1, §9.7.13.5; seed §4.1.
    ///
    /// ```
    /// let b = ptx_sync::Bf16::from_f32(1.0 + 1.0 / 256.0); // a tie: rounds to even (1.0)
    /// assert_eq!(b.to_f32(), 1.0);
    /// ```
    Bf16, "bf16", 7, 127, "0x3f80"
}
pair! {
    /// Two `.f16` packed in a `.b32` (`.f16x2`): the operand of `atom`/`red`
    /// `.add.noftz.f16x2` (PTX 6.2, sm_60; with a `.sem`: sm_70) — each element is a separate
    /// atomic access. `atom.cas.b32`/`exch.b32` on the pair. PTX ISA §5.2.1, §9.7.13.5; seed §4.1.
    ///
    /// ```
    /// let p = ptx_sync::F16x2::from_f32s([1.0, 2.0]);
    /// assert_eq!(p.to_bits(), 0x4000_3c00); // element 0 in the low half
    /// ```
    F16x2, F16, "0x3c00_3c00"
}
pair! {
    /// Two `.bf16` packed in a `.b32` (`.bf16x2`): the operand of `atom`/`red`
    /// `.add.noftz.bf16x2` (PTX 7.8, sm_90) — each element a separate atomic access.
    /// PTX ISA §5.2.1, §9.7.13.5; seed §4.1.
    ///
    /// ```
    /// let p = ptx_sync::Bf16x2::from_f32s([1.0, -1.0]);
    /// assert_eq!(p.to_bits(), 0xbf80_3f80);
    /// ```
    Bf16x2, Bf16, "0x3f80_3f80"
}
