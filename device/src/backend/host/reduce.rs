//! The host arms of the bulk and tensor reductions (`cp.reduce.async.bulk{.tensor}`, the rows
//! of `device/isa/copy_reduce.rows` and `copy_tensor_reduce.rows`): one relaxed atomic
//! read-modify-write per element (a compare-exchange loop on the element's bits), issued on
//! the copy engine (`backend/copy_engine.rs`) with the copy's completion — at issue on the
//! host, on an engine thread under loom.
//!
//! The arithmetic of an element is PTX's: `.inc`/`.dec` as `atom.inc`/`atom.dec`
//! (`old >= b ? 0 : old + 1`, `old == 0 || old > b ? b : old - 1`), the integer operators
//! wrapping, `.f32`/`.f64` added without flushing, `.f16`/`.bf16` added exactly and rounded to
//! nearest even with subnormals kept (`.noftz`), `min`/`max` of a NaN and a number the number.

use crate::atomic::op::Op;
use crate::atomic::{Bf16, F16};
use crate::backend::copy_engine::{Batch, Done};
use crate::backend::host::{HostScalar, RmwKind};
use crate::copy::{TensorElem, TensorMap};
use crate::shared::SharedAddr;

/// An element type of the reductions and its PTX arithmetic (the rows' legal sets say which
/// operator each type takes; any other is unreachable).
pub(crate) trait ReduceElem: Copy + 'static {
    /// The value a reduction of kind `k` with source element `b` writes over `old`.
    fn reduce(k: RmwKind, old: Self, b: Self) -> Self;
}

/// The integers: the arithmetic of `atom`/`red` (`HostScalar::h_apply`: wrapping `add`,
/// `min`/`max`, the bitwise operators, `atom.inc`/`atom.dec`).
macro_rules! int_elem {
    ($($t:ty),*) => {$(
        impl ReduceElem for $t {
            fn reduce(k: RmwKind, old: Self, b: Self) -> Self {
                <$t as HostScalar>::h_apply(k, old, b)
            }
        }
    )*};
}
int_elem!(u32, i32, u64, i64);

/// `.add.f32` / `.add.f64`: not flushed (unlike `atom.add.f32`).
macro_rules! float_elem {
    ($($t:ty),*) => {$(
        impl ReduceElem for $t {
            fn reduce(k: RmwKind, old: Self, b: Self) -> Self {
                match k {
                    RmwKind::Add => old + b,
                    _ => unreachable!("PTX has no cp.reduce {k:?} on {}", stringify!($t)),
                }
            }
        }
    )*};
}
float_elem!(f32, f64);

/// `.add.noftz.f16`, `.min.f16`, `.max.f16` (and `.bf16`): in the format's exact arithmetic.
macro_rules! half_elem {
    ($($t:ident $fmt:ident),*) => {$(
        impl ReduceElem for $t {
            fn reduce(k: RmwKind, old: Self, b: Self) -> Self {
                let (x, y) = (old.to_bits(), b.to_bits());
                $t::from_bits(match k {
                    RmwKind::Add => half::$fmt.add(x, y),
                    RmwKind::Min => half::$fmt.min_max(x, y, false),
                    RmwKind::Max => half::$fmt.min_max(x, y, true),
                    _ => unreachable!("PTX has no cp.reduce {k:?} on {}", stringify!($t)),
                })
            }
        }
    )*};
}
half_elem!(F16 F16_FMT, Bf16 BF16_FMT);

/// `*p = f(*p)` as one relaxed atomic read-modify-write (a compare-exchange loop on the
/// element's bits).
///
/// # Safety
/// `p` aligned and valid for reads and writes; every concurrent access to `*p` atomic.
unsafe fn rmw<T: Copy>(p: *mut T, f: impl Fn(T) -> T) {
    use core::mem::{size_of, transmute_copy};
    use core::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};
    macro_rules! cas {
        ($A:ident, $u:ty) => {{
            // SAFETY: the caller's contract; `T` is `$u` wide.
            let _ =
                unsafe { $A::from_ptr(p as *mut $u) }.fetch_update(Relaxed, Relaxed, |x: $u| {
                    // SAFETY: `T` and `$u` have one size; every bit pattern is a `T` of this table.
                    Some(unsafe { transmute_copy::<T, $u>(&f(transmute_copy::<$u, T>(&x))) })
                });
        }};
    }
    match size_of::<T>() {
        2 => cas!(AtomicU16, u16),
        4 => cas!(AtomicU32, u32),
        8 => cas!(AtomicU64, u64),
        n => unreachable!("no {n}-byte reduction element"),
    }
}

/// One element of a bulk reduction, for the copy engine: `*d = *d op *s`.
unsafe fn bulk_elem<O: Op, T: ReduceElem>(d: usize, s: usize, _: u8) {
    // SAFETY: the engine passes the element addresses the issuing copy's contract covers.
    unsafe {
        let b = (s as *const T).read();
        rmw(d as *mut T, |old| T::reduce(O::KIND, old, b));
    }
}

/// `cp.reduce.async.bulk…redOp.type [dst], [src], bytes`: the element-wise reduction of
/// `bytes` from `src` into `dst`, completing by `done` (the bulk group, or the complete-tx
/// on the peer's barrier).
///
/// # Safety
/// The instruction's contract: `dst` aligned for `T` and valid for `bytes`, `src` valid for
/// `bytes`; every concurrent access to the destination elements atomic.
pub(crate) unsafe fn bulk<O: Op, T: ReduceElem>(
    dst: *mut T,
    src: *const T,
    bytes: u32,
    done: Done,
) {
    let mut b = Batch::new();
    let n = core::mem::size_of::<T>();
    for i in 0..bytes as usize / n {
        // SAFETY: the caller's contract (the elements of `dst` and `src`).
        unsafe {
            b.reduce(
                dst.add(i) as usize,
                src.add(i) as usize,
                n,
                bulk_elem::<O, T>,
                0,
            )
        };
    }
    // SAFETY: the batch's addresses are the caller's.
    unsafe { b.issue(done) };
}

/// Whether a tensor reduction of kind `k` takes elements of type `e`: the `cp.reduce.async.bulk`
/// table (PTX ISA §9.7.9.25.4), which the tensor form shares (§9.7.9.25.5).
fn tensor_takes(k: RmwKind, e: TensorElem) -> bool {
    use TensorElem::*;
    match k {
        RmwKind::Add => matches!(e, U32 | S32 | U64 | S64 | F32 | F64 | F16 | Bf16),
        RmwKind::Min | RmwKind::Max => matches!(e, U32 | S32 | U64 | S64 | F16 | Bf16),
        RmwKind::Inc | RmwKind::Dec => e == U32,
        RmwKind::And | RmwKind::Or | RmwKind::Xor => matches!(e, U32 | S32 | U64 | S64),
        RmwKind::Exch => false,
    }
}

/// One element of a tensor reduction (`tag` the element type's code), for the copy engine;
/// the bitwise operators read a signed element as its unsigned bits.
unsafe fn tensor_elem<O: Op>(d: usize, s: usize, tag: u8) {
    unsafe fn go<O: Op, T: ReduceElem>(d: usize, s: usize) {
        // SAFETY: the engine passes the element addresses the issuing copy's contract covers.
        unsafe {
            let b = (s as *const T).read_unaligned();
            rmw(d as *mut T, |old| T::reduce(O::KIND, old, b));
        }
    }
    let bitwise = matches!(O::KIND, RmwKind::And | RmwKind::Or | RmwKind::Xor);
    // SAFETY: as `go`'s; the element type is the map's (checked at issue).
    unsafe {
        match TensorElem::from_code(tag as u32) {
            Some(TensorElem::U32) => go::<O, u32>(d, s),
            Some(TensorElem::S32) if bitwise => go::<O, u32>(d, s),
            Some(TensorElem::S32) => go::<O, i32>(d, s),
            Some(TensorElem::U64) => go::<O, u64>(d, s),
            Some(TensorElem::S64) if bitwise => go::<O, u64>(d, s),
            Some(TensorElem::S64) => go::<O, i64>(d, s),
            Some(TensorElem::F32) => go::<O, f32>(d, s),
            Some(TensorElem::F64) => go::<O, f64>(d, s),
            Some(TensorElem::F16) => go::<O, F16>(d, s),
            Some(TensorElem::Bf16) => go::<O, Bf16>(d, s),
            _ => {}
        }
    }
}

/// `cp.reduce.async.bulk.tensor.Dd.global.shared::cta.redOp.mode.bulk_group [map, coords],
/// [src]` (`what` the mnemonic, `tile` the `.tile` mode, else `.im2col_no_offs`): on a typed
/// host map, one relaxed atomic RMW per in-bounds element of the box (out-of-bounds elements
/// skipped), through the bulk group. Panics (each undefined on the device) on a driver-encoded
/// or untyped map, a map of the other mode, or an element type the operator does not take.
///
/// # Safety
/// The instruction's contract: a valid map, `src` holding the box; every concurrent access to
/// the destination elements atomic.
pub(crate) unsafe fn tensor<O: Op>(
    map: &TensorMap,
    coords: &[i32],
    src: SharedAddr,
    what: &str,
    tile: bool,
) {
    assert!(
        map.is_host_map(),
        "`{what}` on the host backend needs a map made by TensorMap::host_tiled_of / \
         host_tiled_typed / host_im2col (a driver-encoded CUtensorMap has no host meaning)"
    );
    let Some(e) = map.host_elem_type() else {
        panic!(
            "`{what}` on the host backend needs a typed map (TensorMap::host_tiled_of / \
             host_tiled_typed / host_im2col): TensorMap::host_tiled carries no element type"
        )
    };
    assert!(
        tensor_takes(O::KIND, e),
        "`{what}`: PTX has no `{}` reduction of {e:?} elements",
        O::PTX
    );
    let eb = e.bytes() as usize;
    let mut b = Batch::new();
    let visit = |off: usize, g: Option<usize>| {
        if let Some(a) = g {
            assert!(
                a.is_multiple_of(eb),
                "`{what}`: a global element is not aligned to its size"
            );
            // SAFETY: an in-bounds element of the map and of the box in `src` (the caller's).
            unsafe { b.reduce(a, src.0 + off, eb, tensor_elem::<O>, e as u8) };
        }
    };
    if tile {
        map.host_box(coords, visit);
    } else {
        map.host_im2col_box(coords, &[0; 3][..coords.len() - 2], visit);
    }
    // SAFETY: the batch's addresses are the caller's.
    unsafe { b.issue(Done::BulkGroup) };
}

/// Host arithmetic of the 16-bit floats: exact in `f64` (a sum of two binary16 or bfloat16 values
/// is exact there, or its rounding cannot reach a half-way point of the 16-bit format), then
/// one rounding to nearest even.
mod half {
    /// A 16-bit float format: mantissa bits and exponent bias.
    pub(super) struct Fmt {
        m: u32,
        bias: i32,
    }
    pub(super) const F16_FMT: Fmt = Fmt { m: 10, bias: 15 };
    pub(super) const BF16_FMT: Fmt = Fmt { m: 7, bias: 127 };

    fn pow2(e: i32) -> f64 {
        f64::from_bits(((e + 1023) as u64) << 52)
    }
    /// `y` ≥ 0, < 2^53, rounded to the nearest integer, ties to even.
    fn round_ne(y: f64) -> u64 {
        let t = y as u64;
        let fr = y - t as f64;
        if fr > 0.5 || (fr == 0.5 && t & 1 == 1) {
            t + 1
        } else {
            t
        }
    }
    impl Fmt {
        fn emax(&self) -> u32 {
            (2 * self.bias + 1) as u32
        }
        fn is_nan(&self, x: u16) -> bool {
            let e = (x as u32 >> self.m) & self.emax();
            e == self.emax() && x as u32 & ((1 << self.m) - 1) != 0
        }
        fn to_f64(&self, x: u16) -> f64 {
            let s = if x & 0x8000 != 0 { -1.0 } else { 1.0 };
            let e = ((x as u32 >> self.m) & self.emax()) as i32;
            let f = (x as u32 & ((1 << self.m) - 1)) as f64;
            s * match e {
                0 => f * pow2(1 - self.bias - self.m as i32),
                _ if e as u32 == self.emax() => {
                    if f == 0.0 {
                        f64::INFINITY
                    } else {
                        f64::NAN
                    }
                }
                _ => (f + pow2(self.m as i32)) * pow2(e - self.bias - self.m as i32),
            }
        }
        fn round_f64(&self, x: f64) -> u16 {
            if x.is_nan() {
                return 0x7fff; // PTX's canonical NaN
            }
            let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
            let a = x.abs();
            let m = self.m as i32;
            let emin = 1 - self.bias;
            let bits = if a >= pow2(self.bias + 1) {
                self.emax() << m // infinity (a sum of two finite values is below 2^(bias + 2))
            } else if a < pow2(emin) {
                round_ne(a * pow2(m - emin)) as u32 // subnormal (or the smallest normal)
            } else {
                let mut e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
                let mut q = round_ne(a * pow2(m - e)) as u32;
                if q == 1 << (m + 1) {
                    q >>= 1;
                    e += 1;
                }
                if e > self.bias {
                    self.emax() << m // infinity
                } else {
                    (((e + self.bias) as u32) << m) | (q - (1 << m))
                }
            };
            sign | bits as u16
        }
        /// `a + b`, rounded once.
        pub(super) fn add(&self, a: u16, b: u16) -> u16 {
            self.round_f64(self.to_f64(a) + self.to_f64(b))
        }
        /// `min`/`max` (`max` true): a NaN operand yields the other; `-0 < +0`.
        pub(super) fn min_max(&self, a: u16, b: u16, max: bool) -> u16 {
            match (self.is_nan(a), self.is_nan(b)) {
                (true, true) => 0x7fff,
                (true, false) => b,
                (false, true) => a,
                _ => {
                    let (x, y) = (self.to_f64(a), self.to_f64(b));
                    let a_less = x < y || (x == y && a & 0x8000 != 0);
                    if a_less != max {
                        a
                    } else {
                        b
                    }
                }
            }
        }
    }
}
