//! `ptx-sync check`: litmus files and compiled kernels (`FILE.ptx` with a launch) against the PTX
//! memory model, and `--advise` (issue #22 §3): the cheapest synchronization that stays correct,
//! with the SASS each weakening saves from `docs/fence-costs.md`
//! ([`ptx_sync_host::inspect::cost_row`]).

use ptx_sync_model::kernel::KernelOptions;
use std::path::PathBuf;
use std::process::ExitCode;

/// The launch of a `.ptx` file's entry (ignored for litmus files).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct KernelArgs {
    /// The `.entry` to launch (needed when the module has several).
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    /// CTAs per grid: G or G,G,G.
    #[arg(long, value_name = "G[,G,G]")]
    pub grid: Option<String>,
    /// Threads per CTA: B or B,B,B.
    #[arg(long, value_name = "B[,B,B]")]
    pub block: Option<String>,
    /// CTAs per cluster: C or C,C,C.
    #[arg(long, value_name = "C[,C,C]")]
    pub cluster: Option<String>,
    /// Bind parameter I (its index in the entry's list): a fresh zeroed buffer (`I=buf:BYTES`),
    /// an integer (`I=INT`) or a tensor map (`I=tmap:W[xH]:BW[xBH]`).
    #[arg(long, value_name = "I=…")]
    pub param: Vec<String>,
    /// Dynamic shared memory bytes.
    #[arg(long, value_name = "BYTES")]
    pub dyn_smem: Option<u32>,
    /// Loop iterations explored before a path is cut (the verdict is then `bounded`).
    #[arg(long, value_name = "N")]
    pub unroll: Option<u32>,
    /// A final assertion over the parameters' buffers, e.g. `exists (p2[0] != 42)`.
    #[arg(long, value_name = "COND")]
    pub assert: Option<String>,
}

impl KernelArgs {
    /// The model's options.
    pub fn options(&self) -> KernelOptions {
        KernelOptions {
            entry: self.entry.clone(),
            grid: self.grid.clone(),
            block: self.block.clone(),
            cluster: self.cluster.clone(),
            params: self.param.clone(),
            dyn_smem: self.dyn_smem,
            unroll: self.unroll,
            assert: self.assert.clone(),
        }
    }
}

/// Runs `ptx-sync check`. Exit codes: 0 decided (advised), 2 bad input, 3 unsupported or bounded.
pub fn run(
    paths: &[PathBuf],
    opts: &ptx_sync_model::CheckOptions,
    kernel: &KernelArgs,
    advise: bool,
) -> ExitCode {
    let k = kernel.options();
    if advise {
        return code(ptx_sync_model::advise::cli(
            paths,
            &k,
            &ptx_sync_host::inspect::cost_row,
        ));
    }
    let (ptx, litmus): (Vec<&PathBuf>, Vec<&PathBuf>) = paths
        .iter()
        .partition(|p| p.extension().is_some_and(|e| e == "ptx"));
    let mut rc = 0;
    for p in &ptx {
        let json = if ptx.len() == 1 && litmus.is_empty() {
            opts.json.as_deref()
        } else {
            None
        };
        rc = rc.max(ptx_sync_model::kernel::cli(p, &k, json));
    }
    if !litmus.is_empty() || ptx.is_empty() {
        let rest: Vec<PathBuf> = litmus.into_iter().cloned().collect();
        rc = rc.max(ptx_sync_model::cli(&rest, opts));
    }
    code(rc)
}

fn code(rc: i32) -> ExitCode {
    ExitCode::from(u8::try_from(rc).unwrap_or(2))
}
