//! CPU runs: every program of the registry (`ptx_sync_programs`) on real `std` threads through
//! `ptx-sync`'s host backend (scope erased; `.relaxed` → `Relaxed`, `fence.sc` →
//! `fence(SeqCst)`, release/acquire as in C++) — the same role functions the GPU kernels and the
//! loom suite run.
//!
//! What they can and cannot show: x86-64 is TSO, so only the W→R relaxation of §2.1 (the store
//! buffer) is visible on it — store buffering shows `r1 = r2 = 0` without a fence and with
//! `fence.acq_rel`, never with `fence.sc` — and a read-increment-write loses increments on any
//! machine. Message passing never fails on x86; there the loom tests (`loom-tests/`) explore the
//! weak behaviours of the C++ model instead.
//!
//! The §5.1–§5.3 programs (`ptx_sync_programs::section5`, the source of the kernels `s51_*` …
//! `s53_*`) run too ([`run_section5`]): P and C on two threads over a `HostMem`; the host
//! backend copies at issue, so only a program that never hands the tile over at all could fail
//! here — the broken variants' races are the loom suite's (`loom-tests/tests/section5.rs`).
//! The §5.4 programs (`Section54`, kernels `s54_*`) run as one thread per CTA of a cluster of
//! two ([`run_section54`]).

use crate::registry::programs::{self, Class};
use ptx_sync::{Gpu, Relaxed, Strong};
use ptx_sync_programs::cells::Cells;
use ptx_sync_programs::section5::{HostMem, S54Host, S5Env, Section5, Section54};
use ptx_sync_programs::{deepep, Env, Litmus};
use std::time::{Duration, Instant};

/// The counts of a CPU run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuCounts {
    pub rounds: u64,
    /// Instances with an outcome the program's correct version forbids.
    pub bad: u64,
    /// Instances in which a role's wait ran out of its budget.
    pub timeouts: u64,
}

/// Instances per batch (the threads start once per batch and meet before every instance).
const BATCH: usize = 2048;

/// A role's [`Env`] on a CPU thread: waits bounded by `budget` of wall time (spinning, yielding
/// every 64 checks); a wait that runs out sets the role's bit in word 3, as on the GPU.
struct CpuEnv<'a> {
    cells: &'a Cells,
    role: u32,
    budget: Duration,
}

impl Env for CpuEnv<'_> {
    fn wait(&self, _what: &'static str, done: impl FnMut() -> bool) -> bool {
        let ok = bounded_spin(self.budget, done);
        if !ok {
            self.cells.mark_timeout(self.role);
        }
        ok
    }
}

/// Spins until `done()` (yielding every 64 checks); `false` once `budget` of wall time is spent.
fn bounded_spin(budget: Duration, mut done: impl FnMut() -> bool) -> bool {
    let t = Instant::now();
    let mut spins = 0u32;
    loop {
        if done() {
            return true;
        }
        spins += 1;
        if spins & 63 == 0 {
            if t.elapsed() > budget {
                return false;
            }
            std::thread::yield_now();
        }
        std::hint::spin_loop();
    }
}

/// Runs `T` on `T::SHAPE.roles()` threads, `rounds` instances (rounded up to whole batches of
/// up to `BATCH`), and classifies each instance's words with the host's table. The threads meet
/// at a spin rendezvous before every instance so that their accesses overlap (litmus7's "user"
/// synchronization; bounded: after 50 ms a thread gives up on overlapping that instance).
pub fn run<T: Litmus>(rounds: u64) -> CpuCounts {
    let batch = (rounds as usize).clamp(1, BATCH);
    let n = (rounds as usize).div_ceil(batch) * batch;
    let roles = T::SHAPE.roles();
    let p = programs::find(T::NAME).expect("every registry program is in the host's table");
    let mut counts = CpuCounts {
        rounds: n as u64,
        ..Default::default()
    };
    for _ in 0..n / batch {
        let cells: Vec<Cells> = (0..batch).map(|_| Cells::new()).collect();
        let arrive = Strong::new(0u32);
        std::thread::scope(|s| {
            for role in 0..roles {
                let (cells, arrive) = (&cells, &arrive);
                s.spawn(move || {
                    let a = arrive.at::<Gpu>();
                    for (k, c) in cells.iter().enumerate() {
                        let _ = a.fetch_add::<Relaxed>(1);
                        let target = roles * (k as u32 + 1);
                        let t = Instant::now();
                        let mut spins = 0u32;
                        while a.load::<Relaxed>() < target {
                            spins += 1;
                            if spins & 63 == 0 {
                                if t.elapsed() > Duration::from_millis(50) {
                                    break;
                                }
                                std::thread::yield_now();
                            }
                            std::hint::spin_loop();
                        }
                        let e = CpuEnv {
                            cells: c,
                            role,
                            budget: Duration::from_secs(2),
                        };
                        T::role(role, &e, c);
                    }
                });
            }
        });
        for c in &cells {
            match p.classify(&c.words(), None).class {
                Class::Ok => {}
                Class::Forbidden => counts.bad += 1,
                Class::Timeout => counts.timeouts += 1,
            }
        }
    }
    counts
}

// ---- DeepEP's barrier: `ptx_sync_programs::deepep::rank`, one std thread per rank ----------

/// Ranks of a CPU instance of DeepEP's barrier.
const DEEPEP_RANKS: usize = 4;

/// The `DEEPEP_RANKS²` entries of one CPU instance.
struct DeepepRows([Strong<i32>; DEEPEP_RANKS * DEEPEP_RANKS]);

impl deepep::Fifo for DeepepRows {
    fn entry(&self, r: usize, t: usize) -> &Strong<i32> {
        &self.0[r * DEEPEP_RANKS + t]
    }
}

/// A rank's wait on a CPU thread: [`bounded_spin`] with its budget.
struct DeepepWait(Duration);

impl Env for DeepepWait {
    fn wait(&self, _what: &'static str, done: impl FnMut() -> bool) -> bool {
        bounded_spin(self.0, done)
    }
}

/// DeepEP's barrier (`ptx_sync_programs::deepep`, the GPU kernel's source) on `DEEPEP_RANKS`
/// threads, `rounds` instances; with `missing`, one rank per instance (in turn) never arrives
/// and the others' waits run out after 2 ms. Each rank's output word is the kernel's
/// (`deepep::RAN`, the lanes still pending once the ranks are joined), classified with the
/// host's table.
pub fn run_deepep(rounds: u64, missing: bool) -> CpuCounts {
    let name = deepep::PROGRAMS[missing as usize].name;
    let p = programs::find(name).expect("both DeepEP programs are in the host's table");
    let budget = Duration::from_millis(if missing { 2 } else { 2000 });
    let mut counts = CpuCounts {
        rounds,
        ..Default::default()
    };
    for i in 0..rounds {
        let rows = DeepepRows(std::array::from_fn(|_| Strong::new(0)));
        let gone = missing.then_some((i % DEEPEP_RANKS as u64) as usize);
        let c = deepep::AS_WRITTEN;
        let all = 0..DEEPEP_RANKS;
        let passed: Vec<Option<bool>> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..DEEPEP_RANKS)
                .map(|r| {
                    let (rows, all) = (&rows, all.clone());
                    s.spawn(move || {
                        (gone != Some(r))
                            .then(|| deepep::rank(c, rows, &DeepepWait(budget), r, all, true))
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        // A rank whose wait ran out names the lanes still pending once every present rank is
        // done (on the GPU each lane names itself as its own wait runs out); none pending: the
        // wait ran out although every rank arrived, and it names them all.
        let words: Vec<u32> = passed
            .iter()
            .enumerate()
            .map(|(r, p)| match p {
                None => 0,
                Some(true) => deepep::RAN,
                Some(false) => match deepep::pending(c, &rows, r, all.clone()) {
                    0 => deepep::RAN | ((1 << DEEPEP_RANKS) - 1),
                    m => deepep::RAN | m,
                },
            })
            .collect();
        match p.classify(&words, gone.map(|g| g as u32)).class {
            Class::Ok => {}
            Class::Forbidden => counts.bad += 1,
            Class::Timeout => counts.timeouts += 1,
        }
    }
    counts
}

/// A §5 role's [`S5Env`] on a CPU thread: `try_wait.parity` spun for at most `budget` of wall
/// time.
struct CpuS5Env {
    budget: Duration,
}

impl S5Env for CpuS5Env {
    fn wait_phase(&self, b: &ptx_sync::Mbarrier, phase: ptx_sync::Phase, _bit: u32) -> bool {
        let t = Instant::now();
        loop {
            if b.try_wait_parity::<ptx_sync::Acquire, ptx_sync::Cta>(phase) {
                return true;
            }
            let waited = t.elapsed();
            if waited > self.budget {
                return false;
            }
            // A correct round's wait ends in microseconds; past a millisecond the arrival is
            // late or lost (`s54_init_bug`: nearly every round), and the rest of the budget is
            // slept out in short steps instead of spun out on a core.
            if waited > Duration::from_millis(1) {
                std::thread::sleep(Duration::from_micros(200));
            } else {
                std::thread::yield_now();
            }
        }
    }
    fn wait_phase_cluster(&self, b: &ptx_sync::Mbarrier, phase: ptx_sync::Phase, bit: u32) -> bool {
        // The host backend erases scopes: the `.cluster` wait is the same test.
        self.wait_phase(b, phase, bit)
    }
}

/// Runs the §5 program `T` `rounds` times: each round a fresh `HostMem`, the setup on this thread,
/// P and C on two `std` threads (one lane each); a round whose output differs from the source is
/// `bad`, one whose wait ran out a timeout.
pub fn run_section5<T: Section5>(rounds: u64) -> CpuCounts {
    let mut counts = CpuCounts {
        rounds,
        ..Default::default()
    };
    for _ in 0..rounds {
        let m = HostMem::new();
        T::setup(&m, 0, 2);
        let ok = std::thread::scope(|s| {
            let hs: Vec<_> = (0..2u32)
                .map(|r| {
                    let m = &m;
                    s.spawn(move || {
                        let e = CpuS5Env {
                            budget: Duration::from_secs(2),
                        };
                        T::role(r, 0, 1, &e, m);
                    })
                })
                .collect();
            hs.into_iter().all(|h| h.join().is_ok())
        });
        if !ok {
            counts.timeouts += 1;
        } else if !m.correct(T::BLOCKS) {
            counts.bad += 1;
        }
    }
    counts
}

macro_rules! by_name {
    ($($kernel:ident: $T:path),* $(,)?) => {
        /// [`run`] for the registry program named `name`, [`run_deepep`] for DeepEP's,
        /// [`run_section5`] / [`run_section54`] for a §5 program; `None` if it is none of them.
        pub fn run_named(name: &str, rounds: u64) -> Option<CpuCounts> {
            $(if name == <$T as Litmus>::NAME {
                return Some(run::<$T>(rounds));
            })*
            if let Some(d) = deepep::PROGRAMS.iter().find(|d| d.name == name) {
                return Some(run_deepep(rounds, d.missing));
            }
            run_section5_named(name, rounds).or_else(|| run_section54_named(name, rounds))
        }
    };
}
ptx_sync_programs::for_each_litmus!(by_name);

macro_rules! s5_by_name {
    ($($kernel:ident: $T:path),* $(,)?) => {
        /// [`run_section5`] for the §5 program named `name`.
        fn run_section5_named(name: &str, rounds: u64) -> Option<CpuCounts> {
            $(if name == <$T as Section5>::NAME {
                return Some(run_section5::<$T>(rounds));
            })*
            None
        }
    };
}
ptx_sync_programs::for_each_section5!(s5_by_name);

/// How long a §5.4 CPU wait spins before it reports a timeout: a correct round's waits end in
/// microseconds (the peer CTA is another running thread); `s54_init_bug`'s lost arrival makes a
/// wait of nearly every round time out, so this bound is what a bad round costs.
const S54_WAIT: Duration = Duration::from_millis(500);

/// Runs the §5.4 program `T` `rounds` times: each round a fresh `S54Host` (a cluster of two
/// CTAs, each with its own tile and barriers), one `std` thread per CTA running its P and C
/// (`Section54::cta`); a round whose output differs from the source in either CTA is `bad`,
/// one whose wait ran out a timeout.
pub fn run_section54<T: Section54>(rounds: u64) -> CpuCounts {
    let mut counts = CpuCounts {
        rounds,
        ..Default::default()
    };
    for _ in 0..rounds {
        let h = S54Host::new();
        let e = CpuS5Env { budget: S54_WAIT };
        let ok = std::thread::scope(|s| {
            let hs: Vec<_> = (0..2u32)
                .map(|r| {
                    let (h, e) = (&h, &e);
                    s.spawn(move || T::cta(e, &h.cta(r)))
                })
                .collect();
            hs.into_iter().all(|h| h.join().is_ok())
        });
        if !ok {
            counts.timeouts += 1;
        } else if !h.correct(T::BLOCKS) {
            counts.bad += 1;
        }
    }
    counts
}

macro_rules! s54_by_name {
    ($($kernel:ident: $T:path),* $(,)?) => {
        /// [`run_section54`] for the §5.4 program named `name`.
        fn run_section54_named(name: &str, rounds: u64) -> Option<CpuCounts> {
            $(if name == <$T as Section54>::NAME {
                return Some(run_section54::<$T>(rounds));
            })*
            None
        }
    };
}
ptx_sync_programs::for_each_section54!(s54_by_name);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_programs_never_fail_on_the_cpu() {
        // Every correct program of the registry, on real threads: no forbidden outcome, no
        // timeout (fence.sc forbids r1 = r2 = 0 — x86: mfence; the atomic counter loses nothing;
        // the hand-offs always read 42).
        let mut ran = 0;
        for p in programs::PROGRAMS.iter().filter(|p| p.correct) {
            if let Some(c) = run_named(p.name, 256) {
                assert_eq!((c.bad, c.timeouts, c.rounds), (0, 0, 256), "{}", p.name);
                ran += 1;
            }
        }
        assert!(ran >= 10, "only {ran} correct programs ran");
    }

    #[test]
    fn counts_are_consistent() {
        let c = run_named("count_rmw", 1000).unwrap();
        assert_eq!(c.rounds, 1000);
        assert!(c.bad <= c.rounds, "{c:?}");
        let s = run_named("sb_plain", 3000).unwrap();
        assert_eq!(s.rounds, 2 * BATCH as u64, "rounded up to whole batches");
        assert!(s.bad <= s.rounds);
        assert!(run_named("no_such_program", 10).is_none());
        let c = run_named("s54_cluster_fix", 10).expect("§5.4 runs on the CPU");
        assert_eq!((c.rounds, c.bad, c.timeouts), (10, 0, 0));
    }

    #[test]
    fn section5_programs_copy_the_source_on_the_cpu() {
        // Every §5.1–§5.3 program of `ptx_sync_programs::section5` on two threads: the fixed
        // ones must copy the source every round (the host copies at issue, so the broken ones
        // do too: their races are the loom suite's).
        for name in [
            "s51_cp_async_fix",
            "s52_tma_fix",
            "s53_reuse_fix",
            "s51_cp_async_bug",
            "s52_tma_bug",
            "s53_reuse_bug",
        ] {
            let c = run_named(name, 50).expect(name);
            assert_eq!((c.rounds, c.bad, c.timeouts), (50, 0, 0), "{name}");
        }
    }

    #[test]
    fn deepep_barrier_on_cpu_threads() {
        // Every rank passes when all arrive; with one rank missing, the others time out and
        // name it (the classifier's `Ok`), never pass.
        assert_eq!(
            run_named("deepep_barrier", 64),
            Some(CpuCounts {
                rounds: 64,
                bad: 0,
                timeouts: 0
            })
        );
        assert_eq!(
            run_deepep(16, true),
            CpuCounts {
                rounds: 16,
                bad: 0,
                timeouts: 0
            }
        );
    }
}
