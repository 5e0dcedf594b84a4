//! CPU analogues: the seed's protocols written with `ptx-sync`'s API and run on real `std`
//! threads through its host backend (scope erased; `.relaxed` → `Relaxed`, `fence.sc` →
//! `fence(SeqCst)`, release/acquire as in C++).
//!
//! What they can and cannot show: x86-64 is TSO, so only the W→R relaxation of §2.1 (the store
//! buffer) is visible on it — store buffering shows `r1 = r2 = 0` without a fence and with
//! `fence.acq_rel`, never with `fence.sc` — and a read-increment-write loses increments on any
//! machine. Message passing never fails on x86; there the loom tests (`loom-tests/`) explore the
//! weak behaviours of the C++ model instead.

use ptx_sync::{fence, AcqRel, Acquire, Data, Gpu, Relaxed, Release, Sc, Strong};
use std::sync::Barrier;
use std::time::{Duration, Instant};

/// Which fence the store-buffering threads use between their write and their read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SbFence {
    None,
    AcqRel,
    Sc,
}

/// The counts of a CPU run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuCounts {
    pub rounds: u64,
    /// Forbidden-by-the-fixed-program outcomes seen.
    pub bad: u64,
    /// Rounds that ran out of their wait budget.
    pub timeouts: u64,
}

const BATCH: usize = 2048;

/// Store buffering (§2.1/§3.6) on two threads, `rounds` instances (rounded up to whole batches
/// of `BATCH`). The threads meet at a spin rendezvous before every instance so that their
/// accesses overlap (litmus7's "user" synchronization). `bad` counts `r1 == r2 == 0`.
pub fn store_buffering(f: SbFence, rounds: u64) -> CpuCounts {
    let n = (rounds as usize).div_ceil(BATCH) * BATCH;
    let x: Vec<Strong<u32>> = (0..n).map(|_| Strong::new(0)).collect();
    let y: Vec<Strong<u32>> = (0..n).map(|_| Strong::new(0)).collect();
    let r0: Vec<Strong<u32>> = (0..n).map(|_| Strong::new(0)).collect();
    let r1: Vec<Strong<u32>> = (0..n).map(|_| Strong::new(0)).collect();
    let arrive = Strong::new(0u32);
    let side = |me: &[Strong<u32>], other: &[Strong<u32>], out: &[Strong<u32>]| {
        let a = arrive.at::<Gpu>();
        for k in 0..n {
            // Rendezvous k: both threads have arrived 2(k+1) times in total. Bounded: after
            // many spins yield, after 50 ms give up on overlapping this round.
            let _ = a.fetch_add::<Relaxed>(1);
            let target = 2 * (k as u32 + 1);
            let t = Instant::now();
            let mut spins = 0u32;
            while a.load::<Relaxed>() < target {
                spins += 1;
                if spins % 1024 == 0 {
                    if t.elapsed() > Duration::from_millis(50) {
                        break;
                    }
                    std::thread::yield_now();
                }
                std::hint::spin_loop();
            }
            me[k].at::<Gpu>().store::<Relaxed>(1);
            match f {
                SbFence::None => {}
                SbFence::AcqRel => fence::<AcqRel, Gpu>(),
                SbFence::Sc => fence::<Sc, Gpu>(),
            }
            out[k]
                .at::<Gpu>()
                .store::<Relaxed>(other[k].at::<Gpu>().load::<Relaxed>());
        }
    };
    std::thread::scope(|s| {
        let h = s.spawn(|| side(&y, &x, &r1));
        side(&x, &y, &r0);
        h.join().unwrap();
    });
    let bad = (0..n)
        .filter(|&k| {
            r0[k].at::<Gpu>().load::<Relaxed>() == 0 && r1[k].at::<Gpu>().load::<Relaxed>() == 0
        })
        .count() as u64;
    CpuCounts {
        rounds: n as u64,
        bad,
        timeouts: 0,
    }
}

/// Two threads each add 1 to `count` per round, `rounds` rounds; with `atomic == false` as a
/// load then a store (§4.1). `bad` counts lost increments.
pub fn counter(atomic: bool, rounds: u64) -> CpuCounts {
    let c = Strong::new(0u32);
    let bar = Barrier::new(2);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                bar.wait();
                let a = c.at::<Gpu>();
                for _ in 0..rounds {
                    if atomic {
                        let _ = a.fetch_add::<Relaxed>(1);
                    } else {
                        let v = a.load::<Relaxed>();
                        a.store::<Relaxed>(v + 1);
                    }
                }
            });
        }
    });
    let total = c.at::<Gpu>().load::<Relaxed>() as u64;
    CpuCounts {
        rounds,
        bad: (2 * rounds).saturating_sub(total),
        timeouts: 0,
    }
}

/// The §4.4 hand-off (consumers `atom.release.add`, P `ld.acquire` until 2) on three threads,
/// `rounds` times with fresh variables. `bad` counts rounds where a value was not 42.
pub fn handoff_4_4(rounds: u64) -> CpuCounts {
    let mut counts = CpuCounts {
        rounds,
        ..Default::default()
    };
    let budget = Duration::from_secs(2);
    for _ in 0..rounds {
        let data = Data::new(0u32);
        let full = Strong::new(0u32);
        let count = Strong::new(0u32);
        let (mut v1, mut v2, mut ok) = (0, 0, false);
        std::thread::scope(|s| {
            let consumer = || {
                let t = Instant::now();
                while full.at::<Gpu>().load::<Acquire>() != 1 {
                    if t.elapsed() > budget {
                        return None;
                    }
                    std::hint::spin_loop();
                }
                // SAFETY: ordered after P's write by the acquire of full.
                let v = unsafe { data.read() };
                let _ = count.at::<Gpu>().fetch_add::<Release>(1);
                Some(v)
            };
            let c1 = s.spawn(consumer);
            let c2 = s.spawn(consumer);
            // P
            unsafe { data.write(42) };
            full.at::<Gpu>().store::<Release>(1);
            let t = Instant::now();
            while count.at::<Gpu>().load::<Acquire>() != 2 {
                if t.elapsed() > budget {
                    break;
                }
                std::hint::spin_loop();
            }
            if count.at::<Gpu>().load::<Acquire>() == 2 {
                // SAFETY: both consumers' reads happen-before (release/acquire on count).
                unsafe { data.write(43) };
                ok = true;
            }
            v1 = c1.join().unwrap().unwrap_or(0xdead);
            v2 = c2.join().unwrap().unwrap_or(0xdead);
        });
        if !ok || v1 == 0xdead || v2 == 0xdead {
            counts.timeouts += 1;
        } else if v1 != 42 || v2 != 42 {
            counts.bad += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_programs_never_fail_on_the_cpu() {
        // fence.sc forbids r1 = r2 = 0 (x86: mfence); the atomic counter loses nothing; the
        // hand-off always reads 42.
        assert_eq!(store_buffering(SbFence::Sc, 4 * BATCH as u64).bad, 0);
        let c = counter(true, 20_000);
        assert_eq!((c.bad, c.rounds), (0, 20_000));
        let h = handoff_4_4(50);
        assert_eq!((h.bad, h.timeouts, h.rounds), (0, 0, 50));
    }

    #[test]
    fn counts_are_consistent() {
        let c = counter(false, 10_000);
        assert!(
            c.bad < 20_000,
            "the last write keeps at least one increment: {c:?}"
        );
        let s = store_buffering(SbFence::None, 100);
        assert_eq!(s.rounds, BATCH as u64);
        assert!(s.bad <= s.rounds);
    }
}
