//! The scalars PTX loads, stores and updates: [`Scalar`] (its PTX name, alignment, `asm!`
//! operand type and host representation) for the primitives; the half, `.b128` and vector
//! types implement it beside their definitions (`half.rs`, `b128.rs`, `vector.rs`).

use super::half;
use crate::sem::Sealed;

/// A scalar that PTX can load, store and update atomically: `u16`, `i16` (`ld`/`st` and
/// `atom.cas.b16` only), `u32`, `i32`, `u64`, `i64`, `f32`,
/// `f64`, the half types [`F16`](super::F16), [`Bf16`](super::Bf16), [`F16x2`](super::F16x2), [`Bf16x2`](super::Bf16x2), `u128` ([`b128`](super::b128)), and the
/// `ld`/`st`-only vectors of [`vector`](super::vector).
pub trait Scalar: Sealed + Copy + PartialEq + Default + 'static + ScalarHost {
    /// The Rust name (`"u32"`).
    const NAME: &'static str;
    /// Bitwise equality (what `atom.cas` compares).
    fn bits_eq(self, other: Self) -> bool;
    /// A zero-sized array of this gives [`Strong<Self>`](Strong) the alignment of the PTX
    /// access, `size_of::<Self>()` (8 for the 64-bit types even where the host aligns `u64` to 4,
    /// as 32-bit x86 does: an `atom`/`ld` of 8 bytes needs an 8-aligned address).
    #[doc(hidden)]
    type Align: Copy + Default + 'static;
    /// The primitive an `asm!` operand holds (`Self` for the primitives, the bits for the half
    /// types of [`half`]).
    #[doc(hidden)]
    type Raw: Copy;
    #[doc(hidden)]
    fn to_raw(self) -> Self::Raw;
    #[doc(hidden)]
    fn from_raw(r: Self::Raw) -> Self;
}

/// An 8-aligned zero-sized marker (the [`Scalar::Align`] of the 64-bit types).
#[doc(hidden)]
#[repr(align(8))]
#[derive(Clone, Copy, Debug, Default)]
pub struct Align8;
/// A 4-aligned zero-sized marker (the [`Scalar::Align`] of the 32-bit types).
#[doc(hidden)]
#[repr(align(4))]
#[derive(Clone, Copy, Debug, Default)]
pub struct Align4;

#[cfg(not(target_arch = "nvptx64"))]
#[doc(hidden)]
pub use crate::backend::host::HostScalar as ScalarHost;
#[cfg(target_arch = "nvptx64")]
#[doc(hidden)]
pub trait ScalarHost {}
#[cfg(target_arch = "nvptx64")]
impl<T> ScalarHost for T {}

/// A scalar with `atom.add`, so that `fetch_sub(v)` can be `fetch_add(-v)`.
pub trait Negate: Scalar {
    /// Two's-complement (integers) or IEEE (floats) negation.
    fn negate(self) -> Self;
}

macro_rules! scalars {
    ($($t:ty, $al:ty, $neg:expr);*) => {$(
        impl Sealed for $t {}
        impl Scalar for $t {
            const NAME: &'static str = stringify!($t);
            type Align = $al;
            type Raw = $t;
            #[inline(always)]
            fn to_raw(self) -> $t { self }
            #[inline(always)]
            fn from_raw(r: $t) -> Self { r }
            #[allow(clippy::float_cmp)]
            fn bits_eq(self, other: Self) -> bool { self.to_ne_bytes() == other.to_ne_bytes() }
        }
        impl Negate for $t {
            fn negate(self) -> Self { let f: fn($t) -> $t = $neg; f(self) }
        }
    )*};
}
scalars!(u16, half::Align2, |x| x.wrapping_neg(); i16, half::Align2, |x| x.wrapping_neg();
         u32, Align4, |x| x.wrapping_neg(); i32, Align4, |x| x.wrapping_neg();
         u64, Align8, |x| x.wrapping_neg(); i64, Align8, |x| x.wrapping_neg();
         f32, Align4, |x| -x; f64, Align8, |x| -x);
