//! The host backend computes what PTX computes: each operation's result on the CPU follows the
//! PTX ISA's definition (§9.7.13.5), and the seed's protocols run on real threads through the same
//! API. (Ordering on the CPU is `core::sync::atomic`'s; loom checks it in `loom-tests`.)

use ptx_sync::*;
use std::sync::Arc;

#[test]
fn rmw_results_follow_the_ptx_definitions() {
    let c = Strong::new(5u32);
    let r = c.at::<Gpu>();
    assert_eq!(r.fetch_add::<Relaxed>(3), 5);
    assert_eq!(r.fetch_sub::<AcqRel>(2), 8); // add of -2
    assert_eq!(r.load::<Acquire>(), 6);
    assert_eq!(r.fetch_min::<Relaxed>(4), 6);
    assert_eq!(r.fetch_max::<Relaxed>(9), 4);
    assert_eq!(r.fetch_and::<Relaxed>(0b1100), 9);
    assert_eq!(r.fetch_or::<Relaxed>(0b0011), 0b1000);
    assert_eq!(r.fetch_xor::<Relaxed>(0b1111), 0b1011);
    assert_eq!(r.swap::<Release>(7), 0b0100);
    assert_eq!(r.compare_exchange::<AcqRel>(1, 2), Err(7));
    assert_eq!(r.compare_exchange::<AcqRel>(7, 2), Ok(7));
    // atom.inc: old >= b ? 0 : old + 1
    r.store::<Relaxed>(3);
    assert_eq!(r.fetch_inc::<Relaxed>(3), 3);
    assert_eq!(r.load::<Relaxed>(), 0);
    assert_eq!(r.fetch_inc::<Relaxed>(3), 0);
    assert_eq!(r.load::<Relaxed>(), 1);
    // atom.dec: (old == 0 || old > b) ? b : old - 1
    r.store::<Relaxed>(0);
    assert_eq!(r.fetch_dec::<Relaxed>(9), 0);
    assert_eq!(r.load::<Relaxed>(), 9);
    r.store::<Relaxed>(20);
    r.red_dec::<Relaxed>(9);
    assert_eq!(r.load::<Relaxed>(), 9);
    r.red_dec::<Release>(9);
    assert_eq!(r.load::<Relaxed>(), 8);
}

#[test]
fn signed_and_float_operations() {
    let i = Strong::new(-5i64);
    let r = i.at::<Sys>();
    assert_eq!(r.fetch_add::<Relaxed>(-1), -5);
    assert_eq!(r.fetch_min::<Relaxed>(-10), -6);
    assert_eq!(r.load::<Volatile>(), -10);
    r.red_sub::<Release>(5);
    assert_eq!(r.load::<Weak>(), -15);
    let f = Strong::new(1.5f32);
    let r = f.at::<Cta>();
    assert_eq!(r.fetch_add::<AcqRel>(2.0), 1.5);
    assert_eq!(r.fetch_sub::<Relaxed>(0.5), 3.5);
    assert_eq!(r.swap::<Relaxed>(-0.0), 3.0);
    // cas compares bits: -0.0 is not 0.0.
    assert_eq!(r.compare_exchange::<Relaxed>(0.0, 1.0), Err(-0.0));
    assert_eq!(r.compare_exchange::<Relaxed>(-0.0, 1.0), Ok(-0.0));
    let d = Strong::new(0.25f64);
    d.at::<Gpu>().red_add::<Relaxed>(0.5);
    assert_eq!(d.at::<Gpu>().load::<Acquire>(), 0.75);
}

/// Seed §4.1: with `atom.add` no increment is lost, whatever the interleaving.
#[test]
fn counter_with_atom_add_loses_nothing() {
    let c = Arc::new(Strong::new(0u32));
    let hs: Vec<_> = (0..4)
        .map(|_| {
            let c = c.clone();
            std::thread::spawn(move || {
                for _ in 0..10_000 {
                    c.at::<Gpu>().red_add::<Relaxed>(1);
                }
            })
        })
        .collect();
    hs.into_iter().for_each(|h| h.join().unwrap());
    assert_eq!(c.at::<Gpu>().load::<Relaxed>(), 40_000);
}

/// Seed §4.4 on CPU threads: two consumers `red.release.add`, P waits with `ld.acquire` for 2,
/// then overwrites data. Both consumers read 42.
#[test]
fn barrier_handoff_on_threads() {
    for _ in 0..200 {
        let data = Arc::new(Data::new(0u32));
        let full = Arc::new(Strong::new(0u32));
        let count = Arc::new(Strong::new(0u32));
        let consumers: Vec<_> = (0..2)
            .map(|_| {
                let (data, full, count) = (data.clone(), full.clone(), count.clone());
                std::thread::spawn(move || {
                    while full.at::<Gpu>().load::<Acquire>() != 1 {
                        std::hint::spin_loop();
                    }
                    let v = unsafe { data.read() };
                    count.at::<Gpu>().red_add::<Release>(1);
                    v
                })
            })
            .collect();
        unsafe { data.write(42) };
        full.at::<Gpu>().store::<Release>(1);
        while count.at::<Gpu>().load::<Acquire>() != 2 {
            std::hint::spin_loop();
        }
        unsafe { data.write(43) };
        for c in consumers {
            assert_eq!(c.join().unwrap(), 42);
        }
    }
}

/// `atom.add.f32` flushes subnormal inputs and results to sign-preserving zero (PTX ISA
/// §9.7.13.5); `atom.add.f64` does not. Expected values from IEEE bit patterns, computed here.
#[test]
fn f32_add_flushes_subnormals_like_the_device() {
    let tiny = f32::from_bits(1); // smallest positive subnormal
    let min_normal = f32::MIN_POSITIVE;
    // subnormal operand: flushed, 1.0 + 0 = 1.0, and the old value is returned unchanged
    let a = Strong::new(1.0f32);
    assert_eq!(a.at::<Gpu>().fetch_add::<Relaxed>(tiny), 1.0);
    assert_eq!(a.at::<Gpu>().load::<Relaxed>().to_bits(), 1.0f32.to_bits());
    // subnormal stored value: flushed as an input, 0 + 0 = +0
    let b = Strong::new(tiny);
    b.at::<Gpu>().red_add::<Relaxed>(0.0);
    assert_eq!(b.at::<Gpu>().load::<Relaxed>().to_bits(), 0);
    // sign preserved: -tiny + -0 flushes to -0
    let c = Strong::new(-tiny);
    c.at::<Gpu>().red_add::<Relaxed>(-0.0);
    assert_eq!(c.at::<Gpu>().load::<Relaxed>().to_bits(), 0x8000_0000);
    // subnormal result of normal inputs: 1.5 * MIN_POSITIVE - MIN_POSITIVE = MIN_POSITIVE / 2
    let d = Strong::new(f32::from_bits(min_normal.to_bits() + 0x0040_0000));
    d.at::<Gpu>().red_add::<Relaxed>(-min_normal);
    assert_eq!(
        d.at::<Gpu>().load::<Relaxed>().to_bits(),
        0,
        "subnormal result flushed"
    );
    // f64 keeps subnormals
    let e = Strong::new(0.0f64);
    e.at::<Gpu>().red_add::<Relaxed>(f64::from_bits(1));
    assert_eq!(e.at::<Gpu>().load::<Relaxed>().to_bits(), 1);
}

/// `Strong<u64>` (and the other 8-byte scalars) is 8-aligned on every target, also where `u64`
/// is 4-aligned (32-bit x86): the checks are compile-time, and repeated here at run time.
const _: () = assert!(std::mem::align_of::<Strong<u64>>() == 8);
const _: () = assert!(std::mem::align_of::<Strong<i64>>() == 8);
const _: () = assert!(std::mem::align_of::<Strong<f64>>() == 8);
// Under `--cfg loom` a `Strong` is a model location (its store log), not the bare scalar.
#[cfg(not(loom))]
const _: () = assert!(std::mem::size_of::<Strong<u64>>() == 8);
#[test]
fn strong_is_aligned_to_its_size() {
    #[repr(C)]
    struct Packed(u32, Strong<u64>);
    assert_eq!(std::mem::align_of::<Strong<u64>>(), 8);
    assert_eq!(std::mem::align_of::<Strong<u32>>(), 4);
    assert_eq!(
        std::mem::offset_of!(Packed, 1),
        8,
        "the u64 location after a u32 is padded to 8"
    );
}

/// Every budget bounds its spin: a zero limit is taken as 1 (an all-zero budget would never
/// time out on the device), and a budget cannot be written with fields.
#[test]
fn zero_budgets_are_raised_to_one() {
    use ptx_sync::wait::{spin_until, Budget, Timeout};
    assert_eq!(Budget::nanos(0).nanos_limit(), 1);
    assert_eq!(Budget::cycles(0).cycles_limit(), 1);
    assert_eq!(Budget::iterations(0).iteration_limit(), 1);
    assert_eq!(Budget::nanos(5).or_iterations(0).iteration_limit(), 1);
    assert_eq!(Budget::nanos(5).nanos_limit(), 5);
    for b in [Budget::nanos(0), Budget::cycles(0), Budget::iterations(0)] {
        assert!(b.is_bounded(), "{b:?}");
    }
    assert_eq!(
        spin_until(Budget::iterations(0), || false),
        Err(Timeout { checks: 1 })
    );
}

/// `F16`/`Bf16` conversions, checked exhaustively against the definition of round-to-nearest-even
/// (not against the code's own arithmetic): every finite half converts to `f32` and back to itself;
/// the midpoint of two adjacent halves (exact in `f32`) goes to the one with the even bit
/// pattern, and the `f32` neighbours of the midpoint go to the nearer half.
#[test]
fn half_conversions_round_to_nearest_even() {
    fn check(name: &str, to: fn(u16) -> f32, from: fn(f32) -> u16, exp_mask: u16) {
        for b in 0u16..=0x7fff {
            let x = to(b);
            if b & exp_mask == exp_mask {
                continue; // inf / NaN
            }
            assert_eq!(from(x), b, "{name} {b:#06x} round trip");
            assert_eq!(from(-x), b | 0x8000, "{name} -{b:#06x} round trip");
            let next = b + 1; // the next half up (the largest finite one goes to infinity)
                              // Past the largest finite half the next value is infinity: the tie is at half an
                              // ulp above it all the same (IEEE 754 rounds as if the exponent were unbounded).
            let ulp = if next & exp_mask == exp_mask {
                x - to(b - 1)
            } else {
                to(next) - x
            };
            let mid = x + ulp / 2.0;
            assert!(x < mid && mid < x + ulp, "{name} {b:#06x}: midpoint exact");
            let even = if b % 2 == 0 { b } else { next };
            assert_eq!(from(mid), even, "{name} {b:#06x}: tie to even");
            assert_eq!(
                from(f32::from_bits(mid.to_bits() - 1)),
                b,
                "{name} below the tie"
            );
            assert_eq!(
                from(f32::from_bits(mid.to_bits() + 1)),
                next,
                "{name} above the tie"
            );
        }
        assert_eq!(from(f32::NAN), 0x7fff, "{name}: canonical NaN");
        assert_eq!(from(f32::INFINITY), exp_mask, "{name}: +inf");
    }
    check(
        "f16",
        |b| F16::from_bits(b).to_f32(),
        |x| F16::from_f32(x).to_bits(),
        0x7c00,
    );
    check(
        "bf16",
        |b| Bf16::from_bits(b).to_f32(),
        |x| Bf16::from_f32(x).to_bits(),
        0x7f80,
    );
    // Values written from the formats' definitions: 1.0, the largest finite, the smallest
    // subnormal (2^-24 for f16; 2^-133 for bf16).
    assert_eq!(F16::from_f32(1.0).to_bits(), 0x3c00);
    assert_eq!(F16::from_bits(0x7bff).to_f32(), 65504.0);
    assert_eq!(F16::from_bits(0x0001).to_f32(), 2f32.powi(-24));
    assert_eq!(Bf16::from_f32(1.0).to_bits(), 0x3f80);
    assert_eq!(
        Bf16::from_bits(0x0001).to_f32(),
        2f32.powi(-66) * 2f32.powi(-67)
    );
    // An f32 subnormal is a bf16 subnormal (no flush).
    assert_eq!(
        Bf16::from_f32(f32::from_bits(0x0001_0000)).to_bits(),
        0x0001
    );
}

/// `atom.add.noftz` on the host: correctly rounded, subnormals kept (`.noftz`), packed pairs
/// element-wise, and no lost update among threads (a CAS loop on the bits).
#[test]
fn half_adds_are_atomic_and_do_not_flush() {
    let sub = F16::from_bits(0x0001); // 2^-24, the smallest subnormal
    let c = Strong::new(sub);
    assert_eq!(c.at::<Gpu>().fetch_add::<Relaxed>(sub), sub);
    assert_eq!(c.at::<Gpu>().load::<Relaxed>().to_bits(), 0x0002); // not flushed to zero
                                                                   // 1 + 2^-11 is a tie between 1.0 (even) and 1 + 2^-10.
    let one = Strong::new(F16::from_f32(1.0));
    one.at::<Gpu>()
        .red_add::<Release>(F16::from_f32(2f32.powi(-11)));
    assert_eq!(one.at::<Gpu>().load::<Acquire>().to_bits(), 0x3c00);
    // fetch_sub is the add of the negation.
    let s = Strong::new(Bf16::from_f32(3.0));
    assert_eq!(
        s.at::<Gpu>()
            .fetch_sub::<AcqRel>(Bf16::from_f32(1.0))
            .to_f32(),
        3.0
    );
    assert_eq!(s.at::<Gpu>().load::<Relaxed>().to_f32(), 2.0);
    // NaN stays NaN.
    let n = Strong::new(F16::from_f32(1.0));
    n.at::<Gpu>().red_add::<Relaxed>(F16::from_f32(f32::NAN));
    assert!(n.at::<Gpu>().load::<Relaxed>().to_f32().is_nan());
    // cas.b16 compares bits.
    let k = Strong::new(Bf16::from_f32(1.0));
    assert_eq!(
        k.at::<Gpu>()
            .compare_exchange::<AcqRel>(Bf16::from_f32(2.0), Bf16::from_f32(5.0)),
        Err(Bf16::from_f32(1.0))
    );
    assert!(k
        .at::<Gpu>()
        .compare_exchange::<AcqRel>(Bf16::from_f32(1.0), Bf16::from_f32(5.0))
        .is_ok());
    assert_eq!(k.at::<Gpu>().load::<Relaxed>().to_f32(), 5.0);
    // Threads: 4 × 256 adds of 1.0 to an f16 (integers are exact up to 2048), and of [1, 0.5]
    // to an f16x2 and a bf16x2 pair (bf16 integers exact up to 256: 4 × 32 adds).
    let h = Arc::new(Strong::new(F16::from_f32(0.0)));
    let p = Arc::new(Strong::new(F16x2::from_f32s([0.0, 0.0])));
    let q = Arc::new(Strong::new(Bf16x2::from_f32s([0.0, 0.0])));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (h, p, q) = (h.clone(), p.clone(), q.clone());
            std::thread::spawn(move || {
                for i in 0..256 {
                    let _ = h.at::<Gpu>().fetch_add::<Relaxed>(F16::from_f32(1.0));
                    p.at::<Gpu>()
                        .red_add::<Relaxed>(F16x2::from_f32s([1.0, 0.5]));
                    if i < 32 {
                        let _ = q
                            .at::<Gpu>()
                            .fetch_add::<AcqRel>(Bf16x2::from_f32s([1.0, 0.5]));
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(h.at::<Gpu>().load::<Relaxed>().to_f32(), 1024.0);
    assert_eq!(p.at::<Gpu>().load::<Relaxed>().to_f32s(), [1024.0, 512.0]);
    assert_eq!(q.at::<Gpu>().load::<Relaxed>().to_f32s(), [128.0, 64.0]);
    // The pair swaps as one .b32.
    assert_eq!(
        p.at::<Gpu>().swap::<Relaxed>(F16x2::from_bits(7)).to_f32s(),
        [1024.0, 512.0]
    );
    assert_eq!(p.at::<Gpu>().load::<Relaxed>().to_bits(), 7);
}

/// `u128` on the host (no stable 128-bit atomic in Rust: a striped lock): `cas.b128`/`exch.b128`
/// results follow the ISA, concurrent CAS increments of both halves lose no update, and a reader
/// never sees a torn value while writers swap and store whole values.
#[test]
fn b128_operations_are_atomic_among_threads() {
    let c = Strong::new(5u128);
    let r = c.at::<Gpu>();
    assert_eq!(r.compare_exchange::<AcqRel>(4, 9), Err(5));
    assert_eq!(r.compare_exchange::<AcqRel>(5, u128::MAX), Ok(5));
    assert_eq!(r.swap::<Relaxed>(1 << 64), u128::MAX);
    r.store::<Release>(3 << 100);
    assert_eq!(r.load::<Acquire>(), 3 << 100);
    assert_eq!(core::mem::align_of::<Strong<u128>>(), 16);

    let both = |k: u64| ((k as u128) << 64) | k as u128;
    let cell = Arc::new(Strong::new(both(0)));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let started = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (cell, stop, started) = (cell.clone(), stop.clone(), started.clone());
        std::thread::spawn(move || {
            started.store(true, std::sync::atomic::Ordering::Release);
            // At least 1000 reads, and on until the writers are done.
            let mut n = 0u32;
            while n < 1000 || !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let v = cell.at::<Gpu>().load::<Relaxed>();
                assert_eq!(v >> 64, v as u64 as u128, "torn 128-bit value {v:#x}");
                n = n.saturating_add(1);
            }
        })
    };
    // The writers start once the reader reads, so that the reads overlap the writes.
    let up = ptx_sync::wait::spin_until(ptx_sync::wait::Budget::iterations(1 << 30), || {
        started.load(std::sync::atomic::Ordering::Acquire)
    });
    assert!(up.is_ok(), "the reader never started");
    let writers: Vec<_> = (0..3)
        .map(|_| {
            let cell = cell.clone();
            std::thread::spawn(move || {
                for _ in 0..2000 {
                    let a = cell.at::<Gpu>();
                    let mut cur = a.load::<Relaxed>();
                    loop {
                        let next = both((cur as u64).wrapping_add(1));
                        match a.compare_exchange::<AcqRel>(cur, next) {
                            Ok(_) => break,
                            Err(seen) => cur = seen,
                        }
                    }
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    reader.join().unwrap();
    assert_eq!(cell.at::<Gpu>().load::<Relaxed>(), both(6000));
}

/// Strong vector loads and stores on the host: every element round-trips (all six vector types),
/// and a vector published by a release store of a flag is read whole after an acquire of the
/// flag (the pattern the module docs prescribe, since a vector access is per-element atomic).
#[test]
fn vector_loads_and_stores() {
    use ptx_sync::atomic::vector::*;
    let a: Strong<V2U32> = Strong::new(Vector([1, 2]));
    a.at::<Cta>().store::<Relaxed>(Vector([3, u32::MAX]));
    assert_eq!(a.at::<Cta>().load::<Acquire>(), Vector([3, u32::MAX]));
    let b: Strong<V4U32> = Strong::new(Vector::default());
    b.at::<Gpu>().store::<Release>(Vector([4, 5, 6, 7]));
    assert_eq!(b.at::<Gpu>().load::<Volatile>().0, [4, 5, 6, 7]);
    let c: Strong<V2U64> = Strong::new(Vector([u64::MAX, 0]));
    assert_eq!(c.at::<Sys>().load::<Weak>().0, [u64::MAX, 0]);
    let d: Strong<V2F32> = Strong::new(Vector([0.5, -0.5]));
    assert_eq!(d.at::<Gpu>().load::<Relaxed>().0, [0.5, -0.5]);
    let e: Strong<V4F32> = Strong::new(Vector([1.0; 4]));
    e.at::<Gpu>().store::<Weak>(Vector([1.0, 2.0, 3.0, 4.0]));
    assert_eq!(e.at::<Gpu>().load::<Relaxed>().0, [1.0, 2.0, 3.0, 4.0]);
    let f: Strong<V2F64> = Strong::new(Vector([0.0; 2]));
    f.at::<Cluster>().store::<Release>(Vector([1e300, -1e-300]));
    assert_eq!(f.at::<Cluster>().load::<Acquire>().0, [1e300, -1e-300]);
    for (al, sz) in [
        (core::mem::align_of::<Strong<V2U32>>(), 8),
        (core::mem::align_of::<Strong<V4U32>>(), 16),
        (core::mem::align_of::<Strong<V2U64>>(), 16),
        (core::mem::align_of::<Strong<V4F32>>(), 16),
    ] {
        assert_eq!(al, sz, "a vector access needs the vector's alignment");
    }

    for _ in 0..200 {
        let data: Arc<Strong<V4U32>> = Arc::new(Strong::new(Vector([0; 4])));
        let flag = Arc::new(Strong::new(0u32));
        let w = {
            let (data, flag) = (data.clone(), flag.clone());
            std::thread::spawn(move || {
                data.at::<Gpu>().store::<Relaxed>(Vector([9, 8, 7, 6]));
                flag.at::<Gpu>().store::<Release>(1);
            })
        };
        let seen = ptx_sync::wait::spin_until(ptx_sync::wait::Budget::iterations(1 << 30), || {
            flag.at::<Gpu>().load::<Acquire>() == 1
        });
        assert!(seen.is_ok(), "the flag was never set");
        assert_eq!(data.at::<Gpu>().load::<Relaxed>().0, [9, 8, 7, 6]);
        w.join().unwrap();
    }
}

/// The sm_90 vector float atomics on the host: `fetch_add` of a `.v4.f32` returns the old
/// vector and adds element-wise (each element its own atomic), `red_add` of a `.v2.f32` loses no
/// update among threads, and subnormals flush as `atom.add.f32` on global memory does.
#[test]
fn vector_float_atomics() {
    use ptx_sync::atomic::vector::*;
    let v: Strong<V4F32> = Strong::new(Vector([1.0, 2.0, 3.0, 4.0]));
    let g = unsafe { AtomicRef::<V4F32, Gpu, Global>::new_in(&v) };
    assert_eq!(
        g.fetch_add::<AcqRel>(Vector([0.5, 0.5, -1.0, 1e-45])).0,
        [1.0, 2.0, 3.0, 4.0]
    );
    assert_eq!(v.at::<Gpu>().load::<Relaxed>().0, [1.5, 2.5, 2.0, 4.0]);
    let s: Strong<V2F32> = Strong::new(Vector([0.0, 1e-40]));
    s.at::<Gpu>().red_add::<Relaxed>(Vector([0.0, 0.0]));
    assert_eq!(s.at::<Gpu>().load::<Relaxed>().0, [0.0, 0.0]); // the subnormal flushed
    let c = Arc::new(Strong::new(Vector([0.0f32, 0.0])));
    let t: Vec<_> = (0..4)
        .map(|_| {
            let c = c.clone();
            std::thread::spawn(move || {
                for _ in 0..500 {
                    c.at::<Sys>().red_add::<Release>(Vector([1.0, 2.0]));
                }
            })
        })
        .collect();
    for t in t {
        t.join().unwrap();
    }
    assert_eq!(c.at::<Gpu>().load::<Acquire>().0, [2000.0, 4000.0]);
}

/// The sm_90 half-precision vector atomics on the host: each element is its own atomic that
/// rounds once (ties to even, subnormals kept — `.noftz` —, overflow to infinity), `min`/`max`
/// follow the half `min`/`max` (§9.7.4.7/8: a NaN yields the other operand, two NaNs the
/// canonical NaN, `-0.0 < +0.0`), and concurrent `red`s of packed pairs lose no update.
#[test]
fn half_vector_atomics() {
    use ptx_sync::atomic::vector::*;
    let h = F16::from_f32;
    let bits = |v: V8F16| v.0.map(F16::to_bits);
    let v: Strong<V8F16> = Strong::new(Vector([
        h(1.0),
        h(2.0),
        F16::from_bits(0x8000),
        h(0.0),
        h(f32::NAN),
        h(65504.0),
        h(1.0),
        F16::from_bits(1),
    ]));
    let g = unsafe { AtomicRef::<V8F16, Gpu, Global>::new_in(&v) };
    let old = g.fetch_add::<AcqRel>(Vector([
        h(0.5),
        h(2.0),
        h(0.0),
        F16::from_bits(0x8000),
        h(1.0),
        h(32.0),
        h(1.0 / 2048.0),
        F16::from_bits(1),
    ]));
    assert_eq!(
        bits(old),
        [0x3c00, 0x4000, 0x8000, 0, 0x7fff, 0x7bff, 0x3c00, 1]
    );
    // 65504 + 32 rounds past the largest finite half; 1 + 2^-11 is a tie that stays at 1.0;
    // the smallest subnormal doubles instead of flushing.
    let now = g.fetch_min::<Relaxed>(Vector([h(f32::INFINITY); 8]));
    assert_eq!(bits(now), [0x3e00, 0x4400, 0, 0, 0x7fff, 0x7c00, 0x3c00, 2]);
    let b = Bf16::from_f32;
    let w: Strong<V4Bf16> = Strong::new(Vector([
        b(1.0),
        Bf16::from_bits(0x8000),
        b(f32::NAN),
        b(3.0),
    ]));
    let r = w.at::<Sys>();
    let old = r.fetch_min::<Release>(Vector([b(2.0), b(0.0), b(5.0), b(f32::NAN)]));
    assert_eq!(old.0.map(Bf16::to_bits), [0x3f80, 0x8000, 0x7fff, 0x4040]);
    let old = r.fetch_max::<Acquire>(Vector([b(0.5), b(0.0), b(f32::NAN), b(f32::NAN)]));
    // min kept 1.0, -0.0 (< +0.0), took 5.0 over the NaN and kept 3.0 over the operand's NaN.
    assert_eq!(old.0.map(Bf16::to_bits), [0x3f80, 0x8000, 0x40a0, 0x4040]);
    r.red_max::<Relaxed>(Vector([b(f32::NAN); 4]));
    let now = r.fetch_add::<Relaxed>(Vector([b(0.0); 4]));
    // max took +0.0 over -0.0; the NaN operands left every element as it was.
    assert_eq!(now.0.map(Bf16::to_bits), [0x3f80, 0, 0x40a0, 0x4040]);
    let c = Arc::new(Strong::new(Vector([F16x2::default(); 2])));
    let t: Vec<_> = (0..4)
        .map(|_| {
            let c = c.clone();
            std::thread::spawn(move || {
                for _ in 0..250 {
                    c.at::<Gpu>().red_add::<Relaxed>(Vector([
                        F16x2::from_f32s([1.0, 2.0]),
                        F16x2::from_f32s([0.5, 0.25]),
                    ]));
                }
            })
        })
        .collect();
    for t in t {
        t.join().unwrap();
    }
    let sum = c
        .at::<Gpu>()
        .fetch_add::<AcqRel>(Vector([F16x2::default(); 2]));
    assert_eq!(
        sum.0.map(F16x2::to_f32s),
        [[1000.0, 2000.0], [500.0, 250.0]]
    );
}

/// The 16-bit integers on the host: `ld`/`st` round trips, `atom.cas.b16` compares bitwise and
/// returns the old value (`Ok` on a match, `Err` otherwise), and a CAS loop on one `u16` shared
/// by threads loses no increment (the host's `AtomicU16` is one 16-bit atomic, as the device's
/// `cas.b16` is).
#[test]
fn sixteen_bit_integers() {
    let s = Strong::new(-3i16);
    let r = s.at::<Gpu>();
    assert_eq!(r.load::<Acquire>(), -3);
    r.store::<Release>(i16::MIN);
    assert_eq!(r.compare_exchange::<AcqRel>(0, 1), Err(i16::MIN));
    assert_eq!(r.compare_exchange::<Relaxed>(i16::MIN, 7), Ok(i16::MIN));
    assert_eq!(r.load::<Relaxed>(), 7);
    let c = Arc::new(Strong::new(0u16));
    let t: Vec<_> = (0..4)
        .map(|_| {
            let c = c.clone();
            std::thread::spawn(move || {
                for _ in 0..1000 {
                    let r = c.at::<Sys>();
                    let mut cur = r.load::<Relaxed>();
                    while let Err(seen) = r.compare_exchange::<AcqRel>(cur, cur.wrapping_add(17)) {
                        cur = seen;
                    }
                }
            })
        })
        .collect();
    for t in t {
        t.join().unwrap();
    }
    // 4000 × 17 = 68000 wraps once past 65536: the CAS is on 16 bits, not a wider word.
    assert_eq!(c.at::<Gpu>().load::<Acquire>(), (68000u32 % 65536) as u16);
}

/// The signed and half-element strong vectors on the host: round trips of every element's bits
/// (negative integers, a half NaN payload, `-0.0`), and a vector published by a release store of
/// a flag arrives whole.
#[test]
fn signed_and_half_vector_accesses() {
    use ptx_sync::atomic::vector::*;
    let i: Strong<V4I32> = Strong::new(Vector([0; 4]));
    i.at::<Gpu>()
        .store::<Release>(Vector([-1, i32::MIN, 7, -7]));
    assert_eq!(i.at::<Gpu>().load::<Acquire>().0, [-1, i32::MIN, 7, -7]);
    let l: Strong<V2I64> = Strong::new(Vector([i64::MIN, -2]));
    assert_eq!(l.at::<Sys>().load::<Relaxed>().0, [i64::MIN, -2]);
    let s: Strong<V4I16> = Strong::new(Vector([0; 4]));
    s.at::<Cta>()
        .store::<Relaxed>(Vector([-1, i16::MIN, i16::MAX, 3]));
    assert_eq!(
        s.at::<Cta>().load::<Relaxed>().0,
        [-1, i16::MIN, i16::MAX, 3]
    );
    let h: Strong<V4F16> = Strong::new(Vector([F16::default(); 4]));
    let bits = [0x7e01, 0x8000, 0x3c00, 0x0001]; // a NaN payload, -0.0, 1.0, a subnormal
    h.at::<Gpu>()
        .store::<Release>(Vector(bits.map(F16::from_bits)));
    assert_eq!(h.at::<Gpu>().load::<Acquire>().0.map(F16::to_bits), bits);
    let data = Arc::new((
        Strong::new(Vector([Bf16x2::default(); 4])),
        Strong::new(0u32),
    ));
    let d = data.clone();
    let w = std::thread::spawn(move || {
        d.0.at::<Gpu>()
            .store::<Relaxed>(Vector([Bf16x2::from_f32s([1.0, -1.0]); 4]));
        d.1.at::<Gpu>().store::<Release>(1);
    });
    let mut spins = 0u64;
    while data.1.at::<Gpu>().load::<Acquire>() == 0 {
        spins += 1;
        assert!(spins < 1 << 34, "the flag never arrived");
        std::hint::spin_loop();
    }
    let v: V4Bf16x2 = data.0.at::<Gpu>().load::<Relaxed>();
    assert_eq!(v.0.map(Bf16x2::to_f32s), [[1.0, -1.0]; 4]);
    w.join().unwrap();
}

/// `elect.sync` on the host elects one lane per simulated warp of a launch — the lowest lane of
/// the mask that the warp has — after every lane of the mask arrived (PTX ISA §9.7.12.16:
/// "Election of a leader thread happens deterministically"; the `.sync` rendezvous). 40 threads:
/// warp 0 has 32 lanes, warp 1 eight; the second round elects among lanes 4..8 only.
#[test]
fn elect_sync_elects_one_lane_per_simulated_warp() {
    use ptx_sync::cluster::elect_sync_lane;
    use ptx_sync::index::{launch, thread_idx, Dim3};
    let elected = Strong::new(0u32);
    let leaders = Strong::new(0u64);
    let subset = Strong::new(0u32);
    launch(Dim3::x(1), Dim3::x(40), 0, || {
        let t = thread_idx().x;
        let (me, leader) = elect_sync_lane(u32::MAX);
        assert_eq!(leader, 0, "thread {t}: the lowest lane of the full mask");
        if me {
            let _ = elected.at::<Gpu>().fetch_add::<Relaxed>(1);
            let _ = leaders
                .at::<Gpu>()
                .fetch_add::<Relaxed>(1 << (8 * (t / 32)));
        }
        if (4..8).contains(&(t % 32)) {
            let (me, leader) = elect_sync_lane(0xf0);
            assert_eq!(leader, 4);
            if me {
                let _ = subset.at::<Gpu>().fetch_add::<Relaxed>(1);
            }
        }
    });
    assert_eq!(
        elected.at::<Gpu>().load::<Relaxed>(),
        2,
        "one leader per warp"
    );
    assert_eq!(
        leaders.at::<Gpu>().load::<Relaxed>(),
        0x0101,
        "thread 0 and thread 32"
    );
    assert_eq!(
        subset.at::<Gpu>().load::<Relaxed>(),
        2,
        "lane 4 of each warp"
    );
}
