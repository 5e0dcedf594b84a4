//! `ptx-sync litmus FILE.litmus`: a litmus file's own PTX on the GPU (kernel from
//! [`ptx_sync_host::litmus_ptx`]), run with the stress methodology of the built-in programs
//! (instances per launch, units placed at random and redrawn every launch, stress CTAs on the
//! test's own lines, pre-stress quorum, per-instance start barrier, L1 warming), its outcome
//! histogram over the test's observed terms printed next to the PTX model's allowed states
//! (`ptx_sync_model::check`). A state the GPU shows that the model forbids is a model or hardware
//! violation: exit 3. Values are 32-bit words on both sides, compared modulo 2^32
//! ([`lp::norm32`]). When the model's verdict is bounded (it cut a loop at its unroll bound), a
//! state it did not list is reported as unlisted, never as a violation.
//!
//! By layer: the file is prepared and run here; each instance's record is classified by
//! [`crate::analysis::litmus_obs`], and the run is rendered (text, JSON) by
//! [`crate::render::litmus_report`].

use crate::analysis::litmus_obs::{classify, Obs};
use crate::exec::runner::{fxhash, Progress, Rng, RunCfg};
use crate::gpu::{Gpu, GpuError};
use ptx_sync_host::cuda::{self, KernelParams};
use ptx_sync_host::litmus_ptx::{self as lp, Kernel};
use ptx_sync_model::ast::Test;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

ptx_sync_host::cuda::kernel_params! {
    /// The generated kernel's parameters ([`lp::PARAMS`]), same order and layout: checked field
    /// by field against the generated PTX before each launch.
    pub struct FileParams {
        pub mem: u64,
        pub units: u64,
        pub locs: u64,
        pub out: u64,
        pub sync: u64,
        pub budget_ns: u64,
        pub n_instances: u32,
        pub out_words: u32,
        pub n_locs: u32,
        pub mem_words: u32,
        pub stress_iters: u32,
        pub n_testers: u32,
        pub seed: u32,
        pub pad: u32,
    }
}
const _: () = assert!(std::mem::size_of::<FileParams>() == 80);

/// Instances a run aims at when `--iters` is not given.
pub const DEFAULT_ROUNDS: u64 = 100_000;

/// Whether a `litmus` argument names a file rather than a built-in program.
pub fn is_file_arg(s: &str) -> bool {
    s.ends_with(".litmus") || Path::new(s).is_file()
}

/// A file ready to run: parsed, its kernel generated, the model's allowed states.
pub struct Prepared {
    pub test: Test,
    pub kernel: Kernel,
    /// The model's states (values modulo 2^32, [`lp::norm32`]) and whether each satisfies the
    /// condition.
    pub allowed: BTreeMap<Vec<i64>, bool>,
    /// The model found data races (its states are those of the allowed executions).
    pub races: usize,
    /// Paths the model cut at its loop-unroll bound (longer loops on the GPU can end elsewhere):
    /// the model's verdict is bounded and its list of states may be incomplete.
    pub cut: usize,
    /// The model's unroll bound.
    pub unroll: u32,
}

/// Everything that needs no driver. `Err((exit code, one line))`: 2 for a file that cannot be
/// read or has a syntax error, 1 for a test that cannot run on hardware or that the model does
/// not express or cannot decide.
pub fn prepare(path: &str) -> Result<Prepared, (u8, String)> {
    let text =
        std::fs::read_to_string(path).map_err(|e| (2, format!("cannot read {path}: {e}")))?;
    let test = ptx_sync_model::parse(&text, path).map_err(|e| {
        // A syntax error is bad input (2); a construct the model does not express cannot run
        // next to the model either (1).
        let code = if e.kind == ptx_sync_model::ErrorKind::Parse {
            2
        } else {
            1
        };
        (code, one_line(&format!("{e}")))
    })?;
    // A test that needs format part 2 is read by the exploration engine only: refuse it as the
    // enumerating checker would (same error, same exit code as before part 2 existed).
    if let Some(e) = &test.legacy {
        let code = if e.kind == ptx_sync_model::ErrorKind::Parse {
            2
        } else {
            1
        };
        return Err((code, one_line(&format!("{e}"))));
    }
    // The kernel is generated from the parsed test alone, before the model is asked.
    let kernel = lp::generate(&test).map_err(|w| (1, format!("{path}: unsupported: {w}")))?;
    let outcome = ptx_sync_model::check(&text, path).map_err(|e| {
        (
            1,
            format!(
                "{path}: the model cannot decide it: {}",
                one_line(&format!("{e}"))
            ),
        )
    })?;
    let (races, cut) = (outcome.found.races.len(), outcome.found.cut);
    let mut allowed: BTreeMap<Vec<i64>, bool> = BTreeMap::new();
    for (st, sat) in outcome.found.states {
        *allowed
            .entry(st.into_iter().map(lp::norm32).collect())
            .or_insert(false) |= sat;
    }
    Ok(Prepared {
        test,
        kernel,
        allowed,
        races,
        cut,
        unroll: outcome.test.unroll,
    })
}

fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The result of a run.
pub struct FileReport {
    pub hist: BTreeMap<Obs, u64>,
    pub launches: u64,
    pub instances: u32,
    pub grid: u32,
    pub block: u32,
    pub start_timeouts: u64,
    pub stress_stops: u64,
    pub seconds: f64,
}

/// Runs the prepared test on `gpu`.
pub fn run(gpu: &Gpu, p: &Prepared, cfg: &RunCfg) -> Result<FileReport, GpuError> {
    let t0 = Instant::now();
    let name = p.test.name.as_str();
    let lay = &p.kernel.layout;
    let module = gpu.load_ptx(
        &format!("the PTX generated from {}", p.test.file),
        &p.kernel.ptx,
    )?;
    let f = module.function(lp::ENTRY)?;
    let list = cuda::ptx_params(&p.kernel.ptx, lp::ENTRY).ok_or_else(|| {
        GpuError::Invalid(format!(
            "{}: no .entry {} in the generated PTX",
            p.test.file,
            lp::ENTRY
        ))
    })?;
    let param_bytes = cuda::check_params::<FileParams>(lp::ENTRY, &list)
        .map_err(|e| GpuError::Invalid(e.to_string()))?;
    let tpb = 32 * lay.warps;
    let cl = lay.cluster.unwrap_or(1);
    let resident = gpu.resident_blocks(f, tpb, 0)?.min(4096);
    let total_units = (resident / cl).max(lay.units);
    let instances = (((total_units as f64 * cfg.tester_share) as u32) / lay.units).max(1);
    let stress_units = if cfg.stress {
        total_units.saturating_sub(instances * lay.units)
    } else {
        0
    };
    let n_units = instances * lay.units + stress_units;
    let grid = n_units * cl;
    let launches = cfg
        .launches
        .unwrap_or_else(|| DEFAULT_ROUNDS.div_ceil(instances as u64))
        .max(1);
    let nloc = lay.init.len().max(1) as u32;
    let mem_words = instances * nloc * lp::LINE_WORDS;
    let ow = lay.out_words;
    let mem_b = gpu.alloc(mem_words as usize * 4)?;
    let units_b = gpu.alloc(n_units as usize * 4)?;
    let locs_b = gpu.alloc(instances as usize * 4)?;
    let out_b = gpu.alloc(instances as usize * ow * 4)?;
    let sync_b = gpu.alloc((lp::SYNC_HEAD + instances as usize) * 4)?;
    let mut init = vec![0u32; mem_words as usize];
    for line in 0..(instances * nloc) as usize {
        init[line * lp::LINE_WORDS as usize] =
            lay.init.get(line % nloc as usize).copied().unwrap_or(0) as u32;
    }
    let mut rng = Rng::new(cfg.seed ^ fxhash(name));
    let mut hist: BTreeMap<Obs, u64> = BTreeMap::new();
    let mut out = vec![0u32; instances as usize * ow];
    let mut mem = vec![0u32; mem_words as usize];
    let mut sync = vec![0u32; lp::SYNC_HEAD];
    let (mut start_timeouts, mut stress_stops) = (0u64, 0u64);
    let all_done: u32 = if lay.n_threads >= 32 {
        u32::MAX
    } else {
        (1u32 << lay.n_threads) - 1
    };
    let mut prog = Progress::new(launches, name, cfg.progress);
    for l in 0..launches {
        let mut units: Vec<u32> = (0..instances * lay.units).collect();
        units.extend(std::iter::repeat_n(lp::STRESS_UNIT, stress_units as usize));
        rng.shuffle(&mut units);
        let mut locs: Vec<u32> = (0..instances).collect();
        rng.shuffle(&mut locs);
        units_b.write(&units)?;
        locs_b.write(&locs)?;
        mem_b.write(&init)?;
        out_b.fill_u32(0)?;
        sync_b.fill_u32(0)?;
        // Pre-stress quorum: half the stress threads run PRESTRESS rounds before testers start.
        sync_b.write(&[stress_units * cl * tpb / 2])?;
        let params = FileParams {
            mem: mem_b.ptr,
            units: units_b.ptr,
            locs: locs_b.ptr,
            out: out_b.ptr,
            sync: sync_b.ptr,
            budget_ns: cfg.budget.as_nanos() as u64,
            n_instances: instances,
            out_words: ow as u32,
            n_locs: nloc,
            mem_words,
            stress_iters: if cfg.stress { 1 << 16 } else { 0 },
            n_testers: instances * lay.n_threads as u32,
            seed: rng.next_u64() as u32,
            pad: 0,
        };
        let lc = cuda::LaunchConfig {
            cluster: lay.cluster.map(cuda::Dim3::from),
            ..cuda::LaunchConfig::new(grid, tpb)
        };
        gpu.launch_raw(
            name,
            lp::ENTRY,
            f,
            &lc,
            &params.as_bytes()[..param_bytes],
            false,
        )?;
        out_b.read(&mut out)?;
        mem_b.read(&mut mem)?;
        sync_b.read(&mut sync)?;
        start_timeouts += sync[2] as u64;
        stress_stops += sync[3] as u64;
        for (i, rec) in out.chunks_exact(ow).enumerate() {
            let o = classify(
                &p.test,
                lay,
                rec,
                |ph| mem[((locs[i] * nloc + ph as u32) * lp::LINE_WORDS) as usize],
                all_done,
            );
            *hist.entry(o).or_insert(0) += 1;
        }
        prog.set(l + 1);
    }
    prog.finish();
    drop(module);
    Ok(FileReport {
        hist,
        launches,
        instances,
        grid,
        block: tpb,
        start_timeouts,
        stress_stops,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_match_the_generated_kernel() {
        let text = "PTX MP\n{\nx=0; flag=0;\n}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.u32 [x], 42 | ld.acquire.gpu.u32 r0, [flag] ;\n st.release.gpu.u32 [flag], 1 | ld.u32 r1, [x] ;\nexists (P1:r0 == 1 /\\ P1:r1 != 42)\n";
        let t = ptx_sync_model::parse(text, "mp.litmus").unwrap();
        let k = lp::generate(&t).unwrap();
        let sizes = crate::gpu::ptx_param_sizes(&k.ptx, lp::ENTRY).unwrap();
        assert_eq!(
            crate::gpu::param_buffer_size(&sizes),
            std::mem::size_of::<FileParams>()
        );
        assert_eq!(sizes.len(), lp::PARAMS.len());
        // Field by field: the struct's names are PARAMS's, and each offset and size is the
        // generated `.param`'s.
        let names: Vec<&str> = FileParams::FIELDS.iter().map(|f| f.name).collect();
        let want: Vec<&str> = lp::PARAMS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, want);
        let list = cuda::ptx_params(&k.ptx, lp::ENTRY).unwrap();
        assert_eq!(cuda::check_params::<FileParams>(lp::ENTRY, &list), Ok(80));
        // Classification: done mask, timeout, registers, memory.
        let all = 0b11;
        assert_eq!(
            classify(&t, &k.layout, &[3, 0, 1, 42], |_| 0, all),
            Obs::State(vec![1, 42])
        );
        assert_eq!(
            classify(&t, &k.layout, &[3, 2, 1, 42], |_| 0, all),
            Obs::Timeout
        );
        assert_eq!(
            classify(&t, &k.layout, &[1, 0, 1, 42], |_| 0, all),
            Obs::Incomplete
        );
        assert!(is_file_arg("x/y.litmus") && !is_file_arg("sb_sc"));
    }
}
