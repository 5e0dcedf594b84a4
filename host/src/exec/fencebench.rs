//! GPU fence-cost benchmark driver (issue 6): cycles per `fence.{sem}.{scope}` on the device.
//!
//! The kernels are `host/kernels/src/bench.rs` (`bench_fence_<sem>_<scope>` and
//! `bench_fence_none`, all `(out: *mut u64, buf: *mut u32, hot: *mut u32, done: *mut u32,
//! iters: u32, stores: u32)`). This module plans the launches, turns the raw `%clock64`
//! differences into cycles per fence, and renders the table of `docs/fence-costs.md`. It owns no
//! GPU handle: the host runner implements [`Launcher`] with cudarc (load `kernels.ptx`, allocate
//! the buffers, launch, time with events, copy `out` back), so this file builds and is tested on
//! a machine without a GPU.
//!
//! Method, per (fence, situation): `reps` launches of the fence kernel and of `bench_fence_none`
//! with the same configuration, alternating; per launch the mean over CTA 0's warps of their
//! cycle counts; cycles per fence = (fence − none) / `iters`, per rep; the row reports the median
//! over reps and the min..max. The end-to-end time of each launch (events) is reported too, as
//! ns per fence per thread: (fence − none) / `iters`.

use std::fmt::Write as _;

/// Fence semantics in the kernel names' spelling, in the table's order.
pub const SEMS: [&str; 4] = ["sc", "acq_rel", "release", "acquire"];
/// Scopes in the kernel names' spelling.
pub const SCOPES: [&str; 4] = ["cta", "cluster", "gpu", "sys"];
/// The loop without a fence.
pub const NONE_KERNEL: &str = "bench_fence_none";

/// The kernel of `fence.{sem}.{scope}`.
pub fn kernel_name(sem: &str, scope: &str) -> String {
    format!("bench_fence_{sem}_{scope}")
}

/// What else is going on while CTA 0 fences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Situation {
    /// No outstanding memory operations: `stores = 0`, one CTA.
    Idle,
    /// `n` weak global stores before every fence, one CTA.
    AfterStores(u32),
    /// `ctas - 1` other CTAs hammer one line with `atom.add` (and `stores` weak stores each
    /// round) while CTA 0 measures with `stores` stores before each fence.
    Contended {
        /// CTAs in the grid (at least 2: CTA 0 measures, the others contend).
        ctas: u32,
        /// Weak stores per round (and before each measured fence).
        stores: u32,
    },
}

impl Situation {
    /// `(grid, stores)` of the launch.
    pub fn grid_and_stores(self) -> (u32, u32) {
        match self {
            Situation::Idle => (1, 0),
            Situation::AfterStores(n) => (1, n),
            Situation::Contended { ctas, stores } => (ctas.max(2), stores),
        }
    }

    /// A short label for the table.
    pub fn label(self) -> String {
        match self {
            Situation::Idle => "idle".into(),
            Situation::AfterStores(n) => format!("after {n} stores"),
            Situation::Contended { ctas, stores } => {
                format!(
                    "contended ({} other CTAs, {stores} stores)",
                    ctas.max(2) - 1
                )
            }
        }
    }
}

/// One launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Kernel name in the module.
    pub kernel: String,
    /// CTAs (1-D grid).
    pub grid: u32,
    /// Threads per CTA (1-D).
    pub block: u32,
    /// Rounds of the measured loop.
    pub iters: u32,
    /// Weak stores before each fence (and per contender round).
    pub stores: u32,
}

/// What one launch returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// `out[w]`: `%clock64` cycles of warp `w` of CTA 0 around its loop (`block / 32` values).
    pub warp_cycles: Vec<u64>,
    /// Event-timed duration of the launch, milliseconds.
    pub elapsed_ms: f64,
}

/// Runs the bench kernels. Implemented by the host runner on top of cudarc: load the module with
/// the `bench_fence_*` kernels, allocate `out` (`block / 32` × u64, zeroed), `buf`
/// (`grid × block × max(stores, 1)` × u32), `hot` and `done` (one u32 each, zeroed before every
/// launch), launch `(grid, 1, 1) × (block, 1, 1)` with the arguments in the kernel's order,
/// record events around it, synchronize, copy `out` back.
pub trait Launcher {
    /// Performs one launch.
    fn launch(&mut self, l: &Launch) -> Result<Measured, String>;
    /// The device, for the report (e.g. `"NVIDIA H200, sm_90, driver 580.xx, SM clock 1980 MHz"`).
    fn device(&self) -> String;
}

/// Settings of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Threads per CTA (a multiple of 32).
    pub block: u32,
    /// Rounds per launch.
    pub iters: u32,
    /// Launch pairs (fence, none) per row.
    pub reps: usize,
    /// Unmeasured launch pairs before the reps of every row.
    pub warmup: usize,
    /// The situations, in order.
    pub situations: Vec<Situation>,
}

impl Default for Config {
    /// One warp, 1000 rounds, 1 warm-up pair and 7 measured pairs per row; idle, after 1/8/32 stores, and contended by 131
    /// other CTAs (one per remaining SM of an H200) doing 8 stores a round.
    fn default() -> Self {
        Config {
            block: 32,
            iters: 1000,
            reps: 7,
            warmup: 1,
            situations: vec![
                Situation::Idle,
                Situation::AfterStores(1),
                Situation::AfterStores(8),
                Situation::AfterStores(32),
                Situation::Contended {
                    ctas: 132,
                    stores: 8,
                },
            ],
        }
    }
}

/// One row of the result.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchRow {
    /// `"fence.sc.gpu"`.
    pub fence: String,
    /// [`Situation::label`].
    pub situation: String,
    /// Median over reps of cycles per fence (clock64, fence − none).
    pub cycles: f64,
    /// Min and max over reps.
    pub cycles_range: (f64, f64),
    /// Median over reps of end-to-end ns per fence (events, fence − none).
    pub ns_e2e: f64,
    /// Grid and block of the launches.
    pub grid: u32,
    /// Threads per CTA.
    pub block: u32,
}

fn mean_cycles(m: &Measured) -> Result<f64, String> {
    if m.warp_cycles.is_empty() {
        return Err("a launch returned no warp cycles".into());
    }
    Ok(m.warp_cycles.iter().map(|&c| c as f64).sum::<f64>() / m.warp_cycles.len() as f64)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Measures every fence in every situation of `cfg`.
pub fn measure(l: &mut dyn Launcher, cfg: &Config) -> Result<Vec<BenchRow>, String> {
    if cfg.block == 0 || cfg.block / 32 * 32 != cfg.block || cfg.iters == 0 || cfg.reps == 0 {
        return Err(format!(
            "bad config {cfg:?}: block must be a positive multiple of 32, iters and reps > 0"
        ));
    }
    let mut rows = Vec::new();
    for &sit in &cfg.situations {
        let (grid, stores) = sit.grid_and_stores();
        let launch = |kernel: String| Launch {
            kernel,
            grid,
            block: cfg.block,
            iters: cfg.iters,
            stores,
        };
        for sem in SEMS {
            for scope in SCOPES {
                // Warm-up pair, not measured (instruction cache, first-touch of the buffers).
                for _ in 0..cfg.warmup {
                    l.launch(&launch(kernel_name(sem, scope)))?;
                    l.launch(&launch(NONE_KERNEL.to_string()))?;
                }
                let (mut cyc, mut ns) = (Vec::new(), Vec::new());
                for _ in 0..cfg.reps {
                    let f = l.launch(&launch(kernel_name(sem, scope)))?;
                    let z = l.launch(&launch(NONE_KERNEL.to_string()))?;
                    cyc.push((mean_cycles(&f)? - mean_cycles(&z)?) / cfg.iters as f64);
                    ns.push((f.elapsed_ms - z.elapsed_ms) * 1e6 / cfg.iters as f64);
                }
                let range = (
                    cyc.iter().copied().fold(f64::INFINITY, f64::min),
                    cyc.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                );
                rows.push(BenchRow {
                    fence: format!("fence.{sem}.{scope}"),
                    situation: sit.label(),
                    cycles: median(&mut cyc),
                    cycles_range: range,
                    ns_e2e: median(&mut ns),
                    grid,
                    block: cfg.block,
                });
            }
        }
    }
    Ok(rows)
}

/// Markdown: one table per situation, `| fence | cycles/fence | min..max | ×acq_rel | ns e2e |`,
/// where ×acq_rel divides by `fence.acq_rel` at the same scope and situation.
pub fn render(device: &str, cfg: &Config, rows: &[BenchRow]) -> String {
    let mut s = format!(
        "Device: {device}. Clock: `%clock64` (SM cycles). CTA 0 measures with {} threads ({} warps), \
         {} rounds per launch, {} unmeasured warm-up pair(s), then {} launch pairs per row \
         (median, min..max over them; end-to-end: events immediately around each launch).\n",
        cfg.block,
        cfg.block / 32,
        cfg.iters,
        cfg.warmup,
        cfg.reps
    );
    let mut seen: Vec<&str> = Vec::new();
    for r in rows {
        if seen.contains(&r.situation.as_str()) {
            continue;
        }
        seen.push(&r.situation);
        let _ = write!(
            s,
            "\n**{}** (grid {}, block {})\n\n| fence | cycles/fence | min..max | × acq_rel same scope | ns/fence end-to-end |\n|---|---|---|---|---|\n",
            r.situation, r.grid, r.block
        );
        for x in rows.iter().filter(|x| x.situation == r.situation) {
            let scope = x.fence.rsplit('.').next().unwrap_or("");
            let ar = rows
                .iter()
                .find(|y| y.situation == x.situation && y.fence == format!("fence.acq_rel.{scope}"))
                .map(|y| y.cycles)
                .filter(|c| *c > 0.0);
            let ratio = ar.map_or("-".into(), |a| format!("{:.2}", x.cycles / a));
            let _ = writeln!(
                s,
                "| `{}` | {:.1} | {:.1}..{:.1} | {ratio} | {:.1} |",
                x.fence, x.cycles, x.cycles_range.0, x.cycles_range.1, x.ns_e2e
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake device: `none` costs 10 cycles a round, a fence adds `cost(kernel)` cycles a round
    /// plus 2 per store; each launch's event time is 1 ns per cycle.
    struct Fake {
        launches: Vec<Launch>,
    }

    fn cost(kernel: &str) -> u64 {
        match kernel {
            NONE_KERNEL => 0,
            k if k.starts_with("bench_fence_sc_") => 400,
            k if k.starts_with("bench_fence_acq_rel_") => 200,
            _ => 100,
        }
    }

    impl Launcher for Fake {
        fn launch(&mut self, l: &Launch) -> Result<Measured, String> {
            self.launches.push(l.clone());
            let per_round = 10
                + cost(&l.kernel)
                + if cost(&l.kernel) > 0 {
                    2 * l.stores as u64
                } else {
                    0
                };
            let c = per_round * l.iters as u64;
            Ok(Measured {
                warp_cycles: vec![c; (l.block / 32) as usize],
                elapsed_ms: c as f64 * 1e-6,
            })
        }
        fn device(&self) -> String {
            "fake".into()
        }
    }

    #[test]
    fn subtracts_the_empty_loop_per_round() {
        let mut f = Fake { launches: vec![] };
        let cfg = Config {
            block: 64,
            iters: 100,
            reps: 3,
            warmup: 1,
            situations: vec![Situation::Idle, Situation::AfterStores(8)],
        };
        let rows = measure(&mut f, &cfg).unwrap();
        assert_eq!(rows.len(), 2 * 16);
        // (1 warm-up + 3 measured) pairs per row.
        assert_eq!(f.launches.len(), 2 * 16 * (1 + 3) * 2);
        let get = |fe: &str, sit: &str| {
            rows.iter()
                .find(|r| r.fence == fe && r.situation == sit)
                .unwrap()
        };
        assert_eq!(get("fence.sc.gpu", "idle").cycles, 400.0);
        assert_eq!(get("fence.acq_rel.cta", "idle").cycles, 200.0);
        assert_eq!(get("fence.sc.gpu", "after 8 stores").cycles, 416.0);
        assert_eq!(get("fence.sc.gpu", "after 8 stores").ns_e2e, 416.0);
        assert_eq!(
            get("fence.release.sys", "idle").cycles_range,
            (100.0, 100.0)
        );
        let md = render(&f.device(), &cfg, &rows);
        assert!(
            md.contains("| `fence.sc.gpu` | 400.0 | 400.0..400.0 | 2.00 | 400.0 |"),
            "{md}"
        );
        assert!(md.contains("**after 8 stores** (grid 1, block 64)"), "{md}");
    }

    #[test]
    fn contention_launches_more_ctas_and_rejects_bad_configs() {
        assert_eq!(
            Situation::Contended {
                ctas: 132,
                stores: 8
            }
            .grid_and_stores(),
            (132, 8)
        );
        assert_eq!(
            Situation::Contended { ctas: 0, stores: 0 }
                .grid_and_stores()
                .0,
            2
        );
        let mut f = Fake { launches: vec![] };
        let bad = Config {
            block: 48,
            ..Config::default()
        };
        assert!(measure(&mut f, &bad).is_err());
        assert!(f.launches.is_empty());
    }
}
