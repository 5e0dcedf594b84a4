//! Host backend of the async families on CPU threads: mbarrier phases, arrival and tx counts,
//! tokens and parities, limits; the pipeline state machine for STAGES 1..4 (phase flip on wrap,
//! producer's opposite start); a full TMA-style pipeline run (producer + consumers on threads,
//! bulk copies completing on `full`); named and cluster barriers. Expected values are computed
//! here from the PTX ISA's description (§9.7.13.15.1), not from the implementation.

use ptx_sync::barrier::{ClusterBarrier, NamedBarrier};
use ptx_sync::copy::{cp_async, cp_async_bulk_g2s, cp_async_zfill, Ca};
use ptx_sync::pipeline::{Empty, Full, Pipeline, PipelineState};
use ptx_sync::shared::to_shared;
use ptx_sync::wait::Budget;
use ptx_sync::{Acquire, Cta, Mbarrier, Phase, Relaxed, Release};
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicU32, Ordering};

#[test]
fn phase_completes_after_all_arrivals() {
    let b: Mbarrier = Mbarrier::new();
    b.init(3);
    assert_eq!(b.host_state(), (0, 3, 3, 0));
    let t0 = b.arrive::<Release, Cta>();
    assert_eq!(b.host_state(), (0, 2, 3, 0), "one arrival of three");
    assert!(!b.try_wait::<Acquire, Cta>(t0));
    let t1 = b.arrive_n::<Relaxed, Cta>(2);
    // phase 0 complete: the tokens of phase 0 succeed, parity 0 succeeds, parity 1 does not
    assert!(b.try_wait::<Acquire, Cta>(t0) && b.test_wait::<Acquire, Cta>(t1));
    assert!(b.try_wait_parity::<Acquire, Cta>(Phase::ZERO));
    assert!(!b.test_wait_parity::<Acquire, Cta>(Phase::ONE));
    assert_eq!(b.host_state(), (1, 3, 3, 0));
    // a token of phase 1 waits for phase 1
    let t2 = b.arrive::<Release, Cta>();
    assert!(!b.try_wait_hint::<Acquire, Cta>(t2, 100));
}

#[test]
fn tx_count_must_also_reach_zero_in_any_order() {
    let b: Mbarrier = Mbarrier::new();
    b.init(1);
    // the copy lands before the producer arms the barrier: tx goes negative, phase stays
    b.complete_tx::<Cta>(64);
    assert_eq!(b.host_state(), (0, 1, 1, -64));
    let _ = b.arrive_expect_tx::<Release, Cta>(64);
    assert!(
        b.try_wait_parity::<Acquire, Cta>(Phase::ZERO),
        "arrivals 0 and tx 0: complete"
    );
    // next phase: expect first, then arrive, then complete in two parts
    b.expect_tx::<Cta>(32);
    let _ = b.arrive::<Release, Cta>();
    assert!(!b.try_wait_parity::<Acquire, Cta>(Phase::ONE));
    b.complete_tx::<Cta>(16);
    assert!(!b.try_wait_parity::<Acquire, Cta>(Phase::ONE));
    b.remote(0).complete_tx::<ptx_sync::Cluster>(16);
    assert!(b.try_wait_parity::<Acquire, Cta>(Phase::ONE));
}

#[test]
fn arrive_drop_lowers_the_expected_count() {
    let b: Mbarrier = Mbarrier::new();
    b.init(2);
    let _ = b.arrive_drop::<Release, Cta>();
    let _ = b.arrive::<Release, Cta>();
    assert_eq!(b.host_state(), (1, 1, 1, 0));
    let _ = b.arrive::<Release, Cta>();
    assert_eq!(b.host_state(), (0, 1, 1, 0));
}

#[test]
fn bounded_wait_times_out() {
    let b: Mbarrier = Mbarrier::new();
    b.init(1);
    assert!(b
        .wait_parity::<Acquire, Cta>(Phase::ZERO, Budget::iterations(10))
        .is_err());
    let t = b.arrive::<Release, Cta>();
    assert!(b.wait::<Acquire, Cta>(t, Budget::iterations(10)).is_ok());
}

#[test]
#[should_panic(expected = "1..2^20")]
fn init_zero_is_rejected() {
    Mbarrier::<()>::new().init(0);
}
#[test]
#[should_panic(expected = "1..2^20")]
fn init_2_pow_20_is_rejected() {
    Mbarrier::<()>::new().init(1 << 20);
}
#[test]
fn init_max_is_accepted() {
    let b: Mbarrier = Mbarrier::new();
    b.init((1 << 20) - 1);
    assert_eq!(b.host_state().2, (1 << 20) - 1);
}
#[test]
#[should_panic(expected = "below 2^20")]
fn tx_2_pow_20_is_rejected() {
    let b: Mbarrier = Mbarrier::new();
    b.init(1);
    b.expect_tx::<Cta>(1 << 20);
}

fn check_states<const S: usize>() {
    let mut c = PipelineState::<S>::consumer_start();
    let mut p = PipelineState::<S>::producer_start();
    for k in 0..(3 * S + 2) {
        let (idx, ph) = (k % S, ((k / S) % 2) as u32);
        assert_eq!(
            (c.index(), c.phase().bit(), c.count()),
            (idx, ph, k as u32),
            "consumer S={S} k={k}"
        );
        assert_eq!(
            (p.index(), p.phase().bit()),
            (idx, 1 - ph),
            "producer S={S} k={k}"
        );
        c.advance();
        p.advance();
    }
}

#[test]
fn pipeline_state_flips_on_wrap_for_1_to_4_stages() {
    check_states::<1>();
    check_states::<2>();
    check_states::<3>();
    check_states::<4>();
}

const CHUNK: usize = 64; // u32 words per stage (256 bytes)

/// A ring of `S` stages of `N` words.
#[repr(C, align(128))]
struct Ring<const S: usize, const N: usize>(UnsafeCell<[[u32; N]; S]>);
unsafe impl<const S: usize, const N: usize> Sync for Ring<S, N> {}
impl<const S: usize, const N: usize> Ring<S, N> {
    fn stage(&self, i: usize) -> *mut [u32; N] {
        unsafe { &raw mut (*self.0.get())[i] }
    }
}

/// The tests' TMA-style pipeline on CPU threads: a [`Ring`] of `S` stages of `N` words, one
/// producer and `consumers` consumers. For each of `steps` steps the producer acquires a stage
/// (its `full` barrier expecting the stage's `N * 4` bytes) and `fill(step, stage, full)` starts
/// the copy into it; consumer `c` waits until the stage is full, calls `take(c, step, stage)`
/// and releases it.
fn pipeline<const S: usize, const N: usize>(
    steps: usize,
    consumers: u32,
    fill: impl Fn(usize, *mut u32, &Mbarrier<Full>) + Sync,
    take: impl Fn(usize, usize, &[u32; N]) + Sync,
) {
    let ring = Ring::<S, N>(UnsafeCell::new([[0; N]; S]));
    let full: Vec<Mbarrier<Full>> = (0..S).map(|_| Mbarrier::new()).collect();
    let empty: Vec<Mbarrier<Empty>> = (0..S).map(|_| Mbarrier::new()).collect();
    let pipe = Pipeline::<S, Cta>::new(&full, &empty, 0, true);
    pipe.init(1, consumers);
    let budget = Budget::iterations(50_000_000);
    std::thread::scope(|sc| {
        sc.spawn(|| {
            let mut st = PipelineState::<S>::producer_start();
            for k in 0..steps {
                let f = pipe
                    .producer_acquire(st, (N * 4) as u32, budget)
                    .expect("producer timed out");
                fill(k, ring.stage(st.index()).cast(), f);
                st.advance();
            }
            pipe.producer_tail(st, budget).expect("tail timed out");
        });
        for c in 0..consumers as usize {
            let (pipe, ring, take) = (&pipe, &ring, &take);
            sc.spawn(move || {
                let mut st = PipelineState::<S>::consumer_start();
                for k in 0..steps {
                    let full = pipe.consumer_wait(st, budget).expect("consumer timed out");
                    take(c, k, unsafe { &*ring.stage(full.index()) });
                    pipe.consumer_release(full);
                    st.advance();
                }
            });
        }
    });
}

/// The words the consumers stored.
fn words(out: &[AtomicU32]) -> Vec<u32> {
    out.iter().map(|a| a.load(Ordering::Relaxed)).collect()
}

/// Producer + 3 consumers on threads: each consumer copies a third of every chunk to `out`.
fn run_pipeline<const S: usize>(chunks: usize) {
    let src: Vec<u32> = (0..(chunks * CHUNK) as u32)
        .map(|x| x.wrapping_mul(2654435761))
        .collect();
    let out: Vec<AtomicU32> = (0..chunks * CHUNK).map(|_| 0xFFFF_FFFF.into()).collect();
    const CONSUMERS: usize = 3;
    pipeline::<S, CHUNK>(
        chunks,
        CONSUMERS as u32,
        |k, dst, f| unsafe {
            cp_async_bulk_g2s(
                to_shared(dst),
                src[k * CHUNK..].as_ptr() as *const u8,
                (CHUNK * 4) as u32,
                f,
            )
        },
        |c, k, stage| {
            for i in (c..CHUNK).step_by(CONSUMERS) {
                out[k * CHUNK + i].store(stage[i], Ordering::Relaxed);
            }
        },
    );
    assert_eq!(words(&out), src, "pipeline with {S} stages");
}

#[test]
fn pipeline_copies_every_chunk_with_1_to_4_stages() {
    run_pipeline::<1>(7);
    run_pipeline::<2>(9);
    run_pipeline::<3>(10);
    run_pipeline::<4>(13);
}

#[test]
fn named_barrier_reductions_on_threads() {
    let b = NamedBarrier::new(2, 4);
    let r: Vec<(u32, bool, bool)> = std::thread::scope(|s| {
        let h: Vec<_> = (0..4u32)
            .map(|i| {
                let b = &b;
                s.spawn(move || {
                    b.sync();
                    (b.red_popc(i % 2 == 0), b.red_and(i < 4), b.red_or(i == 7))
                })
            })
            .collect();
        h.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(r.iter().all(|&x| x == (2, true, false)), "{r:?}");
}

#[test]
fn cluster_barrier_on_threads() {
    let cb = ClusterBarrier::new(3);
    let flag = std::sync::atomic::AtomicU32::new(0);
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                flag.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let a = cb.arrive::<Release>();
                cb.wait::<Acquire>(a);
                assert_eq!(flag.load(std::sync::atomic::Ordering::Relaxed), 3);
            });
        }
    });
}

#[test]
fn cp_async_host_copies_at_issue_and_zero_fills() {
    #[repr(align(16))]
    struct A([u8; 16]);
    let src = A([9; 16]);
    let mut dst = A([1; 16]);
    unsafe { cp_async::<Ca, 8>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr()) };
    assert_eq!(dst.0, [9, 9, 9, 9, 9, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1]);
    unsafe { cp_async_zfill::<Ca, 16>(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 4) };
    assert_eq!(dst.0, [9, 9, 9, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
}

#[test]
fn host_tensor_map_validation() {
    use ptx_sync::copy::TensorMap;
    let p = std::ptr::null();
    assert!(TensorMap::host_tiled(p, 4, &[8, 8], &[32], &[8, 8]).is_ok());
    assert_eq!(
        TensorMap::host_tiled(p, 4, &[8, 8, 1, 1, 1, 1], &[32, 32, 32, 32, 32], &[8; 6])
            .unwrap_err(),
        "rank must be 1..=5 with rank-1 strides and rank box sizes"
    );
    assert_eq!(
        TensorMap::host_tiled(p, 4, &[8, 8], &[36], &[8, 8]).unwrap_err(),
        "global strides must be multiples of 16 bytes"
    );
    assert_eq!(
        TensorMap::host_tiled(p, 4, &[8, 8], &[32], &[8, 257]).unwrap_err(),
        "box sizes must be in 1..=256"
    );
    assert_eq!(
        TensorMap::host_tiled(p, 4, &[8, 8], &[32], &[2, 8]).unwrap_err(),
        "the inner box dimension must span a multiple of 16 bytes"
    );
}

/// The tiled copy of `host/kernels/src/tiled_copy.rs` on CPU threads: a 2-d tensor whose sides
/// are not multiples of the box, a TMA-style ring of `S` stages, one producer, two consumers.
fn tiled_copy_on_host<const S: usize>(w: usize, h: usize) {
    use ptx_sync::copy::{cp_async_bulk_tensor_load, TensorMap};
    const BW: usize = 32;
    const BH: usize = 8;
    let src: Vec<u32> = (0..(w * h) as u32).map(|x| x ^ 0x5a5a_0000).collect();
    let out: Vec<AtomicU32> = (0..w * h).map(|_| 0xFFFF_FFFF.into()).collect();
    let map = TensorMap::host_tiled(
        src.as_ptr() as *const u8,
        4,
        &[w as u64, h as u64],
        &[(w * 4) as u64],
        &[BW as u32, BH as u32],
    )
    .unwrap();
    let (tx, ty) = (w.div_ceil(BW), h.div_ceil(BH));
    pipeline::<S, { BW * BH }>(
        tx * ty,
        2,
        |t, dst, f| {
            let c = [((t % tx) * BW) as i32, ((t / tx) * BH) as i32];
            unsafe { cp_async_bulk_tensor_load(to_shared(dst), &map, c, f) };
        },
        |c, t, tile| {
            for e in (c..BW * BH).step_by(2) {
                let (gx, gy) = ((t % tx) * BW + e % BW, (t / tx) * BH + e / BW);
                if gx < w && gy < h {
                    out[gy * w + gx].store(tile[e], Ordering::Relaxed);
                } else {
                    assert_eq!(tile[e], 0, "out-of-bounds element not zero-filled");
                }
            }
        },
    );
    assert_eq!(words(&out), src, "{w}x{h}, {S} stages");
}

#[test]
fn tiled_copy_pipeline_on_host_1_to_4_stages() {
    tiled_copy_on_host::<1>(100, 45);
    tiled_copy_on_host::<2>(64, 16);
    tiled_copy_on_host::<3>(36, 9);
    tiled_copy_on_host::<4>(132, 70);
}

#[test]
fn host_tensor_store_skips_out_of_bounds() {
    use ptx_sync::copy::{cp_async_bulk_tensor_store, TensorMap};
    let mut g = vec![0u32; 6 * 4]; // width 4 (16 bytes), height 6
    let map =
        TensorMap::host_tiled(g.as_mut_ptr() as *const u8, 4, &[4, 6], &[16], &[4, 4]).unwrap();
    #[repr(align(16))]
    struct B([u32; 16]);
    let b = B(core::array::from_fn(|i| i as u32 + 1));
    unsafe { cp_async_bulk_tensor_store(&map, [0i32, 4], to_shared(b.0.as_ptr())) };
    let mut want = vec![0u32; 24];
    want[16..24].copy_from_slice(&(1..=8).collect::<Vec<u32>>());
    assert_eq!(g, want);
}

/// `mbarrier.pending_count` on the state of `arrive.noComplete` (the only state it is defined
/// on, PTX ISA §9.7.13.15.18): the state is the barrier's before the arrival (pending 5), the
/// next one shows the 2 arrivals; `arrive_drop.noComplete` also lowers the expected count.
#[test]
fn pending_count_of_no_complete_states() {
    let b: Mbarrier = Mbarrier::new();
    b.init(5);
    let s0 = unsafe { b.arrive_no_complete(2) };
    assert_eq!(Mbarrier::pending_count(s0), 5);
    let s1 = unsafe { b.arrive_drop_no_complete(1) };
    assert_eq!(Mbarrier::pending_count(s1), 3);
    assert_eq!(b.host_state(), (0, 2, 4, 0));
    assert!(
        !b.try_wait::<Acquire, Cta>(s1.token()),
        "phase 0 still open"
    );
    let _ = b.arrive_n::<Release, Cta>(2);
    assert!(b.try_wait::<Acquire, Cta>(s0.token()), "phase 0 complete");
    assert_eq!(
        b.host_state(),
        (1, 4, 4, 0),
        "next phase expects 5 - 1 dropped"
    );
}

/// A `.noComplete` arrival that would complete the phase is undefined on the device; the host
/// refuses it.
#[test]
#[should_panic(expected = "would complete the phase")]
fn no_complete_arrival_that_completes_panics() {
    let b: Mbarrier = Mbarrier::new();
    b.init(2);
    let _ = unsafe { b.arrive_no_complete(2) };
}

/// The tx-count range is [-(2^20-1), 2^20-1] (PTX ISA §9.7.13.15.1): each operand is below
/// 2^20 but the sum of two `expect_tx` leaves the range, which the host reports.
#[test]
fn tx_count_accumulating_past_its_range_panics() {
    let max = ptx_sync::mbarrier::MAX_COUNT;
    let b: Mbarrier = Mbarrier::new();
    b.init(1);
    b.expect_tx::<Cta>(max);
    assert_eq!(b.host_state(), (0, 1, 1, max as i32), "2^20-1 is in range");
    let r = std::panic::catch_unwind(|| b.expect_tx::<Cta>(1));
    let msg = *r
        .expect_err("2^20 is out of range")
        .downcast::<String>()
        .unwrap();
    assert!(msg.contains("leaves its range"), "{msg}");
    let c: Mbarrier = Mbarrier::new();
    c.init(1);
    c.complete_tx::<Cta>(max);
    assert_eq!(c.host_state(), (0, 1, 1, -(max as i32)));
    let r = std::panic::catch_unwind(|| c.complete_tx::<Cta>(1));
    assert!(r.is_err(), "-(2^20) is out of range");
    let d: Mbarrier = Mbarrier::new();
    d.init(2);
    let _ = d.arrive_expect_tx::<Release, Cta>(max);
    let r = std::panic::catch_unwind(|| d.arrive_expect_tx::<Release, Cta>(1));
    assert!(r.is_err(), "arrive.expect_tx past the range");
}

/// The seed §5.1 shape on CPU threads, many rounds: each of two threads `bar.arrive`s twice per
/// round on `bar` and then `bar.sync`s (six arrivals, three generations per round, so every
/// interleaving of a round ends), and the rounds are kept in step by a second barrier (without
/// it a thread two rounds ahead could pair its arrivals with its own sync, which hangs on the
/// device too). An arrival of the next generation that lands right after the last arrival of
/// this one must be counted: the host barrier used to reset its count after the last arrival's
/// RMW and erased it, and a later `bar.sync` hung. A watchdog turns a hang into a failure.
#[test]
fn bar_arrivals_of_the_next_generation_are_counted() {
    use std::sync::{mpsc, Arc};
    const ROUNDS: usize = 5_000;
    let bar = Arc::new(NamedBarrier::new(1, 2));
    let step = Arc::new(NamedBarrier::new(2, 2));
    let (tx, rx) = mpsc::channel();
    for _ in 0..2 {
        let (bar, step, tx) = (bar.clone(), step.clone(), tx.clone());
        std::thread::spawn(move || {
            for _ in 0..ROUNDS {
                bar.arrive();
                bar.arrive();
                bar.sync();
                step.sync();
            }
            tx.send(()).unwrap();
        });
    }
    for _ in 0..2 {
        rx.recv_timeout(std::time::Duration::from_secs(120))
            .expect("a bar.sync never completed: an arrival was lost");
    }
}

/// `cp.reduce.async.bulk .add` is an atomic reduction per element on the device; on the host
/// four threads reducing into the same 64 elements lose nothing.
#[test]
fn bulk_reduce_from_threads_loses_nothing() {
    use ptx_sync::copy::cp_reduce_async_bulk_add;
    use std::sync::Arc;
    #[repr(align(16))]
    struct Buf([u32; 64]);
    struct Dst(UnsafeCell<Buf>);
    unsafe impl Sync for Dst {}
    const ROUNDS: u32 = 20_000;
    let dst = Arc::new(Dst(UnsafeCell::new(Buf([0; 64]))));
    let start = Arc::new(std::sync::Barrier::new(4));
    let hs: Vec<_> = (0..4u32)
        .map(|t| {
            let (dst, start) = (dst.clone(), start.clone());
            std::thread::spawn(move || {
                let src = Buf(core::array::from_fn(|i| i as u32 + t));
                start.wait(); // all four reduce at the same time
                for _ in 0..ROUNDS {
                    unsafe {
                        cp_reduce_async_bulk_add(
                            dst.0.get() as *mut u32,
                            to_shared(src.0.as_ptr()),
                            256,
                        )
                    };
                }
            })
        })
        .collect();
    hs.into_iter().for_each(|h| h.join().unwrap());
    let got = unsafe { &(*dst.0.get()).0 };
    for (i, &v) in got.iter().enumerate() {
        // sum over t of (i + t) per round: 4 i + 6
        assert_eq!(v, ROUNDS * (4 * i as u32 + 6), "element {i}");
    }
}

/// Four threads, each reducing its own 64 elements into the same destination at the same time
/// with `op`, `ROUNDS` times: `f(t)` is thread `t`'s source element `i`.
fn reduce_from_threads<T, Op>(
    init: T,
    src: impl Fn(u32, usize) -> T + Send + Sync + 'static,
    rounds: u32,
) -> Vec<T>
where
    Op: ptx_sync::atomic::op::Op,
    T: ptx_sync::copy::BulkReduce<Op> + Send + Sync + std::fmt::Debug,
{
    use ptx_sync::copy::cp_reduce_async_bulk;
    use std::sync::Arc;
    #[repr(align(16))]
    struct Buf<T>([T; 64]);
    struct Dst<T>(UnsafeCell<Buf<T>>);
    unsafe impl<T> Sync for Dst<T> {}
    let dst = Arc::new(Dst(UnsafeCell::new(Buf([init; 64]))));
    let start = Arc::new(std::sync::Barrier::new(4));
    let src = Arc::new(src);
    let hs: Vec<_> = (0..4u32)
        .map(|t| {
            let (dst, start, src) = (dst.clone(), start.clone(), src.clone());
            std::thread::spawn(move || {
                let s = Buf(core::array::from_fn(|i| src(t, i)));
                start.wait();
                for _ in 0..rounds {
                    unsafe {
                        cp_reduce_async_bulk::<Op, T>(
                            dst.0.get() as *mut T,
                            to_shared(s.0.as_ptr()),
                            (64 * std::mem::size_of::<T>()) as u32,
                        )
                    };
                }
            })
        })
        .collect();
    hs.into_iter().for_each(|h| h.join().unwrap());
    unsafe { (*dst.0.get()).0.to_vec() }
}

/// Every operator of `cp.reduce.async.bulk` on the host is one atomic read-modify-write per
/// element: concurrent reducers lose nothing. Expected values from the operators' definitions
/// (PTX ISA §9.7.9.25.4, `atom.inc`/`atom.dec` of §9.7.13.5).
#[test]
fn every_bulk_reduce_operator_from_threads_loses_nothing() {
    use ptx_sync::atomic::op::*;
    const R: u32 = 5_000;
    // add on u64 and i64: 4 threads x R rounds of (i + t) / -(i + t)
    let got = reduce_from_threads::<u64, Add>(0, |t, i| (i as u64) + t as u64, R);
    for (i, &v) in got.iter().enumerate() {
        assert_eq!(v, R as u64 * (4 * i as u64 + 6), "add.u64 {i}");
    }
    let got = reduce_from_threads::<i64, Add>(0, |t, i| -((i as i64) + t as i64), R);
    for (i, &v) in got.iter().enumerate() {
        assert_eq!(v, -(R as i64) * (4 * i as i64 + 6), "add.u64 (i64) {i}");
    }
    // inc with a bound above the total: a counter of all 4 R increments
    let got = reduce_from_threads::<u32, Inc>(0, |_, _| u32::MAX, R);
    assert!(got.iter().all(|&v| v == 4 * R), "inc.u32 {got:?}");
    // dec from 4 R with a bound above it: down to 0 exactly
    let got = reduce_from_threads::<u32, Dec>(4 * R, |_, _| u32::MAX, R);
    assert!(got.iter().all(|&v| v == 0), "dec.u32 {got:?}");
    // or / xor: bit t of element i set by thread t (xor: an even number of rounds clears it)
    let got = reduce_from_threads::<u64, Or>(0, |t, i| 1u64 << ((i as u32 + 16 * t) % 64), 3);
    for (i, &v) in got.iter().enumerate() {
        let want = (0..4).fold(0u64, |a, t| a | 1u64 << ((i as u32 + 16 * t) % 64));
        assert_eq!(v, want, "or.b64 {i}");
    }
    let got = reduce_from_threads::<u32, Xor>(0, |t, _| 1 << t, 2 * R);
    assert!(got.iter().all(|&v| v == 0), "xor.b32 {got:?}");
    let got = reduce_from_threads::<u32, Xor>(0, |t, _| 1 << t, 2 * R + 1);
    assert!(got.iter().all(|&v| v == 0b1111), "xor.b32 {got:?}");
    let got = reduce_from_threads::<u32, And>(u32::MAX, |t, _| !(1 << t), R);
    assert!(got.iter().all(|&v| v == !0b1111), "and.b32 {got:?}");
    // min / max: the extreme over the threads' elements
    let got = reduce_from_threads::<i32, Min>(0, |t, i| i as i32 - 10 * t as i32, R);
    for (i, &v) in got.iter().enumerate() {
        assert_eq!(v, (i as i32 - 30).min(0), "min.s32 {i}");
    }
    let got = reduce_from_threads::<i64, Max>(i64::MIN, |t, i| (i as i64) * (t as i64 - 2), R);
    for (i, &v) in got.iter().enumerate() {
        assert_eq!(v, i as i64, "max.s64 {i}");
    }
    // f32 add of exactly representable values: no update lost
    let got = reduce_from_threads::<f32, Add>(0.0, |t, _| (t + 1) as f32, R);
    assert!(got.iter().all(|&v| v == 10.0 * R as f32), "add.f32 {got:?}");
}

/// The 16-bit float reductions on the host: `.add.noftz.f16/.bf16` is the sum rounded once to
/// nearest even, subnormals kept; `min`/`max` take the number over a NaN. Bit patterns written
/// here from IEEE 754 binary16 (1.0 = 0x3c00) and bfloat16 (the top half of an f32).
#[test]
fn bulk_reduce_16_bit_floats() {
    use ptx_sync::atomic::op::{Add, Max, Min};
    use ptx_sync::copy::{cp_reduce_async_bulk, Bf16, F16};
    #[repr(align(16))]
    struct B<T>([T; 8]);
    /// A 16-bit float type by its bits.
    trait Bits {
        fn of(b: u16) -> Self;
        fn bits(self) -> u16;
    }
    macro_rules! bits {
        ($($T:ident),*) => {$(
            impl Bits for $T {
                fn of(b: u16) -> Self {
                    $T::from_bits(b)
                }
                fn bits(self) -> u16 {
                    self.to_bits()
                }
            }
        )*};
    }
    bits!(F16, Bf16);
    /// `d` reduced by `s` (8 elements of `T`, given and returned as their bits).
    fn red<Op: ptx_sync::atomic::op::Op, T: ptx_sync::copy::BulkReduce<Op> + Bits>(
        d: [u16; 8],
        s: [u16; 8],
    ) -> [u16; 8] {
        let (mut d, s) = (B(d.map(T::of)), B(s.map(T::of)));
        unsafe { cp_reduce_async_bulk::<Op, T>(d.0.as_mut_ptr(), to_shared(s.0.as_ptr()), 16) };
        d.0.map(T::bits)
    }
    // (reduction, destination, source, result).
    type Case = (
        fn([u16; 8], [u16; 8]) -> [u16; 8],
        [u16; 8],
        [u16; 8],
        [u16; 8],
    );
    #[rustfmt::skip]
    let cases: [Case; 4] = [
        // f16: 1 + 1 = 2; 1 + 2^-11 = 1 (tie to even); (1 + 2^-10) + 2^-11 = 1 + 2^-9 (tie to
        // even, up); 65504 + 8 = 65504 (below the half-way point 65520); 65504 + 32 = inf;
        // smallest subnormal + smallest subnormal = 2 x it (no flush: .noftz); 1 + -1 = +0;
        // -0 + -0 = -0.
        (red::<Add, F16>, [0x3c00, 0x3c00, 0x3c01, 0x7bff, 0x7bff, 0x0001, 0x3c00, 0x8000], [0x3c00, 0x1000, 0x1000, 0x4800, 0x5000, 0x0001, 0xbc00, 0x8000], [0x4000, 0x3c00, 0x3c02, 0x7bff, 0x7c00, 0x0002, 0x0000, 0x8000]),
        // f16 min/max: NaN (0x7e00) yields the number; -0 < +0; -2 < 1.
        (red::<Min, F16>, [0x7e00, 0x3c00, 0x0000, 0xc000, 0, 0, 0, 0], [0x3c00, 0x7e00, 0x8000, 0x3c00, 0, 0, 0, 0], [0x3c00, 0x3c00, 0x8000, 0xc000, 0, 0, 0, 0]),
        (red::<Max, F16>, [0x7e00, 0x0000, 0xc000, 0, 0, 0, 0, 0], [0xbc00, 0x8000, 0x3c00, 0, 0, 0, 0, 0], [0xbc00, 0x0000, 0x3c00, 0, 0, 0, 0, 0]),
        // bf16: 1 + 1 = 2 (0x4000); 1 + 2^-8 = 1 (tie to even); (1 + 2^-7) + 2^-8 = 1 + 2^-6
        // (0x3f82); the largest finite 0x7f7f + itself = inf.
        (red::<Add, Bf16>, [0x3f80, 0x3f80, 0x3f81, 0x7f7f, 0, 0, 0, 0], [0x3f80, 0x3b80, 0x3b80, 0x7f7f, 0, 0, 0, 0], [0x4000, 0x3f80, 0x3f82, 0x7f80, 0, 0, 0, 0]),
    ];
    for (k, (reduce, d, s, want)) in cases.into_iter().enumerate() {
        assert_eq!(reduce(d, s), want, "case {k} (d, s: {d:#06x?}, {s:#06x?})");
    }
}

/// `cp.reduce.async.bulk.shared::cluster…mbarrier::complete_tx::bytes`: the reduction lands and
/// completes its bytes on the barrier (the waiter's phase completes only then).
#[test]
fn bulk_reduce_into_cluster_completes_on_the_barrier() {
    use ptx_sync::atomic::op::Min;
    use ptx_sync::copy::cp_reduce_async_bulk_s2c;
    #[repr(align(16))]
    struct A([i32; 4]);
    let (src, mut peer) = (A([-5, 5, 0, 7]), A([1, 1, 1, 1]));
    let bar: Mbarrier = Mbarrier::new();
    bar.init(1);
    let _ = bar.arrive_expect_tx::<Release, ptx_sync::Cluster>(32);
    let dst = to_shared(peer.0.as_mut_ptr()).to_cluster();
    unsafe {
        cp_reduce_async_bulk_s2c::<Min, i32, _>(dst, to_shared(src.0.as_ptr()), 16, bar.remote(1))
    };
    assert!(
        !bar.try_wait_parity::<Acquire, ptx_sync::Cluster>(Phase::ZERO),
        "16 of 32 bytes"
    );
    unsafe {
        cp_reduce_async_bulk_s2c::<Min, i32, _>(dst, to_shared(src.0.as_ptr()), 16, bar.remote(1))
    };
    assert!(bar.try_wait_parity::<Acquire, ptx_sync::Cluster>(Phase::ZERO));
    assert_eq!(peer.0, [-5, 1, 0, 1]);
}

/// `cp.reduce.async.bulk.tensor` on the host needs the element type (`TensorMap::host_tiled_of`;
/// its emulation: `tests/tensor_host.rs`): on an untyped `host_tiled` map the host arm reports
/// the precondition rather than reduce with a guessed type.
#[test]
#[should_panic(expected = "needs a typed map")]
fn tensor_reduce_on_an_untyped_map_panics_on_the_host() {
    use ptx_sync::atomic::op::Add;
    use ptx_sync::copy::{cp_reduce_async_bulk_tensor, TensorMap, Tile};
    let out = [0u32; 8];
    let map = TensorMap::host_tiled(out.as_ptr().cast(), 4, &[8], &[], &[4]).unwrap();
    #[repr(align(128))]
    struct T([u32; 4]);
    let part = T([1; 4]);
    unsafe { cp_reduce_async_bulk_tensor::<Add, Tile, _>(&map, [4], to_shared(part.0.as_ptr())) };
}

/// The `.im2col` loads on the host need an im2col map (`TensorMap::host_im2col`; their
/// emulation: `tests/tensor_host.rs`): on a tiled map the host arm reports the precondition,
/// never a silently different copy; the prefetches are hints and do nothing.
#[test]
#[should_panic(expected = "needs an im2col map (TensorMap::host_im2col)")]
fn im2col_load_on_a_tiled_map_panics_on_the_host() {
    use ptx_sync::copy::{
        cp_async_bulk_prefetch_tensor_im2col, cp_async_bulk_tensor_load_im2col, TensorMap,
    };
    let data = [7u32; 64];
    let map =
        TensorMap::host_tiled(data.as_ptr().cast(), 4, &[4, 4, 4], &[16, 64], &[4, 4, 4]).unwrap();
    unsafe { cp_async_bulk_prefetch_tensor_im2col(&map, [0, 0, 0], [1]) }; // a hint: returns
    #[repr(align(128))]
    struct T([u32; 64]);
    let mut t = T([0; 64]);
    let bar: Mbarrier = Mbarrier::new();
    bar.init(1);
    unsafe {
        cp_async_bulk_tensor_load_im2col(to_shared(t.0.as_mut_ptr()), &map, [0, 0, 0], [1], &bar)
    };
}

/// `copy::blackwell`'s host arms go through the library's copy engine: the `.shared::cta` TMA
/// load lands all 16 bytes and completes its 16 bytes on the barrier (a phase that expects 16
/// more bytes than the arrival completes only then); the `.cp_mask` store writes byte `i` of each
/// 16-byte chunk only where bit `i` of the mask is set (expected bytes written by hand).
#[test]
fn blackwell_bulk_copies_host() {
    use ptx_sync::copy::blackwell::{cp_async_bulk_g2s_cta, cp_async_bulk_s2g_cp_mask};
    use ptx_sync::copy::{cp_async_bulk_commit_group, cp_async_bulk_wait_group};
    #[repr(align(16))]
    struct A([u8; 32]);
    let src = A(core::array::from_fn(|i| i as u8 + 1));
    let mut dst = A([0; 32]);
    let bar = Mbarrier::<()>::new();
    bar.init(1);
    let _ = bar.arrive_expect_tx::<Release, Cta>(16);
    assert!(
        !bar.try_wait_parity::<Acquire, Cta>(Phase::ZERO),
        "no bytes yet"
    );
    unsafe { cp_async_bulk_g2s_cta(to_shared(dst.0.as_mut_ptr()), src.0.as_ptr(), 16, &bar) };
    assert!(
        bar.try_wait_parity::<Acquire, Cta>(Phase::ZERO),
        "the copy completed 16 bytes"
    );
    assert_eq!(&dst.0[..16], &src.0[..16]);
    assert_eq!(dst.0[16..], [0; 16]);

    let mut out = A([0xee; 32]);
    unsafe {
        cp_async_bulk_s2g_cp_mask(
            out.0.as_mut_ptr(),
            to_shared(src.0.as_ptr()),
            32,
            0b1000_0000_0000_0101,
        )
    };
    cp_async_bulk_commit_group();
    cp_async_bulk_wait_group::<0>();
    let mut want = [0xeeu8; 32];
    for c in [0, 16] {
        want[c] = src.0[c];
        want[c + 2] = src.0[c + 2];
        want[c + 15] = src.0[c + 15];
    }
    assert_eq!(out.0, want);
}
