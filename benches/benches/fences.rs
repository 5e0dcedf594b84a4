//! Fence cost on the CPU, through `ptx-sync`'s host backend (`fence::<S, _>()` is
//! `core::sync::atomic::fence` with the same ordering; scope is erased on the host, so every case
//! uses `Gpu`). Seed §2.1: a store followed by a SeqCst fence is where a TSO machine (x86) pays
//! for draining the write buffer (a locked instruction); acquire/release/acq_rel fences cost no
//! instruction there.
//!
//! Groups: `single` (one thread), `contended` (a second thread does relaxed `fetch_add` on the
//! same cache line as the measured thread's store/RMW target, all the time), and
//! `single_core_atomic` (the `single` cases written with `core::sync::atomic` directly, to separate
//! the cost of the ordering from the cost of the host backend's calls). Cases per group:
//!
//! | case | one iteration |
//! |---|---|
//! | `empty` | `black_box(i)` (loop overhead) |
//! | `store_relaxed` | `store::<Relaxed>` — the **no-fence baseline** of the ratios |
//! | `fence_{sc,acq_rel,acquire,release}` | `black_box(i)` then the fence |
//! | `store+fence_*` | `store::<Relaxed>` then the fence |
//! | `rmw_relaxed`, `rmw_acq_rel` | `fetch_add::<Relaxed>` / `fetch_add::<AcqRel>` |
//!
//! After criterion's own report a summary prints, per group, the median ns/op over criterion's
//! samples, their min..max, and the ratio to the baseline; then why the GPU part is skipped (it
//! runs with `ptx-sync bench` on a machine with a driver). Short measurement times keep the run
//! near a minute; criterion options after `--` override them.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};
use ptx_sync::{fence, AcqRel, Acquire, Gpu, Relaxed, Release, Sc, Strong};
use ptx_sync_benches::{gpu_driver, ratio_table, Recorder};
use std::cell::RefCell;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const SAMPLES: usize = 20;

/// A cell alone in its cache line (the contender hits this line, nothing else).
#[repr(align(128))]
struct Line(Strong<u32>);

const CASES: [&str; 12] = [
    "empty",
    "store_relaxed",
    "fence_sc",
    "fence_acq_rel",
    "fence_acquire",
    "fence_release",
    "store+fence_sc",
    "store+fence_acq_rel",
    "store+fence_acquire",
    "store+fence_release",
    "rmw_relaxed",
    "rmw_acq_rel",
];
const BASELINE: &str = "store_relaxed";

fn case<C, F: Fn(&C, u32)>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    rec: &RefCell<Recorder>,
    cell: &C,
    name: &str,
    f: F,
) {
    let id = format!("{}/{name}", rec.borrow().group);
    g.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let t = Instant::now();
            for i in 0..iters {
                f(cell, i as u32);
            }
            let d = t.elapsed();
            rec.borrow_mut().push(&id, iters, d);
            d
        })
    });
}

// In every case `black_box(i)` stands between two iterations' fences: without an access between
// them LLVM merges a loop of identical fences into one fence and the loop disappears.

/// Opens the group `name` (the recorder files its cases under it) with the baseline case both
/// groups start with, `empty`: the loop and `black_box(i)` alone.
fn open<'c, C>(
    c: &'c mut Criterion,
    rec: &RefCell<Recorder>,
    name: &str,
    cell: &C,
) -> BenchmarkGroup<'c, WallTime> {
    rec.borrow_mut().group = name.to_string();
    let mut grp = c.benchmark_group(name);
    case(&mut grp, rec, cell, "empty", |_, i| {
        black_box(i);
    });
    grp
}

/// The cases through ptx-sync's host API.
fn group(c: &mut Criterion, rec: &RefCell<Recorder>, name: &str, cell: &Strong<u32>) {
    let mut grp = open(c, rec, name, cell);
    let g = &mut grp;
    case(g, rec, cell, "store_relaxed", |c, i| {
        c.at::<Gpu>().store::<Relaxed>(black_box(i))
    });
    macro_rules! fences {
        ($($S:ident $alone:literal $after:literal),*) => {$(
            case(g, rec, cell, $alone, |_, i| {
                black_box(i);
                fence::<$S, Gpu>()
            });
            case(g, rec, cell, $after, |c, i| {
                c.at::<Gpu>().store::<Relaxed>(black_box(i));
                fence::<$S, Gpu>()
            });
        )*};
    }
    fences!(Sc "fence_sc" "store+fence_sc", AcqRel "fence_acq_rel" "store+fence_acq_rel",
            Acquire "fence_acquire" "store+fence_acquire", Release "fence_release" "store+fence_release");
    case(g, rec, cell, "rmw_relaxed", |c, i| {
        black_box(c.at::<Gpu>().fetch_add::<Relaxed>(black_box(i)));
    });
    case(g, rec, cell, "rmw_acq_rel", |c, i| {
        black_box(c.at::<Gpu>().fetch_add::<AcqRel>(black_box(i)));
    });
    grp.finish();
}

/// The same cases on `core::sync::atomic` directly: what the orderings cost without ptx-sync's
/// host backend in between (its per-scalar operations are out-of-line calls that switch on the
/// ordering at run time; fences are inlined).
fn group_core(c: &mut Criterion, rec: &RefCell<Recorder>, name: &str, cell: &AtomicU32) {
    use std::sync::atomic::{fence as cfence, Ordering::*};
    let mut grp = open(c, rec, name, cell);
    let g = &mut grp;
    case(g, rec, cell, "store_relaxed", |c, i| {
        c.store(black_box(i), Relaxed)
    });
    macro_rules! fences {
        ($($O:ident $alone:literal $after:literal),*) => {$(
            case(g, rec, cell, $alone, |_, i| {
                black_box(i);
                cfence($O)
            });
            case(g, rec, cell, $after, |c, i| {
                c.store(black_box(i), Relaxed);
                cfence($O)
            });
        )*};
    }
    fences!(SeqCst "fence_sc" "store+fence_sc", AcqRel "fence_acq_rel" "store+fence_acq_rel",
            Acquire "fence_acquire" "store+fence_acquire", Release "fence_release" "store+fence_release");
    case(g, rec, cell, "rmw_relaxed", |c, i| {
        black_box(c.fetch_add(black_box(i), Relaxed));
    });
    case(g, rec, cell, "rmw_acq_rel", |c, i| {
        black_box(c.fetch_add(black_box(i), AcqRel));
    });
    grp.finish();
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1000))
        .sample_size(SAMPLES)
        .configure_from_args();
    let rec = RefCell::new(Recorder::default());

    let line = Line(Strong::new(0));
    group(&mut c, &rec, "single", &line.0);

    // The contender: relaxed RMWs on the same line until told to stop.
    let stop = AtomicBool::new(false);
    let contender_ops = AtomicU64::new(0);
    let t0 = Instant::now();
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                for _ in 0..64 {
                    let _ = line.0.at::<Gpu>().fetch_add::<Relaxed>(1);
                }
                n += 64;
            }
            contender_ops.store(n, Ordering::Relaxed);
        });
        group(&mut c, &rec, "contended", &line.0);
        stop.store(true, Ordering::Relaxed);
    });
    let contended_secs = t0.elapsed().as_secs_f64();
    #[repr(align(128))]
    struct CoreLine(AtomicU32);
    let core_line = CoreLine(AtomicU32::new(0));
    group_core(&mut c, &rec, "single_core_atomic", &core_line.0);
    c.final_summary();

    let rec = rec.into_inner();
    println!("\n== fence cost on this CPU: ratios to the no-fence baseline ==");
    println!("cpu: {}", cpu_model());
    println!("{}", ratio_table(&rec, "single", &CASES, BASELINE, SAMPLES));
    println!(
        "{}",
        ratio_table(&rec, "contended", &CASES, BASELINE, SAMPLES)
    );
    println!(
        "{}",
        ratio_table(&rec, "single_core_atomic", &CASES, BASELINE, SAMPLES)
    );
    println!(
        "contender: {:.1} M relaxed fetch_add/s on the shared line during the contended group \
         ({} hardware threads available)",
        contender_ops.load(Ordering::Relaxed) as f64 / contended_secs / 1e6,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("\n== GPU fence benches ==");
    match gpu_driver() {
        Err(why) => println!("skipped: {why}.\n  They run on a GPU machine with `ptx-sync bench` (kernels: host/kernels/src/bench.rs, driver: host/src/exec/fencebench.rs)."),
        Ok(d) => println!("driver found ({d}).\n  The GPU benches are not part of this CPU bench: run `ptx-sync bench` (host crate)."),
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}
