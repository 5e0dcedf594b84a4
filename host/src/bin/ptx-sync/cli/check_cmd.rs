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
    /// A final assertion over the parameters' buffers, e.g. `exists (p2[0] != 42)`.
    #[arg(long, value_name = "COND")]
    pub assert: Option<String>,
}

impl KernelArgs {
    /// The model's options (`unroll`: `check`'s `--unroll`, shared with litmus files).
    pub fn options(&self, unroll: Option<u32>) -> KernelOptions {
        KernelOptions {
            entry: self.entry.clone(),
            grid: self.grid.clone(),
            block: self.block.clone(),
            cluster: self.cluster.clone(),
            params: self.param.clone(),
            dyn_smem: self.dyn_smem,
            unroll,
            assert: self.assert.clone(),
        }
    }
}

impl KernelArgs {
    /// The first launch option given, as its flag (`--grid`), `None` when none is.
    fn first_given(&self) -> Option<&'static str> {
        [
            ("--entry", self.entry.is_some()),
            ("--grid", self.grid.is_some()),
            ("--block", self.block.is_some()),
            ("--cluster", self.cluster.is_some()),
            ("--param", !self.param.is_empty()),
            ("--dyn-smem", self.dyn_smem.is_some()),
            ("--assert", self.assert.is_some()),
        ]
        .into_iter()
        .find_map(|(f, given)| given.then_some(f))
    }
}

/// Runs `ptx-sync check`: one `.ptx` kernel at the launch `kernel` describes, or litmus files
/// (and directories of them) as before. Exit codes, the same for both: 0 every verdict decided
/// (whatever it is: a flagged or a failed assertion is a decided verdict, as for litmus files),
/// 2 bad input (a one-line error naming the argument or the line), 3 something unsupported or a
/// verdict left undecided by the unroll bound. With `--advise`: 0 advised.
pub fn run(
    paths: &[PathBuf],
    opts: &ptx_sync_model::CheckOptions,
    kernel: &KernelArgs,
    advise: bool,
) -> ExitCode {
    let k = kernel.options(opts.unroll);
    // Machine code is not the model's input: say what to give instead (a cubin holds SASS; the
    // PTX it was assembled from is what `ptx-sync build --out DIR` writes beside it).
    if let Some((p, e)) = paths.iter().find_map(|p| {
        p.extension()
            .and_then(|e| e.to_str())
            .filter(|e| matches!(*e, "cubin" | "fatbin" | "o" | "sass"))
            .map(|e| (p, e))
    }) {
        eprintln!(
            "ptx-sync check: {}: a .{e} file holds machine code, not the PTX the model checks; give the .ptx it was built from (`ptx-sync build --out DIR` writes both)",
            p.display()
        );
        return code(2);
    }
    let ptx: Vec<&PathBuf> = paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    if !ptx.is_empty() && paths.len() > 1 {
        eprintln!(
            "ptx-sync check: a .ptx file is checked on its own (the launch options describe one entry of one module); got {} paths",
            paths.len()
        );
        return code(2);
    }
    if ptx.is_empty() {
        if let Some(flag) = kernel.first_given() {
            eprintln!("ptx-sync check: {flag} applies to a .ptx kernel, not to litmus files");
            return code(2);
        }
    }
    if advise {
        if let Some(flag) = [
            ("--json", opts.json.is_some()),
            ("--witness", opts.witness.is_some()),
        ]
        .into_iter()
        .find_map(|(f, given)| given.then_some(f))
        {
            eprintln!("ptx-sync check: {flag} is not used with --advise (the advice is a table on stdout)");
            return code(2);
        }
        return code(ptx_sync_model::advise::cli(
            paths,
            &k,
            &ptx_sync_host::inspect::cost_row,
        ));
    }
    match ptx.first() {
        Some(p) => code(ptx_sync_model::kernel::cli_witness(
            p,
            &k,
            opts.json.as_deref(),
            opts.witness.as_deref(),
        )),
        None => code(ptx_sync_model::cli(paths, opts)),
    }
}

fn code(rc: i32) -> ExitCode {
    ExitCode::from(u8::try_from(rc).unwrap_or(2))
}
