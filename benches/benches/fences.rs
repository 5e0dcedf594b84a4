//! Fence cost on the CPU, through `ptx-sync`'s host backend (`fence::<S, _>()` is
//! `core::sync::atomic::fence` with the same ordering; scope is erased on the host, so every case
//! uses `Gpu`). Seed §2.1: a store followed by a SeqCst fence is where a TSO machine (x86) pays
//! for draining the write buffer (`mfence` / a locked instruction); acquire/release/acq_rel fences
//! cost no instruction there.
//!
//! Groups: `single` (one thread) and `contended` (a second thread does relaxed `fetch_add` on the
//! same cache line as the measured thread's store/RMW target, all the time). Cases per group:
//!
//! | case | one iteration |
//! |---|---|
//! | `empty` | nothing (loop overhead) |
//! | `store_relaxed` | `store::<Relaxed>` — the **no-fence baseline** |
//! | `fence_{sc,acq_rel,acquire,release}` | the fence alone |
//! | `store+fence_*` | `store::<Relaxed>` then the fence |
//! | `rmw_relaxed`, `rmw_acq_rel` | `fetch_add::<Relaxed>` / `fetch_add::<AcqRel>` |
//!
//! After criterion's own report a summary prints, per group, the median ns/op over criterion's
//! samples, their min..max, and the ratio to the baseline; then why the GPU part is skipped (it
//! runs with `ptx-sync bench` on a machine with a driver). Short measurement times keep the run to
//! about a minute; pass criterion options after `--` to change them.

use criterion::{BenchmarkGroup, Criterion};
use criterion::measurement::WallTime;
use ptx_sync::{fence, AcqRel, Acquire, Gpu, Relaxed, Release, Sc, Strong};
use ptx_sync_benches::{gpu_driver, ratio_table, Recorder};
use std::cell::RefCell;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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

fn case<F: Fn(&Strong<u32>, u32)>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    rec: &RefCell<Recorder>,
    cell: &Strong<u32>,
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

fn group(c: &mut Criterion, rec: &RefCell<Recorder>, name: &str, cell: &Strong<u32>) {
    rec.borrow_mut().group = name.to_string();
    let mut g = c.benchmark_group(name);
    case(&mut g, rec, cell, "empty", |_, i| {
        black_box(i);
    });
    case(&mut g, rec, cell, "store_relaxed", |c, i| c.at::<Gpu>().store::<Relaxed>(i));
    case(&mut g, rec, cell, "fence_sc", |_, _| fence::<Sc, Gpu>());
    case(&mut g, rec, cell, "fence_acq_rel", |_, _| fence::<AcqRel, Gpu>());
    case(&mut g, rec, cell, "fence_acquire", |_, _| fence::<Acquire, Gpu>());
    case(&mut g, rec, cell, "fence_release", |_, _| fence::<Release, Gpu>());
    case(&mut g, rec, cell, "store+fence_sc", |c, i| {
        c.at::<Gpu>().store::<Relaxed>(i);
        fence::<Sc, Gpu>()
    });
    case(&mut g, rec, cell, "store+fence_acq_rel", |c, i| {
        c.at::<Gpu>().store::<Relaxed>(i);
        fence::<AcqRel, Gpu>()
    });
    case(&mut g, rec, cell, "store+fence_acquire", |c, i| {
        c.at::<Gpu>().store::<Relaxed>(i);
        fence::<Acquire, Gpu>()
    });
    case(&mut g, rec, cell, "store+fence_release", |c, i| {
        c.at::<Gpu>().store::<Relaxed>(i);
        fence::<Release, Gpu>()
    });
    case(&mut g, rec, cell, "rmw_relaxed", |c, i| {
        black_box(c.at::<Gpu>().fetch_add::<Relaxed>(i));
    });
    case(&mut g, rec, cell, "rmw_acq_rel", |c, i| {
        black_box(c.at::<Gpu>().fetch_add::<AcqRel>(i));
    });
    g.finish();
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
                    line.0.at::<Gpu>().fetch_add::<Relaxed>(1);
                }
                n += 64;
            }
            contender_ops.store(n, Ordering::Relaxed);
        });
        group(&mut c, &rec, "contended", &line.0);
        stop.store(true, Ordering::Relaxed);
    });
    let contended_secs = t0.elapsed().as_secs_f64();
    c.final_summary();

    let rec = rec.into_inner();
    println!("\n== fence cost on this CPU: ratios to the no-fence baseline ==");
    println!("cpu: {}", cpu_model());
    println!("{}", ratio_table(&rec, "single", &CASES, BASELINE, SAMPLES));
    println!("{}", ratio_table(&rec, "contended", &CASES, BASELINE, SAMPLES));
    println!(
        "contender: {:.1} M relaxed fetch_add/s on the shared line during the contended group \
         ({} hardware threads available)",
        contender_ops.load(Ordering::Relaxed) as f64 / contended_secs / 1e6,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("\n== GPU fence benches ==");
    match gpu_driver() {
        Err(why) => println!("skipped: {why}.\n  They run on a GPU machine with `ptx-sync bench` (kernels: host/kernels/src/bench.rs, driver: host/src/fencebench.rs)."),
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
