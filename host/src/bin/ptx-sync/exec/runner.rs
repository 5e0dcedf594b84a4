//! Runs a program on the GPU: placement, launches, outcome histogram.
//!
//! Techniques (Alglave et al. 2015, "GPU concurrency: weak behaviours and programming
//! assumptions"; Levine et al. 2023, "MC Mutants"): many instances per launch, the roles of an
//! instance in different CTAs at random thread positions (redrawn every launch), instance
//! variables at randomly permuted locations `stride` words apart, memory stress from CTAs of its
//! own (a random half of the grid, redrawn every launch) on the words of the test's own cache
//! lines that are not variables, a start barrier per instance, and (MP) the consumer's L1 warmed
//! with `data`. Every device wait is bounded by `budget_ns` of `%globaltimer`; start-barrier and
//! stress timeouts are counted and reported.

use crate::analysis::hist::{Histogram, Report};
use crate::gpu::{Gpu, GpuError};
use crate::registry::programs::{Kind, Program};
use ptx_sync_host::cuda::LaunchConfig;
use std::time::{Duration, Instant};

/// The kernels' parameter structs: declared once in `ptx-sync-abi`, which the kernels' signatures
/// are tied to; checked field by field against the PTX before each launch.
pub use ptx_sync_abi::{DeepepParams, LitmusParams, S5Params};

/// Output words per litmus instance (`litmus::OUT_WORDS`).
pub const OUT_WORDS: usize = 4;
/// Words of `sync` before the per-instance start barriers (`litmus::SYNC_HEAD`); the per-instance
/// done counts follow the start barriers.
pub const SYNC_HEAD: usize = 4;

/// How to run.
#[derive(Clone, Debug)]
pub struct RunCfg {
    /// Launches; `None`: enough for the program's default rounds.
    pub launches: Option<u64>,
    pub threads_per_block: u32,
    /// Share of the grid's threads that are testers (the rest stress).
    pub tester_share: f64,
    /// Words between two variables (32 = one 128-byte line each).
    pub stride: u32,
    pub stress: bool,
    pub budget: Duration,
    pub seed: u64,
    pub progress: bool,
}

impl Default for RunCfg {
    fn default() -> Self {
        RunCfg {
            launches: None,
            threads_per_block: 256,
            tester_share: 0.5,
            stride: 32,
            stress: true,
            budget: Duration::from_millis(5),
            seed: 0x5eed_2024,
            progress: true,
        }
    }
}

/// xorshift64* — a small deterministic PRNG (no dependency).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() >> 32) * n) >> 32
    }
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

/// Slot of a thread that neither tests nor stresses.
pub const IDLE: u32 = u32::MAX - 1;
/// Slot of a stress thread.
pub const STRESS: u32 = u32::MAX;

/// Random placement with stress in CTAs of its own: `stress_ctas` random CTAs get [`STRESS`] in
/// every thread (or [`IDLE`] without `stress`); the instances' roles go to random threads of the
/// other CTAs, the roles of one instance in pairwise different CTAs; the rest of those CTAs is
/// [`IDLE`].
pub fn place_split(
    rng: &mut Rng,
    blocks: u32,
    tpb: u32,
    roles: u32,
    instances: u32,
    stress_ctas: u32,
    stress: bool,
) -> Vec<u32> {
    let mut ctas: Vec<u32> = (0..blocks).collect();
    rng.shuffle(&mut ctas);
    let stress_ctas = stress_ctas.min(blocks.saturating_sub(roles));
    let mut is_stress = vec![false; blocks as usize];
    for &c in &ctas[..stress_ctas as usize] {
        is_stress[c as usize] = true;
    }
    let candidates: Vec<u32> = (0..blocks * tpb)
        .filter(|t| !is_stress[(t / tpb) as usize])
        .collect();
    let mut slots = place_among(rng, candidates, blocks * tpb, tpb, roles, instances);
    for (t, s) in slots.iter_mut().enumerate() {
        if *s == u32::MAX {
            *s = if is_stress[t / tpb as usize] && stress {
                STRESS
            } else {
                IDLE
            };
        }
    }
    slots
}

/// Random placement: `slots[thread] = instance * roles + role` or `u32::MAX` (stress), with the
/// roles of each instance in pairwise different CTAs. Returns the slots.
#[cfg(test)]
pub fn place(rng: &mut Rng, threads: u32, tpb: u32, roles: u32, instances: u32) -> Vec<u32> {
    place_among(rng, (0..threads).collect(), threads, tpb, roles, instances)
}

/// `place` (the tests' placement) over the threads `order` only (the others stay `u32::MAX`).
fn place_among(
    rng: &mut Rng,
    mut order: Vec<u32>,
    threads: u32,
    tpb: u32,
    roles: u32,
    instances: u32,
) -> Vec<u32> {
    rng.shuffle(&mut order);
    let mut slots = vec![u32::MAX; threads as usize];
    let mut pool = order.into_iter();
    let mut rejected: Vec<u32> = Vec::new();
    'inst: for i in 0..instances {
        let mut ctas: Vec<u32> = Vec::with_capacity(roles as usize);
        for r in 0..roles {
            // Take the first thread (rejected ones first) whose CTA is not used by this instance.
            let pick = match rejected.iter().position(|t| !ctas.contains(&(t / tpb))) {
                Some(k) => Some(rejected.swap_remove(k)),
                None => loop {
                    match pool.next() {
                        Some(t) if ctas.contains(&(t / tpb)) => rejected.push(t),
                        other => break other,
                    }
                },
            };
            match pick {
                Some(t) => {
                    ctas.push(t / tpb);
                    slots[t as usize] = i * roles + r;
                }
                None => {
                    // Not enough CTAs left: undo this instance (never happens with >= roles CTAs).
                    for s in slots.iter_mut() {
                        if *s != u32::MAX && *s / roles == i {
                            *s = u32::MAX;
                        }
                    }
                    break 'inst;
                }
            }
        }
    }
    slots
}

/// A progress bar that appears only once a run has lasted a second.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    start: Instant,
    total: u64,
    msg: String,
    enabled: bool,
}

impl Progress {
    pub fn new(total: u64, msg: &str, enabled: bool) -> Self {
        Progress {
            bar: None,
            start: Instant::now(),
            total,
            msg: msg.to_string(),
            enabled,
        }
    }
    pub fn set(&mut self, done: u64) {
        if !self.enabled {
            return;
        }
        if self.bar.is_none() && self.start.elapsed() > Duration::from_secs(1) {
            let b = indicatif::ProgressBar::new(self.total);
            if let Ok(style) = indicatif::ProgressStyle::with_template(
                "{msg:24} [{bar:40}] {pos}/{len} launches, eta {eta}",
            ) {
                b.set_style(style.progress_chars("=> "));
            }
            b.set_message(self.msg.clone());
            self.bar = Some(b);
        }
        if let Some(b) = &self.bar {
            b.set_position(done);
        }
    }
    pub fn finish(self) {
        if let Some(b) = self.bar {
            b.finish_and_clear();
        }
    }
}

fn techniques(cfg: &RunCfg, kind: Kind) -> Vec<String> {
    let mut t = vec![
        "parallel instances per launch".to_string(),
        "roles at random threads of different CTAs, redrawn each launch".to_string(),
    ];
    if !matches!(kind, Kind::Deepep { .. }) {
        t.push(format!(
            "randomly permuted variable locations, {} B apart",
            cfg.stride * 4
        ));
        if cfg.stress {
            t.push(format!(
                "memory stress from its own CTAs ({:.0}% of the grid, redrawn each launch) on the \
                 test lines' non-variable words, from launch start",
                100.0 * (1.0 - cfg.tester_share)
            ));
        }
        t.push("a start barrier per instance".into());
        if cfg.stress {
            t.push(
                "pre-stress: testers start once half the stress threads have run 256 rounds".into(),
            );
        }
        if matches!(kind, Kind::Mp | Kind::MpOnce) {
            t.push("C's L1 warmed with data (ld.global.ca) before the flag test".into());
        }
        if matches!(kind, Kind::MpOnce) {
            t.push("C reads the flag once, after a random delay (nanosleep.u32 t, t in 0..2047), then data".into());
        }
    }
    t.push(format!(
        "waits bounded by {} µs of %globaltimer",
        cfg.budget.as_micros()
    ));
    t
}

/// One parameter point of a sweep (Alglave et al. 2015 §4: weak outcomes depend on the stress
/// and the placement of the variables, so a run reports rates per point, not one number).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub name: &'static str,
    /// Share of the grid's CTAs (and threads) that test; the rest stress.
    pub tester_share: f64,
    /// Words between two variables.
    pub stride: u32,
    pub stress: bool,
}

/// The sweep of `litmus --sweep`: the default point first.
pub const SWEEP: [Point; 4] = [
    Point {
        name: "stress 50% of CTAs, a line per variable",
        tester_share: 0.5,
        stride: 32,
        stress: true,
    },
    Point {
        name: "stress 75% of CTAs, a line per variable",
        tester_share: 0.25,
        stride: 32,
        stress: true,
    },
    Point {
        name: "stress 50% of CTAs, variables 8 B apart in one line",
        tester_share: 0.5,
        stride: 2,
        stress: true,
    },
    Point {
        name: "no stress, a line per variable",
        tester_share: 0.5,
        stride: 32,
        stress: false,
    },
];

/// The calibration program: SB without fences, whose weak outcome `r1=0 r2=0` the hardware must
/// show under effective stress; a run where it shows none proves nothing about the others.
pub const CALIBRATION: &str = "sb_plain";

/// Runs `p` once (`sweep` false: `cfg` as given) or at every point of [`SWEEP`] (litmus kinds;
/// DeepEP and §5 programs have no such parameters and run once).
pub fn run_points(
    gpu: &Gpu,
    p: &Program,
    cfg: &RunCfg,
    sweep: bool,
) -> Result<Vec<Report>, GpuError> {
    if !sweep || matches!(p.kind, Kind::Deepep { .. } | Kind::S5 { .. }) {
        return Ok(vec![run(gpu, p, cfg)?]);
    }
    SWEEP
        .iter()
        .map(|pt| {
            let c = RunCfg {
                tester_share: pt.tester_share,
                stride: pt.stride,
                stress: pt.stress,
                ..cfg.clone()
            };
            let mut r = run(gpu, p, &c)?;
            r.point = pt.name.to_string();
            Ok(r)
        })
        .collect()
}

/// Runs `p` on `gpu`.
pub fn run(gpu: &Gpu, p: &Program, cfg: &RunCfg) -> Result<Report, GpuError> {
    match p.kind {
        Kind::Deepep { missing } => run_deepep(gpu, p, cfg, missing),
        Kind::S5 {
            src_words,
            out_words,
            grid,
            cluster,
        } => run_s5(gpu, p, cfg, src_words, out_words, grid, cluster),
        _ => run_litmus(gpu, p, cfg),
    }
}

fn report(
    gpu: &Gpu,
    p: &Program,
    cfg: &RunCfg,
    launches: u64,
    per: u64,
    h: Histogram,
    t: Instant,
) -> Report {
    Report {
        program: p.name.into(),
        kernel: p.kernel.into(),
        seed: p.seed.into(),
        what: p.what.into(),
        correct: p.correct,
        device: gpu.info.name.clone(),
        launches,
        instances_per_launch: per,
        rounds: h.total(),
        techniques: techniques(cfg, p.kind),
        rows: h.rows(),
        seconds: t.elapsed().as_secs_f64(),
        start_barrier_timeouts: 0,
        stress_timeouts: 0,
        unreported: 0,
        point: String::new(),
    }
}

fn run_litmus(gpu: &Gpu, p: &Program, cfg: &RunCfg) -> Result<Report, GpuError> {
    let t0 = Instant::now();
    let f = gpu.function(p.kernel)?;
    let tpb = cfg.threads_per_block;
    let blocks = gpu.resident_blocks(f, tpb, 0)?.min(4096);
    let threads = blocks * tpb;
    let roles = p.kind.roles();
    let nv = p.kind.vars();
    let instances = ((threads as f64 * cfg.tester_share) as u32 / roles).max(1);
    // Stress CTAs: the share of the grid that does not test (at least one CTA per role tests).
    let stress_ctas =
        ((blocks as f64 * (1.0 - cfg.tester_share)) as u32).min(blocks - roles.min(blocks));
    let launches = cfg
        .launches
        .unwrap_or_else(|| p.rounds.div_ceil(instances as u64))
        .max(1);
    let mem_words = instances * nv * cfg.stride;
    let slots_b = gpu.alloc(threads as usize * 4)?;
    let locs_b = gpu.alloc(instances as usize * 4)?;
    let mem_b = gpu.alloc(mem_words as usize * 4)?;
    let out_b = gpu.alloc(instances as usize * OUT_WORDS * 4)?;
    // Counters, a start barrier per instance, a done count per instance (litmus.rs).
    let sync_b = gpu.alloc((SYNC_HEAD + 2 * instances as usize) * 4)?;
    let mut sync = vec![0u32; SYNC_HEAD + 2 * instances as usize];
    let (mut start_timeouts, mut stress_timeouts, mut unreported) = (0u64, 0u64, 0u64);
    let mut rng = Rng::new(cfg.seed ^ fxhash(p.name));
    let mut h = Histogram::new();
    let mut out = vec![0u32; instances as usize * OUT_WORDS];
    let mut prog = Progress::new(launches, p.name, cfg.progress);
    for l in 0..launches {
        let slots = place_split(
            &mut rng,
            blocks,
            tpb,
            roles,
            instances,
            stress_ctas,
            cfg.stress,
        );
        let mut locs: Vec<u32> = (0..instances).collect();
        rng.shuffle(&mut locs);
        slots_b.write(&slots)?;
        locs_b.write(&locs)?;
        mem_b.fill_u32(0)?;
        out_b.fill_u32(0)?;
        sync_b.fill_u32(0)?;
        let n_testers = slots.iter().filter(|s| **s < IDLE).count() as u32;
        // Pre-stress quorum: half the stress threads must have run litmus::PRESTRESS rounds
        // before any tester starts.
        let quorum = slots.iter().filter(|s| **s == STRESS).count() as u32 / 2;
        sync_b.write(&[quorum])?;
        let params = LitmusParams {
            slots: slots_b.ptr,
            mem: mem_b.ptr,
            locs: locs_b.ptr,
            out: out_b.ptr,
            // The stress works on the instances' own lines (the kernel skips the variables).
            scratch: mem_b.ptr,
            sync: sync_b.ptr,
            budget_ns: cfg.budget.as_nanos() as u64,
            n_instances: instances,
            stride: cfg.stride,
            scratch_words: mem_words,
            n_testers,
            stress_iters: if cfg.stress { 1 << 16 } else { 0 },
            seed: rng.next_u64() as u32,
        };
        gpu.launch(p.name, p.kernel, &LaunchConfig::new(blocks, tpb), &params)?;
        out_b.read(&mut out)?;
        sync_b.read(&mut sync)?;
        start_timeouts += sync[2] as u64;
        stress_timeouts += sync[3] as u64;
        let done = &sync[SYNC_HEAD + instances as usize..];
        for (w, &d) in out.chunks_exact(OUT_WORDS).zip(done) {
            // Only an instance all of whose roles reported has an outcome: the words of one that
            // never ran are the host's zero fill, not a result (SB's zeros are its weak outcome).
            if d == roles {
                h.add(p.classify(w, None));
            } else {
                unreported += 1;
            }
        }
        prog.set(l + 1);
    }
    prog.finish();
    let mut r = report(gpu, p, cfg, launches, instances as u64, h, t0);
    r.start_barrier_timeouts = start_timeouts;
    r.stress_timeouts = stress_timeouts;
    r.unreported = unreported;
    Ok(r)
}

fn run_deepep(gpu: &Gpu, p: &Program, cfg: &RunCfg, missing: bool) -> Result<Report, GpuError> {
    let t0 = Instant::now();
    let ranks = p.kind.roles();
    let f = gpu.function(p.kernel)?;
    let blocks = gpu.resident_blocks(f, 32, 0)?.min(1024);
    let instances = blocks / ranks;
    let launches = cfg
        .launches
        .unwrap_or_else(|| p.rounds.div_ceil(instances as u64))
        .max(1);
    let rows_b = gpu.alloc(instances as usize * (ranks * ranks) as usize * 4)?;
    let cta_b = gpu.alloc(blocks as usize * 4)?;
    let miss_b = gpu.alloc(instances as usize * 4)?;
    let out_b = gpu.alloc(instances as usize * ranks as usize * 4)?;
    let mut rng = Rng::new(cfg.seed ^ fxhash(p.name));
    let mut h = Histogram::new();
    let mut out = vec![0u32; instances as usize * ranks as usize];
    let mut prog = Progress::new(launches, p.name, cfg.progress);
    for l in 0..launches {
        let mut ctas: Vec<u32> = (0..blocks).collect();
        rng.shuffle(&mut ctas);
        let mut cta_rank = vec![u32::MAX; blocks as usize];
        for (k, &c) in ctas.iter().enumerate().take((instances * ranks) as usize) {
            let (i, r) = (k as u32 / ranks, k as u32 % ranks);
            cta_rank[c as usize] = i << 8 | r;
        }
        let miss: Vec<u32> = (0..instances)
            .map(|_| {
                if missing {
                    rng.below(ranks as u64) as u32
                } else {
                    u32::MAX
                }
            })
            .collect();
        cta_b.write(&cta_rank)?;
        miss_b.write(&miss)?;
        rows_b.fill_u32(0)?;
        out_b.fill_u32(0)?;
        let params = DeepepParams {
            rows: rows_b.ptr,
            cta_rank: cta_b.ptr,
            missing: miss_b.ptr,
            out: out_b.ptr,
            budget_ns: cfg.budget.as_nanos() as u64,
            n_ranks: ranks,
            n_instances: instances,
        };
        gpu.launch(p.name, p.kernel, &LaunchConfig::new(blocks, 32), &params)?;
        out_b.read(&mut out)?;
        for (i, w) in out.chunks_exact(ranks as usize).enumerate() {
            let m = if missing { Some(miss[i]) } else { None };
            h.add(p.classify(w, m));
        }
        prog.set(l + 1);
    }
    prog.finish();
    Ok(report(gpu, p, cfg, launches, instances as u64, h, t0))
}

#[allow(clippy::too_many_arguments)]
fn run_s5(
    gpu: &Gpu,
    p: &Program,
    cfg: &RunCfg,
    src_words: u32,
    out_words: u32,
    grid: u32,
    cluster: bool,
) -> Result<Report, GpuError> {
    let t0 = Instant::now();
    let launches = cfg.launches.unwrap_or(p.rounds).max(1);
    let src_b = gpu.alloc(src_words as usize * 4)?;
    let out_b = gpu.alloc(out_words as usize * 4)?;
    let st_b = gpu.alloc(16)?;
    let mut rng = Rng::new(cfg.seed ^ fxhash(p.name));
    let mut h = Histogram::new();
    let mut out = vec![0u32; out_words as usize];
    let mut status = [0u32; 1];
    let mut prog = Progress::new(launches, p.name, cfg.progress);
    for l in 0..launches {
        // Fresh random data (never the poison value), poisoned output.
        let src: Vec<u32> = (0..src_words)
            .map(|_| (rng.next_u64() as u32) | 1)
            .map(|x| {
                if x == crate::registry::programs::POISON {
                    1
                } else {
                    x
                }
            })
            .collect();
        src_b.write(&src)?;
        out_b.fill_u32(crate::registry::programs::POISON)?;
        st_b.fill_u32(0)?;
        let params = S5Params {
            src: src_b.ptr,
            out: out_b.ptr,
            status: st_b.ptr,
        };
        let mut cfg = LaunchConfig::new(grid, 64);
        if cluster {
            cfg = cfg.cluster(2);
        }
        gpu.launch(p.name, p.kernel, &cfg, &params)?;
        out_b.read(&mut out)?;
        st_b.read(&mut status)?;
        h.add(p.classify_s5(&src, &out, status[0]));
        prog.set(l + 1);
    }
    prog.finish();
    let mut r = report(gpu, p, cfg, launches, 1, h, t0);
    r.techniques = vec![
        "one instance per launch, fresh random source data".into(),
        "output poisoned with 0xAAAAAAAA before every launch".into(),
        "waits bounded by 200 ms of %globaltimer (in the kernel)".into(),
    ];
    Ok(r)
}

/// A stable small hash of a name (per-program seeds).
pub fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_puts_roles_in_different_ctas() {
        let mut rng = Rng::new(7);
        let (threads, tpb, roles, inst) = (8 * 64, 64, 3, 120);
        let slots = place(&mut rng, threads, tpb, roles, inst);
        let mut seen = vec![Vec::new(); inst as usize];
        for (t, &s) in slots.iter().enumerate() {
            if s != u32::MAX {
                seen[(s / roles) as usize].push((s % roles, t as u32 / tpb));
            }
        }
        for (i, v) in seen.iter().enumerate() {
            assert_eq!(v.len(), roles as usize, "instance {i} has all roles");
            let mut r: Vec<u32> = v.iter().map(|x| x.0).collect();
            r.sort();
            assert_eq!(r, vec![0, 1, 2]);
            let mut c: Vec<u32> = v.iter().map(|x| x.1).collect();
            c.sort();
            c.dedup();
            assert_eq!(
                c.len(),
                roles as usize,
                "instance {i}: roles share a CTA: {v:?}"
            );
        }
        assert_eq!(
            slots.iter().filter(|s| **s == u32::MAX).count(),
            (threads - inst * roles) as usize
        );
    }

    #[test]
    fn stress_runs_in_ctas_of_its_own() {
        let mut rng = Rng::new(11);
        let (blocks, tpb, roles, inst) = (16u32, 64u32, 2u32, 200u32);
        for stress in [true, false] {
            let slots = place_split(&mut rng, blocks, tpb, roles, inst, 8, stress);
            let mut per_cta = vec![(0u32, 0u32, 0u32); blocks as usize]; // testers, stress, idle
            for (t, &s) in slots.iter().enumerate() {
                let c = &mut per_cta[t / tpb as usize];
                match s {
                    STRESS => c.1 += 1,
                    IDLE => c.2 += 1,
                    _ => c.0 += 1,
                }
            }
            // 8 CTAs entirely stress (or idle without stress), none mixes testers and stress.
            let stress_ctas = per_cta
                .iter()
                .filter(|c| c.0 == 0 && (c.1 == tpb || c.2 == tpb))
                .count();
            assert_eq!(stress_ctas, 8, "{per_cta:?}");
            assert!(per_cta.iter().all(|c| c.0 == 0 || c.1 == 0), "{per_cta:?}");
            assert_eq!(per_cta.iter().map(|c| c.0).sum::<u32>(), inst * roles);
            assert_eq!(
                per_cta.iter().map(|c| c.1).sum::<u32>(),
                if stress { 8 * tpb } else { 0 }
            );
        }
        // Redrawn: another launch puts the stress elsewhere.
        let a = place_split(&mut rng, blocks, tpb, roles, inst, 8, true);
        let b = place_split(&mut rng, blocks, tpb, roles, inst, 8, true);
        let ctas = |s: &[u32]| {
            (0..blocks)
                .filter(|c| s[(c * tpb) as usize] == STRESS)
                .collect::<Vec<_>>()
        };
        assert_ne!(ctas(&a), ctas(&b));
    }

    #[test]
    fn calibration_program_is_a_broken_sb_and_the_sweep_starts_at_the_default() {
        let p =
            crate::registry::programs::find(CALIBRATION).expect("the calibration program exists");
        assert!(!p.correct && p.kind == Kind::Sb, "{p:?}");
        let d = RunCfg::default();
        assert_eq!(
            (SWEEP[0].tester_share, SWEEP[0].stride, SWEEP[0].stress),
            (d.tester_share, d.stride, d.stress)
        );
        assert!(SWEEP.iter().any(|p| !p.stress) && SWEEP.iter().any(|p| p.stride < 32));
        // The stress kernel needs a stride of 2 or more to leave the variables alone.
        assert!(SWEEP.iter().all(|p| p.stride >= 2));
    }

    #[test]
    fn placement_changes_with_the_rng() {
        let mut rng = Rng::new(1);
        let a = place(&mut rng, 256, 32, 2, 64);
        let b = place(&mut rng, 256, 32, 2, 64);
        assert_ne!(a, b);
    }

    #[test]
    fn rng_is_uniform_enough() {
        let mut rng = Rng::new(3);
        let mut c = [0u32; 4];
        for _ in 0..40_000 {
            c[rng.below(4) as usize] += 1;
        }
        assert!(c.iter().all(|&x| (9_000..11_000).contains(&x)), "{c:?}");
    }

    #[test]
    fn params_match_the_kernels_when_built() {
        assert!(
            crate::gpu::kernels_built(),
            "no kernels embedded: run `cargo xtask ptx`, then rebuild (cargo xtask test does both)"
        );
        for p in crate::registry::programs::PROGRAMS {
            let r = match p.kind {
                Kind::Deepep { .. } => crate::gpu::check_params::<DeepepParams>(p.kernel),
                Kind::S5 { .. } => crate::gpu::check_params::<S5Params>(p.kernel),
                _ => crate::gpu::check_params::<LitmusParams>(p.kernel),
            };
            assert!(r.is_ok(), "{}: {r:?}", p.name);
        }
    }
}
