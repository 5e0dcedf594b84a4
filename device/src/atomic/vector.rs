//! Strong vector loads and stores: `ld{.sem}{.scope}{.space}.v2/.v4.type` and
//! `st{.sem}{.scope}{.space}.v2/.v4.type` on a [`Vector`] of `N` scalars.
//!
//! | Rust | PTX | bytes (alignment) |
//! |---|---|---|
//! | [`V2U32`], [`V2F32`] | `.v2.u32`, `.v2.f32` | 8 |
//! | [`V4U32`], [`V4F32`] | `.v4.u32`, `.v4.f32` | 16 |
//! | [`V2U64`], [`V2F64`] | `.v2.u64`, `.v2.f64` | 16 |
//! | [`V2I32`] / [`V4I32`], [`V2I64`] | `.v2.s32` / `.v4.s32`, `.v2.s64` | 8 / 16, 16 |
//! | [`V2U16`], [`V2I16`] / [`V4U16`], [`V4I16`] | `.v2.u16`, `.v2.s16` / `.v4.u16`, `.v4.s16` | 4 / 8 |
//! | [`V2F16`], [`V2Bf16`] / [`V4F16`], [`V4Bf16`] | `.v2.b16` / `.v4.b16` (the ISA's `ld`/`st` `.type` has no `.f16`) | 4 / 8 |
//! | [`V2F16x2`], [`V2Bf16x2`] / [`V4F16x2`], [`V4Bf16x2`] | `.v2.b32` / `.v4.b32` | 8 / 16 |
//!
//! PTX ISA §9.7.9.8 (`ld`) / §9.7.9.10 (`st`): `{.vec}` sits between the state space and the
//! type in every form — weak, `.volatile`, `.relaxed.scope`, and `.acquire.scope` (`ld`) /
//! `.release.scope` (`st`) — with `.vec = { .v2, .v4 }` (`.v8` and the 256-bit `.v4` of a 64-bit
//! type are PTX 8.8 / sm_100 and are not offered: this crate emits PTX 8.6). The operand is a
//! brace-enclosed list of registers, `{a, b}`; the address must be aligned to the whole vector
//! (`N · size_of::<T>()`): [`Strong<Vector<T, N>>`](crate::Strong) has that alignment on every
//! target, so a reference to one is always a legal operand. Floors as the scalar forms: sm_70 /
//! PTX 6.0 with a `.sem` (`.cluster`: sm_90 / 7.8).
//!
//! **A vector access is not one atomic access.** The memory model (§8, "vector data-types")
//! models a vector load or store as one memory operation per element, performed in an
//! unspecified order: each element is a strong access with the instruction's semantic and scope,
//! but another thread may see some elements of a store and not others. An acquire vector load
//! is an acquire on each element; a release vector store releases before each element. Publish
//! a vector with a release store of a separate flag (or an `atom.exch.b128`, [`super::b128`])
//! when the reader needs all of it at once. Seed §3.5 (strong accesses), §4.1 (atomicity).
//!
//! # Vector atomics (sm_90)
//!
//! [`V2F32`] and [`V4F32`] also have `atom{.sem}{.scope}{.global}.add.v2/.v4.f32`
//! ([`fetch_add`](crate::AtomicRef::fetch_add)) and `red{.sem}{.scope}{.global}.add.v2/.v4.f32`
//! ([`red_add`](crate::AtomicRef::red_add)) (PTX ISA §9.7.13.5/6, PTX 8.1, sm_90): on `.global`
//! or a generic address in global memory only — an `AtomicRef` in `Shared`/`SharedCluster` does
//! not compile. Each element is a separate atomic add ("the atomicity is guaranteed separately
//! for each of the individual scalar elements"), rounding to nearest even; like the scalar
//! `atom.add.f32` on global memory, the host flushes subnormal inputs and results to zero.
//!
//! The half vectors have `atom{.sem}{.scope}{.global}.op.noftz.vec.type` and `red` likewise,
//! `.op = { .add, .min, .max }` ([`fetch_add`](crate::AtomicRef::fetch_add),
//! [`fetch_min`](crate::AtomicRef::fetch_min), [`fetch_max`](crate::AtomicRef::fetch_max),
//! [`red_add`](crate::AtomicRef::red_add), [`red_min`](crate::AtomicRef::red_min),
//! [`red_max`](crate::AtomicRef::red_max)); PTX ISA §9.7.13.5/6, PTX 8.1, sm_90, `.global` or
//! generic only, as for `.f32`:
//!
//! | Rust | `.vec.type` | bytes (alignment) |
//! |---|---|---|
//! | [`V2F16`], [`V2Bf16`] | `.v2.f16`, `.v2.bf16` | 4 |
//! | [`V4F16`], [`V4Bf16`], [`V2F16x2`], [`V2Bf16x2`] | `.v4.f16`, `.v4.bf16`, `.v2.f16x2`, `.v2.bf16x2` | 8 |
//! | [`V8F16`], [`V8Bf16`], [`V4F16x2`], [`V4Bf16x2`] | `.v8.f16`, `.v8.bf16`, `.v4.f16x2`, `.v4.bf16x2` | 16 |
//!
//! (`.vec_16_bit = { .v2, .v4, .v8 }` for a `.half_word_type`, `.vec_32_bit = { .v2, .v4 }`
//! for a `.packed_type`: eight pairs do not compile.) The ISA requires `.noftz` on these types:
//! subnormal inputs and results are kept. Each element (each half, also within a pair) is its
//! own atomic; `add` rounds to nearest even once per element; the `atom` text does not define
//! `min`/`max` on halves beyond naming them, and the host computes them as the half `min`/`max`
//! instructions do (§9.7.4.7/8 without `.NaN`: a NaN operand yields the other, two NaNs the
//! canonical NaN, `-0.0 < +0.0` — [`F16::min`](crate::F16::min)). The `.v2`/`.v4` half
//! vectors also load and store (`.b16`/`.b32` elements, table above); [`V8F16`] and [`V8Bf16`]
//! have no `ld`/`st` rows (the `ld`/`st` `.vec` stops at `.v4`; its `.v8` is PTX 8.8 and
//! 32-bit elements only).
//!
//! ```
//! use ptx_sync::{Strong, Gpu, Relaxed, F16, atomic::vector::{Vector, V4F16}};
//! let acc: Strong<V4F16> = Strong::new(Vector([F16::from_f32(1.0); 4]));
//! let h = |x| F16::from_f32(x);
//! let old = acc.at::<Gpu>().fetch_max::<Relaxed>(Vector([h(0.5), h(2.0), h(f32::NAN), h(1.0)]));
//! assert_eq!(old, Vector([h(1.0); 4]));                        // atom.relaxed.gpu.max.noftz.v4.f16
//! acc.at::<Gpu>().red_add::<Relaxed>(Vector([h(0.25); 4])); // red.relaxed.gpu.add.noftz.v4.f16
//! let now = acc.at::<Gpu>().fetch_min::<Relaxed>(Vector([h(f32::INFINITY); 4]));
//! assert_eq!(now.0.map(F16::to_f32), [1.25, 2.25, 1.25, 1.25]);
//! ```
//!
//! Host backend: one `core::sync::atomic` access per element with the semantic's ordering, in
//! ascending order (one of the orders the model allows). Under `--cfg loom` the scope model
//! treats the vector as one location (it explores fewer interleavings than the device has: a
//! torn vector is not among them).
//!
//! ```
//! use ptx_sync::{Strong, Gpu, Acquire, Release, Relaxed, atomic::vector::{Vector, V4U32, V2F64}};
//! let v: Strong<V4U32> = Strong::new(Vector([0; 4]));
//! v.at::<Gpu>().store::<Release>(Vector([1, 2, 3, 4]));      // st.release.gpu.v4.u32
//! assert_eq!(v.at::<Gpu>().load::<Acquire>(), Vector([1, 2, 3, 4])); // ld.acquire.gpu.v4.u32
//! let d: Strong<V2F64> = Strong::new(Vector([0.5, 1.5]));
//! assert_eq!(d.at::<Gpu>().load::<Relaxed>().0, [0.5, 1.5]);     // ld.relaxed.gpu.v2.f64
//! ```

use super::Scalar;
use crate::sem::Sealed;
#[allow(unused_imports)] // the host impls of the vectors
use core::sync::atomic::Ordering;

/// `N` scalars loaded or stored by one vector instruction (`.v2`/`.v4`); element 0 at the
/// lowest address. Each element is a separate memory operation (see the
/// [module docs](crate::atomic::vector)). The instances are the aliases [`V2U32`], [`V4U32`],
/// [`V2U64`], [`V2F32`], [`V4F32`], [`V2F64`].
///
/// ```
/// let v = ptx_sync::atomic::vector::Vector([1u32, 2]);
/// assert_eq!(v.0[1], 2);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vector<T, const N: usize>(pub [T; N]);

impl<T: Default + Copy, const N: usize> Default for Vector<T, N> {
    fn default() -> Self {
        Vector([T::default(); N])
    }
}

/// The element type of a vector (the `asm!` operand of each register of the list).
#[doc(hidden)]
pub trait VectorElem {
    type E: Copy;
}
impl<T: Copy, const N: usize> VectorElem for Vector<T, N> {
    type E = T;
}

/// `.v2.u32`: two `u32`, 8-aligned.
pub type V2U32 = Vector<u32, 2>;
/// `.v4.u32`: four `u32`, 16-aligned.
pub type V4U32 = Vector<u32, 4>;
/// `.v2.u64`: two `u64`, 16-aligned.
pub type V2U64 = Vector<u64, 2>;
/// `.v2.f32`: two `f32`, 8-aligned.
pub type V2F32 = Vector<f32, 2>;
/// `.v4.f32`: four `f32`, 16-aligned.
pub type V4F32 = Vector<f32, 4>;
/// `.v2.f64`: two `f64`, 16-aligned.
pub type V2F64 = Vector<f64, 2>;
/// `.v2.s32`: two `i32`, 8-aligned.
pub type V2I32 = Vector<i32, 2>;
/// `.v4.s32`: four `i32`, 16-aligned.
pub type V4I32 = Vector<i32, 4>;
/// `.v2.s64`: two `i64`, 16-aligned.
pub type V2I64 = Vector<i64, 2>;
/// `.v2.u16`: two `u16`, 4-aligned.
pub type V2U16 = Vector<u16, 2>;
/// `.v4.u16`: four `u16`, 8-aligned.
pub type V4U16 = Vector<u16, 4>;
/// `.v2.s16`: two `i16`, 4-aligned.
pub type V2I16 = Vector<i16, 2>;
/// `.v4.s16`: four `i16`, 8-aligned.
pub type V4I16 = Vector<i16, 4>;

use super::{Bf16, Bf16x2, F16x2, F16};
/// `.v2.f16`: two [`F16`], 4-aligned — `atom/red{.sem}{.scope}{.global}.{add,min,max}.noftz.v2.f16`
/// (sm_90, PTX 8.1).
pub type V2F16 = Vector<F16, 2>;
/// `.v4.f16`: four [`F16`], 8-aligned (the vector atomics, as [`V2F16`]).
pub type V4F16 = Vector<F16, 4>;
/// `.v8.f16`: eight [`F16`], 16-aligned (the vector atomics, as [`V2F16`]; `.v8` is for a lone
/// half only).
pub type V8F16 = Vector<F16, 8>;
/// `.v2.bf16`: two [`Bf16`], 4-aligned (the vector atomics, as [`V2F16`]).
pub type V2Bf16 = Vector<Bf16, 2>;
/// `.v4.bf16`: four [`Bf16`], 8-aligned (the vector atomics, as [`V2F16`]).
pub type V4Bf16 = Vector<Bf16, 4>;
/// `.v8.bf16`: eight [`Bf16`], 16-aligned (the vector atomics, as [`V2F16`]).
pub type V8Bf16 = Vector<Bf16, 8>;
/// `.v2.f16x2`: two [`F16x2`] pairs, 8-aligned (the vector atomics, as [`V2F16`]).
pub type V2F16x2 = Vector<F16x2, 2>;
/// `.v4.f16x2`: four [`F16x2`] pairs, 16-aligned (the vector atomics, as [`V2F16`]; a pair
/// stops at `.v4`).
pub type V4F16x2 = Vector<F16x2, 4>;
/// `.v2.bf16x2`: two [`Bf16x2`] pairs, 8-aligned (the vector atomics, as [`V2F16`]).
pub type V2Bf16x2 = Vector<Bf16x2, 2>;
/// `.v4.bf16x2`: four [`Bf16x2`] pairs, 16-aligned (the vector atomics, as [`V2F16`]).
pub type V4Bf16x2 = Vector<Bf16x2, 4>;

macro_rules! vectors {
    ($($T:ty, $e:ty, $n:literal, $al:ty, $name:literal);*) => {$(
        impl Sealed for $T {}
        impl Scalar for $T {
            const NAME: &'static str = $name;
            type Align = $al;
            type Raw = $T;
            fn bits_eq(self, other: Self) -> bool {
                self.0.iter().zip(other.0.iter()).all(|(a, b)| a.bits_eq(*b))
            }
            #[inline(always)]
            fn to_raw(self) -> $T {
                self
            }
            #[inline(always)]
            fn from_raw(r: $T) -> Self {
                r
            }
        }
        #[cfg(not(target_arch = "nvptx64"))]
        impl crate::backend::host::HostScalar for $T {
            type Atomic = [<$e as crate::backend::host::HostScalar>::Atomic; $n];
            type Repr = $T;
            fn to_repr(self) -> $T {
                self
            }
            fn from_repr(r: $T) -> Self {
                r
            }
            fn atomic_new(v: Self) -> Self::Atomic {
                v.0.map(<$e as crate::backend::host::HostScalar>::atomic_new)
            }
            fn h_load(a: &Self::Atomic, o: Ordering) -> Self {
                Vector(core::array::from_fn(|i| <$e as crate::backend::host::HostScalar>::h_load(&a[i], o)))
            }
            fn h_store(a: &Self::Atomic, v: Self, o: Ordering) {
                for (a, v) in a.iter().zip(v.0) {
                    <$e as crate::backend::host::HostScalar>::h_store(a, v, o)
                }
            }
            fn h_rmw(a: &Self::Atomic, k: crate::backend::host::RmwKind, b: Self, o: Ordering) -> Self {
                // One atomic per element (the table has `atom/red.add` on the f32 vectors and
                // `add`/`min`/`max` on the half vectors), each rounding once.
                Vector(core::array::from_fn(|i| {
                    <$e as crate::backend::host::HostScalar>::h_rmw(&a[i], k, b.0[i], o)
                }))
            }
            fn h_apply(k: crate::backend::host::RmwKind, old: Self, b: Self) -> Self {
                Vector(core::array::from_fn(|i| {
                    <$e as crate::backend::host::HostScalar>::h_apply(k, old.0[i], b.0[i])
                }))
            }
            #[cfg(not(loom))]
            unsafe fn atomic_from_ptr<'a>(p: *mut Self) -> &'a Self::Atomic {
                // SAFETY: the caller keeps this function's contract (its `# Safety`).
                unsafe {
                    // `Vector` is `repr(C)` over `[e; N]`, and each atomic has its scalar's layout.
                    &*(p as *const Self::Atomic)
                }
            }
        }
    )*};
}
vectors!(V2U32, u32, 2, super::Align8, "V2U32"; V4U32, u32, 4, super::b128::Align16, "V4U32";
         V2U64, u64, 2, super::b128::Align16, "V2U64"; V2F32, f32, 2, super::Align8, "V2F32";
         V4F32, f32, 4, super::b128::Align16, "V4F32"; V2F64, f64, 2, super::b128::Align16, "V2F64";
         V2I32, i32, 2, super::Align8, "V2I32"; V4I32, i32, 4, super::b128::Align16, "V4I32";
         V2I64, i64, 2, super::b128::Align16, "V2I64"; V2U16, u16, 2, super::Align4, "V2U16";
         V4U16, u16, 4, super::Align8, "V4U16"; V2I16, i16, 2, super::Align4, "V2I16";
         V4I16, i16, 4, super::Align8, "V4I16";
         V2F16, F16, 2, super::Align4, "V2F16"; V4F16, F16, 4, super::Align8, "V4F16";
         V8F16, F16, 8, super::b128::Align16, "V8F16"; V2Bf16, Bf16, 2, super::Align4, "V2Bf16";
         V4Bf16, Bf16, 4, super::Align8, "V4Bf16"; V8Bf16, Bf16, 8, super::b128::Align16, "V8Bf16";
         V2F16x2, F16x2, 2, super::Align8, "V2F16x2"; V4F16x2, F16x2, 4, super::b128::Align16, "V4F16x2";
         V2Bf16x2, Bf16x2, 2, super::Align8, "V2Bf16x2"; V4Bf16x2, Bf16x2, 4, super::b128::Align16, "V4Bf16x2");
