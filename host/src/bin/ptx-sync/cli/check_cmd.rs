//! `ptx-sync check`: litmus files and compiled kernels (`FILE.ptx` with a launch, or the PTX
//! inside a `.fatbin`, a host object or executable, or a `.cubin` built with `-lineinfo`) against
//! the PTX memory model, and `--advise` (issue #22 §3): the cheapest synchronization that stays
//! correct, with the SASS each weakening saves from `docs/fence-costs.md`
//! ([`ptx_sync_host::inspect::cost_row`]).

use ptx_sync_host::analysis::container;
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
    /// Stop after N exploration steps (default 5,000,000, or PTX_SYNC_MAX_STEPS): the flags
    /// found by then are printed with an `Incomplete` line (exit 3); none found: unsupported.
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// For a container (`.fatbin`, `.o`, `.cubin`, an executable): check its PTX for this arch
    /// (`90`, `compute_90` or `sm_90`); default the highest ≤ 90, else the lowest.
    #[arg(long, value_name = "N", value_parser = parse_arch)]
    pub arch: Option<u32>,
}

/// `90`, `sm_90`, `compute_90` (a trailing `a`/`f` is the same PTX arch number).
fn parse_arch(s: &str) -> Result<u32, String> {
    let t = s.trim();
    let n = t
        .strip_prefix("compute_")
        .or_else(|| t.strip_prefix("sm_"))
        .unwrap_or(t)
        .trim_end_matches(['a', 'f']);
    n.parse()
        .map_err(|_| format!("`{s}`: an arch is N, sm_N or compute_N (e.g. 90)"))
}

impl KernelArgs {
    /// The model's options (`unroll`, `jobs`: `check`'s `--unroll` and `--jobs`, shared with
    /// litmus files).
    pub fn options(&self, unroll: Option<u32>, jobs: Option<usize>) -> KernelOptions {
        KernelOptions {
            entry: self.entry.clone(),
            grid: self.grid.clone(),
            block: self.block.clone(),
            cluster: self.cluster.clone(),
            params: self.param.clone(),
            dyn_smem: self.dyn_smem,
            unroll,
            assert: self.assert.clone(),
            max_steps: self.max_steps,
            jobs,
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
            ("--max-steps", self.max_steps.is_some()),
            ("--arch", self.arch.is_some()),
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
    if opts.jobs == Some(0) {
        eprintln!("ptx-sync check: --jobs 0: expected a positive number of threads");
        return code(2);
    }
    let k = kernel.options(opts.unroll, opts.jobs);
    // A text SASS dump is machine code: say what to give instead.
    if let Some(p) = paths
        .iter()
        .find(|p| p.extension().is_some_and(|e| e == "sass"))
    {
        eprintln!(
            "ptx-sync check: {}: a .sass file holds machine code, not the PTX the model checks; give the .ptx it was built from (`ptx-sync build --out DIR` writes both), or the .cubin/.fatbin/.o that embeds it",
            p.display()
        );
        return code(2);
    }
    // A fatbin, a cubin or a host ELF (`nvcc -c`, an executable): the PTX inside it
    // (`ptx_sync_host::analysis::container`), checked as a `.ptx` would be.
    let container = paths
        .iter()
        .find(|p| match p.extension().and_then(|e| e.to_str()) {
            Some("cubin" | "fatbin" | "o" | "so" | "a") => true,
            Some("ptx" | "litmus") => false,
            _ => sniff_container(p),
        });
    let ptx: Vec<&PathBuf> = paths
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    if (!ptx.is_empty() || container.is_some()) && paths.len() > 1 {
        eprintln!(
            "ptx-sync check: a .ptx file or a container is checked on its own (the launch options describe one entry of one module); got {} paths",
            paths.len()
        );
        return code(2);
    }
    if container.is_none() && kernel.arch.is_some() {
        eprintln!(
            "ptx-sync check: --arch picks the PTX of a container (.fatbin, .o, .cubin, an executable), not of a .ptx or litmus file"
        );
        return code(2);
    }
    if ptx.is_empty() && container.is_none() {
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
    }
    if let Some(p) = container {
        let (file, text) = match container_ptx(p, kernel) {
            Ok(ft) => ft,
            Err(m) => {
                eprintln!("ptx-sync check: {}: {m}", p.display());
                return code(2);
            }
        };
        return code(if advise {
            ptx_sync_model::advise::cli_ptx(&text, &file, &k, &ptx_sync_host::inspect::cost_row)
        } else {
            ptx_sync_model::kernel::cli_text(
                &text,
                &file,
                &k,
                opts.json.as_deref(),
                opts.witness.as_deref(),
            )
        });
    }
    if advise {
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

/// Whether `p` is a file that starts like a fatbin or an ELF file.
fn sniff_container(p: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    p.is_file()
        && std::fs::File::open(p)
            .and_then(|mut f| f.read_exact(&mut head))
            .is_ok()
        && container::is_container(&head)
}

/// The PTX module of container `p` that `kernel` (`--arch`, `--entry`) selects, and the name its
/// messages give it (`FILE[compute_90]`). A PTX entry this crate cannot decompress is asked of
/// the venv's `cuobjdump -ptx`. `Err`: the one-line reason (no PTX, a corrupt container, ...).
fn container_ptx(p: &std::path::Path, kernel: &KernelArgs) -> Result<(String, String), String> {
    let bytes = std::fs::read(p).map_err(|e| e.to_string())?;
    let mut c = container::read(&bytes)?;
    let mut fallback = String::new();
    if c.ptx.iter().any(|x| x.text.is_err()) {
        let start = std::env::current_dir().unwrap_or_default();
        let dumped = ptx_sync_build::tools::find_tool("cuobjdump", &start)
            .ok_or_else(|| "no cuobjdump found (`ptx-sync setup` installs it)".to_string())
            .and_then(|t| container::ptx_by_cuobjdump(&t, p));
        match dumped {
            Ok(d) => {
                container::fill_unread(&mut c, &d);
            }
            Err(e) => fallback = e,
        }
    }
    let x = container::select(&c, kernel.arch, kernel.entry.as_deref())?;
    let text = match &x.text {
        Ok(t) => t.clone(),
        Err(e) if fallback.is_empty() => {
            return Err(format!(
                "cannot read its {} PTX ({e}), and `cuobjdump -ptx` did not print it either",
                x.name()
            ))
        }
        Err(e) => {
            return Err(format!(
                "cannot read its {} PTX ({e}), nor ask cuobjdump: {fallback}",
                x.name()
            ))
        }
    };
    let mut others: Vec<String> = c
        .ptx
        .iter()
        .filter(|o| o.origin == x.origin && o.arch != x.arch)
        .map(container::Ptx::name)
        .collect();
    others.sort();
    others.dedup();
    if !others.is_empty() {
        eprintln!(
            "ptx-sync check: {}: checking its {} PTX (it also has {}; --arch picks another)",
            p.display(),
            x.name(),
            others.join(", ")
        );
    }
    Ok((format!("{}[{}]", p.display(), x.name()), text))
}

fn code(rc: i32) -> ExitCode {
    ExitCode::from(u8::try_from(rc).unwrap_or(2))
}
